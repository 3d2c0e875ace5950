package engine

import (
	"context"
	"fmt"
	"math"
	"time"
)

// Program is a closed-loop workload as the engine drives it: tasks whose programs
// send messages when they reach a send and wait for the messages they receive
// (package workload's Run is one). The NICs read one thing, their source queues:
// open-loop traffic fills them on the generation calendar, a Program fills them as its
// tasks send; switches, NICs and metrics are the same code. The engine calls a
// Program once per cycle and once per delivered message, never per flit.
type Program interface {
	// Release runs what the program can do at cycle now and calls send for every
	// message that enters the network: source and destination PEs, its flits (at
	// least 1), and an id that Delivered reports back. The engine cuts the flits into
	// packets of PacketFlits, padding the last one under fixed packet lengths and
	// sending it with just the flits that remain under variable ones.
	Release(now int64, send func(src, dst int32, flits int64, id int32))
	// Delivered reports that the last packet of message id reaches its destination
	// NIC at cycle at, which is later than the current cycle (the engine may know it
	// several cycles ahead). The deliveries reported in one cycle come in no set order
	// (a run on several threads reports them region by region): what the program
	// does must not depend on it.
	Delivered(id int32, at int64)
	// Next is the earliest cycle at which Release has work that no delivery starts
	// (the end of a computation, a message between tasks of one PE, a delivery
	// reported ahead of its cycle), or -1 if none.
	Next() int64
	// Done reports whether every task has finished.
	Done() bool
}

// ProgramCounts is what a Program may report about itself at the end of a run: its
// messages, those between tasks of one PE, and their bytes.
type ProgramCounts interface {
	Counts() (messages, localMessages, bytes int64)
}

// MaxProgramCycles stops a closed-loop run that has not finished: about 10¹² cycles,
// far beyond any workload that can be simulated, and finite.
const MaxProgramCycles = 1 << 40

// ClosedLoop is what a closed-loop run measured beyond the open-loop metrics, which
// then cover the whole run.
type ClosedLoop struct {
	// ExecutionCycles is the cycle at which the program finished: every message had
	// been received and the network was empty. The run starts at cycle 0. It is -1
	// when the run stopped before the program finished (a deadlock); the other fields
	// then count what happened until then.
	ExecutionCycles int64 `json:"execution_cycles"`
	// LatencyNetworkFlit and LatencyE2EFlit are per flit: from the flit leaving the
	// source NIC (network) or from its message being posted (end to end) to the flit
	// reaching the destination NIC. Flit i of a packet arrives L−1−i cycles before the
	// tail, as virtual cut-through guarantees (under wormhole, where a packet may
	// stall mid-way, this counts from the tail).
	LatencyNetworkFlit Stats `json:"latency_network_flit"`
	LatencyE2EFlit     Stats `json:"latency_e2e_flit"`
	// Messages counts the program's messages, LocalMessages those between tasks of
	// one PE (which bypass the network), Bytes their bytes: from a Program that
	// implements ProgramCounts, else only the messages the network carried.
	Messages      int64 `json:"messages"`
	LocalMessages int64 `json:"local_messages"`
	Bytes         int64 `json:"bytes"`
	// SwitchUtilisation is the papers' card utilisation: the cycles in which a switch
	// delivers flits (on any output port, to a link or to a NIC), averaged over the
	// switches; SwitchUtilisationMax is the busiest switch's.
	SwitchUtilisation    float64 `json:"switch_utilisation"`
	SwitchUtilisationMax float64 `json:"switch_utilisation_max"`
}

// initProgram prepares a closed-loop run: the whole run is measured.
func (e *Engine) initProgram(p Program) {
	e.prog = p
	e.progSend = e.sendProgramMessage
	e.m.start, e.m.end, e.m.last = 0, math.MaxInt64, math.MaxInt64
	e.m.initClosed(e)
}

// sendProgramMessage queues a program's message of the given flits at its source NIC
// in the current cycle. Every one is kept: a closed-loop run has no horizon and no cap
// on its queues.
func (e *Engine) sendProgramMessage(src, dst int32, flits int64, id int32) {
	e.m.closed.messages++
	flits = max(flits, 1)
	packets := (flits + int64(e.L) - 1) / int64(e.L)
	if !e.varLen {
		flits = packets * int64(e.L) // the last packet padded
	}
	if packets > math.MaxInt32 {
		e.err = fmt.Errorf("a message of %d flits is more than %d packets of %d flits", flits, math.MaxInt32, e.L)
		return
	}
	e.m.generated(e.now, int(packets), flits)
	e.keep(int(src), srcMsg{gen: e.now, dst: dst, packets: int32(packets), lens: uint64(flits)}, flits)
	// The message's id, by its slot in the source queues' pool (the queue's tail).
	i := e.src.tail[src]
	for int(i) >= len(e.progQueued) {
		e.progQueued = append(e.progQueued, -1)
	}
	e.progQueued[i] = id
}

