package engine

import (
	"math"
	"math/bits"

	"github.com/twintorus/twintorus/sim/routing"
)

// Wormhole switching. A head packet is allocated an output virtual channel (the
// downstream input VC, or the NIC for an ejection) that it holds until its tail has
// left. Every cycle a switch allocator moves one flit per input port and per output
// port among the packets that have a flit here and a credit downstream: two-stage
// round-robin, as for packets, but per flit. The VCs of one link are independent of
// each other, which is what Dally–Seitz deadlock avoidance assumes; a packet blocked
// mid-way holds only its own VCs.
type wormhole struct {
	out    []int32 // per input VC: output port of its crossing packet, or -1
	dvc    []int32 // per input VC: the downstream VC it holds, or -1 when ejecting
	heldBy []int32 // per input VC, as an output VC: the input VC whose packet holds it, or -1
	active []int32 // input VCs with a packet crossing

	// classVCs: Params.ClassVCs (classvc.go), with the routing's VC classes per port kind.
	classVCs bool
	classes  [3]int32
	// classStart[out*classStride+c] is the first VC of class c beyond output port out
	// (tabulateClasses); c = classes is one past the last.
	classStart  []uint8
	classStride int

	// Params.SwitchAfterVC: a head allocated its output VC at cycle v crosses the
	// switch from v+switchAfter on (from, per input VC).
	switchAfter int64
	from        []int64
	// Params.EjectVCs: how many packets an ejection port takes at a time (ejectVCs, 0:
	// one, as a NIC), and how many it is taking (ejecting, per port).
	ejectVCs int32
	ejecting []int32
	// takenAt: per VC, the cycle a head last took it under ClassVCs (winsClassVC).
	takenAt []int64
	// Params.KeepRingClass.
	keepRing bool
	// Params.VCISLIP: grant pointers per output VC (indexed by the downstream VC) and
	// accept pointers per input VC, over local port*64 + VC; match is scratch.
	vcISLIP      bool
	vgptr, vaptr []int32
	match        []int32
	// Params.SwitchISLIP: the accept pointer of each input port (a local output port).
	switchISLIP bool
	aptr        []int16
	pickStamp   []int64 // per input port: the cycle of pick
	pick        []int32 // per input port: the VC it sends on its match
	outWinLocal []int16 // per output port: the local number of the input port outWin
	reqs        []islipReq
	// Params.CrossbarDelay: cycles a flit crosses the switch after leaving its VC.
	crossbar int64

	inStamp, outStamp []int64 // per port: the cycle of inWin/outWin
	inWin, outWin     []int32 // per port: the input VC winning stage 1 (input) / 2 (output)
	winners           []int32
}

func (e *Engine) initWormhole() {
	n, np := len(e.vcs), len(e.ports)
	w := &wormhole{out: make([]int32, n), dvc: make([]int32, n), heldBy: make([]int32, n),
		inStamp: make([]int64, np), outStamp: make([]int64, np), inWin: make([]int32, np), outWin: make([]int32, np)}
	for i := range w.out {
		w.out[i], w.dvc[i], w.heldBy[i] = -1, -1, -1
	}
	for i := range w.inStamp {
		w.inStamp[i], w.outStamp[i] = -1, -1
	}
	if e.p.SwitchAfterVC > 0 {
		w.switchAfter, w.from = int64(e.p.SwitchAfterVC), make([]int64, n)
	}
	if e.p.EjectVCs > 0 {
		w.ejectVCs, w.ejecting = int32(e.p.EjectVCs), make([]int32, np)
	}
	w.crossbar = int64(e.p.CrossbarDelay)
	if e.p.SwitchISLIP {
		w.switchISLIP, w.aptr, w.pickStamp, w.pick = true, make([]int16, np), make([]int64, np), make([]int32, np)
		w.outWinLocal = make([]int16, np)
		for i := range w.pickStamp {
			w.pickStamp[i] = -1
		}
	}
	e.wh = w
}

