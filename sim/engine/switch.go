package engine

import (
	"fmt"
	"math"

	"github.com/twintorus/twintorus/sim/routing"
)

// This file holds the switch features beyond the input-queued switch: output queues
// and virtual output queues, both switch parameters (Params.OutputFlits, Params.VOQ)
// of the one engine.
//
// Output queues. Every network port that sends gets a queue between the crossbar and
// its link, OutputFlits flits per VC. The engine models it as a switch of its own with
// two ports, appended after the network's switches: its input port holds the queue's
// VCs (as many as the link's far end has), its output port is the network port's
// link. A packet that wins the crossbar crosses it into the queue of its output port
// and VC, one flit per cycle, when the queue has room for all of it (room for two
// packets when the hop enters a ring under bubble flow control: the ring is entered at
// the queue); the crossing takes one cycle, and the queue's credits return to the
// crossbar in one. The queue sends on the link, on the same VC, when the next switch
// has room, without a routing decision, its VCs taking turns round-robin. So every
// mechanism of the input-queued switch (credits, cut-through, arbitration, the
// packet-level shortcut and its flit-level reference) serves the output side too;
// hops, channel loads and utilisation count the network's links only.
//
// Virtual output queues. An input VC's buffer (its capacity and credits unchanged)
// keeps one queue per output port: a packet waits behind older packets for the same
// output only. Each packet is routed once, when it reaches the switch (so the routing
// must give one port per hop); every cycle an idle input port offers the crossbar the
// oldest packet of one of its output queues that can go, taking the output ports
// round-robin from the one after its last grant, and the output ports arbitrate as
// usual. It is modelled at the packet level (virtual cut-through): the flit-level
// counters assume packets leave a buffer in order. Deadlock detection follows the
// oldest packet of a buffer.

// layoutOutputQueue lays out the output queue of network port g as switch x, whose
// input port (the queue) is global port in and output port (the link) in+1; its VCs
// start at vc0. It returns the next free VC.
func (e *Engine) layoutOutputQueue(x, in, g, vc0 int) int {
	real := &e.ports[g]
	vcs := int8(1) // ejection: one queue
	if real.down >= 0 {
		vcs = e.ports[e.vcs0Port(real.down)].nvc
	}
	e.sw[x].base, e.sw[x].ports = int32(in), 2
	e.ports[in] = portState{sw: int32(x), local: 0, kind: real.kind, owner: -1, down: -1, link: -1,
		vc0: int32(vc0), nvc: vcs, back: 1, lat: 1}
	e.ports[in+1] = portState{sw: int32(x), local: 1, kind: real.kind, owner: -1, down: real.down, link: int32(g),
		lat: real.lat, back: real.back}
	real.down, real.lat, real.link = int32(vc0), 1, -1 // the crossbar feeds the queue in a cycle
	return vc0 + int(vcs)
}

