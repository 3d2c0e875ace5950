package traffic

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

func mustPattern(t testing.TB, spec, netSpec string) Pattern {
	t.Helper()
	p, err := ParsePattern(spec, topology.MustNew(netSpec))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPermutationExamples(t *testing.T) {
	cases := []struct {
		net, pattern string
		pairs        string // src>dst pairs; dst -1 means silent
	}{
		{"torus:8", "bitrev", "1>4 3>6 4>1 6>3 0>-1 2>-1 5>-1 7>-1"},
		{"torus:8", "shuffle", "1>2 3>6 4>1 5>3 6>5 0>-1 7>-1"},
		{"torus:8", "butterfly", "1>4 4>1 3>6 6>3 0>-1 2>-1 5>-1 7>-1"},
		{"torus:8", "complement", "0>7 3>4 4>3 7>0"},
		{"mesh:3x5", "complement", "0>14 6>8 7>-1"}, // N odd: the middle PE is silent
		{"torus:4x4", "transpose", "1>4 4>1 6>9 7>13 0>-1 5>-1 15>-1"},
		{"torus:6x6", "transpose", "1>6 8>13 35>-1"}, // N = 36, not a power of two
		{"torus:8", "tornado", "0>3 3>6 5>0 7>2"},    // 3 hops on an 8-ring
		{"torus:7", "tornado", "0>3 5>1"},            // ⌈7/2⌉−1 = 3
		{"torus:8", "neighbor", "0>1 7>0"},
		{"torus:2x2", "tornado", "0>-1 1>-1 2>-1 3>-1"}, // k = 2: no move at all
		// twin 4x4x4: PE = card + 2·node; tornado moves 1 in x, y and z: PE 6 = Card0 of <3,0,0> goes to Card0 of <0,1,1>.
		{"twin:4x4x4/D", "tornado", "0>42 1>43 2>44 6>40"},
		// twin 8x8x4: tornado moves 3, 3, 1; PE 3 = Card1 of <1,0,0> goes to Card1 of <4,3,1>.
		{"twin:8x8x4/cbest", "tornado", "3>" + strconv.Itoa(1+2*(4+8*3+64*1))},
		// two PEs per switch: PE 1 = slot 1 of <0,0> goes to slot 1 of <1,1> = node 5.
		{"torus:4x4@2", "neighbor", "1>11 30>0"},
		{"mesh:3x5", "tornado", "0>7 14>3"}, // shifts 1 and 2: <2,4> goes to <0,1>, wrapping on the mesh too
	}
	for _, c := range cases {
		p := mustPattern(t, c.pattern, c.net)
		for pair := range strings.FieldsSeq(c.pairs) {
			a, b, _ := strings.Cut(pair, ">")
			src, _ := strconv.Atoi(a)
			want, _ := strconv.Atoi(b)
			if got := p.Dest(src, nil); got != want {
				t.Errorf("%s on %s: Dest(%d) = %d, want %d", c.pattern, c.net, src, got, want)
			}
		}
	}
}

// bitString is the b-bit binary string of v, most significant bit first.
func bitString(v, b int) string {
	s := strconv.FormatInt(int64(v), 2)
	return strings.Repeat("0", b-len(s)) + s
}

func fromBits(s string) int {
	v, err := strconv.ParseInt(s, 2, 64)
	if err != nil {
		panic(err)
	}
	return int(v)
}

// reference permutations, written independently of perm.go on binary strings and
// node coordinates.
func reference(name string, net *topology.Network) func(int) int {
	n := net.Terminals()
	b := len(strconv.FormatInt(int64(n-1), 2))
	switch name {
	case "bitrev":
		return func(s int) int {
			r := []byte(bitString(s, b))
			for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
				r[i], r[j] = r[j], r[i]
			}
			return fromBits(string(r))
		}
	case "shuffle":
		return func(s int) int { x := bitString(s, b); return fromBits(x[1:] + x[:1]) }
	case "butterfly":
		return func(s int) int {
			x := []byte(bitString(s, b))
			x[0], x[b-1] = x[b-1], x[0]
			return fromBits(string(x))
		}
	case "complement":
		return func(s int) int { return n - 1 - s }
	case "transpose":
		m := 1
		for m*m < n {
			m++
		}
		return func(s int) int { return (s%m)*m + s/m }
	}
	// tornado and neighbor, through the topology's own coordinate functions.
	bySwitch := map[int][]int{} // PEs of each switch, in order
	for pe := range n {
		sw := int(net.Attachment(pe).Switch)
		bySwitch[sw] = append(bySwitch[sw], pe)
	}
	return func(s int) int {
		sw := int(net.Attachment(s).Switch)
		node, card := net.Node(sw), net.Card(sw)
		slot := 0
		for i, pe := range bySwitch[sw] {
			if pe == s {
				slot = i
			}
		}
		c := net.Coord(node)
		for d := range c {
			k := net.Radix(d)
			if name == "tornado" {
				c[d] += (k+1)/2 - 1
			} else {
				c[d]++
			}
		}
		return bySwitch[net.Switch(net.NodeAt(c), card)][slot]
	}
}

