package topology

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The papers' pairings, typed from the specs (not from papersPairings): nDT, mD, nD.
var papersEquivalents = []struct{ twin, md, nd string }{
	{"twin:4x2x4", "torus:8x8", ""},                       // adaptive paper Table 1, 64 PEs
	{"twin:4x4x4", "torus:16x8", ""},                      // 128 PEs
	{"twin:8x4x4", "torus:16x16", ""},                     // 256 PEs
	{"twin:4x4x2x2x2", "torus:8x8x4", ""},                 // EXTOLL paper Table 1, 256 PEs
	{"twin:4x4x2x4x2", "torus:8x8x8", ""},                 // 512 PEs
	{"twin:4x4x2x4x4", "torus:16x8x8", "torus:4x4x4x4x4"}, // 1,024 PEs; nDT paper's 5D
	{"twin:4x4x4x4x4", "torus:16x16x8", ""},               // adaptive paper Table 2, 2,048 PEs
}

func TestEquivalentsPapersPairings(t *testing.T) {
	for _, c := range papersEquivalents {
		eq, err := Equivalents(MustParse(c.twin))
		if err != nil {
			t.Fatal(err)
		}
		if len(eq) != 2 {
			t.Fatalf("%s: %d equivalents, want the mD and the nD torus", c.twin, len(eq))
		}
		if got := eq[0].Spec.String(); got != c.md {
			t.Errorf("%s: mD torus %s, the paper pairs %s", c.twin, got, c.md)
		}
		if c.nd != "" {
			if got := eq[1].Spec.String(); got != c.nd {
				t.Errorf("%s: nD torus %s, the paper pairs %s", c.twin, got, c.nd)
			}
		}
		// Same PEs; the mD uses the nDT's own (n+1)-port cards, one per PE; the nD's cards
		// have 2n ports.
		tw, n := MustNew(c.twin), len(MustParse(c.twin).Radix)
		for i, e := range eq {
			net, err := Build(e.Spec)
			if err != nil {
				t.Fatal(err)
			}
			if net.Terminals() != tw.Terminals() || net.Switches() != tw.Switches() {
				t.Errorf("%s: %s has %d PEs on %d cards, the nDT %d on %d", c.twin, e.Spec, net.Terminals(), net.Switches(), tw.Terminals(), tw.Switches())
			}
			wantPorts := []int{n + 1, 2 * n}[i]
			if e.CardPorts != wantPorts || 2*len(e.Spec.Radix) > e.CardPorts {
				t.Errorf("%s: %s on %d-port cards, want %d", c.twin, e.Spec, e.CardPorts, wantPorts)
			}
		}
	}
}

// The rule alone (without the papers' table) gives every pairing the papers state.
func TestEquivalentsRuleReproducesPapers(t *testing.T) {
	for _, c := range papersEquivalents {
		s := MustParse(c.twin)
		pes := 2
		for _, k := range s.Radix {
			pes *= k
		}
		md := Spec{Family: FamilyTorus, Radix: balancedShape(pes, (len(s.Radix)+1)/2)}
		if md.String() != c.md {
			t.Errorf("%s: the rule gives %s, the paper %s", c.twin, md, c.md)
		}
		if nd := (Spec{Family: FamilyTorus, Radix: doubleSmallest(s.Radix)}); c.nd != "" && nd.String() != c.nd {
			t.Errorf("%s: the rule gives %s, the paper %s", c.twin, nd, c.nd)
		}
	}
	for _, p := range papersPairings() {
		found := false
		for _, c := range papersEquivalents {
			found = found || MustParse(c.twin).Equal(Spec{Family: FamilyTwin, Radix: p.twin, Config: "cbest"})
		}
		if !found {
			t.Errorf("papersPairings has %v, which the test does not check", p.twin)
		}
	}
}

func TestEquivalentsRuleCases(t *testing.T) {
	cases := []struct {
		twin   string
		md, nd string
		source string
	}{
		{"twin:3x3x3", "torus:9x6", "torus:6x3x3", "rule"},             // 54 PEs = 3·3·3·2
		{"twin:4x4x4x4", "torus:32x16", "torus:8x4x4x4", "unused"},     // even n: 2D from 5-port cards
		{"twin:4x4x2x2x2", "torus:8x8x4", "torus:4x4x4x2x2", "EXTOLL"}, // paper mD, rule nD
		{"twin:5x5x5", "torus:25x10", "torus:10x5x5", "rule"},
		// The nDT paper's 8,192 PEs: 4D and 7D (it gives no radices).
		{"twin:4x4x4x2x4x4x2", "torus:16x8x8x8", "torus:4x4x4x4x4x4x2", "rule"},
	}
	for _, c := range cases {
		eq, err := Equivalents(MustParse(c.twin))
		if err != nil {
			t.Fatal(err)
		}
		if eq[0].Spec.String() != c.md || eq[1].Spec.String() != c.nd {
			t.Errorf("%s: %s and %s, want %s and %s", c.twin, eq[0].Spec, eq[1].Spec, c.md, c.nd)
		}
		if !strings.Contains(eq[0].String()+eq[1].String(), c.source) {
			t.Errorf("%s: %v does not say %q", c.twin, eq, c.source)
		}
	}
	if _, err := Equivalents(MustParse("torus:8x8")); err == nil || !strings.Contains(err.Error(), "twin") {
		t.Errorf("a torus has no equivalents; got %v", err)
	}
}

// balancedShape's radices multiply to the PE count, largest first, and for a power of
// two differ by at most a factor of 2.
func TestBalancedShapeIsBalanced(t *testing.T) {
	for pes := 2; pes <= 600; pes++ {
		for m := 1; m <= 4; m++ {
			got := balancedShape(pes, m)
			prod := 1
			for _, k := range got {
				prod *= k
			}
			if prod != pes || !slices.IsSortedFunc(got, func(a, b int) int { return b - a }) {
				t.Fatalf("balancedShape(%d, %d) = %v", pes, m, got)
			}
			if pow2 := pes&(pes-1) == 0; pow2 && slices.Max(got) > 2*slices.Min(got) {
				t.Errorf("balancedShape(%d, %d) = %v: radices of a power of two differ by more than 2x", pes, m, got)
			}
		}
	}
}

func ExampleEquivalents() {
	eq, _ := Equivalents(MustParse("twin:4x4x2x4x4"))
	for _, e := range eq {
		fmt.Println(e)
	}
	eq, _ = Equivalents(MustParse("twin:4x4x4x2x4x4x2"))
	for _, e := range eq {
		fmt.Println(e)
	}
	// Output:
	// 3D torus:16x8x8 (6-port cards; EXTOLL paper Table 1)
	// 5D torus:4x4x4x4x4 (10-port cards; nDT paper §5: the 5D of 10-port cards)
	// 4D torus:16x8x8x8 (8-port cards; rule: balanced radices)
	// 7D torus:4x4x4x4x4x4x2 (14-port cards; rule: smallest radix doubled)
}
