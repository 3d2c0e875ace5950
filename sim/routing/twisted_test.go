package routing

import (
	"fmt"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

// Every record is a shortest path (against BFS distances from the table routing), and
// dimension order on it reaches the destination in exactly that many hops, never
// turning back to a dimension it has left, for every pair, every kind, even and odd a.
func TestTwistedDORIsMinimal(t *testing.T) {
	for _, kind := range topology.TwistedKinds() {
		for _, a := range []int{2, 3, 4, 5, 8} {
			if kind.Dims() == 3 && a > 5 {
				continue
			}
			net, err := topology.Twisted(kind, a)
			if err != nil {
				t.Fatal(err)
			}
			bfs, err := NewMinimal(net, false)
			if err != nil {
				t.Fatal(err)
			}
			rt, err := NewTwistedDOR(net, SchemeBubble)
			if err != nil {
				t.Fatal(err)
			}
			var path []Step
			for src := 0; src < net.Terminals(); src++ {
				for dst := 0; dst < net.Terminals(); dst++ {
					rec := rt.Geometry().Record(src, dst)
					want := bfs.Distance(src, dst)
					if rec.L1() != want {
						t.Fatalf("%s: record %v from %d to %d has %d hops, BFS says %d", net, rec, src, dst, rec.L1(), want)
					}
					path = rt.Path(src, dst, path[:0])
					if len(path)-1 != want {
						t.Fatalf("%s: route %d -> %d takes %d hops, want %d", net, src, dst, len(path)-1, want)
					}
					last := -1
					for _, st := range path[:len(path)-1] {
						d := int(net.Port(st.Switch, st.Port).Dim)
						if d < last {
							t.Fatalf("%s: route %d -> %d goes back to dimension %d", net, src, dst, d)
						}
						last = d
					}
				}
			}
		}
	}
}

// The records are translation invariant: every pair with the same displacement (mod
// the lattice) takes the same record.
func TestTwistedRecordsTranslationInvariant(t *testing.T) {
	g := NewTwistedGeometry(topology.KindPDTT, 4)
	for src := 0; src < g.Nodes(); src += 7 {
		for c := 0; c < g.Nodes(); c++ {
			// The node reached from src by node c's record from node 0.
			r := g.Record(0, c)
			s := g.Coord(src)
			dst := g.class(Vec{s[0] + r[0], s[1] + r[1], s[2] + r[2]})
			if got := g.Record(src, dst); got != r {
				t.Fatalf("record %d -> %d is %v, from node 0 to %d it is %v", src, dst, got, c, r)
			}
		}
	}
}

// Bubble flags: a hop that enters a dimension's ring (from the PE or from another
// dimension) asks for two packets of room; continuing in the ring does not.
func TestTwistedDORBubble(t *testing.T) {
	net := topology.MustNew("twisted:rtt:4")
	rt, _ := NewTwistedDOR(net, SchemeBubble)
	// From node 0 to node 10 = (2, 1): record (2, 1), X then Y.
	src, dst := 0, 10
	if r := rt.Geometry().Record(src, dst); r != (Vec{2, 1, 0}) {
		t.Fatalf("record 0 -> 10 = %v", r)
	}
	var got []string
	s, in := 0, net.TerminalPort(0)
	for s != dst {
		c := rt.Next(s, in, src, dst)
		got = append(got, fmt.Sprintf("%s:%v", net.PortName(s, int(c.Port)), c.Bubble))
		p := net.Port(s, int(c.Port))
		s, in = int(p.Peer), int(p.PeerPort)
	}
	if want := "[x+:true x+:false y+:true]"; fmt.Sprint(got) != want {
		t.Errorf("hops %v, want %s", got, want)
	}
}

func TestTwistedRoutingFits(t *testing.T) {
	if _, err := New("twisted-dor", topology.MustNew("torus:8x4"), SchemeBubble, TiePlus); err == nil {
		t.Error("twisted-dor routed a torus spec")
	}
	if _, err := New("twisted-dor", topology.MustNew("twisted:rtt:4"), SchemeVC, TiePlus); err == nil {
		t.Error("twisted-dor accepted the dateline scheme")
	}
	rt, err := New("twisted-dor", topology.MustNew("twisted:pdtt:4"), SchemeEscape, TiePlus)
	if err != nil || rt.Name() != "twisted-dor/none+escape" {
		t.Errorf("twisted-dor under escape: %v, %v", rt, err)
	}
	if err := dorRouting().Fits(topology.MustNew("twisted:rtt:4")); err == nil {
		t.Error("plain DOR fits a twisted torus")
	}
	if err := dorRouting().Fits(topology.MustNew("twisted:rt:4")); err != nil {
		t.Errorf("plain DOR does not fit the RT, a torus: %v", err)
	}
}

// The adaptive router offers, at every hop, the adaptive VCs of every productive port
// and then the escape (dimension order on the record, VC 0); any sequence of choices
// reaches the destination in exactly the record's hops, and an escaped packet is
// offered the escape only (sticky) or everything again (return).
func TestTwistedAdaptiveCandidates(t *testing.T) {
	for _, spec := range []string{"twisted:rtt:4", "twisted:pdtt:3", "twisted:pt:4"} {
		net := topology.MustNew(spec)
		for _, ret := range []bool{false, true} {
			rt, err := NewTwistedAdaptive(net, TwistedAdaptiveOptions{Adaptive: 2, Return: ret})
			if err != nil {
				t.Fatal(err)
			}
			bfs, _ := NewMinimal(net, false)
			for src := 0; src < net.Terminals(); src++ {
				for dst := 0; dst < net.Terminals(); dst++ {
					s, in, vc, escaped, hops := src, net.TerminalPort(src), 0, false, 0
					for step := 0; ; step++ {
						c := rt.Route(s, in, vc, Head{Src: int32(src), Dst: int32(dst), Escaped: escaped}, nil)
						last := c[len(c)-1]
						if s == dst {
							if len(c) != 1 || net.Port(s, int(last.Port)).Kind != topology.Terminal {
								t.Fatalf("%s: at the destination %d: %v", spec, dst, c)
							}
							break
						}
						if !last.Escape || last.VC != 0 {
							t.Fatalf("%s: %d -> %d at %d: the escape is not last: %v", spec, src, dst, s, c)
						}
						if escaped && !ret && len(c) != 1 {
							t.Fatalf("%s: an escaped packet is offered %v", spec, c)
						}
						for _, x := range c[:len(c)-1] {
							if x.Escape || x.VC < 1 || x.VC > 2 || x.Bubble {
								t.Fatalf("%s: bad adaptive candidate %+v", spec, x)
							}
						}
						pick := c[(src*7+dst*3+step)%len(c)] // any choice
						escaped = escaped || pick.Escape
						p := net.Port(s, int(pick.Port))
						s, in, vc = int(p.Peer), int(p.PeerPort), int(pick.VC)
						hops++
					}
					if hops != bfs.Distance(src, dst) {
						t.Fatalf("%s: %d -> %d in %d hops, the distance is %d", spec, src, dst, hops, bfs.Distance(src, dst))
					}
				}
			}
		}
	}
	if _, err := New("twisted-adaptive:vcs=0", topology.MustNew("twisted:rtt:4"), SchemeBubble, TiePlus); err == nil {
		t.Error("vcs=0 accepted")
	}
	if rt, err := New("twisted-adaptive:return,vcs=3", topology.MustNew("twisted:rtt:4"), SchemeBubble, TiePlus); err != nil || rt.Name() != "twisted-adaptive:return,vcs=3/bubble" || rt.VCs(topology.External) != 4 {
		t.Errorf("twisted-adaptive:return,vcs=3: %v, %v", rt, err)
	}
}

// ties=random: a pair with several minimal records takes any of them, by its packet's
// salt, and every hop of that packet follows the one drawn. Walked for every pair and
// four salts, taking any adaptive candidate at each hop: the route is as long as the
// distance and its hops per dimension are the drawn record's; and over the salts every
// record of a tied pair is drawn.
func TestTwistedAdaptiveRandomTies(t *testing.T) {
	for _, spec := range []string{"twisted:rtt:4", "twisted:pdtt:3", "twisted:rt:4"} {
		net := topology.MustNew(spec)
		rt, err := New("twisted-adaptive:ties=random", net, SchemeBubble, TiePlus)
		if err != nil {
			t.Fatal(err)
		}
		if rt.Name() != "twisted-adaptive:ties=random/bubble" {
			t.Errorf("name %q", rt.Name())
		}
		geo := rt.(*TwistedAdaptive).Escape().Geometry()
		bfs, _ := NewMinimal(net, false)
		tied := 0
		for src := 0; src < net.Terminals(); src++ {
			for dst := 0; dst < net.Terminals(); dst++ {
				if src == dst {
					continue
				}
				drawn := map[Vec]bool{}
				for salt := uint32(0); salt < 4; salt++ {
					rec := geo.RecordDrawn(src, dst, salt)
					drawn[rec] = true
					var hops [3]int
					s, in, vc := src, net.TerminalPort(src), 0
					for step := 0; s != dst; step++ {
						c := rt.Route(s, in, vc, Head{Src: int32(src), Dst: int32(dst), Salt: salt}, nil)
						pick := c[(src+dst+step)%len(c)]
						p := net.Port(s, int(pick.Port))
						hops[p.Dim] += int(p.Dir)
						s, in, vc = int(p.Peer), int(p.PeerPort), int(pick.VC)
						if step > 3*bfs.Distance(src, dst) {
							t.Fatalf("%s: %d -> %d (salt %d) does not arrive", spec, src, dst, salt)
						}
					}
					if hops != [3]int(rec) || rec.L1() != bfs.Distance(src, dst) {
						t.Fatalf("%s: %d -> %d (salt %d) moved %v, drew record %v, distance %d", spec, src, dst, salt, hops, rec, bfs.Distance(src, dst))
					}
				}
				var buf [maxTwistedTies]Vec
				if n := len(geo.Minimal(geo.delta(src, dst), buf[:0])); n > 1 {
					tied++
					if len(drawn) < 2 {
						t.Errorf("%s: %d -> %d has %d minimal records, four salts drew only %v", spec, src, dst, n, drawn)
					}
				}
			}
		}
		if tied == 0 {
			t.Errorf("%s: no tied pair", spec)
		}
	}
	if _, err := ParseTwistedAdaptiveOptions("ties=sometimes"); err == nil {
		t.Error("ties=sometimes accepted")
	}
}

// The options of twisted-adaptive: any text either parses, and names a router whose
// options read back the same, or is refused with a one-line error.
func FuzzParseTwistedAdaptiveOptions(f *testing.F) {
	for _, s := range []string{"", "return", "sticky", "vcs=3", "ties=random", "return,vcs=2,ties=table", "ties=", "vcs=x", ",,"} {
		f.Add(s)
	}
	net := topology.MustNew("twisted:rtt:2")
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseTwistedAdaptiveOptions(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: multi-line error", s)
			}
			return
		}
		r, err := NewTwistedAdaptive(net, o)
		if err != nil {
			t.Fatalf("%q: %+v refused: %v", s, o, err)
		}
		name := strings.TrimSuffix(strings.TrimPrefix(r.Name(), "twisted-adaptive"), "/bubble")
		back, err := ParseTwistedAdaptiveOptions(strings.TrimPrefix(name, ":"))
		if err != nil || back != o {
			t.Fatalf("%q: %+v named %q reads back as %+v, %v", s, o, r.Name(), back, err)
		}
	})
}
