package engine

import (
	"fmt"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
)

// view is the state allocation sees: queue lengths, port occupancy, free credits of
// every VC, and the VCs a NIC is sending into.
type view struct {
	waiting []int
	free    []int32
	busy    []bool
	nic     map[int32]bool
}

func look(e *Engine) view {
	v := view{nic: map[int32]bool{}}
	for t := range e.nicBusy {
		if e.nicBusy[t] > e.now+1 || e.nicSending[t] >= 0 {
			ps := &e.ports[e.net.PortID(int(e.net.Attachment(t).Switch), int(e.net.Attachment(t).Port))]
			for c := int32(0); c < int32(ps.nvc); c++ {
				v.nic[ps.vc0+c] = true
			}
		}
	}
	for i := range e.vcs {
		vc := &e.vcs[i]
		// Packets waiting: the flit level keeps a departing packet queued until its tail
		// has left, the packet level pops it when its head leaves.
		waiting := int(vc.qLen)
		if ps := &e.ports[vc.port]; !e.packetLevel && ps.inBusy > e.now && e.inStream[vc.port].ivc == int32(i) {
			waiting--
		}
		v.waiting, v.free = append(v.waiting, waiting), append(v.free, e.free(vc))
	}
	for g := range e.ports {
		v.busy = append(v.busy, e.ports[g].inBusy > e.now || e.ports[g].outBusy > e.now)
	}
	return v
}

// streamsInto are the VCs a packet is being sent into by a switch, at the flit level
// (the packet level keeps no record of its crossings).
func streamsInto(e *Engine) map[int32]bool {
	sending := map[int32]bool{}
	for g := range e.ports {
		if e.ports[g].outBusy > e.now && e.ports[g].owner >= 0 {
			sending[e.inStream[e.ports[g].owner].dvc] = true
		}
	}
	return sending
}

// snapshot describes view v of engine e, the free credits of VCs that a packet is
// being sent into (sending, or v's NIC) left out: mid-packet, the packet level has
// already reserved the whole packet while the flit level counts flit by flit.
func snapshot(e *Engine, v view, sending map[int32]bool) []string {
	var out []string
	for i := range e.vcs {
		f := "-"
		if !sending[int32(i)] && !v.nic[int32(i)] {
			f = fmt.Sprint(v.free[i])
		}
		ps := &e.ports[e.vcs[i].port]
		out = append(out, fmt.Sprintf("vc %d (switch %d port %d): waiting %d free %s", i, ps.sw, ps.local, v.waiting[i], f))
	}
	for g, busy := range v.busy {
		out = append(out, fmt.Sprintf("port %d: busy %v", g, busy))
	}
	return out
}

// TestLockstep steps the packet level and the flit level side by side and compares
// what allocation sees every cycle. Which VCs a packet is being sent into is taken
// from the flit level for both: if the packet level sent into another, that VC's
// free credits differ.
func TestLockstep(t *testing.T) {
	mk := func(pl bool) (*Engine, *view, *map[int32]bool) {
		e := newRun(t, "mesh:5x4", routing.SchemeVC, "uniform", params(0.6, 0, 3000, 11))
		e.packetLevel = pl
		var v view
		var sending map[int32]bool
		e.beforeAlloc = func() {
			v = look(e)
			if !pl {
				sending = streamsInto(e)
			}
		}
		return e, &v, &sending
	}
	a, va, _ := mk(true)
	b, vb, sending := mk(false)
	for a.now < 3000 {
		a.Step()
		b.Step()
		sa, sb := snapshot(a, *va, *sending), snapshot(b, *vb, *sending)
		for i := range sa {
			if sa[i] != sb[i] {
				t.Fatalf("cycle %d: packet level %s, flit level %s", a.now-1, sa[i], sb[i])
			}
		}
	}
}
