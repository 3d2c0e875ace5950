package netdraw

import (
	"bytes"
	"context"
	"image/png"
	"math"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/plots"
	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/engine"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// channelCount counts a network's channels from its links: two per link, one per
// one-way link.
func channelCount(net *topology.Network) int {
	n := 0
	for i := 0; i < net.Links(); i++ {
		if net.Link(i).OneWay {
			n++
		} else {
			n += 2
		}
	}
	return n
}

// Every example of every family draws: as many channels as the network has, each
// leaving its sender's place (and reaching its receiver's, unless it is a stub), and
// a PNG that is not blank and shows the load colours.
func TestEveryFamilyDraws(t *testing.T) {
	for _, f := range topology.Families() {
		for _, ex := range f.Examples {
			net, err := topology.New(ex)
			if err != nil {
				t.Fatal(err)
			}
			l, err := Lay(net)
			if err != nil {
				t.Fatalf("%s: %v", ex, err)
			}
			if got, want := l.Channels(), channelCount(net); got != want {
				t.Errorf("%s (%s layout): %d channels drawn, the network has %d", ex, l.Kind, got, want)
			}
			stubs := 0
			channels(net, func(s, p int, pt topology.Port) {
				path := l.Paths[net.PortID(s, p)]
				if path == nil {
					t.Fatalf("%s: channel %s has no path", ex, net.PortName(s, p))
				}
				if path[0] != l.Pos[s] {
					t.Fatalf("%s: channel %s starts at %v, its switch is at %v", ex, net.PortName(s, p), path[0], l.Pos[s])
				}
				if end := path[len(path)-1]; end != l.Pos[pt.Peer] {
					stubs++
					if d := math.Hypot(end.X-path[0].X, end.Y-path[0].Y); d > wrapStub+1e-9 {
						t.Fatalf("%s: channel %s ends %.2f away from its switch, at no switch", ex, net.PortName(s, p), d)
					}
				}
			})
			if net.IsMesh() && stubs > 0 {
				t.Errorf("%s: a mesh drawn with %d stubs", ex, stubs)
			}
			if net.Spec().Family == topology.FamilyTorus && stubs == 0 {
				t.Errorf("%s: a torus drawn without wraparound stubs", ex)
			}
			// Loads of all sizes, so the picture must show several colours.
			loads := make([]float64, net.TotalPorts())
			for g := range loads {
				loads[g] = float64(g%11) / 10
			}
			p, err := l.Plot(Options{Loads: loads})
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Channels) != l.Channels() {
				t.Fatalf("%s: the plot has %d channels, the layout %d", ex, len(p.Channels), l.Channels())
			}
			if net.Switches() > 4096 {
				continue // laid out and counted; PNGs of the small ones suffice
			}
			checkPicture(t, ex, p)
		}
	}
}

// checkPicture renders p and requires ink on at least 1 % of the pixels and at
// least 8 colours (load colours, nodes, text).
func checkPicture(t *testing.T, name string, p plots.NetworkPlot) {
	t.Helper()
	fig, err := p.Figure()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, err := fig.PNG(p.Size(400))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	r := img.Bounds()
	ink, colours := 0, map[[3]uint32]bool{}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if cr < 0xf000 || cg < 0xf000 || cb < 0xf000 {
				ink++
			}
			colours[[3]uint32{cr >> 12, cg >> 12, cb >> 12}] = true
		}
	}
	if share := float64(ink) / float64(r.Dx()*r.Dy()); share < 0.01 || len(colours) < 8 {
		t.Errorf("%s: %.2f %% of the picture inked, %d colours: want 1 %% and 8 at least", name, 100*share, len(colours))
	}
	for _, pr := range fig.Problems() {
		t.Errorf("%s: %s", name, pr)
	}
}

// A twin torus' internal links are emphasised and its cards coloured; InternalOnly
// keeps only their values.
func TestTwinInternalLinks(t *testing.T) {
	net := topology.MustNew("twin:4x4x4/A")
	ld, err := analysis.Load(context.Background(), routing.NewDOR(net, routing.TiePlus))
	if err != nil {
		t.Fatal(err)
	}
	loads, err := Bound(ld, net, ld.ChannelBound)
	if err != nil {
		t.Fatal(err)
	}
	top := 0.0
	for _, v := range loads {
		top = max(top, v)
	}
	if math.Abs(top-1) > 1e-12 {
		t.Fatalf("at the channel bound the busiest channel carries %g flits/cycle, want 1", top)
	}
	p, err := Draw(net, Options{Loads: loads, Only: InternalOnly})
	if err != nil {
		t.Fatal(err)
	}
	internal, valued := 0, 0
	for _, c := range p.Channels {
		if c.Emphasis {
			internal++
		}
		if !math.IsNaN(c.Value) {
			valued++
			if !c.Emphasis {
				t.Fatal("an external channel kept its value under InternalOnly")
			}
		}
	}
	if internal != 2*net.Nodes() || valued != internal {
		t.Fatalf("%d emphasised channels, %d with values; want %d internal channels, all with values", internal, valued, 2*net.Nodes())
	}
	if p.Emphasis == "" || len(p.Groups) != 2 || p.Nodes[0].Color == p.Nodes[1].Color {
		t.Fatalf("legend %q/%v and card colours %v, %v: want internal links and two cards named and coloured apart", p.Emphasis, p.Groups, p.Nodes[0].Color, p.Nodes[1].Color)
	}
}

