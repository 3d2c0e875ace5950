package traffic

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

// The three placements of a share of hot PEs, on the KNS paper's 256 nodes with 5 %
// hot (13 PEs): lowest the ids 0..12, spread ⌊i·256/13⌋, random 13 distinct ids that
// depend on the seed alone.
func TestHotspotPlacements(t *testing.T) {
	net := topology.MustNew("torus:16x16")
	hot := func(spec string, seed uint64) []int {
		t.Helper()
		p, err := ParsePattern(spec, net)
		if err != nil {
			t.Fatal(err)
		}
		h, ok := HotPEs(Seeded(p, seed))
		if !ok {
			t.Fatalf("%s: not a hot-spot pattern", spec)
		}
		return h
	}
	lowest := hot("hotspot:0.2@5%/lowest", 1)
	if want := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}; !slices.Equal(lowest, want) {
		t.Errorf("lowest: %v, want %v", lowest, want)
	}
	spread := hot("hotspot:0.2@5%", 1)
	if want := []int{0, 19, 39, 59, 78, 98, 118, 137, 157, 177, 196, 216, 236}; !slices.Equal(spread, want) {
		t.Errorf("spread (the default): %v, want %v", spread, want)
	}
	if !slices.Equal(spread, hot("hotspot:0.2@5%/spread", 7)) {
		t.Error("spread depends on the seed")
	}
	// Random: 13 distinct sorted ids, the same for the same seed, another set for
	// another seed, and every PE equally likely to be hot (chi-square over 4,000 seeds).
	counts := make([]int, 256)
	const seeds = 4000
	for seed := uint64(1); seed <= seeds; seed++ {
		r := hot("hotspot:0.2@5%/random", seed)
		if len(r) != 13 || !slices.IsSorted(r) || len(slices.Compact(slices.Clone(r))) != 13 {
			t.Fatalf("random, seed %d: %v", seed, r)
		}
		for _, pe := range r {
			counts[pe]++
		}
		if seed <= 3 && !slices.Equal(r, hot("hotspot:0.2@5%/random", seed)) {
			t.Fatalf("random, seed %d: two draws differ", seed)
		}
	}
	if slices.Equal(hot("hotspot:0.2@5%/random", 1), hot("hotspot:0.2@5%/random", 2)) {
		t.Error("random: seeds 1 and 2 draw the same hot set")
	}
	prob := make([]float64, 256)
	for i := range prob {
		prob[i] = 1.0 / 256
	}
	checkChi(t, "random hot PEs over seeds", counts, prob)
	// Unseeded (outside the engine) a random placement is seed 1's draw.
	p, _ := ParsePattern("hotspot:0.2@5%/random", net)
	if h, _ := HotPEs(p); !slices.Equal(h, hot("hotspot:0.2@5%/random", 1)) {
		t.Errorf("unseeded random placement %v is not seed 1's", h)
	}
	// A hot set of every PE is every PE under every placement.
	for _, place := range []string{"lowest", "spread", "random"} {
		if h := hot("hotspot:0.2@100%/"+place, 3); len(h) != 256 || h[0] != 0 || h[255] != 255 {
			t.Errorf("100%% %s: %d PEs", place, len(h))
		}
	}
	if _, ok := HotPEs(mustPattern(t, "uniform", "torus:4x4")); ok {
		t.Error("HotPEs of uniform")
	}
}

// hotPerSwitch is the largest number of hot PEs attached to one switch and, on networks
// whose routers have grid coordinates, the largest number on one line of routers (the
// routers that differ in one coordinate only: one subnet of a KNS network, one fully
// connected group of a flattened butterfly, one row or column of a mesh).
func hotPerSwitch(net *topology.Network, hot []int) (perSwitch, perLine int) {
	sw := map[int]int{}
	line := map[string]int{}
	for _, pe := range hot {
		s := int(net.Attachment(pe).Switch)
		sw[s]++
		perSwitch = max(perSwitch, sw[s])
		if net.Dims() == 0 || !net.OnGrid(s) {
			continue
		}
		c := net.Coord(net.Node(s))
		for d := range c {
			k := slices.Clone(c)
			k[d] = -1
			key := fmt.Sprint(d, k)
			line[key]++
			perLine = max(perLine, line[key])
		}
	}
	return perSwitch, perLine
}

