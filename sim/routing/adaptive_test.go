package routing

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

// pe is the PE of node coord on card (paper (b)'s <o_0 ... | o_pe>).
func pe(net *topology.Network, card int, coord ...int) int {
	s := net.Switch(net.NodeAt(coord), card)
	for t := 0; t < net.Terminals(); t++ {
		if int(net.Attachment(t).Switch) == s {
			return t
		}
	}
	panic("no PE")
}

// where names a switch as paper (b) does: <x,y,z|card>.
func where(net *topology.Network, s int) string {
	var parts []string
	for _, c := range net.Coord(net.Node(s)) {
		parts = append(parts, fmt.Sprint(c))
	}
	return fmt.Sprintf("<%s|%d>", strings.Join(parts, ","), net.Card(s))
}

// follow walks a packet from PE src to PE dst through the named ports ("x+", "int",
// ...), requiring each to be offered as an adaptive candidate (as the escape when the
// name ends in "!"), then follows the first adaptive candidate (else the escape) to the
// destination. It returns the hops and the switches reached after each hop.
func follow(t *testing.T, rt Func, src, dst int, ports ...string) (hops int, trail []string) {
	t.Helper()
	net := rt.(interface{ Network() *topology.Network }).Network()
	at := net.Attachment(src)
	s, in, vc := int(at.Switch), int(at.Port), 0
	escaped := false
	for step := 0; ; step++ {
		cands := rt.Route(s, in, vc, Head{Src: int32(src), Dst: int32(dst), Escaped: escaped}, nil)
		var pick *Candidate
		if step < len(ports) {
			want, esc := strings.CutSuffix(ports[step], "!")
			for i, c := range cands {
				if net.PortName(s, int(c.Port)) == want && c.Escape == esc {
					pick = &cands[i]
					break
				}
			}
			if pick == nil {
				t.Fatalf("%s at %s (hop %d) for PE %d: %s is not offered (candidates %s)", rt.Name(), where(net, s), step+1, dst, ports[step], names(net, s, cands))
			}
		} else {
			pick = &cands[0]
		}
		port := net.Port(s, int(pick.Port))
		if port.Kind == topology.Terminal {
			if int(port.Terminal) != dst {
				t.Fatalf("delivered to PE %d, not %d", port.Terminal, dst)
			}
			return hops, trail
		}
		escaped = escaped || pick.Escape
		s, in, vc = int(port.Peer), int(port.PeerPort), int(pick.VC)
		hops++
		trail = append(trail, where(net, s))
		if hops > 4*net.Switches() {
			t.Fatal("no arrival")
		}
	}
}

func names(net *topology.Network, s int, cands []Candidate) string {
	var out []string
	for _, c := range cands {
		n := fmt.Sprintf("%s/vc%d", net.PortName(s, int(c.Port)), c.VC)
		if c.Escape {
			n += "!"
		}
		out = append(out, n)
	}
	return strings.Join(out, " ")
}

func mustDuato(t *testing.T, spec string, scheme Scheme) (*topology.Network, *Duato) {
	t.Helper()
	net := topology.MustNew(spec)
	r, err := NewDuato(net, scheme, TiePlus, DefaultDuatoOptions())
	if err != nil {
		t.Fatal(err)
	}
	return net, r
}

// naive is the nD-torus adaptive routing function applied to a twin torus, which
// paper (b) §3 shows to fail: every minimal port of the node, crossing the internal
// link to reach one on the other card.
type naive struct{ *Duato }

func (r naive) Route(s, in, inVC int, h Head, out []Candidate) []Candidate {
	net := r.net
	at := net.Attachment(int(h.Dst))
	if int(at.Switch) == s {
		return append(out, Candidate{Port: at.Port})
	}
	cur, dn := net.Node(s), net.Node(int(at.Switch))
	other := false
	for d := 0; d < net.Dims(); d++ {
		c, tt := net.Digit(cur, d), net.Digit(dn, d)
		if c == tt {
			continue
		}
		pos, neg := minimalDirs(c, tt, net.Radix(d), false)
		for _, dir := range []int{+1, -1} {
			if (dir > 0 && pos) || (dir < 0 && neg) {
				if p := net.DimPort(s, d, dir); p >= 0 {
					out = append(out, Candidate{Port: int16(p), VC: 2})
				} else {
					other = true
				}
			}
		}
	}
	if other || cur == dn {
		out = append(out, Candidate{Port: int16(net.InternalPort(s)), VC: 4})
	}
	return out
}

