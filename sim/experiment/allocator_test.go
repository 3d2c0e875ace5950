package experiment

import (
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/engine"
)

// A spec names the allocator among its engine keys; the default (rr2, written or not)
// keeps the points' keys, iSLIP makes new ones, and a bad one is refused with its line.
func TestSpecAllocator(t *testing.T) {
	base := "topologies: [twin:4x4x2x2x2]\nrouting: tsdor\ndeadlock: vc\nloads: [0.1]\n"
	key := func(extra string) string {
		s, err := ParseSpec("a.yaml", []byte(base+extra))
		if err != nil {
			t.Fatal(err)
		}
		cs, err := s.Curves()
		if err != nil {
			t.Fatal(err)
		}
		pt := cs[0].Point
		pt.Load, pt.Seed = 0.1, 1
		return pt.Key() + " " + pt.Allocator.String()
	}
	none, rr2, islip := key(""), key("engine:\n  allocator: rr2\n"), key("engine:\n  allocator: islip:2\n")
	if none != rr2 || !strings.HasSuffix(none, " rr2") {
		t.Errorf("the default allocator changed the point: %s against %s", none, rr2)
	}
	if !strings.HasSuffix(islip, " islip:2") || strings.Fields(islip)[0] == strings.Fields(none)[0] {
		t.Errorf("iSLIP: %s (default %s)", islip, none)
	}
	_, err := ParseSpec("a.yaml", []byte(base+"engine:\n  allocator: pim\n"))
	if err == nil || !strings.Contains(err.Error(), "a.yaml:6") || !strings.Contains(err.Error(), "islip") {
		t.Errorf("a bad allocator: %v", err)
	}
	var a engine.Allocator
	if err := a.UnmarshalText([]byte("islip:3")); err != nil || a.Iterations != 3 {
		t.Errorf("%v %v", a, err)
	}
}