// allocateWormhole gives output VCs to the ready heads of switch s. Each requested
// output VC goes to one head, round-robin over input ports; a head whose output VC is
// held waits for that packet's tail (which wakes the switch), one without a credit
// downstream tries again next cycle.
func (e *Engine) allocateWormhole(s int) {
	w := e.wh
	base := int(e.sw[s].base)
	np := int(e.sw[s].ports)
	blocked := false
	nreq := 0
	ports, sleep := e.inputs(s), int64(math.MaxInt64) // no input is busy under wormhole
	for {
		q, ps := e.nextInput(&ports, base, np, &sleep)
		if ps == nil {
			break
		}
		for r := ps.ready; r != 0; r &= r - 1 {
			ivc := ps.vc0 + int32(bits.TrailingZeros64(r))
			c, ok := e.routeHead(s, q, base, ivc)
			if !ok {
				blocked = true
				continue
			}
			op := &e.ports[base+int(c.Port)]
			if op.down < 0 {
				if w.ejectVCs > 0 {
					if w.ejecting[base+int(c.Port)] >= w.ejectVCs {
						continue // the tail that frees one wakes the switch
					}
				} else if op.outBusy > e.now { // a NIC takes one packet at a time
					continue
				}
			} else if w.classVCs {
				if e.freeInClass(base+int(c.Port), c.VC) == 0 {
					continue // the tail that frees one wakes the switch
				}
			} else if dvc := op.down + int32(c.VC); w.heldBy[dvc] >= 0 {
				continue
			} else if !e.room(&e.vcs[dvc], c.Bubble, 1) {
				blocked = true
				continue
			}
			nreq = e.addRequest(nreq, request{in: int32(q), out: int32(c.Port), ivc: ivc, cand: c})
		}
	}
	reqs := e.req[:nreq]
	if w.vcISLIP {
		e.matchVCs(base, np, reqs)
	}
	for i, r := range reqs {
		in, out := base+int(r.in), base+int(r.out)
		ip, op := &e.ports[in], &e.ports[out]
		dvc := int32(-1)
		switch {
		case w.vcISLIP && op.down >= 0:
			dvc = w.match[i]
		case w.classVCs && op.down >= 0:
			dvc = e.winsClassVC(base, np, reqs, i)
		case w.ejectVCs > 0 && op.down < 0:
			if !e.winsEjectVC(base, np, reqs, i) {
				blocked = true
				continue
			}
		case e.winsOutputVC(base, np, reqs, i):
			if op.down >= 0 {
				dvc = op.down + int32(r.cand.VC)
			}
		default:
			blocked = true
			continue
		}
		if dvc < 0 && op.down >= 0 {
			blocked = true
			continue
		}
		if ip.ready &^= vcBit(r.ivc - ip.vc0); ip.ready == 0 {
			e.sw[s].ready &^= portBit(r.in)
		}
		w.out[r.ivc] = int32(out)
		if w.switchAfter > 0 {
			w.from[r.ivc] = e.now + w.switchAfter
		}
		switch {
		case op.down < 0 && w.ejectVCs > 0:
			w.dvc[r.ivc] = -1
			w.ejecting[out]++
		case op.down < 0:
			w.dvc[r.ivc] = -1
			op.outBusy, op.owner = math.MaxInt64, int32(in)
		default:
			w.dvc[r.ivc], w.heldBy[dvc] = dvc, r.ivc
			if w.classVCs {
				w.takenAt[dvc] = e.now
			}
			if w.vcISLIP {
				e.movePointersVC(base, np, r, dvc)
			}
		}
		countHop(&e.pk[e.vcs[r.ivc].headPkt], r.cand, op)
		w.active = append(w.active, r.ivc)
	}
	if blocked {
		e.relist(int32(s))
	}
}

