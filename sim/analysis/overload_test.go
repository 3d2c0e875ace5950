package analysis_test

import (
	"context"
	"testing"

	"github.com/twintorus/twintorus/sim/experiment"
)

// Acceptance (issue 13): the twisted tori under their paper's router (twisted-adaptive:
// a bubble escape VC with dimension order on the record and two fully adaptive VCs,
// the INSEE-like buffers: 16-flit packets, 3 VCs of 4 packets, an 8-packet injection
// queue, transit before injection) and the TCTs under Algorithm R with bubble meta
// rings, driven at twice their saturation throughput (at most 1 flit/cycle/PE, all a PE
// can offer) for 100,000 cycles: no deadlock, the run goes the whole length, and the
// network keeps delivering at least 80 % of its saturation throughput. The channel
// dependency checks are TestTwistedDORDeadlockFree and TestTCTDeadlockFree.
func TestNoDeadlockTwistedAndTCT(t *testing.T) {
	specs := []string{"twisted:rtt:4", "twisted:ptt:4", "twisted:pdtt:4", "twisted:rtt:8", "tct:3,4", "tct:4,3",
		"twisted:ptt:8", "twisted:pdtt:8"}
	if testing.Short() {
		specs = specs[:6] // the two 1,024-node networks take minutes each
	}
	for _, spec := range specs {
		t.Run(spec, func(t *testing.T) {
			t.Parallel()
			p := experiment.NewPoint(spec, 1)
			if spec[:4] == "twis" {
				p.PacketFlits = 16
				p.Terminal.VCs, p.Terminal.Flits = 1, 128
				p.External.VCs, p.External.Flits = 3, 64
				p.TransitPriority = true
			}
			p.Warmup, p.Measure = 2000, 10000
			sat, err := p.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if sat.Deadlock != nil || !sat.Saturated || sat.Accepted <= 0.05 {
				t.Fatalf("saturation run: accepted %.3f, saturated %v, deadlock %v", sat.Accepted, sat.Saturated, sat.Deadlock)
			}
			p.Load, p.Warmup, p.Measure = min(2*sat.Accepted, 1), 0, 100000
			r, err := p.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if r.Deadlock != nil || r.Cycles < 100000 || r.Accepted < 0.8*sat.Accepted {
				t.Fatalf("at %.3f (saturation %.3f): %d cycles, %d packets, accepted %.3f, deadlock %v",
					p.Load, sat.Accepted, r.Cycles, r.PacketsDelivered, r.Accepted, r.Deadlock)
			}
			t.Logf("saturation %.4f flits/cycle/PE; at %.4f: %d cycles, %d packets, accepted %.4f, no deadlock",
				sat.Accepted, p.Load, r.Cycles, r.PacketsDelivered, r.Accepted)
		})
	}
}
