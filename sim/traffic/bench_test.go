package traffic

import (
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

// BenchmarkDest measures one destination per op on a 1024-PE 5DT torus, where every
// pattern applies.
func BenchmarkDest(b *testing.B) {
	net := topology.MustNew("twin:4x4x2x4x4/cbest")
	n := net.Terminals()
	for _, spec := range allSpecs {
		p, err := ParsePattern(spec, net)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(spec, func(b *testing.B) {
			rng := newRNG(1)
			b.ReportAllocs()
			src, sink := 0, 0
			for b.Loop() {
				sink += p.Dest(src, rng)
				if src++; src == n {
					src = 0
				}
			}
			_ = sink
		})
	}
}

func BenchmarkSample(b *testing.B) {
	for _, spec := range []string{"1", "70%x2,30%x8", "1-32"} {
		s, err := ParseSizes(spec)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(spec, func(b *testing.B) {
			rng := newRNG(1)
			b.ReportAllocs()
			for b.Loop() {
				s.Sample(rng)
			}
		})
	}
}

func BenchmarkNextGap(b *testing.B) {
	in, err := NewInjection(0.3, Sizes{}, 4)
	if err != nil {
		b.Fatal(err)
	}
	rng := newRNG(1)
	b.ReportAllocs()
	for b.Loop() {
		in.NextGap(rng)
	}
}
