package workload

import (
	"fmt"
)

// match pairs every send with its receive, MPI's way: the k-th receive of task d from
// task s takes the k-th message s sends to d. Messages are numbered in the order of
// their sends. A send or receive left without a partner is an error naming it.
func (w *Workload) match(where func(t, i int) string) error {
	n := w.Tasks()
	w.msgOf = make([]int32, len(w.ops))
	// Dense pair ids in order of first appearance, then the sends of every pair in order
	// (compressed rows): pairFirst[p] .. pairFirst[p+1] index pairSends.
	pairOf := make(map[uint64]int32)
	pair := func(s, d int32) int32 {
		k := uint64(s)<<32 | uint64(uint32(d))
		p, ok := pairOf[k]
		if !ok {
			p = int32(len(pairOf))
			pairOf[k] = p
		}
		return p
	}
	var sendPair []int32 // per message: its pair
	for t := range n {
		for i := w.start[t]; i < w.start[t+1]; i++ {
			op := w.ops[i]
			w.msgOf[i] = -1
			switch op.Kind {
			case Send:
				if len(w.src) >= 1<<31-1 {
					return fmt.Errorf("%s: more than %d messages", where(t, int(i-w.start[t])), 1<<31-1)
				}
				m := int32(len(w.src))
				w.msgOf[i] = m
				w.src = append(w.src, int32(t))
				w.dst = append(w.dst, op.Peer)
				w.bytes = append(w.bytes, op.N)
				w.sendOp = append(w.sendOp, i)
				sendPair = append(sendPair, pair(int32(t), op.Peer))
			case Recv:
				pair(op.Peer, int32(t))
			}
		}
	}
	np := len(pairOf)
	first := make([]int32, np+1)
	for _, p := range sendPair {
		first[p+1]++
	}
	for p := range np {
		first[p+1] += first[p]
	}
	fill := make([]int32, np)
	copy(fill, first[:np])
	sends := make([]int32, len(sendPair))
	for m, p := range sendPair {
		sends[fill[p]] = int32(m)
		fill[p]++
	}
	// Receives take the sends of their pair in order; fill[p] counts from first[p] again.
	copy(fill, first[:np])
	w.recvOp = make([]int32, len(w.src))
	for i := range w.recvOp {
		w.recvOp[i] = -1
	}
	for t := range n {
		for i := w.start[t]; i < w.start[t+1]; i++ {
			op := w.ops[i]
			if op.Kind != Recv {
				continue
			}
			p := pairOf[uint64(op.Peer)<<32|uint64(uint32(t))]
			if fill[p] == first[p+1] {
				got := first[p+1] - first[p]
				return fmt.Errorf("%s has no matching send: task %d sends %d message(s) to task %d and this is receive %d from it",
					where(t, int(i-w.start[t])), op.Peer, got, t, countRecvs(w, t, int(op.Peer), i)+1)
			}
			m := sends[fill[p]]
			fill[p]++
			w.msgOf[i] = m
			w.recvOp[m] = i
		}
	}
	for m, r := range w.recvOp {
		if r < 0 {
			s := int(w.src[m])
			return fmt.Errorf("%s is never received: task %d has fewer receives from task %d than messages sent to it",
				where(s, int(w.sendOp[m]-w.start[s])), w.dst[m], s)
		}
	}
	return nil
}

// countRecvs counts the receives of task t from src before op index before.
func countRecvs(w *Workload, t, src int, before int32) int {
	c := 0
	for i := w.start[t]; i < before; i++ {
		if w.ops[i].Kind == Recv && int(w.ops[i].Peer) == src {
			c++
		}
	}
	return c
}

// checkFinishes runs the programs with a network of infinite speed: a task runs
// until a receive whose message has not been sent. If some task never gets past a
// receive, the programs wait on each other in a cycle and can never finish; the error
// names the blocked task and operation and what it waits on. It also counts the
// rounds of the one-port model (see Rounds).
func (w *Workload) checkFinishes(where func(t, i int) string) error {
	n := w.Tasks()
	pc := make([]int32, n)              // next op of each task, relative to its start
	clock := make([]int32, n)           // one-port rounds each task has used
	arrive := make([]int32, len(w.src)) // the round each message arrives
	sent := make([]bool, len(w.src))
	waiter := make([]int32, len(w.src)) // task blocked on the message, or -1
	for i := range waiter {
		waiter[i] = -1
	}
	ready := make([]int32, 0, n)
	for t := n - 1; t >= 0; t-- {
		ready = append(ready, int32(t))
	}
	done := 0
	for len(ready) > 0 {
		t := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		base, end := w.start[t], w.start[t+1]
		for base+pc[t] < end {
			i := base + pc[t]
			op := w.ops[i]
			if op.Kind == Send {
				m := w.msgOf[i]
				sent[m] = true
				clock[t]++
				arrive[m] = clock[t]
				w.rounds = max(w.rounds, int(clock[t]))
				if r := waiter[m]; r >= 0 {
					waiter[m] = -1
					ready = append(ready, r)
				}
			} else if op.Kind == Recv {
				m := w.msgOf[i]
				if !sent[m] {
					waiter[m] = t
					break
				}
				clock[t] = max(clock[t], arrive[m])
			}
			pc[t]++
		}
		if base+pc[t] == end {
			done++
		}
	}
	if done == n {
		return nil
	}
	// Name the blocked task with the lowest id and the waits that lead back to it. A
	// blocked task waits at a receive for a task that has not sent that message, so is
	// blocked too: following the waits must close a cycle.
	for t := range n {
		if w.start[t]+pc[t] == w.start[t+1] {
			continue
		}
		msg := "the programs can never finish: " + where(t, int(pc[t]))
		seen := map[int]bool{t: true}
		for u, steps := t, 0; ; steps++ {
			s := int(w.src[w.msgOf[w.start[u]+pc[u]]])
			if seen[s] {
				msg += fmt.Sprintf(" waits for task %d: a cycle", s)
				break
			}
			if steps == 3 {
				msg += fmt.Sprintf(" waits for task %d, and so on in a cycle", s)
				break
			}
			seen[s] = true
			msg += fmt.Sprintf(" waits for task %d, blocked at %s, which", s, where(s, int(pc[s])))
			u = s
		}
		return fmt.Errorf("%s", msg)
	}
	return nil
}
