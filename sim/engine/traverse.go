package engine

import (
	"math"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// Phase 4 of a cycle: traversal. A granted packet connects its input VC to its output
// (start): at the packet level it crosses at once and its credits start returning the
// next cycle (credits.go); at the flit level it moves one flit per cycle (advance). It
// enters the next switch's input VC (enqueue; with threads, held back when that switch
// is another region's: queueSent, worker.arrive) or its NIC (deliver.go), and its input
// VC moves on to its next packet (popHead).

// start connects input VC r.ivc to output r.out for the head packet's whole length.
func (e *Engine) start(base, np int, r request) {
	in, out := base+int(r.in), base+int(r.out)
	ip, op := &e.ports[in], &e.ports[out]
	vc := &e.vcs[r.ivc]
	pkt, dvc := vc.headPkt, int32(-1)
	if r.slot >= 0 { // virtual output queues: not necessarily the first packet
		pkt = e.queue[vc.qBase+r.slot].pkt
		ip.voqRR = int16(r.out) + 1
	}
	flits := int32(e.lenOf(pkt))
	if op.down >= 0 {
		dvc = op.down + int32(r.cand.VC)
	}
	if ip.ready &^= vcBit(r.ivc - ip.vc0); ip.ready == 0 {
		e.sw[ip.sw].ready &^= portBit(r.in)
	}
	op.owner = int32(in)
	if ip.inRR = int8(r.ivc-ip.vc0) + 1; ip.inRR == ip.nvc {
		ip.inRR = 0
	}
	if op.outRR = int16(r.in) + 1; int(op.outRR) == np {
		op.outRR = 0
	}
	pk := &e.pk[pkt]
	countHop(pk, r.cand, op)
	if !e.packetLevel {
		// The flit level moves the packet's flits one by one (advance).
		e.inStream[in] = stream{in: int32(in), out: int32(out), ivc: r.ivc, dvc: dvc, pkt: pkt, flits: flits, start: e.now}
		ip.inBusy, op.outBusy = math.MaxInt64, math.MaxInt64 // until the tail has left
		e.streams = append(e.streams, int32(in))
		return
	}
	// Packet level: flit i leaves at now+i, reaches the next switch at now+i+lat, and
	// its credit reaches our sender at now+i+back. Both ports are free at now+L, when
	// the VC's next packet may follow.
	now, L := e.now, int64(flits)
	if e.reserving() && dvc >= 0 { // after the packets already granted the link
		now = max(now, op.outBusy)
		e.heldUntil[dvc] = now + L
	}
	ip.inBusy = now + L
	if !e.sinkAll(out) {
		op.outBusy = now + L
	}
	if e.p.CrossbarPerVC { // the input's other VCs have crossbar inputs of their own
		ip.inBusy = e.now + 1
	}
	lat := int64(op.lat)
	if dvc >= 0 {
		e.vcs[dvc].credits -= int32(L)
		e.queueSent(out, dvc, pkt, now+lat+e.delay(dvc))
		if op.link >= 0 {
			pk.hops++
			e.m.flitHops += L
		}
	} else {
		e.deliverSent(pkt, now+L-1+lat)
		e.m.ejectAll += L
	}
	if op.link >= 0 {
		e.m.channel(int(op.link), now, L)
	}
	// The credits start returning at now+back. A one-cycle return (the default) ends
	// the previous ramp before this departure, so the ramp can be set now; a longer
	// one might not, and waits for its event. A parallel worker's one-cycle ramp whose
	// upstream switch is another region's is set after the cycle's allocation, in
	// the arrivals phase: that switch may be reading these credits now, and sees the
	// same number either way until the ramp begins next cycle (parallel.go).
	if ip.back == 1 && e.wk == nil {
		if vc := e.setRamp(r.ivc, now+1, uint32(L)); vc.waiter != 0 {
			e.endWaits(vc, now+1)
		}
	} else if ip.back == 1 {
		e.wk.ramp(in, r.ivc, now+1, uint32(L), false)
	} else if e.wk != nil {
		e.wk.ramp(in, r.ivc, now+int64(ip.back), uint32(L), true)
	} else {
		e.deferRamp(r.ivc, uint32(L))
		e.schedule(now+int64(ip.back), evRamp|uint32(r.ivc))
	}
	e.lastMove = now + L - 1
	if c := e.m.closed; c != nil && op.link >= 0 {
		c.switchBusy(out, now, now+L)
	}
	if r.slot >= 0 {
		e.removeVOQ(r.ivc, r.slot, now+L)
		return
	}
	e.popHead(r.ivc, now+L)
}

// sinkAll reports whether output port g takes any number of packets at once: a NIC's
// port under Params.ConsumeAll, which the packet level models (the flit level, the
// tests' reference runs, ejects one packet at a time).
func (e *Engine) sinkAll(g int) bool {
	return e.p.ConsumeAll && e.packetLevel && e.ports[g].down < 0
}

// reserving reports whether output VCs are arbitrated (Params.ReserveOutputVCs), which
// the packet level models; the flit level (tests' reference runs) arbitrates ports.
func (e *Engine) reserving() bool { return e.heldUntil != nil && e.packetLevel }

// grantee is where stage 2 of allocation keeps the request that wins r's output: the
// output port's cell, or under ReserveOutputVCs the output VC's (several VCs of one
// link may be granted in a cycle, and their packets cross it one after another); nil
// when the output takes every request (sinkAll).
func (e *Engine) grantee(base int, r *request) *int32 {
	if e.grantByPort {
		return &e.best[r.out]
	}
	g := base + int(r.out)
	switch op := &e.ports[g]; {
	case e.sinkAll(g):
		return nil
	case op.down >= 0 && e.reserving():
		return &e.bestVC[op.down+int32(r.cand.VC)]
	}
	return &e.best[r.out]
}

// countHop records a packet's hop on candidate c through output port op: whether it
// took an escape channel (from then on it stays there, under the papers' rule) and
// whether it crossed an internal link.
func countHop(pk *packet, c routing.Candidate, op *portState) {
	if c.Escape {
		pk.escaped = true
	}
	pk.tag = c.Tag
	if op.down < 0 {
		return
	}
	if c.Escape {
		pk.escHops++
	}
	if op.kind == topology.Internal {
		pk.intHops++
	}
}

// popHead removes the head packet of ivc, which has left (packet level) or whose tail
// has left (flit level); the next packet may leave from cycle free on.
func (e *Engine) popHead(ivc int32, free int64) {
	vc := &e.vcs[ivc]
	if vc.qHead++; vc.qHead == vc.qCap {
		vc.qHead = 0
	}
	vc.qLen--
	vc.routed, vc.cands = false, false
	if vc.qLen > 0 {
		head := e.queue[vc.qBase+int32(vc.qHead)]
		vc.ready, vc.headPkt = max(e.readyAt(head), free), head.pkt
		e.readyAtCycle(ivc, vc.ready)
		return
	}
	vc.ready = free
}

// advance moves one flit along every flit-level stream.
func (e *Engine) advance() {
	now := e.now
	for i := 0; i < len(e.streams); {
		in := e.streams[i]
		st := &e.inStream[in]
		vc := &e.flits[st.ivc]
		if vc.arrived == vc.departed { // wormhole: the next flit is not here yet
			i++
			continue
		}
		var dv *vcState
		if st.dvc >= 0 {
			dv = &e.vcs[st.dvc]
			if dv.credits == 0 { // wormhole: no room downstream
				i++
				continue
			}
		}
		ip, op := &e.ports[in], &e.ports[st.out]
		vc.departed++
		vc.headSent++
		// The freed slot's credit travels back to whoever feeds this input port.
		e.schedule(now+int64(ip.back), evCredit|uint32(st.ivc))
		vc.creditsBack++
		e.lastMove = now
		lat := int64(op.lat)
		if dv != nil {
			dv.credits--
			e.schedule(now+lat, evArrival|uint32(st.dvc))
			if vc.headSent == 1 {
				if op.link >= 0 {
					e.pk[st.pkt].hops++
				}
				e.enqueue(st.dvc, st.pkt, now+lat+e.delay(st.dvc))
			}
			if op.link >= 0 {
				e.m.flitHops++
			}
		} else {
			e.m.ejectAll++
		}
		if op.link >= 0 {
			e.m.channel(int(op.link), now, 1)
			if e.m.closed != nil {
				e.m.closed.switchBusy(int(st.out), now, now+1)
			}
		}
		if int32(vc.headSent) < st.flits {
			i++
			continue
		}
		if dv == nil {
			e.deliver(st.pkt, now+lat)
		}
		vc.headSent = 0
		last := len(e.streams) - 1
		e.streams[i] = e.streams[last]
		e.streams = e.streams[:last]
		e.finish(in)
	}
}

// finish ends the flit-level stream of input port in once its tail has left: both
// ports are free from the next cycle and the input VC moves on to its next packet.
func (e *Engine) finish(in int32) {
	st := &e.inStream[in]
	ip := &e.ports[in]
	ip.inBusy, e.ports[st.out].outBusy = e.now+1, e.now+1
	e.popHead(st.ivc, e.now+1)
	// Heads waiting for this input port or this output port try again.
	if e.sw[ip.sw].ready != 0 || e.sw[ip.sw].wide {
		e.wake(ip.sw)
	}
}

// enqueue appends packet pi to input VC ivc; its head may leave at cycle ready.
func (e *Engine) enqueue(ivc, pi int32, ready int64) {
	vc := &e.vcs[ivc]
	slot := vc.qHead + vc.qLen
	if slot >= vc.qCap {
		slot -= vc.qCap
	}
	e.queue[vc.qBase+int32(slot)] = qEntry{pkt: pi, ready: int32(ready)}
	vc.qLen++
	if vc.qLen == 1 {
		// An empty VC keeps in ready the cycle its last packet's tail has left
		// (popHead), so a packet that arrives as the VC empties waits for it whether
		// it is queued before or after the departure within the cycle. Except with a
		// crossbar input per VC and port arbitration, which keeps model version 2's
		// order-dependent rule until the model version changes (docs/architecture.md,
		// issue 15); ReserveOutputVCs, newer, follows the rule.
		if !e.p.CrossbarPerVC || e.p.ReserveOutputVCs {
			ready = max(ready, vc.ready)
		}
		vc.routed, vc.cands = false, false
		vc.ready, vc.headPkt = ready, pi
		if e.routeOnArrival && vc.sw < e.nReal {
			e.routeDeterministic(vc, pi)
		}
		e.readyAtCycle(ivc, ready)
	} else if e.voq != nil && ivc < e.realVCs { // every packet may be the first of its output
		e.readyAtCycle(ivc, ready)
	}
}

// readyAt recovers the full cycle from the 32-bit ready stamp of a queue entry.
func (e *Engine) readyAt(q qEntry) int64 {
	return e.now + int64(q.ready-int32(e.now))
}

// queueSent queues packet pkt, sent by global port out into input VC ivc, whose head
// may leave at cycle ready: at once on one thread, through the worker in a parallel
// phase (arrive).
func (e *Engine) queueSent(out int, ivc, pkt int32, ready int64) {
	if e.wk != nil {
		e.wk.arrive(out, arrival{ivc: ivc, pkt: pkt, ready: ready})
		return
	}
	e.enqueue(ivc, pkt, ready)
}

// arrive queues packet a, which leaves by global port out, at once when it enters a
// switch of the worker's own region (as one thread does: nothing else reads or writes
// that VC's queue in this phase), else holds it back for the region it enters.
func (w *worker) arrive(out int, a arrival) {
	r := w.downRegion[out]
	if int(r) == w.region {
		w.e.enqueue(a.ivc, a.pkt, a.ready)
		return
	}
	w.arrivals[r] = append(w.arrivals[r], a)
}
