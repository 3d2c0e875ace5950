package engine

import (
	"context"
	"fmt"
		"math/rand/v2"
	"time"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/traffic"
)

// Config is everything a run needs.
type Config struct {
	Net     *topology.Network
	Routing routing.Func
	// Selector picks among several candidates (adaptive routing); nil takes the first
	// available one.
	Selector routing.Selector
	Pattern  traffic.Pattern
	Sizes    traffic.Sizes // zero: one packet per message
	Params   Params
}

// Event codes on the timing wheel: the top two bits are the kind.
const (
	evArrival = 0 << 30 // a flit reaches input VC id
	evCredit  = 1 << 30 // a credit for input VC id reaches its sender
	evWake    = 2 << 30 // switch id has a head packet ready for allocation
	evMask    = 1<<30 - 1
)

type qEntry struct {
	pkt   int32
	ready int32 // cycle (low 31 bits) at which the head may leave; see readyAt
}

type packet struct {
	src, dst int32
	next     int32 // NIC queue or free list link
	msg      int32
	hops     int16
	escaped  bool
	gen, inj int64
}

type message struct {
	gen       int64
	remaining int32
	next      int32 // free list
}

// Engine is one simulation. It is not safe for concurrent use; run one per goroutine.
type Engine struct {
	net  *topology.Network
	rt   routing.Func
	det  *routing.Deterministic // fast path for deterministic routing, else nil
	sel  routing.Selector
	pat  traffic.Pattern
	size traffic.Sizes
	inj  traffic.Injection
	p    Params
	rng  *rand.Rand
	now  int64
	L    uint32 // packet flits

	// Per global port id (input side and output side share the id).
	portSwitch []int32
	portLocal  []int16
	outLat     []int32 // latency of the link leaving this port
	downVC0    []int32 // first input VC at the downstream port; -1 = ejection to a NIC
	outOwner   []int32 // input port streaming through this output, or -1
	outRR      []int16 // stage-2 round-robin pointer (local input port)
	inVC0      []int32
	inNVC      []int8
	inRR       []int8 // stage-1 round-robin pointer
	stIVC      []int32 // active stream of this input port: its input VC, or -1
	stOut      []int32 // output port of the stream
	stDVC      []int32 // downstream input VC of the stream, or -1 when ejecting
	kindOf     []topology.PortKind

	// Per input VC.
	vcPort   []int32
	vcCap    []int32
	credits  []int32 // upstream's view of free flits
	arrived  []uint32
	departed []uint32
	headSent []uint32
	qBase    []int32
	qCap     []int16
	qHead    []int16
	qLen     []int16
	queue    []qEntry
	rcache   []routing.Candidate
	rvalid   []bool

	// Per terminal (NIC).
	nicHead, nicTail []int32 // source queue of packets
	nicQueued        []int32 // packets in the source queue
	nicSending       []int32 // packet being injected, or -1
	nicSent          []uint32
	nicVC            []int32
	nicActive        []bool
	nicRR            []int8
	nicList          []int32

	pk       []packet
	freePk   int32
	msgs     []message
	freeMsg  int32
	streams  []int32 // input ports with an active stream
	wheel    [][]uint32
	wmask    int64
	pending  int
	allocNow []int32
	allocNxt []int32
	listed   []int64
	gen      genHeap

	scratch  []routing.Candidate
	opts     []routing.Option
	req      []request
	best     []int32
	lastMove int64
	inNet    int64 // packets injected and not yet delivered

	m   meter
	dl  *Deadlock
	err error
}

type request struct {
	in, out int32 // local ports
	ivc     int32
	cand    routing.Candidate
}

// New builds an engine for a run. It validates every parameter and returns a clear
// error for impossible combinations.
func New(cfg Config) (*Engine, error) {
	if cfg.Net == nil || cfg.Routing == nil || cfg.Pattern == nil {
		return nil, fmt.Errorf("engine: a network, a routing function and a traffic pattern are required")
	}
	p := cfg.Params.withDefaults()
	if err := p.validate(); err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	if err := p.resolveBuffers(cfg.Routing); err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	e := &Engine{net: cfg.Net, rt: cfg.Routing, sel: cfg.Selector, pat: cfg.Pattern, size: cfg.Sizes, p: p,
		L: uint32(p.PacketFlits), freePk: -1, freeMsg: -1}
	e.det, _ = cfg.Routing.(*routing.Deterministic)
	e.rng = rand.New(rand.NewPCG(p.Seed, 0x7477696e746f7275)) // stream constant: "twintoru"
	var err error
	if e.inj, err = traffic.NewInjection(p.Load, e.size, p.PacketFlits); err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	e.layout()
	e.m.init(e)
	// First generation time of every PE.
	for t := 0; t < cfg.Net.Terminals() && e.inj.P() > 0; t++ {
		e.gen.push(genItem{at: e.nextGen(-1), pe: int32(t)})
	}
	return e, nil
}