// vcs0Port is the global port whose first VC is vc (a network port during layout).
func (e *Engine) vcs0Port(vc int32) int {
	lo, hi := 0, int(e.net.TotalPorts())-1
	for lo < hi { // the last port whose first VC is at most vc: ports without VCs share vc0
		mid := (lo + hi + 1) / 2
		if e.ports[mid].vc0 <= vc {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	for lo > 0 && e.ports[lo].nvc == 0 {
		lo--
	}
	return lo
}

// isQueue reports whether switch s is an output queue.
func (e *Engine) isQueue(s int) bool { return int32(s) >= e.nReal }

// delay is the cycles from a head's arrival at input VC dvc to its departure: the
// routing delay at a switch, none in an output queue.
func (e *Engine) delay(dvc int32) int64 {
	if dvc >= e.realVCs {
		return 0
	}
	return int64(e.p.RoutingDelay)
}

// queueRoute is the route of a packet in an output queue: on to the link, on its VC,
// keeping the tag its routing gave it at the crossbar (a hop records the candidate's
// tag, and a Valiant or UGAL packet whose tag the queue cleared would go on minimally).
func (e *Engine) queueRoute(base, q int, ivc int32) routing.Candidate {
	return routing.Candidate{Port: 1, VC: int8(ivc - e.ports[base+q].vc0), Tag: e.pk[e.vcs[ivc].headPkt].tag}
}

// verdict is whether the head of input VC ivc, a packet of n flits, can start through
// output port base+c.Port now, and if not, what it waits for: the output port until
// a known cycle, or room downstream (roomAt).
//
// At the packet level a head that must wait for a known cycle, or for a ramp of
// credits, waits out of allocation (waitAt, waitRamp): it leaves its switch's ready
// set and is marked ready again when the wait is over, so that a switch visits only
// the heads that may start, and a saturated network does not retry every blocked
// head every cycle. The switch allocates as it would have: a head that cannot start
// takes no part in allocation. The flit level, whose ports are busy until a tail
// leaves and whose credits come back one by one, virtual output queues, which judge a
// whole buffer, and CrossbarPerVC (waitsOut) keep the heads in allocation and sleep
// or retry the switch instead (waitBusy, waitRoom).
func (e *Engine) verdict(base int, c routing.Candidate, n, ivc int32) (int, int64) {
	if at := e.freeFrom(base+int(c.Port), c); at > e.now {
		if e.waitOut {
			return waitAt, at
		}
		return waitBusy, at
	}
	op := &e.ports[base+int(c.Port)]
	if op.down < 0 {
		return canGo, 0
	}
	dv := &e.vcs[op.down+int32(c.VC)]
	need := e.need(n, c.Bubble)
	if e.free(dv) >= need && (e.packetLevel || dv.qLen < dv.qCap) {
		return canGo, 0
	}
	if !e.waitOut {
		return waitRoom, 0
	}
	return e.roomAt(dv, need, ivc)
}

// waitsOut reports whether heads wait out of allocation (verdict) and NICs out of
// injection (nicRoomAt). Step notes it for the cycle (Engine.waitOut), and a parallel
// phase's workers inherit it: a head's waits end by events of its own region (a VC's
// credits, their ramp and its waiters are the feeding switch's, parallel.go), and a
// NIC's by the ramp of its terminal VC, started by its own switch's worker, which
// alone writes that NIC's nicWait during a phase, read by injection on one core. Not
// under CrossbarPerVC: its runs depend on the order in which switches are visited
// (docs/architecture.md), which waking heads one by one changes.
func (e *Engine) waitsOut() bool {
	return e.packetLevel && e.wh == nil && e.voq == nil && !e.p.CrossbarPerVC && !e.pollWaits
}

// roomAt is when downstream VC dv will have the need flits of room that the head of
// input VC ivc lacks now. Only one switch sends into dv, the link's sender, the
// head's own, so its free room only grows until that switch sends again, and only by
// credits: those of the ramp under way, one per cycle (the head waits for the one
// that makes the room: waitAt), or those of a ramp still to start, when the
// downstream switch sends a packet on (the head waits on dv's list, waitRamp, and
// startRamp marks it ready).
func (e *Engine) roomAt(dv *vcState, need, ivc int32) (int, int64) {
	if at, ok := rampRoomAt(dv, need); ok {
		return waitAt, at
	}
	e.waitNext[ivc], dv.waiter = dv.waiter, ivc+1
	return waitRamp, 0
}

// voqState holds the routes of queued packets under virtual output queues, slot by
// slot of Engine.queue (Port -1: not routed yet), and a scratch mask of the output
// ports an older packet of the buffer already waits for.
type voqState struct {
	route []routing.Candidate
	seen  []uint64
}

func newVOQ(slots, maxPorts int) *voqState {
	v := &voqState{route: make([]routing.Candidate, slots), seen: make([]uint64, (maxPorts+63)/64)}
	for i := range v.route {
		v.route[i].Port = -1
	}
	return v
}

// notReady is the verdict of a buffer none of whose packets may leave yet; waitAt and
// waitRamp those of a head that waits out of allocation (verdict) until a known cycle
// and until the next ramp of credits of its downstream VC.
const (
	notReady = waitRoom + 1 + iota
	waitAt
	waitRamp
)

// considerVOQ is consider for the virtual output queues of input VC ivc (local port q
// of switch s): the packet it offers (its queue position), or why none can go.
func (e *Engine) considerVOQ(s, q, base int, ivc int32) (c routing.Candidate, verdict int, at int64, slot int32) {
	v, vc := e.voq, &e.vcs[ivc]
	np := int(e.sw[s].ports)
	for i := range v.seen {
		v.seen[i] = 0
	}
	ip := &e.ports[base+q]
	verdict, at, slot = notReady, math.MaxInt64, -1
	bestKey := math.MaxInt
	for j := 0; j < int(vc.qLen); j++ {
		pos := int(vc.qHead) + j
		if pos >= int(vc.qCap) {
			pos -= int(vc.qCap)
		}
		ent := e.queue[vc.qBase+int32(pos)]
		r := &v.route[vc.qBase+int32(pos)]
		if r.Port < 0 {
			*r = e.routeOnce(s, q, ivc, ent.pkt)
			if e.err != nil {
				return c, waitRoom, 0, -1
			}
		}
		out := int(r.Port)
		if v.seen[out>>6]>>(out&63)&1 == 1 {
			continue // an older packet waits for this output
		}
		v.seen[out>>6] |= 1 << (out & 63)
		if e.readyAt(ent) > e.now {
			continue
		}
		switch vd, when := e.verdict(base, *r, int32(e.lenOf(ent.pkt)), ivc); vd {
		case canGo:
			if key := (out - int(ip.voqRR) + np) % np; key < bestKey {
				bestKey, c, slot = key, *r, int32(pos)
			}
		case waitBusy:
			if verdict != waitRoom {
				verdict = waitBusy
			}
			at = min(at, when)
		default:
			verdict = waitRoom
		}
	}
	if slot >= 0 {
		return c, canGo, 0, slot
	}
	return c, verdict, at, -1
}

// routeOnce routes packet pi at switch s (input port q, VC ivc) for its virtual output
// queue; a routing that offers several ports stops the run with an error.
func (e *Engine) routeOnce(s, q int, ivc, pi int32) routing.Candidate {
	pk := &e.pk[pi]
	if e.det != nil {
		return e.det.Next(s, q, int(pk.src), int(pk.dst))
	}
	inVC := int(ivc - e.ports[e.sw[s].base+int32(q)].vc0)
	e.scratch = e.route(s, q, inVC, pk, e.scratch[:0])
	if len(e.scratch) != 1 {
		e.err = fmt.Errorf("virtual output queues need a routing that gives one port per hop; %s gave %d at switch %d", e.rt.Name(), len(e.scratch), s)
		return routing.Candidate{Port: 0}
	}
	return e.scratch[0]
}

// removeVOQ takes the packet at queue position pos out of input VC ivc, which it has
// left (free: the first cycle the input port is free again), keeping the others in
// order, and makes the buffer compete again when one of them may leave.
func (e *Engine) removeVOQ(ivc, pos int32, free int64) {
	vc, v := &e.vcs[ivc], e.voq
	qc := int32(vc.qCap)
	slot := func(j int32) int32 { return vc.qBase + (int32(vc.qHead)+j)%qc }
	for j := (pos - int32(vc.qHead) + qc) % qc; j < int32(vc.qLen)-1; j++ { // later packets move one place up
		a, b := slot(j), slot(j+1)
		e.queue[a], v.route[a] = e.queue[b], v.route[b]
	}
	v.route[slot(int32(vc.qLen)-1)].Port = -1
	vc.qLen--
	if vc.qLen == 0 {
		return
	}
	head := e.queue[slot(0)]
	vc.headPkt, vc.ready = head.pkt, e.readyAt(head)
	first := int64(math.MaxInt64)
	for j := int32(0); j < int32(vc.qLen); j++ {
		first = min(first, e.readyAt(e.queue[slot(j)]))
	}
	e.readyAtCycle(ivc, max(first, free))
}

// queueLabel names the network port of an output queue's switch, for deadlock reports.
func (e *Engine) queueLabel(s int) (sw, port int, name string) {
	g := int(e.ports[e.sw[s].base+1].link)
	sw, port = e.portSwitch(g)
	return sw, port, e.net.PortName(sw, port) + " (output queue)"
}

// outputQueued reports whether the engine gives output ports queues.
func (e *Engine) outputQueued() bool { return len(e.sw) > e.net.Switches() }
