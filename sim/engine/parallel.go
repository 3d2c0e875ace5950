package engine

import (
	"runtime"
	"sync"

	"github.com/twintorus/twintorus/sim/routing"
)

// One simulation on several cores (Params.Threads). A cycle's allocation phase, where
// switches decide which packets start, is split among workers, each taking the listed
// switches of one contiguous region of switch ids; the other phases (events, traffic
// generation, injection, the deadlock watchdog) stay on one core. Within a cycle every
// effect of one switch on another becomes visible a cycle or more later, so the
// regions are independent once the few effects that cross a switch's boundary are
// held back and applied after the phase, in region order:
//
//   - a packet entering the next switch's input VC (its queue and head): held back by
//     the region of the next switch, and queued there by that region's worker in a
//     second parallel phase, after every region has allocated;
//   - a packet delivered to a NIC (the meters, the packet and message free lists);
//   - events on the timing wheel (credit ramps, ready heads, wake-ups) and the switches
//     to visit next cycle: each worker has a wheel and a list of its own, appended to
//     the engine's after the phase;
//   - counters (flit-hops, ejected flits, the last cycle a flit moved): a meter of its
//     own per worker, added after the phase;
//   - a departing packet's credits, which start returning to the upstream switch the
//     next cycle: set by an event at the next cycle instead of at once (what the
//     upstream switch reads of them within the cycle is the same either way, because
//     the previous ramp of that VC has ended).
//
// A switch writes directly only what it owns: its ports and input VCs, the packets in
// them, the credit count of the downstream VCs it feeds (no other switch feeds them),
// the loads of its links and its selection state. What it reads of other switches is
// the credits of the VCs it feeds; the queue slots of those VCs, which their own switch
// changes, are never read at the packet level (room for a packet implies a slot).
//
// The order in which deliveries, events and next-cycle visits are applied differs
// from a one-thread run's, and nothing observable depends on it: metrics are sums and
// maxima of integers (latency sums are float64 sums of integers, exact below 2⁵³),
// the visiting order of switches within a cycle cannot matter (every effect is
// delayed), and packet and message ids are never compared. Results are bit for bit
// those of one thread (TestThreadsBitIdentical).
//
// Some runs stay on one core whatever Threads says: wormhole, virtual output queues,
// closed-loop programs and a crossbar input per VC (threadsUsable says why).

// parallel holds the workers of a parallel allocation phase.
type parallel struct {
	workers []*worker
	lists   [][]int32 // per region: the switches to allocate this cycle
	region  []uint8   // per switch: its region
	// downRegion is, per global port, the region of the switch (or output queue) its
	// link leads to: where a packet leaving by it is queued.
	downRegion []uint8
	wg         sync.WaitGroup
	// minList: a cycle with fewer switches to allocate runs on one core (the handover
	// costs more than it saves). It does not change results.
	minList int
	started bool
	phases  int64 // cycles allocated in parallel (tests)
}

// worker is one region's share of an allocation phase: a copy of the engine whose
// wheel, allocation list and meter are its own, and the effects it holds back.
type worker struct {
	e       Engine
	region  int
	meter   meter
	wheel   [][]uint32
	relists []int32
	// arrivals are the packets this region's switches sent, by the region they enter.
	arrivals   [][]arrival
	downRegion []uint8
	delivers   []delivery
	// scratch of its own, kept across cycles
	req      []request
	best     []int32
	accept   []int32
	matchIn  []bool
	matchOut []bool
	scratch  []routing.Candidate
	opts     []routing.Option
	start    chan phase
}

// phase is what a worker is started for: its region's allocation, or the queueing of
// the packets that every region sent into it.
type phase uint8

const (
	phaseAllocate phase = iota
	phaseArrivals
)

// arrival is a packet that has left for input VC ivc, whose head may leave at ready.
type arrival struct {
	ivc, pkt int32
	ready    int64
}

// delivery is a packet whose tail reaches its NIC at cycle at.
type delivery struct {
	pkt int32
	at  int64
}

// threadsUsable reports whether the run's allocation can be parallel. Not at the flit
// level (tests only) nor under wormhole switching: flits move through per-cycle streams
// in one list (wormhole.active). Not with virtual output queues: every switch's scan
// uses one scratch mask (voqState.seen). Not for closed-loop programs, which hear of
// each delivery as it happens. Not with a crossbar input per VC, whose results under
// model version 2 depend on the order in which switches are visited (enqueue; a known
// wart, docs/architecture.md).
func (e *Engine) threadsUsable() bool {
	return e.p.Threads > 1 && e.packetLevel && e.voq == nil && e.prog == nil && e.wh == nil && !e.p.CrossbarPerVC
}

