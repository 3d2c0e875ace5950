package analysis_test

import (
	"context"
	"os"
	"testing"

	"github.com/twintorus/twintorus/sim/engine"
	"github.com/twintorus/twintorus/sim/experiment"
)

// Acceptance (issue 13): the twisted tori under their paper's router as the notebook
// runs it (twisted-adaptive:ties=random: a bubble escape VC with dimension order on the
// record and two fully adaptive VCs, random selection, with the insee switch preset:
// 16-flit packets, 3 VCs of 4 packets, an 8-packet injection queue, transit before
// injection, a crossbar input per VC, output VC reservation, multiple consumption) and
// the TCTs under Algorithm R with bubble meta rings, driven at twice their saturation throughput (at most 1 flit/cycle/PE, all a PE
// can offer) for 100,000 cycles: no deadlock, the run goes the whole length, and the
// network keeps delivering at least 80 % of its saturation throughput. The channel
// dependency checks are TestTwistedDORDeadlockFree and TestTCTDeadlockFree.
//
// The acceptance runs take about five minutes of CPU (the two 1,024-node networks most
// of it): TWINTORUS_LONG=1 runs them. By default (make test) the six smaller networks
// run 20,000 cycles each at twice saturation, and -short skips the test.
func TestNoDeadlockTwistedAndTCT(t *testing.T) {
	specs := []string{"twisted:rtt:4", "twisted:ptt:4", "twisted:pdtt:4", "twisted:rtt:8", "tct:3,4", "tct:4,3",
		"twisted:ptt:8", "twisted:pdtt:8"}
	cycles := int64(100000)
	switch {
	case os.Getenv("TWINTORUS_LONG") == "1":
	case testing.Short():
		t.Skip("minutes of CPU; TWINTORUS_LONG=1 runs the 100,000-cycle acceptance runs")
	default:
		specs, cycles = specs[:6], 20000
	}
	for _, spec := range specs {
		t.Run(spec, func(t *testing.T) {
			t.Parallel()
			routing := ""
			if spec[:4] == "twis" {
				routing = "twisted-adaptive:ties=random"
			}
			overload(t, spec, routing, "uniform", cycles)
		})
	}
}

// INSEE's escape-return (twisted-adaptive:return, issue 38) under the same acceptance:
// the twisted tori of 128 nodes and the 8×4×4 ones at twice their saturation
// throughput, under uniform traffic and bit-reversal (its PEs: 2^b with b odd or even),
// 20,000 cycles (100,000 with TWINTORUS_LONG=1). The channel dependency check is
// TestDuatoConditionCutThrough.
func TestNoDeadlockTwistedReturn(t *testing.T) {
	cycles := int64(20000)
	switch {
	case os.Getenv("TWINTORUS_LONG") == "1":
		cycles = 100000
	case testing.Short():
		t.Skip("a minute of CPU; TWINTORUS_LONG=1 runs 100,000 cycles")
	}
	for _, c := range []struct{ spec, traffic string }{
		{"twisted:rtt:8", "uniform"}, {"twisted:rtt:8", "bitrev"}, {"twisted:rt:8", "bitrev"},
		{"twisted:pdtt:4", "uniform"}, {"twisted:ptt:4", "bitrev"},
	} {
		t.Run(c.spec+" "+c.traffic, func(t *testing.T) {
			t.Parallel()
			overload(t, c.spec, "twisted-adaptive:return,ties=random", c.traffic, cycles)
		})
	}
}

// overload finds a network's saturation throughput under a traffic pattern (offered
// 1 flit/cycle/PE) and drives it at twice that (at most 1) for the given cycles: no
// deadlock, the run goes the whole length, and the network keeps delivering at least
// 80 % of its saturation throughput. A routing ("" for the network's default) on a
// twisted torus runs under the insee preset with random selection.
func overload(t *testing.T, spec, routing, traffic string, cycles int64) {
	t.Helper()
	p := experiment.NewPoint(spec, 1)
	if routing != "" {
		insee, err := engine.LookupPreset("insee")
		if err != nil {
			t.Fatal(err)
		}
		p.Params = insee.Params()
		p.Load = 1 // the preset leaves the load at 0
		p.Routing, p.Selection = routing, "random"
	}
	p.Traffic = traffic
	p.Warmup, p.Measure = 2000, 10000
	sat, err := p.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if sat.Deadlock != nil || !sat.Saturated || sat.Accepted <= 0.05 {
		t.Fatalf("saturation run: accepted %.3f, saturated %v, deadlock %v", sat.Accepted, sat.Saturated, sat.Deadlock)
	}
	p.Load, p.Warmup, p.Measure = min(2*sat.Accepted, 1), 0, cycles
	r, err := p.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r.Deadlock != nil || r.Cycles < cycles || r.Accepted < 0.8*sat.Accepted {
		t.Fatalf("at %.3f (saturation %.3f): %d cycles, %d packets, accepted %.3f, deadlock %v",
			p.Load, sat.Accepted, r.Cycles, r.PacketsDelivered, r.Accepted, r.Deadlock)
	}
	t.Logf("%s %s: saturation %.4f flits/cycle/PE; at %.4f: %d cycles, %d packets, accepted %.4f, no deadlock",
		r.Routing, traffic, sat.Accepted, p.Load, r.Cycles, r.PacketsDelivered, r.Accepted)
}