// layout allocates the flat state arrays.
func (e *Engine) layout() {
	net, p := e.net, e.p
	np := net.TotalPorts()
	e.portSwitch = make([]int32, np)
	e.portLocal = make([]int16, np)
	e.outLat = make([]int32, np)
	e.downVC0 = make([]int32, np)
	e.outOwner = make([]int32, np)
	e.outRR = make([]int16, np)
	e.inVC0 = make([]int32, np+1)
	e.inNVC = make([]int8, np)
	e.inRR = make([]int8, np)
	e.stIVC = make([]int32, np)
	e.stOut = make([]int32, np)
	e.stDVC = make([]int32, np)
	e.kindOf = make([]topology.PortKind, np)
	maxPorts := 0
	nvc := 0
	for s := 0; s < net.Switches(); s++ {
		if net.Ports(s) > maxPorts {
			maxPorts = net.Ports(s)
		}
		for q := 0; q < net.Ports(s); q++ {
			g := net.PortID(s, q)
			port := net.Port(s, q)
			e.portSwitch[g], e.portLocal[g], e.kindOf[g] = int32(s), int16(q), port.Kind
			e.outOwner[g], e.stIVC[g] = -1, -1
			e.inVC0[g] = int32(nvc)
			b := e.buffer(port.Kind)
			if port.Kind == topology.Terminal || port.Connected() {
				e.inNVC[g] = int8(b.VCs)
				nvc += b.VCs
			}
			e.outLat[g] = int32(p.LinkLatency)
			if port.Kind == topology.Internal {
				e.outLat[g] = int32(p.InternalLatency)
			}
		}
	}
	e.inVC0[np] = int32(nvc)
	for g := 0; g < np; g++ {
		s, q := int(e.portSwitch[g]), int(e.portLocal[g])
		port := net.Port(s, q)
		e.downVC0[g] = -1
		if port.Connected() {
			e.downVC0[g] = e.inVC0[net.PortID(int(port.Peer), int(port.PeerPort))]
		}
	}
	e.vcPort = make([]int32, nvc)
	e.vcCap = make([]int32, nvc)
	e.credits = make([]int32, nvc)
	e.arrived = make([]uint32, nvc)
	e.departed = make([]uint32, nvc)
	e.headSent = make([]uint32, nvc)
	e.qBase = make([]int32, nvc)
	e.qCap = make([]int16, nvc)
	e.qHead = make([]int16, nvc)
	e.qLen = make([]int16, nvc)
	e.rcache = make([]routing.Candidate, nvc)
	e.rvalid = make([]bool, nvc)
	qtotal := 0
	for g := 0; g < np; g++ {
		b := e.buffer(e.kindOf[g])
		for v := 0; v < int(e.inNVC[g]); v++ {
			i := int(e.inVC0[g]) + v
			e.vcPort[i] = int32(g)
			e.vcCap[i] = int32(b.Flits)
			e.credits[i] = int32(b.Flits)
			// Entries: every packet with a flit in the buffer or on its way; at most
			// two of them are partial.
			c := b.Flits/p.PacketFlits + 2
			e.qBase[i], e.qCap[i] = int32(qtotal), int16(c)
			qtotal += c
		}
	}
	e.queue = make([]qEntry, qtotal)

	nt := net.Terminals()
	e.nicHead = make([]int32, nt)
	e.nicTail = make([]int32, nt)
	e.nicQueued = make([]int32, nt)
	e.nicSending = make([]int32, nt)
	e.nicSent = make([]uint32, nt)
	e.nicVC = make([]int32, nt)
	e.nicActive = make([]bool, nt)
	e.nicRR = make([]int8, nt)
	for t := range e.nicHead {
		e.nicHead[t], e.nicTail[t], e.nicSending[t] = -1, -1, -1
	}

	maxDelay := p.LinkLatency
	if p.InternalLatency > maxDelay {
		maxDelay = p.InternalLatency
	}
	w := 1
	for w < maxDelay+p.RoutingDelay+2 {
		w *= 2
	}
	e.wheel = make([][]uint32, w)
	e.wmask = int64(w - 1)
	e.listed = make([]int64, net.Switches())
	for i := range e.listed {
		e.listed[i] = -1
	}
	e.best = make([]int32, maxPorts)
	for i := range e.best {
		e.best[i] = -1
	}
}