// winsOutputVC reports whether request i of switch s (ports from base, np of them) wins
// its output VC: no other request for the same output VC comes before it, in the
// output port's round-robin order over input ports or, for two VCs of one input port,
// in that port's round-robin order over its VCs. Each output VC must go to exactly one
// packet. Several VCs of one input port can want the same output VC (a NIC spreads its
// packets over every VC of its injection port, which all route alike), and if two of
// them won it their flits would interleave in one downstream VC, where the engine
// counts flits, not their owners: a packet would be deemed complete with another's
// flits, delivered, and its id reused while still queued upstream, so packets ended up
// in VCs off their route and the dateline classes no longer held (issue 9).
func (e *Engine) winsOutputVC(base, np int, reqs []request, i int) bool {
	r := reqs[i]
	eject := e.ports[base+int(r.out)].down < 0 // an ejection port is one output "VC"
	for j, o := range reqs {
		if j == i || o.out != r.out || !eject && o.cand.VC != r.cand.VC {
			continue
		}
		if o.in == r.in && vcBefore(&e.ports[base+int(r.in)], o.ivc, r.ivc) ||
			o.in != r.in && e.rrBefore(base+int(r.out), o.in, r.in, np) {
			return false
		}
	}
	return true
}

// winsEjectVC is winsOutputVC for an ejection port under Params.EjectVCs: the
// requests for the port are ordered as winsOutputVC orders them, and the first ones
// win as long as the port takes more packets.
func (e *Engine) winsEjectVC(base, np int, reqs []request, i int) bool {
	r := reqs[i]
	k := int32(0)
	for j, o := range reqs {
		if j == i || o.out != r.out {
			continue
		}
		if o.in == r.in && vcBefore(&e.ports[base+int(r.in)], o.ivc, r.ivc) ||
			o.in != r.in && e.rrBefore(base+int(r.out), o.in, r.in, np) {
			k++
		}
	}
	return e.wh.ejecting[base+int(r.out)]+k < e.wh.ejectVCs
}

// routeHead is the candidate of the head of ivc: the deterministic route, or the
// selection among an adaptive routing's available candidates.
func (e *Engine) routeHead(s, q, base int, ivc int32) (routing.Candidate, bool) {
	vc := &e.vcs[ivc]
	if e.det == nil {
		if e.wh.classVCs {
			return e.classRoute(s, q, base, ivc), true
		}
		return e.choose(s, q, ivc, vc.headPkt, base)
	}
	if !vc.routed {
		vc.route = e.det.NextAt(s, base+q, *e.dest(&e.pk[vc.headPkt]))
		vc.routed = true
		if e.wh.keepRing {
			e.keepRingClass(s, q, ivc, &vc.route)
		}
	}
	return vc.route, true
}

// classRoute is the one candidate of the head of ivc under ClassVCs for a routing other
// than DOR's fast path (fbdor, nca, min, ...: ClassVCs refuses a routing that offers
// several): its VC names a class, and the head requests the class as soon as any VC of
// it is free (allocateWormhole's freeInClass), as BookSim2's VC allocator does. The
// selection path (choose) would instead wait until the very VC the routing names, the
// class's first, is free and has a credit: a head then requested only while that one
// VC was idle, and a port whose first VC was held took no new packet on its other VCs,
// which cut the throughput of a busy link by up to a fifth (issue 41: fat-tree and
// flattened butterfly). The route is computed once per head and kept.
func (e *Engine) classRoute(s, q, base int, ivc int32) routing.Candidate {
	vc := &e.vcs[ivc]
	if !vc.routed {
		vc.route = e.candidates(s, q, ivc, vc.headPkt, base)[0]
		vc.routed = true
	}
	return vc.route
}

// advanceWormhole moves one flit per input port and per output port among the packets
// holding output VCs.
func (e *Engine) advanceWormhole() {
	w := e.wh
	if w.switchISLIP {
		e.matchISLIP()
	} else {
		e.matchRR2()
	}
	for _, ivc := range w.winners {
		e.moveWormholeFlit(ivc)
	}
	// Drop the packets whose tails have left.
	kept := w.active[:0]
	for _, ivc := range w.active {
		if w.out[ivc] >= 0 {
			kept = append(kept, ivc)
		}
	}
	w.active = kept
}