func TestPermutationsMatchReference(t *testing.T) {
	nets := []string{"torus:8", "torus:16x16", "twin:4x4x4/D", "twin:4x4x2x4x4/cbest", "twin:4x4/x+,y+",
		"torus:4x8@2", "mesh:8x8", "mesh:3x5", "torus:6x6", "twin:3x5x2/cbest", "torus:2x2x2"}
	checked := 0
	defer func() {
		if checked != 62 { // 11 nets × 7 patterns, less 15 ruled out by PE counts that are not powers of two or squares
			t.Errorf("checked %d network-pattern pairs, want 62", checked)
		}
	}()
	for _, ns := range nets {
		net := topology.MustNew(ns)
		n := net.Terminals()
		for _, name := range []string{"bitrev", "shuffle", "butterfly", "complement", "transpose", "tornado", "neighbor"} {
			p, err := ParsePattern(name, net)
			if err != nil {
				continue // the error cases are TestPatternErrors'
			}
			checked++
			ref := reference(name, net)
			hit := make([]bool, n)
			silent := 0
			for src := range n {
				want := ref(src)
				got := p.Dest(src, nil)
				if want == src {
					want = -1
					silent++
					hit[src] = true // a fixed point maps to itself
				}
				if got != want {
					t.Fatalf("%s on %s: Dest(%d) = %d, want %d", name, ns, src, got, want)
				}
				if got >= 0 {
					if hit[got] {
						t.Fatalf("%s on %s: PE %d is the destination of two sources", name, ns, got)
					}
					hit[got] = true
				}
			}
			if Silent(p) != silent {
				t.Errorf("%s on %s: Silent = %d, but %d PEs are fixed points", name, ns, Silent(p), silent)
			}
		}
	}
}

func TestEveryPatternIsBuiltSomewhere(t *testing.T) {
	// twin:4x4x2x4x4 has 1024 = 2^10 = 32² PEs: every pattern applies.
	net := topology.MustNew("twin:4x4x2x4x4/cbest")
	for _, spec := range allSpecs {
		if _, err := ParsePattern(spec, net); err != nil {
			t.Errorf("%s on %s: %v", spec, net, err)
		}
	}
}

// allSpecs has one spec of every pattern, for tests and benchmarks.
var allSpecs = []string{"uniform", "zipf:1", "zipf:1.5/global", "bitrev", "shuffle", "butterfly",
	"complement", "transpose", "tornado", "neighbor", "hotspot:0.1", "hotspot:0.25@12.5%", "hotspot:0.2@3,100-131",
	"hotspot:0.25@12.5%/lowest", "hotspot:0.25@12.5%/random", "bitrev/43210", "shuffle/10234", "randperm", "randperm:7"}

func TestSilentCounts(t *testing.T) {
	cases := []struct {
		net, pattern string
		silent       int
	}{
		{"torus:8", "bitrev", 4},      // 000 010 101 111
		{"torus:16", "bitrev", 4},     // palindromes of 4 bits: 2^2
		{"torus:8x4", "bitrev", 8},    // 5 bits: 2^3
		{"torus:8", "shuffle", 2},     // 000 and 111
		{"torus:8", "butterfly", 4},   // top bit = bottom bit
		{"torus:8", "complement", 0},  // even N
		{"mesh:3x5", "complement", 1}, // odd N
		{"torus:4x4", "transpose", 4}, // the diagonal
		{"torus:2x2", "tornado", 4},
		{"torus:8", "uniform", 0},
		{"torus:8", "hotspot:1", 0},
	}
	for _, c := range cases {
		if got := Silent(mustPattern(t, c.pattern, c.net)); got != c.silent {
			t.Errorf("%s on %s: Silent = %d, want %d", c.pattern, c.net, got, c.silent)
		}
	}
}