// R1: the path lengths of paper (b)'s Examples 3.3-3.5 on the 8x8x8 3DT torus in its
// configuration (Card0: X+, X-, Y-), and paper (a)'s Fig. 4 tie on a ring of 2.
func TestPaperExamples(t *testing.T) {
	net, r := mustDuato(t, "twin:8x8x8/x+,x-,y-", SchemeVC)
	nv := naive{r}

	// Ex. 3.3: PE0 of <0,0,0> to node <2,0,2>. The naive function allows the order
	// Z+ X+ Z+ X+: 8 hops to PE0 of <2,0,2>. Algorithm 1 offers the internal link only
	// when DORT takes it, so the first hop is X+ and the packet needs 5 hops (to PE1).
	src, dst0, dst1 := pe(net, 0, 0, 0, 0), pe(net, 0, 2, 0, 2), pe(net, 1, 2, 0, 2)
	if h, trail := follow(t, nv, src, dst0, "int", "z+", "int", "x+", "int", "z+", "int", "x+"); h != 8 {
		t.Errorf("Ex. 3.3 long path: %d hops %v, the paper says 8", h, trail)
	}
	if cands := r.Route(net.Switch(0, 0), net.TerminalPort(src), 0, Head{Dst: int32(dst0)}, nil); slices.ContainsFunc(cands, func(c Candidate) bool {
		return !c.Escape && int(c.Port) == net.InternalPort(net.Switch(0, 0))
	}) {
		t.Errorf("Ex. 3.3: Algorithm 1 offers the internal link at <0,0,0|0>: %s", names(net, 0, cands))
	}
	if h, trail := follow(t, r, src, dst1, "x+", "x+", "int", "z+", "z+"); h != 5 {
		t.Errorf("Ex. 3.3 short path: %d hops %v, the paper says 5", h, trail)
	}
	if lo, hi := pathRange(t, r, src, dst1); lo != 5 || hi != 5 {
		t.Errorf("Ex. 3.3 under Algorithm 1: every adaptive path should take 5 hops, they take %d to %d", lo, hi)
	}

	// Ex. 3.4: PE1 of <0,0,0> to <1,0,1>. DORT (X+ then Z+): 4 hops to PE1, 5 to PE0;
	// adaptive, Z+ first: 3 to PE0, 4 to PE1. Algorithm 1 offers both first hops
	// (the internal link because DORT takes it).
	src = pe(net, 1, 0, 0, 0)
	dst0, dst1 = pe(net, 0, 1, 0, 1), pe(net, 1, 1, 0, 1)
	det := NewDeterministic(net, SchemeVC, TiePlus)
	for _, c := range []struct {
		rt   Func
		dst  int
		want int
		path []string
	}{
		{det, dst1, 4, nil}, {det, dst0, 5, nil},
		{r, dst1, 4, []string{"int", "x+", "int", "z+"}},
		{r, dst0, 3, []string{"z+", "int", "x+"}},
		{r, dst1, 4, []string{"z+", "int", "x+", "int"}},
	} {
		if h, trail := follow(t, c.rt, src, c.dst, c.path...); h != c.want {
			t.Errorf("Ex. 3.4 %s %v: %d hops %v, the paper says %d", c.rt.Name(), c.path, h, trail, c.want)
		}
	}

	// Ex. 3.5: PE0 of <0,1,0> to <1,0,0>: Y- then X+ takes 3 hops to PE0 (4 to PE1),
	// X+ then Y- takes 2 to PE1 (3 to PE0). To <1,7,0> both orders take 4 hops to
	// PE1; only Y-, Y-, X+ is longer.
	src = pe(net, 0, 0, 1, 0)
	for _, c := range []struct {
		dst  int
		want int
		path []string
	}{
		{pe(net, 0, 1, 0, 0), 3, []string{"y-", "int", "x+"}},
		{pe(net, 1, 1, 0, 0), 4, []string{"y-", "int", "x+", "int"}},
		{pe(net, 1, 1, 0, 0), 2, []string{"x+", "y-"}},
		{pe(net, 0, 1, 0, 0), 3, []string{"x+", "y-", "int"}},
		{pe(net, 1, 1, 7, 0), 4, []string{"x+", "y-", "int", "y-"}},
		{pe(net, 1, 1, 7, 0), 4, []string{"y-", "int", "x+", "y-"}},
		{pe(net, 1, 1, 7, 0), 6, []string{"y-", "int", "y-", "int", "x+", "int"}},
	} {
		if h, trail := follow(t, r, src, c.dst, c.path...); h != c.want {
			t.Errorf("Ex. 3.5 %v: %d hops %v, want %d", c.path, h, trail, c.want)
		}
	}

	// Paper (a) Fig. 4: a ring of 2 in Y (a tie at every distance), PE0 continuing in
	// Z. Algorithm 1 offers Y- (the tie's port on Card0), which lands on Card1 of the
	// other node in 1 hop; DORT, ties to +, needs internal link, Y+, internal link: 3.
	net2, r2 := mustDuato(t, "twin:4x2x4/x+,x-,y-", SchemeVC)
	src, dst := pe(net2, 0, 0, 0, 0), pe(net2, 1, 0, 1, 1)
	_, trail := follow(t, r2, src, dst, "y-")
	if trail[0] != "<0,1,0|1>" {
		t.Errorf("tie: Y- reaches %s, want <0,1,0|1> in 1 hop", trail[0])
	}
	det2 := NewDeterministic(net2, SchemeVC, TiePlus)
	if h, trail := follow(t, det2, src, dst); h != 4 || !slices.Equal(trail[:3], []string{"<0,0,0|1>", "<0,1,0|0>", "<0,1,0|1>"}) {
		t.Errorf("tie: DORT takes %d hops %v, want Card1 of <0,1,0> after 3", h, trail)
	}
}

