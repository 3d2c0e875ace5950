package analysis

import (
	"fmt"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// ring summarises DOR in one ring of k nodes: a[σ] is how many of the k−1 destination
// offsets are routed in direction σ (index 0 for +, 1 for −) and s[σ] the sum of
// (hops − 1) over them, i.e. the routes that go straight through a node in direction σ.
type ring struct{ a, s [2]int64 }

func ringOf(k int, tie routing.Tie) ring {
	h := int64(k-1) / 2 // offsets strictly shorter one way: 1..h each way
	r := ring{a: [2]int64{h, h}, s: [2]int64{h * (h - 1) / 2, h * (h - 1) / 2}}
	if k%2 == 0 { // the offset k/2 goes the tie's way, in k/2 hops
		i := dirSlot(int(tie))
		r.a[i]++
		r.s[i] += int64(k/2 - 1)
	}
	return r
}

func dirSlot(dir int) int {
	if dir > 0 {
		return 0
	}
	return 1
}

// TransitClosedForm computes the transit counts from the set-cardinality product form
// of [TR] Prop. 5.3 and [nDT] Prop. 3.1, generalised to mixed radices, odd and even k
// and either tie direction:
//
//   - entering by a port of dimension i while travelling σ and leaving by a port of
//     dimension j > i travelling τ: R = D_s · D_d = (Π_{d<i} k_d · a_i^σ)(a_j^τ · Π_{d>j} k_d),
//     where a_d^σ is the number of offsets DOR routes in direction σ along d;
//   - going straight through dimension i in direction σ: R = (Π_{d≠i} k_d) · Σ (L−1)
//     over the offsets routed σ, L their hop counts;
//   - every other pair (U-turns, descending dimensions) is 0.
func TransitClosedForm(radix []int, tie routing.Tie) (*Transit, error) {
	tie, err := checkShape(radix, tie)
	if err != nil {
		return nil, err
	}
	n := len(radix)
	t := newTransit(radix, tie)
	below := make([]int64, n+1) // below[i] = Π_{d<i} k_d
	below[0] = 1
	for d, k := range radix {
		below[d+1] = below[d] * int64(k)
	}
	nodes := below[n]
	above := func(j int) int64 { return nodes / below[j+1] } // Π_{d>j} k_d
	for i := 0; i < n; i++ {
		ri := ringOf(radix[i], tie)
		for _, sigma := range []int{+1, -1} {
			in := PortIndex(i, -sigma) // travelling σ, a packet enters by the opposite port
			t.Ds[in] = below[i] * ri.a[dirSlot(sigma)]
			t.Dd[PortIndex(i, sigma)] = ri.a[dirSlot(sigma)] * above(i)
			t.R[in][PortIndex(i, sigma)] = nodes / int64(radix[i]) * ri.s[dirSlot(sigma)]
			for j := i + 1; j < n; j++ {
				rj := ringOf(radix[j], tie)
				for _, tau := range []int{+1, -1} {
					t.R[in][PortIndex(j, tau)] = below[i] * ri.a[dirSlot(sigma)] * rj.a[dirSlot(tau)] * above(j)
				}
			}
		}
	}
	return t, nil
}

// TotalTransit is the number of transit paths through a node of a torus with these
// radices: every route of h hops passes h−1 nodes strictly inside it, so the total is
// Σ_d (N/k_d)·S(k_d) − (N−1), S(k) being the sum of ring distances from a node:
// (k²−1)/4 for odd k and k²/4 for even k. It does not depend on the tie direction.
// For n = 3 and equal k it is [TR]'s ¾k⁴ − k³ + 1 (even) and ¾k²(k²−1) − k³ + 1 (odd);
// for odd k it is [nDT]'s n·k^(n−1)(k²−1)/4 − (kⁿ − 1).
func TotalTransit(radix []int) int64 {
	nodes := int64(1)
	for _, k := range radix {
		nodes *= int64(k)
	}
	var sum int64
	for _, k := range radix {
		s := int64(k*k) / 4 // (k²−1)/4 for odd k, by integer division
		sum += nodes / int64(k) * s
	}
	return sum - (nodes - 1)
}

// poly3DT are the numerators (coefficients of k⁴, k³, k², k, 1; divide by 4) of the
// internal-link transit counts of configurations A–J, [TR] §5.2.5, Tables 7–8.
var poly3DT = [10]struct{ odd, even [5]int64 }{
	{[5]int64{3, -8, 3, 0, 2}, [5]int64{3, -8, 6, 4, 4}},  // A
	{[5]int64{3, -8, 3, 0, 2}, [5]int64{3, -8, 6, 0, 0}},  // B
	{[5]int64{1, 2, -7, 2, 2}, [5]int64{1, 2, -4, -2, 4}}, // C
	{[5]int64{1, 0, -1, -4, 4}, [5]int64{1, 0, -4, 0, 4}}, // D
	{[5]int64{3, -8, 3, 0, 2}, [5]int64{3, -8, 6, -4, 4}}, // E
	{[5]int64{3, -8, 3, 0, 2}, [5]int64{3, -8, 6, 0, 0}},  // F
	{[5]int64{1, 0, -1, -4, 4}, [5]int64{1, 0, 4, -8, 4}}, // G
	{[5]int64{1, 2, -7, 2, 2}, [5]int64{1, 2, -8, 6, 0}},  // H
	{[5]int64{1, 2, -7, 2, 2}, [5]int64{1, 2, -4, -2, 4}}, // I
	{[5]int64{1, 2, -7, 2, 2}, [5]int64{1, 2, -8, 6, 0}},  // J
}

// Crossing3DT is the number of transit paths through a node of a k×k×k 3DT torus that
// cross its internal link under configuration letter (A–J), by the per-configuration
// polynomials of [TR] §5.2 (Tables 7 and 8), which assume DOR ties to the + direction.
func Crossing3DT(letter byte, k int) (int64, error) {
	if _, err := topology.Letter(letter); err != nil {
		return 0, err
	}
	if k < 2 {
		return 0, fmt.Errorf("radix %d: the 3DT polynomials hold for k ≥ 2", k)
	}
	if letter >= 'a' {
		letter -= 'a' - 'A'
	}
	c := poly3DT[letter-'A'].odd
	if k%2 == 0 {
		c = poly3DT[letter-'A'].even
	}
	var v int64
	for _, x := range c { // Horner
		v = v*int64(k) + x
	}
	return v / 4, nil
}

// CBestCrossingPaper is R_CBest of [nDT] Prop. 3.4 for an n-dimensional torus with k
// nodes per dimension: (k^(n/2) − 1)² for even n, and
// (k^((n+1)/2) − 1)(k^((n−1)/2) − 1) + (k−1)(k−3)/4 · k^(n−1) for odd n, which the paper
// derives for odd k only.
func CBestCrossingPaper(n, k int) (int64, error) {
	if n < 2 || k < 2 {
		return 0, fmt.Errorf("Prop. 3.4 needs n ≥ 2 and k ≥ 2, not n = %d, k = %d", n, k)
	}
	if n%2 == 0 {
		h := pow(k, n/2) - 1
		return h * h, nil
	}
	if k%2 == 0 {
		return 0, fmt.Errorf("Prop. 3.4 holds for odd k with odd n; use CBestCrossing for k = %d", k)
	}
	kk := int64(k)
	return (pow(k, (n+1)/2)-1)*(pow(k, (n-1)/2)-1) + (kk-1)*(kk-3)/4*pow(k, n-1), nil
}

// CBestCrossing generalises Prop. 3.4 to mixed radices, even k and either tie: the
// internal-link transit count of topology.CBest(radix). With m = ⌊n/2⌋, Lo = Π_{d<m} k_d
// and Hi the product over the dimensions above the split one (above m−1 for even n):
//
//   - n even: (Lo − 1)(Hi − 1), routes from the low half of the dimensions to the high;
//   - n odd: (Lo − 1)(Hi − 1) + a·Hi·(Lo − 1) + a·Lo·(Hi − 1) + Lo·Hi·(s⁺ + s⁻), where d_m
//     is split, a is the number of offsets DOR routes along d_m in the direction of
//     Card1's d_m port, and s^σ counts the routes going straight through along d_m (the
//     terms A–D of the paper's Table 1).
func CBestCrossing(radix []int, tie routing.Tie) (int64, error) {
	tie, err := checkShape(radix, tie)
	if err != nil {
		return 0, err
	}
	n := len(radix)
	if n < 2 {
		return 0, fmt.Errorf("CBest needs 2 or more dimensions, not %d", n)
	}
	m := n / 2
	lo, hi := int64(1), int64(1)
	for d, k := range radix {
		switch {
		case d < m:
			lo *= int64(k)
		case d > m || n%2 == 0:
			hi *= int64(k)
		}
	}
	r := (lo - 1) * (hi - 1)
	if n%2 == 0 {
		return r, nil
	}
	tau := +1 // Card1 holds d_m^τ: routes leave by it travelling τ and enter Card0's d_m^{−τ} travelling τ
	if topology.CBest(radix).Card(m, +1) == 0 {
		tau = -1
	}
	rm := ringOf(radix[m], tie)
	a := rm.a[dirSlot(tau)]
	return r + a*hi*(lo-1) + a*lo*(hi-1) + lo*hi*(rm.s[0]+rm.s[1]), nil
}

func pow(k, e int) int64 {
	v := int64(1)
	for range e {
		v *= int64(k)
	}
	return v
}
