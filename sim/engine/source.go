package engine

import (
	"math/rand/v2"
	"unsafe"
)

// Source queues. The model's source queue is unbounded and a packet's end-to-end
// latency runs from its message's generation. A saturated run generates faster than
// it delivers, so a queue that kept every message would grow without bound (a
// 500,000-cycle saturated run once took 5.7 GB). The queues keep that semantics in
// bounded memory:
//
//   - A waiting message is 32 bytes (generation cycle, destination, packets, link,
//     lengths);
//     packets exist only from the cycle the NIC starts sending them.
//   - Horizon: a message behind more flits than the NIC can start before the run ends
//     (it starts at most one flit per cycle) can never be sent, so it is counted as
//     generated and not kept. Nothing observable changes.
//   - Cap: a PE keeps at most capMsgs messages. A PE whose queue reaches it stops
//     drawing its traffic at the cycle it happens and draws it lazily instead: when
//     its queue has room, its next message gets the generation cycle the previous one
//     had plus a geometric gap (the Bernoulli process is memoryless, so this is its
//     law exactly, and the cycle is usually in the past), then a destination and a
//     size; once a drawn cycle lies in the future, the PE returns to drawing at the
//     cycle itself. At the end of the run, the messages a lazy PE would still have
//     generated in the window are drawn and counted, so the offered traffic is
//     measured as before. Latency from generation, offered and accepted traffic keep
//     their law; the realisation differs from the unbounded queue's from then on (a
//     lazy PE draws from a stream of its own, sources.rng, and no longer from the
//     engine's).
//
// The cap is srcBudgetBytes over the whole network (srcCapMin messages per PE at
// least, beyond the budget from 65,536 PEs on): 128 MiB, 4,194,304 messages. The
// queues' messages live in chunks of srcChunk, allocated as they are first needed and
// never copied, so the queues hold at most the budget and one chunk: a pool grown by
// append held twice that and left the old arrays to the collector, and a saturated
// run on 64 PEs took 0.5 GB where this said 96 MB. The horizon keeps every queue of a
// run of T cycles below (T + L + largest message)/L messages (packets of L flits; of 1
// to L flits, (T + L + largest message) messages at worst), so a run shorter than
// about L·cap cycles never reaches the cap: its results are those of the unbounded
// queue bit for bit (twin:5x5x5, 250 PEs, L = 4: runs under 67,000 cycles).
const (
	srcBudgetBytes = 128 << 20                                     // bytes of waiting messages over all source queues
	srcBudget      = srcBudgetBytes / int(unsafe.Sizeof(srcMsg{})) // messages kept over all source queues
	srcCapMin      = 64                                            // messages kept per PE at least
	srcChunkShift  = 15
	srcChunk       = 1 << srcChunkShift // messages per chunk of the pool (1 MiB)
)

// srcMsg is a message waiting in a source queue.
type srcMsg struct {
	gen     int64
	dst     int32
	packets int32
	next    int32 // the next message of the queue, or of the free list
	// lens is what gives its packets' lengths under variable lengths: the seed of
	// their draws (open loop, uniformLength) or the message's flits (closed loop, cut
	// into packets of L and a last one of the rest).
	lens uint64
}

// Source states.
const (
	srcLive    = iota // generation drawn at its cycle, messages kept
	srcHorizon        // messages beyond the horizon: counted, not kept, until the end
	srcLazy           // at the cap: generation drawn lazily when the queue has room
)

// sources are the NICs' source queues: per PE a list of waiting messages and the
// progress of the one being sent. The messages of every queue share one pool with a
// free list, which stops growing once the queues do; the pool is chunks of srcChunk
// messages, message i at chunks[i>>srcChunkShift][i&(srcChunk-1)].
type sources struct {
	chunks     [][]srcMsg
	size       int32 // messages the pool has handed out, free or not
	free       int32
	head, tail []int32 // per PE: oldest and newest message, or -1
	n          []int32 // messages waiting, the head included until its last packet starts
	started    []int32 // packets of the head message already started
	msg        []int32 // message id of the head once its first packet started, else -1
	flits      []int64 // flits waiting that have not started
	lastGen    []int64 // lazy PEs: generation cycle of the newest message drawn
	state      []uint8
	capMsgs    int32
	lazies     int64      // times a PE reached the cap and turned lazy
	rng        *rand.Rand // the draws of lazy PEs
	// plain (tests only) keeps every message: the unbounded queue that the horizon
	// must reproduce exactly and the cap in law.
	plain bool
}

