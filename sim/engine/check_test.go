package engine

import "fmt"

// check verifies the invariants that must hold between any two cycles:
//   - flit conservation: every flit generated is in a source queue, in a buffer, on a
//     link, or ejected;
//   - credit conservation: for every input VC, the sender's credits plus the flits in
//     the buffer, on the link towards it and the credits on their way back equal its
//     capacity;
//   - no buffer overflows and no negative credits.
func (e *Engine) check() error {
	arrivals := make([]int64, len(e.vcs))
	creditsBack := make([]int64, len(e.vcs))
	var onLinks int64
	for _, b := range e.wheel {
		for _, code := range b {
			id := code & evMask
			switch code &^ evMask {
			case evArrival:
				arrivals[id]++
				onLinks++
			case evCredit:
				creditsBack[id]++
			}
		}
	}
	var inBuffers int64
	for ivc := range e.vcs {
		vc := &e.vcs[ivc]
		occ := int64(int32(vc.arrived - vc.departed))
		if occ < 0 || occ > int64(vc.capacity) || vc.credits < 0 {
			return fmt.Errorf("cycle %d: VC %d holds %d flits of %d, credits %d", e.now, ivc, occ, vc.capacity, vc.credits)
		}
		if got := int64(vc.credits) + occ + arrivals[ivc] + creditsBack[ivc]; got != int64(vc.capacity) {
			return fmt.Errorf("cycle %d: VC %d credits %d + buffered %d + arriving %d + returning %d = %d, want capacity %d",
				e.now, ivc, vc.credits, occ, arrivals[ivc], creditsBack[ivc], got, vc.capacity)
		}
		inBuffers += occ
	}
	var queued int64
	for t := range e.nicHead {
		queued += int64(e.nicQueued[t]) * int64(e.L)
		if e.nicSending[t] >= 0 {
			queued += int64(e.L - e.nicSent[t])
		}
	}
	if total := queued + inBuffers + onLinks + e.m.ejectAll; total != e.m.genAll {
		return fmt.Errorf("cycle %d: %d flits generated but %d queued + %d buffered + %d on links + %d ejected = %d",
			e.now, e.m.genAll, queued, inBuffers, onLinks, e.m.ejectAll, total)
	}
	return nil
}
