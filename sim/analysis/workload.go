package analysis

import (
	"context"
	"fmt"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/workload"
)

// WorkloadLoad is the load a closed-loop workload offers a network under a
// deterministic routing, counted in flits per channel: over the whole workload, which
// bounds its execution time from below, and step by step, which says whether the
// network or the PEs' NICs set its pace. It is how we tell an algorithm that saturates
// the network (a collective's busiest channel carries more flits than the busiest NIC)
// from one that leaves it nearly idle, without simulating.
//
// A step is the k-th send of every task: message m of task t is in step k when it is
// t's k-th send (from 0). For the step-synchronous collectives (ring, neighbour
// exchange, recursive doubling and Bruck allgathers, pairwise and Bruck all-to-all) that
// is the algorithm's step; for tree collectives it only groups each task's sends in
// order.
type WorkloadLoad struct {
	// Messages and Flits are what crosses the network: messages between tasks of one
	// PE bypass it and are not counted.
	Messages, Flits int64
	// FlitHops is the sum over messages of flits × switch-to-switch hops (internal
	// links of twin nodes are hops); InternalFlitHops the part on internal links.
	FlitHops, InternalFlitHops int64
	// NICBound is the most flits one PE injects or receives. A NIC moves one flit per
	// cycle each way, so execution takes at least this many cycles.
	NICBound int64
	// ChannelBound is the most flits one switch-to-switch channel carries (a channel
	// is one direction of a link), MaxInternal and MaxExternal the most on an internal
	// and on an external channel. A channel moves one flit per cycle, so execution
	// takes at least ChannelBound cycles.
	ChannelBound, MaxInternal, MaxExternal int64
	// Channels is the number of switch-to-switch channels, for mean utilisations.
	Channels int
	// Steps is the number of steps, and StepBound the sum over steps of the most flits
	// one channel carries in that step, NIC channels included: the time the workload
	// would take if its steps did not overlap and every channel moved one flit per cycle
	// (an estimate, not a bound: steps overlap in a real run, and queues add to it).
	Steps     int
	StepBound int64
	// NetworkSteps counts the steps whose busiest channel is a switch-to-switch
	// channel carrying more flits than any NIC moves in that step: steps the network,
	// not the NICs, limits.
	NetworkSteps int
}

// Bound is the larger of the NIC and channel bounds: no run of the workload on this
// network with this routing and placement finishes in fewer cycles.
func (l *WorkloadLoad) Bound() int64 { return max(l.NICBound, l.ChannelBound) }

// NetworkLimited reports whether the busiest network channel carries more flits than
// the busiest NIC: the network, not the PEs, bounds the workload.
func (l *WorkloadLoad) NetworkLimited() bool { return l.ChannelBound > l.NICBound }

// MeanUtilisation is the mean load of the switch-to-switch channels, in flits per
// cycle, if the workload took the given cycles.
func (l *WorkloadLoad) MeanUtilisation(cycles float64) float64 {
	if l.Channels == 0 || cycles <= 0 {
		return 0
	}
	return float64(l.FlitHops) / (float64(l.Channels) * cycles)
}

