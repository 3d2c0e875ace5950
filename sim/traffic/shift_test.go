package traffic

import (
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

// The dimension-aligned shift moves one node coordinate and keeps the others and the
// PE's slot, on any network with coordinates (HyperX, torus, flattened butterfly),
// and is refused with a clear error where there are none (Slim Fly).
func TestShift(t *testing.T) {
	for _, c := range []struct {
		spec, pattern, name string
		d, by               int
	}{
		{"hyperx:4x3x2@2", "shift", "shift", 0, 1},
		{"hyperx:4x3x2@2", "shift:1", "shift:1", 1, 1},
		{"hyperx:4x3x2@2", "shift:0+3", "shift:0+3", 0, 3},
		{"hyperx:4x3x2@2", "shift:0+1", "shift", 0, 1},
		{"torus:5x4", "shift:1+2", "shift:1+2", 1, 2},
		{"flatfly:4,2@4", "shift", "shift", 0, 1},
	} {
		net := topology.MustNew(c.spec)
		p, err := ParsePattern(c.pattern, net)
		if err != nil {
			t.Fatal(err)
		}
		if p.Name() != c.name {
			t.Errorf("%s: name %q, want %q", c.pattern, p.Name(), c.name)
		}
		if q, err := ParsePattern(p.Name(), net); err != nil || q.Name() != p.Name() {
			t.Errorf("%s does not parse back: %v", p.Name(), err)
		}
		seen := map[int]bool{}
		per := net.Terminals() / net.Nodes()
		for src := 0; src < net.Terminals(); src++ {
			dst := p.Dest(src, nil)
			if dst < 0 || seen[dst] {
				t.Fatalf("%s on %s: PE %d -> %d (not a permutation without fixed points)", c.pattern, c.spec, src, dst)
			}
			seen[dst] = true
			a, b := src/per, dst/per
			if src%per != dst%per {
				t.Errorf("%s: PE %d -> %d changes slot", c.pattern, src, dst)
			}
			for d := 0; d < net.Dims(); d++ {
				want := net.Digit(a, d)
				if d == c.d {
					want = (want + c.by) % net.Radix(d)
				}
				if net.Digit(b, d) != want {
					t.Fatalf("%s on %s: node %v -> %v", c.pattern, c.spec, net.Coord(a), net.Coord(b))
				}
			}
		}
	}
	net := topology.MustNew("hyperx:4x3")
	for pat, msg := range map[string]string{"shift:2": "bad dimension", "shift:1+3": "bad offset", "shift:x": "bad dimension", "shift:0+0": "bad offset"} {
		if _, err := ParsePattern(pat, net); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want an error saying %q", pat, err, msg)
		}
	}
	if _, err := ParsePattern("shift", topology.MustNew("slimfly:5")); err == nil || !strings.Contains(err.Error(), "no node coordinates") {
		t.Errorf("shift on a Slim Fly: %v", err)
	}
}
