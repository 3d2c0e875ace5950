package analysis

import (
	"fmt"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// mergedIL wraps a routing and maps its internal-link VCs onto fewer: merge[vc] is the
// VC used instead. One VC for all traffic types reproduces the papers' cycles.
type mergedIL struct {
	*routing.Deterministic
	net   *topology.Network
	merge []int8
}

func (m mergedIL) Route(s, in, inVC int, h routing.Head, out []routing.Candidate) []routing.Candidate {
	out = m.Deterministic.Route(s, in, inVC, h, out)
	c := &out[len(out)-1]
	if m.net.Port(s, int(c.Port)).Kind == topology.Internal {
		c.VC = m.merge[c.VC]
	}
	return out
}

func check(t *testing.T, net *topology.Network, rt routing.Func, ring RingFunc) *CDGReport {
	t.Helper()
	rep, err := CheckCDG(net, rt, ring)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// [TR] §6.3.1–6.3.2: both schemes are deadlock-free for every configuration A–J at
// k = 3, 4, 5 (the VC scheme's graph is acyclic; the bubble scheme's graph of rings is
// acyclic and every ring is entered under the bubble condition), and with a single
// internal-link VC the graph is cyclic in every case.
func TestCDGConfigurations(t *testing.T) {
	for _, k := range []int{3, 4, 5} {
		for l := 'A'; l <= 'J'; l++ {
			net := topology.MustNew(fmt.Sprintf("twin:%dx%dx%d/%c", k, k, k, l))
			vc := routing.NewDeterministic(net, routing.SchemeVC, routing.TiePlus)
			if rep := check(t, net, vc, nil); !rep.Acyclic {
				t.Errorf("%s VC scheme: cycle %v", net, rep.Cycle)
			}
			bub := routing.NewDeterministic(net, routing.SchemeBubble, routing.TiePlus)
			if rep := check(t, net, bub, bub.Ring); !rep.Acyclic || len(rep.Unprotected) > 0 || rep.Rings == 0 {
				t.Errorf("%s bubble scheme: acyclic %v, rings %d, unprotected %v, cycle %v", net, rep.Acyclic, rep.Rings, rep.Unprotected, rep.Cycle)
			}
			one := mergedIL{vc, net, make([]int8, vc.VCs(topology.Internal))}
			if rep := check(t, net, one, nil); rep.Acyclic {
				t.Errorf("%s with one internal-link VC: no cycle", net)
			}
			if want := map[bool]int{true: 7, false: 4}[len(net.Config().Split(3)) == 3]; vc.VCs(topology.Internal) != want {
				t.Errorf("%s: %d internal-link VCs under the VC scheme, want %d", net, vc.VCs(topology.Internal), want)
			}
			if want := map[bool]int{true: 4, false: 3}[len(net.Config().Split(3)) == 3]; bub.VCs(topology.Internal) != want {
				t.Errorf("%s: %d internal-link VCs under bubble, want %d", net, bub.VCs(topology.Internal), want)
			}
		}
	}
}

// [TR] §6.3.1: for configuration D at k = 4, merging internal-link classes
// creates a cycle: type 3 with type 1, Up with Low, and type 1 with type 2's Up class.
// Finer than "type 1 with type 2": type 1 merged with the Low class stays
// acyclic, because Low packets on the internal link (destination digit not above the
// current one) never depend on a type-1 crossing that leads back to them.
func TestCDGMergedClassesD(t *testing.T) {
	net := topology.MustNew("twin:4x4x4/D")
	vc := routing.NewDeterministic(net, routing.SchemeVC, routing.TiePlus)
	classes := vc.InternalVCs() // type 1, type 2 up, type 2 low, type 3
	if len(classes) != 4 || classes[0].Type != 1 || classes[1].Class != "up" || classes[2].Class != "low" || classes[3].Type != 3 {
		t.Fatalf("internal VCs of D: %+v", classes)
	}
	for _, c := range []struct {
		a, b    int
		acyclic bool
	}{{3, 0, false}, {0, 1, false}, {1, 2, false}, {0, 2, true}} {
		merge := []int8{0, 1, 2, 3}
		merge[c.a] = int8(c.b)
		if rep := check(t, net, mergedIL{vc, net, merge}, nil); rep.Acyclic != c.acyclic {
			t.Errorf("merging internal VCs %+v and %+v: acyclic %v, want %v", classes[c.a], classes[c.b], rep.Acyclic, c.acyclic)
		}
	}
	if rep := check(t, net, mergedIL{vc, net, []int8{0, 1, 2, 3}}, nil); !rep.Acyclic {
		t.Errorf("the unmerged wrapper should change nothing: %v", rep.Cycle)
	}
}

func TestCDGTorusMeshAndNone(t *testing.T) {
	cases := []struct {
		spec    string
		scheme  routing.Scheme
		acyclic bool
	}{
		{"torus:4x4", routing.SchemeVC, true},
		{"torus:5x3x4", routing.SchemeVC, true},
		{"torus:4x4", routing.SchemeBubble, true},
		{"torus:4x4", routing.SchemeNone, false}, // the rings of a torus
		{"mesh:4x5", routing.SchemeNone, true},   // DOR on a mesh needs nothing
		{"twin:4x4x4/D", routing.SchemeNone, false},
		{"twin:3x3x3x3/cbest", routing.SchemeVC, true},
		{"twin:3x3x3x3x3/cbest", routing.SchemeBubble, true},
	}
	for _, c := range cases {
		net := topology.MustNew(c.spec)
		rt := routing.NewDeterministic(net, c.scheme, routing.TiePlus)
		rep := check(t, net, rt, rt.Ring)
		if rep.Acyclic != c.acyclic || len(rep.Unprotected) > 0 {
			t.Errorf("%s %s: acyclic %v (want %v), unprotected %v, cycle %v", c.spec, c.scheme, rep.Acyclic, c.acyclic, rep.Unprotected, rep.Cycle)
		}
		if !rep.Acyclic && len(rep.Cycle) < 2 {
			t.Errorf("%s %s: a cycle needs at least two channels: %v", c.spec, c.scheme, rep.Cycle)
		}
	}
	// The nDT paper's counts for CBest: 2 internal-link VCs for n even, 3 (bubble) or
	// 4 (VCs) for n odd.
	for spec, want := range map[string][2]int{"twin:3x3x3x3/cbest": {2, 2}, "twin:3x3x3x3x3/cbest": {3, 4}, "twin:4x4x2x4x4/cbest": {3, 4}} {
		net := topology.MustNew(spec)
		b := routing.NewDeterministic(net, routing.SchemeBubble, routing.TiePlus).VCs(topology.Internal)
		v := routing.NewDeterministic(net, routing.SchemeVC, routing.TiePlus).VCs(topology.Internal)
		if b != want[0] || v != want[1] {
			t.Errorf("%s: internal VCs bubble %d, VC %d; want %v", spec, b, v, want)
		}
	}
}

// A bubble routing that forgets the bubble condition is caught.
type noBubble struct{ *routing.Deterministic }

func (n noBubble) Route(s, in, inVC int, h routing.Head, out []routing.Candidate) []routing.Candidate {
	out = n.Deterministic.Route(s, in, inVC, h, out)
	out[len(out)-1].Bubble = false
	return out
}

func TestCDGUnprotectedRing(t *testing.T) {
	net := topology.MustNew("twin:4x4x4/D")
	bub := routing.NewDeterministic(net, routing.SchemeBubble, routing.TiePlus)
	rep := check(t, net, noBubble{bub}, bub.Ring)
	if len(rep.Unprotected) == 0 {
		t.Fatal("ring entries without the bubble condition not reported")
	}
	if !strings.Contains(rep.Unprotected[0], "->") {
		t.Errorf("unexpected report %q", rep.Unprotected[0])
	}
}

func ExampleCheckCDG() {
	net := topology.MustNew("twin:4x4x4/D")
	vc := routing.NewDeterministic(net, routing.SchemeVC, routing.TiePlus)
	rep, _ := CheckCDG(net, vc, nil)
	fmt.Println("VC scheme acyclic:", rep.Acyclic)
	none := routing.NewDeterministic(net, routing.SchemeNone, routing.TiePlus)
	rep, _ = CheckCDG(net, none, nil)
	fmt.Println("one VC acyclic:", rep.Acyclic, "- a cycle of", len(rep.Cycle), "channels")
	// Output:
	// VC scheme acyclic: true
	// one VC acyclic: false - a cycle of 4 channels
}
