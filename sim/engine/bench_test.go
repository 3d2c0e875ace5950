package engine

import (
	"testing"
	"time"

	"github.com/twintorus/twintorus/sim/routing"
)

// BenchmarkTorus8x8x8 is the engine's speed target: torus:8x8x8, DOR with 2 dateline
// VCs per link, 4-flit packets, uniform traffic at 0.2 flits/cycle/PE. One op is 1000
// cycles of steady state (after a 5000-cycle warm-up outside the timer), so allocs/op
// is the allocation per 1000 cycles in steady state: it must be 0.
func BenchmarkTorus8x8x8(b *testing.B) {
	p := params(0.2, 0, 1<<40, 1)
	p.External, p.Terminal = Buffer{VCs: 2, Flits: 64}, Buffer{VCs: 2, Flits: 64}
	e := newRun(b, "torus:8x8x8", routing.SchemeVC, "uniform", p)
	for e.now < 5000 {
		e.Step()
	}
	hops0, cycles0 := e.m.flitHops, e.now
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		for end := e.now + 1000; e.now < end; {
			e.Step()
		}
	}
	sec := time.Since(start).Seconds()
	b.StopTimer()
	if e.dl != nil {
		b.Fatal(e.dl)
	}
	b.ReportMetric(float64(e.m.flitHops-hops0)/sec, "flit-hops/s")
	b.ReportMetric(float64(e.now-cycles0)*float64(e.net.Switches())/sec, "switch-cycles/s")
}