func (q *sources) init(pes int, seed uint64) {
	q.free = -1
	q.head = make([]int32, pes)
	q.tail = make([]int32, pes)
	q.n = make([]int32, pes)
	q.started = make([]int32, pes)
	q.msg = make([]int32, pes)
	q.flits = make([]int64, pes)
	q.lastGen = make([]int64, pes)
	q.state = make([]uint8, pes)
	for t := range q.msg {
		q.msg[t], q.head[t], q.tail[t] = -1, -1, -1
	}
	c := srcBudget / max(pes, 1)
	q.capMsgs = int32(max(srcCapMin, c))
	q.rng = rand.New(rand.NewPCG(seed, 0x6c617a7973726373)) // stream constant: "lazysrcs"
}

// at is message i of the pool.
func (q *sources) at(i int32) *srcMsg { return &q.chunks[i>>srcChunkShift][i&(srcChunk-1)] }

// push appends a message to PE t's queue.
func (q *sources) push(t int, m srcMsg, flits int64) {
	i := q.free
	if i >= 0 {
		q.free = q.at(i).next
	} else {
		if int(q.size)>>srcChunkShift == len(q.chunks) {
			q.chunks = append(q.chunks, make([]srcMsg, srcChunk))
		}
		i = q.size
		q.size++
	}
	m.next = -1
	*q.at(i) = m
	if q.tail[t] >= 0 {
		q.at(q.tail[t]).next = i
	} else {
		q.head[t] = i
	}
	q.tail[t] = i
	q.n[t]++
	q.flits[t] += flits
}

// poolBytes is what the pool holds: its chunks.
func (q *sources) poolBytes() int64 {
	return int64(len(q.chunks)) * srcChunk * int64(unsafe.Sizeof(srcMsg{}))
}

// front is PE t's oldest waiting message; the queue must not be empty.
func (q *sources) front(t int) *srcMsg { return q.at(q.head[t]) }

// pop removes PE t's oldest message once its last packet has started.
func (q *sources) pop(t int) {
	i := q.head[t]
	if q.head[t] = q.at(i).next; q.head[t] < 0 {
		q.tail[t] = -1
	}
	q.at(i).next, q.free = q.free, i
	q.n[t]--
	q.started[t], q.msg[t] = 0, -1
}

// generate draws a message at PE src in the current cycle and queues it, counts it
// beyond the horizon, or turns the PE lazy when its queue reaches the cap. It reports
// whether the PE keeps drawing its generation at its cycles.
func (e *Engine) generate(src int) bool {
	dst := e.pat.Dest(src, e.rng)
	if dst < 0 || dst == src && !e.self {
		return true
	}
	n := e.size.Sample(e.rng)
	lens, flits := e.drawLengths(n, e.rng)
	e.m.generated(e.now, n, flits)
	q := &e.src
	if q.plain {
		e.keep(src, srcMsg{gen: e.now, dst: int32(dst), packets: int32(n), lens: lens}, flits)
		return true
	}
	if q.state[src] == srcHorizon || q.flits[src] >= e.horizon() {
		q.state[src] = srcHorizon
		return true
	}
	e.keep(src, srcMsg{gen: e.now, dst: int32(dst), packets: int32(n), lens: lens}, flits)
	if q.n[src] >= q.capMsgs {
		q.state[src], q.lastGen[src] = srcLazy, e.now
		q.lazies++
		return false
	}
	return true
}