// canMove reports whether the packet crossing from input VC ivc has a flit here, a
// credit downstream and its switch stage reached.
func (e *Engine) canMove(ivc int32) bool {
	w := e.wh
	if fl := &e.flits[ivc]; fl.arrived == fl.departed {
		return false
	}
	if d := w.dvc[ivc]; d >= 0 && e.vcs[d].credits == 0 {
		return false
	}
	return w.switchAfter == 0 || e.now >= w.from[ivc]
}

// matchRR2 fills winners by two-stage round-robin: each input port picks one of its
// packets that can move, round-robin over its VCs, and each output port grants one
// of the input ports' picks, round-robin.
func (e *Engine) matchRR2() {
	w, now := e.wh, e.now
	for _, ivc := range w.active {
		if !e.canMove(ivc) {
			continue
		}
		in := e.vcs[ivc].port
		ip := &e.ports[in]
		if w.inStamp[in] != now || vcBefore(ip, ivc, w.inWin[in]) {
			w.inStamp[in], w.inWin[in] = now, ivc
		}
	}
	w.winners = w.winners[:0]
	for _, ivc := range w.active {
		in := e.vcs[ivc].port
		if w.inStamp[in] != now || w.inWin[in] != ivc {
			continue
		}
		out := w.out[ivc]
		if w.outStamp[out] != now || e.rrBefore(int(out), int32(e.ports[in].local), int32(e.ports[e.vcs[w.outWin[out]].port].local), int(e.sw[e.ports[out].sw].ports)) {
			w.outStamp[out], w.outWin[out] = now, ivc
		}
	}
	for _, ivc := range w.active {
		if out := w.out[ivc]; w.outStamp[out] == now && w.outWin[out] == ivc {
			w.winners = append(w.winners, ivc)
		}
	}
}

// matchISLIP fills winners by one iteration of iSLIP between input and output ports
// (Params.SwitchISLIP, BookSim2's switch allocator): an input port requests every
// output port some packet of it can move to; each output port grants the requesting
// input port nearest after its grant pointer (outRR); each input port accepts the
// granting output port nearest after its accept pointer (aptr), and sends the flit
// of its VC for that output nearest after its VC pointer (inRR). moveWormholeFlit
// moves the grant and VC pointers past the match, as iSLIP does for accepted grants.
// The grant pass keeps the requests (the VCs that can move, with their ports) in
// reqs, so that the later passes walk those alone, in the same order, instead of
// every active VC again (they were 28 % of a BookSim2 run's CPU before).
func (e *Engine) matchISLIP() {
	w, now := e.wh, e.now
	// Grants: outWin holds the global input port granted by each output port.
	w.reqs = w.reqs[:0]
	for _, ivc := range w.active {
		if !e.canMove(ivc) {
			continue
		}
		in, out := e.vcs[ivc].port, w.out[ivc]
		op := &e.ports[out]
		r := islipReq{ivc: ivc, in: in, out: out, inLocal: int16(e.ports[in].local), np: int16(e.sw[op.sw].ports)}
		w.reqs = append(w.reqs, r)
		if w.outStamp[out] != now {
			w.outStamp[out], w.outWin[out], w.outWinLocal[out] = now, in, r.inLocal
			continue
		}
		if p := int32(op.outRR); rrDist(int32(r.inLocal), p, int(r.np)) < rrDist(int32(w.outWinLocal[out]), p, int(r.np)) {
			w.outWin[out], w.outWinLocal[out] = in, r.inLocal
		}
	}
	// Accepts: inWin holds the output port each input port accepts.
	for i := range w.reqs {
		r := &w.reqs[i]
		if w.outWin[r.out] != r.in {
			continue
		}
		if w.inStamp[r.in] != now {
			w.inStamp[r.in], w.inWin[r.in] = now, r.out
			continue
		}
		p := int32(w.aptr[r.in])
		if rrDist(int32(e.ports[r.out].local), p, int(r.np)) < rrDist(int32(e.ports[w.inWin[r.in]].local), p, int(r.np)) {
			w.inWin[r.in] = r.out
		}
	}
	// The VC of each match.
	for i := range w.reqs {
		r := &w.reqs[i]
		if w.inStamp[r.in] != now || w.inWin[r.in] != r.out {
			continue
		}
		if w.pickStamp[r.in] != now || vcBefore(&e.ports[r.in], r.ivc, w.pick[r.in]) {
			w.pickStamp[r.in], w.pick[r.in] = now, r.ivc
		}
	}
	w.winners = w.winners[:0]
	for i := range w.reqs {
		r := &w.reqs[i]
		if w.pickStamp[r.in] != now || w.pick[r.in] != r.ivc {
			continue
		}
		w.winners = append(w.winners, r.ivc)
		if w.aptr[r.in] = int16(e.ports[r.out].local) + 1; w.aptr[r.in] == r.np {
			w.aptr[r.in] = 0
		}
	}
}

