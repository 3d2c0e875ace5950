package analysis

import (
	"fmt"
	"slices"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

func enumerate(t testing.TB, radix []int, tie routing.Tie) *Transit {
	t.Helper()
	tr, err := TransitByEnumeration(radix, tie)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func closedForm(t testing.TB, radix []int, tie routing.Tie) *Transit {
	t.Helper()
	tr, err := TransitClosedForm(radix, tie)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func cube(n, k int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = k
	}
	return r
}

// The walk and the product form are written independently; they must agree entry by
// entry on every shape: odd, even, mixed radices, n = 1..8, both tie directions.
func TestTransitEnumerationEqualsClosedForm(t *testing.T) {
	shapes := [][]int{
		{2}, {7}, {6}, {2, 2}, {3, 3}, {4, 5}, {5, 4, 3}, {4, 4, 2, 4, 4}, {6, 5, 4, 3},
		{2, 3, 2, 3, 2, 3}, {3, 4, 3, 4, 3, 4, 3}, {2, 2, 3, 2, 2, 3, 2, 2}, {12, 12, 12}, {9, 10, 11},
	}
	for n := 2; n <= 8; n++ {
		shapes = append(shapes, cube(n, 3), cube(n, 4))
	}
	for _, radix := range shapes {
		for _, tie := range []routing.Tie{routing.TiePlus, routing.TieMinus} {
			e, c := enumerate(t, radix, tie), closedForm(t, radix, tie)
			if !e.Equal(c) {
				t.Errorf("%v tie %d: enumeration\n%v%v %v\n!= closed form\n%v%v %v", radix, tie, e, e.Ds, e.Dd, c, c.Ds, c.Dd)
			}
			if e.Total() != TotalTransit(radix) {
				t.Errorf("%v tie %d: %d transit paths enumerated, TotalTransit = %d", radix, tie, e.Total(), TotalTransit(radix))
			}
		}
	}
}

// [TR] §5.2.5, Tables 7–8 (checked against brute force): internal-link transit paths
// per node of configurations A–J and the total, k = 2..12, with DOR ties to the +
// direction.
var table3DT = map[int][11]int64{
	2:  {5, 2, 4, 1, 1, 2, 5, 3, 4, 3, 5},
	3:  {14, 14, 20, 16, 14, 14, 16, 20, 20, 20, 28},
	4:  {93, 88, 79, 49, 85, 88, 73, 70, 79, 70, 129},
	5:  {238, 238, 178, 146, 238, 238, 146, 178, 178, 178, 326},
	6:  {601, 594, 394, 289, 589, 594, 349, 369, 394, 369, 757},
	7:  {1152, 1152, 690, 582, 1152, 1152, 582, 690, 690, 690, 1422},
	8:  {2153, 2144, 1213, 961, 2137, 2144, 1073, 1164, 1213, 1164, 2561},
	9:  {3524, 3524, 1868, 1612, 3524, 3524, 1612, 1868, 1868, 1868, 4132},
	10: {5661, 5650, 2896, 2401, 5641, 5650, 2581, 2815, 2896, 2815, 6501},
	11: {8410, 8410, 4120, 3620, 8410, 8410, 3620, 4120, 4120, 4120, 9560},
	12: {12325, 12312, 5899, 5041, 12301, 12312, 5305, 5778, 5899, 5778, 13825},
}

func Test3DTConfigurationTable(t *testing.T) {
	for k := 2; k <= 12; k++ {
		e := enumerate(t, cube(3, k), routing.TiePlus)
		row := table3DT[k]
		if e.Total() != row[10] {
			t.Errorf("k=%d: %d transit paths, want %d", k, e.Total(), row[10])
		}
		// [TR]: T = ¾k⁴ − k³ + 1 (even k), ¾k²(k²−1) − k³ + 1 (odd k).
		kk := int64(k)
		paper := 3*kk*kk*(kk*kk-kk%2)/4 - kk*kk*kk + 1
		if TotalTransit(cube(3, k)) != paper {
			t.Errorf("k=%d: TotalTransit %d, paper's T(k) %d", k, TotalTransit(cube(3, k)), paper)
		}
		for i := range 10 {
			l := byte('A' + i)
			c, _ := topology.Letter(l)
			poly, err := Crossing3DT(l, k)
			if err != nil {
				t.Fatal(err)
			}
			if got := e.Crossing(c); got != row[i] || poly != row[i] {
				t.Errorf("k=%d %c: enumeration %d, polynomial %d, table %d", k, l, got, poly, row[i])
			}
		}
	}
}

// Thesis Table 1.1: 4×4×4, 129 transit paths per node; [Th] A, B, C = [TR] A, C, D.
func TestThesisTable11(t *testing.T) {
	e := enumerate(t, cube(3, 4), routing.TiePlus)
	for _, c := range []struct {
		letter byte
		paths  int64
		pct    string
	}{{'A', 93, "72.1"}, {'C', 79, "61.2"}, {'D', 49, "38.0"}} {
		cfg, _ := topology.Letter(c.letter)
		got := e.Crossing(cfg)
		pct := fmt.Sprintf("%.1f", 100*float64(got)/float64(e.Total()))
		if e.Total() != 129 || got != c.paths || pct != c.pct {
			t.Errorf("%c: %d of %d (%s %%), want %d of 129 (%s %%)", c.letter, got, e.Total(), pct, c.paths, c.pct)
		}
	}
}

// [TR] §5.2.3–5.2.4: D_s, D_d (Tables 3–4), Propositions 5.2 and 5.3 (Tables 5–6);
// [nDT] §3.1, Examples 3.1 and 3.2.
func TestCardinalitiesAndPairs(t *testing.T) {
	x, y, z := 0, 1, 2
	p := func(d, dir int) int { return PortIndex(d, dir) }
	order := []int{p(x, -1), p(x, +1), p(y, -1), p(y, +1), p(z, -1), p(z, +1)}
	pick := func(v []int64) []int64 {
		var out []int64
		for _, i := range order {
			out = append(out, v[i])
		}
		return out
	}
	e4, e5 := enumerate(t, cube(3, 4), routing.TiePlus), enumerate(t, cube(3, 5), routing.TiePlus)
	for _, c := range []struct {
		e      *Transit
		ds, dd []int64
	}{
		{e4, []int64{2, 1, 8, 4, 32, 16}, []int64{16, 32, 4, 8, 1, 2}},
		{e5, []int64{2, 2, 10, 10, 50, 50}, []int64{50, 50, 10, 10, 2, 2}},
	} {
		if !slices.Equal(pick(c.e.Ds), c.ds) || !slices.Equal(pick(c.e.Dd), c.dd) {
			t.Errorf("k=%d: D_s %v D_d %v, want %v %v", c.e.Radix[0], pick(c.e.Ds), pick(c.e.Dd), c.ds, c.dd)
		}
	}
	if e5.Ds[p(x, +1)] != 2 || e5.Dd[p(y, -1)] != 10 {
		t.Errorf("Examples 3.1/3.2: |N_s^{d0+}| = %d, |N_d^{d1-}| = %d, want 2 and 10", e5.Ds[p(x, +1)], e5.Dd[p(y, -1)])
	}
	r := func(e *Transit, d1, s1, d2, s2 int) int64 { return e.R[p(d1, s1)][p(d2, s2)] }
	// k = 4: X⁻→X⁺ 16, X⁺→X⁻ 0, and the twelve cross-dimension values.
	want4 := map[[4]int]int64{
		{x, -1, x, +1}: 16, {x, +1, x, -1}: 0,
		{x, -1, y, +1}: 16, {x, -1, y, -1}: 8, {x, +1, y, +1}: 8, {x, +1, y, -1}: 4,
		{x, -1, z, +1}: 4, {x, -1, z, -1}: 2, {x, +1, z, +1}: 2, {x, +1, z, -1}: 1,
		{y, -1, z, +1}: 16, {y, -1, z, -1}: 8, {y, +1, z, +1}: 8, {y, +1, z, -1}: 4,
		{y, +1, x, +1}: 0, {z, -1, x, -1}: 0, {y, +1, y, +1}: 0,
	}
	for k, v := range want4 {
		if got := r(e4, k[0], k[1], k[2], k[3]); got != v {
			t.Errorf("k=4 R%v = %d, want %d", k, got, v)
		}
	}
	// k = 5: X→Y and Y→Z pairs 20, X→Z 4, each straight-through direction 25 (R_{X↔X} = 50).
	for _, s1 := range []int{-1, 1} {
		for _, s2 := range []int{-1, 1} {
			if r(e5, x, s1, y, s2) != 20 || r(e5, y, s1, z, s2) != 20 || r(e5, x, s1, z, s2) != 4 {
				t.Errorf("k=5 cross-dimension pairs (%d,%d): %d %d %d", s1, s2, r(e5, x, s1, y, s2), r(e5, y, s1, z, s2), r(e5, x, s1, z, s2))
			}
		}
	}
	for d := range 3 {
		if r(e5, d, -1, d, +1) != 25 || r(e5, d, +1, d, -1) != 25 {
			t.Errorf("k=5 straight through dimension %d: %d, %d, want 25, 25", d, r(e5, d, -1, d, +1), r(e5, d, +1, d, -1))
		}
	}
}

// [nDT] §3.2–3.4: R_CBest, total transit paths and PATH(i) (the count for one ordered pair of
// single ports in d_j → d_{j+i}; PATH(0) both directions of one dimension).
func TestNDTTable(t *testing.T) {
	for _, c := range []struct {
		n, k              int
		cbest, total      int64
		path0, path1, pt2 int64
	}{
		{3, 3, 16, 28, 0, 3, 1},
		{3, 5, 146, 326, 50, 20, 4},
		{3, 7, 582, 1422, 294, 63, 9},
		{4, 3, 64, 136, 0, 9, 3},
		{4, 5, 576, 2376, 250, 100, 20},
		{4, 7, 2304, 14064, 2058, 441, 63},
		{5, 3, 208, 568, 0, 27, 9},
		{5, 5, 4226, 15626, 1250, 500, 100},
		{5, 7, 30822, 127254, 14406, 3087, 441},
		{6, 5, 15376, 96876, 6250, 2500, 500},
		{7, 3, 2080, 8020, 0, 243, 81},
		{7, 5, 108626, 578126, 31250, 12500, 2500},
	} {
		radix := cube(c.n, c.k)
		e := enumerate(t, radix, routing.TiePlus)
		byEnum := e.Crossing(topology.CBest(radix))
		general, err := CBestCrossing(radix, routing.TiePlus)
		if err != nil {
			t.Fatal(err)
		}
		paper, err := CBestCrossingPaper(c.n, c.k)
		if err != nil {
			t.Fatal(err)
		}
		if byEnum != c.cbest || general != c.cbest || paper != c.cbest {
			t.Errorf("(%d,%d) R_CBest: enumeration %d, generalised %d, Prop. 3.4 %d, want %d", c.n, c.k, byEnum, general, paper, c.cbest)
		}
		kk := int64(c.k)
		ndtT := int64(c.n)*pow(c.k, c.n-1)*(kk*kk-1)/4 - (pow(c.k, c.n) - 1)
		if e.Total() != c.total || TotalTransit(radix) != c.total || ndtT != c.total {
			t.Errorf("(%d,%d) T: enumeration %d, TotalTransit %d, paper %d, want %d", c.n, c.k, e.Total(), TotalTransit(radix), ndtT, c.total)
		}
		// The single-port values hold for every pair in the paper's orientation.
		p := func(d, dir int) int { return PortIndex(d, dir) }
		if got := e.R[p(0, -1)][p(0, +1)] + e.R[p(0, +1)][p(0, -1)]; got != c.path0 {
			t.Errorf("(%d,%d) PATH(0) = %d, want %d", c.n, c.k, got, c.path0)
		}
		if got := e.R[p(c.n-2, +1)][p(c.n-1, -1)]; got != c.path1 {
			t.Errorf("(%d,%d) PATH(1) = %d, want %d", c.n, c.k, got, c.path1)
		}
		if got := e.R[p(0, -1)][p(2, +1)]; c.n > 2 && got != c.pt2 {
			t.Errorf("(%d,%d) PATH(2) = %d, want %d", c.n, c.k, got, c.pt2)
		}
	}
}

// Even radices with ties to +: CBest puts d_m+ on Card0; the paper's odd-k orientation
// (d_m- on Card0) is far worse (docs/model.md, Networks).
func TestCBestEvenRadix(t *testing.T) {
	for _, c := range []struct {
		radix        []int
		cbest, paper int64 // d_m+ on Card0, d_m- on Card0
		total        int64
	}{
		{[]int{4, 4, 4}, 49, 73, 129},
		{[]int{4, 4, 2, 4, 4}, 225, 705, 1793},
		{[]int{4, 4, 4, 4, 4}, 961, 1441, 4097},
	} {
		e := enumerate(t, c.radix, routing.TiePlus)
		n, m := len(c.radix), len(c.radix)/2
		best := topology.CBest(c.radix)
		paperForm := best&^topology.PortBit(m, +1) | topology.PortBit(m, -1)
		general, err := CBestCrossing(c.radix, routing.TiePlus)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Crossing(best); got != c.cbest || general != c.cbest || e.Total() != c.total {
			t.Errorf("%v: CBest %s crosses %d (formula %d) of %d, want %d of %d", c.radix, best.Ports(n), got, general, e.Total(), c.cbest, c.total)
		}
		if got := e.Crossing(paperForm); got != c.paper {
			t.Errorf("%v: %s crosses %d, want %d", c.radix, paperForm.Ports(n), got, c.paper)
		}
	}
	if _, err := CBestCrossingPaper(3, 4); err == nil {
		t.Error("Prop. 3.4 for odd n and even k: no error")
	}
}

// The node-level counts must match the switch-level route: routing.DOR.Path on the twin
// network, from both PEs of node 0 to both PEs of every node. At every node strictly
// inside a route, the ports it enters and leaves by give R (4 PE pairs per node pair),
// and the internal-link hops there give the crossing count.
func TestSwitchLevelDORTMatchesNodeLevel(t *testing.T) {
	for _, c := range []struct {
		spec string
		tie  routing.Tie
	}{
		{"twin:4x4x4/A", routing.TiePlus},
		{"twin:4x4x4/C", routing.TiePlus},
		{"twin:4x4x4/D", routing.TiePlus},
		{"twin:4x4x4/D", routing.TieMinus},
		{"twin:5x5x5/G", routing.TiePlus},
		{"twin:3x4x2x5/cbest", routing.TiePlus},
		{"twin:4x4x2x4x4/cbest", routing.TiePlus},
		{"twin:6x3/x+,y-", routing.TieMinus},
	} {
		net := topology.MustNew(c.spec)
		r := routing.NewDOR(net, c.tie)
		n := net.Dims()
		sw := newTransit(net.Radices(), c.tie)
		var crossings int64
		var buf []routing.Step
		for src := range 2 { // the PEs of node 0
			for dst := 0; dst < net.Terminals(); dst++ {
				buf = r.Path(src, dst, buf[:0])
				srcNode, dstNode := net.Node(buf[0].Switch), net.Node(buf[len(buf)-1].Switch)
				in := -1 // port index the route entered the current node by
				for _, st := range buf {
					p := net.Port(st.Switch, st.Port)
					inside := net.Node(st.Switch) != srcNode && net.Node(st.Switch) != dstNode
					switch p.Kind {
					case topology.Internal:
						if inside {
							crossings++
						}
					case topology.External:
						out := PortIndex(int(p.Dim), int(p.Dir))
						if inside {
							sw.R[in][out]++
						}
						in = inOf(out)
					}
				}
			}
		}
		e := enumerate(t, net.Radices(), c.tie)
		for i := range 2 * n {
			for j := range 2 * n {
				if sw.R[i][j] != 4*e.R[i][j] {
					t.Errorf("%s: switch-level R[%d][%d] = %d, want 4 × %d", c.spec, i, j, sw.R[i][j], e.R[i][j])
				}
			}
		}
		if want := 4 * e.Crossing(net.Config()); crossings != want {
			t.Errorf("%s tie %d: %d internal-link hops at transit nodes, want 4 × %d", c.spec, c.tie, crossings, want/4)
		}
	}
}

func TestTransitBadInput(t *testing.T) {
	for _, c := range []struct {
		radix []int
		tie   routing.Tie
	}{
		{nil, routing.TiePlus},
		{[]int{4, 1}, routing.TiePlus},
		{[]int{4, 0}, routing.TiePlus},
		{[]int{4, 4}, routing.TieMirror}, // node-level counts: one route per pair of nodes
		{[]int{4, 4}, routing.Tie(5)},
		{cube(9, 2), routing.TiePlus},
		{[]int{1 << 15, 1 << 15}, routing.TiePlus},
	} {
		if _, err := TransitByEnumeration(c.radix, c.tie); err == nil {
			t.Errorf("TransitByEnumeration(%v, %d): no error", c.radix, c.tie)
		}
		if _, err := TransitClosedForm(c.radix, c.tie); err == nil {
			t.Errorf("TransitClosedForm(%v, %d): no error", c.radix, c.tie)
		}
	}
	// TieDefault is DOR's own rule, plus.
	def, err := TransitClosedForm([]int{4, 2, 4}, routing.TieDefault)
	if err != nil {
		t.Fatal(err)
	}
	if plus, _ := TransitClosedForm([]int{4, 2, 4}, routing.TiePlus); def.Tie != routing.TiePlus || !def.Equal(plus) {
		t.Errorf("TransitClosedForm with TieDefault: tie %v, equal to plus's %v", def.Tie, def.Equal(plus))
	}
	if _, err := Crossing3DT('K', 4); err == nil {
		t.Error("Crossing3DT('K'): no error")
	}
	if _, err := Crossing3DT('D', 1); err == nil {
		t.Error("Crossing3DT(k=1): no error")
	}
	if _, err := CBestCrossing([]int{5}, routing.TiePlus); err == nil {
		t.Error("CBestCrossing(n=1): no error")
	}
}

func BenchmarkTransitByEnumeration7DT(b *testing.B) {
	for b.Loop() {
		if _, err := TransitByEnumeration(cube(7, 5), routing.TiePlus); err != nil {
			b.Fatal(err)
		}
	}
}