// pathRange is the shortest and longest route over every adaptive choice (no escape).
func pathRange(t *testing.T, rt Func, src, dst int) (lo, hi int) {
	net := rt.(interface{ Network() *topology.Network }).Network()
	lo = -1
	var walk func(s, in, vc, hops int)
	walk = func(s, in, vc, hops int) {
		if hops > 4*net.Switches() {
			t.Fatalf("%s: a route from PE %d to PE %d loops", rt.Name(), src, dst)
		}
		for _, c := range rt.Route(s, in, vc, Head{Dst: int32(dst)}, nil) {
			if c.Escape {
				continue
			}
			port := net.Port(s, int(c.Port))
			if port.Kind == topology.Terminal {
				if lo < 0 || hops < lo {
					lo = hops
				}
				hi = max(hi, hops)
				continue
			}
			walk(int(port.Peer), int(port.PeerPort), int(c.VC), hops+1)
		}
	}
	at := net.Attachment(src)
	walk(int(at.Switch), int(at.Port), 0, 0)
	return lo, hi
}

// algorithm1 is paper (b)'s Algorithm 1 as printed ([AR] §3), for a configuration
// with d_mid- on Card0: the ports it offers adaptive VCs of, by name, and whether
// it adds the internal link.
func algorithm1(net *topology.Network, s, dst int, pdetInternal bool) []string {
	n := net.Dims()
	mid := (n - 1) / 2
	cur, dn := net.Node(s), net.Node(int(net.Attachment(dst).Switch))
	ring := func(d int) string { // NONE, POS, NEG, TIE
		c, t, k := net.Digit(cur, d), net.Digit(dn, d), net.Radix(d)
		delta := ((t-c)%k + k) % k
		switch {
		case delta == 0:
			return "NONE"
		case 2*delta < k:
			return "POS"
		case 2*delta > k:
			return "NEG"
		}
		return "TIE"
	}
	var ps []string
	if net.Card(s) == 0 {
		for dim := 0; dim <= mid; dim++ {
			dir := ring(dim)
			if dir == "NEG" || dir == "TIE" {
				ps = append(ps, topology.DimPortName(dim, -1, n))
			}
			if dim != mid && (dir == "POS" || dir == "TIE") {
				ps = append(ps, topology.DimPortName(dim, +1, n))
			}
		}
	} else {
		for dim := mid; dim < n; dim++ {
			dir := ring(dim)
			if dir == "POS" || dir == "TIE" {
				ps = append(ps, topology.DimPortName(dim, +1, n))
			}
			if dim != mid && (dir == "NEG" || dir == "TIE") {
				ps = append(ps, topology.DimPortName(dim, -1, n))
			}
		}
	}
	if pdetInternal {
		ps = append(ps, "int")
	}
	slices.Sort(ps)
	return ps
}

