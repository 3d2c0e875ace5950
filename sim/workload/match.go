package workload

import (
	"fmt"
)

// match pairs every send with its receive, MPI's way: the k-th receive of task d from
// task s takes the k-th message s sends to d. Messages are numbered in the order of
// their sends. A send or receive left without a partner is an error naming it.
//
// It takes time and memory linear in the operations and tasks, whatever the number of
// distinct pairs (an all-to-all has P·(P−1)): the messages are sorted by destination
// with a stable counting sort, so each task's incoming messages sit together, by
// source and, per source, in the order they were sent.
func (w *Workload) match(where func(t, i int) string) error {
	n := w.Tasks()
	w.msgOf = make([]int32, len(w.ops))
	sends := 0
	for _, op := range w.ops {
		if op.Kind == Send {
			sends++
		}
	}
	if sends > 1<<31-1 {
		return fmt.Errorf("%d messages: accepted are at most %d", sends, 1<<31-1)
	}
	w.src, w.dst = make([]int32, 0, sends), make([]int32, 0, sends)
	w.bytes, w.sendOp = make([]int64, 0, sends), make([]int32, 0, sends)
	inFirst := make([]int32, n+1) // task d's incoming messages are incoming[inFirst[d]:inFirst[d+1]]
	for t := range n {
		for i := w.start[t]; i < w.start[t+1]; i++ {
			op := w.ops[i]
			w.msgOf[i] = -1
			if op.Kind == Send {
				w.msgOf[i] = int32(len(w.src))
				w.src = append(w.src, int32(t))
				w.dst = append(w.dst, op.Peer)
				w.bytes = append(w.bytes, op.N)
				w.sendOp = append(w.sendOp, i)
				inFirst[op.Peer+1]++
			}
		}
	}
	for d := range n {
		inFirst[d+1] += inFirst[d]
	}
	incoming := make([]int32, sends)
	fill := make([]int32, n)
	copy(fill, inFirst[:n])
	for m, d := range w.dst { // messages in order: by source, then as sent
		incoming[fill[d]] = int32(m)
		fill[d]++
	}
	w.recvOp = make([]int32, sends)
	for i := range w.recvOp {
		w.recvOp[i] = -1
	}
	// Per receiving task d, next[s]..end[s] index the messages from s not yet received
	// (valid while owner[s] == d).
	next, end, owner := make([]int32, n), make([]int32, n), make([]int32, n)
	for s := range owner {
		owner[s] = -1
	}
	for d := range n {
		for k := inFirst[d]; k < inFirst[d+1]; k++ {
			s := w.src[incoming[k]]
			if owner[s] != int32(d) {
				owner[s], next[s] = int32(d), k
			}
			end[s] = k + 1
		}
		for i := w.start[d]; i < w.start[d+1]; i++ {
			op := w.ops[i]
			if op.Kind != Recv {
				continue
			}
			s := op.Peer
			if owner[s] != int32(d) || next[s] == end[s] {
				got := int32(0)
				if owner[s] == int32(d) {
					got = end[s] - firstFrom(w, incoming, inFirst[d], end[s], s)
				}
				return fmt.Errorf("%s has no matching send: task %d sends %d message(s) to task %d and this is receive %d from it",
					where(d, int(i-w.start[d])), s, got, d, countRecvs(w, d, int(s), i)+1)
			}
			m := incoming[next[s]]
			next[s]++
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

// firstFrom is the index of the first message from task s in incoming[from:end),
// whose last one is from s (for an error message only).
func firstFrom(w *Workload, incoming []int32, from, end, s int32) int32 {
	k := end
	for k > from && w.src[incoming[k-1]] == s {
		k--
	}
	return k
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
