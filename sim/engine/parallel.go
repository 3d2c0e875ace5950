package engine

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/twintorus/twintorus/sim/routing"
)

// One simulation on several cores (Params.Threads). The switches are divided into
// contiguous regions of switch ids, one worker per region, and three phases of a cycle
// run region by region in parallel: the events of the region's switches and VCs (ready
// heads, wake-ups, credit ramps), allocation at its listed switches, and the queueing
// of the packets that enter its switches. Traffic generation, injection, deliveries
// and the deadlock watchdog stay on one core, between the phases. Within a cycle every
// effect of one switch on another becomes visible a cycle or more later, so the
// regions are independent once the few effects that cross a switch's boundary are
// held back to a later phase:
//
//   - a packet entering another region's switch (its input VC's queue and head): held
//     back by the region that sends it, and queued by the worker of the region it
//     enters in the arrivals phase, after every region has allocated (a packet that
//     stays in its region is queued at once, as on one thread);
//   - a packet delivered to a NIC (the meters, the packet and message free lists):
//     applied on one core after the phases, in region order;
//   - counters (flit-hops, ejected flits, the last cycle a flit moved): a meter of its
//     own per worker, added after the phases;
//   - a departing packet's credits, which start returning to the upstream switch the
//     cycle after it starts to leave (the next cycle, or later when output VCs are
//     reserved and it crosses the link after packets granted before it), when that
//     switch is another region's: the ramp is set in the arrivals phase by the
//     upstream switch's worker, whose are the VC's credits, their ramp and the heads
//     that wait for it (what the upstream switch reads of the credits within the cycle
//     is the same either way, because the previous ramp of that VC has ended), or put
//     on that worker's wheel as an event when credits take longer than a cycle to
//     return;
//   - an error (a routing that gives a virtual output queue several ports): the
//     engine takes the first in region order after the phase.
//
// Each worker keeps the events and the allocation lists of its own switches: every
// event a worker schedules concerns a VC or switch of its region (a ready head where
// it queued a packet, a wake-up of a switch it allocated, a head that waits for a
// busy port or for credits, a ramp of credits its switches read).
// Events scheduled on one core (injection's ready heads) go on the engine's wheel,
// handled on one core before the workers' events, and switches listed on one core go
// on the engine's list, handed to their regions before allocation.
//
// A switch writes directly only what it owns: its ports and input VCs, the packets in
// them, the credits of the downstream VCs it feeds, their ramps and the heads waiting
// for them (no other switch feeds them), the loads of its links and its selection
// state. What it reads of other switches is the credits of the VCs it feeds; the queue
// slots of those VCs, which their own switch changes, are never read at the packet
// level (room for a packet implies a slot).
//
// The order in which deliveries, events and visits are applied differs from a
// one-thread run's, and nothing observable depends on it: metrics are sums and maxima
// of integers (latency sums are float64 sums of integers, exact below 2⁵³), the
// visiting order of switches within a cycle cannot matter (every effect is delayed),
// events on different VCs and switches commute, and packet and message ids are never
// compared. Results are bit for bit those of one thread (TestThreadsBitIdentical).
//
// A phase with little work (fewer than minList switches or events) runs its regions
// one after another on one core: the same code, without the handover.
//
// A closed-loop program hears of the deliveries of a cycle after the phases, in region
// order, instead of one by one during allocation: still before its next Release, since
// a delivery is reported ahead (its cycle is later than the current one), and its
// wake-ups are ordered by cycle and task, not by the order it heard of them (Program).
// The closed-loop switch utilisation is counted per switch, by the switch's worker.
//
// Under wormhole a packet crosses several switches at once, and a region's worker moves
// the flits of the packets crossing its switches (worker.wh.active) right after
// allocating them, as one thread moves every region's after allocating every switch:
// what a switch's flit moves change elsewhere is held back as for packets (the head
// entering another region's VC; the flit's arrival and the credit it frees, events
// posted to the wheel of the region that owns the VC or reads the credit; a delivery).
// Flits of one packet in several regions touch different fields of its record (the
// head's hop counts; the tail's length, read).
//
// Some runs stay on one core whatever Threads says: a crossbar input per VC with port
// arbitration (threadsUsable says why).

// parallel holds the workers of the parallel phases.
type parallel struct {
	workers []*worker
	region  []uint8 // per switch: its region
	// downRegion is, per global port, the region of the switch (or output queue) its
	// link leads to: where a packet leaving by it is queued. upRegion is, per global
	// input port, the region of the switch that feeds it: whose allocation reads the
	// credits of its VCs.
	downRegion, upRegion []uint8
	wg                   sync.WaitGroup
	// minList: a phase with fewer switches to allocate or events to handle runs on one
	// core (the handover costs more than it saves). It does not change results.
	minList int
	// checkRegions (tests only) stops the run with an error when a worker is to
	// allocate another region's switch: what an event or a wait handled by the wrong
	// worker would cause.
	checkRegions bool
	started      bool
	phases       int64 // cycles allocated in parallel (tests)
}

