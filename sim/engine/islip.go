package engine

import (
	"math"
	"math/bits"
)

// allocateISLIP is allocate under the iSLIP allocator (Allocator), for a switch with
// more than one ready head (allocate's one-head fast path is iSLIP's outcome too: one
// request is granted and accepted, and the pointers move as start moves them).
//
// Requests are the heads that can start now (consider), every one of them: an input
// port requests each output that some head of its VCs can advance to. In each
// iteration every output not yet matched grants, of the unmatched inputs requesting
// it, the one next in round-robin order from its grant pointer (outRR); every input
// that got grants accepts the output next from its accept pointer (acRR); the pair is
// matched and the input's VC that goes is the next, from its VC pointer (inRR), of
// those whose head wants that output. The pointers move one beyond the matched
// partner (start moves the grant and VC pointers, the accept pointer moves here);
// matches of later iterations put the grant pointer back, as iSLIP updates the
// pointers only in the first. Heads that lose retry next cycle, heads waiting for a
// busy port sleep until it frees, as under the two-stage allocator.
func (e *Engine) allocateISLIP(s, base, np int) {
	nreq := 0
	blocked := false
	ports, sleep := e.inputs(s), int64(math.MaxInt64)
	for {
		q, ps := e.nextInput(&ports, base, np, &sleep)
		if ps == nil {
			break
		}
		for rdy := ps.ready; rdy != 0; rdy &= rdy - 1 {
			ivc := ps.vc0 + int32(bits.TrailingZeros64(rdy))
			c, verdict, at, slot := e.consider(s, q, base, ivc)
			if verdict == canGo {
				nreq = e.addRequest(nreq, request{in: int32(q), out: int32(c.Port), ivc: ivc, slot: slot, cand: c})
			} else {
				sleep, blocked = e.waits(ps, ivc, verdict, at, sleep, blocked)
			}
		}
	}
	reqs := e.req[:nreq]
	matched := 0
	for it := 0; it < e.p.Allocator.Iterations && matched < nreq; it++ {
		// Grant: e.best[out] is a request of the input the output grants.
		for i, r := range reqs {
			if e.matchIn[r.in] || e.matchOut[r.out] {
				continue
			}
			if b := e.best[r.out]; b < 0 || e.rrBefore(base+int(r.out), r.in, reqs[b].in, np) {
				e.best[r.out] = int32(i)
			}
		}
		// Accept: e.accept[in] is the grant the input accepts.
		for i, r := range reqs {
			if e.best[r.out] != int32(i) {
				continue
			}
			if a := e.accept[r.in]; a < 0 || e.acceptBefore(base+int(r.in), r.out, reqs[a].out, np) {
				e.accept[r.in] = int32(i)
			}
		}
		progress := false
		for i, r := range reqs {
			if e.accept[r.in] != int32(i) {
				continue
			}
			pick := i // the input's VC for this output, next from its VC pointer
			ip := &e.ports[base+int(r.in)]
			for j := range reqs {
				if o := reqs[j]; o.in == r.in && o.out == r.out && vcBefore(ip, o.ivc, reqs[pick].ivc) {
					pick = j
				}
			}
			op := &e.ports[base+int(r.out)]
			grantPtr := op.outRR
			e.start(base, np, reqs[pick])
			if it == 0 { // pointers move on first-iteration matches only
				ip.acRR = nextPort(r.out, np)
			} else {
				op.outRR = grantPtr
			}
			e.matchIn[r.in], e.matchOut[r.out] = true, true
			progress = true
			if ip.ready != 0 { // its other VCs wait for the input
				sleep = min(sleep, ip.inBusy)
			}
		}
		for _, r := range reqs {
			e.best[r.out], e.accept[r.in] = -1, -1
		}
		if !progress {
			break
		}
		matched = 0
		for _, r := range reqs {
			if e.matchIn[r.in] || e.matchOut[r.out] {
				matched++
			}
		}
	}
	for _, r := range reqs {
		if !e.matchIn[r.in] {
			blocked = true // an input that lost: it may win next cycle
		}
	}
	for _, r := range reqs {
		e.matchIn[r.in], e.matchOut[r.out] = false, false
	}
	e.retry(s, blocked, sleep)
}

// acceptBefore reports whether output a comes before output b in input g's accept order.
func (e *Engine) acceptBefore(g int, a, b int32, np int) bool {
	p := int32(e.ports[g].acRR)
	return (a-p+int32(np))%int32(np) < (b-p+int32(np))%int32(np)
}

// nextPort is local port p+1, wrapping at np: a round-robin pointer one beyond p.
func nextPort(p int32, np int) int16 {
	if p+1 == int32(np) {
		return 0
	}
	return int16(p + 1)
}
