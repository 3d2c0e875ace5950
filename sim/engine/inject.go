package engine

import (
	"math"

	"github.com/twintorus/twintorus/internal/sysmem"
)

// Phase 2 of a cycle: generation and injection, always on one core. A PE generates
// messages on a geometric calendar (gen.go) into its source queue (source.go); its NIC
// cuts them into packets and injects each into a terminal input VC of its switch when
// that VC has room.

// injectionPhase is phase 2 of cycle t, on one core: the PEs due generate their
// messages (source.go, gen.go), a closed-loop program releases what is ready, and the
// NICs inject what their terminal VCs have room for.
func (e *Engine) injectionPhase(t int64) {
	for _, pe := range e.gen.due(t) {
		if e.generate(int(pe)) {
			e.gen.add(pe, e.nextGen(t), t)
		}
	}
	if e.prog != nil {
		e.prog.Release(t, e.progSend)
	}
	e.inject()
}

// nextGen is the next cycle after `after` at which a PE generates a message: a
// geometric gap, the same law as a Bernoulli trial every cycle, so idle cycles can be
// skipped.
func (e *Engine) nextGen(after int64) int64 {
	return after + int64(e.inj.NextGap(e.rng))
}

func (e *Engine) newPacket() int32 {
	if e.freePk >= 0 {
		i := e.freePk
		e.freePk = e.pk[i].next
		return i
	}
	e.pk = growPool(e.pk)
	return int32(len(e.pk) - 1)
}

// growPool is s with one more zero element. Where append would copy s to a larger
// array, growPool does so at append's rate (twice, then a quarter more from 1,024
// elements on) into one made by sysmem.MakeHuge: a large run's packet pool is read
// at random, and huge pages spare it the TLB misses.
func growPool[T any](s []T) []T {
	if len(s) < cap(s) {
		var zero T
		s = s[:len(s)+1]
		s[len(s)-1] = zero
		return s
	}
	n := 2 * cap(s)
	if cap(s) >= 1024 {
		n = cap(s) + cap(s)/4
	}
	grown := sysmem.MakeHuge[T](max(n, 16))
	copy(grown, s)
	return grown[:len(s)+1]
}

func (e *Engine) newMessage() int32 {
	if e.freeMsg >= 0 {
		i := e.freeMsg
		e.freeMsg = e.msgs[i].next
		return i
	}
	e.msgs = append(e.msgs, message{})
	return int32(len(e.msgs) - 1)
}

// dropNIC takes NIC t, the i-th of the list of active NICs, off it (it has nothing
// left to send), moving the last one into its place.
func (e *Engine) dropNIC(i int, t int32) {
	e.nicActive[t] = false
	last := len(e.nicList) - 1
	e.nicList[i] = e.nicList[last]
	e.nicList = e.nicList[:last]
}

// inject moves one flit from every NIC that has a packet to send and room for it.
func (e *Engine) inject() {
	for i := 0; i < len(e.nicList); {
		t := e.nicList[i]
		if e.packetLevel {
			if e.nicBusy[t] <= e.now && e.nicWait[t] <= e.now && !e.startInjection(t) && e.src.n[t] == 0 {
				e.dropNIC(i, t)
				continue
			}
			i++
			continue
		}
		if e.nicSending[t] < 0 && !e.startInjection(t) {
			if e.src.n[t] == 0 { // nothing left to send
				e.dropNIC(i, t)
				continue
			}
			i++
			continue
		}
		ivc := e.nicVC[t]
		vc := &e.vcs[ivc]
		if vc.credits == 0 { // wormhole only: cut-through reserved room for the packet
			i++
			continue
		}
		vc.credits--
		lat := int64(e.ports[vc.port].lat)
		e.schedule(e.now+lat, evArrival|uint32(ivc))
		pi := e.nicSending[t]
		if e.nicSent[t] == 0 {
			e.pk[pi].inj = e.now
			e.inNet++
			e.enqueue(ivc, pi, e.now+lat+int64(e.p.RoutingDelay))
		}
		e.nicSent[t]++
		e.lastMove = e.now
		if e.nicSent[t] == e.lenOf(pi) {
			e.nicSending[t] = -1
		}
		i++
	}
}

// startInjection picks the terminal-port VC for the NIC's next packet.
func (e *Engine) startInjection(t int32) bool {
	if e.src.n[t] == 0 {
		return false
	}
	at := e.net.Attachment(int(t))
	ps := &e.ports[e.net.PortID(int(at.Switch), int(at.Port))]
	n := int(ps.nvc)
	pl := e.nextLength(int(t))
	need := e.need(int32(pl), false)
	wait := int64(math.MaxInt64) // packet level: when the first of the VCs has room
	for j := 0; j < n; j++ {
		v := int(e.nicRR[t]) + j // round-robin from nicRR (below n): no division on this path
		if v >= n {
			v -= n
		}
		ivc := ps.vc0 + int32(v)
		vc := &e.vcs[ivc]
		if e.free(vc) < need || vc.qLen == vc.qCap {
			wait = min(wait, e.nicRoomAt(t, vc, need))
			continue
		}
		if e.nicRR[t] = int8(v + 1); int(e.nicRR[t]) == n {
			e.nicRR[t] = 0
		}
		pi := e.nextPacket(int(t), pl)
		if !e.packetLevel {
			e.nicSending[t], e.nicSent[t], e.nicVC[t] = pi, 0, ivc
			return true
		}
		// The whole packet: flits leave the NIC at now .. now+pl-1.
		vc.credits -= int32(pl)
		e.nicBusy[t] = e.now + int64(pl)
		e.pk[pi].inj = e.now
		e.inNet++
		e.lastMove = e.now + int64(pl) - 1
		e.enqueue(ivc, pi, e.now+int64(ps.lat)+int64(e.p.RoutingDelay))
		return true
	}
	if e.waitOut {
		e.nicWait[t] = wait
	}
	return false
}

// nicRoomAt is the first cycle at which terminal VC vc, fed by NIC t alone, may have
// the need flits of room it lacks now, at the packet level: when the ramp of credits
// under way makes it, or, failing that, when the VC's next ramp starts, which
// startRamp tells the NIC (nicWait). NIC t then does not try every cycle until then:
// a saturated network would have every NIC try, and fail, every cycle.
func (e *Engine) nicRoomAt(t int32, vc *vcState, need int32) int64 {
	if vc.qLen == vc.qCap {
		return e.now + 1 // a full ring of queued packets (not at the packet level): try again
	}
	if at, ok := rampRoomAt(vc, need); ok {
		return at
	}
	vc.waiter = -1 - t
	return math.MaxInt64
}

// lenOf is packet pi's length in flits.
func (e *Engine) lenOf(pi int32) uint32 {
	if !e.varLen {
		return e.L
	}
	return uint32(e.pk[pi].flits)
}

// need is the room a packet of n flits needs in a downstream VC: the whole packet
// under virtual cut-through, and when the hop enters a ring under bubble flow control
// room for one more packet of the longest length besides (the bubble; 2L under fixed
// lengths); one flit under wormhole (two for a bubble).
func (e *Engine) need(n int32, bubble bool) int32 {
	if e.p.Switching == Wormhole {
		if bubble {
			return 2
		}
		return 1
	}
	if bubble {
		return n + int32(e.L)
	}
	return n
}