// worker is one region's share of the phases: a copy of the engine whose wheel,
// allocation lists and meter are its own, and the effects it holds back.
type worker struct {
	e      Engine
	region int
	meter  meter
	wheel  [][]uint32 // the events of this region's switches and VCs
	list   []int32    // this region's switches to allocate this cycle
	next   []int32    // and next cycle
	// arrivals are the packets this region's switches sent, by the region they enter.
	arrivals   [][]arrival
	downRegion []uint8
	upRegion   []uint8
	delivers   []delivery
	// ramps are the credit returns this region's switches started for VCs whose
	// reader (the switch that feeds them) is another region's, by that region.
	ramps [][]ramp
	// posts are wormhole's events for another region's wheel (a flit reaching one of
	// its VCs, a credit reaching one of its switches), by that region.
	posts [][]post
	// wh is the wormhole state: the engine's per-VC and per-port arrays, shared (a
	// switch writes only its own entries), with the region's crossing packets and
	// winners.
	wh wormhole
	// scratch of its own, kept across cycles
	req      []request
	best     []int32
	accept   []int32
	matchIn  []bool
	matchOut []bool
	scratch  []routing.Candidate
	opts     []routing.Option
	voq      voqState
	start    chan phase
}

// phase is what a worker is started for.
type phase uint8

const (
	phaseEvents   phase = iota // its wheel's events of the cycle
	phaseAllocate              // allocation at its listed switches
	phaseArrivals              // queueing the packets that every region sent into it; its ramps
)

// arrival is a packet that has left for input VC ivc, whose head may leave at ready.
type arrival struct {
	ivc, pkt int32
	ready    int64
}

// post is an event to schedule at cycle at on another region's wheel.
type post struct {
	at   int64
	code uint32
}

// delivery is a packet whose tail reaches its NIC at cycle at.
type delivery struct {
	pkt int32
	at  int64
}

// ramp is a packet of flits flits that was granted its output from input VC ivc this
// cycle: its credits start returning to the upstream switch at cycle at, the cycle
// after it starts to leave (later than the next under ReserveOutputVCs, where it
// leaves after the packets granted the link before it).
type ramp struct {
	ivc   int32
	flits uint32
	at    int64
	// deferred: credits that take more than a cycle to return, whose ramp starts
	// with an event at cycle at (Engine.deferRamp).
	deferred bool
}

// threadsUsable reports whether the run's allocation can be parallel. Not at the flit
// level of virtual cut-through (tests only), whose flits move through per-cycle
// streams in one list (Engine.streams); wormhole's crossing packets are listed by
// region (worker.wh). Not with a crossbar input per VC and port
// arbitration, whose results under model version 2 depend on the order in which
// switches are visited (enqueue; a known wart, docs/architecture.md); with output VCs
// reserved (ReserveOutputVCs, the insee preset) they do not, and it runs in parallel.
// Virtual output queues do too: each worker scans with a mask of its own (worker.voq).
// Not with a routing that reads the queues of other switches as it chooses
// (routing.Chooser: UGAL-G), whose reads would race with their allocation.
func (e *Engine) threadsUsable() bool {
	return e.p.Threads > 1 && (e.packetLevel || e.wh != nil) && e.chooser == nil &&
		(!e.p.CrossbarPerVC || e.p.ReserveOutputVCs)
}

// initParallel divides the switches into Threads contiguous regions of about equal
// port counts; an output queue goes with the switch whose port it serves.
func (e *Engine) initParallel() {
	n := min(e.p.Threads, int(e.nReal))
	if !e.threadsUsable() || n < 2 {
		return
	}
	pr := &parallel{region: make([]uint8, len(e.sw)), minList: 32}
	total := int(e.sw[e.nReal-1].base) + int(e.sw[e.nReal-1].ports)
	for s := int32(0); s < e.nReal; s++ {
		pr.region[s] = uint8(int(e.sw[s].base) * n / total)
	}
	for x := e.nReal; int(x) < len(e.sw); x++ { // output queues: the link's switch
		link := e.ports[e.sw[x].base+1].link
		pr.region[x] = pr.region[e.ports[link].sw]
	}
	pr.downRegion, pr.upRegion = make([]uint8, len(e.ports)), make([]uint8, len(e.ports))
	for g := range e.ports {
		pr.upRegion[g] = pr.region[e.ports[g].sw] // a NIC's: read on one core
	}
	for g := range e.ports {
		if d := e.ports[g].down; d >= 0 {
			in := e.vcs[d].port
			pr.downRegion[g] = pr.region[e.ports[in].sw]
			pr.upRegion[in] = pr.region[e.ports[g].sw]
		}
	}
	for r := 0; r < n; r++ {
		w := &worker{region: r, wheel: make([][]uint32, len(e.wheel)), best: make([]int32, len(e.best)), start: make(chan phase),
			arrivals: make([][]arrival, n), ramps: make([][]ramp, n), posts: make([][]post, n), downRegion: pr.downRegion, upRegion: pr.upRegion}
		for i := range w.best {
			w.best[i] = -1
		}
		if e.voq != nil { // the queued packets' routes are their switches'; the scan's mask is the worker's
			w.voq = voqState{route: e.voq.route, seen: make([]uint64, len(e.voq.seen))}
		}
		if e.accept != nil {
			w.accept = make([]int32, len(e.accept))
			for i := range w.accept {
				w.accept[i] = -1
			}
			w.matchIn, w.matchOut = make([]bool, len(e.matchIn)), make([]bool, len(e.matchOut))
		}
		pr.workers = append(pr.workers, w)
	}
	e.par = pr
	// The worker goroutines end when the engine is collected.
	runtime.AddCleanup(e, func(pr *parallel) { pr.stop() }, pr)
}

