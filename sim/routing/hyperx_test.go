package routing

import (
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

// walk follows the first candidate from PE src to PE dst with a salt and returns the
// switches visited (source first) and the VCs of the hops.
func walk(t *testing.T, net *topology.Network, rt Func, src, dst int, salt uint32) (sw []int, vcs []int) {
	t.Helper()
	at := net.Attachment(src)
	s, in, vc := int(at.Switch), int(at.Port), 0
	for range 4 * net.Switches() {
		sw = append(sw, s)
		c := rt.Route(s, in, vc, Head{Src: int32(src), Dst: int32(dst), Salt: salt}, nil)[0]
		port := net.Port(s, int(c.Port))
		if port.Kind == topology.Terminal {
			if int(port.Terminal) != dst {
				t.Fatalf("%s: PE %d -> %d delivered to PE %d", rt.Name(), src, dst, port.Terminal)
			}
			return sw, vcs
		}
		vcs = append(vcs, int(c.VC))
		s, in, vc = int(port.Peer), int(port.PeerPort), int(c.VC)
	}
	t.Fatalf("%s: PE %d -> %d does not arrive", rt.Name(), src, dst)
	return nil, nil
}

// DOR on a HyperX: one hop per unaligned dimension, lowest first; under trunking the
// salt picks the parallel link and every link is used by some salt.
func TestHyperXDOR(t *testing.T) {
	net := topology.MustNew("hyperx:4x3x2@2/2")
	rt, err := New("hxdor", net, SchemeNone, TieDefault)
	if err != nil {
		t.Fatal(err)
	}
	links := map[[2]int]bool{}
	for src := 0; src < net.Terminals(); src++ {
		for dst := 0; dst < net.Terminals(); dst++ {
			if src == dst {
				continue
			}
			for salt := uint32(0); salt < 2; salt++ {
				sw, _ := walk(t, net, rt, src, dst, salt)
				a, b := net.Node(sw[0]), net.Node(int(net.Attachment(dst).Switch))
				want, last := 0, -1
				for d := 0; d < 3; d++ {
					if net.Digit(a, d) != net.Digit(b, d) {
						want++
					}
				}
				if len(sw)-1 != want {
					t.Fatalf("PE %d -> %d: %d hops, want %d", src, dst, len(sw)-1, want)
				}
				for i := 1; i < len(sw); i++ {
					d := 0
					for net.Digit(sw[i-1], d) == net.Digit(sw[i], d) {
						d++
					}
					if d <= last {
						t.Fatalf("PE %d -> %d: dimension %d after %d", src, dst, d, last)
					}
					last = d
				}
				c := rt.Route(sw[0], int(net.Attachment(src).Port), 0, Head{Src: int32(src), Dst: int32(dst), Salt: salt}, nil)[0]
				if net.Port(sw[0], int(c.Port)).Kind != topology.Terminal {
					links[[2]int{sw[0], int(c.Port)}] = true
				}
			}
		}
	}
	if ext := net.TotalPorts() - net.Terminals(); len(links) != ext {
		t.Errorf("first hops use %d of the %d network ports; under trunking every parallel link should carry some salt", len(links), ext)
	}
}

// DAL offers the minimal hop of every unaligned dimension, then the deroutes of the
// dimensions not moved in yet, on the hop's VC; at most one deroute per dimension.
func TestDALCandidates(t *testing.T) {
	net := topology.MustNew("hyperx:4x4x3")
	rt, err := New("dal", net, SchemeNone, TieDefault)
	if err != nil {
		t.Fatal(err)
	}
	if rt.VCs(topology.External) != 6 || DefaultSelection(rt) != "minfirst" {
		t.Fatalf("VCs %d, selection %s", rt.VCs(topology.External), DefaultSelection(rt))
	}
	at := func(x, y, z int) int { return net.NodeAt([]int{x, y, z}) }
	// From (0,0,0) to (2,3,0): minimal in dims 0 and 1, deroutes to x in {1,3} and y in {1,2}.
	src, dst := at(0, 0, 0), at(2, 3, 0)
	c := rt.Route(src, net.TerminalPort(src), 0, Head{Src: int32(src), Dst: int32(dst)}, nil)
	if len(c) != 6 {
		t.Fatalf("%d candidates, want 2 minimal + 4 deroutes: %+v", len(c), c)
	}
	for i, cand := range c {
		if cand.NonMin != (i >= 2) || cand.VC != 0 {
			t.Errorf("candidate %d: %+v", i, cand)
		}
	}
	// At (1,0,0) after a deroute in dim 0 (arrived on VC 0): dim 0 is minimal only,
	// dim 1 still offers its deroutes, on VC 1.
	s := at(1, 0, 0)
	in := topology.NewHyperXLayout([]int{4, 4, 3}, 1, 1).Port(0, 1, 0, 0)
	c = rt.Route(s, in, 0, Head{Src: int32(src), Dst: int32(dst)}, nil)
	if len(c) != 4 || c[0].NonMin || c[1].NonMin || !c[2].NonMin || !c[3].NonMin || c[0].VC != 1 {
		t.Fatalf("after a deroute in dim 0: %+v", c)
	}
	for _, cand := range c[2:] {
		if p := net.Port(s, int(cand.Port)); net.Digit(int(p.Peer), 0) != 1 {
			t.Errorf("deroute %+v leaves dimension 1", cand)
		}
	}
	// The first candidate everywhere is dimension order: as many hops as dimensions differ.
	for src := 0; src < net.Terminals(); src++ {
		for dst := 0; dst < net.Terminals(); dst++ {
			if src != dst {
				sw, vcs := walk(t, net, rt, src, dst, 0)
				for i, v := range vcs {
					if v != i {
						t.Fatalf("PE %d -> %d: hop %d on VC %d", src, dst, i, v)
					}
				}
				if len(sw) > 4 {
					t.Fatalf("PE %d -> %d: %d hops", src, dst, len(sw)-1)
				}
			}
		}
	}
}

// Slim Fly: MIN reaches every PE in at most 2 hops, VAL in at most 4 through its
// intermediate router, each hop on the VC of its index.
func TestSlimFlyRoutes(t *testing.T) {
	net := topology.MustNew("slimfly:5@1")
	min, err := New("sfmin", net, SchemeNone, TieDefault)
	if err != nil {
		t.Fatal(err)
	}
	val, err := New("sfval", net, SchemeNone, TieDefault)
	if err != nil {
		t.Fatal(err)
	}
	v := val.(*SlimFlyRouting)
	through := 0
	for src := 0; src < net.Terminals(); src++ {
		for dst := 0; dst < net.Terminals(); dst++ {
			if src == dst {
				continue
			}
			sw, vcs := walk(t, net, min, src, dst, 0)
			if len(sw) > 3 {
				t.Fatalf("MIN %d -> %d: %d hops", src, dst, len(sw)-1)
			}
			for salt := uint32(0); salt < 50; salt += 7 {
				sw, vcs = walk(t, net, val, src, dst, salt)
				if len(sw) > 5 {
					t.Fatalf("VAL %d -> %d: %d hops", src, dst, len(sw)-1)
				}
				for i, vc := range vcs {
					if vc != i {
						t.Fatalf("VAL %d -> %d: hop %d on VC %d", src, dst, i, vc)
					}
				}
				for _, s := range sw {
					if s == v.Intermediate(salt) {
						through++
						break
					}
				}
			}
		}
	}
	if total := 50 * 49 * 8; through < total*9/10 {
		t.Errorf("VAL passes its intermediate on %d of %d routes", through, total)
	}
	if _, err := New("sfmin", topology.MustNew("hyperx:4x4"), SchemeNone, TieDefault); err == nil {
		t.Error("sfmin made on a HyperX")
	}
	if _, err := New("dal", net, SchemeNone, TieDefault); err == nil {
		t.Error("dal made on a Slim Fly")
	}
	if _, err := New("dal", topology.MustNew("hyperx:4x4"), SchemeEscape, TieDefault); err == nil {
		t.Error("dal made under the escape scheme")
	}
}
