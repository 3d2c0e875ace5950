package routing

import (
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

func TestParseTie(t *testing.T) {
	for in, want := range map[string]Tie{"plus": TiePlus, "+": TiePlus, " Minus ": TieMinus, "-": TieMinus, "MIRROR": TieMirror, "random": TieRandom, "": TieDefault} {
		got, err := ParseTie(in)
		if err != nil || got != want {
			t.Errorf("ParseTie(%q) = %v, %v; want %v", in, got, err, want)
		}
		if back, err := ParseTie(got.String()); err != nil || back != got {
			t.Errorf("%v does not read back from %q: %v, %v", got, got.String(), back, err)
		}
	}
	_, err := ParseTie("left")
	if err == nil || !strings.Contains(err.Error(), "plus, minus, mirror and random") {
		t.Errorf("ParseTie(left): %v, want the accepted rules", err)
	}
	if _, err := New("dor", topology.MustNew("torus:4x4"), SchemeVC, Tie(5)); err == nil || !strings.Contains(err.Error(), "mirror") {
		t.Errorf("New with tie 5: %v, want a refusal", err)
	}
}

// The routings' own rules and how a rule resolves: TSDOR's own is mirror, DOR's and
// DORT's plus; without twin cards mirror is plus.
func TestTieDefaults(t *testing.T) {
	twin, torus := topology.MustNew("twin:4x4x2x2x2/cbest"), topology.MustNew("torus:8x8x4")
	for _, c := range []struct {
		name string
		net  *topology.Network
		tie  Tie
		want Tie
	}{
		{"tsdor", twin, TieDefault, TieMirror}, {"tsdor", twin, TiePlus, TiePlus}, {"tsdor", twin, TieMinus, TieMinus},
		{"dort", twin, TieDefault, TiePlus}, {"dort", twin, TieMirror, TieMirror}, {"adaptive", twin, TieDefault, TiePlus},
		{"dor", torus, TieDefault, TiePlus}, {"dor", torus, TieMirror, TiePlus}, {"dor", torus, TieMinus, TieMinus},
	} {
		if got := ResolveTie(c.name, c.net, c.tie); got != c.want {
			t.Errorf("%s on %s, tie %q: resolves to %q, want %q", c.name, c.net, c.tie, got, c.want)
		}
	}
	if got := NewTSDOR(twin, TieDefault).Tie(); got != TieMirror {
		t.Errorf("NewTSDOR with TieDefault applies %q, want mirror", got)
	}
	if got := NewDOR(twin, TieDefault).Tie(); got != TiePlus {
		t.Errorf("NewDOR (DORT) with TieDefault applies %q, want plus", got)
	}
	if got := NewDOR(torus, TieMirror).Tie(); got != TiePlus {
		t.Errorf("NewDOR on a torus with mirror applies %q, want plus", got)
	}
}

// tieDirs walks the route from src to dst and returns the direction of its first
// external hop in dimension d (0 when it has none), reading the port's own wiring.
func tieDirs(net *topology.Network, r Pather, src, dst, d int) int {
	for _, st := range r.Path(src, dst, nil) {
		if p := net.Port(st.Switch, st.Port); p.Kind == topology.External && int(p.Dim) == d {
			return int(p.Dir)
		}
	}
	return 0
}

// On the 256-PE 5DT (CBest: Card0 d0±, d1±, d2+; Card1 d2-, d3±, d4±; d2 split,
// radix 2), for every pair of PEs whose nodes differ only in one dimension, by half
// its ring: mirror sends PE0's packets + and PE1's - in the dimensions on one card
// (radix 4 and radix 2), plus sends both +, minus both -; in the split dimension
// TSDOR takes the port on the source's card and DORT goes + under plus and mirror.
func TestMirrorTies(t *testing.T) {
	net := topology.MustNew("twin:4x4x2x2x2/cbest")
	split := net.Config().Split(net.Dims())
	if len(split) != 1 || split[0] != 2 || net.Config().Card(2, +1) != 0 {
		t.Fatalf("%s: split %v, d2+ on card %d; the test assumes d2 split with d2+ on Card0", net, split, net.Config().Card(2, +1))
	}
	checked := 0
	for _, tie := range []Tie{TiePlus, TieMinus, TieMirror} {
		routes := map[string]Pather{"tsdor": NewTSDOR(net, tie), "dort": NewDOR(net, tie)}
		for name, r := range routes {
			for src := 0; src < net.Terminals(); src++ {
				card := net.Card(int(net.Attachment(src).Switch))
				sn := net.Node(int(net.Attachment(src).Switch))
				for dst := 0; dst < net.Terminals(); dst++ {
					dn := net.Node(int(net.Attachment(dst).Switch))
					d, n := -1, 0
					for i := 0; i < net.Dims(); i++ {
						if net.Digit(sn, i) != net.Digit(dn, i) {
							d, n = i, n+1
						}
					}
					if n != 1 {
						continue
					}
					k := net.Radix(d)
					if k%2 != 0 || (net.Digit(dn, d)-net.Digit(sn, d)+k)%k != k/2 {
						continue
					}
					var want int
					switch {
					case d == 2 && name == "tsdor": // the port on the source's card
						want = +1
						if card == 1 {
							want = -1
						}
					case d == 2 && tie == TieMirror: // DORT: + in the split dimension
						want = +1
					case tie == TieMirror:
						want = 1 - 2*card
					default:
						want = int(tie)
					}
					if got := tieDirs(net, r, src, dst, d); got != want {
						t.Fatalf("%s, tie %s: PE %d (card %d) -> PE %d, a tie in d%d: goes %+d, want %+d", name, tie, src, card, dst, d, got, want)
					}
					checked++
				}
			}
		}
	}
	// Per tie rule and routing: 256 sources, each with ties in d0, d1 (radix 4) and d2,
	// d3, d4 (radix 2), to both PEs of each tied node.
	if want := 3 * 2 * 256 * 5 * 2; checked != want {
		t.Errorf("%d tied pairs checked, want %d", checked, want)
	}
}

// Without twin cards mirror is plus: every DOR route on a torus with even radices is
// the same under both.
func TestMirrorOnTorusIsPlus(t *testing.T) {
	net := topology.MustNew("torus:4x2x6")
	plus, mirror := NewDOR(net, TiePlus), NewDOR(net, TieMirror)
	for src := 0; src < net.Terminals(); src++ {
		for dst := 0; dst < net.Terminals(); dst++ {
			a, b := plus.Path(src, dst, nil), mirror.Path(src, dst, nil)
			if len(a) != len(b) {
				t.Fatalf("%d -> %d: plus %v, mirror %v", src, dst, a, b)
			}
			for i := range a {
				if a[i] != b[i] {
					t.Fatalf("%d -> %d: plus %v, mirror %v", src, dst, a, b)
				}
			}
		}
	}
}

// Mirror keeps the per-hop cost: no allocation in TSDOR's or DORT's decisions, and
// adaptive routing with a mirror escape says its routes depend on the source.
func TestMirrorHopCost(t *testing.T) {
	net := topology.MustNew("twin:4x4x2x2x2/cbest")
	det := NewDeterministic(net, SchemeVC, TieMirror)
	ts := NewTSDOR(net, TieMirror)
	to := det.Dest(1, 200)
	g := net.PortID(3, 0)
	if a := testing.AllocsPerRun(1000, func() { det.NextAt(3, g, to); ts.Next(3, 1, 200) }); a != 0 {
		t.Errorf("%v allocations per decision", a)
	}
	ad, err := NewDuato(net, SchemeVC, TieMirror, DefaultDuatoOptions())
	if err != nil {
		t.Fatal(err)
	}
	if ad.SourceIndependent() {
		t.Error("adaptive routing with a mirror escape on a twin torus claims source-independent routes")
	}
	if ad, _ := NewDuato(topology.MustNew("torus:4x4"), SchemeVC, TieMirror, DefaultDuatoOptions()); !ad.SourceIndependent() {
		t.Error("adaptive routing on a torus, where mirror is plus, claims source-dependent routes")
	}
}

// Under TieRandom a packet's ties go the way its salt's bit for the dimension says:
// over the 4 salts of two bits, each tie of an 8x8 torus goes + twice and - twice,
// the two dimensions independently; hops that are not ties ignore the salt; without
// a salt (Dest) ties go +.
func TestTieRandom(t *testing.T) {
	net := topology.MustNew("torus:8x8")
	r := NewDeterministic(net, SchemeVC, TieRandom)
	if !r.Salted() || r.RouteCacheEntries() != 0 {
		t.Fatalf("random ties: Salted %v, route cache entries %d; want salted, no cache", r.Salted(), r.RouteCacheEntries())
	}
	dor := r.DOR()
	pe := func(x, y int) int { return x + 8*y }
	dirs := map[[2]int8]int{}
	for salt := uint32(0); salt < 4; salt++ {
		var got [2]int8
		to := dor.DestSalted(pe(0, 0), pe(4, 4), salt)
		s := int(net.Attachment(pe(0, 0)).Switch)
		for d := 0; d < 2; d++ { // the first hop of each dimension
			h := dor.NextTo(s, to)
			if int(h.Dim) != d {
				t.Fatalf("salt %d: hop in dimension %d, want %d", salt, h.Dim, d)
			}
			got[d] = h.Dir
			for i := 0; i < 4; i++ { // four hops along the ring
				s = int(net.Port(s, int(dor.NextTo(s, to).Port)).Peer)
			}
		}
		if want := [2]int8{1 - 2*int8(salt&1), 1 - 2*int8(salt>>1&1)}; got != want {
			t.Errorf("salt %d: directions %v, want %v", salt, got, want)
		}
		dirs[got]++
		if h := dor.NextTo(int(net.Attachment(pe(0, 0)).Switch), dor.DestSalted(pe(0, 0), pe(3, 0), salt)); h.Dir != +1 {
			t.Errorf("salt %d: offset 3 goes %+d, want + (no tie)", salt, h.Dir)
		}
	}
	if len(dirs) != 4 {
		t.Errorf("directions over four salts %v, want all four combinations", dirs)
	}
	if h := dor.NextTo(int(net.Attachment(pe(0, 0)).Switch), dor.Dest(pe(0, 0), pe(4, 0))); h.Dir != +1 {
		t.Errorf("unsalted tie goes %+d, want +", h.Dir)
	}
}
