package engine

// Delivery: a packet's tail reaches its NIC; the meters count it, a closed-loop
// program hears of it, and the packet (and its message, when it was the last) returns
// to the free lists. With threads, deliveries are applied on one core after the phases,
// in region order (deliverSent).

// deliver records packet pi, whose tail reaches its NIC at cycle at, and frees it.
func (e *Engine) deliver(pi int32, at int64) {
	pk := &e.pk[pi]
	e.inNet--
	e.hopsDone += int64(pk.hops)
	mi := pk.msg
	e.msgs[mi].remaining--
	msgDone := e.msgs[mi].remaining == 0
	e.m.delivered(e, pk, at, msgDone, e.msgs[mi].gen)
	if e.prog != nil {
		e.programDelivered(pk, at, msgDone, mi)
	}
	if msgDone {
		e.msgs[mi].next = e.freeMsg
		e.freeMsg = mi
	}
	pk.next = e.freePk
	e.freePk = pi
}

// deliverSent records packet pkt, whose tail reaches its NIC at cycle at: at once on
// one thread, after the phases, in region order, in a parallel run.
func (e *Engine) deliverSent(pkt int32, at int64) {
	if e.wk != nil {
		e.wk.delivers = append(e.wk.delivers, delivery{pkt: pkt, at: at})
		return
	}
	e.deliver(pkt, at)
}
