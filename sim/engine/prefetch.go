package engine

import (
	"math/bits"
	"unsafe"
)

// Touching ahead. In a large network nearly every record a packet-hop reads misses
// the caches: the switch, its ready input port, that port's VC, the output port its
// route takes and the downstream VC whose credits it needs, each a cache line at a
// random place in memory, each found only once the one before it is read
// (BENCHMARKS.md counts about 16 first-level misses per packet-hop on
// torus:32x32x32). Walking the chain for the switch visited next would wait for each
// miss in turn. Instead, while switch k of a cycle's list allocates, a few loads read
// one link of the chain for each of the switches a little further down the list: the
// switch record of switch k+12, the ready port of switch k+8 (whose switch record
// came in four visits earlier), the ready VC of switch k+4, the output port of switch
// k+3 and the downstream VC of switch k+2 (or its head packet, when the head is not
// routed yet: routeDeterministic routes most heads on arrival). The loads' addresses
// are then known from lines already in the cache, so their misses overlap with each
// other and with the work on switch k instead of following one another. The event
// phase does the same for the VCs it marks ready.
//
// The loads change nothing: their values only feed Engine.sink, so that the compiler
// keeps them. Results are bit for bit those without them.
//
// They cost instructions (about a fifth more per packet-hop on torus:8x8x8), which a
// network whose state fits the caches does not win back: only runs whose state exceeds
// touchAheadBytes touch ahead (Engine.touchAhead).

// touchAheadBytes is the state (switches, ports, VCs, queue slots) from which a run
// touches ahead: well beyond the caches of one core, chosen, not tuned.
const touchAheadBytes = 32 << 20

// Look-ahead distances, in list entries, of the links of the chain.
const (
	aheadSwitch = 12
	aheadPort   = 8
	aheadVC     = 4
	aheadOut    = 3
	aheadPacket = 2
)

// touchAlloc loads, while switch list[k] allocates, one link of the chain of each of
// the switches at the look-ahead distances further down the list.
func (e *Engine) touchAlloc(list []int32, k int) {
	n := len(list)
	if k+aheadSwitch < n {
		e.sink += e.sw[list[k+aheadSwitch]].ready
	}
	if k+aheadPort < n {
		if ps := e.readyPort(list[k+aheadPort]); ps != nil {
			e.sink += ps.ready
		}
	}
	if k+aheadVC < n {
		if ps := e.readyPort(list[k+aheadVC]); ps != nil && ps.ready != 0 {
			e.sink += uint64(e.vcs[ps.vc0+int32(bits.TrailingZeros64(ps.ready))].headPkt)
		}
	}
	if k+aheadOut < n {
		if ps := e.readyPort(list[k+aheadOut]); ps != nil && ps.ready != 0 {
			if vc := &e.vcs[ps.vc0+int32(bits.TrailingZeros64(ps.ready))]; vc.routed {
				out := e.sw[list[k+aheadOut]].base + int32(vc.route.Port)
				e.sink += uint64(e.ports[out].down) + uint64(e.m.chanFlits[out])
			}
		}
	}
	if k+aheadPacket < n {
		if ps := e.readyPort(list[k+aheadPacket]); ps != nil && ps.ready != 0 {
			vc := &e.vcs[ps.vc0+int32(bits.TrailingZeros64(ps.ready))]
			switch {
			case vc.routed: // the downstream VC whose credits it reads
				if down := e.ports[e.sw[list[k+aheadPacket]].base+int32(vc.route.Port)].down; down >= 0 {
					e.sink += uint64(e.vcs[down+int32(vc.route.VC)].credits)
				}
			case vc.qLen > 0:
				e.sink += uint64(e.pk[vc.headPkt].dst)
			}
		}
	}
}

// readyPort is the first input port of switch s with a ready head, or nil.
func (e *Engine) readyPort(s int32) *portState {
	sw := &e.sw[s]
	if sw.ready == 0 || sw.wide {
		return nil
	}
	return &e.ports[int(sw.base)+bits.TrailingZeros64(sw.ready)]
}

// allocateList allocates the switches of list in order, touching ahead in a large
// network.
func (e *Engine) allocateList(list []int32) {
	if !e.touchAhead {
		for _, s := range list {
			e.allocate(int(s))
		}
		return
	}
	for k, s := range list {
		e.touchAlloc(list, k)
		e.allocate(int(s))
	}
}

// stateBytes is the size of the state a cycle reads at random: switch, port and VC
// records and queue slots.
func (e *Engine) stateBytes() int64 {
	return int64(len(e.sw))*int64(unsafe.Sizeof(switchState{})) + int64(len(e.ports))*int64(unsafe.Sizeof(portState{})) +
		int64(len(e.vcs))*int64(unsafe.Sizeof(vcState{})) + int64(len(e.queue))*int64(unsafe.Sizeof(qEntry{}))
}

// touchEvents loads, while the event phase handles events[k], the records that the
// ready marks further down the bucket will write: a VC, then its port, then its switch.
func (e *Engine) touchEvents(events []uint32, k int) {
	n := len(events)
	if k+aheadPort < n {
		if code := events[k+aheadPort]; code&^evMask == evReady {
			e.sink += uint64(e.vcs[code&evMask].port)
		}
	}
	if k+aheadVC < n {
		if code := events[k+aheadVC]; code&^evMask == evReady {
			e.sink += e.ports[e.vcs[code&evMask].port].ready
		}
	}
	if k+aheadPacket < n {
		if code := events[k+aheadPacket]; code&^evMask == evReady {
			e.sink += e.sw[e.ports[e.vcs[code&evMask].port].sw].ready
		}
	}
}
