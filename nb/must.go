package nb

import (
	"context"
	"fmt"

	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/engine"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// Must returns v, or panics with err: the one-line form of any library call that
// returns a value and an error,
//
//	rep := nb.Must(analysis.CheckCDG(net, rt, nil))
//
// The panic is err itself; the library's errors say what was wrong and what is
// accepted.
func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Must2 is Must for calls that return two values and an error,
//
//	ranked, transit := nb.Must2(analysis.RankConfigurations([]int{4, 4, 4}, routing.TiePlus))
func Must2[A, B any](a A, b B, err error) (A, B) {
	if err != nil {
		panic(err)
	}
	return a, b
}

// Check panics with err when it is not nil: Must for calls that return only an error,
//
//	nb.Check(fig.Save("latency.pdf", 3.5*72, 2.4*72))
func Check(err error) {
	if err != nil {
		panic(err)
	}
}

// Net builds the network a topology spec string names (topology.New): twin:4x4x4/D,
// torus:16x8, ... It panics on a bad spec, with the families and examples accepted.
func Net(spec string) *topology.Network {
	net, err := topology.New(spec)
	if err != nil {
		panic(fmt.Errorf("nb.Net: %w", err))
	}
	return net
}

// Distances is the exact PE-to-PE distance statistics of net (analysis.Distances):
// diameter, average distance and the histogram, in switch-to-switch hops.
func Distances(net *topology.Network) *analysis.DistanceStats {
	d, err := analysis.Distances(context.Background(), net)
	if err != nil {
		panic(fmt.Errorf("nb.Distances: %w", err))
	}
	return d
}

// ChannelLoad is the exact uniform-traffic channel load of dimension-order routing on
// net (analysis.Load with DOR, DORT on twin tori, ties at k/2 in the + direction: the
// 3DT papers' method). Its Bound is the injection rate at which the busiest channel
// saturates. It panics on a network DOR does not route; for those, and for other
// routings, call analysis.Load with the routing.
func ChannelLoad(net *topology.Network) *analysis.ChannelLoad {
	for _, name := range []string{"dor", "dort"} {
		if def, _, ok := routing.LookupRouting(name); ok && def.Fits(net) == nil {
			l, err := analysis.Load(context.Background(), routing.NewDOR(net, routing.TiePlus))
			if err != nil {
				panic(fmt.Errorf("nb.ChannelLoad: %w", err))
			}
			return l
		}
	}
	panic(fmt.Errorf("nb.ChannelLoad: %s: dimension-order routing (dor, dort) does not route it; call analysis.Load with its routing", net))
}

// Point is one simulation of the network spec names with the model's defaults
// (experiment.NewPoint): bubble flow control, the network's own routing, uniform
// traffic at load flits/cycle/PE, one-packet messages and the model's engine
// parameters. Change its fields before Run.
func Point(spec string, load float64) experiment.Point {
	return experiment.NewPoint(spec, load)
}

// Run simulates p (experiment.Point.Run) and returns its result; the same point gives
// the same result, bit for bit. It panics when p is not valid (naming the field and
// what is accepted) or the run fails; a deadlock is a result, not a failure.
func Run(p experiment.Point) *engine.Result {
	r, err := p.Run(context.Background())
	if err != nil {
		panic(fmt.Errorf("nb.Run: %w", err))
	}
	return r
}
