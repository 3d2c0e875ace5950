package engine

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"time"
	"unsafe"

	"github.com/twintorus/twintorus/internal/splitmix"
	"github.com/twintorus/twintorus/internal/sysmem"
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

// Event codes on the timing wheel: the top three bits are the kind, the rest an id.
const (
	evArrival = 0 << 29 // flit level: a flit reaches input VC id
	evCredit  = 1 << 29 // flit level: a credit for input VC id reaches its sender
	evReady   = 2 << 29 // the head packet of input VC id may now leave
	evRamp    = 3 << 29 // packet level: the credits of a packet that left input VC id start returning, one per cycle
	evWake    = 4 << 29 // packet level: a port of switch id that a head waits for is free
	evMask    = 1<<29 - 1
)

type qEntry struct {
	pkt   int32
	ready int32 // cycle (low 32 bits) at which the head may leave; see readyAt
}

type packet struct {
	src, dst int32
	next     int32 // NIC queue or free list link
	msg      int32
	hops     int16
	escHops  int16  // hops on escape channels
	intHops  int16  // internal-link crossings
	flits    uint16 // its length (Params.PacketLengths)
	gen, inj int64
	// to is dst as deterministic routing reads it (with the direction of the
	// packet's ties, which under mirror ties depends on src), looked up at the first
	// hop (toKnown): one lookup per packet instead of one per hop (a cache miss in a
	// large network). The record then fills a cache line.
	to      routing.Dest
	toKnown bool
	escaped bool
}

type message struct {
	gen       int64
	remaining int32
	next      int32 // free list
}

// vcState is one input virtual channel: its queue of packets (a ring in
// Engine.queue), the credits its sender holds, and the head packet's route. It fills
// one cache line: a packet-hop touches two VCs (the one it leaves and the one it
// enters), and a VC across two lines costs a second miss in large networks. The
// flit level's counters are in Engine.flits.
type vcState struct {
	ready  int64 // cycle the head packet may leave, when qLen > 0
	rampAt int64
	// credits is the sender's view of free flits, not counting the credits of the
	// packet-level ramp that started at cycle rampAt (one credit per cycle, rampLen in
	// all: the length of the packet whose credits they are).
	credits           int32
	capacity          int32
	qBase             int32
	port              int32 // global input port
	headPkt           int32 // head packet, when qLen > 0
	qHead, qLen, qCap uint16
	route             routing.Candidate
	routed            bool
	ramping           bool
	// cands: the head's candidates are cached (Engine.cands), valid until the head
	// leaves; nCands is how many.
	cands   bool
	nCands  uint8
	rampLen uint16 // see credits
	sw      int32  // the switch (or output queue) whose input it is
	// waiter is 1 + the first of the input VCs whose heads wait for this VC's next
	// ramp of credits (waitRamp; Engine.waitNext links the rest), or -1 - the NIC
	// that waits for it (a terminal VC: nicRoomAt), else 0: the ramp's start ends the
	// wait (startRamp).
	waiter int32
}

// A vcState fills one cache line exactly.
var _ [unsafe.Sizeof(vcState{}) - 64]byte
var _ [64 - unsafe.Sizeof(vcState{})]byte

// vcFlits is the flit level's count of one input VC's flits (wormhole, and the
// reference runs of tests).
type vcFlits struct {
	arrived, departed uint32 // cumulative flits in and out of the buffer
	creditsBack       int32  // credits on their way back to the sender
	headSent          uint16 // flits of the head packet that have left
}

// portState is one port of one switch, seen as an input (its VCs, whether a packet is
// crossing the crossbar from it) and as an output (its link, who holds it).
type portState struct {
	// inBusy and outBusy are the first cycles at which the port is free again as an
	// input (no packet crossing the crossbar from it) and as an output (no packet
	// leaving by it): known in advance at the packet level, "until further notice"
	// (MaxInt64) at the flit level until the tail has left.
	inBusy, outBusy int64
	sw              int32
	vc0             int32 // first input VC
	down            int32 // first input VC at the other end of the link; -1 = ejection to a NIC
	owner           int32 // input port whose packet last held this output (valid while outBusy > now)
	lat             int32 // latency of the link leaving this port
	back            int32 // delay of credits returning to whoever feeds this input
	// link is the network port whose link a packet leaving this port crosses: the port
	// itself, an output queue's network port, or -1 for a crossbar output that feeds
	// its output queue (switch.go). Hops and channel loads count links only.
	link  int32
	local int16
	outRR int16 // stage-2 round-robin pointer (local input port); iSLIP's grant pointer
	acRR  int16 // iSLIP's accept pointer (local output port)
	voqRR int16 // virtual output queues: the output port served first
	nvc   int8
	inRR  int8 // stage-1 round-robin pointer
	kind  topology.PortKind
	ready uint64 // bit v: the head packet of input VC v may leave (it has arrived)
}

// switchState is what allocation reads and writes of one switch, in one cache line
// (a switch's visit touches all of it; separate arrays cost a line each in large
// networks).
type switchState struct {
	// ready has bit q set when input port q has a head packet that may leave, so that
	// allocation looks only at the inputs that compete; a switch with more than 64
	// ports (wide) scans every port.
	ready uint64
	// The switch is on allocNow for cycle inNow and on allocNxt for cycle inNext: two
	// stamps, so relisting it for the next cycle cannot hide that it is listed for
	// this one. wakeAt is the cycle of its pending evWake, so it is set only once.
	inNow, inNext, wakeAt int64
	base                  int32 // first global port
	ports                 int16
	wide                  bool
	_                     [64 - 8 - 3*8 - 4 - 2 - 1]byte // a line each: workers of a parallel phase write their own switches
}