func TestPatternNamesRoundTrip(t *testing.T) {
	net := topology.MustNew("torus:8x8") // 64 PEs
	cases := map[string]string{
		"uniform":                "uniform",
		" UNIFORM ":              "uniform",
		"zipf":                   "zipf:1",
		"zipf:1.0":               "zipf:1",
		"zipf: 0.5 / Offset":     "zipf:0.5",
		"zipf:2/global":          "zipf:2/global",
		"zipf:0":                 "zipf:0",
		"bitrev":                 "bitrev",
		"Neighbour":              "neighbor",
		"neighbor":               "neighbor",
		"tornado":                "tornado",
		"hotspot:0.1":            "hotspot:0.1",
		"hotspot:10%":            "hotspot:0.1",
		"hotspot:0.1@0":          "hotspot:0.1",
		"hotspot:0.1@5,3,4,10":   "hotspot:0.1@3-5,10",
		"hotspot:0.25@12.5%":     "hotspot:0.25@12.5%/spread",
		"hotspot:0.2@5%/Lowest ": "hotspot:0.2@5%/lowest",
		"hotspot:0.2@5%/random":  "hotspot:0.2@5%/random",
		"hotspot:0.2@5%/spread":  "hotspot:0.2@5%/spread",
		"bitrev/xy":              "bitrev",
		"bitrev/YX":              "bitrev/yx",
		"shuffle/yx":             "shuffle/yx",
		"complement / yx":        "complement/yx",
		"transpose/yx":           "transpose/yx",
		"butterfly/xy":           "butterfly",
		"bitrev/10":              "bitrev/yx",
		"bitrev/01":              "bitrev",
		"hotspot:1@ 63 , 0-1":    "hotspot:1@0-1,63",
		"hotspot:0@1":            "hotspot:0@1",
		"hotspot:0.07@7%":        "hotspot:0.07@7%/spread",
		"hotspot:0.3@0-63":       "hotspot:0.3@0-63",
		"hotspot:0.5@2,4,6,8,10": "hotspot:0.5@2,4,6,8,10",
	}
	for in, want := range cases {
		p, err := ParsePattern(in, net)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if p.Name() != want || fmt.Sprint(p) != want {
			t.Errorf("%q prints as %q / %q, want %q", in, p.Name(), fmt.Sprint(p), want)
		}
		q, err := ParsePattern(p.Name(), net)
		if err != nil || q.Name() != want {
			t.Errorf("%q does not round-trip: %v, %v", want, q, err)
		}
	}
}

