package engine

import (
	"github.com/twintorus/twintorus/internal/splitmix"
	"github.com/twintorus/twintorus/sim/routing"
)

// Routing decisions, made during allocation: the routing's candidates for a head
// packet (deterministic routings through a cached table), the selection function's
// choice among adaptive ones, and whether a candidate's downstream VC has room.

// routeDeterministic routes packet pi, the head of vc, under deterministic routing.
// consider does it when a head first competes; enqueue does it already when a packet
// becomes the head of an empty VC (Engine.routeOnArrival), while the packet's record is
// at hand, so that allocation finds the route in the VC's line without reading the
// packet (a cache miss in a large network) and touching ahead can follow the route to
// the downstream VC (prefetch.go).
func (e *Engine) routeDeterministic(vc *vcState, pi int32) {
	pk := &e.pk[pi]
	if !pk.toKnown {
		e.dest(pk)
	}
	vc.route, vc.routed = e.det.NextAt(int(vc.sw), int(vc.port), pk.to), true
}

// dest is packet pk's destination as deterministic routing reads it, looked up once.
// consider writes it out: there a call would cost more than the lookup it saves.
func (e *Engine) dest(pk *packet) *routing.Dest {
	if !pk.toKnown && e.salted { // ties drawn per packet (routing.TieRandom)
		pk.to, pk.toKnown = e.det.DestSalted(int(pk.src), int(pk.dst), e.head(pk).Salt), true
	} else if !pk.toKnown {
		pk.to, pk.toKnown = e.det.Dest(int(pk.src), int(pk.dst)), true
	}
	return &pk.to
}

// choose returns the candidate the head packet of ivc takes now under a general
// routing function, if any can advance. With several candidates the selection function
// picks one among those whose downstream VC has room (again every cycle the head is
// blocked, or once: Config.SelectOnce).
func (e *Engine) choose(s, q int, ivc, pi int32, base int) (routing.Candidate, bool) {
	vc := &e.vcs[ivc]
	n := int32(e.lenOf(pi))
	if e.selOnce && vc.routed {
		c := vc.route
		g := base + int(c.Port)
		if e.canAdvance(g, c, n) {
			return c, true
		}
		if c.Escape || e.hasRoom(g, c, n) {
			return c, false // wait for the chosen channel
		}
		vc.routed = false // an adaptive channel that lost its room: select again
	}
	cands := e.candidates(s, q, ivc, pi, base)
	if len(cands) == 1 {
		c := cands[0]
		if e.selOnce {
			vc.route, vc.routed = c, true
		}
		return c, e.canAdvance(base+int(c.Port), c, n)
	}
	if !e.selOnce {
		// Blocked heads are routed again every cycle, most of them with no room
		// anywhere in saturation: find that out before building the options.
		room := false
		for _, c := range cands {
			if e.hasRoom(base+int(c.Port), c, n) {
				room = true
				break
			}
		}
		if !room {
			return routing.Candidate{}, false // wait, select next cycle
		}
	}
	if cap(e.opts) < len(cands) {
		e.opts = make([]routing.Option, len(cands))
	}
	e.opts = e.opts[:len(cands)]
	for i, c := range cands {
		g := base + int(c.Port)
		o := &e.opts[i]
		*o = routing.Option{Candidate: c, Room: true}
		if d := e.ports[g].down; d >= 0 {
			dvc := d + int32(c.VC)
			free := e.freeView(g, dvc)
			o.Credits, o.Capacity = int(free), int(e.vcs[dvc].capacity)
			o.Room = e.roomFor(free, dvc, c.Bubble, n)
		}
		o.Available = o.Room && e.outFree(g, c)
	}
	if e.sel == nil {
		for i := range e.opts {
			if e.opts[i].Available {
				return e.opts[i].Candidate, true
			}
		}
		return routing.Candidate{}, false
	}
	i := e.sel.Select(s, q, e.opts)
	if i < 0 || i >= len(e.opts) {
		return routing.Candidate{}, false
	}
	if e.selOnce {
		vc.route, vc.routed = e.opts[i].Candidate, true
	}
	return e.opts[i].Candidate, e.opts[i].Available
}

// head is packet pk as a routing function sees it. Its salt mixes the run's seed with
// the packet's source, destination and generation cycle: the same at every hop and
// for every packet of a message, and drawn from nothing else, so that a routing that
// uses it changes no other random choice of the run.
func (e *Engine) head(pk *packet) routing.Head {
	if !e.salted {
		return routing.Head{Src: pk.src, Dst: pk.dst, Escaped: pk.escaped, Tag: pk.tag}
	}
	x := e.p.Seed ^ uint64(pk.gen)<<24 ^ uint64(uint32(pk.src))<<2 ^ uint64(uint32(pk.dst))<<44
	return routing.Head{Src: pk.src, Dst: pk.dst, Escaped: pk.escaped, Tag: pk.tag, Salt: uint32(splitmix.Hash(x))}
}

// route appends the routing's candidates for packet pk at switch s (input port q, VC
// inVC): the route a Chooser takes, given the queues now, or Route's.
func (e *Engine) route(s, q, inVC int, pk *packet, out []routing.Candidate) []routing.Candidate {
	if e.chooser != nil {
		return e.chooser.Choose(s, q, inVC, e.head(pk), e.occ, out)
	}
	return e.rt.Route(s, q, inVC, e.head(pk), out)
}

