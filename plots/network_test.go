package plots

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// ring is four switches on a square, both channels of each link with a value.
func ring() NetworkPlot {
	p := NetworkPlot{Options: Options{Title: "ring"}, Unit: "load (flits/cycle)", Emphasis: "internal link", Groups: []string{"Card0"}}
	for i := 0; i < 4; i++ {
		a := float64(i) * math.Pi / 2
		p.Nodes = append(p.Nodes, NetworkNode{X: math.Cos(a), Y: math.Sin(a), Color: Blue})
	}
	for i := 0; i < 4; i++ {
		a, b := p.Nodes[i], p.Nodes[(i+1)%4]
		p.Channels = append(p.Channels,
			NetworkChannel{Path: []Pos{{a.X, a.Y}, {b.X, b.Y}}, Value: float64(i) / 4, Emphasis: i == 0},
			NetworkChannel{Path: []Pos{{b.X, b.Y}, {a.X, a.Y}}, Value: math.NaN()})
	}
	p.Notes = []NetworkNote{{X: -1, Y: 0, Text: "west", Right: true}}
	return p
}

func TestNetworkPlotDraws(t *testing.T) {
	p := ring()
	f, err := p.Figure()
	if err != nil {
		t.Fatal(err)
	}
	w, h := p.Size(300)
	if w != 300 || !(h > 100 && h < 600) {
		t.Fatalf("size %v×%v for a square drawing 300 wide", w, h)
	}
	if _, err := f.PNG(w, h); err != nil {
		t.Fatal(err)
	}
	for _, pr := range f.Problems() {
		t.Error(pr)
	}
	// The right-aligned note widened the drawing to the left (past the nodes' own
	// margin, two radii) rather than being cut (Problems would say "clipped").
	if f.plot.X.Min >= -1-2*0.12 {
		t.Errorf("x range starts at %v: the note left of x = -1 was given no room", f.plot.X.Min)
	}
	if got := p.top(); got != 0.75 {
		t.Errorf("scale top %v, want the largest value 0.75", got)
	}
}

// A path moves to the right of its direction of travel, so the two channels of a link
// lie side by side.
func TestShiftRight(t *testing.T) {
	east := []vg.Point{{X: 0, Y: 0}, {X: 10, Y: 0}}
	west := []vg.Point{{X: 10, Y: 0}, {X: 0, Y: 0}}
	shift(east, 1)
	shift(west, 1)
	if east[0].Y != -1 || west[0].Y != 1 {
		t.Fatalf("eastward path moved to y %v, westward to %v: want -1 (right of east) and +1 (right of west)", east[0].Y, west[0].Y)
	}
}

func TestBeside(t *testing.T) {
	a, b := ring(), ring()
	b.Channels[2].Value = 2
	both, err := Beside("two", a, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(both.Nodes) != 8 || len(both.Channels) != 16 || both.top() != 2 {
		t.Fatalf("%d nodes, %d channels, scale top %v: want 8, 16 and the larger top 2", len(both.Nodes), len(both.Channels), both.top())
	}
	_, xmaxA, _, _ := a.extent()
	if both.Nodes[4].X <= xmaxA {
		t.Errorf("the second drawing starts at x %v, inside the first (up to %v)", both.Nodes[4].X, xmaxA)
	}
	if _, err := Beside("none"); err == nil {
		t.Error("no error for no drawings")
	}
}

func TestNetworkPlotErrors(t *testing.T) {
	for name, p := range map[string]NetworkPlot{
		"no nodes": {},
		"nan node": {Nodes: []NetworkNode{{X: math.NaN()}}},
		"short":    {Nodes: []NetworkNode{{}}, Channels: []NetworkChannel{{Path: []Pos{{}}}}},
		"negative": {Nodes: []NetworkNode{{}}, Channels: []NetworkChannel{{Path: []Pos{{}, {X: 1}}, Value: -1}}},
		"colour":   {Nodes: []NetworkNode{{Color: 99}}},
		"max":      {Nodes: []NetworkNode{{}}, Max: math.Inf(1)},
	} {
		if _, err := p.Figure(); err == nil || !strings.HasPrefix(err.Error(), "plots: network") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