// LoadOfWorkload routes every message of w from the PE of its sending task to the PE
// of its receiving task (place[t] is task t's PE, as workload.Mapping.Place gives it)
// with r and counts the flits each channel carries, a message's flits as cfg cuts its
// bytes (cfg.Flits). It is exact and single-threaded: memory is the workload's plus a
// few integers per message and per port.
func LoadOfWorkload(ctx context.Context, r routing.Pather, w *workload.Workload, place []int32, cfg workload.RunConfig) (*WorkloadLoad, error) {
	net := r.Network()
	if len(place) != w.Tasks() {
		return nil, fmt.Errorf("workload load: %d placements for %d tasks", len(place), w.Tasks())
	}
	for t, pe := range place {
		if pe < 0 || int(pe) >= net.Terminals() {
			return nil, fmt.Errorf("workload load: task %d on PE %d; %s has PEs 0 to %d", t, pe, net, net.Terminals()-1)
		}
	}
	if cfg.PacketFlits == 0 {
		cfg.PacketFlits = 1
	}
	if err := cfg.Check(); err != nil {
		return nil, fmt.Errorf("workload load: %w", err)
	}
	// Each message's step: its index among its task's sends (messages are numbered in
	// the order of their sends, task by task).
	n := w.Messages()
	step := make([]int32, n)
	steps := 0
	for m, first := 0, 0; m < n; m++ {
		src, _, _ := w.Message(m)
		if m > 0 {
			if prev, _, _ := w.Message(m - 1); prev != src {
				first = m
			}
		}
		step[m] = int32(m - first)
		steps = max(steps, m-first+1)
	}
	// Messages ordered by step (a counting sort).
	start := make([]int32, steps+1)
	for _, s := range step {
		start[s+1]++
	}
	for s := 1; s <= steps; s++ {
		start[s] += start[s-1]
	}
	order := make([]int32, n)
	fill := append([]int32(nil), start[:steps]...)
	for m, s := range step {
		order[fill[s]] = int32(m)
		fill[s]++
	}
	step, fill = nil, nil

	l := &WorkloadLoad{Steps: steps}
	ports := net.TotalPorts()
	total := make([]int64, ports)   // flits per channel over the workload
	inStep := make([]int64, ports)  // flits per channel in the current step
	terminal := make([]bool, ports) // NIC (ejection) channels, counted with the NICs
	for sw := 0; sw < net.Switches(); sw++ {
		for p := 0; p < net.Ports(sw); p++ {
			terminal[net.PortID(sw, p)] = net.Port(sw, p).Kind == topology.Terminal
		}
	}
	pes := net.Terminals()
	injected, received := make([]int64, pes), make([]int64, pes)
	stepIn, stepOut := make([]int64, pes), make([]int64, pes)
	var touched, touchedPE []int
	var buf []routing.Step
	for s := 0; s < steps; s++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("workload load of %s on %s: %w", w.Name(), net, err)
		}
		for _, m := range order[start[s]:start[s+1]] {
			src, dst, bytes := w.Message(int(m))
			a, b := int(place[src]), int(place[dst])
			if a == b {
				continue
			}
			f := cfg.Flits(bytes)
			l.Messages++
			l.Flits += f
			injected[a] += f
			received[b] += f
			if stepIn[a] == 0 {
				touchedPE = append(touchedPE, a)
			}
			stepIn[a] += f
			if stepOut[b] == 0 {
				touchedPE = append(touchedPE, b)
			}
			stepOut[b] += f
			buf = r.Path(a, b, buf[:0])
			for i, st := range buf {
				id := net.PortID(st.Switch, st.Port)
				if i < len(buf)-1 { // the last step is the ejection
					l.FlitHops += f
					if net.Port(st.Switch, st.Port).Kind == topology.Internal {
						l.InternalFlitHops += f
					}
				}
				total[id] += f
				if inStep[id] == 0 {
					touched = append(touched, id)
				}
				inStep[id] += f
			}
		}
		var net1, nic int64 // the step's busiest switch-to-switch channel and NIC channel
		for _, id := range touched {
			if terminal[id] {
				nic = max(nic, inStep[id])
			} else {
				net1 = max(net1, inStep[id])
			}
			inStep[id] = 0
		}
		for _, pe := range touchedPE {
			nic = max(nic, stepIn[pe], stepOut[pe])
			stepIn[pe], stepOut[pe] = 0, 0
		}
		touched, touchedPE = touched[:0], touchedPE[:0]
		l.StepBound += max(net1, nic)
		if net1 > nic {
			l.NetworkSteps++
		}
	}
	for pe := range injected {
		l.NICBound = max(l.NICBound, injected[pe], received[pe])
	}
	for s := 0; s < net.Switches(); s++ {
		for p := 0; p < net.Ports(s); p++ {
			pt := net.Port(s, p)
			if pt.Kind == topology.Terminal || !pt.Connected() {
				continue
			}
			l.Channels++
			v := total[net.PortID(s, p)]
			l.ChannelBound = max(l.ChannelBound, v)
			if pt.Kind == topology.Internal {
				l.MaxInternal = max(l.MaxInternal, v)
			} else {
				l.MaxExternal = max(l.MaxExternal, v)
			}
		}
	}
	return l, nil
}