// initParallel divides the switches into Threads contiguous regions of about equal
// port counts; an output queue goes with the switch whose port it serves.
func (e *Engine) initParallel() {
	n := min(e.p.Threads, int(e.nReal))
	if !e.threadsUsable() || n < 2 {
		return
	}
	pr := &parallel{lists: make([][]int32, n), region: make([]uint8, len(e.sw)), minList: 32}
	total := int(e.sw[e.nReal-1].base) + int(e.sw[e.nReal-1].ports)
	for s := int32(0); s < e.nReal; s++ {
		pr.region[s] = uint8(int(e.sw[s].base) * n / total)
	}
	for x := e.nReal; int(x) < len(e.sw); x++ { // output queues: the link's switch
		link := e.ports[e.sw[x].base+1].link
		pr.region[x] = pr.region[e.ports[link].sw]
	}
	pr.downRegion = make([]uint8, len(e.ports))
	for g := range e.ports {
		if d := e.ports[g].down; d >= 0 {
			pr.downRegion[g] = pr.region[e.ports[e.vcs[d].port].sw]
		}
	}
	for r := 0; r < n; r++ {
		w := &worker{region: r, wheel: make([][]uint32, len(e.wheel)), best: make([]int32, len(e.best)), start: make(chan phase),
			arrivals: make([][]arrival, n), downRegion: pr.downRegion}
		for i := range w.best {
			w.best[i] = -1
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

// allocateParallel runs the allocation of every listed switch, region by region in
// parallel, then applies what the regions held back, in region order.
func (e *Engine) allocateParallel() {
	pr := e.par
	if len(e.allocNow) < pr.minList {
		for _, s := range e.allocNow {
			e.allocate(int(s))
		}
		return
	}
	if !pr.started {
		pr.run()
	}
	pr.phases++
	for r := range pr.lists {
		pr.lists[r] = pr.lists[r][:0]
	}
	for _, s := range e.allocNow {
		r := pr.region[s]
		pr.lists[r] = append(pr.lists[r], s)
	}
	for r, w := range pr.workers {
		w.begin(e, pr.lists[r])
	}
	pr.each(phaseAllocate)
	pr.each(phaseArrivals)
	for _, w := range pr.workers {
		w.finish(e)
	}
}

// each runs phase ph on every worker, the first on the caller's goroutine, and waits
// for all of them.
func (pr *parallel) each(ph phase) {
	pr.wg.Add(len(pr.workers) - 1)
	for _, w := range pr.workers[1:] {
		w.start <- ph
	}
	pr.workers[0].do(pr, ph)
	pr.wg.Wait()
}

// do is the worker's share of phase ph.
func (w *worker) do(pr *parallel, ph phase) {
	if ph == phaseAllocate {
		w.e.allocateList(w.e.allocNow)
		return
	}
	// Every region's packets for this one, in region order: the VCs they enter are
	// this region's, and their ready heads go on this worker's wheel.
	for _, from := range pr.workers {
		for _, a := range from.arrivals[w.region] {
			w.e.enqueue(a.ivc, a.pkt, a.ready)
		}
	}
}

// arrive holds back packet a, which leaves by global port out, for the region it enters.
func (w *worker) arrive(out int, a arrival) {
	r := w.downRegion[out]
	w.arrivals[r] = append(w.arrivals[r], a)
}

// begin makes the worker's engine a copy of e for this cycle's phase, with its own
// wheel, list, meter and scratch.
func (w *worker) begin(e *Engine, list []int32) {
	w.e = *e
	we := &w.e
	we.par, we.wk = nil, w
	we.allocNow = list
	we.allocNxt = w.relists[:0]
	we.wheel, we.pending = w.wheel, 0
	w.meter = meter{start: e.m.start, end: e.m.end, chanFlits: e.m.chanFlits}
	we.m = &w.meter
	we.req, we.best, we.accept, we.matchIn, we.matchOut = w.req, w.best, w.accept, w.matchIn, w.matchOut
	we.scratch, we.opts = w.scratch, w.opts
	for r := range w.arrivals {
		w.arrivals[r] = w.arrivals[r][:0]
	}
	w.delivers = w.delivers[:0]
}

// finish applies what the worker held back to the engine and keeps its grown scratch.
func (w *worker) finish(e *Engine) {
	we := &w.e
	for _, d := range w.delivers {
		e.deliver(d.pkt, d.at)
	}
	if we.pending > 0 {
		for i, b := range w.wheel {
			if len(b) > 0 {
				e.wheel[i] = append(e.wheel[i], b...)
				w.wheel[i] = b[:0]
			}
		}
		e.pending += we.pending
	}
	e.allocNxt = append(e.allocNxt, we.allocNxt...)
	e.m.flitHops += w.meter.flitHops
	e.m.ejectAll += w.meter.ejectAll
	e.lastMove = max(e.lastMove, we.lastMove)
	w.relists = we.allocNxt[:0]
	w.req, w.scratch, w.opts = we.req, we.scratch, we.opts
}
