package topology

import (
	"fmt"
	"strings"
	"testing"
)

// latticeReduce is an independent model of [TT] §3.3's definitions: a twisted torus is
// Z^n/L, with L spanned by (2a,0,0), (a·ty,a,0) and (a·tz,0,a) (ty, tz = 1 when that
// wrap-around is twisted). It reduces any lattice point to the node id x + 2a·y +
// 2a²·z.
func latticeReduce(kind TwistedKind, a int, p []int) int {
	ty, tz := kind.Twists()
	x, y, z := p[0], p[1], 0
	if len(p) == 3 {
		z = p[2]
	}
	fz := floorDiv(z, a)
	z -= fz * a
	if tz {
		x -= fz * a
	}
	fy := floorDiv(y, a)
	y -= fy * a
	if ty {
		x -= fy * a
	}
	x -= floorDiv(x, 2*a) * 2 * a
	if kind.Dims() == 2 {
		return x + 2*a*y
	}
	return x + 2*a*y + 2*a*a*z
}

func floorDiv(v, m int) int {
	q := v / m
	if v%m != 0 && (v < 0) != (m < 0) {
		q--
	}
	return q
}

// Every link of every kind goes where the lattice model says, from d+ to d−, and PE t
// sits on node t at coordinates x + 2a·y + 2a²·z.
func TestTwistedLinksFollowTheLattice(t *testing.T) {
	for _, kind := range TwistedKinds() {
		for _, a := range []int{2, 3, 4, 5} {
			net, err := Twisted(kind, a)
			if err != nil {
				t.Fatal(err)
			}
			dims := kind.Dims()
			want := 2 * a * a
			if dims == 3 {
				want *= a
			}
			if net.Switches() != want || net.Terminals() != want || net.Dims() != dims || net.Links() != dims*want {
				t.Fatalf("%s: %d switches, %d PEs, %d dims, %d links", net, net.Switches(), net.Terminals(), net.Dims(), net.Links())
			}
			for s := 0; s < net.Switches(); s++ {
				c := net.Coord(s)
				if id := c[0] + 2*a*c[1] + 2*a*a*append(c, 0)[2]*btoi(dims == 3); id != s || int(net.Attachment(s).Switch) != s {
					t.Fatalf("%s: switch %d has coordinates %v", net, s, c)
				}
				for d := 0; d < dims; d++ {
					for _, dir := range []int{+1, -1} {
						p := net.DimPort(s, d, dir)
						port := net.Port(s, p)
						q := append([]int(nil), c...)
						q[d] += dir
						if int(port.Peer) != latticeReduce(kind, a, q) || net.Port(int(port.Peer), int(port.PeerPort)).Dir != int8(-dir) {
							t.Fatalf("%s: switch %d %s reaches %d, the lattice says %d", net, s, DimPortName(d, dir, dims), port.Peer, latticeReduce(kind, a, q))
						}
					}
				}
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// The rings: X always 2a nodes; Y 2a when twisted (RTT, PTT, PDTT), else a; Z 2a in
// the PDTT, else a; so every XY and XZ plane of a PDTT is an RTT ([TT] §3.3).
func TestTwistedRings(t *testing.T) {
	a := 4
	want := map[TwistedKind][]int{KindRT: {8, 4}, KindRTT: {8, 8}, KindPT: {8, 4, 4}, KindPTT: {8, 8, 4}, KindPDTT: {8, 8, 8}}
	for kind, rings := range want {
		net, err := Twisted(kind, a)
		if err != nil {
			t.Fatal(err)
		}
		for s := 0; s < net.Switches(); s++ {
			for d, length := range rings {
				cur, steps := s, 0
				for {
					cur = int(net.Port(cur, net.DimPort(cur, d, +1)).Peer)
					steps++
					if cur == s || steps > 4*length {
						break
					}
				}
				if steps != length {
					t.Fatalf("%s: the %s ring of switch %d has %d nodes, want %d", net, DimPortName(d, +1, len(rings)), s, steps, length)
				}
			}
		}
	}
}

func TestTwistedSpecs(t *testing.T) {
	for in, want := range map[string]string{
		"twisted:rtt:16": "twisted:rtt:16", "twisted:RTT:32x16": "twisted:rtt:16", "twisted:pdtt:32": "twisted:pdtt:32",
		"twisted: ptt : 64x32x32": "twisted:ptt:32", "twisted:rt:2": "twisted:rt:2", "TWISTED:pt:5": "twisted:pt:5",
	} {
		s, err := Parse(in)
		if err != nil || s.String() != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", in, s, err, want)
			continue
		}
		if again := MustParse(s.String()); !again.Equal(s) {
			t.Errorf("%q does not round-trip", in)
		}
	}
	for _, in := range []string{"twisted:rtt", "twisted:foo:4", "twisted:rtt:1", "twisted:rtt:33x16", "twisted:rtt:32x16x16",
		"twisted:pdtt:204", "twisted:pdtt:x", "twisted:", "twisted:pt:-3"} {
		_, err := Parse(in)
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "twisted:") {
			t.Errorf("Parse(%q): %v; want a one-line error saying what is accepted", in, err)
		}
	}
	// The paper's sizes: 32×16 and 64×32; 32×16×16 and 64×32×32.
	for spec, nodes := range map[string]int{"twisted:rtt:16": 512, "twisted:rt:32": 2048, "twisted:pdtt:16": 8192, "twisted:pt:32": 65536} {
		z, _ := MustParse(spec).Size()
		if z.Switches != int64(nodes) {
			t.Errorf("%s: %d switches, want %d", spec, z.Switches, nodes)
		}
	}
}

// ExampleTwisted prints the neighbours of node 0 in an 8×4 RTT (a = 4): its Y− link
// wraps to the top row shifted by a, node (4, 3) = 4 + 8·3 = 28.
func ExampleTwisted() {
	net, _ := Twisted(KindRTT, 4)
	for p := 0; p < 4; p++ {
		peer := int(net.Port(0, p).Peer)
		fmt.Printf("%s -> %d %v\n", net.PortName(0, p), peer, net.Coord(peer))
	}
	// Output:
	// x+ -> 1 [1 0]
	// x- -> 7 [7 0]
	// y+ -> 8 [0 1]
	// y- -> 28 [4 3]
}
