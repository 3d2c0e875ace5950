package routing

import (
	"fmt"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

func TestDirection(t *testing.T) {
	cases := []struct {
		cur, dst, k int
		tie         Tie
		mesh        bool
		want        int
	}{
		{0, 1, 4, TiePlus, false, +1}, {0, 3, 4, TiePlus, false, -1}, {0, 2, 4, TiePlus, false, +1},
		{0, 2, 4, TieMinus, false, -1}, {3, 1, 4, TiePlus, false, +1}, {1, 3, 4, TieMinus, false, -1},
		{0, 2, 5, TieMinus, false, +1}, {0, 3, 5, TiePlus, false, -1}, {2, 2, 5, TiePlus, false, 0},
		{0, 3, 4, TiePlus, true, +1}, {3, 0, 4, TiePlus, true, -1}, {0, 1, 2, TiePlus, false, +1},
	}
	for _, c := range cases {
		if got := Direction(c.cur, c.dst, c.k, c.tie, c.mesh); got != c.want {
			t.Errorf("Direction(%d,%d,k=%d,tie %d,mesh %v) = %d, want %d", c.cur, c.dst, c.k, c.tie, c.mesh, got, c.want)
		}
	}
}

// ringDist is the DOR distance in one ring: the shorter way, k/2 on a tie.
func ringDist(a, b, k int, mesh bool) int {
	d := b - a
	if mesh {
		if d < 0 {
			return -d
		}
		return d
	}
	d = (d%k + k) % k
	return min(d, k-d)
}

// DOR paths reach their destination by shortest rings in ascending dimension order:
// on a torus or mesh the hop count is the sum of ring distances; on a twin torus the
// external hops are that sum and every dimension change across cards adds one hop.
func TestPaths(t *testing.T) {
	for _, spec := range []string{"torus:4x4", "torus:5x3x4", "mesh:4x3", "torus:3x3@2", "twin:4x4x4/A", "twin:5x5x5/D", "twin:4x4x2x4x4/cbest", "twin:3x5/x+,y-"} {
		net := topology.MustNew(spec)
		dor := NewDOR(net, TiePlus)
		var buf []Step
		for src := 0; src < net.Terminals(); src++ {
			for dst := 0; dst < net.Terminals(); dst++ {
				buf = dor.Path(src, dst, buf[:0])
				last := buf[len(buf)-1]
				if p := net.Port(last.Switch, last.Port); p.Kind != topology.Terminal || int(p.Terminal) != dst {
					t.Fatalf("%s: path %d -> %d ends at %+v", spec, src, dst, p)
				}
				a, b := net.Node(int(net.Attachment(src).Switch)), net.Node(int(net.Attachment(dst).Switch))
				want := 0
				for d := 0; d < net.Dims(); d++ {
					want += ringDist(net.Digit(a, d), net.Digit(b, d), net.Radix(d), net.IsMesh())
				}
				ext, lastDim := 0, -1
				for _, st := range buf[:len(buf)-1] {
					if p := net.Port(st.Switch, st.Port); p.Kind == topology.External {
						ext++
						if int(p.Dim) < lastDim {
							t.Fatalf("%s: %d -> %d goes back to dimension %d after %d", spec, src, dst, p.Dim, lastDim)
						}
						lastDim = int(p.Dim)
					}
				}
				if ext != want {
					t.Fatalf("%s: %d -> %d takes %d external hops, the ring distances sum to %d", spec, src, dst, ext, want)
				}
			}
		}
	}
}

// The dateline argument: under the VC scheme, along one dimension a packet keeps its
// class up to and including the wrap-around link and changes class right after it, at
// most once (+ direction: Low then Up; - direction: Up then Low). So no class carries
// a packet once around a ring, and each class's dependencies in a ring are acyclic.
func TestDatelineClasses(t *testing.T) {
	for _, spec := range []string{"torus:5x4", "twin:4x4x4/D", "twin:5x5x5/A"} {
		net := topology.MustNew(spec)
		r := NewDeterministic(net, SchemeVC, TiePlus)
		for src := 0; src < net.Terminals(); src++ {
			for dst := 0; dst < net.Terminals(); dst++ {
				if src == dst {
					continue
				}
				at := net.Attachment(src)
				s, in := int(at.Switch), int(at.Port)
				lastDim, lastVC, wrapped, changes := -1, int8(-1), false, 0
				for {
					c := r.Next(s, in, src, dst)
					if at := r.NextAt(s, net.PortID(s, in), r.Dest(src, dst)); at != c {
						t.Fatalf("%s: at switch %d port %d for %d, NextAt gives %+v, Next %+v", spec, s, in, dst, at, c)
					}
					p := net.Port(s, int(c.Port))
					if p.Kind == topology.Terminal {
						break
					}
					if p.Kind == topology.External {
						if int(p.Dim) != lastDim {
							lastDim, wrapped, changes = int(p.Dim), false, 0
						} else if c.VC != lastVC {
							changes++
							if !wrapped || changes > 1 {
								t.Fatalf("%s: %d -> %d changes class in dimension %d without a wrap-around just before (or twice)", spec, src, dst, p.Dim)
							}
						} else if wrapped {
							t.Fatalf("%s: %d -> %d keeps its class after the wrap-around of dimension %d", spec, src, dst, p.Dim)
						}
						here, there := net.Digit(net.Node(s), int(p.Dim)), net.Digit(net.Node(int(p.Peer)), int(p.Dim))
						wrapped = (p.Dir > 0) != (there > here)
						lastVC = c.VC
					}
					s, in = int(p.Peer), int(p.PeerPort)
				}
			}
		}
	}
}

// Bubble flags: a hop that enters a ring (from the NIC, another dimension, or the
// internal link after a type-1 crossing) carries the bubble condition; one that
// continues in its ring does not; internal-link hops of types 1 and 3 never do.
func TestBubbleFlags(t *testing.T) {
	net := topology.MustNew("twin:4x4x4/D") // Card0 {X+,X-,Y+}, Card1 {Y-,Z+,Z-}; Y is split
	r := NewDeterministic(net, SchemeBubble, TiePlus)
	pe := func(card, x, y, z int) int { return card + 2*(x+4*(y+4*z)) }
	hops := func(src, dst int) []string {
		var out []string
		at := net.Attachment(src)
		s, in := int(at.Switch), int(at.Port)
		for {
			c := r.Next(s, in, src, dst)
			p := net.Port(s, int(c.Port))
			if p.Kind == topology.Terminal {
				return out
			}
			out = append(out, fmt.Sprintf("%s/%d/%v", p.Name(3), c.VC, c.Bubble))
			s, in = int(p.Peer), int(p.PeerPort)
		}
	}
	cases := []struct {
		src, dst int
		want     string
	}{
		// PE0 along X then Y+ (Card0): enter X, continue, enter Y.
		{pe(0, 0, 0, 0), pe(0, 2, 1, 0), "x+/0/true x+/0/false y+/0/true int/2/false"},
		// PE1 towards X: type-1 crossing (VC 0, no bubble), then enter X.
		// (then type 3 to the destination PE on Card1)
		{pe(1, 0, 0, 0), pe(1, 1, 0, 0), "int/0/false x+/0/true int/2/false"},
		// PE1 towards Y+ (on Card0): type 2 crossing enters the Y ring with the bubble,
		// the Y+ hop after it continues in the ring.
		{pe(1, 0, 0, 0), pe(0, 0, 1, 0), "int/1/true y+/0/false int/2/false"},
		// Travelling in +Y through a node: arrive on Y- (Card1), cross as type 2 without
		// the bubble, continue on Y+.
		{pe(0, 0, 0, 0), pe(0, 0, 2, 0), "y+/0/true int/1/false y+/0/false int/2/false"},
		// To the other PE of the node: type 3.
		{pe(0, 1, 1, 1), pe(1, 1, 1, 1), "int/2/false"},
		// X then Z: type-1 crossing to Card1, enter Z.
		{pe(0, 0, 0, 0), pe(1, 1, 0, 1), "x+/0/true int/0/false z+/0/true"},
	}
	for _, c := range cases {
		if got := strings.Join(hops(c.src, c.dst), " "); got != c.want {
			t.Errorf("PE %d -> %d: %s, want %s", c.src, c.dst, got, c.want)
		}
	}
}

func TestNewAndParse(t *testing.T) {
	twin, torus := topology.MustNew("twin:4x4x4/D"), topology.MustNew("torus:4x4")
	for _, c := range []struct {
		name string
		net  *topology.Network
		err  string
	}{{"dor", twin, "dort"}, {"dort", torus, "use dor"}, {"xy", torus, "accepted are dor"}, {"DORT", twin, ""}, {" dor", torus, ""}} {
		_, err := New(c.name, c.net, SchemeVC, TiePlus)
		if (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("New(%q, %s): %v, want %q", c.name, c.net, err, c.err)
		}
	}
	for _, s := range []Scheme{SchemeVC, SchemeBubble, SchemeNone} {
		if got, err := ParseScheme(s.String()); err != nil || got != s {
			t.Errorf("ParseScheme(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseScheme("dateline"); err == nil || !strings.Contains(err.Error(), "vc, bubble, escape and none") {
		t.Errorf("ParseScheme(dateline): %v", err)
	}
	if Default(twin) != "dort" || Default(torus) != "dor" {
		t.Error("Default")
	}
	rt := NewDeterministic(twin, SchemeBubble, TiePlus)
	if rt.Name() != "dort/bubble" || NewDeterministic(torus, SchemeVC, TiePlus).Name() != "dor/vc" {
		t.Error("Name")
	}
}

func ExampleDeterministic_Next() {
	net := topology.MustNew("twin:4x4x4/D")
	r := NewDeterministic(net, SchemeVC, TiePlus)
	// PE1 of node <0,0,0> (Card1) to PE0 of node <1,0,1>: the X+ port is on Card0, so
	// the packet first crosses the internal link on the type-1 VC.
	c := r.Next(net.Switch(0, 1), net.TerminalPort(1), 1, 2*17)
	fmt.Println(net.Port(net.Switch(0, 1), int(c.Port)).Name(3), "vc", c.VC)
	fmt.Println(net.Dims(), "dimensions;", r.VCs(topology.Internal), "internal-link VCs (SC1 under the VC scheme)")
	// Output:
	// int vc 0
	// 3 dimensions; 4 internal-link VCs (SC1 under the VC scheme)
}

// The route cache gives, for every switch, arrival port, destination and tie direction,
// the decision next computes, through NextAt, Next and NextEntering, on every kind of
// network it is built for, under every tie rule (mirror's from sources on both cards;
// the other rules' routes do not depend on the source);
// a network too large for it gets none.
func TestRouteCache(t *testing.T) {
	for _, spec := range []string{"torus:4x4x4", "torus:8x8x8", "torus:9x9x9", "torus:5x3", "mesh:4x4x4", "torus:2x2",
		"twin:4x4x4/D", "twin:4x4x4/A", "twin:5x5x5/G", "twin:4x2x4", "twin:4x4x2x2x2/cbest",
		"twin:4x4x2x4x2", "twin:8x4x4", "twin:4x4x4x4/d0+,d0-,d1+,d1-"} {
		net, err := topology.New(spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		for _, scheme := range []Scheme{SchemeNone, SchemeVC, SchemeBubble} {
			ties := []Tie{TiePlus, TieMinus}
			if net.IsTwin() { // elsewhere mirror is plus (TestMirrorOnTorusIsPlus)
				ties = append(ties, TieMirror)
			}
			for _, tie := range ties {
				r := NewDeterministic(net, scheme, tie)
				if r.routes != nil {
					t.Fatalf("%s: a route cache before CacheRoutes", spec)
				}
				r.CacheRoutes()
				classes := 1
				if scheme == SchemeBubble {
					classes = net.Dims() + 2
				}
				if tie == TieMirror && net.IsTwin() {
					classes *= 2 // a table for each tie direction
				}
				if fits := net.Switches()*net.Switches()*classes*2 <= routeCacheBytes; fits != (r.routes != nil) {
					t.Errorf("%s %s: %d switches, %d arrival classes: route cache %v, want %v",
						spec, scheme, net.Switches(), classes, r.routes != nil, fits)
				}
				checked := 0
				sources := 1 // the route depends on the source only through its ties' direction
				if tie == TieMirror {
					sources = 2 // from Card0 and from Card1
				}
				for i := 0; i < sources*net.Terminals(); i++ {
					// Every destination, from PE 0 (Card0) and, under mirror, PE N-1 (Card1).
					dst, src := i/sources, 0
					if i%sources == 1 {
						src = net.Terminals() - 1
					}
					to := r.Dest(src, dst)
					for s := 0; s < net.Switches(); s++ {
						for in := 0; in < net.Ports(s); in++ {
							want := r.next(s, r.inDim[net.PortID(s, in)], to)
							if got := r.NextAt(s, net.PortID(s, in), to); got != want {
								t.Fatalf("%s %s tie %d: switch %d, in port %d, to PE %d: cached %+v, computed %+v",
									spec, scheme, tie, s, in, dst, got, want)
							}
							if got := r.Next(s, in, src, dst); got != want {
								t.Fatalf("%s %s tie %d: Next at switch %d, in port %d, to PE %d: %+v, computed %+v",
									spec, scheme, tie, s, in, dst, got, want)
							}
							checked++
						}
						if got, want := r.NextEntering(s, src, dst), r.next(s, -2, to); got != want {
							t.Fatalf("%s %s tie %d: entering at switch %d to PE %d: cached %+v, computed %+v",
								spec, scheme, tie, s, dst, got, want)
						}
					}
				}
				if checked == 0 {
					t.Fatalf("%s: nothing checked", spec)
				}
			}
		}
	}
	r := NewDeterministic(topology.MustNew("torus:16x16x16"), SchemeVC, TiePlus)
	if r.CacheRoutes(); r.routes != nil {
		t.Errorf("torus:16x16x16 has a route cache of %d entries, more than %d bytes", len(r.routes), routeCacheBytes)
	}
}
