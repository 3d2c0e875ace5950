package analysis

import (
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

func rank(t testing.TB, radix []int) []Ranked {
	t.Helper()
	r, _, err := RankConfigurations(radix, routing.TiePlus)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// distinct lists the distinct crossing counts, best first.
func distinct(r []Ranked) []int64 {
	var v []int64
	for i, x := range r {
		if i == 0 || x.Crossing != r[i-1].Crossing {
			v = append(v, x.Crossing)
		}
	}
	return v
}

// Exhaustive search ([nDT] §3.5, Theorem 3.1, proves it for odd k): CBest is optimal,
// with the second-best and worst values of an independent enumeration.
func TestRankConfigurationsNDT(t *testing.T) {
	for _, c := range []struct {
		n, k        int
		count       int
		min, second int64
		worst       int64 // 0 when the table gives none
		minimisers  int
	}{
		{3, 5, 10, 146, 178, 238, 2},
		{3, 7, 10, 582, 690, 0, 2},
		{4, 5, 35, 576, 960, 1688, 1},
		{5, 5, 126, 4226, 5378, 10938, 2},
		{6, 5, 462, 15376, 27280, 0, 1},
		{7, 5, 1716, 108626, 139378, 0, 2},
		{7, 3, 1716, 2080, 2756, 0, 2},
		{5, 7, 126, 30822, 37734, 0, 2},
	} {
		radix := cube(c.n, c.k)
		r := rank(t, radix)
		d := distinct(r)
		if len(r) != c.count || d[0] != c.min || d[1] != c.second || (c.worst != 0 && d[len(d)-1] != c.worst) {
			t.Errorf("(%d,%d): %d configurations, min %d, second %d, worst %d; want %d, %d, %d, %d",
				c.n, c.k, len(r), d[0], d[1], d[len(d)-1], c.count, c.min, c.second, c.worst)
		}
		best := 0
		cbestFirst := false
		for _, x := range r {
			if x.Rank == 1 {
				best++
				cbestFirst = cbestFirst || x.CBest
			}
		}
		if best != c.minimisers || !cbestFirst {
			t.Errorf("(%d,%d): %d minimisers (CBest among them: %v), want %d including CBest", c.n, c.k, best, cbestFirst, c.minimisers)
		}
	}
}

// 3DT: k = 3 is the exception (A, B, E, F at 14 beat D, G at 16); D and G tie for odd
// k ≥ 5; D alone is best for even k, tied with E at k = 2 ([TR] §5.2.6).
func TestRankConfigurations3DT(t *testing.T) {
	firsts := func(k int) (names string, cbestRank int) {
		for _, x := range rank(t, cube(3, k)) {
			if x.Rank == 1 {
				names += x.Name
			}
			if x.CBest {
				cbestRank = x.Rank
			}
		}
		return
	}
	for _, c := range []struct {
		k         int
		best      string // in canonical order among equals
		cbestRank int
	}{
		{2, "DE", 1}, {3, "ABEF", 5}, {4, "D", 1}, {5, "DG", 1}, {6, "D", 1}, {7, "DG", 1}, {8, "D", 1},
	} {
		if names, cr := firsts(c.k); names != c.best || cr != c.cbestRank {
			t.Errorf("k=%d: best %s, CBest ranked %d; want %s, %d", c.k, names, cr, c.best, c.cbestRank)
		}
	}
	r := rank(t, cube(3, 4))
	if r[0].Name != "D" || r[0].Spec != "twin:4x4x4/D" || r[0].Crossing != 49 || r[len(r)-1].Name != "A" || r[len(r)-1].Crossing != 93 {
		t.Errorf("4x4x4: first %+v, last %+v", r[0], r[len(r)-1])
	}
}

// Even radices: the CBest orientation (d_m+ on Card0) is the exact optimum.
func TestRankConfigurationsEvenRadix(t *testing.T) {
	for _, c := range []struct {
		radix []int
		min   int64
	}{{[]int{4, 4, 2, 4, 4}, 225}, {cube(5, 4), 961}} {
		r := rank(t, c.radix)
		if r[0].Crossing != c.min || !r[0].CBest || r[1].Crossing == c.min {
			t.Errorf("%v: best %+v, second %+v; want CBest alone at %d", c.radix, r[0], r[1], c.min)
		}
	}
}

// Every ranked count equals the enumerated one, each spec string names its
// configuration, and the counts never decrease down the list.
func TestRankConfigurationsConsistent(t *testing.T) {
	for _, radix := range [][]int{{3, 4, 5}, {2, 3, 2, 3}, {3, 3, 3, 3, 3}} {
		e := enumerate(t, radix, routing.TiePlus)
		r := rank(t, radix)
		for i, x := range r {
			net, err := topology.New(x.Spec)
			if err != nil {
				t.Fatal(err)
			}
			if net.Config().Canonical(len(radix)) != x.Config || e.Crossing(x.Config) != x.Crossing {
				t.Errorf("%v %s: spec config %s, crossing %d, enumerated %d", radix, x.Spec, net.Config().Ports(len(radix)), x.Crossing, e.Crossing(x.Config))
			}
			if i > 0 && (x.Crossing < r[i-1].Crossing || x.Rank < r[i-1].Rank) {
				t.Errorf("%v: not sorted at %d", radix, i)
			}
		}
	}
	if _, _, err := RankConfigurations([]int{5}, routing.TiePlus); err == nil {
		t.Error("n = 1: no error")
	}
}

// Exhaustive search at 7DT: the whole ranking stays fast.
func BenchmarkRankConfigurations7DT(b *testing.B) {
	for b.Loop() {
		if _, _, err := RankConfigurations(cube(7, 5), routing.TiePlus); err != nil {
			b.Fatal(err)
		}
	}
}