// R3 and Algorithm 1 exactly: at every switch, for every destination, the adaptive
// candidates are Algorithm 1's (its printed form, on configurations with d_mid- on
// Card0), each with the adaptive VCs of its port; the internal link's adaptive VCs come
// only when DORT's output is the internal link; of the split dimension only the port
// on the current card; the escape is DORT last; an escaped packet gets only the escape.
func TestAlgorithm1(t *testing.T) {
	for _, spec := range []string{"twin:4x4x4/x+,x-,y-", "twin:4x2x4/x+,x-,y-", "twin:8x8x8/x+,x-,y-", "twin:3x5x2/x+,x-,y-",
		"twin:4x4x2x4x2/d0+,d0-,d1+,d1-,d2-", "twin:2x3x4x5x2/d0+,d0-,d1+,d1-,d2-"} {
		for _, scheme := range []Scheme{SchemeVC, SchemeBubble} {
			net, r := mustDuato(t, spec, scheme)
			det := NewDeterministic(net, scheme, TiePlus)
			ext, in := r.VCs(topology.External), r.VCs(topology.Internal)
			if scheme == SchemeVC && (ext != 4 || in != 8) {
				t.Fatalf("%s: %d external and %d internal VCs, paper (b) Table 3 says 4 and 8", spec, ext, in)
			}
			for s := 0; s < net.Switches(); s++ {
				for dst := 0; dst < net.Terminals(); dst++ {
					if int(net.Attachment(dst).Switch) == s {
						continue
					}
					cands := r.Route(s, net.TerminalPort(dst)%net.Ports(s), 0, Head{Dst: int32(dst)}, nil)
					pdet := det.NextEntering(s, 0, dst)
					last := cands[len(cands)-1]
					if !last.Escape || last.Port != pdet.Port || last.VC != pdet.VC || last.Bubble != pdet.Bubble {
						t.Fatalf("%s at s%d for PE %d: escape %+v, DORT says %+v", spec, s, dst, last, pdet)
					}
					pdetInt := net.Port(s, int(pdet.Port)).Kind == topology.Internal
					var got []string
					perPort := map[string][]int8{}
					for _, c := range cands[:len(cands)-1] {
						name := net.PortName(s, int(c.Port))
						if c.Escape || c.Bubble {
							t.Fatalf("%s: adaptive candidate %+v marked escape or bubble", spec, c)
						}
						if len(perPort[name]) == 0 {
							got = append(got, name)
						}
						perPort[name] = append(perPort[name], c.VC)
					}
					slices.Sort(got)
					if want := algorithm1(net, s, dst, pdetInt); !slices.Equal(got, want) {
						t.Fatalf("%s at %s for PE %d: adaptive ports %v, Algorithm 1 gives %v", spec, where(net, s), dst, got, want)
					}
					for name, vcs := range perPort {
						kind, first, n := topology.External, r.escVCs[topology.External], 2
						if name == "int" {
							kind, first, n = topology.Internal, r.escVCs[topology.Internal], 4
						}
						if len(vcs) != n || vcs[0] != first || int(vcs[n-1]) != r.VCs(kind)-1 {
							t.Fatalf("%s: port %s offers VCs %v", spec, name, vcs)
						}
					}
					esc := r.Route(s, 0, 0, Head{Dst: int32(dst), Escaped: true}, nil)
					if len(esc) != 1 || !esc[0].Escape || esc[0].Port != pdet.Port {
						t.Fatalf("%s: an escaped packet is offered %s", spec, names(net, s, esc))
					}
				}
			}
		}
	}
}