func TestPatternErrors(t *testing.T) {
	cases := []struct{ net, spec, want string }{
		{"torus:8", "", "empty pattern"},
		{"torus:8", "foo", `unknown pattern "foo"; accepted: uniform, zipf`},
		{"torus:8", "uniform:3", `uniform takes no parameter; drop ":3"`},
		{"torus:8", "bitrev:", "bitrev takes no parameter"},
		{"mesh:3x5", "bitrev", "needs a power-of-two number of PEs; mesh:3x5 has 15"},
		{"torus:6x6", "shuffle", "power-of-two"},
		{"torus:6x6", "butterfly", "power-of-two"},
		{"twin:4x4x4/D", "transpose", "transpose needs a square number of PEs (m·m); twin:4x4x4/D has 128"},
		{"torus:8", "zipf:-1", `bad Zipf exponent "-1": accepted is a number from 0 to 10`},
		{"torus:8", "zipf:11", "bad Zipf exponent"},
		{"torus:8", "zipf:nan", "bad Zipf exponent"},
		{"torus:8", "zipf:inf", "bad Zipf exponent"},
		{"torus:8", "zipf:", "bad Zipf exponent"},
		{"torus:8", "zipf:1/local", `unknown Zipf ranking "local"`},
		{"torus:8", "hotspot", "hotspot needs the fraction of traffic"},
		{"torus:8", "hotspot:", "hotspot needs the fraction of traffic"},
		{"torus:8", "hotspot:1.5", `bad hot-spot traffic fraction "1.5": accepted is a number from 0 to 1`},
		{"torus:8", "hotspot:-0.1", "bad hot-spot traffic fraction"},
		{"torus:8", "hotspot:150%", "bad hot-spot traffic fraction"},
		{"torus:8", "hotspot:0.1@8", `bad hot PE "8": accepted are PE ids from 0 to 7`},
		{"torus:8", "hotspot:0.1@3-1", `bad hot PE "3-1"`},
		{"torus:8", "hotspot:0.1@-1", `bad hot PE "-1"`},
		{"torus:8", "hotspot:0.1@", `bad hot PE ""`},
		{"torus:8", "hotspot:0.1@1,2,1-3", "hot PE 1 is listed twice"},
		{"torus:8", "hotspot:0.1@0%", "bad share of hot PEs"},
		{"torus:8", "hotspot:0.1@101%", "bad share of hot PEs"},
		{"torus:8x8", "bitrev/zx", `bad numbering order "zx": write the 2 coordinates of torus:8x8 from the fastest-varying, each once, e.g. xy`},
		{"torus:8x8", "bitrev/xx", "bad numbering order"},
		{"torus:8x8", "bitrev/x", "bad numbering order"},
		{"torus:8x8", "bitrev/xyz", "bad numbering order"},
		{"torus:8x8", "tornado/yx", "tornado is not an id permutation"},
		{"torus:8x8", "uniform/yx", "uniform is not an id permutation"},
		{"torus:8x8", "bitrev/yx:2", "bitrev takes no parameter"},
		{"torus:2x2x2x2", "bitrev/yxzw", `bad numbering order "yxzw": write the 4 coordinates of torus:2x2x2x2 from the fastest-varying, each once, e.g. 0123`},
		{"ktree:4,2", "bitrev/yx", "has no node coordinates"},
	}
	for _, c := range cases {
		_, err := ParsePattern(c.spec, topology.MustNew(c.net))
		if err == nil {
			t.Errorf("%q on %s: accepted, want an error with %q", c.spec, c.net, c.want)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, fmt.Sprintf("traffic pattern %q: ", c.spec)) || !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
			t.Errorf("%q on %s: error %q, want one line with the spec and %q", c.spec, c.net, msg, c.want)
		}
	}
	if _, err := ParsePattern("uniform", nil); err == nil || !strings.Contains(err.Error(), "no network") {
		t.Errorf("nil network: error %v, want one about the missing network", err)
	}
}

// On a torus of clusters, tornado and neighbor move whole clusters along the meta
// torus: in TCT(2,5), PE 2n·m + i goes to cluster node i of meta node m + (2, 2) for
// tornado (⌈5/2⌉ − 1 = 2 per dimension) and m + (1, 1) for neighbor.
func TestClusterTorusCoordinatePatterns(t *testing.T) {
	net := topology.MustNew("tct:2,5")
	for name, shift := range map[string]int{"tornado": 2, "neighbor": 1} {
		p, err := ParsePattern(name, net)
		if err != nil {
			t.Fatal(err)
		}
		for src := 0; src < net.Terminals(); src++ {
			m, i := src/4, src%4
			u0, u1 := m%5, m/5
			want := 4*((u0+shift)%5+5*((u1+shift)%5)) + i
			if got := p.Dest(src, nil); got != want {
				t.Fatalf("%s on tct:2,5: PE %d -> %d, want %d", name, src, got, want)
			}
		}
	}
	if _, err := ParsePattern("tornado", topology.MustNew("toroid:3")); err == nil {
		t.Error("tornado on a lone toroid (no meta torus)")
	}
}

// The twisted-tori paper's patterns are existing ones ([TT] §6.2): HR is
// hotspot:0.25@12.5%/lowest (the hot region is the lowest 12.5 % of node ids
// x + 2a·y + 2a²·z: the two lowest rows of a 32×16 network, the two lowest Z planes of a
// 32×16×16 one), BC complement, BR bitrev and PS shuffle on log2(N)-bit ids.
func TestTwistedPaperPatterns(t *testing.T) {
	for spec, rows := range map[string]int{"twisted:rtt:16": 2, "twisted:pdtt:16": 2} {
		net := topology.MustNew(spec)
		hot := net.Terminals() / 8
		p, err := ParsePattern("hotspot:0.25@12.5%/lowest", net)
		if err != nil {
			t.Fatal(err)
		}
		if h := p.(*hotspot); len(h.hot) != hot || h.hot[0] != 0 || int(h.hot[hot-1]) != hot-1 {
			t.Fatalf("%s: %d hot PEs, want %d: 0..%d", spec, len(h.hot), hot, hot-1)
		}
		last := net.Coord(hot - 1)
		top := last[len(last)-1]
		if top != rows-1 || net.Coord(hot)[len(last)-1] != rows {
			t.Errorf("%s: the hot region ends at %v, want the first %d rows/planes", spec, last, rows)
		}
		bc, _ := ParsePattern("complement", net)
		if n := net.Terminals(); bc.Dest(5, nil) != (n-1)^5 {
			t.Errorf("%s: complement is not the bitwise complement", spec)
		}
	}
}

