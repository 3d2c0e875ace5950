package analysis

import (
	"math/big"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/traffic"
)

// permBound is the PermutationBound of a traffic pattern on a twisted torus.
func permBound(t *testing.T, spec, pattern string) *PermutationBound {
	t.Helper()
	net := topology.MustNew(spec)
	p, err := traffic.ParsePattern(pattern, net)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := TwistedPermutationBound(net, func(src int) int { return p.Dest(src, nil) })
	if err != nil {
		t.Fatal(err)
	}
	return pb
}

// How node ids are laid over the 32×16 RT and RTT decides bit-reversal's bound, and
// with it the RTT's gain that [TT] Fig. 12a can show (+41.1 %): numbered x + 32y (x
// fastest, the default, which the paper's hot region implies) the RTT's bound is 17/15 =
// 1.13 times the RT's; numbered y + 16x (bitrev/yx) 256/183 = 1.40. Exact values, over
// the 480 PEs bit-reversal does not fix: x fastest, the RT's busiest classes (X) carry
// 1,360 hops and the RTT's 1,200 (every class); y fastest, the RT's X classes 2,048 and
// the RTT's Y classes 1,464. Bit-complement and perfect shuffle do not depend on the
// order (1.488 and 1.506 either way): y + 16x is x + 32y with its 9 bits rotated, which
// a complement or a rotation of the bits commutes with.
func TestTwistedNumberingBound(t *testing.T) {
	ratio := func(pattern string) *big.Rat {
		rt, rtt := permBound(t, "twisted:rt:16", pattern), permBound(t, "twisted:rtt:16", pattern)
		return new(big.Rat).Quo(rtt.BoundRat, rt.BoundRat)
	}
	for _, c := range []struct {
		pattern         string
		rt, rtt, ratio  *big.Rat
		ratioF          float64
		rtHops, rttHops float64
	}{
		{"bitrev", big.NewRat(512, 1360), big.NewRat(512, 1200), big.NewRat(17, 15), 1.1333, 1360, 1200},
		{"bitrev/yx", big.NewRat(512, 2048), big.NewRat(512, 1464), big.NewRat(256, 183), 1.3989, 2048, 1464},
	} {
		rt, rtt := permBound(t, "twisted:rt:16", c.pattern), permBound(t, "twisted:rtt:16", c.pattern)
		r := new(big.Rat).Quo(rtt.BoundRat, rt.BoundRat)
		f, _ := r.Float64()
		if rt.BoundRat.Cmp(c.rt) != 0 || rtt.BoundRat.Cmp(c.rtt) != 0 || r.Cmp(c.ratio) != 0 || f < c.ratioF-5e-5 || f > c.ratioF+5e-5 {
			t.Errorf("%s: RT %s, RTT %s, ratio %s = %.4f; want %s, %s, %s = %.4f", c.pattern, rt.BoundRat.RatString(), rtt.BoundRat.RatString(), r.RatString(), f,
				c.rt.RatString(), c.rtt.RatString(), c.ratio.RatString(), c.ratioF)
		}
		if maxHops(rt) != c.rtHops || maxHops(rtt) != c.rttHops || rt.Pairs != 480 || rtt.Pairs != 480 {
			t.Errorf("%s: busiest classes %g and %g hops, %d and %d senders", c.pattern, maxHops(rt), maxHops(rtt), rt.Pairs, rtt.Pairs)
		}
	}
	for _, pattern := range []string{"complement", "shuffle"} {
		if a, b := ratio(pattern), ratio(pattern+"/yx"); a.Cmp(b) != 0 {
			t.Errorf("%s: ratio %s numbered x fastest, %s y fastest", pattern, a.RatString(), b.RatString())
		}
	}
	// The machinery against a count by hand: complement on the RT moves x to 31 − x, an
	// odd displacement |31 − 2x| whose ring distance min(v, 32 − v) sums to 256 over a
	// row, 4,096 X hops over 16 rows, half each way (odd distances on even rings have no
	// ties); y to 15 − y, 64 per column, 2,048 Y hops over 32 columns.
	if pb := permBound(t, "twisted:rt:16", "complement"); pb.ClassHops[0][0] != 2048 || pb.ClassHops[0][1] != 2048 || pb.ClassHops[1][0] != 1024 {
		t.Errorf("complement on the RT: class hops %v", pb.ClassHops)
	}
}

func maxHops(pb *PermutationBound) float64 {
	m := 0.0
	for _, c := range pb.ClassHops {
		m = max(m, c[0], c[1])
	}
	return m
}
