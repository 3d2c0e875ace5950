package engine

import (
	"math"
	"math/bits"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// Phase 3 of a cycle: allocation. At each listed switch every idle input port offers
// one ready head (round-robin over its VCs) and every free output port grants one
// input (round-robin over inputs), or iSLIP does both (islip.go); a head that lacks
// room downstream retries next cycle, one behind a busy port sleeps until it frees.
// Routing decisions are route.go's; a grant starts traversal (traverse.go). Threads
// run it region by region (allocateParallel).

type request struct {
	in, out int32 // local ports
	ivc     int32
	slot    int32 // virtual output queues: the queue position of the packet, else -1 (the head)
	cand    routing.Candidate
}

// Verdicts of consider on one head packet.
const (
	canGo    = iota // it can start now: it requests its output
	waitBusy        // its output is busy until a known cycle: sleep until then
	waitRoom        // no room downstream (credits, queue) or no adaptive choice: retry next cycle
)

// allocationPhase is phase 3 of cycle t: every switch listed for allocation (every
// switch when Params says so) allocates its outputs to its ready heads, on one thread
// (allocateListed) or region by region on the workers (allocateParallel, which runs
// allocateListed on each region's list). A packet granted at the packet level crosses
// at once (traverse.go's start); under wormhole the crossing packets' flits move here
// too (wormhole.go).
func (e *Engine) allocationPhase(t int64) {
	if e.allocEveryCycle {
		for s := range e.sw {
			e.list(int32(s), t)
		}
	}
	if e.beforeAlloc != nil {
		e.beforeAlloc()
	}
	e.allocFrom = t + 1
	if e.par != nil {
		e.allocateParallel()
		return
	}
	e.allocateListed()
}

// allocateListed allocates at every switch of e's list: the engine's, or a worker's
// copy with its region's list.
func (e *Engine) allocateListed() {
	if e.wh != nil {
		for _, s := range e.allocNow {
			e.allocateWormhole(int(s))
		}
		e.advanceWormhole()
		return
	}
	e.allocateList(e.allocNow)
}

// allocate runs the two-stage round-robin allocation of switch s (or iSLIP's,
// allocateISLIP, when the Allocator says so): each idle input port
// picks one VC whose head can advance (round-robin over its VCs), then each output
// port grants one of the inputs that request it (round-robin over inputs). A head
// blocked for room retries next cycle; one whose input or output port is busy sleeps
// until the port frees (at the flit level the packet's tail wakes the switch instead).
func (e *Engine) allocate(s int) {
	base := int(e.sw[s].base)
	np := int(e.sw[s].ports)
	// Fast path: one input port with one ready head, the common case; no arbitration.
	if ports := e.sw[s].ready; ports != 0 && ports&(ports-1) == 0 && !e.sw[s].wide {
		q := bits.TrailingZeros64(ports)
		if ps := &e.ports[base+q]; ps.ready&(ps.ready-1) == 0 {
			if ps.inBusy > e.now {
				e.sleep(s, ps.inBusy)
				return
			}
			ivc := ps.vc0 + int32(bits.TrailingZeros64(ps.ready))
			c, verdict, at, slot := e.consider(s, q, base, ivc)
			switch verdict {
			case canGo:
				e.start(base, np, request{in: int32(q), out: int32(c.Port), ivc: ivc, slot: slot, cand: c})
				if e.p.Allocator.ISLIP { // one request: granted and accepted
					ps.acRR = nextPort(int32(c.Port), np)
				}
			case waitBusy:
				e.sleep(s, at)
			case notReady, waitRamp:
				e.unready(ps, ivc)
			case waitAt:
				e.readyLater(ps, ivc, at)
			default:
				e.relist(int32(s))
			}
			return
		}
	}
	if e.p.Allocator.ISLIP {
		e.allocateISLIP(s, base, np)
		return
	}
	nreq := 0
	blocked := false
	// Stage 1: every idle input port picks one VC whose head packet can advance.
	ports, sleep := e.inputs(s), int64(math.MaxInt64)
	for {
		q, ps := e.nextInput(&ports, base, np, &sleep)
		if ps == nil {
			break
		}
		// The VCs whose head may leave, in round-robin order from inRR.
		n, r := uint(ps.nvc), uint(ps.inRR)
		for rot := rotateReady(ps.ready, r, n); rot != 0; {
			v := r + uint(bits.TrailingZeros64(rot))
			if v >= n {
				v -= n
			}
			rot &= rot - 1
			ivc := ps.vc0 + int32(v)
			c, verdict, at, slot := e.consider(s, q, base, ivc)
			if verdict == canGo {
				nreq = e.addRequest(nreq, request{in: int32(q), out: int32(c.Port), ivc: ivc, slot: slot, cand: c})
				break
			}
			sleep, blocked = e.waits(ps, ivc, verdict, at, sleep, blocked)
		}
	}
	// Stage 2: every requested output port (output VC under ReserveOutputVCs) grants
	// one input, round-robin. A lone request is granted: nothing to arbitrate.
	if nreq == 1 {
		r := e.req[0]
		e.start(base, np, r)
		if ps := &e.ports[base+int(r.in)]; ps.ready != 0 { // its other VCs wait for the input
			sleep = min(sleep, ps.inBusy)
		}
		e.retry(s, blocked, sleep)
		return
	}
	reqs := e.req[:nreq]
	if e.grantByPort {
		sleep, blocked = e.grantPorts(base, np, reqs, sleep, blocked)
		e.retry(s, blocked, sleep)
		return
	}
	for i := range reqs {
		r := &reqs[i]
		if b := e.grantee(base, r); b != nil && (*b < 0 || e.wins(base, np, r, &reqs[*b])) {
			*b = int32(i)
		}
	}
	for i := range reqs {
		r := &reqs[i]
		if b := e.grantee(base, r); b != nil && *b != int32(i) {
			continue // a loser: once the winners have started (below)
		}
		e.start(base, np, *r)
		if ps := &e.ports[base+int(r.in)]; ps.ready != 0 { // its other VCs wait for the input
			sleep = min(sleep, ps.inBusy)
		}
	}
	for i := range reqs {
		r := &reqs[i]
		b := e.grantee(base, r)
		switch {
		case b == nil:
		case *b == int32(i): // the winner: the cell is clear for the next switch
			*b = -1
		case e.lost(base, r):
			blocked = true
		}
	}
	e.retry(s, blocked, sleep)
}

// grantPorts is stage 2 of allocation when every output port grants one request
// (grantByPort), the common case: what the general loops of allocate do through
// grantee, with the grant cells (Engine.best, one per local output port) read
// directly. The winners start first, since a loser's wait (lost) reads the port its
// winner holds; each winner's cell is then cleared for the next switch. It is a path of
// its own, not a cheaper grantee, because grantee cannot be made small enough to be
// inlined (with its other cases moved to a function of their own it still costs 90 of
// the compiler's 80): the one set of loops then took 2 % more instructions per
// packet-hop (BENCHMARKS.md, issue 15's tenth part).
func (e *Engine) grantPorts(base, np int, reqs []request, sleep int64, blocked bool) (int64, bool) {
	best := e.best
	for i := range reqs {
		r := &reqs[i]
		if b := best[r.out]; b < 0 || e.wins(base, np, r, &reqs[b]) {
			best[r.out] = int32(i)
		}
	}
	for i := range reqs {
		if r := &reqs[i]; best[r.out] == int32(i) {
			e.start(base, np, *r)
			if ps := &e.ports[base+int(r.in)]; ps.ready != 0 { // its other VCs wait for the input
				sleep = min(sleep, ps.inBusy)
			}
		}
	}
	for i := range reqs {
		switch r := &reqs[i]; {
		case best[r.out] == int32(i):
			best[r.out] = -1
		case e.lost(base, r):
			blocked = true
		}
	}
	return sleep, blocked
}

// rotateReady is the ready mask of a port's n VCs (1 to 64) rotated so that bit 0 is
// VC r, the first in round-robin order (r below n). The shift counts are masked so
// that the compiler shifts with one instruction: at r = 0 the left shift is by n or 0
// (n = 64), and either leaves the masked result as it should.
func rotateReady(ready uint64, r, n uint) uint64 {
	return (ready>>(r&63) | ready<<((n-r)&63)) & (^uint64(0) >> ((64 - n) & 63))
}

// lost takes note of request r, which lost its output port to another input's packet
// this cycle, and reports whether the switch must try again next cycle, when the
// loser's input may pick another VC. At the packet level the port is then busy
// until a known cycle, and under deterministic routing the loser's next look would
// find it so (waitAt): the head waits out of allocation until then at once, and the
// switch tries again next cycle only for the input's other heads. A loser whose port
// frees next cycle (one-flit packets), or that may choose another port (adaptive
// routing), tries again next cycle.
func (e *Engine) lost(base int, r *request) bool {
	if !e.waitOut || !e.grantByPort || e.det == nil {
		return true
	}
	at := e.ports[base+int(r.out)].outBusy
	if at <= e.now+1 {
		return true
	}
	ps := &e.ports[base+int(r.in)]
	e.readyLater(ps, r.ivc, at)
	return ps.ready != 0
}

// inputScan walks the input ports of one switch that allocation looks at: those
// with a ready head (switchState.ready), or, on a switch with more than 64 ports
// (wide), every port, 64 at a time.
type inputScan struct {
	mask uint64 // ports still to visit in this window, bit i = port off+i
	off  int    // the port of bit 0
	wide bool   // more windows follow until the switch's ports run out
}

// inputs starts the scan of switch s's input ports.
func (e *Engine) inputs(s int) inputScan {
	if e.sw[s].wide {
		return inputScan{mask: ^uint64(0), wide: true}
	}
	return inputScan{mask: e.sw[s].ready}
}

// nextInput is the screening step of every allocator (two-stage, iSLIP, wormhole's
// output VCs): it takes from it the next local input port q of the switch (np ports
// from base) that has a ready head and whose crossbar input is free now, and lowers
// *sleep to the cycle a busy one frees; ps is nil when none is left. Under wormhole
// switching a crossbar input is never held, so none is busy.
func (e *Engine) nextInput(it *inputScan, base, np int, sleep *int64) (q int, ps *portState) {
	for {
		if it.mask == 0 {
			if !it.wide || it.off+64 >= np {
				return 0, nil
			}
			it.mask, it.off = ^uint64(0), it.off+64
		}
		q = it.off + bits.TrailingZeros64(it.mask)
		it.mask &= it.mask - 1
		if q >= np {
			return 0, nil // bits are visited in order: the rest are past the last port
		}
		ps = &e.ports[base+q]
		if ps.ready == 0 {
			continue
		}
		if ps.inBusy > e.now {
			*sleep = min(*sleep, ps.inBusy)
			continue
		}
		return q, ps
	}
}

// addRequest makes r the switch's request number nreq (e.req grows to the most
// requests a switch has made and is reused) and returns the new count.
func (e *Engine) addRequest(nreq int, r request) int {
	if nreq == len(e.req) {
		e.req = append(e.req, r)
	} else {
		e.req[nreq] = r
	}
	return nreq + 1
}

// waits takes note of why head ivc of input port ps cannot start now (consider's
// verdict): it waits for a busy port (the switch may sleep until at, the earliest of
// such), it is not ready (virtual output queues: out of allocation until marked
// again), or it is blocked (the switch tries again next cycle).
func (e *Engine) waits(ps *portState, ivc int32, verdict int, at, sleep int64, blocked bool) (int64, bool) {
	switch verdict {
	case waitBusy:
		sleep = min(sleep, at)
	case notReady, waitRamp:
		e.unready(ps, ivc)
	case waitAt:
		e.readyLater(ps, ivc, at)
	default:
		blocked = true
	}
	return sleep, blocked
}

// retry has switch s allocate again after a round that left heads waiting: next
// cycle when one was blocked (it may win, or find room, then), else when the first
// busy port that one waits for frees (sleep; math.MaxInt64: nothing to wait for).
func (e *Engine) retry(s int, blocked bool, sleep int64) {
	if blocked {
		e.relist(int32(s))
	} else if sleep != math.MaxInt64 {
		e.sleep(s, sleep)
	}
}

// consider decides whether the head packet of input VC ivc (at local port q of switch
// s) can start now; when it waits for a busy port, at is the cycle the port frees.
// Under virtual output queues it considers the first packet of each output's queue
// and returns the queue position of the one it offers (else slot is -1).
func (e *Engine) consider(s, q, base int, ivc int32) (c routing.Candidate, verdict int, at int64, slot int32) {
	vc := &e.vcs[ivc]
	switch {
	case int32(s) >= e.nReal: // an output queue: on to the link
		c = e.queueRoute(base, q, ivc)
		verdict, at = e.verdict(base, c, int32(e.lenOf(vc.headPkt)), ivc)
		return c, verdict, at, -1
	case e.voq != nil:
		return e.considerVOQ(s, q, base, ivc)
	case e.det == nil:
		if c, ok := e.choose(s, q, ivc, vc.headPkt, base); ok {
			return c, canGo, 0, -1
		}
		return c, waitRoom, 0, -1
	}
	if !vc.routed { // deterministic: one candidate, routed once per hop
		e.routeDeterministic(vc, vc.headPkt)
	}
	c = vc.route
	verdict, at = e.verdict(base, c, int32(e.lenOf(vc.headPkt)), ivc)
	return c, verdict, at, -1
}

// readyLater takes input VC ivc of port ps out of allocation until cycle at (waitAt).
func (e *Engine) readyLater(ps *portState, ivc int32, at int64) {
	e.unready(ps, ivc)
	e.schedule(at, evReady|uint32(ivc))
}

// unready takes input VC ivc of port ps out of allocation: none of its packets may
// leave yet, and each will mark it again when it may (virtual output queues).
func (e *Engine) unready(ps *portState, ivc int32) {
	if ps.ready &^= vcBit(ivc - ps.vc0); ps.ready == 0 {
		e.sw[ps.sw].ready &^= portBit(int32(ps.local))
	}
}

// vcBit is the bit of a port's v-th VC in the port's ready mask. A port has at most
// MaxVCs = 64 VCs; masking the count says so to the compiler, which then shifts with
// one instruction instead of guarding against counts of 64 and more.
func vcBit(v int32) uint64 { return 1 << (uint(v) & 63) }

// portBit is the bit of local port q in its switch's ready mask. The ports of a wide
// switch past the 64th share lower bits: harmless, since allocation scans every port
// of a wide switch and reads its mask only where it has checked that it is not wide.
func portBit(q int32) uint64 { return 1 << (uint(q) & 63) }

// sleep makes switch s allocate again at cycle at, when a port it waits for frees (a
// packet-level time; the flit level's "until further notice" is left to the tail).
func (e *Engine) sleep(s int, at int64) {
	if at != math.MaxInt64 && e.sw[s].wakeAt != at {
		e.sw[s].wakeAt = at
		e.schedule(at, evWake|uint32(s))
	}
}

// wins reports whether request r beats request b for their output port: under
// TransitPriority a packet in transit beats one being injected (BlueGene/L's rule),
// otherwise (and between two of a kind) the output's round-robin order decides.
func (e *Engine) wins(base, np int, r, b *request) bool {
	if e.p.TransitPriority {
		rt := e.ports[base+int(r.in)].kind == topology.Terminal
		bt := e.ports[base+int(b.in)].kind == topology.Terminal
		if rt != bt {
			return bt
		}
	}
	return e.rrBefore(base+int(r.out), r.in, b.in, np)
}

// rrBefore reports whether input a comes before input b in output g's round-robin order.
func (e *Engine) rrBefore(g int, a, b int32, np int) bool {
	p := int32(e.ports[g].outRR)
	return rrDist(a, p, np) < rrDist(b, p, np)
}

// rrDist is how far input a comes after the round-robin pointer p among np ports
// (a and p below np): a subtraction, not a division, on the allocation path.
func rrDist(a, p int32, np int) int32 {
	if a -= p; a < 0 {
		a += int32(np)
	}
	return a
}

// allocateParallel runs the allocation of every listed switch, region by region (under
// wormhole, then one flit of every packet crossing the region's switches), then
// queues the packets sent, region by region, and applies what the regions held back
// in region order.
func (e *Engine) allocateParallel() {
	pr := e.par
	for _, s := range e.allocNow { // listed on one core: by injection
		w := pr.workers[pr.region[s]]
		w.list = append(w.list, s)
	}
	n := 0
	for _, w := range pr.workers {
		w.begin(e)
		for r := range w.arrivals {
			w.arrivals[r] = w.arrivals[r][:0]
		}
		for r := range w.ramps {
			w.ramps[r], w.posts[r] = w.ramps[r][:0], w.posts[r][:0]
		}
		w.delivers = w.delivers[:0]
		n += len(w.list) + len(w.wh.active)
	}
	on := n >= pr.minList
	if on {
		pr.phases++
	}
	pr.each(phaseAllocate, on)
	pr.each(phaseArrivals, on)
	for _, w := range pr.workers {
		w.end(e)
		for _, d := range w.delivers {
			e.deliver(d.pkt, d.at)
		}
	}
}
