package topology

import (
	"fmt"
	"slices"
)

// Equivalent is a torus that the nDT papers compare an nDT twin torus with: the same
// number of PEs, one PE per card.
type Equivalent struct {
	Spec Spec
	// Kind is "mD" (one (n+1)-port card per node: the twin torus's own cards, m =
	// (n+1)/2 dimensions, or n/2 for even n with a port of each card unused) or "nD"
	// (n dimensions from 2n-port cards: the twin torus's node made one card).
	Kind string
	// CardPorts is the network ports per card (the NIC's port not counted).
	CardPorts int
	// Source says where the radices come from: a paper's table, or the rule.
	Source string
}

func (e Equivalent) String() string {
	return fmt.Sprintf("%s %s (%d-port cards; %s)", e.Kind, e.Spec, e.CardPorts, e.Source)
}

// pairing is a pairing the papers state: for an nDT shape, the mD and nD tori.
type pairing struct {
	twin, md, nd     []int
	source, ndSource string
}

// papersPairings are the radices the papers give for the tori they compare an nDT
// with ([EXT] Table 1, [AR] Tables 1–2, [nDT] §5.1). Where a paper gives an
// nDT's PE count but no radices (the nDT paper's 8,192-PE 4D/7DT/7D and its 4,096-PE
// collectives) the rule of Equivalents applies.
func papersPairings() []pairing {
	return []pairing{
		{[]int{4, 2, 4}, []int{8, 8}, nil, "adaptive paper Table 1", ""},
		{[]int{4, 4, 4}, []int{16, 8}, nil, "adaptive paper Table 1", ""},
		{[]int{8, 4, 4}, []int{16, 16}, nil, "adaptive paper Table 1", ""},
		{[]int{4, 4, 2, 2, 2}, []int{8, 8, 4}, nil, "EXTOLL paper Table 1", ""},
		{[]int{4, 4, 2, 4, 2}, []int{8, 8, 8}, nil, "EXTOLL paper Table 1", ""},
		{[]int{4, 4, 2, 4, 4}, []int{16, 8, 8}, []int{4, 4, 4, 4, 4}, "EXTOLL paper Table 1", "nDT paper §5: the 5D of 10-port cards"},
		{[]int{4, 4, 4, 4, 4}, []int{16, 16, 8}, nil, "adaptive paper Table 2", ""},
	}
}

// Equivalents lists, for an nDT twin torus, the tori the papers pair it with: "same
// cards, same PEs". First the mD torus built from the same (n+1)-port cards, one per
// node (2·∏k nodes, m = (n+1)/2 dimensions); then the nD torus of 2n-port cards, one per
// PE (the nDT's node as one card: 2·∏k nodes in n dimensions).
//
// Radices are the papers' where they give them (their Table 1s and 2s), else the rule,
// which reproduces every pairing the papers give:
//   - mD: the PE count's prime factors dealt out largest first, each to the dimension
//     with the smallest product so far, then sorted largest first (1,024 PEs in 3D:
//     16×8×8; 8,192 in 4D: 16×8×8×8);
//   - nD: the nDT's radices with the smallest one doubled, the first of equal ones
//     when several are smallest (4×4×2×4×4 → 4×4×4×4×4; 4×4×2×2×2 → 4×4×4×2×2).
func Equivalents(s Spec) ([]Equivalent, error) {
	if s.Family != FamilyTwin {
		return nil, fmt.Errorf("equivalent tori are defined for nDT twin tori (twin:...), not for %s", s)
	}
	n := len(s.Radix)
	pes := 2
	for _, k := range s.Radix {
		pes *= k
	}
	m := (n + 1) / 2
	mdNote := ""
	if n%2 == 0 {
		m = n / 2
		mdNote = ", one port of each card unused"
	}
	md := balancedShape(pes, m)
	nd := doubleSmallest(s.Radix)
	mdSource, ndSource := "rule: balanced radices"+mdNote, "rule: smallest radix doubled"
	for _, p := range papersPairings() {
		if !slices.Equal(p.twin, s.Radix) {
			continue
		}
		if p.md != nil {
			md, mdSource = p.md, p.source
		}
		if p.nd != nil {
			nd, ndSource = p.nd, p.ndSource
		}
	}
	return []Equivalent{
		{Spec: Spec{Family: FamilyTorus, Radix: md}, Kind: fmt.Sprintf("%dD", m), CardPorts: n + 1, Source: mdSource},
		{Spec: Spec{Family: FamilyTorus, Radix: nd}, Kind: fmt.Sprintf("%dD", n), CardPorts: 2 * n, Source: ndSource},
	}, nil
}

// balancedShape deals the prime factors of pes, largest first, to the one of m
// dimensions with the smallest product so far (the first of equal ones), and returns the
// radices largest first.
func balancedShape(pes, m int) []int {
	var primes []int
	for p, r := 2, pes; r > 1; {
		if p*p > r {
			primes = append(primes, r)
			break
		}
		if r%p == 0 {
			primes = append(primes, p)
			r /= p
			continue
		}
		p++
	}
	slices.Reverse(primes)
	shape := make([]int, m)
	for i := range shape {
		shape[i] = 1
	}
	for _, p := range primes {
		shape[slices.Index(shape, slices.Min(shape))] *= p
	}
	slices.SortFunc(shape, func(a, b int) int { return b - a })
	return shape
}

// doubleSmallest is radix with its smallest entry doubled (the first of equal ones).
func doubleSmallest(radix []int) []int {
	out := slices.Clone(radix)
	j := 0
	for i, k := range out {
		if k < out[j] {
			j = i
		}
	}
	out[j] *= 2
	return out
}
