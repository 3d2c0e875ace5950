package analysis

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// ChannelLoad is the uniform-traffic load of a deterministic routing (DOR, DORT on twin
// tori) at PE level: every PE sends to each of the other N−1 PEs at the same rate,
// along its single route.
type ChannelLoad struct {
	PEs int
	// MaxRoutes is the largest number of routes on one switch-to-switch channel, and
	// MaxInternal and MaxExternal the largest on an internal and an external channel.
	MaxRoutes, MaxInternal, MaxExternal int64
	// ChannelBound = (N−1)/MaxRoutes flits/cycle/PE: at that injection rate the busiest
	// channel carries 1 flit/cycle. Bound also applies the terminal channel's limit of
	// 1 flit/cycle/PE: Bound = min(1, ChannelBound).
	ChannelBound, Bound float64
	// AvgHops is the mean route length in switch-to-switch hops over ordered pairs of
	// distinct PEs, split into external links and internal links; MaxHops the longest.
	AvgHops, AvgExternalHops, AvgInternalHops float64
	MaxHops                                   int
	// Symmetric is true when the counts came from one node's sources and translation
	// symmetry, false when every PE was routed to every PE.
	Symmetric bool

	net    *topology.Network
	routes []int64 // by channel key: see key()
	offset []int   // symmetric: first key of each card
}

// Routes is the number of routes leaving switch s by port p: the load of that channel
// (for a terminal port, the ejection channel).
func (l *ChannelLoad) Routes(s, p int) int64 {
	if l.Symmetric {
		return l.routes[l.offset[l.net.Card(s)]+p]
	}
	return l.routes[l.net.PortID(s, p)]
}

// Load computes the uniform-traffic channel loads of a deterministic routing r (DOR,
// or the first choices of min, updown or a table). DOR on tori and twin tori is
// translation invariant, so only the PEs of node 0 are routed, to every PE, and a
// channel's load is the sum over all its translates; other networks and routings route
// every ordered pair, unless the routing says its paths are translation invariant too
// (PathsTranslationInvariant, as TSDOR's are). Work is spread over all cores; counts are exact
// integers, so the result does not depend on the number of cores.
func Load(ctx context.Context, r routing.Pather) (*ChannelLoad, error) {
	_, dor := r.(*routing.DOR)
	ti, _ := r.(interface{ PathsTranslationInvariant() bool })
	return load(ctx, r, dor && r.Network().Translational() || ti != nil && ti.PathsTranslationInvariant())
}

// LoadAllPairs is Load routing every ordered pair of PEs, with no symmetry: the
// reference the tests compare Load with.
func LoadAllPairs(ctx context.Context, r routing.Pather) (*ChannelLoad, error) {
	return load(ctx, r, false)
}

// routeJob routes source src to destinations [lo, hi).
type routeJob struct{ src, lo, hi int }

type loadSums struct {
	routes              []int64
	hops, internal, max int64
}

func load(ctx context.Context, r routing.Pather, symmetric bool) (*ChannelLoad, error) {
	net := r.Network()
	n := net.Terminals()
	l := &ChannelLoad{PEs: n, Symmetric: symmetric, net: net}
	var sources []int
	keys := net.TotalPorts()
	if symmetric { // keys are (card, port): one per channel of node 0
		l.offset = make([]int, net.SwitchesPerNode())
		keys = 0
		for c := 0; c < net.SwitchesPerNode(); c++ {
			s := net.Switch(0, c)
			l.offset[c] = keys
			keys += net.Ports(s)
			for p := 0; p < net.Ports(s); p++ {
				if pt := net.Port(s, p); pt.Kind == topology.Terminal {
					sources = append(sources, int(pt.Terminal))
				}
			}
		}
	} else {
		for t := 0; t < n; t++ {
			sources = append(sources, t)
		}
	}
	const chunk = 4096
	var jobs []routeJob
	for _, s := range sources {
		for lo := 0; lo < n; lo += chunk {
			jobs = append(jobs, routeJob{s, lo, min(lo+chunk, n)})
		}
	}
	key := func(s, p int) int {
		if symmetric {
			return l.offset[net.Card(s)] + p
		}
		return net.PortID(s, p)
	}
	workers := max(1, min(runtime.GOMAXPROCS(0), len(jobs)))
	sums := make([]loadSums, workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acc := loadSums{routes: make([]int64, keys)}
			var buf []routing.Step
			for {
				i := int(next.Add(1) - 1)
				if i >= len(jobs) || ctx.Err() != nil {
					break
				}
				j := jobs[i]
				for dst := j.lo; dst < j.hi; dst++ {
					if dst == j.src {
						continue
					}
					buf = r.Path(j.src, dst, buf[:0])
					for _, st := range buf {
						acc.routes[key(st.Switch, st.Port)]++
						if net.Port(st.Switch, st.Port).Kind == topology.Internal {
							acc.internal++
						}
					}
					h := int64(len(buf) - 1) // the last step is the ejection
					acc.hops += h
					acc.max = max(acc.max, h)
				}
			}
			sums[w] = acc
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("channel load of %s: %w", net, err)
	}
	l.routes = make([]int64, keys)
	var hops, internal int64
	for _, s := range sums {
		for k, v := range s.routes {
			l.routes[k] += v
		}
		hops += s.hops
		internal += s.internal
		l.MaxHops = max(l.MaxHops, int(s.max))
	}
	if symmetric { // every node's sources load the network like node 0's, translated
		hops *= int64(net.Nodes())
		internal *= int64(net.Nodes())
	}
	l.scan()
	if n > 1 {
		pairs := float64(n) * float64(n-1)
		l.AvgHops = float64(hops) / pairs
		l.AvgInternalHops = float64(internal) / pairs
		l.AvgExternalHops = float64(hops-internal) / pairs
	}
	l.ChannelBound = math.Inf(1)
	if l.MaxRoutes > 0 {
		l.ChannelBound = float64(n-1) / float64(l.MaxRoutes)
	}
	l.Bound = math.Min(1, l.ChannelBound)
	return l, nil
}

// scan finds the busiest switch-to-switch channels.
func (l *ChannelLoad) scan() {
	net := l.net
	switches := net.Switches()
	if l.Symmetric {
		switches = net.SwitchesPerNode() // node 0 stands for every node
	}
	for s := 0; s < switches; s++ {
		for p := 0; p < net.Ports(s); p++ {
			pt := net.Port(s, p)
			if !pt.Connected() {
				continue
			}
			v := l.Routes(s, p)
			l.MaxRoutes = max(l.MaxRoutes, v)
			if pt.Kind == topology.Internal {
				l.MaxInternal = max(l.MaxInternal, v)
			} else {
				l.MaxExternal = max(l.MaxExternal, v)
			}
		}
	}
}
