package routing

import (
	"slices"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

// chooseWalk follows a Chooser's Choose from PE src to PE dst, carrying the packet's
// tag, and returns the switches visited and the VC of each hop.
func chooseWalk(t *testing.T, net *topology.Network, rt Chooser, src, dst int, salt uint32, occ Occupancy) (sw, vcs []int) {
	t.Helper()
	at := net.Attachment(src)
	s, in, vc := int(at.Switch), int(at.Port), 0
	h := Head{Src: int32(src), Dst: int32(dst), Salt: salt}
	for range 4 * net.Switches() {
		sw = append(sw, s)
		c := rt.Choose(s, in, vc, h, occ, nil)
		if len(c) != 1 {
			t.Fatalf("%s %d -> %d: %d candidates at switch %d", rt.Name(), src, dst, len(c), s)
		}
		port := net.Port(s, int(c[0].Port))
		if port.Kind == topology.Terminal {
			if int(port.Terminal) != dst {
				t.Fatalf("%s: PE %d -> %d delivered to PE %d", rt.Name(), src, dst, port.Terminal)
			}
			return sw, vcs
		}
		vcs = append(vcs, int(c[0].VC))
		h.Tag = c[0].Tag
		s, in, vc = int(port.Peer), int(port.PeerPort), int(c[0].VC)
	}
	t.Fatalf("%s: PE %d -> %d does not arrive", rt.Name(), src, dst)
	return nil, nil
}

// Slim Fly UGAL: with idle queues every packet takes sfmin's path; with the minimal
// path's first output port loaded it takes sfval's path for the same salt exactly when
// that path leaves by another port (the rule q_min·H_min ≤ q_non·H_non with q_non = 0),
// and otherwise the minimal one; every hop on the VC of its index. Route offers both
// first hops at the source router, one hop elsewhere.
func TestSlimFlyUGAL(t *testing.T) {
	net := topology.MustNew("slimfly:5@1")
	get := func(name string) Func {
		rt, err := New(name, net, SchemeNone, TieDefault)
		if err != nil {
			t.Fatal(err)
		}
		return rt
	}
	minR, valR := get("sfmin"), get("sfval")
	ugal, ok := get("sfugal").(Chooser)
	if !ok {
		t.Fatal("sfugal is not a Chooser")
	}
	if _, ok := minR.(Chooser); ok {
		t.Error("sfmin is a Chooser: it would keep runs on one thread for nothing")
	}
	if ugal.VCs(topology.External) != 4 || ugal.VCs(topology.Terminal) != 1 {
		t.Errorf("sfugal VCs %d (network), %d (PE); want 4, 1", ugal.VCs(topology.External), ugal.VCs(topology.Terminal))
	}
	idle := occFunc(func(int, int) int { return 0 })
	sf := valR.(*SlimFlyRouting)
	deroutes, both := 0, 0
	for src := 0; src < net.Terminals(); src++ {
		for dst := 0; dst < net.Terminals(); dst++ {
			if src == dst {
				continue
			}
			for salt := uint32(0); salt < 50; salt += 7 {
				sw, vcs := chooseWalk(t, net, ugal, src, dst, salt, idle)
				msw, _ := walk(t, net, minR, src, dst, salt)
				if !slices.Equal(sw, msw) {
					t.Fatalf("idle queues, %d -> %d salt %d: %v, MIN %v", src, dst, salt, sw, msw)
				}
				s0 := int(net.Attachment(src).Switch)
				minFirst := -1
				if len(msw) > 1 {
					minFirst = msw[1]
				}
				loaded := occFunc(func(s, p int) int {
					if s == s0 && minFirst >= 0 && int(net.Port(s, p).Peer) == minFirst {
						return 10
					}
					return 0
				})
				sw, vcs = chooseWalk(t, net, ugal, src, dst, salt, loaded)
				vsw, _ := walk(t, net, valR, src, dst, salt)
				want := msw
				if mid := sf.Intermediate(salt); len(vsw) > 1 && len(msw) > 1 && vsw[1] != msw[1] && mid != s0 && mid != msw[len(msw)-1] {
					want = vsw
					deroutes++
				}
				if !slices.Equal(sw, want) {
					t.Fatalf("MIN port loaded, %d -> %d salt %d: %v, want %v (MIN %v, VAL %v)", src, dst, salt, sw, want, msw, vsw)
				}
				for i, vc := range vcs {
					if vc != i {
						t.Fatalf("UGAL %d -> %d: hop %d on VC %d", src, dst, i, vc)
					}
				}
				at := net.Attachment(src)
				if c := ugal.Route(int(at.Switch), int(at.Port), 0, Head{Src: int32(src), Dst: int32(dst), Salt: salt}, nil); len(c) == 2 {
					both++
				}
			}
		}
	}
	if total := 50 * 49 * 8; deroutes < total/2 || both < total/2 {
		t.Errorf("of %d routes, %d deroute with the MIN port loaded and %d offer both first hops", total, deroutes, both)
	}
	if _, err := New("sfugal:threshold=-1", net, SchemeNone, TieDefault); err == nil {
		t.Error("a negative threshold accepted")
	}
	if _, err := New("sfval:threshold=4", net, SchemeNone, TieDefault); err == nil {
		t.Error("sfval took a threshold")
	}
	if rt, err := New("sfugal:threshold=4", net, SchemeNone, TieDefault); err != nil || rt.Name() != "sfugal:threshold=4" {
		t.Errorf("sfugal:threshold=4: %v, %v", rt, err)
	}
}
