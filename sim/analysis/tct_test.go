package analysis

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

func clusterTorus(t *testing.T, fam topology.Family, n, k int) *routing.ClusterTorus {
	t.Helper()
	g, err := routing.NewClusterTorus(fam, n, k)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// [TCT] §2.3, Theorem 1: the n-toroid's diameter τ(n) = 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5
// for n = 1..12 by BFS, with the average distances (self included) of an independent
// brute-force count.
func TestToroidDiameters(t *testing.T) {
	tau := []int{1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5}
	avg := []float64{.50, 1.00, 1.167, 1.50, 1.46, 1.667, 1.765, 2.00, 2.031, 2.20, 2.302, 2.50}
	for n := 1; n <= 12; n++ {
		net := topology.MustNew(fmt.Sprintf("toroid:%d", n))
		st, err := Distances(context.Background(), net)
		if err != nil {
			t.Fatal(err)
		}
		if st.Diameter != tau[n-1] || ToroidDiameter(n) != tau[n-1] || clusterTorus(t, topology.FamilyToroid, n, 1).ClusterDiameter() != tau[n-1] {
			t.Errorf("toroid:%d: BFS diameter %d, Theorem 1 %d, want %d", n, st.Diameter, ToroidDiameter(n), tau[n-1])
		}
		if math.Abs(st.AvgDistanceInclSelf-avg[n-1]) > 0.0051 {
			t.Errorf("toroid:%d: average distance %.4f, want %.3f", n, st.AvgDistanceInclSelf, avg[n-1])
		}
	}
}

// The exact distribution of Algorithm R's lengths equals the lengths of the routing's
// own routes on the built network, pair by pair, for TCTs, TCCs and toroids.
func TestRLengthsMatchRoutes(t *testing.T) {
	for _, spec := range []string{"tct:1,5", "tct:2,4", "tct:3,3", "tct:3,4", "tct:4,3", "tct:5,2", "tcc:3,4", "tcc:2,5", "toroid:7"} {
		net := topology.MustNew(spec)
		// The routes do not depend on the deadlock scheme; bubble refuses tcc:3,4, whose
		// clusters are rings of six (TestTCTRefusesCyclicClusters).
		rt, err := routing.NewTCT(net, routing.SchemeNone)
		if err != nil {
			t.Fatal(err)
		}
		hist := map[int]int64{}
		var path []routing.Step
		for src := 0; src < net.Terminals(); src++ {
			for dst := 0; dst < net.Terminals(); dst++ {
				path = rt.Path(src, dst, path[:0])
				h := len(path) - 1
				if g := rt.Geometry().Length(src, dst); g != h {
					t.Fatalf("%s: %d -> %d: the geometry counts %d hops, the route has %d", spec, src, dst, g, h)
				}
				hist[h]++
			}
		}
		r := RLengthDistribution(rt.Geometry())
		for h, c := range r.Histogram {
			if hist[h] != c {
				t.Errorf("%s: %d routes of %d hops, the distribution says %d", spec, hist[h], h, c)
			}
		}
		if r.Pairs != int64(net.Terminals()*net.Terminals()) {
			t.Errorf("%s: %d pairs", spec, r.Pairs)
		}
	}
}

// [TCT] §3.1 and §4, Table 2: TCT(n,k) has 2n·kⁿ nodes, and Algorithm R's longest route is
// Theorem 2's bound 2n⌊k/2⌋ + 2τ(n) + n − 2, attained: 17, 23, 24, 29, 39, 39, 34, 34,
// 39, 46 for the table's rows, 30 for TCT(8,3) and 36 for TCT(10,3). Tofu: 12k³ nodes
// and 3⌊k/2⌋ + 3.
func TestTable2(t *testing.T) {
	rows := []struct {
		n, k, order, maxLen, tofuK, tofuOrder, tofuMax int
	}{
		{3, 5, 750, 17, 3, 324, 6}, {3, 7, 2058, 23, 4, 768, 9}, {4, 5, 5000, 24, 10, 12000, 18},
		{5, 5, 31250, 29, 20, 96000, 33}, {5, 6, 77760, 39, 30, 324000, 48}, {5, 7, 168070, 39, 40, 768000, 63},
		{6, 4, 49152, 34, 50, 1500000, 78}, {6, 5, 187500, 34, 60, 2592000, 93}, {7, 5, 1093750, 39, 70, 4116000, 108},
		{8, 5, 6250000, 46, 80, 6144000, 123}, {8, 3, 104976, 30, 0, 0, 0}, {10, 3, 1180980, 36, 0, 0, 0},
	}
	for _, r := range rows {
		g := clusterTorus(t, topology.FamilyTCT, r.n, r.k)
		dist := RLengthDistribution(g)
		if g.Nodes() != r.order || dist.Pairs != int64(r.order)*int64(r.order) {
			t.Errorf("TCT(%d,%d): %d nodes, want %d", r.n, r.k, g.Nodes(), r.order)
		}
		if dist.Max != r.maxLen || RBound(r.n, r.k) != r.maxLen {
			t.Errorf("TCT(%d,%d): longest route %d, bound %d, Table 2 says %d", r.n, r.k, dist.Max, RBound(r.n, r.k), r.maxLen)
		}
		if r.tofuK > 0 {
			if z, _ := topology.MustParse(fmt.Sprintf("tofu:%d", r.tofuK)).Size(); z.Switches != int64(r.tofuOrder) || TofuBound(r.tofuK) != r.tofuMax {
				t.Errorf("Tofu k=%d: %d nodes and bound %d, Table 2 says %d and %d", r.tofuK, z.Switches, TofuBound(r.tofuK), r.tofuOrder, r.tofuMax)
			}
		}
	}
	// The paper's examples: Tofu with max 30 holds at most 82,308 nodes (k = 19); with
	// max 36, 146,004 (k = 23); to reach TCT(10,3)'s 1,180,980 nodes it needs k = 46.
	largest := func(maxLen int) (k, order int) {
		for k = 2; TofuBound(k+1) <= maxLen; k++ {
		}
		return k, 12 * k * k * k
	}
	if k, o := largest(30); k != 19 || o != 82308 {
		t.Errorf("Tofu within 30 hops: k = %d, %d nodes", k, o)
	}
	if k, o := largest(36); k != 23 || o != 146004 {
		t.Errorf("Tofu within 36 hops: k = %d, %d nodes", k, o)
	}
	// k = 46 gives 1,168,032 nodes and k = 47 1,245,876, both with longest route 72.
	k := 2
	for 12*k*k*k < 1180980 {
		k++
	}
	if k != 47 || 12*46*46*46 != 1168032 || 12*k*k*k != 1245876 || TofuBound(46) != 72 || TofuBound(k) != 72 {
		t.Errorf("Tofu reaching 1,180,980 nodes: k = %d, longest route %d; the paper says k = 46 or 47 and 72", k, TofuBound(k))
	}
}

// Lemma 1's Tofu bound is the Tofu-like network's BFS diameter.
func TestTofuDiameter(t *testing.T) {
	for k := 2; k <= 5; k++ {
		st, err := Distances(context.Background(), topology.MustNew(fmt.Sprintf("tofu:%d", k)))
		if err != nil {
			t.Fatal(err)
		}
		if st.Diameter != TofuBound(k) {
			t.Errorf("tofu:%d: diameter %d, Lemma 1 %d", k, st.Diameter, TofuBound(k))
		}
	}
}

// [TCT] §5, Figs. 6 and 7 (k = 5, n = 1..8): exact average and longest route of
// Algorithm R in the TCT (the bound, attained) and in the TCC (its cluster a 2n-cycle,
// with the port layout we assume, FamilyTCC); the TCT is shorter from n = 3 on, and the
// gap grows.
func TestRByDimension(t *testing.T) {
	tctAvg := []float64{2.50, 6.12, 9.24, 12.96, 15.54, 18.95, 22.25, 25.80}
	tccMax := []int{5, 12, 21, 29, 37, 45, 53, 61}
	tccAvg := []float64{2.50, 6.12, 10.60, 15.18, 19.87, 24.51, 29.16, 33.77}
	gap := 0.0
	for n := 1; n <= 8; n++ {
		tct := RLengthDistribution(clusterTorus(t, topology.FamilyTCT, n, 5))
		tcc := RLengthDistribution(clusterTorus(t, topology.FamilyTCC, n, 5))
		if tct.Max != RBound(n, 5) || math.Abs(tct.Avg-tctAvg[n-1]) > 0.005 {
			t.Errorf("TCT(%d,5): longest %d (bound %d), average %.4f (spec %.2f)", n, tct.Max, RBound(n, 5), tct.Avg, tctAvg[n-1])
		}
		if tcc.Max != tccMax[n-1] || math.Abs(tcc.Avg-tccAvg[n-1]) > 0.005 {
			t.Errorf("TCC(%d,5): longest %d (spec %d), average %.4f (spec %.2f)", n, tcc.Max, tccMax[n-1], tcc.Avg, tccAvg[n-1])
		}
		if n >= 3 {
			if g := tcc.Avg - tct.Avg; g <= gap || tcc.Max <= tct.Max {
				t.Errorf("n=%d: TCC average %.2f vs TCT %.2f: the gap does not grow", n, tcc.Avg, tct.Avg)
			} else {
				gap = g
			}
		}
		// "About 44 % shorter": the average is 0.51-0.57 of the longest route.
		if r := tct.Avg / float64(tct.Max); n >= 2 && (r < 0.50 || r > 0.575) {
			t.Errorf("TCT(%d,5): average/longest = %.3f", n, r)
		}
	}
}

// [TCT] §5.1, the paper's own experiment: 1,000 random pairs per n (k = 5). The longest
// sampled route reaches the bound for n ≤ 3 and falls short of it from n = 4 on, as the
// paper says; our seeded samples fall within the exact distribution of the sample
// maximum, whose central range meets the typical range of other seeded samples of
// 1,000 pairs.
func TestRSampledMaxima(t *testing.T) {
	typical := [][2]int{{5, 5}, {12, 12}, {16, 17}, {22, 24}, {26, 27}, {30, 32}, {33, 35}, {40, 43}}
	for n := 1; n <= 8; n++ {
		g := clusterTorus(t, topology.FamilyTCT, n, 5)
		exact := RLengthDistribution(g)
		s := SampleR(g, 1000, uint64(n))
		lo, hi := exact.SampleMaxQuantile(1000, 0.001), exact.SampleMaxQuantile(1000, 0.999)
		if s.Max < lo || s.Max > hi || s.Max > RBound(n, 5) {
			t.Errorf("n=%d: sampled longest route %d outside the exact 99.8 %% range [%d, %d]", n, s.Max, lo, hi)
		}
		q05, q95 := exact.SampleMaxQuantile(1000, 0.05), exact.SampleMaxQuantile(1000, 0.95)
		if q05 > typical[n-1][1] || q95 < typical[n-1][0] {
			t.Errorf("n=%d: the sample maximum's 5–95 %% range is [%d, %d], typical %v", n, q05, q95, typical[n-1])
		}
		reach := exact.SampleMaxProb(1000, RBound(n, 5))
		if n <= 2 && reach < 0.99 || n >= 5 && reach > 0.01 {
			t.Errorf("n=%d: probability that 1,000 pairs reach the bound %d: %.3f", n, RBound(n, 5), reach)
		}
		if math.Abs(s.Avg-exact.Avg) > 4*s.Std/math.Sqrt(1000) {
			t.Errorf("n=%d: sampled average %.3f, exact %.3f (std %.2f)", n, s.Avg, exact.Avg, s.Std)
		}
	}
}

// The true (BFS) diameters, below Theorem 2's bound ([TCT] §4 leaves the exact diameter
// open; these are an independent brute-force count).
func TestTCTDiameters(t *testing.T) {
	want := map[[2]int]int{{3, 5}: 14, {4, 5}: 20, {5, 5}: 23, {6, 5}: 28, {7, 5}: 32, {8, 3}: 23, {3, 7}: 20, {6, 4}: 24}
	for nk, d := range want {
		if testing.Short() && nk[0] >= 6 {
			continue
		}
		net, err := topology.TCT(nk[0], nk[1])
		if err != nil {
			t.Fatal(err)
		}
		st, err := Distances(context.Background(), net)
		if err != nil {
			t.Fatal(err)
		}
		if st.Diameter != d || st.Sources != 2*nk[0] || d >= RBound(nk[0], nk[1]) {
			t.Errorf("TCT(%d,%d): BFS diameter %d from %d sources, want %d (bound %d)", nk[0], nk[1], st.Diameter, st.Sources, d, RBound(nk[0], nk[1]))
		}
	}
}

// [TCT] §4, Table 3: the bisection of TCT(n,k) is the meta torus's, 2k^(n−1) links,
// and the Tofu's 24k² (k > 2); at 5 GB/s per link, the table's GB/s.
func TestBisection(t *testing.T) {
	for _, r := range []struct{ n, k, gbps int }{{3, 5, 250}, {3, 7, 490}, {4, 5, 1250}, {5, 5, 6250}, {5, 6, 12960}, {6, 4, 10240}} {
		cut, err := MetaBisection(topology.MustNew(fmt.Sprintf("tct:%d,%d", r.n, r.k)))
		if err != nil {
			t.Fatal(err)
		}
		if want := 2 * int(math.Pow(float64(r.k), float64(r.n-1))); cut != want || 5*cut != r.gbps {
			t.Errorf("TCT(%d,%d): %d links cross the bisection (%d GB/s), want %d (Table 3: %d GB/s)", r.n, r.k, cut, 5*cut, want, r.gbps)
		}
	}
	for k, gbps := range map[int]int{3: 1080, 4: 1920} {
		cut, err := MetaBisection(topology.MustNew(fmt.Sprintf("tofu:%d", k)))
		if err != nil {
			t.Fatal(err)
		}
		if cut != 24*k*k || 5*cut != gbps {
			t.Errorf("tofu:%d: %d links cross the bisection, want 24k² = %d (Table 3: %d GB/s)", k, cut, 24*k*k, gbps)
		}
	}
}

// Algorithm R under bubble flow control: its rings entered with the bubble condition,
// and the dependency graph of rings and levels acyclic; on one VC it has cycles.
func TestTCTDeadlockFree(t *testing.T) {
	for _, spec := range []string{"tct:3,4", "tct:4,3", "tct:2,5", "tct:5,2", "tct:6,2", "tct:3,5", "tcc:2,4", "toroid:8", "tct:1,6"} {
		net := topology.MustNew(spec)
		rt, err := routing.NewTCT(net, routing.SchemeBubble)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := CheckCDG(net, rt, rt.Ring)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Acyclic || len(rep.Unprotected) > 0 {
			t.Errorf("%s: acyclic %v (cycle %v), unprotected %v", spec, rep.Acyclic, rep.Cycle, rep.Unprotected)
		}
		if spec == "tct:3,4" || spec == "tct:4,3" {
			none, _ := routing.NewTCT(net, routing.SchemeNone)
			if rep, _ := CheckCDG(net, none, nil); rep.Acyclic {
				t.Errorf("%s: on one VC without bubble the graph is acyclic", spec)
			}
		}
	}
}

// Clusters with rings of five or more nodes (toroids from n = 9, TCC from n = 3) close
// cycles inside a level: Algorithm R refuses bubble flow control there and says what
// to use, and its escape version passes Duato's check.
func TestTCTRefusesCyclicClusters(t *testing.T) {
	for _, spec := range []string{"tcc:3,4", "toroid:9", "tct:9,2"} {
		net := topology.MustNew(spec)
		if _, err := routing.NewTCT(net, routing.SchemeBubble); err == nil || !strings.Contains(err.Error(), "escape") {
			t.Errorf("%s under bubble: %v", spec, err)
		}
		if spec == "tct:9,2" {
			continue // 9,216 nodes: the escape check below is for the small ones
		}
		rt, err := routing.New("tct", net, routing.SchemeEscape, routing.TiePlus)
		if err != nil {
			t.Fatal(err)
		}
		if err := RequireDeadlockFree(context.Background(), net, rt); err != nil {
			t.Errorf("%s with the escape: %v", spec, err)
		}
	}
}
