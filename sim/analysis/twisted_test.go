package analysis

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

func twistedReport(t *testing.T, kind topology.TwistedKind, a int, allPairs bool) *TwistedReport {
	t.Helper()
	net, err := topology.Twisted(kind, a)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := TwistedAnalysis(context.Background(), net, allPairs)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Minimal {
		t.Fatalf("%s: Algorithm 1's records are not all shortest paths", net)
	}
	return rep
}

// [TT] §3.3: the RTT 2a×a has diameter a, distance distribution Ω(0) = 1, Ω(d) = 4d
// for 0 < d < a, Ω(a) = 2a − 1 (Proposition 6), average distance (4a² − 1)/(6a), and
// equal averages in X and Y.
func TestRTTDistances(t *testing.T) {
	for a, avg := range map[int]float64{4: 2.625, 8: 5.3125, 16: 10.65625, 32: 21.328125} {
		rep := twistedReport(t, topology.KindRTT, a, a <= 8)
		if rep.Diameter != a {
			t.Errorf("RTT a=%d: diameter %d, want a", a, rep.Diameter)
		}
		for d, got := range rep.Omega {
			want := int64(4 * d)
			switch d {
			case 0:
				want = 1
			case a:
				want = int64(2*a - 1)
			}
			if got != want {
				t.Errorf("RTT a=%d: Ω(%d) = %d, Proposition 6 says %d", a, d, got, want)
			}
		}
		closed := float64(4*a*a-1) / float64(6*a)
		if rep.AvgDistance != avg || math.Abs(closed-avg) > 1e-12 {
			t.Errorf("RTT a=%d: k̄ = %v, want %v = (4a²−1)/(6a) = %v", a, rep.AvgDistance, avg, closed)
		}
		if rep.PerDim[0] != rep.PerDim[1] || rep.LU != 1 {
			t.Errorf("RTT a=%d: per-dimension averages %v, LU %v; want X = Y, LU = 1", a, rep.PerDim, rep.LU)
		}
	}
}

// [TT] §3.2, Remark 3: the RT 2a×a has diameter 3a/2, average 3a/4 and LU 3/4.
func TestRTDistances(t *testing.T) {
	for _, a := range []int{4, 8, 16, 32} {
		rep := twistedReport(t, topology.KindRT, a, a <= 8)
		if rep.Diameter != 3*a/2 || rep.AvgDistance != 0.75*float64(a) || rep.LU != 0.75 {
			t.Errorf("RT a=%d: diameter %d, k̄ %v, LU %v; want %d, %v, 0.75", a, rep.Diameter, rep.AvgDistance, rep.LU, 3*a/2, 0.75*float64(a))
		}
	}
}

// [TT] Remark 4, Proposition 9, Remark 11: PT diameter 2a and average a; PTT and PDTT
// diameter 3a/2, averages 3.625, 7.3125, 14.65625, 29.328125 (≈ 11a/12) and 3.4375,
// 6.96875, 13.984375, 27.9921875 (≈ 7a/8); the PDTT's dimensions equally used (LU = 1),
// the PTT's LU about 11/12 (spec table: .921, .918, .917, .917).
func TestPrismaticDistances(t *testing.T) {
	ptt := map[int]float64{4: 3.625, 8: 7.3125, 16: 14.65625, 32: 29.328125}
	pdtt := map[int]float64{4: 3.4375, 8: 6.96875, 16: 13.984375, 32: 27.9921875}
	pttLU := map[int]float64{4: .921, 8: .918, 16: .917, 32: .917}
	for _, a := range []int{4, 8, 16, 32} {
		if testing.Short() && a == 32 {
			continue
		}
		pt := twistedReport(t, topology.KindPT, a, a == 4)
		if pt.Diameter != 2*a || pt.AvgDistance != float64(a) || math.Abs(pt.LU-2.0/3) > 1e-12 {
			t.Errorf("PT a=%d: diameter %d, k̄ %v, LU %v; want %d, %d, 2/3", a, pt.Diameter, pt.AvgDistance, pt.LU, 2*a, a)
		}
		p := twistedReport(t, topology.KindPTT, a, a == 4)
		if p.Diameter != 3*a/2 || p.AvgDistance != ptt[a] || math.Abs(p.LU-pttLU[a]) > 0.0005 || p.PerDim[2] != float64(a)/4 {
			t.Errorf("PTT a=%d: diameter %d, k̄ %v, per dimension %v, LU %v; want %d, %v, Z = a/4, LU %v", a, p.Diameter, p.AvgDistance, p.PerDim, p.LU, 3*a/2, ptt[a], pttLU[a])
		}
		d := twistedReport(t, topology.KindPDTT, a, a == 4)
		if d.Diameter != 3*a/2 || d.AvgDistance != pdtt[a] || d.PerDim[0] != d.PerDim[1] || d.PerDim[1] != d.PerDim[2] || d.LU != 1 {
			t.Errorf("PDTT a=%d: diameter %d, k̄ %v, per dimension %v, LU %v; want %d, %v, equal, 1", a, d.Diameter, d.AvgDistance, d.PerDim, d.LU, 3*a/2, pdtt[a])
		}
	}
}

