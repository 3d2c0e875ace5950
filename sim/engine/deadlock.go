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
	if e.qLen[ivc] == 0 {
		return -1
	}
	g := e.vcPort[ivc]
	if e.stIVC[g] == ivc { // a stalled stream (wormhole) waits for room downstream
		return e.stDVC[g]
	}
	s := int(e.portSwitch[g])
	base := e.net.PortID(s, 0)
	pk := &e.pk[e.queue[e.qBase[ivc]+int32(e.qHead[ivc])].pkt]
	cands := e.rt.Route(s, int(e.portLocal[g]), int(ivc-e.inVC0[g]), routing.Head{Src: pk.src, Dst: pk.dst, Escaped: pk.escaped}, nil)
	if len(cands) == 0 {
		return -1
	}
	c := cands[len(cands)-1] // adaptive routings list their escape channel last
	for _, x := range cands {
		if x.Escape {
			c = x
		}
	}
	out := base + int(c.Port)
	if owner := e.outOwner[out]; owner >= 0 { // the output is held by another stream
		return e.stIVC[owner]
	}
	if d := e.downVC0[out]; d >= 0 {
		return d + int32(c.VC)
	}
	return -1
}

// findDeadlock returns a cycle of waiting input VCs, or a Deadlock with no channels if
// the wait-for graph has none (the watchdog fired for another reason).
func (e *Engine) findDeadlock() *Deadlock {
	n := int32(len(e.vcPort))
	state := make([]int8, n) // 0 unvisited, 1 on the current walk, 2 finished
	var walk []int32
	for startVC := int32(0); startVC < n; startVC++ {
		if state[startVC] != 0 || e.qLen[startVC] == 0 {
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
		g := e.vcPort[ivc]
		s := int(e.portSwitch[g])
		q := int(e.portLocal[g])
		d.Channels = append(d.Channels, WaitingChannel{
			Switch: s, Node: e.net.Coord(e.net.Node(s)), Card: e.net.Card(s), Port: q,
			PortName: e.net.Port(s, q).Name(e.net.Dims()), VC: int(ivc - e.inVC0[g]),
		})
	}
	return d
}