// horizon is the number of waiting flits beyond which a new message cannot start
// before the run ends: the NIC starts at most one flit per cycle, a whole packet
// (L flits) at a time. A run that may measure more windows (stationary.go) may end
// as late as its last one.
func (e *Engine) horizon() int64 {
	return max(e.m.last-e.now, 0) + int64(e.L)
}

// keep queues a message at PE src and makes its NIC active.
func (e *Engine) keep(src int, m srcMsg, flits int64) {
	e.src.push(src, m, flits)
	e.m.genAll += flits
	if !e.nicActive[src] {
		e.nicActive[src] = true
		e.nicList = append(e.nicList, int32(src))
	}
}

// refill draws the messages of lazy PE t that are due while its queue has room and
// the horizon allows; once a drawn generation cycle lies in the future, the PE draws
// at its cycles again.
func (e *Engine) refill(t int) {
	q := &e.src
	for q.n[t] < q.capMsgs && q.flits[t] < e.horizon() {
		g := q.lastGen[t] + int64(e.inj.NextGap(q.rng))
		if g > e.now {
			q.state[t] = srcLive
			e.gen.add(int32(t), g, e.now)
			return
		}
		q.lastGen[t] = g
		dst := e.pat.Dest(t, q.rng)
		if dst < 0 || dst == t && !e.self {
			continue
		}
		n := e.size.Sample(q.rng)
		lens, flits := e.drawLengths(n, q.rng)
		e.m.generated(g, n, flits)
		e.keep(t, srcMsg{gen: g, dst: int32(dst), packets: int32(n), lens: lens}, flits)
	}
}

// countLazy draws and counts, at the end of a run, the messages that lazy PEs would
// still have generated before cycle end: the offered traffic of the window.
func (e *Engine) countLazy(end int64) {
	q := &e.src
	for t, s := range q.state {
		if s != srcLazy {
			continue
		}
		for g := q.lastGen[t]; ; {
			g += int64(e.inj.NextGap(q.rng))
			if g >= end {
				break
			}
			if dst := e.pat.Dest(t, q.rng); dst >= 0 && (dst != t || e.self) {
				n := e.size.Sample(q.rng)
				_, flits := e.drawLengths(n, q.rng)
				e.m.generated(g, n, flits)
			}
		}
	}
}

// drawLengths draws the lengths of an open-loop message of n packets from rng: the
// seed to keep in the message (none under fixed lengths) and its flits.
func (e *Engine) drawLengths(n int, rng *rand.Rand) (lens uint64, flits int64) {
	if !e.varLen {
		return 0, int64(n) * int64(e.L)
	}
	lens = rng.Uint64()
	for k := range int32(n) {
		flits += int64(uniformLength(lens, k, e.L))
	}
	return lens, flits
}

// nextLength is the length of the next packet of PE t's oldest message; the queue
// must not be empty.
func (e *Engine) nextLength(t int) uint32 {
	if !e.varLen {
		return e.L
	}
	q := &e.src
	m, k := q.front(t), q.started[t]
	if e.prog != nil { // packets of L, the last one what remains
		return uint32(min(int64(e.L), int64(m.lens)-int64(k)*int64(e.L)))
	}
	return uniformLength(m.lens, k, e.L)
}

// nextPacket takes the next packet of PE t's oldest message, of n flits (nextLength),
// making the message when its first packet starts; the queue must not be empty.
func (e *Engine) nextPacket(t int, n uint32) int32 {
	q := &e.src
	m := q.front(t)
	if q.started[t] == 0 {
		mi := e.newMessage()
		e.msgs[mi] = message{gen: m.gen, remaining: m.packets, next: -1}
		q.msg[t] = mi
		if e.prog != nil {
			e.setProgramID(mi, e.progQueued[q.head[t]])
		}
	}
	pi := e.newPacket()
	e.pk[pi] = packet{src: int32(t), dst: m.dst, next: -1, msg: q.msg[t], gen: m.gen, flits: uint16(n)}
	q.flits[t] -= int64(n)
	if q.started[t]++; q.started[t] == m.packets {
		q.pop(t)
		if q.state[t] == srcLazy {
			e.refill(t)
		}
	}
	return pi
}
