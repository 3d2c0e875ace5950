package engine

import (
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// A run tabulates DOR/DORT's decisions once it has made as many as the table has
// entries (routing.Deterministic.CacheRoutes), and its results are the same as when
// the routing was tabulated before the first cycle: the golden results, made before
// the table existed, hold the same for runs that start without it.
func TestRouteCacheMidRun(t *testing.T) {
	for _, c := range []struct {
		spec   string
		scheme routing.Scheme
		flits  bool
	}{{"twin:4x4x4/D", routing.SchemeBubble, false}, {"torus:8x8", routing.SchemeVC, false}, {"twin:4x4x2/A", routing.SchemeVC, true}} {
		run := func(before bool) (*Engine, *Result) {
			net := topology.MustNew(c.spec)
			rt := routing.NewDeterministic(net, c.scheme, routing.TiePlus)
			if before {
				rt.CacheRoutes()
			}
			p := params(0.35, 1000, 4000, 7)
			if c.flits {
				smallWormhole(&p)
			}
			e := newEngine(t, Config{Net: net, Routing: rt, Params: p}, "uniform")
			if e.routeCache == nil {
				t.Fatalf("%s: the engine will not tabulate the routing", c.spec)
			}
			return e, runClean(t, e)
		}
		e, mid := run(false)
		if e.routeCache != nil {
			t.Errorf("%s: not tabulated after %d delivered hops (the table has %d entries)", c.spec, e.hopsDone, e.routeCacheAt)
		}
		if e.hopsDone < 2*e.routeCacheAt {
			t.Errorf("%s: %d hops, fewer than twice the table's %d entries: the run did little with it", c.spec, e.hopsDone, e.routeCacheAt)
		}
		_, before := run(true)
		if d := diffFields(*mid, *before); d != "" {
			t.Errorf("%s: tabulated mid-run and before the first cycle differ: %s", c.spec, d)
		}
	}
}
