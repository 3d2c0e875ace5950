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
		if e.ports[g].busy {
			sending[e.inStream[g].dvc] = true
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
		out = append(out, fmt.Sprintf("vc %d (switch %d port %d): qLen %d free %s", i, e.ports[vc.port].sw, e.ports[vc.port].local, vc.qLen, f))
	}
	for g := range e.ports {
		out = append(out, fmt.Sprintf("port %d: busy %v owner %d", g, e.ports[g].busy, e.ports[g].owner))
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
