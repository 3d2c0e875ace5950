package engine

import (
	"fmt"
	"strings"

	"github.com/twintorus/twintorus/sim/routing"
)

// Deadlock is a cycle of input channels whose head packets wait on each other: each
// waits for room in (or for the output held by) the next, and the last waits for the
// first.
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
	var parts []string
	for _, c := range d.Channels {
		parts = append(parts, c.String())
	}
	return fmt.Sprintf("deadlock detected at cycle %d: %s -> (back to the first)", d.Cycle, strings.Join(parts, " -> "))
}

func (c WaitingChannel) String() string {
	return fmt.Sprintf("switch %d %v card %d in-port %s vc %d", c.Switch, c.Node, c.Card, c.PortName, c.VC)
}

// waitsFor is the input VC that the head packet of ivc waits on, or -1.
func (e *Engine) waitsFor(ivc int32) int32 {
	vc := &e.vcs[ivc]
	if vc.qLen == 0 {
		return -1
	}
	ip := &e.ports[vc.port]
	if st := &e.inStream[vc.port]; ip.inBusy > e.now && st.ivc == ivc { // a stalled stream (wormhole) waits for room downstream
		return st.dvc
	}
	s := int(ip.sw)
	base := e.net.PortID(s, 0)
	pk := &e.pk[e.queue[vc.qBase+int32(vc.qHead)].pkt]
	cands := e.rt.Route(s, int(ip.local), int(ivc-ip.vc0), routing.Head{Src: pk.src, Dst: pk.dst, Escaped: pk.escaped}, nil)
	if len(cands) == 0 {
		return -1
	}
	c := cands[len(cands)-1]
	for _, x := range cands {
		if x.Escape { // adaptive routing: the escape channel is the one that must move
			c = x
		}
	}
	op := &e.ports[base+int(c.Port)]
	if op.outBusy > e.now { // the output is held by another packet: wait on its input VC
		return e.inStream[op.owner].ivc
	}
	if op.down >= 0 {
		return op.down + int32(c.VC)
	}
	return -1
}

// findDeadlock returns a cycle of waiting input VCs, or a Deadlock with no channels if
// the wait-for graph has none (the watchdog fired for another reason).
func (e *Engine) findDeadlock() *Deadlock {
	n := int32(len(e.vcs))
	state := make([]int8, n) // 0 unvisited, 1 on the current walk, 2 finished
	var walk []int32
	for startVC := int32(0); startVC < n; startVC++ {
		if state[startVC] != 0 || e.vcs[startVC].qLen == 0 {
			continue
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
	}
	return &Deadlock{Cycle: e.now}
}

func (e *Engine) describe(cycle []int32) *Deadlock {
	d := &Deadlock{Cycle: e.now}
	for _, ivc := range cycle {
		ps := &e.ports[e.vcs[ivc].port]
		s, q := int(ps.sw), int(ps.local)
		d.Channels = append(d.Channels, WaitingChannel{
			Switch: s, Node: e.net.Coord(e.net.Node(s)), Card: e.net.Card(s), Port: q,
			PortName: e.net.Port(s, q).Name(e.net.Dims()), VC: int(ivc - ps.vc0),
		})
	}
	return d
}
