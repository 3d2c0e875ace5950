package analysis

import (
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// A dragonfly's global-link arrangement decides which router of a group holds the link
// to which other group. Under minimal routing it does not matter for a group shift
// (groupshift:K, every PE of group i to a random PE of group i+K): every arrangement
// sends a group's a·p PEs over its one link to group i+K (a·p routes per unit of
// injection on that link, 1/(a·p) of injection accepted) and p on the local links
// that lead to and from it. Under Valiant routing a packet crosses an intermediate
// group, entering at the router that holds the link from its source group and leaving
// from the router that holds the link to its destination group, and there the
// arrangement decides whether two such routers coincide for many packets at once.
// rankDragonfly counts it exactly.

// valiantShiftRoutes counts the routes of Valiant routing under groupshift:k on every
// channel (routes[net.PortID]) of a dragonfly: one route per source PE, destination PE
// of group (c+k) mod G, intermediate group (neither's) and parallel global link (the
// salt's k-th), so that every source PE has A·P·(G−2)·M routes, and a channel's routes
// over that are its load in flits/cycle when every PE injects one. Routes depend on the
// routers alone (routing.Dragonfly is source-independent), so each pair of routers is
// followed once and counted P·P times. It returns the busiest channel's routes.
func valiantShiftRoutes(net *topology.Network, rt *routing.Dragonfly, l topology.Dragonfly, k int, routes []int64) (int64, error) {
	clear(routes)
	m := l.M()
	term0 := l.A - 1 + l.H
	weight := int64(l.P) * int64(l.P)
	var buf [8]routing.Candidate
	for src := 0; src < net.Switches(); src++ {
		c := src / l.A
		d := (c + k) % l.G
		for dr := 0; dr < l.A; dr++ {
			dst := (d*l.A + dr) * l.P // the destination router's first PE
			for i := 0; i < l.G; i++ {
				if i == c || i == d {
					continue
				}
				for salt := 0; salt < m; salt++ {
					s, in := src, term0
					h := routing.Head{Dst: int32(dst), Tag: uint8(i + 1), Salt: uint32(salt)}
					for hop := 0; ; hop++ {
						if hop > 6 {
							return 0, fmt.Errorf("%s: the Valiant route from router %d to router %d through group %d does not arrive", net, src, d*l.A+dr, i)
						}
						cand := rt.Choose(s, in, 0, h, idle{}, buf[:0]) // the salt's link, where several join two groups
						pt := net.Port(s, int(cand[0].Port))
						if pt.Kind == topology.Terminal {
							break
						}
						routes[net.PortID(s, int(cand[0].Port))] += weight
						s, in, h.Tag = int(pt.Peer), int(pt.PeerPort), cand[0].Tag
					}
				}
			}
		}
	}
	return slices.Max(routes), nil
}

// idle is a network whose queues are all empty: Choose then follows a tagged packet's
// route, which reads no queue.
type idle struct{}

func (idle) Used(int, int) int { return 0 }

// rankDragonfly ranks a dragonfly's global-link arrangements by the busiest channel of
// Valiant routing under the worst group shift: for every K from 1 to G−1, the routes
// on every channel under groupshift:K (valiantShiftRoutes), and the most of any
// channel at any K. Total is the routes of one source PE, A·P·(G−2)·M, so that
// Crossing/Total is the busiest channel's load per unit of injection and Total/Crossing
// the injection rate at which Valiant routing saturates under that shift.
func rankDragonfly(variants []topology.Spec) (*Ranking, error) {
	out := make([]Ranked, len(variants))
	for i, v := range variants {
		net, err := topology.Build(v)
		if err != nil {
			return nil, fmt.Errorf("ranking %s: %w", v, err)
		}
		l, err := v.Dragonfly()
		if err != nil {
			return nil, err
		}
		rt, err := routing.NewDragonfly(net, routing.DFVal, routing.DragonflyOptions{})
		if err != nil {
			return nil, fmt.Errorf("ranking %s by Valiant routing's channel loads: %w", v, err)
		}
		byShift, err := valiantShifts(net, rt, l)
		if err != nil {
			return nil, err
		}
		worst := 0
		for k := range byShift {
			if byShift[k] > byShift[worst] {
				worst = k
			}
		}
		out[i] = Ranked{Name: l.Arr, Spec: v.String(), Crossing: byShift[worst], Total: int64(l.A*l.P*(l.G-2)) * int64(l.M()),
			Stage: worst + 1, ByStage: byShift, CBest: l.Arr == topology.ArrConsecutive}
	}
	assignRanks(out)
	return &Ranking{Ranked: out, Criterion: "routes on the busiest channel under Valiant routing, at the worst group shift K (groupshift:K, K = 1 to G-1); " +
		"each source PE has source_routes of them, so busiest_routes/source_routes is that channel's load per unit of injection"}, nil
}

// valiantShifts is the busiest channel's routes under each group shift K = 1..G−1
// (index K−1), the shifts shared among the machine's cores.
func valiantShifts(net *topology.Network, rt *routing.Dragonfly, l topology.Dragonfly) ([]int64, error) {
	byShift := make([]int64, l.G-1)
	errs := make([]error, l.G-1)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), l.G-1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			routes := make([]int64, net.TotalPorts())
			for k := range next {
				byShift[k-1], errs[k-1] = valiantShiftRoutes(net, rt, l, k, routes)
			}
		}()
	}
	for k := 1; k < l.G; k++ {
		next <- k
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return byShift, nil
}