// stream is a packet crossing a switch: from an input VC to an output port, one flit
// per cycle, until its tail has left. Each input port has at most one.
type stream struct {
	in, out  int32 // global ports
	ivc, dvc int32 // input VC, downstream VC (-1 when ejecting)
	pkt      int32
	// flits is the packet's length, kept here: at the packet level its head may
	// reach its NIC, and its record be freed and reused, before its tail has left.
	flits int32
	start int64 // cycle the head left
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
	self        bool // the pattern's PEs send to themselves too (traffic.Self)
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

type request struct {
	in, out int32 // local ports
	ivc     int32
	slot    int32 // virtual output queues: the queue position of the packet, else -1 (the head)
	cand    routing.Candidate
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

// layout allocates the flat state arrays: the network's switches and ports, and, with
// output queues, one two-port stage per network port that sends (switch.go).
func (e *Engine) layout() {
	net, p := e.net, e.p
	nsw, nports := net.Switches(), net.TotalPorts()
	var egress []int32 // network ports that get an output queue
	if p.OutputFlits > 0 {
		for g := 0; g < nports; g++ {
			if pt := net.Port(e.portSwitch(g)); pt.Kind == topology.Terminal || pt.Connected() {
				egress = append(egress, int32(g))
			}
		}
	}
	total, nall := nports+2*len(egress), nsw+len(egress)
	e.nReal = int32(nsw)
	e.ports = sysmem.MakeHuge[portState](total)
	e.inStream = make([]stream, total)
	e.sw = sysmem.MakeHuge[switchState](nall)
	maxPorts, nvc := 0, 0
	for s := 0; s < nsw; s++ {
		maxPorts = max(maxPorts, net.Ports(s))
		e.sw[s].wide = net.Ports(s) > 64
		e.sw[s].base, e.sw[s].ports = int32(net.PortID(s, 0)), int16(net.Ports(s))
		for q := 0; q < net.Ports(s); q++ {
			port := net.Port(s, q)
			g := net.PortID(s, q)
			ps := &e.ports[g]
			*ps = portState{sw: int32(s), local: int16(q), kind: port.Kind, owner: -1, down: -1, link: int32(g),
				vc0: int32(nvc), lat: int32(e.latency(port)), back: int32(e.latency(port))}
			if port.Receives() { // credits go back as slowly as the flits came
				ps.back = int32(e.latency(net.Port(int(port.From), int(port.FromPort))))
			}
			if port.Kind == topology.Terminal || port.Receives() {
				ps.nvc = int8(e.buffer(port.Kind).VCs)
				nvc += int(ps.nvc)
			}
		}
	}
	for g := 0; g < nports; g++ {
		ps := &e.ports[g]
		if port := net.Port(int(ps.sw), int(ps.local)); port.Connected() {
			ps.down = e.ports[net.PortID(int(port.Peer), int(port.PeerPort))].vc0
		}
	}
	e.realVCs = int32(nvc)
	for i, g := range egress {
		nvc = e.layoutOutputQueue(nsw+i, nports+2*i, int(g), nvc)
	}
	maxPorts = max(maxPorts, 2)
	e.vcs = sysmem.MakeHuge[vcState](nvc)
	e.flits = make([]vcFlits, nvc) // tests switch a run to the flit level after New
	e.waitNext = make([]int32, nvc)
	if e.candCap > 0 {
		e.cands = make([]routing.Candidate, nvc*e.candCap)
	}
	qtotal := 0
	for g := range e.ports {
		ps := &e.ports[g]
		flits := e.buffer(ps.kind).Flits
		if int32(ps.vc0) >= e.realVCs && ps.nvc > 0 {
			flits = p.OutputFlits
		}
		for v := 0; v < int(ps.nvc); v++ {
			// Queue entries: every packet with a flit in the buffer or on its way; at most
			// two of them are partial. Under variable lengths a packet may be one flit.
			c := flits/p.shortestPacket() + 2
			e.vcs[int(ps.vc0)+v] = vcState{port: int32(g), sw: ps.sw, capacity: int32(flits), credits: int32(flits),
				qBase: int32(qtotal), qCap: uint16(c)}
			qtotal += c
		}
	}
	e.queue = sysmem.MakeHuge[qEntry](qtotal)
	if e.varLen && p.Switching == CutThrough {
		// The packets whose ramps are pending still hold their credits, as queued ones
		// do: together they never outnumber the queue's entries.
		e.rampLens = make([]uint16, qtotal)
		e.rampRing = make([]rampRing, len(e.vcs))
	}
	if p.VOQ {
		e.voq = newVOQ(qtotal, maxPorts)
	}

	nt := net.Terminals()
	e.src.init(nt, p.Seed)
	e.nicSending = make([]int32, nt)
	e.nicSent = make([]uint32, nt)
	e.nicBusy = make([]int64, nt)
	e.nicWait = make([]int64, nt)
	e.nicVC = make([]int32, nt)
	e.nicActive = make([]bool, nt)
	e.nicRR = make([]int8, nt)
	for t := range e.nicSending {
		e.nicSending[t] = -1
	}

	// The wheel must reach the furthest event: a head's arrival plus routing delay,
	// a VC's next head after its front delay, or the end of a packet. An event further ahead would come round early. Under
	// ReserveOutputVCs a link's packets depart one after another, up to one per output
	// VC granted ahead of the packet now crossing it, and the packets' arrivals, the
	// ramps of their credits and the cycles their VCs free are that much further
	// ahead.
	w, slowest, maxVCs := 1, max(p.LinkLatency, p.InternalLatency, p.TerminalLatency), 1
	for g := range e.ports {
		slowest = max(slowest, int(e.ports[g].lat))
		maxVCs = max(maxVCs, int(e.ports[g].nvc))
	}
	ahead := p.PacketFlits
	if p.ReserveOutputVCs {
		ahead += maxVCs * p.PacketFlits
	}
	for w <= slowest+max(p.RoutingDelay, p.FrontDelay)+p.CrossbarDelay+ahead {
		w *= 2
	}
	e.wheel = make([][]uint32, w)
	e.wmask = int64(w - 1)
	for i := range e.sw {
		e.sw[i].inNow, e.sw[i].inNext = -1, -1
	}
	e.best = make([]int32, maxPorts)
	for i := range e.best {
		e.best[i] = -1
	}
	if p.Allocator.ISLIP {
		e.accept = make([]int32, maxPorts)
		for i := range e.accept {
			e.accept[i] = -1
		}
		e.matchIn, e.matchOut = make([]bool, maxPorts), make([]bool, maxPorts)
	}
}

// portSwitch is the switch and local index of network port g.
func (e *Engine) portSwitch(g int) (s, q int) {
	lo, hi := 0, e.net.Switches()-1
	for lo < hi { // the last switch whose first port is at most g
		mid := (lo + hi + 1) / 2
		if e.net.PortID(mid, 0) <= g {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, g - e.net.PortID(lo, 0)
}

// latency is the latency of the link leaving a port: the network's, when it gives one
// (a network file's links), else the parameter for the port's kind, times the link's
// length in standard links (RUFT's long links back to the routers).
func (e *Engine) latency(port topology.Port) int {
	switch {
	case port.Latency > 0:
		return int(port.Latency)
	case port.Kind == topology.Internal:
		return e.p.InternalLatency * max(int(port.Length), 1)
	case port.Kind == topology.Terminal:
		return e.p.TerminalLatency
	}
	return e.p.LinkLatency * max(int(port.Length), 1)
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

// Footprint is the run's estimated memory: what New held against the memory limit,
// which twintorus run prints beside the process's measured peak.
func (e *Engine) Footprint() Footprint { return footprint(e.net.Size(), e.p) }

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

// Step simulates one cycle.
func (e *Engine) Step() {
	t := e.now
	e.allocFrom = t
	e.waitOut = e.waitsOut()
	// 1. Flits and credits that arrive now; switches whose head packets become ready.
	e.allocNow, e.allocNxt = e.allocNxt, e.allocNow[:0]
	for _, s := range e.allocNow {
		e.sw[s].inNow = t
	}
	e.runEvents(&e.wheel[t&e.wmask], t)
	if e.par != nil { // the events of each region's switches, on its worker's wheel
		e.par.events(e)
	}

	// 2. New messages, then NIC injection.
	for _, pe := range e.gen.due(t) {
		if e.generate(int(pe)) {
			e.gen.add(pe, e.nextGen(t), t)
		}
	}
	if e.prog != nil {
		e.prog.Release(t, e.progSend)
	}
	e.inject()

	// 3. Allocation at every switch with a ready head packet.
	if e.allocEveryCycle {
		for s := range e.sw {
			e.list(int32(s), t)
		}
	}
	if e.beforeAlloc != nil {
		e.beforeAlloc()
	}
	e.allocFrom = t + 1
	switch {
	case e.par != nil:
		e.allocateParallel() // under wormhole, the crossing packets' flits move too
	case e.wh != nil:
		for _, s := range e.allocNow {
			e.allocateWormhole(int(s))
		}
		e.advanceWormhole()
	default:
		e.allocateList(e.allocNow)
	}
	if e.wh == nil {
		// 4. Every packet crossing at the flit level moves one flit.
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

// routeCacher is a routing that can tabulate its decisions (routing.Deterministic,
// and Duato's escape).
type routeCacher interface {
	RouteCacheEntries() int
	CacheRoutes()
}

// runEvents handles the events of cycle t in bucket b and empties it.
func (e *Engine) runEvents(b *[]uint32, t int64) {
	for k, code := range *b {
		if e.touchAhead {
			e.touchEvents(*b, k)
		}
		id := int32(code & evMask)
		switch code &^ evMask {
		case evArrival:
			e.flits[id].arrived++
		case evCredit:
			e.vcs[id].credits++
			e.flits[id].creditsBack--
		case evReady:
			e.markReady(id)
		case evRamp:
			e.startRamp(id, t, e.pendingRamp(id))
		case evWake:
			e.list(id, t)
		}
	}
	e.pending -= len(*b)
	*b = (*b)[:0]
}

// list puts switch s on the allocation list of cycle t (the current one).
func (e *Engine) list(s int32, t int64) {
	if e.sw[s].inNow != t {
		e.sw[s].inNow = t
		e.allocNow = append(e.allocNow, s)
	}
}

// relist puts switch s on the next cycle's allocation list.
func (e *Engine) relist(s int32) {
	if e.sw[s].inNext != e.now+1 {
		e.sw[s].inNext = e.now + 1
		e.allocNxt = append(e.allocNxt, s)
	}
}

// wake makes switch s allocate as soon as possible.
func (e *Engine) wake(s int32) {
	if e.allocFrom == e.now {
		e.list(s, e.now)
	} else {
		e.relist(s)
	}
}

// readyAtCycle marks the head packet of input VC ivc ready to leave at cycle at, or as
// soon as an allocation can still see it.
func (e *Engine) readyAtCycle(ivc int32, at int64) {
	if at <= e.allocFrom && e.allocFrom == e.now {
		e.markReady(ivc)
		return
	}
	e.schedule(max(at, e.allocFrom), evReady|uint32(ivc))
}

// markReady makes the head packet of ivc compete in its switch's allocation.
func (e *Engine) markReady(ivc int32) {
	ps := &e.ports[e.vcs[ivc].port]
	ps.ready |= vcBit(ivc - ps.vc0)
	e.sw[ps.sw].ready |= portBit(int32(ps.local))
	e.list(ps.sw, e.now)
}

func (e *Engine) newPacket() int32 {
	if e.freePk >= 0 {
		i := e.freePk
		e.freePk = e.pk[i].next
		return i
	}
	e.pk = growPool(e.pk)
	return int32(len(e.pk) - 1)
}

// growPool is s with one more zero element. Where append would copy s to a larger
// array, growPool does so at append's rate (twice, then a quarter more from 1,024
// elements on) into one made by sysmem.MakeHuge: a large run's packet pool is read
// at random, and huge pages spare it the TLB misses.
func growPool[T any](s []T) []T {
	if len(s) < cap(s) {
		var zero T
		s = s[:len(s)+1]
		s[len(s)-1] = zero
		return s
	}
	n := 2 * cap(s)
	if cap(s) >= 1024 {
		n = cap(s) + cap(s)/4
	}
	grown := sysmem.MakeHuge[T](max(n, 16))
	copy(grown, s)
	return grown[:len(s)+1]
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

// inject moves one flit from every NIC that has a packet to send and room for it.
func (e *Engine) inject() {
	for i := 0; i < len(e.nicList); {
		t := e.nicList[i]
		if e.packetLevel {
			if e.nicBusy[t] <= e.now && e.nicWait[t] <= e.now && !e.startInjection(t) && e.src.n[t] == 0 {
				e.nicActive[t] = false
				last := len(e.nicList) - 1
				e.nicList[i] = e.nicList[last]
				e.nicList = e.nicList[:last]
				continue
			}
			i++
			continue
		}
		if e.nicSending[t] < 0 && !e.startInjection(t) {
			if e.src.n[t] == 0 { // nothing left to send
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
		vc := &e.vcs[ivc]
		if vc.credits == 0 { // wormhole only: cut-through reserved room for the packet
			i++
			continue
		}
		vc.credits--
		lat := int64(e.ports[vc.port].lat)
		e.schedule(e.now+lat, evArrival|uint32(ivc))
		pi := e.nicSending[t]
		if e.nicSent[t] == 0 {
			e.pk[pi].inj = e.now
			e.inNet++
			e.enqueue(ivc, pi, e.now+lat+int64(e.p.RoutingDelay))
		}
		e.nicSent[t]++
		e.lastMove = e.now
		if e.nicSent[t] == e.lenOf(pi) {
			e.nicSending[t] = -1
		}
		i++
	}
}

// startInjection picks the terminal-port VC for the NIC's next packet.
func (e *Engine) startInjection(t int32) bool {
	if e.src.n[t] == 0 {
		return false
	}
	at := e.net.Attachment(int(t))
	ps := &e.ports[e.net.PortID(int(at.Switch), int(at.Port))]
	n := int(ps.nvc)
	pl := e.nextLength(int(t))
	need := e.need(int32(pl), false)
	wait := int64(math.MaxInt64) // packet level: when the first of the VCs has room
	for j := 0; j < n; j++ {
		v := int(e.nicRR[t]) + j // round-robin from nicRR (below n): no division on this path
		if v >= n {
			v -= n
		}
		ivc := ps.vc0 + int32(v)
		vc := &e.vcs[ivc]
		if e.free(vc) < need || vc.qLen == vc.qCap {
			wait = min(wait, e.nicRoomAt(t, vc, need))
			continue
		}
		if e.nicRR[t] = int8(v + 1); int(e.nicRR[t]) == n {
			e.nicRR[t] = 0
		}
		pi := e.nextPacket(int(t), pl)
		if !e.packetLevel {
			e.nicSending[t], e.nicSent[t], e.nicVC[t] = pi, 0, ivc
			return true
		}
		// The whole packet: flits leave the NIC at now .. now+pl-1.
		vc.credits -= int32(pl)
		e.nicBusy[t] = e.now + int64(pl)
		e.pk[pi].inj = e.now
		e.inNet++
		e.lastMove = e.now + int64(pl) - 1
		e.enqueue(ivc, pi, e.now+int64(ps.lat)+int64(e.p.RoutingDelay))
		return true
	}
	if e.waitOut {
		e.nicWait[t] = wait
	}
	return false
}

// nicRoomAt is the first cycle at which terminal VC vc, fed by NIC t alone, may have
// the need flits of room it lacks now, at the packet level: when the ramp of credits
// under way makes it, or, failing that, when the VC's next ramp starts, which
// startRamp tells the NIC (nicWait). NIC t then does not try every cycle until then:
// a saturated network would have every NIC try, and fail, every cycle.
func (e *Engine) nicRoomAt(t int32, vc *vcState, need int32) int64 {
	if vc.qLen == vc.qCap {
		return e.now + 1 // a full ring of queued packets (not at the packet level): try again
	}
	if at, ok := rampRoomAt(vc, need); ok {
		return at
	}
	vc.waiter = -1 - t
	return math.MaxInt64
}

// rampRoomAt is the cycle at which the ramp of credits under way gives VC vc the need
// flits of room it lacks now, if it does (nicRoomAt, roomAt).
func rampRoomAt(vc *vcState, need int32) (int64, bool) {
	if vc.ramping && vc.credits+int32(vc.rampLen) >= need {
		return vc.rampAt + int64(need-vc.credits) - 1, true
	}
	return 0, false
}

// free is the sender's view of free flits in a VC now: the settled credits plus those
// of the current packet-level ramp that have arrived (none before rampAt).
func (e *Engine) free(vc *vcState) int32 {
	if !vc.ramping || e.now < vc.rampAt {
		return vc.credits
	}
	return vc.credits + int32(min(e.now-vc.rampAt+1, int64(vc.rampLen)))
}

// startRamp starts the return of the credits of a departed packet of n flits to the
// sender of ivc at cycle at, one per cycle. The previous ramp has ended by then
// (departures from a VC are as many cycles apart as the earlier packet is long), so
// its credits are settled.
func (e *Engine) startRamp(ivc int32, at int64, n uint32) {
	if vc := e.setRamp(ivc, at, n); vc.waiter != 0 {
		e.endWaits(vc, at)
	}
}

// setRamp is startRamp without ending the waits for the ramp, for a caller that ends
// them itself (start): small enough to be inlined there.
func (e *Engine) setRamp(ivc int32, at int64, n uint32) *vcState {
	vc := &e.vcs[ivc]
	if vc.ramping {
		vc.credits += int32(vc.rampLen)
	}
	vc.rampAt, vc.ramping, vc.rampLen = at, true, uint16(n)
	return vc
}

// endWaits ends the waits for vc's next ramp, which starts at cycle at: the heads on
// its list (waitRamp) are ready again from then on, or its NIC may try again then
// (nicRoomAt). Apart from startRamp, which stays small enough to be inlined.
func (e *Engine) endWaits(vc *vcState, at int64) {
	if vc.waiter < 0 { // a terminal VC, whose NIC waits for room
		t := -1 - vc.waiter
		e.nicWait[t] = min(e.nicWait[t], at)
		vc.waiter = 0
		return
	}
	for w := vc.waiter; w != 0; {
		ivc := w - 1
		w, e.waitNext[ivc] = e.waitNext[ivc], 0
		e.readyAtCycle(ivc, at)
	}
	vc.waiter = 0
}

// deferRamp notes that the credits of a packet of n flits that left ivc start
// returning on an evRamp event, which pendingRamp then reads.
func (e *Engine) deferRamp(ivc int32, n uint32) {
	if !e.varLen {
		return
	}
	vc, r := &e.vcs[ivc], &e.rampRing[ivc]
	i := r.head + r.n
	if i >= vc.qCap {
		i -= vc.qCap
	}
	e.rampLens[vc.qBase+int32(i)] = uint16(n)
	r.n++
}

// rampRing is a VC's ring of pending ramp lengths in Engine.rampLens: n of them from
// head on.
type rampRing struct{ head, n uint16 }

// pendingRamp is the length of the packet whose ramp at ivc starts now (evRamp):
// ramps start in the order their packets left.
func (e *Engine) pendingRamp(ivc int32) uint32 {
	if !e.varLen {
		return e.L
	}
	vc, r := &e.vcs[ivc], &e.rampRing[ivc]
	n := e.rampLens[vc.qBase+int32(r.head)]
	if r.head++; r.head == vc.qCap {
		r.head = 0
	}
	r.n--
	return uint32(n)
}

// lenOf is packet pi's length in flits.
func (e *Engine) lenOf(pi int32) uint32 {
	if !e.varLen {
		return e.L
	}
	return uint32(e.pk[pi].flits)
}

// need is the room a packet of n flits needs in a downstream VC: the whole packet
// under virtual cut-through, and when the hop enters a ring under bubble flow control
// room for one more packet of the longest length besides (the bubble; 2L under fixed
// lengths); one flit under wormhole (two for a bubble).
func (e *Engine) need(n int32, bubble bool) int32 {
	if e.p.Switching == Wormhole {
		if bubble {
			return 2
		}
		return 1
	}
	if bubble {
		return n + int32(e.L)
	}
	return n
}

// enqueue appends packet pi to input VC ivc; its head may leave at cycle ready.
func (e *Engine) enqueue(ivc, pi int32, ready int64) {
	vc := &e.vcs[ivc]
	slot := vc.qHead + vc.qLen
	if slot >= vc.qCap {
		slot -= vc.qCap
	}
	e.queue[vc.qBase+int32(slot)] = qEntry{pkt: pi, ready: int32(ready)}
	vc.qLen++
	if vc.qLen == 1 {
		// An empty VC keeps in ready the cycle its last packet's tail has left
		// (popHead), so a packet that arrives as the VC empties waits for it whether
		// it is queued before or after the departure within the cycle. Except with a
		// crossbar input per VC and port arbitration, which keeps model version 2's
		// order-dependent rule until the model version changes (docs/architecture.md,
		// issue 15); ReserveOutputVCs, newer, follows the rule.
		if !e.p.CrossbarPerVC || e.p.ReserveOutputVCs {
			ready = max(ready, vc.ready)
		}
		vc.routed, vc.cands = false, false
		vc.ready, vc.headPkt = ready, pi
		if e.routeOnArrival && vc.sw < e.nReal {
			e.routeDeterministic(vc, pi)
		}
		e.readyAtCycle(ivc, ready)
	} else if e.voq != nil && ivc < e.realVCs { // every packet may be the first of its output
		e.readyAtCycle(ivc, ready)
	}
}

// routeDeterministic routes packet pi, the head of vc, under deterministic routing.
// consider does it when a head first competes; enqueue does it already when a packet
// becomes the head of an empty VC (Engine.routeOnArrival), while the packet's record is
// at hand, so that allocation finds the route in the VC's line without reading the
// packet (a cache miss in a large network) and touching ahead can follow the route to
// the downstream VC (prefetch.go).
func (e *Engine) routeDeterministic(vc *vcState, pi int32) {
	pk := &e.pk[pi]
	if !pk.toKnown {
		e.dest(pk)
	}
	vc.route, vc.routed = e.det.NextAt(int(vc.sw), int(vc.port), pk.to), true
}

// readyAt recovers the full cycle from the 32-bit ready stamp of a queue entry.
func (e *Engine) readyAt(q qEntry) int64 {
	return e.now + int64(q.ready-int32(e.now))
}

// Verdicts of consider on one head packet.
const (
	canGo    = iota // it can start now: it requests its output
	waitBusy        // its output is busy until a known cycle: sleep until then
	waitRoom        // no room downstream (credits, queue) or no adaptive choice: retry next cycle
)

// allocate runs the two-stage round-robin allocation of switch s (or iSLIP's,
// allocateISLIP, when the Allocator says so): each idle input port
// picks one VC whose head can advance (round-robin over its VCs), then each output
// port grants one of the inputs that request it (round-robin over inputs). A head
// blocked for room retries next cycle; one whose input or output port is busy sleeps
// until the port frees (at the flit level the packet's tail wakes the switch instead).
func (e *Engine) allocate(s int) {
	base := int(e.sw[s].base)
	np := int(e.sw[s].ports)
	// Fast path: one input port with one ready head, the common case; no arbitration.
	if ports := e.sw[s].ready; ports != 0 && ports&(ports-1) == 0 && !e.sw[s].wide {
		q := bits.TrailingZeros64(ports)
		if ps := &e.ports[base+q]; ps.ready&(ps.ready-1) == 0 {
			if ps.inBusy > e.now {
				e.sleep(s, ps.inBusy)
				return
			}
			ivc := ps.vc0 + int32(bits.TrailingZeros64(ps.ready))
			c, verdict, at, slot := e.consider(s, q, base, ivc)
			switch verdict {
			case canGo:
				e.start(base, np, request{in: int32(q), out: int32(c.Port), ivc: ivc, slot: slot, cand: c})
				if e.p.Allocator.ISLIP { // one request: granted and accepted
					ps.acRR = nextPort(int32(c.Port), np)
				}
			case waitBusy:
				e.sleep(s, at)
			case notReady, waitRamp:
				e.unready(ps, ivc)
			case waitAt:
				e.readyLater(ps, ivc, at)
			default:
				e.relist(int32(s))
			}
			return
		}
	}
	if e.p.Allocator.ISLIP {
		e.allocateISLIP(s, base, np)
		return
	}
	nreq := 0
	blocked := false
	// Stage 1: every idle input port picks one VC whose head packet can advance.
	ports, sleep := e.inputs(s), int64(math.MaxInt64)
	for {
		q, ps := e.nextInput(&ports, base, np, &sleep)
		if ps == nil {
			break
		}
		// The VCs whose head may leave, in round-robin order from inRR.
		n, r := uint(ps.nvc), uint(ps.inRR)
		for rot := rotateReady(ps.ready, r, n); rot != 0; {
			v := r + uint(bits.TrailingZeros64(rot))
			if v >= n {
				v -= n
			}
			rot &= rot - 1
			ivc := ps.vc0 + int32(v)
			c, verdict, at, slot := e.consider(s, q, base, ivc)
			if verdict == canGo {
				nreq = e.addRequest(nreq, request{in: int32(q), out: int32(c.Port), ivc: ivc, slot: slot, cand: c})
				break
			}
			sleep, blocked = e.waits(ps, ivc, verdict, at, sleep, blocked)
		}
	}
	// Stage 2: every requested output port (output VC under ReserveOutputVCs) grants
	// one input, round-robin. A lone request is granted: nothing to arbitrate.
	if nreq == 1 {
		r := e.req[0]
		e.start(base, np, r)
		if ps := &e.ports[base+int(r.in)]; ps.ready != 0 { // its other VCs wait for the input
			sleep = min(sleep, ps.inBusy)
		}
		e.retry(s, blocked, sleep)
		return
	}
	reqs := e.req[:nreq]
	if e.grantByPort {
		sleep, blocked = e.grantPorts(base, np, reqs, sleep, blocked)
		e.retry(s, blocked, sleep)
		return
	}
	for i := range reqs {
		r := &reqs[i]
		if b := e.grantee(base, r); b != nil && (*b < 0 || e.wins(base, np, r, &reqs[*b])) {
			*b = int32(i)
		}
	}
	for i := range reqs {
		r := &reqs[i]
		if b := e.grantee(base, r); b != nil && *b != int32(i) {
			continue // a loser: once the winners have started (below)
		}
		e.start(base, np, *r)
		if ps := &e.ports[base+int(r.in)]; ps.ready != 0 { // its other VCs wait for the input
			sleep = min(sleep, ps.inBusy)
		}
	}
	for i := range reqs {
		r := &reqs[i]
		b := e.grantee(base, r)
		switch {
		case b == nil:
		case *b == int32(i): // the winner: the cell is clear for the next switch
			*b = -1
		case e.lost(base, r):
			blocked = true
		}
	}
	e.retry(s, blocked, sleep)
}

// grantPorts is stage 2 of allocation when every output port grants one request
// (grantByPort), the common case: what the general loops of allocate do through
// grantee, with the grant cells (Engine.best, one per local output port) read
// directly. The winners start first, since a loser's wait (lost) reads the port its
// winner holds; each winner's cell is then cleared for the next switch. It is a path of
// its own, not a cheaper grantee, because grantee cannot be made small enough to be
// inlined (with its other cases moved to a function of their own it still costs 90 of
// the compiler's 80): the one set of loops then took 2 % more instructions per
// packet-hop (BENCHMARKS.md, issue 15's tenth part).
func (e *Engine) grantPorts(base, np int, reqs []request, sleep int64, blocked bool) (int64, bool) {
	best := e.best
	for i := range reqs {
		r := &reqs[i]
		if b := best[r.out]; b < 0 || e.wins(base, np, r, &reqs[b]) {
			best[r.out] = int32(i)
		}
	}
	for i := range reqs {
		if r := &reqs[i]; best[r.out] == int32(i) {
			e.start(base, np, *r)
			if ps := &e.ports[base+int(r.in)]; ps.ready != 0 { // its other VCs wait for the input
				sleep = min(sleep, ps.inBusy)
			}
		}
	}
	for i := range reqs {
		switch r := &reqs[i]; {
		case best[r.out] == int32(i):
			best[r.out] = -1
		case e.lost(base, r):
			blocked = true
		}
	}
	return sleep, blocked
}

// rotateReady is the ready mask of a port's n VCs (1 to 64) rotated so that bit 0 is
// VC r, the first in round-robin order (r below n). The shift counts are masked so
// that the compiler shifts with one instruction: at r = 0 the left shift is by n or 0
// (n = 64), and either leaves the masked result as it should.
func rotateReady(ready uint64, r, n uint) uint64 {
	return (ready>>(r&63) | ready<<((n-r)&63)) & (^uint64(0) >> ((64 - n) & 63))
}

// lost takes note of request r, which lost its output port to another input's packet
// this cycle, and reports whether the switch must try again next cycle, when the
// loser's input may pick another VC. At the packet level the port is then busy
// until a known cycle, and under deterministic routing the loser's next look would
// find it so (waitAt): the head waits out of allocation until then at once, and the
// switch tries again next cycle only for the input's other heads. A loser whose port
// frees next cycle (one-flit packets), or that may choose another port (adaptive
// routing), tries again next cycle.
func (e *Engine) lost(base int, r *request) bool {
	if !e.waitOut || !e.grantByPort || e.det == nil {
		return true
	}
	at := e.ports[base+int(r.out)].outBusy
	if at <= e.now+1 {
		return true
	}
	ps := &e.ports[base+int(r.in)]
	e.readyLater(ps, r.ivc, at)
	return ps.ready != 0
}

// inputScan walks the input ports of one switch that allocation looks at: those
// with a ready head (switchState.ready), or, on a switch with more than 64 ports
// (wide), every port, 64 at a time.
type inputScan struct {
	mask uint64 // ports still to visit in this window, bit i = port off+i
	off  int    // the port of bit 0
	wide bool   // more windows follow until the switch's ports run out
}

// inputs starts the scan of switch s's input ports.
func (e *Engine) inputs(s int) inputScan {
	if e.sw[s].wide {
		return inputScan{mask: ^uint64(0), wide: true}
	}
	return inputScan{mask: e.sw[s].ready}
}

// nextInput is the screening step of every allocator (two-stage, iSLIP, wormhole's
// output VCs): it takes from it the next local input port q of the switch (np ports
// from base) that has a ready head and whose crossbar input is free now, and lowers
// *sleep to the cycle a busy one frees; ps is nil when none is left. Under wormhole
// switching a crossbar input is never held, so none is busy.
func (e *Engine) nextInput(it *inputScan, base, np int, sleep *int64) (q int, ps *portState) {
	for {
		if it.mask == 0 {
			if !it.wide || it.off+64 >= np {
				return 0, nil
			}
			it.mask, it.off = ^uint64(0), it.off+64
		}
		q = it.off + bits.TrailingZeros64(it.mask)
		it.mask &= it.mask - 1
		if q >= np {
			return 0, nil // bits are visited in order: the rest are past the last port
		}
		ps = &e.ports[base+q]
		if ps.ready == 0 {
			continue
		}
		if ps.inBusy > e.now {
			*sleep = min(*sleep, ps.inBusy)
			continue
		}
		return q, ps
	}
}

// addRequest makes r the switch's request number nreq (e.req grows to the most
// requests a switch has made and is reused) and returns the new count.
func (e *Engine) addRequest(nreq int, r request) int {
	if nreq == len(e.req) {
		e.req = append(e.req, r)
	} else {
		e.req[nreq] = r
	}
	return nreq + 1
}

// waits takes note of why head ivc of input port ps cannot start now (consider's
// verdict): it waits for a busy port (the switch may sleep until at, the earliest of
// such), it is not ready (virtual output queues: out of allocation until marked
// again), or it is blocked (the switch tries again next cycle).
func (e *Engine) waits(ps *portState, ivc int32, verdict int, at, sleep int64, blocked bool) (int64, bool) {
	switch verdict {
	case waitBusy:
		sleep = min(sleep, at)
	case notReady, waitRamp:
		e.unready(ps, ivc)
	case waitAt:
		e.readyLater(ps, ivc, at)
	default:
		blocked = true
	}
	return sleep, blocked
}

// retry has switch s allocate again after a round that left heads waiting: next
// cycle when one was blocked (it may win, or find room, then), else when the first
// busy port that one waits for frees (sleep; math.MaxInt64: nothing to wait for).
func (e *Engine) retry(s int, blocked bool, sleep int64) {
	if blocked {
		e.relist(int32(s))
	} else if sleep != math.MaxInt64 {
		e.sleep(s, sleep)
	}
}

// consider decides whether the head packet of input VC ivc (at local port q of switch
// s) can start now; when it waits for a busy port, at is the cycle the port frees.
// Under virtual output queues it considers the first packet of each output's queue
// and returns the queue position of the one it offers (else slot is -1).
func (e *Engine) consider(s, q, base int, ivc int32) (c routing.Candidate, verdict int, at int64, slot int32) {
	vc := &e.vcs[ivc]
	switch {
	case int32(s) >= e.nReal: // an output queue: on to the link
		c = e.queueRoute(base, q, ivc)
		verdict, at = e.verdict(base, c, int32(e.lenOf(vc.headPkt)), ivc)
		return c, verdict, at, -1
	case e.voq != nil:
		return e.considerVOQ(s, q, base, ivc)
	case e.det == nil:
		if c, ok := e.choose(s, q, ivc, vc.headPkt, base); ok {
			return c, canGo, 0, -1
		}
		return c, waitRoom, 0, -1
	}
	if !vc.routed { // deterministic: one candidate, routed once per hop
		e.routeDeterministic(vc, vc.headPkt)
	}
	c = vc.route
	verdict, at = e.verdict(base, c, int32(e.lenOf(vc.headPkt)), ivc)
	return c, verdict, at, -1
}

// dest is packet pk's destination as deterministic routing reads it, looked up once.
// consider writes it out: there a call would cost more than the lookup it saves.
func (e *Engine) dest(pk *packet) *routing.Dest {
	if !pk.toKnown && e.salted { // ties drawn per packet (routing.TieRandom)
		pk.to, pk.toKnown = e.det.DestSalted(int(pk.src), int(pk.dst), e.head(pk).Salt), true
	} else if !pk.toKnown {
		pk.to, pk.toKnown = e.det.Dest(int(pk.src), int(pk.dst)), true
	}
	return &pk.to
}

// readyLater takes input VC ivc of port ps out of allocation until cycle at (waitAt).
func (e *Engine) readyLater(ps *portState, ivc int32, at int64) {
	e.unready(ps, ivc)
	e.schedule(at, evReady|uint32(ivc))
}

// unready takes input VC ivc of port ps out of allocation: none of its packets may
// leave yet, and each will mark it again when it may (virtual output queues).
func (e *Engine) unready(ps *portState, ivc int32) {
	if ps.ready &^= vcBit(ivc - ps.vc0); ps.ready == 0 {
		e.sw[ps.sw].ready &^= portBit(int32(ps.local))
	}
}

// vcBit is the bit of a port's v-th VC in the port's ready mask. A port has at most
// MaxVCs = 64 VCs; masking the count says so to the compiler, which then shifts with
// one instruction instead of guarding against counts of 64 and more.
func vcBit(v int32) uint64 { return 1 << (uint(v) & 63) }

// portBit is the bit of local port q in its switch's ready mask. The ports of a wide
// switch past the 64th share lower bits: harmless, since allocation scans every port
// of a wide switch and reads its mask only where it has checked that it is not wide.
func portBit(q int32) uint64 { return 1 << (uint(q) & 63) }

// sleep makes switch s allocate again at cycle at, when a port it waits for frees (a
// packet-level time; the flit level's "until further notice" is left to the tail).
func (e *Engine) sleep(s int, at int64) {
	if at != math.MaxInt64 && e.sw[s].wakeAt != at {
		e.sw[s].wakeAt = at
		e.schedule(at, evWake|uint32(s))
	}
}

// wins reports whether request r beats request b for their output port: under
// TransitPriority a packet in transit beats one being injected (BlueGene/L's rule),
// otherwise (and between two of a kind) the output's round-robin order decides.
func (e *Engine) wins(base, np int, r, b *request) bool {
	if e.p.TransitPriority {
		rt := e.ports[base+int(r.in)].kind == topology.Terminal
		bt := e.ports[base+int(b.in)].kind == topology.Terminal
		if rt != bt {
			return bt
		}
	}
	return e.rrBefore(base+int(r.out), r.in, b.in, np)
}

// rrBefore reports whether input a comes before input b in output g's round-robin order.
func (e *Engine) rrBefore(g int, a, b int32, np int) bool {
	p := int32(e.ports[g].outRR)
	return rrDist(a, p, np) < rrDist(b, p, np)
}

// rrDist is how far input a comes after the round-robin pointer p among np ports
// (a and p below np): a subtraction, not a division, on the allocation path.
func rrDist(a, p int32, np int) int32 {
	if a -= p; a < 0 {
		a += int32(np)
	}
	return a
}

// choose returns the candidate the head packet of ivc takes now under a general
// routing function, if any can advance. With several candidates the selection function
// picks one among those whose downstream VC has room (again every cycle the head is
// blocked, or once: Config.SelectOnce).
func (e *Engine) choose(s, q int, ivc, pi int32, base int) (routing.Candidate, bool) {
	vc := &e.vcs[ivc]
	n := int32(e.lenOf(pi))
	if e.selOnce && vc.routed {
		c := vc.route
		g := base + int(c.Port)
		if e.canAdvance(g, c, n) {
			return c, true
		}
		if c.Escape || e.hasRoom(g, c, n) {
			return c, false // wait for the chosen channel
		}
		vc.routed = false // an adaptive channel that lost its room: select again
	}
	cands := e.candidates(s, q, ivc, pi, base)
	if len(cands) == 1 {
		c := cands[0]
		if e.selOnce {
			vc.route, vc.routed = c, true
		}
		return c, e.canAdvance(base+int(c.Port), c, n)
	}
	if !e.selOnce {
		// Blocked heads are routed again every cycle, most of them with no room
		// anywhere in saturation: find that out before building the options.
		room := false
		for _, c := range cands {
			if e.hasRoom(base+int(c.Port), c, n) {
				room = true
				break
			}
		}
		if !room {
			return routing.Candidate{}, false // wait, select next cycle
		}
	}
	if cap(e.opts) < len(cands) {
		e.opts = make([]routing.Option, len(cands))
	}
	e.opts = e.opts[:len(cands)]
	for i, c := range cands {
		g := base + int(c.Port)
		o := &e.opts[i]
		*o = routing.Option{Candidate: c, Room: true}
		if d := e.ports[g].down; d >= 0 {
			dvc := d + int32(c.VC)
			free := e.freeView(g, dvc)
			o.Credits, o.Capacity = int(free), int(e.vcs[dvc].capacity)
			o.Room = e.roomFor(free, dvc, c.Bubble, n)
		}
		o.Available = o.Room && e.outFree(g, c)
	}
	if e.sel == nil {
		for i := range e.opts {
			if e.opts[i].Available {
				return e.opts[i].Candidate, true
			}
		}
		return routing.Candidate{}, false
	}
	i := e.sel.Select(s, q, e.opts)
	if i < 0 || i >= len(e.opts) {
		return routing.Candidate{}, false
	}
	if e.selOnce {
		vc.route, vc.routed = e.opts[i].Candidate, true
	}
	return e.opts[i].Candidate, e.opts[i].Available
}

// head is packet pk as a routing function sees it. Its salt mixes the run's seed with
// the packet's source, destination and generation cycle: the same at every hop and
// for every packet of a message, and drawn from nothing else, so that a routing that
// uses it changes no other random choice of the run.
func (e *Engine) head(pk *packet) routing.Head {
	if !e.salted {
		return routing.Head{Src: pk.src, Dst: pk.dst, Escaped: pk.escaped}
	}
	x := e.p.Seed ^ uint64(pk.gen)<<24 ^ uint64(uint32(pk.src))<<2 ^ uint64(uint32(pk.dst))<<44
	return routing.Head{Src: pk.src, Dst: pk.dst, Escaped: pk.escaped, Salt: uint32(splitmix.Hash(x))}
}

// candidates are the routing's candidates for the head packet pi of input VC ivc, from
// the cache when the routing bounds them (they depend on nothing that changes while
// the head waits).
func (e *Engine) candidates(s, q int, ivc, pi int32, base int) []routing.Candidate {
	vc := &e.vcs[ivc]
	if e.candCap > 0 && vc.cands {
		i := int(ivc) * e.candCap
		return e.cands[i : i+int(vc.nCands)]
	}
	pk := &e.pk[pi]
	inVC := int(ivc - e.ports[base+q].vc0)
	e.scratch = e.rt.Route(s, q, inVC, e.head(pk), e.scratch[:0])
	if e.candCap > 0 && len(e.scratch) <= e.candCap {
		i := int(ivc) * e.candCap
		vc.nCands = uint8(copy(e.cands[i:i+e.candCap], e.scratch))
		vc.cands = true
	}
	return e.scratch
}

// hasRoom reports whether the downstream VC of candidate c through output port g has
// room for the packet (a NIC always has).
func (e *Engine) hasRoom(g int, c routing.Candidate, n int32) bool {
	ps := &e.ports[g]
	if ps.down < 0 {
		return true
	}
	dvc := ps.down + int32(c.VC)
	return e.roomFor(e.freeView(g, dvc), dvc, c.Bubble, n)
}

// freeView is the free room of downstream VC dvc (through output port g) as a
// selection function sees it: the sender's credits, with the remaining flits of a
// packet still streaming into it at the flit level counted as sent, as the packet
// level has them. Selection then does not depend on which level runs.
func (e *Engine) freeView(g int, dvc int32) int32 {
	f := e.free(&e.vcs[dvc])
	if op := &e.ports[g]; !e.packetLevel && e.wh == nil && op.outBusy > e.now && op.owner >= 0 {
		if st := &e.inStream[op.owner]; st.dvc == dvc {
			f -= st.flits - int32(e.flits[st.ivc].headSent)
		}
	}
	return f
}

// roomFor is room for a downstream VC with free flits free: the whole packet (two
// when the bubble condition applies) under virtual cut-through; under wormhole one
// flit, in a VC that no other packet holds. Room implies a free queue slot, and the
// slot count is not read, which a parallel allocation phase needs (the VC's own
// switch may be removing its head at the same time): at the packet level every
// queued packet holds its flits of credit until it leaves; under wormhole, where the
// VC is free of a holder, every queued packet has left the upstream switch whole and
// all but the head hold their flits of credit, the head at least one, so a VC of F
// flits with a free one holds at most (F-2)/shortest+1 packets, below its F/shortest+2
// slots (layout). Only virtual cut-through at the flit level (tests) reads the slots.
func (e *Engine) roomFor(free, dvc int32, bubble bool, n int32) bool {
	if e.wh != nil && e.wh.heldBy[dvc] >= 0 {
		return false
	}
	return free >= e.need(n, bubble) && (e.packetLevel || e.wh != nil || e.vcs[dvc].qLen < e.vcs[dvc].qCap)
}

// canAdvance reports whether a packet may start through output port g on candidate c.
func (e *Engine) canAdvance(g int, c routing.Candidate, n int32) bool {
	return e.outFree(g, c) && e.hasRoom(g, c, n) // a NIC takes a flit per cycle
}

// outFree reports whether output port g may take a packet on candidate c now: its
// link is idle, or, under Params.ReserveOutputVCs, the candidate's output VC is.
func (e *Engine) outFree(g int, c routing.Candidate) bool { return e.freeFrom(g, c) <= e.now }

// freeFrom is the cycle from which output port g may take a packet on candidate c: when
// its link is idle, or, under Params.ReserveOutputVCs, when the candidate's output VC is
// released.
func (e *Engine) freeFrom(g int, c routing.Candidate) int64 {
	op := &e.ports[g]
	if e.reserving() && op.down >= 0 {
		return e.heldUntil[op.down+int32(c.VC)]
	}
	return op.outBusy
}

// room reports whether downstream VC dv can take a packet now: the whole packet under
// virtual cut-through (two packets when the hop enters a ring under bubble flow
// control), one flit under wormhole (where the caller checks that no packet holds
// dv). Room implies a queue slot but at the flit level of virtual cut-through (roomFor).
func (e *Engine) room(dv *vcState, bubble bool, n int32) bool {
	return e.free(dv) >= e.need(n, bubble) && (e.packetLevel || e.wh != nil || dv.qLen < dv.qCap)
}

// start connects input VC r.ivc to output r.out for the head packet's whole length.
func (e *Engine) start(base, np int, r request) {
	in, out := base+int(r.in), base+int(r.out)
	ip, op := &e.ports[in], &e.ports[out]
	vc := &e.vcs[r.ivc]
	pkt, dvc := vc.headPkt, int32(-1)
	if r.slot >= 0 { // virtual output queues: not necessarily the first packet
		pkt = e.queue[vc.qBase+r.slot].pkt
		ip.voqRR = int16(r.out) + 1
	}
	flits := int32(e.lenOf(pkt))
	if op.down >= 0 {
		dvc = op.down + int32(r.cand.VC)
	}
	if ip.ready &^= vcBit(r.ivc - ip.vc0); ip.ready == 0 {
		e.sw[ip.sw].ready &^= portBit(r.in)
	}
	op.owner = int32(in)
	if ip.inRR = int8(r.ivc-ip.vc0) + 1; ip.inRR == ip.nvc {
		ip.inRR = 0
	}
	if op.outRR = int16(r.in) + 1; int(op.outRR) == np {
		op.outRR = 0
	}
	pk := &e.pk[pkt]
	countHop(pk, r.cand, op)
	if !e.packetLevel {
		// The flit level moves the packet's flits one by one (advance).
		e.inStream[in] = stream{in: int32(in), out: int32(out), ivc: r.ivc, dvc: dvc, pkt: pkt, flits: flits, start: e.now}
		ip.inBusy, op.outBusy = math.MaxInt64, math.MaxInt64 // until the tail has left
		e.streams = append(e.streams, int32(in))
		return
	}
	// Packet level: flit i leaves at now+i, reaches the next switch at now+i+lat, and
	// its credit reaches our sender at now+i+back. Both ports are free at now+L, when
	// the VC's next packet may follow.
	now, L := e.now, int64(flits)
	if e.reserving() && dvc >= 0 { // after the packets already granted the link
		now = max(now, op.outBusy)
		e.heldUntil[dvc] = now + L
	}
	ip.inBusy = now + L
	if !e.sinkAll(out) {
		op.outBusy = now + L
	}
	if e.p.CrossbarPerVC { // the input's other VCs have crossbar inputs of their own
		ip.inBusy = e.now + 1
	}
	lat := int64(op.lat)
	if dvc >= 0 {
		e.vcs[dvc].credits -= int32(L)
		e.queueSent(out, dvc, pkt, now+lat+e.delay(dvc))
		if op.link >= 0 {
			pk.hops++
			e.m.flitHops += L
		}
	} else {
		e.deliverSent(pkt, now+L-1+lat)
		e.m.ejectAll += L
	}
	if op.link >= 0 {
		e.m.channel(int(op.link), now, L)
	}
	// The credits start returning at now+back. A one-cycle return (the default) ends
	// the previous ramp before this departure, so the ramp can be set now; a longer
	// one might not, and waits for its event. A parallel worker's one-cycle ramp whose
	// upstream switch is another region's is set after the cycle's allocation, in
	// the arrivals phase: that switch may be reading these credits now, and sees the
	// same number either way until the ramp begins next cycle (parallel.go).
	if ip.back == 1 && e.wk == nil {
		if vc := e.setRamp(r.ivc, now+1, uint32(L)); vc.waiter != 0 {
			e.endWaits(vc, now+1)
		}
	} else if ip.back == 1 {
		e.wk.ramp(in, r.ivc, now+1, uint32(L), false)
	} else if e.wk != nil {
		e.wk.ramp(in, r.ivc, now+int64(ip.back), uint32(L), true)
	} else {
		e.deferRamp(r.ivc, uint32(L))
		e.schedule(now+int64(ip.back), evRamp|uint32(r.ivc))
	}
	e.lastMove = now + L - 1
	if c := e.m.closed; c != nil && op.link >= 0 {
		c.switchBusy(out, now, now+L)
	}
	if r.slot >= 0 {
		e.removeVOQ(r.ivc, r.slot, now+L)
		return
	}
	e.popHead(r.ivc, now+L)
}

// sinkAll reports whether output port g takes any number of packets at once: a NIC's
// port under Params.ConsumeAll, which the packet level models (the flit level, the
// tests' reference runs, ejects one packet at a time).
func (e *Engine) sinkAll(g int) bool {
	return e.p.ConsumeAll && e.packetLevel && e.ports[g].down < 0
}

// reserving reports whether output VCs are arbitrated (Params.ReserveOutputVCs), which
// the packet level models; the flit level (tests' reference runs) arbitrates ports.
func (e *Engine) reserving() bool { return e.heldUntil != nil && e.packetLevel }

// grantee is where stage 2 of allocation keeps the request that wins r's output: the
// output port's cell, or under ReserveOutputVCs the output VC's (several VCs of one
// link may be granted in a cycle, and their packets cross it one after another); nil
// when the output takes every request (sinkAll).
func (e *Engine) grantee(base int, r *request) *int32 {
	if e.grantByPort {
		return &e.best[r.out]
	}
	g := base + int(r.out)
	switch op := &e.ports[g]; {
	case e.sinkAll(g):
		return nil
	case op.down >= 0 && e.reserving():
		return &e.bestVC[op.down+int32(r.cand.VC)]
	}
	return &e.best[r.out]
}

// countHop records a packet's hop on candidate c through output port op: whether it
// took an escape channel (from then on it stays there, under the papers' rule) and
// whether it crossed an internal link.
func countHop(pk *packet, c routing.Candidate, op *portState) {
	if c.Escape {
		pk.escaped = true
	}
	if op.down < 0 {
		return
	}
	if c.Escape {
		pk.escHops++
	}
	if op.kind == topology.Internal {
		pk.intHops++
	}
}

// popHead removes the head packet of ivc, which has left (packet level) or whose tail
// has left (flit level); the next packet may leave from cycle free on.
func (e *Engine) popHead(ivc int32, free int64) {
	vc := &e.vcs[ivc]
	if vc.qHead++; vc.qHead == vc.qCap {
		vc.qHead = 0
	}
	vc.qLen--
	vc.routed, vc.cands = false, false
	if vc.qLen > 0 {
		head := e.queue[vc.qBase+int32(vc.qHead)]
		vc.ready, vc.headPkt = max(e.readyAt(head), free), head.pkt
		e.readyAtCycle(ivc, vc.ready)
		return
	}
	vc.ready = free
}

// advance moves one flit along every flit-level stream.
func (e *Engine) advance() {
	now := e.now
	for i := 0; i < len(e.streams); {
		in := e.streams[i]
		st := &e.inStream[in]
		vc := &e.flits[st.ivc]
		if vc.arrived == vc.departed { // wormhole: the next flit is not here yet
			i++
			continue
		}
		var dv *vcState
		if st.dvc >= 0 {
			dv = &e.vcs[st.dvc]
			if dv.credits == 0 { // wormhole: no room downstream
				i++
				continue
			}
		}
		ip, op := &e.ports[in], &e.ports[st.out]
		vc.departed++
		vc.headSent++
		// The freed slot's credit travels back to whoever feeds this input port.
		e.schedule(now+int64(ip.back), evCredit|uint32(st.ivc))
		vc.creditsBack++
		e.lastMove = now
		lat := int64(op.lat)
		if dv != nil {
			dv.credits--
			e.schedule(now+lat, evArrival|uint32(st.dvc))
			if vc.headSent == 1 {
				if op.link >= 0 {
					e.pk[st.pkt].hops++
				}
				e.enqueue(st.dvc, st.pkt, now+lat+e.delay(st.dvc))
			}
			if op.link >= 0 {
				e.m.flitHops++
			}
		} else {
			e.m.ejectAll++
		}
		if op.link >= 0 {
			e.m.channel(int(op.link), now, 1)
			if e.m.closed != nil {
				e.m.closed.switchBusy(int(st.out), now, now+1)
			}
		}
		if int32(vc.headSent) < st.flits {
			i++
			continue
		}
		if dv == nil {
			e.deliver(st.pkt, now+lat)
		}
		vc.headSent = 0
		last := len(e.streams) - 1
		e.streams[i] = e.streams[last]
		e.streams = e.streams[:last]
		e.finish(in)
	}
}

// finish ends the flit-level stream of input port in once its tail has left: both
// ports are free from the next cycle and the input VC moves on to its next packet.
func (e *Engine) finish(in int32) {
	st := &e.inStream[in]
	ip := &e.ports[in]
	ip.inBusy, e.ports[st.out].outBusy = e.now+1, e.now+1
	e.popHead(st.ivc, e.now+1)
	// Heads waiting for this input port or this output port try again.
	if e.sw[ip.sw].ready != 0 || e.sw[ip.sw].wide {
		e.wake(ip.sw)
	}
}

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