// islipReq is a request of matchISLIP's: input VC ivc can move a flit from input
// port in to output port out; inLocal is in's number on its switch, np the switch's
// port count.
type islipReq struct {
	ivc, in, out int32
	inLocal, np  int16
}

// vcBefore reports whether input VC a comes before b in its input port's round-robin order.
func vcBefore(ip *portState, a, b int32) bool {
	n, r := int32(ip.nvc), int32(ip.inRR)
	return (a-ip.vc0-r+n)%n < (b-ip.vc0-r+n)%n
}

// moveWormholeFlit moves the next flit of the packet crossing from input VC ivc.
func (e *Engine) moveWormholeFlit(ivc int32) {
	w, now := e.wh, e.now
	vc := &e.vcs[ivc]
	in, out, dvc := vc.port, w.out[ivc], w.dvc[ivc]
	ip, op := &e.ports[in], &e.ports[out]
	pi := vc.headPkt
	fl := &e.flits[ivc]
	fl.departed++
	fl.headSent++
	wk := e.wk // a parallel run's worker: effects on other regions are held back (parallel.go)
	if wk != nil {
		wk.post(wk.upRegion[in], now+int64(ip.back), evCredit|uint32(ivc))
	} else {
		e.schedule(now+int64(ip.back), evCredit|uint32(ivc))
	}
	fl.creditsBack++
	e.lastMove = now
	lat := int64(op.lat) + w.crossbar
	if dvc >= 0 {
		e.vcs[dvc].credits--
		if wk != nil {
			wk.post(wk.downRegion[out], now+lat, evArrival|uint32(dvc))
		} else {
			e.schedule(now+lat, evArrival|uint32(dvc))
		}
		if fl.headSent == 1 {
			e.pk[pi].hops++
			e.queueSent(int(out), dvc, pi, now+lat+int64(e.p.RoutingDelay))
		}
		e.m.flitHops++
	} else {
		e.m.ejectAll++
	}
	e.m.channel(int(out), now, 1)
	if e.m.closed != nil {
		e.m.closed.switchBusy(int(out), now, now+1)
	}
	if n := int32(ip.nvc); n > 0 {
		if ip.inRR = int8(ivc-ip.vc0) + 1; int32(ip.inRR) == n {
			ip.inRR = 0
		}
	}
	if op.outRR = ip.local + 1; int(op.outRR) == int(e.sw[op.sw].ports) {
		op.outRR = 0
	}
	if uint32(fl.headSent) < e.lenOf(pi) {
		return
	}
	// The tail has left: release the output VC, move on to the next packet.
	switch {
	case dvc < 0 && w.ejectVCs > 0:
		e.deliverSent(pi, now+lat)
		w.ejecting[out]--
	case dvc < 0:
		e.deliverSent(pi, now+lat)
		op.outBusy = now + 1
	default:
		w.heldBy[dvc] = -1
	}
	fl.headSent = 0
	w.out[ivc], w.dvc[ivc] = -1, -1
	e.popHead(ivc, now+max(1, int64(e.p.FrontDelay)))
	e.wake(ip.sw)
}
