package netdraw

import (
	"math"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

// A dragonfly is drawn as a circle of its groups: every switch lies nearer to each
// switch of its own group than to any switch of another group, the groups' centres
// stand on one circle in group order, and the drawing is about as tall as it is wide.
func TestDragonflyDrawnByGroup(t *testing.T) {
	for _, spec := range []string{"dragonfly:4,2,2", "dragonfly:2", "dragonfly:8,4,4,9/relative"} {
		net := topology.MustNew(spec)
		l, err := Lay(net)
		if err != nil {
			t.Fatal(err)
		}
		if l.Kind != "groups" {
			t.Fatalf("%s: laid out as %q, want groups", spec, l.Kind)
		}
		d := func(a, b int) float64 { return math.Hypot(l.Pos[a].X-l.Pos[b].X, l.Pos[a].Y-l.Pos[b].Y) }
		within, across := 0.0, math.Inf(1)
		for a := 0; a < net.Switches(); a++ {
			for b := a + 1; b < net.Switches(); b++ {
				if net.Group(a) == net.Group(b) {
					within = max(within, d(a, b))
				} else {
					across = min(across, d(a, b))
				}
			}
		}
		if within >= across {
			t.Errorf("%s: switches of a group up to %.2f apart, of different groups as near as %.2f", spec, within, across)
		}
		// Group centres: the mean of their switches, on one circle, at angles that
		// go round clockwise in group order.
		g := net.Groups()
		cx, cy, n := make([]float64, g), make([]float64, g), make([]float64, g)
		for s := 0; s < net.Switches(); s++ {
			k := net.Group(s)
			cx[k] += l.Pos[s].X
			cy[k] += l.Pos[s].Y
			n[k]++
		}
		r0 := math.Hypot(cx[0]/n[0], cy[0]/n[0])
		for k := range g {
			x, y := cx[k]/n[k], cy[k]/n[k]
			if r := math.Hypot(x, y); math.Abs(r-r0) > 1e-9*r0 {
				t.Errorf("%s: group %d's centre at radius %.3f, group 0's at %.3f", spec, k, r, r0)
			}
			want := math.Pi/2 - 2*math.Pi*float64(k)/float64(g)
			if got := math.Atan2(y, x); math.Abs(math.Remainder(got-want, 2*math.Pi)) > 1e-9 {
				t.Errorf("%s: group %d at angle %.3f, want %.3f", spec, k, got, want)
			}
		}
		p, err := Draw(net, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if w, h := p.Size(800); h > 1.3*w || h < 0.7*w {
			t.Errorf("%s: drawn %v × %v points, a circle of groups should be about square", spec, w, h)
		}
	}
}
