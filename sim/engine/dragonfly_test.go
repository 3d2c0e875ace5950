package engine

import (
	"fmt"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/traffic"
)

// Every dragonfly routing with its VC classes runs at offered load 1.0, far past
// saturation, under virtual cut-through and wormhole switching, on uniform and on
// the adversarial group-shift traffic, without deadlock and without its throughput
// falling (no quarter of the run below 80 % of the best); UGAL and PAR read the
// queues through the engine (routing.Chooser).
func TestDragonflyNoDeadlock(t *testing.T) {
	net := topology.MustNew("dragonfly:2")
	for _, name := range []string{"dfmin", "dfval", "dfugal-l", "dfugal-g", "dfpar"} {
		for _, sw := range []Switching{CutThrough, Wormhole} {
			for _, pattern := range []string{"uniform", "groupshift"} {
				t.Run(fmt.Sprintf("%s/%s/%s", name, sw, pattern), func(t *testing.T) {
					t.Parallel()
					rt, err := routing.New(name, net, routing.SchemeNone, routing.TieDefault)
					if err != nil {
						t.Fatal(err)
					}
					p := params(1, 500, 6000, 5).StationaryOff()
					p.Switching = sw
					if sw == Wormhole {
						p.External = Buffer{VCs: rt.VCs(topology.External), Flits: 4}
					}
					pat, err := traffic.ParsePattern(pattern, net)
					if err != nil {
						t.Fatal(err)
					}
					e, err := New(Config{Net: net, Routing: rt, Pattern: pat, Params: p})
					if err != nil {
						t.Fatal(err)
					}
					e.Step()
					acc := acceptedWindows(t, e, p.Warmup+p.Measure, name)
					best := checkThroughputHeld(t, acc, name+" ")
					if best < 0.05 {
						t.Errorf("%s: accepted %.4f at most: the network hardly moves", name, best)
					}
					t.Logf("accepted per window %.4f %.4f %.4f %.4f", acc[0], acc[1], acc[2], acc[3])
				})
			}
		}
	}
}