// [TT] §4, Algorithm 1 and Proposition 12: Algorithm 1's candidates give minimal paths
// for every pair (the reports above check it), and the translates a minimal router
// needs, derived here from the lattice alone, are exactly the candidates: 7 for the RTT
// (Proposition 12), 21 for the PTT and 23 for the PDTT (the paper's "23 cases checked
// in parallel"). No smaller set works, and every minimal record of every pair is among
// them.
func TestForcedTranslates(t *testing.T) {
	want := map[topology.TwistedKind]int{topology.KindRT: 9, topology.KindRTT: 7, topology.KindPT: 27, topology.KindPTT: 21, topology.KindPDTT: 23}
	for _, kind := range topology.TwistedKinds() {
		for _, a := range []int{4, 6, 8} {
			forced, all, sufficient := ForcedTranslates(kind, a)
			if len(forced) != want[kind] || !sufficient || len(all) != len(forced) {
				t.Errorf("%s a=%d: %d forced translates (sufficient %v), %d minimising any pair; want %d", kind.Upper(), a, len(forced), sufficient, len(all), want[kind])
				continue
			}
			cands := routing.TwistedCandidates(kind)
			sortVecs(cands)
			if fmt.Sprint(cands) != fmt.Sprint(forced) {
				t.Errorf("%s a=%d: Algorithm 1's candidates %v, the lattice needs %v", kind.Upper(), a, cands, forced)
			}
		}
	}
}

// [TT] §5: the uniform-traffic bound from the channel loads (ties split evenly):
// RT = PT = 4/a exactly; RTT = PTT = 24a/(4a²−1) exactly, the paper's 6/a with its
// average rounded to 2a/3; PDTT the paper's 48/(7a) up to the same rounding. At a = 16:
// 0.25 / 0.375 / 0.4286 in the paper, 0.25 / 0.3754 / 0.4291 exactly (spec table);
// at a = 32: 0.125 / 0.1875 / 0.2143, and 0.125 / 0.1875 / 0.2143.
func TestTwistedBounds(t *testing.T) {
	exact := map[string]string{"rt16": "0.2500", "rtt16": "0.3754", "pt16": "0.2500", "ptt16": "0.3754", "pdtt16": "0.4291",
		"rt32": "0.1250", "rtt32": "0.1875", "pt32": "0.1250", "ptt32": "0.1875", "pdtt32": "0.2143"}
	for _, a := range []int{4, 8, 16, 32} {
		if testing.Short() && a == 32 {
			continue
		}
		paper := map[topology.TwistedKind]float64{topology.KindRT: 4 / float64(a), topology.KindRTT: 6 / float64(a),
			topology.KindPT: 4 / float64(a), topology.KindPTT: 6 / float64(a), topology.KindPDTT: 48 / (7 * float64(a))}
		for _, kind := range topology.TwistedKinds() {
			rep := twistedReport(t, kind, a, false)
			switch kind {
			case topology.KindRT, topology.KindPT:
				if rep.BoundRat.Cmp(big.NewRat(4, int64(a))) != 0 {
					t.Errorf("%s a=%d: bound %v, want 4/a", kind.Upper(), a, rep.BoundRat)
				}
			case topology.KindRTT, topology.KindPTT:
				if rep.BoundRat.Cmp(big.NewRat(int64(24*a), int64(4*a*a-1))) != 0 {
					t.Errorf("%s a=%d: bound %v, want 24a/(4a²−1)", kind.Upper(), a, rep.BoundRat)
				}
			}
			if rel := rep.Bound/paper[kind] - 1; rel < 0 || rel > 0.3/float64(a*a) { // the rounding is O(1/a²)
				t.Errorf("%s a=%d: bound %.5f, the paper's %.5f (%+.3f %%)", kind.Upper(), a, rep.Bound, paper[kind], 100*rel)
			}
			if want, ok := exact[fmt.Sprintf("%s%d", kind, a)]; ok && fmt.Sprintf("%.4f", rep.Bound) != want {
				t.Errorf("%s a=%d: bound %.5f, spec table %s", kind.Upper(), a, rep.Bound, want)
			}
		}
	}
}

