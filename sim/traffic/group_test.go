package traffic

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

// groupshift sends every PE's messages to the next group (K groups on), uniformly
// over its PEs, or to the PE of the same index with /same; names round-trip.
func TestGroupShift(t *testing.T) {
	net := topology.MustNew("dragonfly:2") // 9 groups of 8 PEs
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		spec string
		k    int
		same bool
	}{{"groupshift", 1, false}, {"groupshift:3", 3, false}, {"groupshift/same", 1, true}, {"GroupShift:8/Same", 8, true}} {
		p, err := ParsePattern(c.spec, net)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParsePattern(p.Name(), net)
		if err != nil || again.Name() != p.Name() {
			t.Fatalf("%s: name %q does not round-trip: %v", c.spec, p.Name(), err)
		}
		group := func(pe int) int { return net.Group(int(net.Attachment(pe).Switch)) }
		for src := 0; src < net.Terminals(); src++ {
			count := map[int]int{}
			const draws = 8000
			for range draws {
				d := p.Dest(src, rng)
				if group(d) != (group(src)+c.k)%9 {
					t.Fatalf("%s: PE %d (group %d) sent to PE %d (group %d)", c.spec, src, group(src), d, group(d))
				}
				if c.same && d != (src+8*c.k)%72 {
					t.Fatalf("%s: PE %d sent to %d", c.spec, src, d)
				}
				count[d]++
			}
			if !c.same {
				if len(count) != 8 {
					t.Fatalf("%s: PE %d reached %d PEs of the next group", c.spec, src, len(count))
				}
				for d, n := range count {
					if n < draws/8*85/100 || n > draws/8*115/100 {
						t.Errorf("%s: PE %d sent %d of %d to %d; want about %d", c.spec, src, n, draws, d, draws/8)
					}
				}
			}
		}
	}
	for spec, want := range map[string]string{
		"groupshift:0":     "shift",
		"groupshift:9":     "shift",
		"groupshift:x":     "shift",
		"groupshift:1/mid": "after '/'",
	} {
		if _, err := ParsePattern(spec, net); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want %q", spec, err, want)
		}
	}
	if _, err := ParsePattern("groupshift", topology.MustNew("torus:4x4")); err == nil || !strings.Contains(err.Error(), "declares 0 groups") {
		t.Errorf("groupshift on a torus: %v", err)
	}
}
