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
	// SelectOnce makes a head's selection when it is first routed and keeps it while
	// the head waits for the chosen output port; the choice is made again only when it
	// was an adaptive channel that has lost its room. By default (false) a blocked head
	// selects again every cycle.
	SelectOnce bool
	// Pattern chooses destinations; what it draws once per run (a random hot set) is
	// drawn from Params.Seed (traffic.Seeded).
	Pattern traffic.Pattern
	Sizes   traffic.Sizes // zero: one packet per message
	// Program, when set, is a closed-loop workload that replaces the open-loop
	// traffic (Pattern, Sizes and Load are then unused) and ends the run when done.
	Program Program
	Params  Params
	// MemoryLimit refuses a run whose estimated footprint exceeds it, in bytes: 0 is the
	// memory this process may use (the machine's, or its cgroup's), a negative value
	// skips the check. It does not change results.
	MemoryLimit int64
}

// Engine is one simulation. It is not safe for concurrent use; run one per goroutine.
type Engine struct {
	net *topology.Network
	rt  routing.Func
	det *routing.Deterministic // fast path for deterministic routing, else nil
	sel routing.Selector
	// selOnce: a head keeps its selection while it waits (Config.SelectOnce).
	selOnce bool
	pat     traffic.Pattern
	size    traffic.Sizes
	inj     traffic.Injection
	p       Params
	rng     *rand.Rand
	now     int64
	L       uint32 // packet flits: the longest packet under variable lengths
	// varLen: packets have lengths of their own (Params.PacketLengths), read from the
	// packet record; with fixed lengths every packet is L flits long.
	varLen bool
	// packetLevel moves each packet across a switch in one step, with the flits' exact
	// timing, instead of flit by flit. Virtual cut-through allows it: a packet that
	// starts never stalls. Wormhole needs the flit level, which tests also use as the
	// reference the packet level must match bit for bit.
	packetLevel bool

	ports    []portState
	inStream []stream // per input port, at the flit level
	vcs      []vcState
	flits    []vcFlits // per VC, used at the flit level only
	queue    []qEntry
	// rampLens holds each VC's ring of pending ramp lengths (rampRing), laid out as
	// the queue's, under variable lengths only: a ramp with a credit delay above one
	// cycle starts on an event, after the VC may have sent further packets.
	rampLens []uint16
	rampRing []rampRing // per VC

	// Per terminal (NIC).
	src        sources
	nicSending []int32 // flit level: packet being injected, or -1
	nicSent    []uint32
	nicBusy    []int64 // packet level: the NIC is sending until this cycle
	nicWait    []int64 // packet level: the NIC's VCs have no room before this cycle (nicRoomAt)
	nicVC      []int32
	nicActive  []bool
	nicRR      []int8
	nicList    []int32

	pk       []packet
	freePk   int32
	msgs     []message
	freeMsg  int32
	streams  []int32 // flit level: input ports whose packet is crossing
	wheel    [][]uint32
	wmask    int64
	pending  int
	allocNow []int32
	allocNxt []int32
	// allocFrom is the earliest cycle whose allocation can still see a change: the
	// current cycle until its allocation starts, the next one after.
	allocFrom int64
	gen       genCalendar

	scratch []routing.Candidate
	opts    []routing.Option
	// cands caches each input VC's head candidates (candCap per VC) for routings that
	// bound their candidates (MaxCandidates): a blocked head is routed once per hop,
	// not once per cycle it waits.
	cands []routing.Candidate
	// waitNext links the input VCs whose heads wait for the same downstream VC's next
	// ramp (vcState.waiter): 1 + the next one, or 0.
	waitNext []int32
	candCap  int
	req      []request
	best     []int32
	// heldUntil is, per input VC, the cycle the last packet granted to it as an output
	// VC of its upstream switch has left that switch (Params.ReserveOutputVCs).
	heldUntil []int64
	bestVC    []int32 // stage 2's best request per output VC (ReserveOutputVCs), -1: none
	// grantByPort: every output port grants one request (neither ReserveOutputVCs nor
	// ConsumeAll), read once per request in stage 2 (grantee).
	grantByPort bool
	salted      bool // the routing reads Head.Salt
	// chooser is the routing when it decides per packet as it goes (routing.Chooser),
	// else nil; occ is what it reads of the queues (occupancy).
	chooser routing.Chooser
	occ     routing.Occupancy
	self    bool // the pattern's PEs send to themselves too (traffic.Self)
	// iSLIP, per local port: the grant an input accepts, and which inputs and outputs
	// are matched in the current allocation.
	accept            []int32
	matchIn, matchOut []bool
	lastMove          int64
	inNet             int64 // packets injected and not yet delivered
	hopsDone          int64 // hops of the packets delivered so far (the routing decisions made)
	// routeCache is the routing to tabulate once hopsDone reaches routeCacheAt, nil
	// once done or when it cannot (routing.Deterministic.CacheRoutes).
	routeCache   routeCacher
	routeCacheAt int64
	// touchAhead: the state is far beyond the caches, so the cycle's loops load
	// records ahead of their use; sink takes the values of those loads, so that the
	// compiler keeps them (prefetch.go).
	touchAhead bool
	sink       uint64
	// routeOnArrival: deterministic routing without virtual output queues routes a
	// packet when it becomes its VC's head (routeDeterministic) instead of when it competes.
	routeOnArrival bool

	// m is the run's meter; a worker of a parallel allocation phase has one of its
	// own for the counters it adds to (parallel.go).
	m   *meter
	dl  *Deadlock
	err error

	wh *wormhole // wormhole switching state, or nil

	// par runs the allocation phase on several cores (Params.Threads), or is nil; wk
	// is set in a worker's copy of the engine during that phase (parallel.go).
	par *parallel
	wk  *worker

	// The engine's switches are the network's, then one output queue per network port
	// that sends when Params.OutputFlits > 0 (switch.go).
	nReal   int32 // the network's switches; higher ids are output queues
	realVCs int32 // the VCs of the network's ports; higher ids are output queues'
	sw      []switchState
	voq     *voqState

	prog     Program // closed-loop workload, or nil
	progSend func(src, dst int32, flits int64, id int32)
	progID   []int32 // per slot of msgs: the Program's id of the message in it
	// progQueued is, per slot of the source queues' pool, the Program's id of the
	// message waiting in it: the queues stay as open-loop runs have them.
	progQueued []int32

	beforeAlloc func() // tests only: called every cycle just before allocation
	// pollWaits (tests only) keeps heads and NICs that wait for a port or for room
	// in allocation and injection, tried again every cycle or when the switch wakes,
	// instead of waiting out of them (verdict, nicRoomAt): the two give the same
	// results.
	pollWaits bool
	// waitOut is waitsOut(), for the cycle (Step).
	waitOut bool
	// allocEveryCycle (tests only) visits every switch every cycle: the plain
	// semantics that the wake-ups, ready masks and sleeps must reproduce exactly.
	allocEveryCycle bool
	// stepEveryCycle (tests only) makes a closed-loop run step through idle cycles
	// instead of jumping to the program's next event.
	stepEveryCycle bool
}

