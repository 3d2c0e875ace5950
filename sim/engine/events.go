package engine

// Phase 1 of a cycle: events. The timing wheel holds what a later cycle must do (a
// flit or credit that arrives, a head packet that may leave, a packet's credits that
// start returning, a switch to wake); a switch with a ready head is listed for the
// allocation phase. One thread runs the engine's wheel; with threads each worker runs
// its region's (parallel.events), with the same runEvents.

// Event codes on the timing wheel: the top three bits are the kind, the rest an id.
const (
	evArrival = 0 << 29 // flit level: a flit reaches input VC id
	evCredit  = 1 << 29 // flit level: a credit for input VC id reaches its sender
	evReady   = 2 << 29 // the head packet of input VC id may now leave
	evRamp    = 3 << 29 // packet level: the credits of a packet that left input VC id start returning, one per cycle
	evWake    = 4 << 29 // packet level: a port of switch id that a head waits for is free
	evMask    = 1<<29 - 1
)

// eventPhase is phase 1 of cycle t: the switches relisted last cycle become this
// cycle's to allocate, and the events due now run (flits and credits that arrive,
// heads that become ready, ramps of credits, wake-ups); with threads, each region's
// on its worker (parallel.events), through the same runDueEvents.
func (e *Engine) eventPhase(t int64) {
	e.allocNow, e.allocNxt = e.allocNxt, e.allocNow[:0]
	for _, s := range e.allocNow {
		e.sw[s].inNow = t
	}
	e.runDueEvents()
	if e.par != nil {
		e.par.events(e)
	}
}

// runDueEvents runs the events of the current cycle on e's wheel: the engine's own,
// or a worker's copy with its region's wheel.
func (e *Engine) runDueEvents() {
	e.runEvents(&e.wheel[e.now&e.wmask], e.now)
}

func (e *Engine) schedule(at int64, code uint32) {
	b := &e.wheel[at&e.wmask]
	*b = append(*b, code)
	e.pending++
}

// runEvents handles the events of cycle t in bucket b and empties it.
func (e *Engine) runEvents(b *[]uint32, t int64) {
	for k, code := range *b {
		if e.touchAhead {
			e.touchEvents(*b, k)
		}
		id := int32(code & evMask)
		switch code &^ evMask {
		case evArrival:
			e.flits[id].arrived++
		case evCredit:
			e.vcs[id].credits++
			e.flits[id].creditsBack--
		case evReady:
			e.markReady(id)
		case evRamp:
			e.startRamp(id, t, e.pendingRamp(id))
		case evWake:
			e.list(id, t)
		}
	}
	e.pending -= len(*b)
	*b = (*b)[:0]
}

// list puts switch s on the allocation list of cycle t (the current one).
func (e *Engine) list(s int32, t int64) {
	if e.sw[s].inNow != t {
		e.sw[s].inNow = t
		e.allocNow = append(e.allocNow, s)
	}
}

// relist puts switch s on the next cycle's allocation list.
func (e *Engine) relist(s int32) {
	if e.sw[s].inNext != e.now+1 {
		e.sw[s].inNext = e.now + 1
		e.allocNxt = append(e.allocNxt, s)
	}
}

// wake makes switch s allocate as soon as possible.
func (e *Engine) wake(s int32) {
	if e.allocFrom == e.now {
		e.list(s, e.now)
	} else {
		e.relist(s)
	}
}

// readyAtCycle marks the head packet of input VC ivc ready to leave at cycle at, or as
// soon as an allocation can still see it.
func (e *Engine) readyAtCycle(ivc int32, at int64) {
	if at <= e.allocFrom && e.allocFrom == e.now {
		e.markReady(ivc)
		return
	}
	e.schedule(max(at, e.allocFrom), evReady|uint32(ivc))
}

// markReady makes the head packet of ivc compete in its switch's allocation.
func (e *Engine) markReady(ivc int32) {
	ps := &e.ports[e.vcs[ivc].port]
	ps.ready |= vcBit(ivc - ps.vc0)
	e.sw[ps.sw].ready |= portBit(int32(ps.local))
	e.list(ps.sw, e.now)
}

// events handles the cycle's events of every region. The switches each region
// relisted last cycle are its first to allocate, unless the engine's own events
// listed them already.
func (pr *parallel) events(e *Engine) {
	t, n := e.now, 0
	for _, w := range pr.workers {
		relisted := w.next
		w.list, w.next = relisted[:0], w.list[:0]
		w.begin(e)
		for _, s := range relisted { // in place: the list never outgrows what it reads
			w.e.list(s, t)
		}
		n += len(w.wheel[t&e.wmask])
	}
	pr.each(phaseEvents, n >= pr.minList)
	for _, w := range pr.workers {
		w.end(e)
	}
}

// post schedules event code at cycle at (a later one) on region r's wheel: at once
// when r is the worker's own, else by r's worker in the arrivals phase.
func (w *worker) post(r uint8, at int64, code uint32) {
	if int(r) == w.region {
		w.e.schedule(at, code)
		return
	}
	w.posts[r] = append(w.posts[r], post{at: at, code: code})
}