func (e *Engine) buffer(k topology.PortKind) Buffer {
	switch k {
	case topology.Terminal:
		return e.p.Terminal
	case topology.Internal:
		return e.p.Internal
	}
	return e.p.External
}

// Params are the parameters in force, defaults filled in.
func (e *Engine) Params() Params { return e.p }

// Now is the current cycle.
func (e *Engine) Now() int64 { return e.now }

func (e *Engine) schedule(at int64, code uint32) {
	b := &e.wheel[at&e.wmask]
	*b = append(*b, code)
	e.pending++
}

// nextGen is the next cycle after `after` at which a PE generates a message: a
// geometric gap, the same law as a Bernoulli trial every cycle, so idle cycles can be
// skipped.
func (e *Engine) nextGen(after int64) int64 {
	return after + int64(e.inj.NextGap(e.rng))
}

// Run simulates Warmup + Measure cycles, or until a deadlock or ctx's cancellation.
func (e *Engine) Run(ctx context.Context) (*Result, error) {
	start := time.Now()
	end := e.p.Warmup + e.p.Measure
	for e.now < end {
		if e.now&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("run stopped at cycle %d: %w", e.now, err)
			}
		}
		e.Step()
		if e.dl != nil || e.err != nil {
			break
		}
		e.skipIdle(end)
	}
	if e.err != nil {
		return nil, e.err
	}
	return e.result(time.Since(start)), nil
}

// skipIdle jumps over cycles in which nothing can happen: no flit in the network, no
// event pending and no message due.
func (e *Engine) skipIdle(end int64) {
	if len(e.streams) > 0 || len(e.nicList) > 0 || e.pending > 0 || len(e.allocNow) > 0 || len(e.allocNxt) > 0 {
		return
	}
	next := end
	if len(e.gen) > 0 && e.gen[0].at < next {
		next = e.gen[0].at
	}
	if next > e.now {
		e.now = next
		e.lastMove = next
	}
}

// Step simulates one cycle.
func (e *Engine) Step() {
	t := e.now
	// 1. Flits and credits that arrive now; switches whose head packets become ready.
	e.allocNow, e.allocNxt = e.allocNxt, e.allocNow[:0]
	b := &e.wheel[t&e.wmask]
	for _, code := range *b {
		id := int32(code & evMask)
		switch code &^ evMask {
		case evArrival:
			e.arrived[id]++
		case evCredit:
			e.credits[id]++
		case evWake:
			e.list(id, t)
		}
	}
	e.pending -= len(*b)
	*b = (*b)[:0]

	// 2. New messages, then NIC injection.
	for len(e.gen) > 0 && e.gen[0].at == t {
		pe := e.gen[0].pe
		e.generate(int(pe))
		e.gen.replaceTop(genItem{at: e.nextGen(t), pe: pe})
	}
	e.inject()

	// 3. Allocation at every switch with a ready head packet.
	for _, s := range e.allocNow {
		e.allocate(int(s))
	}

	// 4. Every active stream moves one flit.
	e.advance()

	if e.inNet > 0 && e.p.Watchdog > 0 && t-e.lastMove >= e.p.Watchdog {
		e.dl = e.findDeadlock()
	}
	e.now++
}

// list puts switch s on the allocation list of cycle t (the current one).
func (e *Engine) list(s int32, t int64) {
	if e.listed[s] != t {
		e.listed[s] = t
		e.allocNow = append(e.allocNow, s)
	}
}

// relist puts switch s on the next cycle's allocation list.
func (e *Engine) relist(s int32) {
	if e.listed[s] != e.now+1 {
		e.listed[s] = e.now + 1
		e.allocNxt = append(e.allocNxt, s)
	}
}