// New builds an engine for a run. It validates every parameter and returns a clear
// error for impossible combinations, before allocating anything.
func New(cfg Config) (*Engine, error) {
	p, inj, err := cfg.check()
	if err != nil {
		return nil, err
	}
	e := &Engine{net: cfg.Net, rt: cfg.Routing, sel: cfg.Selector, selOnce: cfg.SelectOnce, pat: cfg.Pattern, size: cfg.Sizes, p: p,
		L: uint32(p.PacketFlits), varLen: p.PacketLengths != LengthsFixed, freePk: -1, freeMsg: -1}
	if e.pat != nil {
		e.pat = traffic.Seeded(e.pat, p.Seed)
		e.self = traffic.Self(cfg.Pattern)
	}
	e.det, _ = cfg.Routing.(*routing.Deterministic)
	if c, ok := cfg.Routing.(routing.Chooser); ok {
		e.chooser, e.occ = c, occupancy{e}
	}
	if c, ok := cfg.Routing.(routeCacher); ok && c.RouteCacheEntries() > 0 {
		e.routeCache, e.routeCacheAt = c, int64(c.RouteCacheEntries())
	}
	if mc, ok := cfg.Routing.(interface{ MaxCandidates() int }); ok && e.det == nil && mc.MaxCandidates() <= 255 {
		e.candCap = mc.MaxCandidates()
	}
	e.packetLevel = p.Switching == CutThrough
	if sr, ok := cfg.Routing.(interface{ Salted() bool }); ok {
		e.salted = sr.Salted()
	}
	e.rng = rand.New(rand.NewPCG(p.Seed, 0x7477696e746f7275)) // stream constant: "twintoru"
	e.inj = inj
	e.layout()
	e.touchAhead = e.stateBytes() >= touchAheadBytes
	e.routeOnArrival = e.det != nil && e.voq == nil
	if p.Switching == Wormhole {
		e.initWormhole()
		if p.ClassVCs {
			e.initClassVCs()
		}
	}
	e.m = &meter{}
	e.m.init(e)
	if cfg.Program != nil {
		e.initProgram(cfg.Program)
	}
	if p.ReserveOutputVCs {
		e.heldUntil, e.bestVC = make([]int64, len(e.vcs)), make([]int32, len(e.vcs))
		for i := range e.bestVC {
			e.bestVC[i] = -1
		}
	}
	e.grantByPort = e.heldUntil == nil && !p.ConsumeAll
	e.initParallel()
	// First generation time of every PE.
	e.gen.init(cfg.Net.Terminals(), e.inj.P())
	for t := 0; t < cfg.Net.Terminals() && e.inj.P() > 0; t++ {
		e.gen.add(int32(t), e.nextGen(-1), 0)
	}
	return e, nil
}

