package routing

import (
	"math"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

// occFunc is an Occupancy from a function.
type occFunc func(s, p int) int

func (f occFunc) Used(s, p int) int { return f(s, p) }

// dfPath follows Choose from PE src to PE dst and returns the switches visited and the
// groups, failing when the route does not arrive within 8 hops or breaks the VC
// classes' order.
func dfPath(t *testing.T, r *Dragonfly, src, dst int, salt uint32, occ Occupancy) (switches []int) {
	t.Helper()
	net := r.Network()
	at := net.Attachment(src)
	s, in, vc := int(at.Switch), int(at.Port), 0
	h := Head{Src: int32(src), Dst: int32(dst), Salt: salt}
	rank := -1
	for range 8 {
		switches = append(switches, s)
		c := r.Choose(s, in, vc, h, occ, nil)
		if len(c) != 1 {
			t.Fatalf("%s %d->%d: %d candidates at switch %d", r.Name(), src, dst, len(c), s)
		}
		p := net.Port(s, int(c[0].Port))
		if p.Kind == topology.Terminal {
			if int(p.Terminal) != dst {
				t.Fatalf("%s %d->%d: delivered to %d", r.Name(), src, dst, p.Terminal)
			}
			return switches
		}
		// The class rank of the hop: L0 G0 L1 G1 L2, or under PAR L0 L1 G0 L2 G1 L3.
		global := net.Group(int(p.Peer)) != net.Group(s)
		v := int(c[0].VC)
		rk := 2 * v
		switch {
		case global && r.mode == DFPAR:
			rk = 2*v + 2
		case global:
			rk = 2*v + 1
		case r.mode == DFPAR && v >= 2:
			rk = 2*v - 1
		case r.mode == DFPAR:
			rk = v
		}
		if rk <= rank {
			t.Fatalf("%s %d->%d: VC classes do not rise at switch %d (rank %d after %d)", r.Name(), src, dst, s, rk, rank)
		}
		rank = rk
		h.Tag = c[0].Tag
		s, in, vc = int(p.Peer), int(p.PeerPort), int(c[0].VC)
	}
	t.Fatalf("%s %d->%d: no arrival in 8 hops: %v", r.Name(), src, dst, switches)
	return nil
}

func newDF(t *testing.T, spec, name string) *Dragonfly {
	t.Helper()
	net := topology.MustNew(spec)
	rt, err := New(name, net, SchemeNone, TieDefault)
	if err != nil {
		t.Fatal(err)
	}
	return rt.(*Dragonfly)
}

// Minimal routes take at most one local, one global and one local hop and are as long
// as hops() says; Valiant routes pass through an intermediate group other than the
// source's and destination's, at most 5 hops, and every intermediate group is drawn;
// with idle queues UGAL and PAR route minimally, and with the minimal route's first
// queue (UGAL-L) or global channel (UGAL-G) loaded, non-minimally.
func TestDragonflyRoutes(t *testing.T) {
	idle := occFunc(func(int, int) int { return 0 })
	for _, spec := range []string{"dragonfly:2", "dragonfly:4,2,2,5/relative", "dragonfly:3,1,1"} {
		for _, name := range []string{"dfmin", "dfval", "dfugal-l", "dfugal-g", "dfpar"} {
			r := newDF(t, spec, name)
			net := r.Network()
			l := r.l
			if r.mode != DFMin && l.G < 3 {
				continue
			}
			seen := map[int]bool{}
			for src := 0; src < net.Terminals(); src++ {
				for dst := 0; dst < net.Terminals(); dst++ {
					if src == dst {
						continue
					}
					for salt := uint32(0); salt < 6; salt++ {
						sw := dfPath(t, r, src, dst, salt*2654435761, idle)
						sg, dg := net.Group(sw[0]), net.Group(sw[len(sw)-1])
						groups := map[int]bool{}
						for _, s := range sw {
							groups[net.Group(s)] = true
						}
						nonmin := r.mode == DFVal && sg != dg
						switch {
						case !nonmin && (len(sw)-1 > 3 || len(groups) > 2):
							t.Fatalf("%s on %s %d->%d: minimal route %v", name, spec, src, dst, sw)
						case !nonmin && sg != dg && len(sw)-1 != r.hops(sw[0], sw[len(sw)-1], dg, int(salt*2654435761%uint32(r.m))):
							t.Fatalf("%s on %s %d->%d: route %v, hops() %d", name, spec, src, dst, sw, r.hops(sw[0], sw[len(sw)-1], dg, 0))
						case nonmin && (len(sw)-1 > 5 || len(groups) != 3):
							t.Fatalf("%s on %s %d->%d: Valiant route %v", name, spec, src, dst, sw)
						}
						if nonmin {
							for g := range groups {
								if g != sg && g != dg {
									seen[g] = true
								}
							}
						}
					}
				}
			}
			if r.mode == DFVal && len(seen) != l.G {
				t.Errorf("%s on %s: intermediate groups drawn %d of %d", name, spec, len(seen), l.G)
			}
		}
	}
	// Loaded queues turn UGAL to the Valiant route.
	for _, name := range []string{"dfugal-l", "dfugal-g", "dfpar"} {
		r := newDF(t, "dragonfly:2", name)
		l := r.l
		src, dst := 0, 8*l.P // router 0 of group 0 to router 0 of group 2: the link 0->2 is router 0's second
		minPort := l.GlobalPort(l.Link(0, 2, 0))
		loaded := occFunc(func(s, p int) int {
			if s == 0 && p == minPort {
				return 100
			}
			return 0
		})
		if sw := dfPath(t, r, src, dst, 7, loaded); groupsOf(r.net, sw) != 3 {
			t.Errorf("%s: with the minimal global channel loaded the route stays minimal: %v", name, sw)
		}
		if sw := dfPath(t, r, src, dst, 7, idle); len(sw) != 2 {
			t.Errorf("%s: idle, route %v; want the direct global hop", name, sw)
		}
	}
	// PAR revisits at the second router: minimal from the source (its own queues are
	// idle), non-minimal at the router of the global link once that link is loaded.
	r := newDF(t, "dragonfly:2", "dfpar")
	l := r.l
	o := l.Link(0, 5, 0) // held by router 2 of group 0
	holder := l.Switch(0, o/l.H)
	loaded := occFunc(func(s, p int) int {
		if s == holder && p == l.GlobalPort(o) {
			return 100
		}
		return 0
	})
	sw := dfPath(t, r, 0, 5*l.A*l.P, 3, loaded)
	if len(sw) < 3 || sw[1] != holder || r.net.Group(sw[2]) == 5 {
		t.Errorf("dfpar: route %v; want minimal to switch %d, then away from group 5", sw, holder)
	}
	ugal := newDF(t, "dragonfly:2", "dfugal-l")
	if sw := dfPath(t, ugal, 0, 5*l.A*l.P, 3, loaded); len(sw) < 3 || sw[1] != holder || r.net.Group(sw[2]) != 5 {
		t.Errorf("dfugal-l: route %v; want minimal through switch %d to group 5", sw, holder)
	}
}

func TestDragonflyRoutingErrors(t *testing.T) {
	for _, c := range []struct{ name, spec, want string }{
		{"dfmin", "torus:4x4", "routes dragonflies"},
		{"dfval", "dragonfly:1,1,1,2", "accepted are 3 to 255 groups"},
		{"dfval:threshold=3", "dragonfly:2", "takes no options"},
		{"dfugal-l:threshold=-1", "dragonfly:2", "accepted is threshold=T"},
		{"dfugal-l:foo", "dragonfly:2", "accepted is threshold=T"},
	} {
		_, err := New(c.name, topology.MustNew(c.spec), SchemeNone, TieDefault)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s on %s: %v; want %q", c.name, c.spec, err, c.want)
		}
	}
	if _, err := New("dfmin", topology.MustNew("dragonfly:2"), SchemeVC, TieDefault); err == nil || !strings.Contains(err.Error(), "accepted is none") {
		t.Errorf("dfmin under vc: %v", err)
	}
	r, err := New("dfugal-g:threshold=8", topology.MustNew("dragonfly:2"), SchemeNone, TieDefault)
	if err != nil || r.Name() != "dfugal-g:threshold=8" {
		t.Errorf("dfugal-g:threshold=8: %v, %v", r, err)
	}
}

