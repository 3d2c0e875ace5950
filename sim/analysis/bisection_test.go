package analysis

import (
	"math"
	"math/bits"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

// enumBisection is the fewest links between two halves of the switches, by trying
// every halving (at most 20 switches).
func enumBisection(net *topology.Network) int64 {
	n := net.Switches()
	best := int64(-1)
	for set := uint32(1); set < 1<<n; set += 2 { // switch 0 in the set: each halving once
		if bits.OnesCount32(set) != n/2 {
			continue
		}
		cut := int64(0)
		for i := 0; i < net.Links(); i++ {
			if l := net.Link(i); (set>>l.A)&1 != (set>>l.B)&1 {
				cut++
			}
		}
		if best < 0 || cut < best {
			best = cut
		}
	}
	return best
}

// The spectral bounds bracket the minimum bisection found by enumeration; on HyperX
// the lower bound K·min S·P/4 meets [HX]'s formula whenever the smallest dimension is
// even, which proves the formula the minimum; on the Slim Fly of q = 5 (the
// Hoffman–Singleton graph, Laplacian eigenvalues 0, 5, 10) λ₂ is 5.
func TestBisectionBounds(t *testing.T) {
	for _, c := range []struct {
		spec    string
		formula int64
		lambda2 float64
	}{
		{"hyperx:4x4", 16, 4},
		{"hyperx:2x2x2", 4, 2},
		{"hyperx:4x2/2", 8, 4},
		{"hyperx:4x3", 12, 3}, // the smallest dimension is odd: the bound stays below
		{"hyperx:3x5", 0, 3},
		{"hyperx:4x4x4@4", 64, 4},
		{"hyperx:8x8@8", 128, 8},
		{"hyperx:4x6@2/2", 48, 8},
		{"flatfly:4,3", 64, 4},
		{"slimfly:5", 0, 5},
		{"slimfly:4", 0, 0},
		{"slimfly:7", 0, 0},
	} {
		net := topology.MustNew(c.spec)
		rep, err := Bisection(net)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Spectral || rep.Formula != c.formula || rep.Lower > rep.Upper || (c.formula > 0 && (rep.Lower > c.formula || c.formula > rep.Upper)) {
			t.Errorf("%s: %+v; want formula %d inside the bounds", c.spec, rep, c.formula)
		}
		if c.lambda2 > 0 && math.Abs(rep.Lambda2-c.lambda2) > 1e-9 {
			t.Errorf("%s: λ₂ %.12f, want %g", c.spec, rep.Lambda2, c.lambda2)
		}
		if c.formula > 0 && c.lambda2*float64(net.Switches())/4 == float64(c.formula) && rep.Lower != c.formula {
			t.Errorf("%s: lower bound %d, the formula %d", c.spec, rep.Lower, c.formula)
		}
		if net.Switches() <= 16 {
			if e := enumBisection(net); e < rep.Lower || e > rep.Upper || (c.formula > 0 && e != c.formula) {
				t.Errorf("%s: enumeration %d, bounds [%d, %d], formula %d", c.spec, e, rep.Lower, rep.Upper, c.formula)
			}
		}
		t.Logf("%s: formula %d, λ₂ %.4f, bisection in [%d, %d]", c.spec, rep.Formula, rep.Lambda2, rep.Lower, rep.Upper)
	}
	if rep, err := Bisection(topology.MustNew("torus:32x32")); err != nil || rep.Spectral {
		t.Errorf("a 1,024-switch torus: %+v, %v; want no spectrum above %d switches", rep, err, MaxSpectralSwitches)
	}
}