// Check checks a run's configuration as New does, without allocating the engine.
func Check(cfg Config) error {
	_, _, err := cfg.check()
	return err
}

// check validates the configuration and returns the parameters in force (defaults
// filled, buffers resolved) and the injection process.
func (cfg Config) check() (Params, traffic.Injection, error) {
	return cfg.checkAs(cfg.Program != nil)
}

// CheckClosedLoop is Check for a closed-loop configuration whose program is not built
// yet (cfg.Program may be nil): the parameters, buffers and size as New would check
// them for a program. Building a large collective's programs costs seconds; a spec
// with many curves checks them all first.
func CheckClosedLoop(cfg Config) error {
	_, _, err := cfg.checkAs(true)
	return err
}

// checkAs is check, for a closed-loop run if closed.
func (cfg Config) checkAs(closed bool) (Params, traffic.Injection, error) {
	if cfg.Net == nil || cfg.Routing == nil || cfg.Pattern == nil && !closed {
		return Params{}, traffic.Injection{}, fmt.Errorf("engine: a network, a routing function and a traffic pattern or program are required")
	}
	if closed {
		// Nothing is generated on a timer, and the whole run is measured.
		cfg.Params.Load, cfg.Params.Warmup, cfg.Params.Measure = 0, 0, 1
		cfg.Params = cfg.Params.StationaryOff()
	}
	p := cfg.Params.withDefaults()
	if err := p.validate(); err != nil {
		return p, traffic.Injection{}, fmt.Errorf("engine: %w", err)
	}
	if err := p.resolveBuffers(cfg.Routing); err != nil {
		return p, traffic.Injection{}, fmt.Errorf("engine: %w", err)
	}
	if closed && p.ChannelFrames > 0 {
		return p, traffic.Injection{}, fmt.Errorf("engine: channel_frames covers open-loop runs, whose length is known before they start; a closed-loop run's is not")
	}
	if err := checkFrames(p, cfg.Net.TotalPorts()); err != nil {
		return p, traffic.Injection{}, fmt.Errorf("engine: %w", err)
	}
	// Any routing that names one VC per hop names a class (DOR, min, fbdor, nca); one
	// that offers several candidates names each VC it may take.
	if p.ClassVCs && routing.Selects(cfg.Routing) {
		return p, traffic.Injection{}, fmt.Errorf("engine: class_vcs reads the VC of a routing with one candidate per hop as a class; routing %s is not deterministic per hop: it offers several candidates", cfg.Routing.Name())
	}
	inj, err := traffic.NewInjection(p.Load, cfg.Sizes, p.MeanPacketFlits())
	if err != nil {
		return p, inj, fmt.Errorf("engine: %w", err)
	}
	if err := checkFits(cfg.Net.String(), cfg.Net.Size(), p, cfg.MemoryLimit); err != nil {
		return p, inj, fmt.Errorf("engine: %w", err)
	}
	return p, inj, nil
}