// setProgramID notes the Program's id of the message made in slot mi of e.msgs.
func (e *Engine) setProgramID(mi, id int32) {
	for int(mi) >= len(e.progID) {
		e.progID = append(e.progID, -1)
	}
	e.progID[mi] = id
}

// programDelivered records a closed-loop packet whose tail reaches its NIC at cycle
// at, and tells the program when it was the last of its message (slot mi).
func (e *Engine) programDelivered(pk *packet, at int64, msgDone bool, mi int32) {
	e.m.closed.deliveredFlits(pk, at, int64(pk.flits))
	if msgDone {
		e.prog.Delivered(e.progID[mi], at)
	}
}

// runProgram runs a closed-loop program until it is done, a deadlock, ctx's
// cancellation, or MaxProgramCycles.
func (e *Engine) runProgram(ctx context.Context) (*Result, error) {
	start := time.Now()
	done := int64(-1)
	for {
		if e.now&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("run stopped at cycle %d: %w", e.now, err)
			}
		}
		if e.now >= MaxProgramCycles {
			return nil, fmt.Errorf("engine: the program has not finished after %d cycles", e.now)
		}
		e.Step()
		if e.prog.Done() {
			done = e.now - 1 // the cycle of the Release that ended the last task
			break
		}
		if e.dl != nil || e.err != nil {
			break
		}
		if e.quiet() && !e.stepEveryCycle {
			n := e.prog.Next()
			if n < 0 {
				return nil, fmt.Errorf("engine: the program waits at cycle %d with nothing in the network and nothing due (a bug: Build should have refused it)", e.now)
			}
			if n > e.now {
				e.now, e.lastMove = n, n
			}
		}
	}
	if e.err != nil {
		return nil, e.err
	}
	if done >= 0 && e.inNet != 0 {
		return nil, fmt.Errorf("engine: the program finished at cycle %d with %d packets in the network (a bug)", done, e.inNet)
	}
	r := e.result(time.Since(start))
	r.Closed = e.m.closedResult(done)
	r.Closed.Messages = e.m.closed.messages
	if c, ok := e.prog.(ProgramCounts); ok {
		r.Closed.Messages, r.Closed.LocalMessages, r.Closed.Bytes = c.Counts()
	}
	return r, nil
}

// closed-loop parts of the meter.
type closedMeter struct {
	flitNet, flitE2E Histogram
	portSwitch       []int32 // switch of every port
	busyUntil, busy  []int64 // per switch: the end of its last busy interval, and busy cycles
	messages         int64   // messages the program sent into the network
}

func (m *meter) initClosed(e *Engine) {
	c := &closedMeter{portSwitch: make([]int32, len(e.ports)),
		busyUntil: make([]int64, e.net.Switches()), busy: make([]int64, e.net.Switches())}
	for g := range e.ports {
		s := e.ports[g].sw
		if e.isQueue(int(s)) { // an output queue is part of the switch of its link's port
			s = e.ports[e.ports[e.sw[s].base+1].link].sw
		}
		c.portSwitch[g] = s
	}
	m.closed = c
}

// switchBusy counts the cycles [lo, hi) in which output port out's switch delivers
// flits onto a link or to a NIC (with output queues: the queue of one of its ports) (a closed-loop run measures the whole run, so no window clips them).
// Intervals of one switch arrive in order of their start (the current cycle), so
// their union grows at its end.
func (c *closedMeter) switchBusy(out int, lo, hi int64) {
	s := c.portSwitch[out]
	if end := c.busyUntil[s]; lo < end {
		lo = end
	}
	if hi > lo {
		c.busy[s] += hi - lo
		c.busyUntil[s] = hi
	}
}

// deliveredFlits records the flits of a packet whose tail reaches its NIC at cycle at.
func (c *closedMeter) deliveredFlits(pk *packet, at int64, L int64) {
	head := at - (L - 1)
	c.flitNet.addN(head-pk.inj, L)
	for i := range L {
		c.flitE2E.Add(head + i - pk.gen)
	}
}

func (m *meter) closedResult(done int64) *ClosedLoop {
	c := m.closed
	r := &ClosedLoop{ExecutionCycles: done, LatencyNetworkFlit: c.flitNet.stats(), LatencyE2EFlit: c.flitE2E.stats()}
	var sum int64
	for _, b := range c.busy {
		sum += b
		r.SwitchUtilisationMax = max(r.SwitchUtilisationMax, float64(b))
	}
	if len(c.busy) > 0 {
		r.SwitchUtilisation = float64(sum) / float64(len(c.busy))
	}
	return r
}
