package engine

import (
	"fmt"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
)

// TestWheelReachesEveryEvent holds runs to the same runs on a timing wheel far longer
// than any event's distance: an event beyond the wheel's reach would come round early
// (a head leaving before it has arrived, a switch woken early and then not at all). Under
// ReserveOutputVCs a link's packets are granted up to one per output VC ahead of their
// departure, which pushes their arrivals that far ahead; the insee preset's 16-flit
// packets on 3 VCs per link take events 64 cycles ahead and more.
func TestWheelReachesEveryEvent(t *testing.T) {
	cases := []struct {
		name string
		p    Params
	}{
		{"insee, output VCs reserved", inseeParams(0.6, 1000, 3000, true, true)},
		{"insee, output ports arbitrated", inseeParams(0.6, 1000, 3000, true, false)},
		{"insee, reserved, latency 3 and credits back in 3", func() Params {
			p := inseeParams(0.6, 1000, 3000, true, true)
			p.LinkLatency = 3
			return p
		}()},
		{"defaults, uniform lengths", func() Params {
			p := params(0.9, 1000, 3000, 3)
			p.PacketFlits, p.PacketLengths = 8, LengthsUniform
			return p
		}()},
	}
	for _, c := range cases {
		run := func(wheel int) (*Result, int) {
			e := newRunRouting(t, "twisted:rtt:8", "twisted-adaptive", routing.SchemeBubble, "uniform", c.p)
			n := len(e.wheel)
			if wheel > 0 {
				if e.pending != 0 {
					t.Fatalf("%s: %d events before the run", c.name, e.pending)
				}
				e.wheel, e.wmask = make([][]uint32, wheel), int64(wheel-1)
			}
			return runClean(t, e), n
		}
		got, n := run(0)
		long, _ := run(4096)
		if d := diffFields(*got, *long); d != "" {
			t.Errorf("%s: a %d-cycle wheel gives other results than a 4,096-cycle one in %s", c.name, n, d)
		}
		t.Log(fmt.Sprintf("%s: wheel %d, accepted %.4f", c.name, n, got.Accepted))
	}
}