// Params are the parameters in force, defaults filled in.
func (e *Engine) Params() Params { return e.p }

// Footprint is the run's estimated memory: what New held against the memory limit,
// which twintorus run prints beside the process's measured peak.
func (e *Engine) Footprint() Footprint { return footprint(e.net.Size(), e.p) }

// Now is the current cycle.
func (e *Engine) Now() int64 { return e.now }

// Run simulates Warmup + Measure cycles, or until a deadlock or ctx's cancellation.
// A closed-loop run (Config.Program) runs until the program is done instead.
func (e *Engine) Run(ctx context.Context) (*Result, error) {
	if e.prog != nil {
		return e.runProgram(ctx)
	}
	start := time.Now()
	for {
		end := e.m.end
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
		// At the window's end: measure the next one if this one is not stationary
		// (stationary.go), unless the network is stuck in a deadlock, which is then
		// reported as at the end of a run.
		if e.dl != nil || e.err != nil || !e.m.runOn(e) {
			break
		}
		if e.checkDeadlockAtEnd(); e.dl != nil {
			break
		}
		e.m.restart()
	}
	if e.err != nil {
		return nil, e.err
	}
	if e.dl == nil {
		e.checkDeadlockAtEnd()
	}
	e.countLazy(min(e.now, e.m.end))
	return e.result(time.Since(start)), nil
}

// skipIdle jumps over cycles in which nothing can happen: no flit in the network, no
// event pending and no message due.
func (e *Engine) skipIdle(end int64) {
	if !e.quiet() {
		return
	}
	next := end
	if g := e.gen.next(e.now); g >= 0 && g < next {
		next = g
	}
	if next > e.now {
		e.now = next
		e.lastMove = next
	}
}

// quiet reports whether nothing can happen until a message is generated or released:
// no flit in the network, no event pending, no switch to visit.
func (e *Engine) quiet() bool {
	return len(e.streams) == 0 && len(e.nicList) == 0 && e.pending == 0 && len(e.allocNow) == 0 && len(e.allocNxt) == 0 &&
		e.inNet == 0 && // heads that wait for credits (waitRamp) are in no list
		(e.wh == nil || len(e.wh.active) == 0) && (e.par == nil || e.par.idle())
}

// Step simulates one cycle: its phases in order, each in the file named after it
// (docs/architecture.md, "The engine's phases"). With Params.Threads the events and
// allocation phases run region by region on the workers (parallel.go), through the same
// code.
func (e *Engine) Step() {
	t := e.now
	e.allocFrom = t
	e.waitOut = e.waitsOut()
	e.eventPhase(t)      // 1. flits, credits and ready heads that arrive now (events.go)
	e.injectionPhase(t)  // 2. new messages, then NIC injection (inject.go)
	e.allocationPhase(t) // 3. allocation at every switch with a ready head (allocate.go)
	if e.wh == nil {
		// 4. Every packet crossing at the flit level moves one flit (traverse.go; under
		// wormhole allocation moves them).
		e.advance()
	}
	e.checkDeadlock(t)
	if e.routeCache != nil && e.hopsDone >= e.routeCacheAt {
		// The run has made as many routing decisions as the table has entries: from
		// now on they are read from it (the same decisions; a short run never pays).
		e.routeCache.CacheRoutes()
		e.routeCache = nil
	}
	e.now++
}
