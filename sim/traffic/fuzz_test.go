package traffic

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

func FuzzParsePattern(f *testing.F) {
	// PE counts: 8 (power of two), 15 (odd, neither), 36 (square), 64 (both), 128 (twin).
	nets := []*topology.Network{
		topology.MustNew("torus:8"), topology.MustNew("mesh:3x5"), topology.MustNew("torus:6x6"),
		topology.MustNew("torus:4x8@2"), topology.MustNew("twin:4x4x4/D"),
	}
	for i, s := range append(allSpecs, "zipf", "zipf:1.0", "zipf:0.5/offset", "Neighbour", " BITREV ",
		"hotspot:25%", "hotspot:0.1@0,2-3", "hotspot:0.1@5%", "hotspot:0.1@1,1", "hotspot:0.1@", "zipf:1e400",
		"uniform:", "hotspot:0x1p-2", "hotspot:1@0-7", "zipf:nan", "tornado:1", ":", "hotspot:1@-", "pairs:1>2,2>1", "pairs:0>0", "pairs:3>4,3>5", "pairs:", "pairs:1>",
		"bitrev/yx", "complement/ yx", "transpose/10", "hotspot:0.1@5%/random", "hotspot:0.1@5%/x", "hotspot:0.1@5%/", "tornado/yx", "bitrev/", "/yx") {
		f.Add(s, uint8(i))
	}
	f.Fuzz(func(t *testing.T, spec string, which uint8) {
		net := nets[int(which)%len(nets)]
		p, err := ParsePattern(spec, net)
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, fmt.Sprintf("traffic pattern %q: ", spec)) {
				t.Fatalf("error is not one line naming the spec: %q", msg)
			}
			return
		}
		q, err := ParsePattern(p.Name(), net)
		if err != nil || q.Name() != p.Name() {
			t.Fatalf("%q prints as %q, which parses to %v, %v", spec, p.Name(), q, err)
		}
		n := net.Terminals()
		if s := Silent(p); s < 0 || s > n {
			t.Fatalf("%q: Silent = %d for %d PEs", spec, s, n)
		}
		rng := newRNG(uint64(len(spec)))
		for src := range n {
			if d := p.Dest(src, rng); d == src || d < -1 || d >= n {
				t.Fatalf("%q on %s: Dest(%d) = %d", spec, net, src, d)
			}
		}
	})
}

func FuzzParseSizes(f *testing.F) {
	for _, s := range []string{"1", "4", "1-32", "70%x1,30%x3", "70%x2,30%x8", "50%x1,50%x4-8", "100%x3",
		"70% x 2 , 30%X8", "", "0", "5-3", "70%x1,20%x3", "70%1", "%x1", "nan%x1", "1e2%x1", "1,2",
		"33.3333333%x1,33.3333333%x2,33.3333334%x3", "1-1048576", "1048577", "-", ",", "x", "50%x1,50%x1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		s, err := ParseSizes(spec)
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, fmt.Sprintf("message sizes %q: ", spec)) {
				t.Fatalf("error is not one line naming the spec: %q", msg)
			}
			return
		}
		r, err := ParseSizes(s.String())
		if err != nil || r.String() != s.String() || r.Mean() != s.Mean() {
			t.Fatalf("%q prints as %q, which parses to %v (mean %g, want %g), %v", spec, s, r, r.Mean(), s.Mean(), err)
		}
		if m := s.Mean(); math.IsNaN(m) || m < 1 || m > float64(s.Max()) || s.Max() > MaxPackets {
			t.Fatalf("%q: mean %g, max %d", spec, m, s.Max())
		}
		rng := newRNG(7)
		for range 20 {
			if k := s.Sample(rng); k < 1 || k > s.Max() {
				t.Fatalf("%q: sampled %d packets, max %d", spec, k, s.Max())
			}
		}
	})
}
