package engine

import "fmt"

// check verifies the invariants that must hold between any two cycles:
//   - flit conservation: every flit generated is in a source queue, in a buffer, on a
//     link, or ejected;
//   - credit conservation: for every input VC, the sender's credits plus the flits in
//     the buffer, on the link towards it and the credits on their way back equal its
//     capacity;
//   - no buffer overflows and no negative credits;
//   - wormhole: every output VC is held by at most one packet, and its holder is the
//     one heldBy names;
//   - every packet a queue refers to is live (not delivered and freed).
func (e *Engine) check() error {
	if err := e.checkHolders(); err != nil {
		return err
	}
	if err := e.checkLivePackets(); err != nil {
		return err
	}
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
		fl := &e.flits[ivc]
		occ := int64(int32(fl.arrived - fl.departed))
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
	for t := range e.nicSending {
		queued += e.src.flits[t]
		if e.nicSending[t] >= 0 {
			queued += int64(e.lenOf(e.nicSending[t]) - e.nicSent[t])
		}
	}
	if total := queued + inBuffers + onLinks + e.m.ejectAll; total != e.m.genAll {
		return fmt.Errorf("cycle %d: %d flits generated but %d queued + %d buffered + %d on links + %d ejected = %d",
			e.now, e.m.genAll, queued, inBuffers, onLinks, e.m.ejectAll, total)
	}
	return nil
}

// checkHolders: under wormhole, each downstream VC is held by at most one input VC,
// and heldBy agrees with the holders' records.
func (e *Engine) checkHolders() error {
	w := e.wh
	if w == nil {
		return nil
	}
	holder := make(map[int32]int32)
	for ivc, d := range w.dvc {
		if d < 0 {
			continue
		}
		if o, ok := holder[d]; ok {
			return fmt.Errorf("cycle %d: input VCs %d and %d both hold output VC %d", e.now, o, ivc, d)
		}
		holder[d] = int32(ivc)
		if w.heldBy[d] != int32(ivc) {
			return fmt.Errorf("cycle %d: input VC %d holds output VC %d, which heldBy gives to %d", e.now, ivc, d, w.heldBy[d])
		}
	}
	for d, h := range w.heldBy {
		if h >= 0 && w.dvc[h] != int32(d) {
			return fmt.Errorf("cycle %d: heldBy gives output VC %d to input VC %d, which holds %d", e.now, d, h, w.dvc[h])
		}
	}
	return nil
}

// checkLivePackets: no VC queue refers to a packet that was delivered and freed.
func (e *Engine) checkLivePackets() error {
	free := make(map[int32]bool)
	for i := e.freePk; i >= 0; i = e.pk[i].next {
		free[i] = true
	}
	for ivc := range e.vcs {
		vc := &e.vcs[ivc]
		for k := uint16(0); k < vc.qLen; k++ {
			slot := vc.qHead + k
			if slot >= vc.qCap {
				slot -= vc.qCap
			}
			if pi := e.queue[vc.qBase+int32(slot)].pkt; free[pi] {
				return fmt.Errorf("cycle %d: VC %d queues packet %d, which was delivered", e.now, ivc, pi)
			}
		}
	}
	return nil
}