// [TT] §5.2, the paper's own argument: the cut between columns a−1 and
// a crosses 4a links of the RTT (2a of the RT); P = (a⁴ − a²)/6 ordered pairs inside
// one half cross it under minimal routing (ties at distance a counted half, eq. 8–9),
// and the cut's bound equals the channel-load bound.
func TestTwistedCut(t *testing.T) {
	for a := 2; a <= 11; a++ {
		for _, kind := range []topology.TwistedKind{topology.KindRT, topology.KindRTT} {
			net, _ := topology.Twisted(kind, a)
			cut, err := TwistedCut(context.Background(), net)
			if err != nil {
				t.Fatal(err)
			}
			links, p := 4*a, float64(a*a*a*a-a*a)/6
			if kind == topology.KindRT {
				links, p = 2*a, 0
			}
			if cut.Links != links || cut.Internal != 2*p {
				t.Errorf("%s a=%d: %d cut links, %v internal pairs crossing; want %d and 2·%v", kind.Upper(), a, cut.Links, cut.Internal, links, p)
			}
			rep := twistedReport(t, kind, a, false)
			if math.Abs(cut.Bound-rep.Bound) > 1e-9 {
				t.Errorf("%s a=%d: cut bound %v, channel bound %v", kind.Upper(), a, cut.Bound, rep.Bound)
			}
		}
	}
	for _, spec := range []string{"twisted:rtt:16", "twisted:ptt:4", "twisted:pdtt:4"} {
		net := topology.MustNew(spec)
		cut, err := TwistedCut(context.Background(), net)
		if err != nil {
			t.Fatal(err)
		}
		rep, _ := TwistedAnalysis(context.Background(), net, false)
		if math.Abs(cut.Bound-rep.Bound) > 1e-9 {
			t.Errorf("%s: cut bound %v, channel bound %v", spec, cut.Bound, rep.Bound)
		}
	}
}

// The deterministic records (ties chosen per displacement to balance the channel
// classes) keep the routing's own channel-load bound within 0.5 % of the even split's
// at the paper's 2D size, measured by routing every pair along twisted-dor's paths.
func TestTwistedDORLoad(t *testing.T) {
	for _, spec := range []string{"twisted:rt:16", "twisted:rtt:16", "twisted:ptt:8", "twisted:pdtt:8"} {
		if testing.Short() && spec[9] == 'p' {
			continue
		}
		net := topology.MustNew(spec)
		rt, err := routing.NewTwistedDOR(net, routing.SchemeBubble)
		if err != nil {
			t.Fatal(err)
		}
		l, err := Load(context.Background(), rt)
		if err != nil {
			t.Fatal(err)
		}
		rep, _ := TwistedAnalysis(context.Background(), net, false)
		n := float64(net.Terminals())
		ideal := rep.Bound * (n - 1) / n // Load counts N−1 destinations per PE
		if r := l.ChannelBound / ideal; r < 0.995 || r > 1+1e-12 || math.Abs(l.AvgHops*(n-1)/n-rep.AvgDistance) > 1e-9 {
			t.Errorf("%s: twisted-dor's channel bound %.5f is %.4f of the even split's %.5f; average hops %v", spec, l.ChannelBound, r, ideal, l.AvgHops)
		}
	}
}

// Dimension order on the records under bubble flow control: every ring (the twisted
// 2a-node ones included) is entered with the bubble condition, and the rings'
// dependency graph is acyclic; without the bubble the rings close cycles.
func TestTwistedDORDeadlockFree(t *testing.T) {
	for _, kind := range topology.TwistedKinds() {
		for _, a := range []int{4, 8} {
			if testing.Short() && a == 8 && kind.Dims() == 3 {
				continue
			}
			net, _ := topology.Twisted(kind, a)
			rt, _ := routing.NewTwistedDOR(net, routing.SchemeBubble)
			rep, err := CheckCDG(net, rt, rt.Ring)
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Acyclic || len(rep.Unprotected) > 0 || rep.Rings != wantRings(kind, a, net.Switches()) {
				t.Errorf("%s: acyclic %v, unprotected %v, %d rings", net, rep.Acyclic, rep.Unprotected, rep.Rings)
			}
			if a > 4 {
				continue
			}
			none, _ := routing.NewTwistedDOR(net, routing.SchemeNone)
			if rep, _ := CheckCDG(net, none, nil); rep.Acyclic {
				t.Errorf("%s: without the bubble the channel graph is acyclic", net)
			}
		}
	}
}

// wantRings counts the rings: per dimension and direction, N over the ring's length
// (2a for X, for Y when twisted, for Z in the PDTT; a otherwise).
func wantRings(kind topology.TwistedKind, a, n int) int {
	ty, tz := kind.Twists()
	lens := []int{2 * a, a, a}
	if ty {
		lens[1] = 2 * a
	}
	if tz {
		lens[2] = 2 * a
	}
	rings := 0
	for d := 0; d < kind.Dims(); d++ {
		rings += 2 * n / lens[d]
	}
	return rings
}

// [TT] §8: the trellis-folded RTT (Algorithm 2, Fig. 15) is a bijection onto the
// 2a×a grid whose longest link is √5, for a = 4, 8, 16.
func TestTrellisFolding(t *testing.T) {
	for _, a := range []int{4, 8, 16} {
		pos, err := TrellisLayout(a)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[[2]int]bool{}
		for _, p := range pos {
			if seen[p] || p[0] < 0 || p[0] >= 2*a || p[1] < 0 || p[1] >= a {
				t.Fatalf("a=%d: position %v repeated or off the grid", a, p)
			}
			seen[p] = true
		}
		net, _ := topology.Twisted(topology.KindRTT, a)
		if l := MaxLinkLength(net, pos); math.Abs(l-math.Sqrt(5)) > 1e-12 {
			t.Errorf("a=%d: longest link %.4f, want √5", a, l)
		}
	}
	if _, err := TrellisLayout(5); err == nil {
		t.Error("odd a accepted")
	}
}
