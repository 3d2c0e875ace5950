package traffic

import (
	"slices"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

// A random permutation reaches every PE once and no PE itself, on PE counts that bit
// reversal refuses too (a dragonfly's 1,056, a Slim Fly's 1,134), and is the same in
// every run: it depends on its seed alone.
func TestRandPermIsDerangement(t *testing.T) {
	for _, spec := range []string{"torus:2", "torus:3", "mesh:3x5", "torus:8x8", "dragonfly:4", "slimfly:9"} {
		net := topology.MustNew(spec)
		n := net.Terminals()
		p, err := ParsePattern("randperm", net)
		if err != nil {
			t.Fatal(err)
		}
		if Silent(p) != 0 {
			t.Errorf("%s: %d silent PEs, want none", spec, Silent(p))
		}
		hit := make([]int, n)
		for src := range n {
			d := p.Dest(src, newRNG(uint64(src)))
			if d == src || d < 0 || d >= n {
				t.Fatalf("%s: PE %d sends to %d", spec, src, d)
			}
			if d2 := p.Dest(src, newRNG(uint64(src+99))); d2 != d {
				t.Fatalf("%s: PE %d sends to %d, then to %d: the run's rng must not matter", spec, src, d, d2)
			}
			hit[d]++
		}
		if i := slices.IndexFunc(hit, func(h int) bool { return h != 1 }); i >= 0 {
			t.Errorf("%s: PE %d receives from %d PEs, want 1", spec, i, hit[i])
		}
	}
}

func TestRandPermSeed(t *testing.T) {
	net := topology.MustNew("torus:16x16")
	dests := func(spec string) []int {
		p, err := ParsePattern(spec, net)
		if err != nil {
			t.Fatal(err)
		}
		var d []int
		for src := range net.Terminals() {
			d = append(d, p.Dest(src, nil))
		}
		return d
	}
	if !slices.Equal(dests("randperm"), dests("randperm:1")) {
		t.Error("randperm and randperm:1 differ; the default seed is 1")
	}
	if slices.Equal(dests("randperm:1"), dests("randperm:2")) {
		t.Error("seeds 1 and 2 draw the same permutation")
	}
	// Drawn with seed 1 on 256 PEs, by this package's PCG stream; a change of the draw
	// changes every stored randperm result, so it must be deliberate.
	if got := dests("randperm")[:4]; !slices.Equal(got, []int{159, 125, 68, 51}) {
		t.Errorf("randperm on 256 PEs starts %v; the draw changed", got)
	}
	for _, bad := range []string{"randperm:x", "randperm:-1", "randperm:1.5", "randperm:9223372036854775808"} {
		_, err := ParsePattern(bad, net)
		if err == nil || !strings.Contains(err.Error(), "whole number") {
			t.Errorf("%s: err = %v, want a bad-seed error", bad, err)
		}
	}
}