// occupancy is the engine's queues as a Chooser reads them (routing.Occupancy).
type occupancy struct{ e *Engine }

// Used is the flits sent by output port p of switch s and not credited back yet, over
// the VCs of the input port it feeds, as the sender's credits show them (freeView, so
// that both levels see the same); 0 for an ejection port.
func (o occupancy) Used(s, p int) int {
	e := o.e
	g := int(e.sw[s].base) + p
	d := e.ports[g].down
	if d < 0 {
		return 0
	}
	in := &e.ports[e.vcs[d].port]
	used := 0
	for v := d; v < d+int32(in.nvc); v++ {
		used += int(e.vcs[v].capacity - e.freeView(g, v))
	}
	return used
}

// candidates are the routing's candidates for the head packet pi of input VC ivc, from
// the cache when the routing bounds them (they depend on nothing that changes while
// the head waits).
func (e *Engine) candidates(s, q int, ivc, pi int32, base int) []routing.Candidate {
	vc := &e.vcs[ivc]
	if e.candCap > 0 && vc.cands {
		i := int(ivc) * e.candCap
		return e.cands[i : i+int(vc.nCands)]
	}
	pk := &e.pk[pi]
	inVC := int(ivc - e.ports[base+q].vc0)
	e.scratch = e.route(s, q, inVC, pk, e.scratch[:0])
	if e.candCap > 0 && len(e.scratch) <= e.candCap {
		i := int(ivc) * e.candCap
		vc.nCands = uint8(copy(e.cands[i:i+e.candCap], e.scratch))
		vc.cands = true
	}
	return e.scratch
}

// hasRoom reports whether the downstream VC of candidate c through output port g has
// room for the packet (a NIC always has).
func (e *Engine) hasRoom(g int, c routing.Candidate, n int32) bool {
	ps := &e.ports[g]
	if ps.down < 0 {
		return true
	}
	dvc := ps.down + int32(c.VC)
	return e.roomFor(e.freeView(g, dvc), dvc, c.Bubble, n)
}

// freeView is the free room of downstream VC dvc (through output port g) as a
// selection function sees it: the sender's credits, with the remaining flits of a
// packet still streaming into it at the flit level counted as sent, as the packet
// level has them. Selection then does not depend on which level runs.
func (e *Engine) freeView(g int, dvc int32) int32 {
	f := e.free(&e.vcs[dvc])
	if op := &e.ports[g]; !e.packetLevel && e.wh == nil && op.outBusy > e.now && op.owner >= 0 {
		if st := &e.inStream[op.owner]; st.dvc == dvc {
			f -= st.flits - int32(e.flits[st.ivc].headSent)
		}
	}
	return f
}

// roomFor is room for a downstream VC with free flits free: the whole packet (two
// when the bubble condition applies) under virtual cut-through; under wormhole one
// flit, in a VC that no other packet holds. Room implies a free queue slot, and the
// slot count is not read, which a parallel allocation phase needs (the VC's own
// switch may be removing its head at the same time): at the packet level every
// queued packet holds its flits of credit until it leaves; under wormhole, where the
// VC is free of a holder, every queued packet has left the upstream switch whole and
// all but the head hold their flits of credit, the head at least one, so a VC of F
// flits with a free one holds at most (F-2)/shortest+1 packets, below its F/shortest+2
// slots (layout). Only virtual cut-through at the flit level (tests) reads the slots.
func (e *Engine) roomFor(free, dvc int32, bubble bool, n int32) bool {
	if e.wh != nil && e.wh.heldBy[dvc] >= 0 {
		return false
	}
	return free >= e.need(n, bubble) && (e.packetLevel || e.wh != nil || e.vcs[dvc].qLen < e.vcs[dvc].qCap)
}

// canAdvance reports whether a packet may start through output port g on candidate c.
func (e *Engine) canAdvance(g int, c routing.Candidate, n int32) bool {
	return e.outFree(g, c) && e.hasRoom(g, c, n) // a NIC takes a flit per cycle
}

// outFree reports whether output port g may take a packet on candidate c now: its
// link is idle, or, under Params.ReserveOutputVCs, the candidate's output VC is.
func (e *Engine) outFree(g int, c routing.Candidate) bool { return e.freeFrom(g, c) <= e.now }

// freeFrom is the cycle from which output port g may take a packet on candidate c: when
// its link is idle, or, under Params.ReserveOutputVCs, when the candidate's output VC is
// released.
func (e *Engine) freeFrom(g int, c routing.Candidate) int64 {
	op := &e.ports[g]
	if e.reserving() && op.down >= 0 {
		return e.heldUntil[op.down+int32(c.VC)]
	}
	return op.outBusy
}

// room reports whether downstream VC dv can take a packet now: the whole packet under
// virtual cut-through (two packets when the hop enters a ring under bubble flow
// control), one flit under wormhole (where the caller checks that no packet holds
// dv). Room implies a queue slot but at the flit level of virtual cut-through (roomFor).
func (e *Engine) room(dv *vcState, bubble bool, n int32) bool {
	return e.free(dv) >= e.need(n, bubble) && (e.packetLevel || e.wh != nil || dv.qLen < dv.qCap)
}

// routeCacher is a routing that can tabulate its decisions (routing.Deterministic,
// and Duato's escape).
type routeCacher interface {
	RouteCacheEntries() int
	CacheRoutes()
}