// A numbering order renumbers the nodes before the permutation: on the 32×16 RT
// bitrev/yx takes PE x + 32y to the id y + 16x, reverses its 9 bits and reads the
// result back as y' + 16x' (PE 2 = (2, 0): id 32 = 000100000, reversed 000001000 = 8 =
// (0, 8): PE 256). In 3D zyx numbers z + K_z·(y + K_y·x); on a twin torus the card
// stays the lowest bit. Complement is coordinate-wise in every order.
func TestNumberingOrders(t *testing.T) {
	net := topology.MustNew("twisted:rt:16")
	p := mustPattern(t, "bitrev/yx", "twisted:rt:16")
	if d := p.Dest(2, nil); d != 256 {
		t.Errorf("bitrev/yx: PE 2 -> %d, want 256", d)
	}
	rev := func(v, b int) int {
		r := 0
		for range b {
			r, v = r<<1|v&1, v>>1
		}
		return r
	}
	fixed := 0
	for src := range net.Terminals() {
		x, y := src%32, src/32
		id := rev(y+16*x, 9)
		want := id/16 + 32*(id%16)
		if want == src {
			want, fixed = -1, fixed+1
		}
		if got := p.Dest(src, nil); got != want {
			t.Fatalf("bitrev/yx: PE %d -> %d, want %d", src, got, want)
		}
	}
	if Silent(p) != fixed || fixed != 32 { // 9-bit palindromes: 2^5
		t.Errorf("bitrev/yx: Silent %d, %d fixed points, want 32", Silent(p), fixed)
	}
	// 3D: PT 8×4×4, shuffle of z + 4y + 16x (7 bits).
	p3 := mustPattern(t, "shuffle/zyx", "twisted:pt:4")
	for src := range 128 {
		x, y, z := src%8, src/8%4, src/32
		id := z + 4*y + 16*x
		id = (id<<1 | id>>6) & 127
		want := id/16 + 8*(id/4%4) + 32*(id%4)
		if want == src {
			want = -1
		}
		if got := p3.Dest(src, nil); got != want {
			t.Fatalf("shuffle/zyx: PE %d -> %d, want %d", src, got, want)
		}
	}
	// Twin torus 4x2 (16 PEs, card + 2·node): transpose/yx of card + 2·(y + 2x).
	pt := mustPattern(t, "transpose/yx", "twin:4x2")
	for src := range 16 {
		card, node := src%2, src/2
		x, y := node%4, node/4
		id := card + 2*(y+2*x)
		id = id%4*4 + id/4
		c2, n2 := id%2, id/2
		want := c2 + 2*(n2/2+4*(n2%2))
		if want == src {
			want = -1
		}
		if got := pt.Dest(src, nil); got != want {
			t.Fatalf("transpose/yx on twin:4x2: PE %d -> %d, want %d", src, got, want)
		}
	}
	// In 2D with power-of-two sides the order yx rotates the id's bits, which perfect
	// shuffle (itself a rotation) commutes with: the same permutation; bit-reversal not.
	same := func(a, b Pattern, n int) bool {
		for src := range n {
			if a.Dest(src, nil) != b.Dest(src, nil) {
				return false
			}
		}
		return true
	}
	if !same(mustPattern(t, "shuffle", "twisted:rt:16"), mustPattern(t, "shuffle/yx", "twisted:rt:16"), 512) ||
		same(p, mustPattern(t, "bitrev", "twisted:rt:16"), 512) ||
		same(mustPattern(t, "shuffle", "twisted:pt:4"), p3, 128) {
		t.Error("shuffle/yx should be shuffle on the RT, bitrev/yx not bitrev, shuffle/zyx not shuffle on the PT")
	}
	for _, spec := range []string{"twisted:rtt:8", "torus:4x8", "twisted:pdtt:4"} {
		order := "yx"
		if strings.Contains(spec, "pdtt") {
			order = "zyx"
		}
		a, b := mustPattern(t, "complement", spec), mustPattern(t, "complement/"+order, spec)
		for src := range topology.MustNew(spec).Terminals() {
			if a.Dest(src, nil) != b.Dest(src, nil) {
				t.Fatalf("%s: complement/%s differs from complement at PE %d", spec, order, src)
			}
		}
	}
}