// The default placement is not clustered: on every network of the KNS comparison (256
// and 4K nodes, 5 % hot) the spread hot PEs sit one per switch, and one or two per line
// of routers at 256 nodes, where the lowest ids put four on each of the first routers of
// the 4-ary 3-flat (all 13 on one of its groups), all 13 on one leaf of the 16-ary 2-tree
// and 13 on one row of the KNS, mesh and torus; at 4K, 205 on one group of the 16-ary
// 2-flat against 13 spread. [KNS] §5.1 gives no placement ("a small subset of the processing
// nodes (5% of nodes in this case)").
func TestHotspotSpreadOverSwitches(t *testing.T) {
	cases := []struct {
		net                      string
		lowestSwitch, lowestLine int // the lowest ids
		spreadLine               int // spread: one per switch always
	}{
		{"kns:16,2,1", 1, 13, 1}, {"kns:16,2,2,ruft", 1, 13, 1}, {"kns:16,2,2,fattree", 1, 13, 1},
		{"kns:16,2,4,ruft", 1, 13, 1}, {"kns:16,2,4,fattree", 1, 13, 1},
		{"flatfly:4,3@4", 4, 13, 2}, {"flatfly:2,7@2", 2, 4, 1},
		{"ktree:4,4", 4, 0, 0}, {"ktree:16,2", 13, 0, 0},
		{"mesh:16x16", 1, 13, 1}, {"torus:16x16", 1, 13, 1},
		// 4K nodes: 205 hot PEs.
		{"kns:64,2,1", 1, 64, 4}, {"kns:64,2,3,ruft", 1, 64, 4}, {"flatfly:16,2@16", 16, 205, 13}, {"flatfly:4,5@4", 4, 16, 2},
		{"ktree:16,3", 16, 0, 0}, {"ktree:8,4", 8, 0, 0}, {"torus:64x64", 1, 64, 4},
	}
	for _, c := range cases {
		net := topology.MustNew(c.net)
		h := func(place string) []int {
			p, err := ParsePattern("hotspot:0.2@5%/"+place, net)
			if err != nil {
				t.Fatal(err)
			}
			hs, _ := HotPEs(p)
			if want := int(math.Round(0.05 * float64(net.Terminals()))); len(hs) != want {
				t.Fatalf("%s: %d hot PEs, want %d", c.net, len(hs), want)
			}
			return hs
		}
		ls, ll := hotPerSwitch(net, h("lowest"))
		ss, sl := hotPerSwitch(net, h("spread"))
		if ls != c.lowestSwitch || ll != c.lowestLine || ss != 1 || sl != c.spreadLine {
			t.Errorf("%s: lowest %d per switch, %d per line; spread %d, %d; want %d, %d; 1, %d",
				c.net, ls, ll, ss, sl, c.lowestSwitch, c.lowestLine, c.spreadLine)
		}
	}
}

// A placement names where a share of the PEs lies; a list or the single default PE
// takes none, and names that are not placements are refused with the accepted ones.
func TestHotspotPlacementErrors(t *testing.T) {
	net := topology.MustNew("torus:8")
	for spec, want := range map[string]string{
		"hotspot:0.1@5%/middle":  `bad hot PE placement "middle": accepted are spread`,
		"hotspot:0.1@3,4/lowest": `placement "/lowest" applies to a share of the PEs`,
		"hotspot:0.1/spread":     `placement "/spread" applies to a share of the PEs`,
		"hotspot:0.1@5%/":        `bad hot PE placement ""`,
	} {
		_, err := ParsePattern(spec, net)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", spec, err, want)
		}
	}
}
