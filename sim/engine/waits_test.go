package engine

import (
	"fmt"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
)

// TestWaitsOut holds the packet level's waits out of allocation and injection
// (verdict, nicRoomAt) to polling, bit for bit: past saturation, where most heads
// and NICs wait for room, under every switch feature that changes when a head may
// start or how credits come back. (CrossbarPerVC, which ReserveOutputVCs and
// ConsumeAll need, keeps polling: waitsOut.)
func TestWaitsOut(t *testing.T) {
	features := []struct {
		name string
		set  func(p *Params)
	}{
		{"defaults", func(p *Params) {}},
		{"latency 3", func(p *Params) { p.LinkLatency = 3 }},
		{"uniform lengths", func(p *Params) { p.PacketFlits, p.PacketLengths = 8, LengthsUniform }},
		{"output queues", func(p *Params) { p.OutputFlits = 8 }},
		{"transit priority", func(p *Params) { p.TransitPriority = true }},
		{"iSLIP", func(p *Params) { p.Allocator = Allocator{ISLIP: true, Iterations: 2} }},
	}
	cases := []struct {
		spec   string
		scheme routing.Scheme
		load   float64
	}{
		{"torus:8x8", routing.SchemeVC, 0.9},
		{"twin:4x4x4/A", routing.SchemeVC, 0.6},
		{"twin:4x4x4/D", routing.SchemeBubble, 0.6},
	}
	for _, f := range features {
		for _, c := range cases {
			what := fmt.Sprintf("%s %s load %g, %s", c.spec, c.scheme, c.load, f.name)
			var waited [2]int64
			run := func(poll bool) *Result {
				p := params(c.load, 300, 1500, 5)
				p.Channels = true
				f.set(&p)
				e := newRun(t, c.spec, c.scheme, "uniform", p)
				e.pollWaits = poll
				r := runClean(t, e)
				if !poll {
					for i := range e.vcs {
						if e.vcs[i].waiter > 0 {
							waited[0]++
						}
					}
					for _, w := range e.nicWait {
						if w > e.now {
							waited[1]++
						}
					}
				}
				return r
			}
			ref := run(true)
			if d := diffFields(*run(false), *ref); d != "" {
				t.Errorf("%s: waiting out of allocation differs from polling in %s", what, d)
			}
			if ref.Accepted >= ref.Offered*0.95 {
				t.Errorf("%s: accepted %.3f of %.3f offered: not saturated, so nothing waits", what, ref.Accepted, ref.Offered)
			}
			if waited[0] == 0 && waited[1] == 0 {
				t.Errorf("%s: at the end no head waited for a ramp and no NIC for room: the test does not reach the waits", what)
			}
		}
	}
}
