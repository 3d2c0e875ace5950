package engine

import (
	"fmt"
	"strings"

	"github.com/twintorus/twintorus/sim/routing"
)

// Deadlock is a cycle of input channels whose head packets wait on each other for
// good: each needs room in the next that no credit on its way will make (or, under
// wormhole, an output held by a stalled packet), and the last waits for the first.
type Deadlock struct {
	Cycle    int64            `json:"cycle"` // simulation cycle at which it was detected
	Channels []WaitingChannel `json:"channels"`
}

// WaitingChannel is an input virtual channel: the buffer at port Port of switch Switch.
type WaitingChannel struct {
	Switch   int    `json:"switch"`
	Node     []int  `json:"node"`
	Card     int    `json:"card"`
	Port     int    `json:"port"`
	PortName string `json:"port_name"`
	VC       int    `json:"vc"`
}

func (d *Deadlock) String() string {
	if len(d.Channels) == 0 {
		return fmt.Sprintf("deadlock detected at cycle %d: packets are in the network but no flit moved for the watchdog's span, and no cycle of waiting channels was found", d.Cycle)
	}
	var parts []string
	for _, c := range d.Channels {
		parts = append(parts, c.String())
	}
	return fmt.Sprintf("deadlock detected at cycle %d: %s -> (back to the first)", d.Cycle, strings.Join(parts, " -> "))
}

func (c WaitingChannel) String() string {
	return fmt.Sprintf("switch %d %v card %d in-port %s vc %d", c.Switch, c.Node, c.Card, c.PortName, c.VC)
}

// waitsFor is the input VC that the head packet of ivc waits on for good, or -1 when
// it will move without help: a packet can always be ejected, a busy output frees by
// itself at the packet level, and room that in-flight credits will restore is room.
func (e *Engine) waitsFor(ivc int32) int32 {
	vc := &e.vcs[ivc]
	if vc.qLen == 0 {
		return -1
	}
	ip := &e.ports[vc.port]
	if w := e.wh; w != nil {
		return e.waitsForWormhole(ivc)
	}
	if st := &e.inStream[vc.port]; !e.packetLevel && ip.inBusy > e.now && st.ivc == ivc {
		// A stream stalled mid-packet (wormhole) waits for room downstream.
		if st.dvc >= 0 && e.eventualFree(st.dvc) == 0 {
			return st.dvc
		}
		return -1
	}
	s := int(ip.sw)
	base := int(e.sw[s].base)
	var c routing.Candidate
	if e.isQueue(s) {
		c = e.queueRoute(base, int(ip.local), ivc)
	} else {
		pk := &e.pk[vc.headPkt]
		cands := e.route(s, int(ip.local), int(ivc-ip.vc0), pk, nil)
		if len(cands) == 0 {
			return -1
		}
		c = cands[len(cands)-1]
		for _, x := range cands {
			if x.Escape { // adaptive routing: the escape channel is the one that must move
				c = x
			}
		}
	}
	op := &e.ports[base+int(c.Port)]
	if op.outBusy > e.now {
		if e.packetLevel {
			return -1 // the packet holding the output leaves by itself
		}
		return e.inStream[op.owner].ivc // wormhole: wait on the stalled packet holding it
	}
	if op.down < 0 {
		return -1
	}
	dvc := op.down + int32(c.VC)
	if e.eventualFree(dvc) >= e.need(int32(e.lenOf(vc.headPkt)), c.Bubble) {
		return -1
	}
	return dvc
}

// eventualFree is the room the sender of ivc will see once every credit on its way
// back has arrived.
func (e *Engine) eventualFree(ivc int32) int32 {
	vc := &e.vcs[ivc]
	f := vc.credits + e.flits[ivc].creditsBack
	if vc.ramping {
		f += int32(vc.rampLen)
	}
	return f
}

