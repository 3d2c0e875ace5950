package engine

import (
	"fmt"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
)

// snapshot is the state allocation sees: queue lengths, port occupancy, and free
// credits of VCs that no packet is being sent into (mid-packet, the packet level has
// already reserved the whole packet while the flit level counts flit by flit).
func snapshot(e *Engine) []string {
	var out []string
	sending := map[int32]bool{}
	for g := range e.ports {
		if e.ports[g].outBusy > e.now && e.ports[g].owner >= 0 {
			sending[e.inStream[e.ports[g].owner].dvc] = true
		}
	}
	for t := range e.nicBusy {
		if e.nicBusy[t] > e.now+1 || e.nicSending[t] >= 0 {
			at := e.net.Attachment(t)
			for v := int32(0); v < int32(e.ports[e.net.PortID(int(at.Switch), int(at.Port))].nvc); v++ {
				sending[e.ports[e.net.PortID(int(at.Switch), int(at.Port))].vc0+v] = true
			}
		}
	}
	for i := range e.vcs {
		vc := &e.vcs[i]
		f := "-"
		if !sending[int32(i)] {
			f = fmt.Sprint(e.free(vc))
		}
		// Packets waiting: the flit level keeps a departing packet queued until its tail
		// has left, the packet level pops it when its head leaves.
		waiting := int(vc.qLen)
		if ps := &e.ports[vc.port]; !e.packetLevel && ps.inBusy > e.now && e.inStream[vc.port].ivc == int32(i) {
			waiting--
		}
		out = append(out, fmt.Sprintf("vc %d (switch %d port %d): waiting %d free %s", i, e.ports[vc.port].sw, e.ports[vc.port].local, waiting, f))
	}
	for g := range e.ports {
		busy := e.ports[g].inBusy > e.now || e.ports[g].outBusy > e.now
		out = append(out, fmt.Sprintf("port %d: busy %v", g, busy))
	}
	return out
}

func TestLockstep(t *testing.T) {
	mk := func(pl bool) (*Engine, *[]string) {
		e := newRun(t, "mesh:5x4", routing.SchemeVC, "uniform", params(0.6, 0, 3000, 11))
		e.packetLevel = pl
		var snap []string
		e.beforeAlloc = func() { snap = snapshot(e) }
		return e, &snap
	}
	a, sa := mk(true)
	b, sb := mk(false)
	for a.now < 3000 {
		a.Step()
		b.Step()
		for i := range *sa {
			if (*sa)[i] != (*sb)[i] {
				t.Fatalf("cycle %d: packet level %s, flit level %s", a.now-1, (*sa)[i], (*sb)[i])
			}
		}
	}
}