func TestBadInput(t *testing.T) {
	net := topology.MustNew("torus:4x4")
	if _, err := Lay(nil); err == nil {
		t.Error("no error for no network")
	}
	for name, o := range map[string]Options{
		"short": {Loads: make([]float64, 3)},
		"nan":   {Loads: append(make([]float64, net.TotalPorts()-1), math.NaN())},
	} {
		if _, err := Draw(net, o); err == nil || !strings.Contains(err.Error(), "netdraw: ") {
			t.Errorf("%s: error %v", name, err)
		}
	}
	other := topology.MustNew("torus:4x2")
	ld, err := analysis.Load(context.Background(), routing.NewDOR(other, routing.TiePlus))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Bound(ld, net, 1); err == nil || !strings.Contains(err.Error(), "does not fit") {
		t.Errorf("a load of another network: %v", err)
	}
}

// The layouts are deterministic: the general one too.
func TestDeterministic(t *testing.T) {
	for _, spec := range []string{"tct:4,3", "twin:4x4x4/D", "kns:16,2,1"} {
		net := topology.MustNew(spec)
		a, _ := Lay(net)
		b, _ := Lay(net)
		for s := range a.Pos {
			if a.Pos[s] != b.Pos[s] {
				t.Fatalf("%s: switch %d at %v, then at %v", spec, s, a.Pos[s], b.Pos[s])
			}
		}
	}
}

// Drawing a 4,096-switch network, by its grid and by the general layout, to a PNG.
func BenchmarkDraw4096(b *testing.B) {
	net := topology.MustNew("torus:16x16x16")
	loads := make([]float64, net.TotalPorts())
	for g := range loads {
		loads[g] = float64(g%7) / 7
	}
	for _, c := range []struct {
		name string
		lay  func(*topology.Network) (*Layout, error)
	}{{"grid", Lay}, {"general", layGeneral}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				l, err := c.lay(net)
				if err != nil {
					b.Fatal(err)
				}
				p, err := l.Plot(Options{Loads: loads})
				if err != nil {
					b.Fatal(err)
				}
				fig, err := p.Figure()
				if err != nil {
					b.Fatal(err)
				}
				if _, err := fig.PNG(p.Size(600)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/draw")
		})
	}
}

// Frames share one colour scale, the busiest drawn channel of any frame (a terminal
// port's ejection load is not drawn and does not set it), and name their cycles.
func TestFramesShareScale(t *testing.T) {
	net := topology.MustNew("torus:4x4")
	l, err := Lay(net)
	if err != nil {
		t.Fatal(err)
	}
	term := net.PortID(0, net.TerminalPort(0))
	cf := &engine.ChannelFrames{Cycles: 100, End: 250, Util: make([][]float64, 3)}
	for f := range cf.Util {
		cf.Util[f] = make([]float64, net.TotalPorts())
		cf.Util[f][0] = 0.1 * float64(f+1)
		cf.Util[f][term] = 0.9
	}
	ps, err := l.Frames(cf, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 3 || math.Abs(ps[0].Max-0.3) > 1e-12 || ps[2].Max != ps[0].Max {
		t.Fatalf("%d frames, scale tops %v … %v: want 3 frames on a scale to 0.3", len(ps), ps[0].Max, ps[len(ps)-1].Max)
	}
	if !strings.HasSuffix(ps[2].Title, "cycles 200–250") {
		t.Errorf("last frame titled %q, want it to end at the run's end, cycle 250", ps[2].Title)
	}
	if _, err := l.Frames(nil, Options{}); err == nil {
		t.Error("no error for no frames")
	}
}

// A's and D's channel loads side by side, at A's bound: A's busiest channel (an
// internal one, 505 routes) at 1 flit/cycle, D's busiest internal one at 289/505 of
// that, the external channels at most 192/505 in both; every channel of both drawn.
func TestBoundsBeside(t *testing.T) {
	p, err := BoundsBeside(context.Background(), "twin:4x4x4/A", "twin:4x4x4/D")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Channels) != 2*512 || p.Unit != "channel load (flits/cycle)" || p.Emphasis != "internal link" {
		t.Fatalf("%d channels, unit %q, emphasis %q; want 1024, the load unit and the internal links", len(p.Channels), p.Unit, p.Emphasis)
	}
	var maxInt, maxExt [2]float64
	for i, c := range p.Channels {
		half := i / 512
		if c.Emphasis {
			maxInt[half] = max(maxInt[half], c.Value)
		} else {
			maxExt[half] = max(maxExt[half], c.Value)
		}
	}
	const eps = 1e-12
	if math.Abs(maxInt[0]-1) > eps || math.Abs(maxInt[1]-289.0/505) > eps || math.Abs(maxExt[0]-192.0/505) > eps || math.Abs(maxExt[1]-192.0/505) > eps {
		t.Errorf("busiest internal %v, external %v; want [1 %.4f] and %.4f in both", maxInt, maxExt, 289.0/505, 192.0/505)
	}
	if !strings.Contains(p.Title, "0.2515 flits/cycle/PE; bounds twin:4x4x4/A 0.2515, twin:4x4x4/D 0.4394") {
		t.Errorf("title %q", p.Title)
	}
	for _, bad := range [][]string{nil, {"twin:4x4x4/Q"}, {"kns:16,2,1"}} {
		if _, err := BoundsBeside(context.Background(), bad...); err == nil {
			t.Errorf("BoundsBeside(%q) drew", bad)
		}
	}
}