// wake makes switch s allocate at cycle at (> now), when a head packet becomes ready.
func (e *Engine) wake(s int32, at int64) {
	if at <= e.now+1 {
		e.relist(s)
		return
	}
	e.schedule(at, evWake|uint32(s))
}

func (e *Engine) newPacket() int32 {
	if e.freePk >= 0 {
		i := e.freePk
		e.freePk = e.pk[i].next
		return i
	}
	e.pk = append(e.pk, packet{})
	return int32(len(e.pk) - 1)
}

func (e *Engine) newMessage() int32 {
	if e.freeMsg >= 0 {
		i := e.freeMsg
		e.freeMsg = e.msgs[i].next
		return i
	}
	e.msgs = append(e.msgs, message{})
	return int32(len(e.msgs) - 1)
}

// generate makes a message at PE src and queues its packets at the NIC.
func (e *Engine) generate(src int) {
	dst := e.pat.Dest(src, e.rng)
	if dst < 0 || dst == src {
		return
	}
	n := e.size.Sample(e.rng)
	mi := e.newMessage()
	e.msgs[mi] = message{gen: e.now, remaining: int32(n), next: -1}
	for i := 0; i < n; i++ {
		pi := e.newPacket()
		e.pk[pi] = packet{src: int32(src), dst: int32(dst), next: -1, msg: mi, gen: e.now}
		if e.nicTail[src] >= 0 {
			e.pk[e.nicTail[src]].next = pi
		} else {
			e.nicHead[src] = pi
		}
		e.nicTail[src] = pi
		e.nicQueued[src]++
	}
	e.m.generated(e, n)
	if !e.nicActive[src] {
		e.nicActive[src] = true
		e.nicList = append(e.nicList, int32(src))
	}
}

// inject moves one flit from every NIC that has a packet to send and room for it.
func (e *Engine) inject() {
	for i := 0; i < len(e.nicList); {
		t := e.nicList[i]
		if e.nicSending[t] < 0 && !e.startInjection(t) {
			if e.nicHead[t] < 0 { // nothing left to send
				e.nicActive[t] = false
				last := len(e.nicList) - 1
				e.nicList[i] = e.nicList[last]
				e.nicList = e.nicList[:last]
				continue
			}
			i++
			continue
		}
		ivc := e.nicVC[t]
		if e.credits[ivc] == 0 { // wormhole only: cut-through reserved room for the packet
			i++
			continue
		}
		e.credits[ivc]--
		g := e.vcPort[ivc]
		e.schedule(e.now+int64(e.outLat[g]), evArrival|uint32(ivc))
		pi := e.nicSending[t]
		if e.nicSent[t] == 0 {
			e.pk[pi].inj = e.now
			e.inNet++
			e.enqueue(ivc, pi, e.now+int64(e.outLat[g])+int64(e.p.RoutingDelay))
		}
		e.nicSent[t]++
		e.lastMove = e.now
		if e.nicSent[t] == e.L {
			e.nicSending[t] = -1
		}
		i++
	}
}

// startInjection picks the terminal-port VC for the NIC's next packet.
func (e *Engine) startInjection(t int32) bool {
	pi := e.nicHead[t]
	if pi < 0 {
		return false
	}
	at := e.net.Attachment(int(t))
	g := e.net.PortID(int(at.Switch), int(at.Port))
	need := int32(e.L)
	if e.p.Switching == Wormhole {
		need = 1
	}
	n := int(e.inNVC[g])
	for j := 0; j < n; j++ {
		v := (int(e.nicRR[t]) + j) % n
		ivc := e.inVC0[g] + int32(v)
		if e.credits[ivc] >= need && e.qLen[ivc] < e.qCap[ivc] {
			e.nicRR[t] = int8((v + 1) % n)
			e.nicHead[t] = e.pk[pi].next
			if e.nicHead[t] < 0 {
				e.nicTail[t] = -1
			}
			e.nicQueued[t]--
			e.nicSending[t], e.nicSent[t], e.nicVC[t] = pi, 0, ivc
			return true
		}
	}
	return false
}

// enqueue appends packet pi to input VC ivc; its head may leave at cycle ready.
func (e *Engine) enqueue(ivc, pi int32, ready int64) {
	n := e.qLen[ivc]
	slot := (e.qHead[ivc] + n) % e.qCap[ivc]
	e.queue[e.qBase[ivc]+int32(slot)] = qEntry{pkt: pi, ready: int32(ready)}
	e.qLen[ivc] = n + 1
	if n == 0 {
		e.rvalid[ivc] = false
		e.wake(e.portSwitch[e.vcPort[ivc]], ready)
	}
}

