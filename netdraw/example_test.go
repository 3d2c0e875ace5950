package netdraw_test

import (
	"context"
	"fmt"
	"log"

	"github.com/twintorus/twintorus/netdraw"
	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// Configuration A of the 4×4×4 twin torus with its internal links coloured by their
// load under DORT and uniform traffic, at the offered rate where its busiest channel
// is full: in a notebook, kernel.ShowNetwork(p, err) shows it.
func ExampleDraw() {
	net := topology.MustNew("twin:4x4x4/A")
	l, err := analysis.Load(context.Background(), routing.NewDOR(net, routing.TiePlus))
	if err != nil {
		log.Fatal(err)
	}
	loads, err := netdraw.Bound(l, net, l.ChannelBound)
	if err != nil {
		log.Fatal(err)
	}
	p, err := netdraw.Draw(net, netdraw.Options{Loads: loads, Only: netdraw.InternalOnly})
	if err != nil {
		log.Fatal(err)
	}
	fig, err := p.Figure()
	if err != nil {
		log.Fatal(err)
	}
	if _, err := fig.PNG(p.Size(600)); err != nil { // or fig.Save("a.svg", w, h)
		log.Fatal(err)
	}
	fmt.Printf("%d switches, %d channels drawn; legend: %s, %s\n", len(p.Nodes), len(p.Channels), p.Groups, p.Emphasis)
	fmt.Printf("bound %.4f flits/cycle/PE: %d routes on the busiest internal channel\n", l.Bound, l.MaxInternal)
	// Output:
	// 128 switches, 512 channels drawn; legend: [Card0 Card1], internal link
	// bound 0.2515 flits/cycle/PE: 505 routes on the busiest internal channel
}

// A run's channel utilisation over time: a hot spot on an 8×8 torus, frames of 500
// cycles drawn on one colour scale; kernel.ShowNetworkFrames(frames, err) plays them
// with a slider.
func ExampleLayout_Frames() {
	pt := experiment.NewPoint("torus:8x8", 0.2)
	pt.Traffic = "hotspot:0.1@36" // node (4, 4) receives 10 % of the messages
	pt.Warmup, pt.Measure, pt.ChannelFrames = 0, 2000, 500
	pt.Params = pt.Params.StationaryOff()
	r, err := pt.Run(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	l, err := netdraw.Lay(topology.MustNew("torus:8x8"))
	if err != nil {
		log.Fatal(err)
	}
	frames, err := l.Frames(r.ChannelFrames, netdraw.Options{Unit: "utilisation (flits/cycle)"})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range frames {
		fmt.Println(f.Title, len(f.Channels))
	}
	// Output:
	// torus:8x8, cycles 0–500 256
	// torus:8x8, cycles 500–1000 256
	// torus:8x8, cycles 1000–1500 256
	// torus:8x8, cycles 1500–2000 256
}
