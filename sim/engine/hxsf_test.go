package engine

import (
	"fmt"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// HyperX (DOR with trunking, DAL under uniform and the dimension-aligned shift, its
// adversarial pattern) and Slim Fly (MIN, VAL, and UGAL, which reads the queues
// through the engine, also under complement) at offered load 1, past saturation,
// under virtual cut-through and wormhole with their VC schemes: no deadlock, the
// throughput held over four windows, and the same seed giving the same result.
func TestHyperXSlimFlyNoDeadlock(t *testing.T) {
	for _, c := range []struct {
		spec, routing, pattern string
	}{
		{"hyperx:4x4@4/2", "hxdor", "uniform"},
		{"hyperx:4x4@4", "dal", "uniform"},
		{"hyperx:4x4@4", "dal", "shift"},
		{"hyperx:3x3x3@3", "dal", "shift:1"},
		{"slimfly:5", "sfmin", "uniform"},
		{"slimfly:5", "sfval", "uniform"},
		{"slimfly:5", "sfugal", "uniform"},
		{"slimfly:5", "sfugal", "complement"},
	} {
		for _, sw := range []Switching{CutThrough, Wormhole} {
			t.Run(fmt.Sprintf("%s/%s/%s/%s", c.spec, c.routing, c.pattern, sw), func(t *testing.T) {
				net := topology.MustNew(c.spec)
				rt, err := routing.New(c.routing, net, routing.SchemeNone, routing.TieDefault)
				if err != nil {
					t.Fatal(err)
				}
				p := params(1, 1000, 4000, 3).StationaryOff()
				p.Switching = sw
				v := rt.VCs(topology.External)
				p.External = Buffer{VCs: v, Flits: 8 * v}
				p.Terminal = Buffer{VCs: 1, Flits: 8}
				var acc [2]float64
				for i := range acc {
					cfg := Config{Net: net, Routing: rt, Params: p}
					if routing.Selects(rt) {
						sel, err := routing.Selection{Name: routing.DefaultSelection(rt)}.New(net, p.Seed)
						if err != nil {
							t.Fatal(err)
						}
						cfg.Selector = sel
					}
					e := newEngine(t, cfg, c.pattern)
					w := acceptedWindows(t, e, p.Warmup+p.Measure, c.spec)
					checkThroughputHeld(t, w[1:], "")
					acc[i] = w[3]
					t.Logf("accepted per window %.4f %.4f %.4f %.4f", w[0], w[1], w[2], w[3])
				}
				if acc[0] != acc[1] {
					t.Errorf("the same seed accepted %v", acc)
				}
			})
		}
	}
}
