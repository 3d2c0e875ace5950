// Command netdraw writes the network pictures of issue 43 as PNGs into a directory:
// configurations A and D of the 4×4×4 twin torus side by side, internal links
// coloured by their DORT channel load under uniform traffic; a KNS hybrid with the
// utilisation a short uniform run measured; a 16×16 torus whose middle PE is a hot
// spot, at two moments of one run (the utilisation of two frames).
//
//	go run ./tools/netdraw -out /tmp/netdraw-out
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"gonum.org/v1/plot/vg"

	"github.com/twintorus/twintorus/netdraw"
	"github.com/twintorus/twintorus/plots"
	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

func main() {
	out := flag.String("out", "netdraw-out", "directory the PNGs go to")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "netdraw:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	ctx := context.Background()
	// A vs D: the internal links' load under uniform traffic routed by DORT, at the
	// rate where A's busiest channel (an internal one) is full.
	var twins []plots.NetworkPlot
	var loads []*analysis.ChannelLoad
	for _, spec := range []string{"twin:4x4x4/A", "twin:4x4x4/D"} {
		net := topology.MustNew(spec)
		l, err := analysis.Load(ctx, routing.NewDOR(net, routing.TiePlus))
		if err != nil {
			return err
		}
		fmt.Printf("%s: max routes %d (internal %d, external %d), bound %.4f flits/cycle/PE\n", spec, l.MaxRoutes, l.MaxInternal, l.MaxExternal, l.Bound)
		loads = append(loads, l)
	}
	rate := loads[0].ChannelBound
	for i, spec := range []string{"twin:4x4x4/A", "twin:4x4x4/D"} {
		net := topology.MustNew(spec)
		ld, err := netdraw.Bound(loads[i], net, rate)
		if err != nil {
			return err
		}
		p, err := netdraw.Draw(net, netdraw.Options{Title: fmt.Sprintf("%s: bound %.3f flits/cycle/PE", spec, loads[i].Bound),
			Loads: ld, Only: netdraw.InternalOnly, Max: 1})
		if err != nil {
			return err
		}
		twins = append(twins, p)
	}
	ad, err := plots.Beside(fmt.Sprintf("internal links under DORT, uniform traffic at %.3f flits/cycle/PE (A's bound)", rate), twins...)
	if err != nil {
		return err
	}
	ad.Unit = "internal link load (flits/cycle)"
	if err := save(filepath.Join(dir, "twin-A-vs-D-internal-load.png"), ad, 1000); err != nil {
		return err
	}

	// KNS: measured utilisation of a run with a hot router.
	kp := experiment.NewPoint("kns:16,2,1", 0.2)
	kp.Traffic = "hotspot:0.05@136"
	kp.Warmup, kp.Measure, kp.Deadlock = 2000, 4000, "none"
	if err := drawMeasured(ctx, kp, "kns:16,2,1 (hybrid DOR), 5 % of messages to router 136, 0.2 flits/cycle/PE",
		filepath.Join(dir, "kns-16-2-1-hotspot.png"), 1000); err != nil {
		return err
	}

	// A dragonfly under its adversarial traffic (every PE of group i to group i+1):
	// minimal routing funnels a group's traffic onto its one global link to the next.
	dp := experiment.NewPoint("dragonfly:4,2,2", 0.1)
	dp.Traffic, dp.Routing, dp.Deadlock = "groupshift", "dfmin", "none"
	dp.Warmup, dp.Measure = 1000, 3000
	if err := drawMeasured(ctx, dp, "dragonfly:4,2,2, minimal routing, every PE to the next group, 0.1 flits/cycle/PE",
		filepath.Join(dir, "dragonfly-4-2-2-groupshift-min.png"), 900); err != nil {
		return err
	}

	// A hot spot on a 16×16 torus: PE 136 = node (8, 8) receives 5 % of all messages.
	hp := experiment.NewPoint("torus:16x16", 0.15)
	hp.Traffic = "hotspot:0.05@136"
	hp.Warmup, hp.Measure, hp.ChannelFrames = 0, 4000, 250
	hp.Params = hp.Params.StationaryOff()
	hr, err := hp.Run(ctx)
	if err != nil {
		return err
	}
	hnet := topology.MustNew("torus:16x16")
	lay, err := netdraw.Lay(hnet)
	if err != nil {
		return err
	}
	frames, err := lay.Frames(hr.ChannelFrames, netdraw.Options{Title: "torus:16x16, 5 % of messages to node (8,8), 0.15 flits/cycle/PE",
		Unit: "utilisation (flits/cycle)"})
	if err != nil {
		return err
	}
	fmt.Printf("hot spot: %d frames of %d cycles, accepted %.4f, saturated %v\n", len(frames), hr.ChannelFrames.Cycles, hr.Accepted, hr.Saturated)
	for _, f := range []int{1, len(frames) - 1} {
		if err := save(filepath.Join(dir, fmt.Sprintf("torus-16x16-hotspot-frame%02d.png", f)), frames[f], 700); err != nil {
			return err
		}
	}
	both, err := plots.Beside("torus:16x16, hot spot at node (8,8): channel utilisation early and late in one run", frames[1], frames[len(frames)-1])
	if err != nil {
		return err
	}
	both.Unit = "utilisation (flits/cycle)"
	return save(filepath.Join(dir, "torus-16x16-hotspot-two-moments.png"), both, 1100)
}

// drawMeasured runs point p (its window as given, without the stationarity check) with
// every channel's utilisation recorded and saves the network drawn with it as a PNG
// width points wide, titled title and the traffic it accepted.
func drawMeasured(ctx context.Context, p experiment.Point, title, path string, width float64) error {
	p.Channels = true
	p.Params = p.Params.StationaryOff()
	r, err := p.Run(ctx)
	if err != nil {
		return err
	}
	net, err := topology.New(p.Topology)
	if err != nil {
		return err
	}
	d, err := netdraw.Draw(net, netdraw.Options{Title: fmt.Sprintf("%s: measured (accepted %.3f)", title, r.Accepted),
		Loads: r.ChannelUtil, Unit: "utilisation (flits/cycle)"})
	if err != nil {
		return err
	}
	return save(path, d, width)
}

// save writes p as a PNG width points wide and says what of its text breaks the
// rules of a printed figure.
func save(path string, p plots.NetworkPlot, width float64) error {
	f, err := p.Figure()
	if err != nil {
		return err
	}
	w, h := p.Size(vg.Length(width))
	if err := f.Save(path, w, h); err != nil {
		return err
	}
	for _, pr := range f.Problems() {
		fmt.Fprintln(os.Stderr, path+":", pr)
	}
	fmt.Println("wrote", path)
	return nil
}