// checkDeadlock looks for a deadlock when the watchdog has reason to: nothing moved for
// Watchdog cycles, or (checked every Watchdog cycles) some head packet has waited that
// long, as happens when one part of the network deadlocks while the rest still moves.
func (e *Engine) checkDeadlock(t int64) {
	w := e.p.Watchdog
	if w <= 0 || e.inNet == 0 {
		return
	}
	if t-e.lastMove >= w {
		e.dl = e.findDeadlock(nil)
		if e.dl == nil { // nothing moves, yet no cycle: report what the watchdog saw
			e.dl = &Deadlock{Cycle: t}
		}
		return
	}
	if t%w != 0 {
		return
	}
	var old []int32
	for i := range e.vcs {
		if vc := &e.vcs[i]; vc.qLen > 0 && t-vc.ready >= w {
			old = append(old, int32(i))
		}
	}
	if len(old) > 0 {
		e.dl = e.findDeadlock(old)
	}
}

// checkDeadlockAtEnd looks for a deadlock in a run that ends with packets waiting
// and nothing moving, before the watchdog's span could pass: a deadlock that forms
// less than Watchdog cycles before the end would otherwise be recorded as a
// saturated run. Only a cycle of channels that wait on each other for good counts
// (the network may only be pausing: a packet waiting out its routing delay moves no
// flit); the watchdog's own stop, nothing moving for its whole span, needs none. It
// runs once a run, so it costs nothing per flit.
func (e *Engine) checkDeadlockAtEnd() {
	if e.p.Watchdog <= 0 || e.inNet == 0 || e.lastMove >= e.now-1 {
		return
	}
	e.dl = e.findDeadlock(nil)
}

// findDeadlock returns a cycle of input VCs whose heads wait on each other for good,
// searching from the given VCs (all VCs when nil), or nil.
func (e *Engine) findDeadlock(from []int32) *Deadlock {
	n := int32(len(e.vcs))
	state := make([]int8, n) // 0 unvisited, 1 on the current walk, 2 finished
	var walk []int32
	try := func(startVC int32) *Deadlock {
		if state[startVC] != 0 {
			return nil
		}
		walk = walk[:0]
		v := startVC
		for v >= 0 && state[v] == 0 {
			state[v] = 1
			walk = append(walk, v)
			v = e.waitsFor(v)
		}
		if v >= 0 && state[v] == 1 { // closed a cycle
			i := 0
			for walk[i] != v {
				i++
			}
			return e.describe(walk[i:])
		}
		for _, w := range walk {
			state[w] = 2
		}
		return nil
	}
	if from == nil {
		for v := int32(0); v < n; v++ {
			if d := try(v); d != nil {
				return d
			}
		}
		return nil
	}
	for _, v := range from {
		if d := try(v); d != nil {
			return d
		}
	}
	return nil
}

func (e *Engine) describe(cycle []int32) *Deadlock {
	d := &Deadlock{Cycle: e.now}
	for _, ivc := range cycle {
		ps := &e.ports[e.vcs[ivc].port]
		s, q := int(ps.sw), int(ps.local)
		name := ""
		if e.isQueue(s) {
			s, q, name = e.queueLabel(s)
		} else {
			name = e.net.PortName(s, q)
		}
		d.Channels = append(d.Channels, WaitingChannel{
			Switch: s, Node: e.net.Coord(e.net.Node(s)), Card: e.net.Card(s), Port: q,
			PortName: name, VC: int(ivc - ps.vc0),
		})
	}
	return d
}

// waitsForWormhole: a packet crossing waits for a credit that no credit on its way will
// bring; a head waits for the packet holding its output VC, or for room.
func (e *Engine) waitsForWormhole(ivc int32) int32 {
	w, vc := e.wh, &e.vcs[ivc]
	if w.out[ivc] >= 0 {
		if d := w.dvc[ivc]; d >= 0 && e.eventualFree(d) == 0 {
			return d
		}
		return -1
	}
	ip := &e.ports[vc.port]
	s := int(ip.sw)
	base := int(e.sw[s].base)
	pk := &e.pk[vc.headPkt]
	cands := e.route(s, int(ip.local), int(ivc-ip.vc0), pk, nil)
	if len(cands) == 0 {
		return -1
	}
	c := cands[len(cands)-1]
	for _, x := range cands {
		if x.Escape {
			c = x
		}
	}
	op := &e.ports[base+int(c.Port)]
	if op.down < 0 {
		return -1 // an ejecting packet always drains
	}
	dvc := op.down + int32(c.VC)
	if h := w.heldBy[dvc]; h >= 0 {
		return h
	}
	if e.eventualFree(dvc) == 0 {
		return dvc
	}
	return -1
}
