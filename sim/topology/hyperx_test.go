package topology

import (
	"fmt"
	"math/bits"
	"strings"
	"testing"
)

// bfsDiameter is the largest hop distance between two switches, by breadth-first
// search from every switch.
func bfsDiameter(net *Network) int {
	n, diam := net.Switches(), 0
	dist := make([]int, n)
	queue := make([]int, 0, n)
	for s := 0; s < n; s++ {
		for i := range dist {
			dist[i] = -1
		}
		dist[s], queue = 0, append(queue[:0], s)
		for h := 0; h < len(queue); h++ {
			v := queue[h]
			for p := 0; p < net.Ports(v); p++ {
				if u := int(net.Port(v, p).Peer); u >= 0 && dist[u] < 0 {
					dist[u] = dist[v] + 1
					diam = max(diam, dist[u])
					queue = append(queue, u)
				}
			}
		}
	}
	return diam
}

// minBisection enumerates every split of the switches into two halves (sizes ⌊n/2⌋
// and ⌈n/2⌉) and returns the fewest links between them (n ≤ 20).
func minBisection(net *Network) int {
	n := net.Switches()
	best := -1
	for set := uint32(0); set < 1<<n; set++ {
		if c := bits.OnesCount32(set); c != n/2 || set&1 == 0 { // switch 0 in the half: each split once
			continue
		}
		cut := 0
		for i := 0; i < net.Links(); i++ {
			l := net.Link(i)
			if (set>>l.A)&1 != (set>>l.B)&1 {
				cut++
			}
		}
		if best < 0 || cut < best {
			best = cut
		}
	}
	return best
}

// [HX] §3's closed forms on several HyperX: Π S_i switches, T·Π S_i PEs, K·Π S_i·Σ(S_i−1)/2
// links, switches of T + K·Σ(S_i−1) ports, diameter L; the bisection of its formula
// against enumeration where that is feasible.
func TestHyperXCounts(t *testing.T) {
	for _, c := range []struct {
		spec string
		s    []int
		t, k int
	}{
		{"hyperx:4x4x4@4", []int{4, 4, 4}, 4, 1},
		{"hyperx:8x8@8", []int{8, 8}, 8, 1},
		{"hyperx:4x6@2/2", []int{4, 6}, 2, 2},
		{"hyperx:3x5x2/3", []int{3, 5, 2}, 1, 3},
		{"hyperx:7", []int{7}, 1, 1},
	} {
		net := MustNew(c.spec)
		sw, sum := 1, 0
		for _, s := range c.s {
			sw *= s
			sum += s - 1
		}
		if net.Switches() != sw || net.Terminals() != c.t*sw || net.Links() != c.k*sw*sum/2 {
			t.Errorf("%s: %d switches, %d PEs, %d links; want %d, %d, %d", c.spec, net.Switches(), net.Terminals(), net.Links(), sw, c.t*sw, c.k*sw*sum/2)
		}
		for s := 0; s < net.Switches(); s++ {
			if net.Ports(s) != c.t+c.k*sum {
				t.Fatalf("%s: switch %d has %d ports, want T + K·Σ(S_i−1) = %d", c.spec, s, net.Ports(s), c.t+c.k*sum)
			}
		}
		if d := bfsDiameter(net); d != len(c.s) {
			t.Errorf("%s: diameter %d, want %d", c.spec, d, len(c.s))
		}
		if net.Dims() != len(c.s) || net.Radix(0) != c.s[0] {
			t.Errorf("%s: grid %v", c.spec, net.Radices())
		}
	}
}

