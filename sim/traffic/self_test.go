package traffic

import (
	"fmt"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

// uniform+self draws among all N PEs, the source included, as BookSim2's uniform does.
func TestUniformSelf(t *testing.T) {
	const pes = 32
	p := mustPattern(t, "uniform+self", "torus:4x4@2")
	if !Self(p) || Silent(p) != 0 || p.Name() != "uniform+self" {
		t.Fatalf("uniform+self: Self %v, Silent %d, name %q", Self(p), Silent(p), p.Name())
	}
	for _, src := range []int{0, 13, pes - 1} {
		counts := destCounts(t, p, pes, src, 32*4000, uint64(src)+7)
		prob := make([]float64, pes)
		for d := range prob {
			prob[d] = 1.0 / pes
		}
		checkChi(t, fmt.Sprintf("uniform+self from PE %d", src), counts, prob)
	}
	if Self(mustPattern(t, "uniform", "torus:4x4@2")) {
		t.Error("plain uniform reports messages to self")
	}
}

// A permutation+self sends as the permutation does, and its fixed points (the
// palindromes of bitrev: 0, 6, 9, 15 of 16 PEs) send to themselves instead of staying
// silent.
func TestPermutationSelf(t *testing.T) {
	plain, self := mustPattern(t, "bitrev", "torus:4x4"), mustPattern(t, "bitrev+self", "torus:4x4")
	if Silent(plain) != 4 || Silent(self) != 0 {
		t.Errorf("silent PEs: bitrev %d, bitrev+self %d; want 4 and 0", Silent(plain), Silent(self))
	}
	for src := range 16 {
		d, ds := plain.Dest(src, nil), self.Dest(src, nil)
		switch {
		case d < 0 && ds != src:
			t.Errorf("fixed point %d: bitrev+self sends to %d, want itself", src, ds)
		case d >= 0 && ds != d:
			t.Errorf("PE %d: bitrev+self sends to %d, bitrev to %d", src, ds, d)
		}
	}
	for _, spec := range []string{"tornado+self", "complement+self", "transpose/yx+self", "neighbor:4x4+self"} {
		if p := mustPattern(t, spec, "torus:4x4"); !Self(p) {
			t.Errorf("%s: not Self", spec)
		}
	}
}

// +self applies to uniform and the permutations only, once, at the end.
func TestSelfRefusals(t *testing.T) {
	for _, tc := range []struct{ spec, says string }{
		{"hotspot:0.5+self", "+self applies to uniform and the permutations"},
		{"zipf:1+self", "+self applies to uniform and the permutations"},
		{"pairs:0>1+self", "+self applies"},
		{"uniform+self+self", "one +self at most"},
		{"+self", "empty pattern"},
	} {
		_, err := ParsePattern(tc.spec, topology.MustNew("torus:4x4"))
		if err == nil || !strings.Contains(err.Error(), tc.says) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line saying %q", tc.spec, err, tc.says)
		}
	}
}
