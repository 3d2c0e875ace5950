package topology

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// GF(q) is a field: every nonzero element has an inverse, multiplication
// distributes, and the primitive element generates every nonzero element.
func TestGF(t *testing.T) {
	for _, q := range []int{3, 4, 5, 7, 8, 9, 11, 13, 16, 25, 27, 49} {
		f, err := NewGF(q)
		if err != nil {
			t.Fatal(err)
		}
		for a := 1; a < q; a++ {
			inv := 0
			for b := 1; b < q; b++ {
				if f.Mul(a, b) == 1 {
					inv++
				}
			}
			if inv != 1 {
				t.Fatalf("GF(%d): %d has %d inverses", q, a, inv)
			}
			for b := 0; b < q; b++ {
				for c := 0; c < q; c++ {
					if f.Mul(a, f.Add(b, c)) != f.Add(f.Mul(a, b), f.Mul(a, c)) {
						t.Fatalf("GF(%d): %d·(%d+%d) does not distribute", q, a, b, c)
					}
				}
			}
		}
		xi, seen := f.Primitive(), map[int]bool{}
		for e := 0; e < q-1; e++ {
			seen[f.Pow(xi, e)] = true
		}
		if len(seen) != q-1 || seen[0] {
			t.Errorf("GF(%d): ξ = %d generates %d elements", q, xi, len(seen))
		}
	}
	for _, q := range []int{6, 10, 12, 1, 0} {
		if _, err := NewGF(q); err == nil {
			t.Errorf("GF(%d) made", q)
		}
	}
}

// [SF] §2's counts: 2q² routers of network radix k' = (3q − δ)/2 (k'-regular),
// diameter 2 by breadth-first search, ⌈k'/2⌉ PEs per router by default, and the
// share of the Moore bound (k'² + 1 routers for diameter 2) it reaches.
func TestSlimFlyCounts(t *testing.T) {
	for _, c := range []struct {
		q, delta, radix, p int
		moore              float64 // 2q²/(k'²+1), as [SF] Table 2's MMS rows round it
	}{
		{3, -1, 5, 3, 18.0 / 26},
		{4, 0, 6, 3, 32.0 / 37},
		{5, 1, 7, 4, 50.0 / 50},
		{7, -1, 11, 6, 98.0 / 122},
		{8, 0, 12, 6, 128.0 / 145},
		{9, 1, 13, 7, 162.0 / 170},
		{11, -1, 17, 9, 242.0 / 290},
		{13, 1, 19, 10, 338.0 / 362},
	} {
		spec := MustParse("slimfly:" + itoa(c.q))
		if spec.PEs != c.p {
			t.Errorf("q=%d: %d PEs per router by default, want ⌈k'/2⌉ = %d", c.q, spec.PEs, c.p)
		}
		net, err := Build(spec)
		if err != nil {
			t.Fatal(err)
		}
		l, _ := spec.SlimFly()
		if l.Delta != c.delta || l.NetworkRadix() != c.radix {
			t.Errorf("q=%d: δ %d, k' %d; want %d, %d", c.q, l.Delta, l.NetworkRadix(), c.delta, c.radix)
		}
		if net.Switches() != 2*c.q*c.q || net.Terminals() != 2*c.q*c.q*c.p || net.Links() != c.q*c.q*c.radix {
			t.Errorf("q=%d: %d routers, %d PEs, %d links", c.q, net.Switches(), net.Terminals(), net.Links())
		}
		for s := 0; s < net.Switches(); s++ {
			deg := 0
			for p := 0; p < net.Ports(s); p++ {
				if net.Port(s, p).Peer >= 0 {
					deg++
				}
			}
			if deg != c.radix {
				t.Fatalf("q=%d: router %d has %d network ports, want k' = %d", c.q, s, deg, c.radix)
			}
		}
		if d := bfsDiameter(net); d != 2 {
			t.Errorf("q=%d: diameter %d, want 2", c.q, d)
		}
		if m := float64(net.Switches()) / float64(c.radix*c.radix+1); math.Abs(m-c.moore) > 1e-12 {
			t.Errorf("q=%d: Moore-bound fraction %.4f, want %.4f", c.q, m, c.moore)
		}
	}
	// q = 5: the Hoffman–Singleton graph, the Moore graph of degree 7 (50 = 7² + 1).
	if net := MustNew("slimfly:5"); net.Switches() != 50 || net.Ports(0)-net.TerminalsPerSwitch() != 7 {
		t.Errorf("slimfly:5: %d routers", net.Switches())
	}
}

func itoa(v int) string { return strconv.Itoa(v) }

// Spec strings and their errors.
func TestSlimFlySpecs(t *testing.T) {
	for in, want := range map[string]string{"slimfly:5": "slimfly:5", "slimfly:5@4": "slimfly:5", "slimfly:7@4": "slimfly:7@4", "SLIMFLY: 9": "slimfly:9"} {
		if s, err := Parse(in); err != nil || s.String() != want {
			t.Errorf("%q parses to %q (%v), want %q", in, s, err, want)
		}
	}
	for in, msg := range map[string]string{
		"slimfly:6":   "2 mod 4",
		"slimfly:15":  "not a prime power",
		"slimfly:2":   "bad q",
		"slimfly:x":   "bad q",
		"slimfly:5@0": "bad PEs",
		"slimfly:199": "bad q",
	} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: error %v, want one saying %q", in, err, msg)
		}
	}
}