// readyAt recovers the full cycle from the 32-bit ready stamp of a queue entry.
func (e *Engine) readyAt(q qEntry) int64 {
	return e.now + int64(q.ready-int32(e.now))
}

// allocate runs the two-stage round-robin allocation of switch s.
func (e *Engine) allocate(s int) {
	net := e.net
	base := net.PortID(s, 0)
	np := net.Ports(s)
	e.req = e.req[:0]
	blocked := false
	need := int32(e.L)
	if e.p.Switching == Wormhole {
		need = 1
	}
	// Stage 1: every idle input port picks one VC whose head packet can advance.
	for q := 0; q < np; q++ {
		g := base + q
		n := int(e.inNVC[g])
		if n == 0 || e.stIVC[g] >= 0 {
			continue
		}
		for j := 0; j < n; j++ {
			v := (int(e.inRR[g]) + j) % n
			ivc := e.inVC0[g] + int32(v)
			if e.qLen[ivc] == 0 {
				continue
			}
			head := e.queue[e.qBase[ivc]+int32(e.qHead[ivc])]
			if e.readyAt(head) > e.now {
				continue // its wake event is scheduled
			}
			if c, ok := e.choose(s, q, v, ivc, head.pkt, base, need); ok {
				e.req = append(e.req, request{in: int32(q), out: int32(c.Port), ivc: ivc, cand: c})
				break
			}
			blocked = true
		}
	}
	// Stage 2: every requested output port grants one input, round-robin.
	for i, r := range e.req {
		o := r.out
		if b := e.best[o]; b < 0 || e.rrBefore(base+int(o), r.in, e.req[b].in, np) {
			e.best[o] = int32(i)
		}
	}
	for i, r := range e.req {
		if e.best[r.out] != int32(i) {
			blocked = true
			continue
		}
		e.start(base, r)
	}
	for _, r := range e.req {
		e.best[r.out] = -1
	}
	if blocked {
		e.relist(int32(s))
	}
}

// rrBefore reports whether input a comes before input b in output g's round-robin order.
func (e *Engine) rrBefore(g int, a, b int32, np int) bool {
	p := int32(e.outRR[g])
	return (a-p+int32(np))%int32(np) < (b-p+int32(np))%int32(np)
}

// choose returns the candidate the head packet of ivc takes now, if any can advance.
func (e *Engine) choose(s, q, v int, ivc, pi int32, base int, need int32) (routing.Candidate, bool) {
	if e.det != nil {
		if !e.rvalid[ivc] {
			e.rcache[ivc] = e.det.Next(s, q, int(e.pk[pi].dst))
			e.rvalid[ivc] = true
		}
		c := e.rcache[ivc]
		return c, e.canAdvance(base+int(c.Port), c, need)
	}
	pk := &e.pk[pi]
	e.scratch = e.rt.Route(s, q, v, routing.Head{Src: pk.src, Dst: pk.dst, Escaped: pk.escaped}, e.scratch[:0])
	if len(e.scratch) == 1 {
		c := e.scratch[0]
		return c, e.canAdvance(base+int(c.Port), c, need)
	}
	e.opts = e.opts[:0]
	any := false
	for _, c := range e.scratch {
		g := base + int(c.Port)
		o := routing.Option{Candidate: c, Available: e.canAdvance(g, c, need)}
		if d := e.downVC0[g]; d >= 0 {
			o.Credits, o.Capacity = int(e.credits[d+int32(c.VC)]), int(e.vcCap[d+int32(c.VC)])
		}
		any = any || o.Available
		e.opts = append(e.opts, o)
	}
	if !any {
		return routing.Candidate{}, false
	}
	i := 0
	if e.sel != nil {
		i = e.sel.Select(s, q, e.opts)
	} else {
		for !e.opts[i].Available {
			i++
		}
	}
	if i < 0 || i >= len(e.opts) || !e.opts[i].Available {
		return routing.Candidate{}, false
	}
	return e.opts[i].Candidate, true
}

