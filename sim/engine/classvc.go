package engine

import (
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// BookSim2's VC allocation (Params.ClassVCs). BookSim2's routing functions return an
// output port and a range of output VCs (dimension-order routing on a torus: the lower
// or the upper half of a port's VCs, by dateline class; on a mesh, a fat-tree or a
// flattened butterfly: all of them), and its VC allocator gives a head any VC of the
// range that no packet holds, whether or not that VC's buffer has room: the switch
// allocator then waits for credits. Our deterministic routings name one VC per hop,
// their class; under ClassVCs the engine reads it as BookSim2 reads its range, so that
// the extra VCs of a port spread packets as BookSim2's do instead of idling.

// initClassVCs records how many VC classes the routing names per port kind.
func (e *Engine) initClassVCs() {
	w := e.wh
	w.classVCs = true
	w.takenAt = make([]int64, len(e.vcs))
	for i := range w.takenAt {
		w.takenAt[i] = -1
	}
	w.keepRing = e.p.KeepRingClass
	if e.p.VCISLIP {
		w.vcISLIP, w.vgptr, w.vaptr = true, make([]int32, len(e.vcs)), make([]int32, len(e.vcs))
	}
	for _, k := range []topology.PortKind{topology.External, topology.Internal, topology.Terminal} {
		w.classes[k] = int32(max(e.rt.VCs(k), 1))
	}
	e.tabulateClasses()
}

// classRange is the VCs of class c at the far end of output port out: the first
// global VC and how many (the buffers check guarantees at least one per class).
func (e *Engine) classRange(out int, c int8) (first, n int32) {
	w := e.wh
	i := out*w.classStride + int(c)
	lo := int32(w.classStart[i])
	return e.ports[out].down + lo, int32(w.classStart[i+1]) - lo
}

// tabulateClasses fills classStart: for every output port that has a link, the first
// VC of each of its far end's classes and one past the last, so that classRange, on
// every head's allocation, reads two bytes instead of dividing.
func (e *Engine) tabulateClasses() {
	w := e.wh
	most := int32(1)
	for _, n := range w.classes {
		most = max(most, n)
	}
	w.classStride = int(most) + 1
	w.classStart = make([]uint8, len(e.ports)*w.classStride)
	for out := range e.ports {
		op := &e.ports[out]
		if op.down < 0 {
			continue
		}
		dp := &e.ports[e.vcs[op.down].port]
		v, classes := int32(dp.nvc), w.classes[dp.kind]
		for c := int32(0); c <= classes; c++ {
			w.classStart[out*w.classStride+int(c)] = uint8(c * v / classes) // v <= MaxVCs <= 64
		}
	}
}

// freeInClass counts the VCs of class c beyond output port out that no packet holds.
func (e *Engine) freeInClass(out int, c int8) int {
	first, n := e.classRange(out, c)
	free := 0
	for d := first; d < first+n; d++ {
		if e.wh.heldBy[d] < 0 {
			free++
		}
	}
	return free
}

// winsClassVC is winsOutputVC under ClassVCs: the requests for one class of one
// output port are ordered as winsOutputVC orders the requests for one VC, and the
// k-th of them takes the k-th VC of the class free at the start of the cycle, lowest
// first; -1 when fewer are free than come before it.
func (e *Engine) winsClassVC(base, np int, reqs []request, i int) int32 {
	r := reqs[i]
	k := 0
	for j, o := range reqs {
		if j == i || o.out != r.out || o.cand.VC != r.cand.VC {
			continue
		}
		if o.in == r.in && vcBefore(&e.ports[base+int(r.in)], o.ivc, r.ivc) ||
			o.in != r.in && e.rrBefore(base+int(r.out), o.in, r.in, np) {
			k++
		}
	}
	// The k-th VC free when this cycle's allocation began: requests decided before
	// this one in the loop may hold theirs already, and they count as free here, or
	// the later of two requests would find one VC fewer than the order gave it.
	first, n := e.classRange(base+int(r.out), r.cand.VC)
	for d := first; d < first+n; d++ {
		if e.wh.heldBy[d] < 0 || e.wh.takenAt[d] == e.now {
			if k == 0 {
				return d
			}
			k--
		}
	}
	return -1
}

// keepRingClass gives route c of the head of input VC ivc (input port q of switch s)
// the class of ivc when the head goes on along the ring it came by (Params.
// KeepRingClass): BookSim2's dim_order_torus picks a packet's dateline class where it
// turns into a dimension and keeps it to the end of that ring, where ours picks it
// anew at every hop. Our class at the turn splits the packets as BookSim2's does
// (those that will cross the wrap-around link from those that will not), with the
// labels swapped, which VC allocation does not see.
func (e *Engine) keepRingClass(s, q int, ivc int32, c *routing.Candidate) {
	in, out := e.net.Port(s, q), e.net.Port(s, int(c.Port))
	if in.Kind != topology.External || out.Kind != topology.External || in.Dim < 0 || in.Dim != out.Dim {
		return
	}
	ip := &e.ports[e.vcs[ivc].port]
	v, classes := int32(ip.nvc), e.wh.classes[ip.kind]
	local := ivc - ip.vc0
	for k := classes - 1; k >= 0; k-- {
		if k*v/classes <= local {
			c.VC = int8(k)
			return
		}
	}
}

// vcIndex is the place of VC v of local port q in VC iSLIP's round-robin orders: the
// ports in order, each port's VCs in order (stride MaxVCs, so that one modulus,
// ports·MaxVCs, serves every switch's ports).
func vcIndex(q int32, v int32) int32 { return q*MaxVCs + v }

// matchVCs sets w.match[i] to the output VC request i of switch s (ports from base,
// np of them) gets from one iteration of iSLIP between input VCs and output VCs
// (Params.VCISLIP, BookSim2's VC allocator), or -1: each free VC of a class grants
// the requesting input VC nearest after its grant pointer, and each input VC accepts
// the granting VC nearest after its accept pointer. Every request here wants a class
// of a port with a downstream router; ejection requests get -1 and are decided apart.
func (e *Engine) matchVCs(base, np int, reqs []request) {
	w := e.wh
	w.match = w.match[:0]
	m := int32(np) * MaxVCs
	for i, r := range reqs {
		best, bestDist := int32(-1), m
		if e.ports[base+int(r.out)].down >= 0 {
			first, n := e.classRange(base+int(r.out), r.cand.VC)
			for d := first; d < first+n; d++ {
				if w.heldBy[d] >= 0 || e.grantVC(base, np, reqs, d, r.cand.VC, r.out) != i {
					continue
				}
				if dist := rrDist(e.outVCIndex(base, r.out, d), w.vaptr[r.ivc], int(m)); dist < bestDist {
					best, bestDist = d, dist
				}
			}
		}
		w.match = append(w.match, best)
	}
}

// grantVC is the request that output VC d (of class c, beyond local output port out)
// grants: the one nearest after its grant pointer among those for its class.
func (e *Engine) grantVC(base, np int, reqs []request, d int32, c int8, out int32) int {
	m := int32(np) * MaxVCs
	best, bestDist := -1, m
	for j, o := range reqs {
		if o.out != out || o.cand.VC != c {
			continue
		}
		ip := &e.ports[base+int(o.in)]
		if dist := rrDist(vcIndex(o.in, o.ivc-ip.vc0), e.wh.vgptr[d], int(m)); dist < bestDist {
			best, bestDist = j, dist
		}
	}
	return best
}

// outVCIndex is output VC d's place (beyond local output port out) in the accept order.
func (e *Engine) outVCIndex(base int, out int32, d int32) int32 {
	return vcIndex(out, d-e.ports[base+int(out)].down)
}

// movePointersVC moves the pointers of an accepted VC grant past the match, as iSLIP
// does in its first iteration.
func (e *Engine) movePointersVC(base, np int, r request, d int32) {
	w, m := e.wh, int32(np)*MaxVCs
	ip := &e.ports[base+int(r.in)]
	w.vgptr[d] = (vcIndex(r.in, r.ivc-ip.vc0) + 1) % m
	w.vaptr[r.ivc] = (e.outVCIndex(base, r.out, d) + 1) % m
}