// On every configuration (the letters, CBest with d_mid+ on Card0), adaptive ports are
// exactly the minimal ports on the current card, and the internal link's adaptive VCs
// come exactly when DORT's output is the internal link.
func TestAdaptiveOnCard(t *testing.T) {
	specs := []string{"torus:4x4", "torus:5x3x4", "mesh:4x3", "torus:2x3", "twin:4x4x4", "twin:4x4x2x4x4", "twin:3x3x3/A", "twin:4x4x4/G", "twin:3x4/x+,y-"}
	for _, spec := range specs {
		net, r := mustDuato(t, spec, SchemeBubble)
		for s := 0; s < net.Switches(); s++ {
			for dst := 0; dst < net.Terminals(); dst++ {
				dsw := int(net.Attachment(dst).Switch)
				if dsw == s {
					continue
				}
				cur, dn := net.Node(s), net.Node(dsw)
				want := map[int16]bool{}
				for d := 0; d < net.Dims(); d++ {
					for _, dir := range []int{+1, -1} {
						p := net.DimPort(s, d, dir)
						if p < 0 || net.Digit(cur, d) == net.Digit(dn, d) {
							continue
						}
						// Minimal: one step that way brings the digit closer by one.
						k, c, tt := net.Radix(d), net.Digit(cur, d), net.Digit(dn, d)
						if ringDist(c+dir, tt, k, net.IsMesh()) == ringDist(c, tt, k, net.IsMesh())-1 && (!net.IsMesh() || c+dir >= 0 && c+dir < k) {
							want[int16(p)] = true
						}
					}
				}
				pdet := r.esc.NextEntering(s, 0, dst)
				if net.IsTwin() && int(pdet.Port) == net.InternalPort(s) {
					want[pdet.Port] = true
				}
				got := map[int16]bool{}
				for _, c := range r.Route(s, net.TerminalPort(dst)%net.Ports(s), 0, Head{Dst: int32(dst)}, nil) {
					if !c.Escape {
						got[c.Port] = true
					}
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%s at s%d for PE %d: adaptive ports %v, want %v", spec, s, dst, got, want)
				}
			}
		}
	}
}

// The routing name's options.
func TestDuatoOptions(t *testing.T) {
	for _, c := range []struct {
		arg  string
		want DuatoOptions
		name string
		err  string
	}{
		{"", DefaultDuatoOptions(), "adaptive/vc", ""},
		{"sticky", DefaultDuatoOptions(), "adaptive/vc", ""},
		{"return", DuatoOptions{2, 4, true}, "adaptive:return/vc", ""},
		{"vcs=1", DuatoOptions{1, 2, false}, "adaptive:vcs=1/2/vc", ""},
		{" VCS=3/3 , return", DuatoOptions{3, 3, true}, "adaptive:return,vcs=3/3/vc", ""},
		{"vcs=0", DuatoOptions{}, "", "accepted are return, sticky and vcs"},
		{"vcs=17/2", DuatoOptions{}, "", "1 to 16"},
		{"fast", DuatoOptions{}, "", `option "fast"`},
	} {
		o, err := ParseDuatoOptions(c.arg)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.arg, err, c.err)
			}
			continue
		}
		if err != nil || o != c.want {
			t.Errorf("%q: %+v %v, want %+v", c.arg, o, err, c.want)
			continue
		}
		rt, err := New("adaptive:"+c.arg, topology.MustNew("torus:4x4"), SchemeVC, TiePlus)
		if err != nil || rt.Name() != c.name {
			t.Errorf("%q: %v %v, want %s", c.arg, rt, err, c.name)
		}
	}
}

// "adaptive" is Duato with the DOR/DORT escape under vc and bubble on grids, and the
// table routing with the up*/down* escape under escape (any network).
func TestAdaptiveResolution(t *testing.T) {
	torus := topology.MustNew("torus:4x4")
	for _, c := range []struct {
		net    *topology.Network
		scheme Scheme
		name   string
		err    string
	}{
		{torus, SchemeVC, "adaptive/vc", ""},
		{torus, SchemeBubble, "adaptive/bubble", ""},
		{torus, SchemeEscape, "adaptive+escape", ""},
		{torus, SchemeNone, "adaptive", ""},
		{topology.MustNew("twin:4x4x4"), SchemeBubble, "adaptive/bubble", ""},
		{randomNetwork(t, 3, 8), SchemeEscape, "adaptive+escape", ""},
		{randomNetwork(t, 3, 8), SchemeVC, "", "use deadlock scheme escape"},
	} {
		rt, err := New("adaptive", c.net, c.scheme, TiePlus)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s %s: %v, want an error with %q", c.net, c.scheme, err, c.err)
			}
			continue
		}
		if err != nil || rt.Name() != c.name {
			t.Errorf("%s %s: %v %v, want %s", c.net, c.scheme, rt, err, c.name)
		}
	}
	def, _, _ := LookupRouting("adaptive")
	if def.DefaultScheme(torus) != SchemeVC || def.DefaultScheme(randomNetwork(t, 3, 8)) != SchemeEscape {
		t.Error("adaptive's default scheme: vc on grids, escape elsewhere")
	}
	if _, err := New("adaptive:return", torus, SchemeEscape, TiePlus); err == nil {
		t.Error("options need a DOR escape")
	}
}