// canAdvance reports whether a packet may start through output port g on candidate c.
func (e *Engine) canAdvance(g int, c routing.Candidate, need int32) bool {
	if e.outOwner[g] >= 0 {
		return false
	}
	d := e.downVC0[g]
	if d < 0 {
		return true // ejection: the NIC takes a flit per cycle
	}
	dvc := d + int32(c.VC)
	if c.Bubble {
		need *= 2
	}
	return e.credits[dvc] >= need && e.qLen[dvc] < e.qCap[dvc]
}

// start connects input VC r.ivc to output r.out for the head packet's whole length.
func (e *Engine) start(base int, r request) {
	in, out := base+int(r.in), base+int(r.out)
	e.stIVC[in], e.stOut[in] = r.ivc, int32(out)
	e.stDVC[in] = -1
	if d := e.downVC0[out]; d >= 0 {
		e.stDVC[in] = d + int32(r.cand.VC)
	}
	e.outOwner[out] = int32(in)
	n := int(e.inNVC[in])
	e.inRR[in] = int8((int(r.ivc-e.inVC0[in]) + 1) % n)
	e.outRR[out] = int16((int(r.in) + 1) % e.net.Ports(int(e.portSwitch[in])))
	if r.cand.Escape {
		e.pk[e.queue[e.qBase[r.ivc]+int32(e.qHead[r.ivc])].pkt].escaped = true
	}
	e.streams = append(e.streams, int32(in))
}

// advance moves one flit along every active stream.
func (e *Engine) advance() {
	cd := int64(e.p.LinkLatency)
	for i := 0; i < len(e.streams); {
		in := e.streams[i]
		ivc := e.stIVC[in]
		if e.arrived[ivc] == e.departed[ivc] { // wormhole: the next flit is not here yet
			i++
			continue
		}
		dvc := e.stDVC[in]
		if dvc >= 0 && e.credits[dvc] == 0 { // wormhole: no room downstream
			i++
			continue
		}
		out := e.stOut[in]
		e.departed[ivc]++
		sent := e.headSent[ivc] + 1
		e.headSent[ivc] = sent
		// The freed slot's credit travels back to whoever feeds this input port.
		back := cd
		if e.kindOf[in] == topology.Internal {
			back = int64(e.p.InternalLatency)
		}
		e.schedule(e.now+back, evCredit|uint32(ivc))
		e.lastMove = e.now
		lat := int64(e.outLat[out])
		pi := e.queue[e.qBase[ivc]+int32(e.qHead[ivc])].pkt
		if dvc >= 0 {
			e.credits[dvc]--
			e.schedule(e.now+lat, evArrival|uint32(dvc))
			if sent == 1 {
				e.pk[pi].hops++
				e.enqueue(dvc, pi, e.now+lat+int64(e.p.RoutingDelay))
			}
			e.m.flitHop(e, int(out))
		} else {
			e.m.ejectFlit(e, int(out))
		}
		if sent < e.L {
			i++
			continue
		}
		// Tail sent: the stream ends, the input VC moves to its next packet.
		if dvc < 0 {
			e.deliver(pi, e.now+lat)
		}
		e.headSent[ivc] = 0
		e.qHead[ivc] = (e.qHead[ivc] + 1) % e.qCap[ivc]
		e.qLen[ivc]--
		e.rvalid[ivc] = false
		e.stIVC[in] = -1
		e.outOwner[out] = -1
		s := e.portSwitch[in]
		if e.qLen[ivc] > 0 {
			e.wake(s, e.readyAt(e.queue[e.qBase[ivc]+int32(e.qHead[ivc])]))
		}
		// Other VCs of this input port may have been waiting for the crossbar input.
		e.relist(s)
		last := len(e.streams) - 1
		e.streams[i] = e.streams[last]
		e.streams = e.streams[:last]
	}
}

// deliver records packet pi, whose tail reaches its NIC at cycle at, and frees it.
func (e *Engine) deliver(pi int32, at int64) {
	pk := &e.pk[pi]
	e.inNet--
	mi := pk.msg
	e.msgs[mi].remaining--
	msgDone := e.msgs[mi].remaining == 0
	e.m.delivered(e, pk, at, msgDone, e.msgs[mi].gen)
	if msgDone {
		e.msgs[mi].next = e.freeMsg
		e.freeMsg = mi
	}
	pk.next = e.freePk
	e.freePk = pi
}