// The bisection of [HX]'s formula is the minimum bisection, by enumeration of every
// halving, on HyperX small enough to enumerate; and the formula on larger ones.
func TestHyperXBisection(t *testing.T) {
	for _, c := range []struct {
		spec string
		want int64
	}{
		{"hyperx:4x4", 16},    // K·P·S/4 = 16·4/4
		{"hyperx:2x2x2", 4},   // 8·2/4
		{"hyperx:4x2/2", 8},   // min(2·8·4/4, 2·8·2/4) = 8
		{"hyperx:4x3", 12},    // only S=4 is even: 12·4/4
		{"hyperx:2x6@3", 6},   // min(12·2/4, 12·6/4)
		{"hyperx:8x8@8", 128}, // 64·8/4 (formula only)
	} {
		net := MustNew(c.spec)
		l, err := net.Spec().HyperX()
		if err != nil {
			t.Fatal(err)
		}
		b, ok := l.Bisection()
		if !ok || b != c.want {
			t.Errorf("%s: bisection %d (%v), want %d", c.spec, b, ok, c.want)
		}
		if net.Switches() <= 16 {
			if got := minBisection(net); int64(got) != b {
				t.Errorf("%s: enumeration finds a bisection of %d links, the formula %d", c.spec, got, b)
			}
		}
	}
	if _, ok := MustNew("hyperx:3x5").Spec().HyperX(); ok != nil {
		t.Fatal(ok)
	}
	if l, _ := MustNew("hyperx:3x5").Spec().HyperX(); func() bool { _, ok := l.Bisection(); return ok }() {
		t.Error("hyperx:3x5 has no even dimension, yet a bisection formula")
	}
}

// Spec strings: canonical forms, and clear errors for impossible ones.
func TestHyperXSpecs(t *testing.T) {
	for in, want := range map[string]string{
		"hyperx:4x4x4@4":   "hyperx:4x4x4@4",
		"HYPERX: 8x8 @ 1":  "hyperx:8x8",
		"hyperx:4x6@2/1":   "hyperx:4x6@2",
		"hyperx:4x6@2/ 2 ": "hyperx:4x6@2/2",
	} {
		s, err := Parse(in)
		if err != nil || s.String() != want {
			t.Errorf("%q parses to %q (%v), want %q", in, s, err, want)
		}
	}
	for in, msg := range map[string]string{
		"hyperx:":            "no shape",
		"hyperx:4x1":         "accepted are 2 to",
		"hyperx:4x4/0":       "bad trunking",
		"hyperx:4x4/17":      "bad trunking",
		"hyperx:4x4@0":       "bad PEs per switch",
		"hyperx:4x4/x":       "bad trunking",
		"hyperx:65536x4/16":  "ports",
		"hyperx:4096x4096x4": "more than",
	} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: error %v, want one saying %q", in, err, msg)
		}
	}
	// Sizes agree with the built network.
	for _, spec := range []string{"hyperx:4x6@2/2", "hyperx:3x5x2/3", "flatfly:4,3@4", "slimfly:5", "slimfly:8@3"} {
		s := MustParse(spec)
		z, _ := s.Size()
		b := MustNew(spec).Size()
		if b.Switches != z.Switches || b.Terminals != z.Terminals || b.External != z.External || b.TerminalPorts != z.TerminalPorts || b.Internal != z.Internal {
			t.Errorf("%s: size from the spec %+v, from the network %+v", spec, z, b)
		}
	}
}

// A flatfly is the HyperX of equal sizes: same ports, same links, in the same order.
func TestFlatFlyIsHyperX(t *testing.T) {
	for _, c := range [][2]string{{"flatfly:4,3@4", "hyperx:4x4x4@4"}, {"flatfly:3,2", "hyperx:3x3"}} {
		f, h := MustNew(c[0]), MustNew(c[1])
		if f.Links() != h.Links() || f.TotalPorts() != h.TotalPorts() {
			t.Fatalf("%s and %s differ in size", c[0], c[1])
		}
		for i := 0; i < f.Links(); i++ {
			if f.Link(i) != h.Link(i) {
				t.Fatalf("%s link %d %+v, %s %+v", c[0], i, f.Link(i), c[1], h.Link(i))
			}
		}
		for s := 0; s < f.Switches(); s++ {
			for p := 0; p < f.Ports(s); p++ {
				if f.PortName(s, p) != h.PortName(s, p) {
					t.Fatalf("switch %d port %d: %s vs %s", s, p, f.PortName(s, p), h.PortName(s, p))
				}
			}
		}
	}
	if fmt.Sprint(MustNew("hyperx:4x4/2").PortName(0, 1)) != "d0=1#1" {
		t.Errorf("trunk port name %q", MustNew("hyperx:4x4/2").PortName(0, 1))
	}
}
