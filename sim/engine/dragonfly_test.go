package engine

import (
	"context"
	"fmt"
	"math"
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

// spyChooser checks what the engine reports of the queues to a Chooser: never below 0
// nor above the port's buffer, and not always 0 under load.
type spyChooser struct {
	*routing.Dragonfly
	t             *testing.T
	limit         int
	nonzero, asks int
}

func (c *spyChooser) Choose(s, in, vc int, h routing.Head, occ routing.Occupancy, out []routing.Candidate) []routing.Candidate {
	return c.Dragonfly.Choose(s, in, vc, h, spyOcc{occ, c}, out)
}

type spyOcc struct {
	routing.Occupancy
	c *spyChooser
}

func (o spyOcc) Used(s, p int) int {
	u := o.Occupancy.Used(s, p)
	if u < 0 || u > o.c.limit {
		o.c.t.Fatalf("switch %d port %d: %d flits used, beyond 0 to %d", s, p, u, o.c.limit)
	}
	o.c.asks++
	if u > 0 {
		o.c.nonzero++
	}
	return u
}

// A Chooser's runs are deterministic and the same on one thread and two (it keeps a
// run on one), and the occupancy it reads stays within the buffers.
func TestDragonflyChooserRuns(t *testing.T) {
	net := topology.MustNew("dragonfly:2")
	run := func(threads int, spy bool) *Result {
		rt, err := routing.New("dfugal-g", net, routing.SchemeNone, routing.TieDefault)
		if err != nil {
			t.Fatal(err)
		}
		p := params(0.5, 500, 3000, 9).StationaryOff()
		p.Threads = threads
		var r routing.Func = rt
		var sc *spyChooser
		if spy {
			sc = &spyChooser{Dragonfly: rt.(*routing.Dragonfly), t: t, limit: p.PortFlits}
			r = sc
		}
		pat, _ := traffic.ParsePattern("groupshift", net)
		e, err := New(Config{Net: net, Routing: r, Pattern: pat, Params: p})
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Run(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if sc != nil && (sc.asks == 0 || sc.nonzero == 0) {
			t.Errorf("the routing asked %d times, %d nonzero", sc.asks, sc.nonzero)
		}
		return res
	}
	a, b, c := run(1, false), run(2, false), run(1, true)
	for i, r := range []*Result{b, c} {
		if r.Accepted != a.Accepted || r.LatencyNetwork.Mean != a.LatencyNetwork.Mean || r.Hops != a.Hops {
			t.Errorf("run %d differs: accepted %v/%v, latency %v/%v", i, a.Accepted, r.Accepted, a.LatencyNetwork.Mean, r.LatencyNetwork.Mean)
		}
	}
}

// An output queue passes a packet on with the tag its routing gave it at the crossbar:
// Valiant packets under the group shift keep to their intermediate group with output
// queues as without (the same hops per packet: the route is the salt's), and the network
// carries the load, where a cleared tag sends them on minimally, through the one global
// link to the next group, and holds the network to 1/(a·p) = 0.125.
func TestOutputQueuesKeepTags(t *testing.T) {
	net := topology.MustNew("dragonfly:2")
	rt, err := routing.New("dfval", net, routing.SchemeNone, routing.TieDefault)
	if err != nil {
		t.Fatal(err)
	}
	var res [2]*Result
	for i, oq := range []int{0, 8} {
		p := params(0.3, 500, 3000, 3).StationaryOff()
		p.OutputFlits = oq
		e := newEngine(t, Config{Net: net, Routing: rt, Params: p}, "groupshift")
		if res[i], err = e.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	plain, queued := res[0], res[1]
	if math.Abs(queued.Hops-plain.Hops) > 0.02*plain.Hops || queued.Hops < 3.5 {
		t.Errorf("hops per packet %.3f with output queues, %.3f without; Valiant routes take about 4", queued.Hops, plain.Hops)
	}
	if queued.Accepted < 0.95*queued.Offered {
		t.Errorf("with output queues accepted %.4f of %.4f offered", queued.Accepted, queued.Offered)
	}
}
