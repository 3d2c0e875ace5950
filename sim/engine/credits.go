package engine

// Credits: a sender's view of the room in a downstream VC. At the packet level a
// departing packet's credits return as a ramp, one per cycle from a known cycle, so
// that room is known ahead (rampRoomAt) and heads can wait for exactly the cycle it
// arrives; with threads a ramp read by another region's switch is set by that region's
// worker (worker.ramp, credit).

// rampRoomAt is the cycle at which the ramp of credits under way gives VC vc the need
// flits of room it lacks now, if it does (nicRoomAt, roomAt).
func rampRoomAt(vc *vcState, need int32) (int64, bool) {
	if vc.ramping && vc.credits+int32(vc.rampLen) >= need {
		return vc.rampAt + int64(need-vc.credits) - 1, true
	}
	return 0, false
}

// free is the sender's view of free flits in a VC now: the settled credits plus those
// of the current packet-level ramp that have arrived (none before rampAt).
func (e *Engine) free(vc *vcState) int32 {
	if !vc.ramping || e.now < vc.rampAt {
		return vc.credits
	}
	return vc.credits + int32(min(e.now-vc.rampAt+1, int64(vc.rampLen)))
}

// startRamp starts the return of the credits of a departed packet of n flits to the
// sender of ivc at cycle at, one per cycle. The previous ramp has ended by then
// (departures from a VC are as many cycles apart as the earlier packet is long), so
// its credits are settled.
func (e *Engine) startRamp(ivc int32, at int64, n uint32) {
	if vc := e.setRamp(ivc, at, n); vc.waiter != 0 {
		e.endWaits(vc, at)
	}
}

// setRamp is startRamp without ending the waits for the ramp, for a caller that ends
// them itself (start): small enough to be inlined there.
func (e *Engine) setRamp(ivc int32, at int64, n uint32) *vcState {
	vc := &e.vcs[ivc]
	if vc.ramping {
		vc.credits += int32(vc.rampLen)
	}
	vc.rampAt, vc.ramping, vc.rampLen = at, true, uint16(n)
	return vc
}

// endWaits ends the waits for vc's next ramp, which starts at cycle at: the heads on
// its list (waitRamp) are ready again from then on, or its NIC may try again then
// (nicRoomAt). Apart from startRamp, which stays small enough to be inlined.
func (e *Engine) endWaits(vc *vcState, at int64) {
	if vc.waiter < 0 { // a terminal VC, whose NIC waits for room
		t := -1 - vc.waiter
		e.nicWait[t] = min(e.nicWait[t], at)
		vc.waiter = 0
		return
	}
	for w := vc.waiter; w != 0; {
		ivc := w - 1
		w, e.waitNext[ivc] = e.waitNext[ivc], 0
		e.readyAtCycle(ivc, at)
	}
	vc.waiter = 0
}

// deferRamp notes that the credits of a packet of n flits that left ivc start
// returning on an evRamp event, which pendingRamp then reads.
func (e *Engine) deferRamp(ivc int32, n uint32) {
	if !e.varLen {
		return
	}
	vc, r := &e.vcs[ivc], &e.rampRing[ivc]
	i := r.head + r.n
	if i >= vc.qCap {
		i -= vc.qCap
	}
	e.rampLens[vc.qBase+int32(i)] = uint16(n)
	r.n++
}

// rampRing is a VC's ring of pending ramp lengths in Engine.rampLens: n of them from
// head on.
type rampRing struct{ head, n uint16 }

// pendingRamp is the length of the packet whose ramp at ivc starts now (evRamp):
// ramps start in the order their packets left.
func (e *Engine) pendingRamp(ivc int32) uint32 {
	if !e.varLen {
		return e.L
	}
	vc, r := &e.vcs[ivc], &e.rampRing[ivc]
	n := e.rampLens[vc.qBase+int32(r.head)]
	if r.head++; r.head == vc.qCap {
		r.head = 0
	}
	r.n--
	return uint32(n)
}

// ramp starts the return of the credits of a packet of n flits that left input VC ivc
// of global port in, from cycle at on (deferred: with an event then): at once when the
// switch that reads them is the worker's own (as one thread does), else by that
// switch's worker in the arrivals phase. The credits, their ramp and the heads that
// wait for it (waitRamp) are the reading switch's; so is the event.
func (w *worker) ramp(in int, ivc int32, at int64, n uint32, deferred bool) {
	r := ramp{ivc: ivc, flits: n, at: at, deferred: deferred}
	if up := w.upRegion[in]; int(up) != w.region {
		w.ramps[up] = append(w.ramps[up], r)
		return
	}
	w.e.credit(r)
}

// credit starts ramp r, or schedules it when deferred.
func (e *Engine) credit(r ramp) {
	if r.deferred {
		e.deferRamp(r.ivc, r.flits)
		e.schedule(r.at, evRamp|uint32(r.ivc))
		return
	}
	e.startRamp(r.ivc, r.at, r.flits)
}