// run starts the worker goroutines (all but the first region's, which the caller's
// goroutine takes).
func (pr *parallel) run() {
	pr.started = true
	for _, w := range pr.workers[1:] {
		go func(w *worker) {
			for ph := range w.start {
				w.do(pr, ph)
				pr.wg.Done()
			}
		}(w)
	}
}

func (pr *parallel) stop() {
	if pr.started {
		for _, w := range pr.workers[1:] {
			close(w.start)
		}
	}
}

// idle reports whether no region has a switch to visit or a packet crossing.
func (pr *parallel) idle() bool {
	for _, w := range pr.workers {
		if len(w.list) > 0 || len(w.next) > 0 || len(w.wh.active) > 0 {
			return false
		}
	}
	return true
}

// each runs phase ph on every worker and waits for all of them: on every worker's
// core when on, else one after another on the caller's.
func (pr *parallel) each(ph phase, on bool) {
	if !on {
		for _, w := range pr.workers {
			w.do(pr, ph)
		}
		return
	}
	if !pr.started {
		pr.run()
	}
	pr.wg.Add(len(pr.workers) - 1)
	for _, w := range pr.workers[1:] {
		w.start <- ph
	}
	pr.workers[0].do(pr, ph)
	pr.wg.Wait()
}

// do is the worker's share of phase ph.
func (w *worker) do(pr *parallel, ph phase) {
	we := &w.e
	switch ph {
	case phaseEvents:
		we.runDueEvents() // its wheel is the worker's (begin)
	case phaseAllocate:
		if pr.checkRegions {
			for _, s := range we.allocNow {
				if int(pr.region[s]) != w.region && we.err == nil {
					we.err = fmt.Errorf("engine: switch %d of region %d listed for allocation in region %d at cycle %d", s, pr.region[s], w.region, we.now)
				}
			}
		}
		we.allocateListed() // its list is the region's (begin)
	case phaseArrivals:
		// Every region's packets for this one, in region order: the VCs they enter are
		// this region's, and their ready heads go on this worker's wheel.
		for _, from := range pr.workers {
			for _, a := range from.arrivals[w.region] {
				we.enqueue(a.ivc, a.pkt, a.ready)
			}
		}
		for _, from := range pr.workers { // the credits this region reads, in region order
			for _, r := range from.ramps[w.region] {
				we.credit(r)
			}
		}
		for _, from := range pr.workers { // wormhole's flits and credits that reach this region
			for _, p := range from.posts[w.region] {
				we.schedule(p.at, p.code)
			}
		}
	}
}

// begin makes the worker's engine a copy of e for a phase, with its own wheel, lists,
// meter and scratch.
func (w *worker) begin(e *Engine) {
	w.e = *e
	we := &w.e
	we.par, we.wk = nil, w
	we.allocNow, we.allocNxt = w.list, w.next
	we.wheel, we.pending = w.wheel, 0
	// The worker counts link flits (chanFlits, shared: each region its own ports) and
	// keeps those beyond the window for the engine's meter (end).
	w.meter = meter{start: e.m.start, end: e.m.end, last: e.m.last, chanFlits: e.m.chanFlits, closed: e.m.closed,
		frameLen: e.m.frameLen, frames: e.m.frames, ports: e.m.ports, aheadFlits: w.meter.aheadFlits[:0]}
	we.m = &w.meter
	we.req, we.best, we.accept, we.matchIn, we.matchOut = w.req, w.best, w.accept, w.matchIn, w.matchOut
	we.scratch, we.opts = w.scratch, w.opts
	if e.voq != nil {
		we.voq = &w.voq
	}
	if e.wh != nil {
		active, winners, reqs := w.wh.active, w.wh.winners, w.wh.reqs
		w.wh = *e.wh
		w.wh.active, w.wh.winners, w.wh.reqs = active, winners, reqs
		we.wh = &w.wh
	}
}

// end adds what the worker counted to e and keeps its lists and grown scratch.
func (w *worker) end(e *Engine) {
	we := &w.e
	e.pending += we.pending
	e.m.flitHops += w.meter.flitHops
	e.m.ejectAll += w.meter.ejectAll
	e.m.aheadFlits = append(e.m.aheadFlits, w.meter.aheadFlits...)
	e.lastMove = max(e.lastMove, we.lastMove)
	if e.err == nil {
		e.err = we.err // a routing that gave virtual output queues several ports (routeOnce)
	}
	w.list, w.next = we.allocNow, we.allocNxt
	w.req, w.scratch, w.opts = we.req, we.scratch, we.opts
}
