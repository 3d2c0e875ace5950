package traffic

import (
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

// Coordinate patterns work on networks whose PEs hang on a grid of routers while other
// switches (a KNS network's subnets) have none, and by an explicit PE grid on networks
// with no coordinates (a fat-tree compared with a 2D network of as many PEs); the
// same PE ids go to the same PEs.
func TestCoordinatePatternsWithoutPEsPerSwitch(t *testing.T) {
	torus := mustPattern(t, "tornado", "torus:8x8")
	for _, c := range []struct{ net, pat, name string }{
		{"kns:8,2,1", "tornado", "tornado"},
		{"kns:16,2,2,ruft", "tornado", "tornado"},
		{"ktree:4,3", "tornado:8x8", "tornado:8x8"},
		{"flatfly:8,2", "tornado", "tornado"},
		{"kns:8,2,1", "TORNADO:8X8", "tornado:8x8"},
	} {
		p := mustPattern(t, c.pat, c.net)
		if p.Name() != c.name {
			t.Errorf("%s on %s: name %q", c.pat, c.net, p.Name())
		}
		if c.net == "kns:16,2,2,ruft" {
			continue
		}
		for src := 0; src < 64; src++ {
			if got, want := p.Dest(src, nil), torus.Dest(src, nil); got != want {
				t.Errorf("%s on %s: PE %d -> %d, on torus:8x8 -> %d", c.pat, c.net, src, got, want)
			}
		}
	}
	// Concentration keeps the slot; the subnets do not count as nodes.
	p := mustPattern(t, "neighbor", "kns:4,2,1@2")
	if got := p.Dest(3, nil); got != 2*(1+1+4)+1 { // PE 3 = slot 1 of router 1 = (1,0) -> (2,1)
		t.Errorf("neighbor on kns:4,2,1@2: PE 3 -> %d", got)
	}
	for _, c := range []struct{ net, pat, want string }{
		{"ktree:4,3", "tornado", "no node coordinates"},
		{"ktree:4,3", "tornado:8x4", "holds 32 PEs, the network has 64"},
		{"ktree:4,3", "tornado:8xy", "bad shape"},
		{"ktree:4,3", "bitrev:8x8", "takes no parameter"},
	} {
		_, err := ParsePattern(c.pat, topology.MustNew(c.net))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s on %s: %v, want %q", c.pat, c.net, err, c.want)
		}
	}
}