// ValiantGroup is uniform over the groups other than the two it excludes.
func TestValiantGroup(t *testing.T) {
	for _, c := range []struct{ n, src, dst int }{{9, 0, 8}, {9, 3, 3}, {5, 4, 1}, {3, 0, 1}} {
		count := make([]int, c.n)
		const draws = 90000
		for s := range uint32(draws) {
			count[ValiantGroup(s, c.n, c.src, c.dst)]++
		}
		k := c.n - 2
		if c.src == c.dst {
			k = c.n - 1
		}
		for g, n := range count {
			if g == c.src || g == c.dst {
				if n != 0 {
					t.Errorf("%+v: group %d drawn %d times", c, g, n)
				}
				continue
			}
			if want := draws / k; n < want*95/100 || n > want*105/100 {
				t.Errorf("%+v: group %d drawn %d times; want about %d", c, g, n, want)
			}
		}
	}
}

// groupsOf is the number of groups a route visits.
func groupsOf(net *topology.Network, sw []int) int {
	g := map[int]bool{}
	for _, s := range sw {
		g[net.Group(s)] = true
	}
	return len(g)
}

// Valiant's channel loads under the adversarial group shift, by enumeration of every
// source, destination and intermediate group (each 1/(g−2) of a pair's traffic),
// against the closed form: the global link from group G to group X carries the
// first hops of G's PEs through X and the second hops through G of the PEs of group
// X − 1, each a·p·λ/(g−2), except the links from G to G + 1, which carry neither; so
// VAL's throughput under the shift is at most (g−2)/(2ap), just under half.
func TestDragonflyValiantShiftLoad(t *testing.T) {
	for _, spec := range []string{"dragonfly:2", "dragonfly:3,2,1", "dragonfly:2/relative"} {
		r := newDF(t, spec, "dfval")
		net, l := r.net, r.l
		load := make([]float64, net.TotalPorts())
		ap := l.A * l.P
		for src := 0; src < net.Terminals(); src++ {
			sg := src / ap
			dg := (sg + 1) % l.G
			for dst := dg * ap; dst < (dg+1)*ap; dst++ {
				for i := 0; i < l.G; i++ {
					if i == sg || i == dg {
						continue
					}
					s, in := int(net.Attachment(src).Switch), int(net.Attachment(src).Port)
					h := Head{Src: int32(src), Dst: int32(dst), Tag: uint8(i + 1)}
					for hop := 0; ; hop++ {
						var c []Candidate
						if hop == 0 { // the Valiant route through group i among Route's
							for _, x := range r.Route(s, in, 0, Head{Src: int32(src), Dst: int32(dst)}, nil) {
								if x.Tag == h.Tag {
									c = append(c, x)
								}
							}
						} else {
							c = r.Route(s, in, 0, h, nil)
						}
						if len(c) != 1 {
							t.Fatalf("%s: %d candidates", spec, len(c))
						}
						p := net.Port(s, int(c[0].Port))
						if p.Kind == topology.Terminal {
							break
						}
						load[net.PortID(s, int(c[0].Port))] += 1 / float64(ap*(l.G-2))
						s, in, h.Tag = int(p.Peer), int(p.PeerPort), c[0].Tag
					}
				}
			}
		}
		want := 2 * float64(ap) / float64(l.G-2)
		for s := 0; s < net.Switches(); s++ {
			for q := 0; q < net.Ports(s); q++ {
				p := net.Port(s, q)
				if p.Kind == topology.Terminal {
					continue
				}
				g, x := net.Group(s), net.Group(int(p.Peer))
				if g == x {
					continue
				}
				w := want
				if x == (g+1)%l.G {
					w = 0
				}
				if got := load[net.PortID(s, q)]; math.Abs(got-w) > 1e-9 {
					t.Fatalf("%s: global link %d -> %d carries %.6f per unit of injection; want %.6f", spec, g, x, got, w)
				}
			}
		}
		t.Logf("%s: VAL under groupshift at most %.4f flits/cycle/PE by its global links", spec, 1/want)
	}
}
