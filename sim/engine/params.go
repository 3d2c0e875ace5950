package engine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// Switching is how a packet advances between switches.
type Switching uint8

const (
	// CutThrough is virtual cut-through: a packet advances only when the downstream VC
	// has room for the whole packet.
	CutThrough Switching = iota
	// Wormhole lets a packet advance flit by flit as credits allow; a blocked packet
	// holds its output port.
	Wormhole
)

func (s Switching) String() string {
	if s == Wormhole {
		return "wormhole"
	}
	return "vct"
}

// MarshalText writes "vct" or "wormhole".
func (s Switching) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads "vct" or "wormhole".
func (s *Switching) UnmarshalText(b []byte) error {
	v, err := ParseSwitching(string(b))
	*s = v
	return err
}

// ParseSwitching reads "vct" or "wormhole".
func ParseSwitching(s string) (Switching, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "vct", "cut-through", "virtual-cut-through":
		return CutThrough, nil
	case "wormhole", "wh":
		return Wormhole, nil
	}
	return 0, fmt.Errorf("unknown switching %q: accepted are vct and wormhole", s)
}

// Buffer is the input buffer of one port class: VCs virtual channels of Flits flits each.
type Buffer struct {
	VCs   int
	Flits int
}

func (b Buffer) String() string { return fmt.Sprintf("%dx%d", b.VCs, b.Flits) }

// MarshalText writes "VCSxFLITS", or "" for the default split.
func (b Buffer) MarshalText() ([]byte, error) {
	if b == (Buffer{}) {
		return nil, nil
	}
	return []byte(b.String()), nil
}

// UnmarshalText reads "VCSxFLITS"; "" or "default" is the default split.
func (b *Buffer) UnmarshalText(t []byte) error {
	if s := strings.TrimSpace(string(t)); s == "" || s == "default" {
		*b = Buffer{}
		return nil
	}
	v, err := ParseBuffer(string(t))
	*b = v
	return err
}

// ParseBuffer reads "VCSxFLITS", e.g. "4x32".
func ParseBuffer(s string) (Buffer, error) {
	v, f, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	bv, err1 := strconv.Atoi(v)
	bf, err2 := strconv.Atoi(f)
	if !ok || err1 != nil || err2 != nil || bv < 1 || bv > 64 || bf < 1 || bf > 1<<16 {
		return Buffer{}, fmt.Errorf("bad buffer %q: write VCSxFLITS with 1-64 VCs of 1-65536 flits, e.g. 4x32", s)
	}
	return Buffer{VCs: bv, Flits: bf}, nil
}

// Params are the engine's parameters. Start from Defaults() and change what the
// experiment varies: zero is a meaningful value for several fields (warm-up, routing
// delay), so a zero Params is not the default model. Two fields do fall back when
// zero: InternalLatency (to LinkLatency) and the buffers (to the papers' split).
type Params struct {
	Switching   Switching `yaml:"switching" json:"switching"`
	PacketFlits int       `yaml:"packet_flits" json:"packet_flits"` // flits per packet, the longest under variable lengths (4)
	// PacketLengths is fixed (every packet PacketFlits long, the zero value) or
	// uniform (1 to PacketFlits flits: lengths.go). Left out of JSON when fixed, so the
	// keys of points stored before lengths were a parameter stay the same; always in
	// YAML, so that a spec saying fixed under a uniform preset (extoll) reads back fixed.
	PacketLengths PacketLengths `yaml:"packet_lengths" json:"packet_lengths,omitzero"`
	LinkLatency   int           `yaml:"link_latency" json:"link_latency"` // cycles per external or terminal link (1)
	// InternalLatency is the latency of the internal link of twin tori (LinkLatency).
	InternalLatency int `yaml:"internal_latency" json:"internal_latency"`
	RoutingDelay    int `yaml:"routing_delay" json:"routing_delay"` // cycles from a head's arrival to its departure (1)
	// Buffers per input port class; zero means the papers' split of PortFlits.
	Terminal  Buffer `yaml:"terminal_buffer" json:"terminal_buffer"`
	External  Buffer `yaml:"external_buffer" json:"external_buffer"`
	Internal  Buffer `yaml:"internal_buffer" json:"internal_buffer"`
	PortFlits int    `yaml:"port_flits" json:"port_flits"` // flits per input port for the default split (128)
	// TerminalLatency is the latency of the links between PEs and their switches, or
	// 0 for LinkLatency.
	TerminalLatency int `yaml:"terminal_latency" json:"terminal_latency,omitempty"`
	// OutputFlits, when above 0, gives every output port an output queue of that many
	// flits per VC between the crossbar and the link (switch.go): a packet crosses the
	// crossbar into it when it has room for the packet, and leaves it for the link
	// when the next switch has room. 0 is the input-queued switch.
	OutputFlits int `yaml:"output_flits" json:"output_flits,omitempty"`
	// VOQ organises every input VC's buffer as virtual output queues (switch.go): a
	// packet waits only behind older packets for the same output port, never behind
	// one for another (no head-of-line blocking). It needs virtual cut-through and a
	// routing that gives one port per hop.
	VOQ bool `yaml:"voq" json:"voq,omitempty"`
	// BufferSplit is how PortFlits is split among the VCs when no buffer is given: ""
	// (the 3DT papers': the VCs the routing needs rounded up to a power of two, at
	// least four under the VC scheme and on internal links) or "equal" (paper (b):
	// exactly the VCs the routing uses, equal shares).
	BufferSplit string `yaml:"buffer_split,omitempty" json:"buffer_split,omitempty"`
	// Allocator is the switch allocator: two-stage round-robin (the zero value, rr2)
	// or iSLIP with its iterations (islip:N). Left out of JSON when rr2, so the keys of
	// points stored before allocators were a parameter stay the same.
	Allocator Allocator `yaml:"allocator" json:"allocator,omitzero"`

	Load    float64 `yaml:"load" json:"load"`       // offered load, flits/cycle/PE
	Warmup  int64   `yaml:"warmup" json:"warmup"`   // cycles before measuring (5000)
	Measure int64   `yaml:"measure" json:"measure"` // cycles measured (20000)
	Seed    uint64  `yaml:"seed" json:"seed"`       // random seed (1)

	// Watchdog is the number of cycles without any flit moving, while packets are in
	// the network, after which the run stops and reports a deadlock (10000); zero
	// disables it. A run that ends sooner with packets waiting and nothing moving is
	// searched for a cycle of waiting channels at its end (checkDeadlockAtEnd).
	Watchdog int64 `yaml:"watchdog" json:"watchdog"`
	// SaturationTolerance: the run is saturated when the flits generated in the window
	// exceed those delivered by more than this fraction (0.02) plus four packets per PE.
	SaturationTolerance float64 `yaml:"saturation_tolerance" json:"saturation_tolerance"`
	// StationaryBatches cuts the measurement window into this many batches of equal
	// length (within a cycle) and checks that the window is stationary: that the
	// accepted traffic of its last half of the batches agrees with its first half's
	// (stationary.go; 10). 0 turns the check off, the model before it existed: no
	// verdict, no extension, and StationaryTolerance and StationaryWindows unused. It
	// does not apply to closed-loop runs. The three stationary fields are left out of
	// JSON at zero (keys of points stored before the check stay the same) and always
	// in YAML, so that a spec saying 0 reads back 0.
	StationaryBatches int `yaml:"stationary_batches" json:"stationary_batches,omitempty"`
	// StationaryTolerance is the drift the check allows: the halves' accepted traffic
	// may differ by this fraction of the window's mean (0.02), or by what the batch
	// means' own noise explains at 95 %, whichever is larger.
	StationaryTolerance float64 `yaml:"stationary_tolerance" json:"stationary_tolerance,omitempty"`
	// StationaryWindows is how many windows of Measure cycles a run measures at most
	// (4): a window that fails the check becomes warm-up and the next one is measured,
	// in the same simulation, until one passes or this many have run; the last one is
	// reported, marked not stationary if it failed. 1 checks without running on.
	StationaryWindows int `yaml:"stationary_windows" json:"stationary_windows,omitempty"`
	// TransitPriority gives packets in transit priority over packets being injected when
	// both want the same output port (BlueGene/L's congestion control, which the
	// twisted-tori paper's router has); false: round-robin among all inputs. Left out of
	// JSON when false (keys of points stored before it existed stay the same); always in
	// YAML, so that a spec saying false under a preset saying true (insee) reads back false.
	TransitPriority bool `yaml:"transit_priority" json:"transit_priority,omitempty"`
	// CrossbarPerVC gives every input VC its own crossbar input (BlueGene/L's switch):
	// the VCs of one input port forward packets concurrently, one new packet per input
	// port per cycle, each at one flit per cycle. False: one crossbar input per port,
	// one packet at a time (the default model, docs/model.md). Virtual cut-through
	// only. In YAML and JSON as TransitPriority, for the same reasons.
	CrossbarPerVC bool `yaml:"crossbar_per_vc" json:"crossbar_per_vc,omitempty"`
	// ConsumeAll lets every packet that has reached its NIC's switch eject at once,
	// each at one flit per cycle from its own input VC (INSEE's "multiple" consumption,
	// its default, under which the twisted-tori paper ran); false: one ejection port
	// per NIC, one packet at a time (the default model). Needs CrossbarPerVC and the rr2
	// allocator without output queues or VOQs. In YAML and JSON as TransitPriority.
	ConsumeAll bool `yaml:"consume_all" json:"consume_all,omitempty"`
	// ReserveOutputVCs arbitrates output VCs instead of output ports (INSEE's router):
	// a head may be granted a free output VC while the link carries another VC's
	// packet, and its packet crosses the link right after the ones granted before it;
	// an output VC holds one packet at a time, from its grant until its tail has left,
	// and each output VC grants one request per cycle. False: a head waits until the
	// output port is free and each port grants one request per cycle (the default
	// model). Its runs do not depend on the order in which switches are visited (the
	// CrossbarPerVC exception in enqueue does not apply). Same requirements as
	// ConsumeAll; in YAML and JSON as TransitPriority.
	ReserveOutputVCs bool `yaml:"reserve_output_vcs" json:"reserve_output_vcs,omitempty"`
	// ClassVCs reads the VC a deterministic routing names as a class (BookSim2's VC
	// allocation, classvc.go): with C classes on a port of V VCs, class c owns VCs
	// c*V/C to (c+1)*V/C-1, and a head is allocated any VC of its class that no packet
	// holds, whether or not its buffer has room (the switch allocator then waits for
	// credits). False: the head takes exactly the VC the routing names, once it has
	// room for a flit (the default model). Wormhole and routings with one candidate per hop only;
	// in YAML and JSON as TransitPriority.
	ClassVCs bool `yaml:"class_vcs" json:"class_vcs,omitempty"`
	// FrontDelay is, under wormhole switching, the cycles between the departure of a
	// packet's tail from an input VC and the earliest departure of the next packet's
	// head from it: BookSim2 routes a head and allocates its VC and switch only once
	// it is at the front of its VC, so each packet pays those stages again however
	// long it has waited behind the one before (the booksim preset: routing + VC
	// allocation + switch allocation delays). 0 or 1: the next cycle (the default
	// model: a head that has waited its routing delay leaves right after the tail).
	FrontDelay int `yaml:"front_delay" json:"front_delay,omitempty"`
	// KeepRingClass, under ClassVCs, keeps a packet's VC class along a ring: a head
	// that leaves by the dimension it came by takes the class of the VC it arrived in,
	// and the routing's class applies where it enters a dimension (BookSim2's
	// dim_order_torus chooses the dateline partition at the turn). False: the routing's
	// class at every hop (the default model: a packet that has crossed the
	// wrap-around link changes class).
	KeepRingClass bool `yaml:"keep_ring_class" json:"keep_ring_class,omitempty"`
	// VCISLIP, under ClassVCs, allocates output VCs by one iteration of iSLIP between
	// the heads' input VCs and the free VCs of their classes (BookSim2's vc_allocator =
	// islip): each free VC grants the requesting input VC nearest after its pointer,
	// each input VC accepts the granting VC nearest after its own, and only accepted
	// grants move pointers; a head left without a VC tries again the next cycle. False:
	// a class's free VCs go to the heads in round-robin order of their input ports,
	// lowest VC first (classvc.go).
	VCISLIP bool `yaml:"vc_islip" json:"vc_islip,omitempty"`
	// SwitchISLIP allocates the switch under wormhole switching by one iteration of
	// iSLIP between input and output ports (BookSim2's sw_allocator = islip): an input
	// port requests every output port one of its packets can move to, output ports
	// grant round-robin, input ports accept round-robin, and the pointers move only
	// past accepted grants. False: two-stage round-robin, where an input port first
	// picks one packet and output ports grant among the picks (the default model).
	SwitchISLIP bool `yaml:"switch_islip" json:"switch_islip,omitempty"`
	// SwitchAfterVC is, under wormhole switching, the cycles from a head's output-VC
	// allocation to its earliest switch traversal: BookSim2 allocates the VC in one
	// pipeline stage and the switch in the next, so a head that wins a VC crosses one
	// cycle later at the earliest (the booksim preset: sw_alloc_delay). 0: in the same
	// cycle (the default model).
	SwitchAfterVC int `yaml:"switch_after_vc" json:"switch_after_vc,omitempty"`
	// CrossbarDelay is, under wormhole switching, the cycles a flit spends crossing a
	// switch after it has left its input VC: it reaches the next switch (or the PE)
	// that much later, while the credit for the slot it left goes back at once
	// (BookSim2's switch traversal stage, st_prepare_delay + st_final_delay, follows
	// the switch allocation that frees the slot and sends the credit). 0: a flit is on
	// the link as soon as it leaves (the default model).
	CrossbarDelay int `yaml:"crossbar_delay" json:"crossbar_delay,omitempty"`
	// EjectVCs is, under wormhole switching, how many packets an ejection port takes
	// at a time, their flits interleaved one per cycle as at any output port (BookSim2:
	// its ejection channel has num_vcs VCs and the PE drains every flit at once). 0:
	// one packet at a time, head to tail (the default model).
	EjectVCs int `yaml:"eject_vcs" json:"eject_vcs,omitempty"`
	// Channels keeps per-channel flit counts for utilisation maps.
	Channels bool `yaml:"channels" json:"channels"`
	// ChannelFrames, when above 0, also keeps every channel's flits per frame of that
	// many cycles, from cycle 0 to the end of the run (warm-up included: congestion
	// that builds up is what a picture over time shows), in Result.ChannelFrames. 0:
	// off (the default), so results and keys are unchanged. The counters are allocated
	// once, frames × ports of them, at most MaxFrameCounters.
	ChannelFrames int64 `yaml:"channel_frames" json:"channel_frames,omitempty"`
	// Threads is how many cores one simulation's events, allocation and arrivals use (0
	// or 1: one).
	// It does not change results, bit for bit, so it is not part of a point's JSON or
	// key (parallel.go). CrossbarPerVC without ReserveOutputVCs runs on one core
	// whatever it says (threadsUsable says why).
	Threads int `yaml:"threads" json:"-"`
}

// Defaults are the model's defaults (docs/model.md): the 3DT papers' switch ([TR] §7.1,
// [J] §6.1) with one cycle per link and per routing decision, where they are silent.
func Defaults() Params {
	return Params{PacketFlits: 4, LinkLatency: 1, RoutingDelay: 1, PortFlits: 128,
		Warmup: 5000, Measure: 20000, Seed: 1, Watchdog: 10000, SaturationTolerance: 0.02,
		StationaryBatches: DefaultStationaryBatches, StationaryTolerance: DefaultStationaryTolerance, StationaryWindows: DefaultStationaryWindows}
}

// The stationarity check's defaults (docs/model.md, "Stationary windows"): ten batch
// means, a drift of at most 2 % (the share of undelivered traffic that makes a run
// saturated), and at most four windows.
const (
	DefaultStationaryBatches   = 10
	DefaultStationaryTolerance = 0.02
	DefaultStationaryWindows   = 4
	// MaxStationaryBatches bounds the batches of a window: the meter keeps their
	// counts in a fixed array.
	MaxStationaryBatches = 100
	// MaxStationaryWindows bounds the windows of a run.
	MaxStationaryWindows = 1000
	// MaxFrameCounters bounds frames × ports of Params.ChannelFrames (128 MiB of
	// counters): a 16×16×16 torus keeps 1,000 frames.
	MaxFrameCounters = 1 << 24
)

// withDefaults fills the two fields whose zero value means "as usual".
func (p Params) withDefaults() Params {
	if p.InternalLatency == 0 {
		p.InternalLatency = p.LinkLatency
	}
	if p.PortFlits == 0 {
		p.PortFlits = Defaults().PortFlits
	}
	if p.TerminalLatency == 0 {
		p.TerminalLatency = p.LinkLatency
	}
	return p
}

// DefaultBuffer is the papers' buffer split for a port class: PortFlits flits divided
// evenly among the VCs, with the VC count being what the routing needs rounded up to a
// power of two, and at least four under the VC scheme and on internal links (the 3DT
// papers: bubble 1×128 on terminal and external ports and 4×32 on the internal link;
// VCs 4×32 everywhere and 8×16 on the internal link of SC0 configurations).
func DefaultBuffer(kind topology.PortKind, needed int, scheme routing.Scheme, portFlits int) Buffer {
	v := needed
	if scheme != routing.SchemeNone && (scheme == routing.SchemeVC || kind == topology.Internal) && v < 4 {
		v = 4
	}
	p := 1
	for p < v {
		p *= 2
	}
	return Buffer{VCs: p, Flits: portFlits / p}
}

// resolveBuffers fills the default buffers and checks they fit the routing and switching.
func (p *Params) resolveBuffers(rt routing.Func) error {
	scheme := routing.SchemeVC
	if s, ok := rt.(interface{ Scheme() routing.Scheme }); ok {
		scheme = s.Scheme()
	}
	return p.fillBuffers(scheme, rt.VCs, rt.Name())
}

// fillBuffers fills the default buffers for a scheme whose routing needs needs(kind)
// VCs on each port class, and checks every buffer: its VC count and flits within what
// the engine holds, enough VCs for the routing (named rtName), room for a packet
// under virtual cut-through (two under bubble flow control).
func (p *Params) fillBuffers(scheme routing.Scheme, needs func(topology.PortKind) int, rtName string) error {
	for _, c := range []struct {
		kind topology.PortKind
		buf  *Buffer
	}{{topology.Terminal, &p.Terminal}, {topology.External, &p.External}, {topology.Internal, &p.Internal}} {
		need := needs(c.kind)
		if *c.buf == (Buffer{}) {
			*c.buf = DefaultBuffer(c.kind, need, scheme, p.PortFlits)
			if p.BufferSplit == SplitEqual {
				*c.buf = Buffer{VCs: max(need, 1), Flits: p.PortFlits / max(need, 1)}
			}
			if c.buf.Flits < 1 {
				return fmt.Errorf("%s ports: %d flits per port split among %d VCs leave VCs of 0 flits; accepted are at least %d flits per port (port_flits), or explicit buffers", c.kind, p.PortFlits, c.buf.VCs, c.buf.VCs)
			}
		}
		b := *c.buf
		if b.VCs < 1 || b.VCs > MaxVCs || b.Flits < 1 || b.Flits > MaxVCFlits {
			return fmt.Errorf("%s buffer %dx%d: accepted are 1 to %d VCs of 1 to %d flits", c.kind, b.VCs, b.Flits, MaxVCs, MaxVCFlits)
		}
		if b.Flits/p.shortestPacket()+2 > maxQueuedPackets {
			return fmt.Errorf("%s VCs of %d flits hold %d packets of %d flit(s); accepted are at most %d packets per VC", c.kind, b.Flits, b.Flits/p.shortestPacket(), p.shortestPacket(), maxQueuedPackets-2)
		}
		if b.VCs < need {
			return fmt.Errorf("%s ports have %d VCs but routing %s needs %d: accepted are %s buffers of at least %d VCs", c.kind, b.VCs, rtName, need, c.kind, need)
		}
		if p.Switching == CutThrough && b.Flits < p.PacketFlits {
			return fmt.Errorf("%s VCs of %d flits cannot hold a %d-flit packet under virtual cut-through", c.kind, b.Flits, p.PacketFlits)
		}
	}
	if scheme == routing.SchemeBubble {
		if p.Switching != CutThrough {
			return fmt.Errorf("bubble flow control needs virtual cut-through switching, not %s", p.Switching)
		}
		for _, c := range []struct {
			kind topology.PortKind
			buf  Buffer
		}{{topology.External, p.External}, {topology.Internal, p.Internal}} {
			if c.buf.Flits < 2*p.PacketFlits {
				return fmt.Errorf("bubble flow control needs room for two packets (%d flits) per %s VC, the buffer has %d", 2*p.PacketFlits, c.kind, c.buf.Flits)
			}
		}
		if p.OutputFlits > 0 && p.OutputFlits < 2*p.PacketFlits { // a ring is entered at the output queue
			return fmt.Errorf("bubble flow control needs room for two packets (%d flits) in the output queues, they have %d", 2*p.PacketFlits, p.OutputFlits)
		}
	}
	return nil
}

func (p *Params) validate() error {
	if err := p.Allocator.validate(p.Switching); err != nil {
		return err
	}
	if err := p.PacketLengths.validate(); err != nil {
		return err
	}
	switch {
	case p.PacketFlits == 0 && p.LinkLatency == 0:
		return fmt.Errorf("parameters have no packet size and no link latency: start from engine.Defaults()")
	case p.PacketFlits < 1 || p.PacketFlits > 4096:
		return fmt.Errorf("packet size %d flits: accepted are 1 to 4096", p.PacketFlits)
	case p.LinkLatency < 1 || p.LinkLatency > 1000:
		return fmt.Errorf("link latency %d: accepted are 1 to 1000 cycles", p.LinkLatency)
	case p.InternalLatency < 1 || p.InternalLatency > 1000:
		return fmt.Errorf("internal link latency %d: accepted are 1 to 1000 cycles", p.InternalLatency)
	case p.TerminalLatency < 1 || p.TerminalLatency > 1000:
		return fmt.Errorf("terminal link latency %d: accepted are 1 to 1000 cycles", p.TerminalLatency)
	case p.OutputFlits < 0 || p.OutputFlits > MaxVCFlits:
		return fmt.Errorf("output queues of %d flits: accepted are 0 (none) to %d flits per VC", p.OutputFlits, MaxVCFlits)
	case p.OutputFlits > 0 && p.Switching != CutThrough:
		return fmt.Errorf("output queues need virtual cut-through switching, not %s", p.Switching)
	case p.OutputFlits > 0 && p.OutputFlits < p.PacketFlits:
		return fmt.Errorf("output queues of %d flits cannot hold a %d-flit packet: accepted are at least %d flits", p.OutputFlits, p.PacketFlits, p.PacketFlits)
	case p.OutputFlits > 0 && p.OutputFlits/p.shortestPacket()+2 > maxQueuedPackets:
		return fmt.Errorf("output queues of %d flits hold %d packets of %d flit(s); accepted are at most %d packets", p.OutputFlits, p.OutputFlits/p.shortestPacket(), p.shortestPacket(), maxQueuedPackets-2)
	case p.VOQ && p.Switching != CutThrough:
		return fmt.Errorf("virtual output queues need virtual cut-through switching, not %s", p.Switching)
	case p.RoutingDelay < 0 || p.RoutingDelay > 1000:
		return fmt.Errorf("routing delay %d: accepted are 0 to 1000 cycles", p.RoutingDelay)
	case p.PortFlits < 1 || p.PortFlits > MaxPortFlits:
		return fmt.Errorf("%d flits per port: accepted are 1 to %d", p.PortFlits, MaxPortFlits)
	case p.BufferSplit != "" && p.BufferSplit != SplitEqual:
		return fmt.Errorf("buffer split %q: accepted are %q (the papers' default) and %q", p.BufferSplit, "", SplitEqual)
	case p.Load < 0:
		return fmt.Errorf("offered load %g: it must be at least 0 flits/cycle/PE", p.Load)
	case p.Warmup < 0 || p.Measure < 1:
		return fmt.Errorf("warm-up %d and measurement %d cycles: warm-up must be at least 0 and measurement at least 1", p.Warmup, p.Measure)
	case p.Warmup > MaxCycles || p.Measure > MaxCycles-p.Warmup:
		return fmt.Errorf("warm-up %d + measurement %d cycles: accepted are at most %d cycles in all", p.Warmup, p.Measure, int64(MaxCycles))
	case p.Threads < 0 || p.Threads > MaxThreads:
		return fmt.Errorf("%d threads: accepted are 0 or 1 (one core) to %d", p.Threads, MaxThreads)
	case p.CrossbarPerVC && p.Switching != CutThrough:
		return fmt.Errorf("crossbar_per_vc models virtual cut-through switches; switching %s has one crossbar input per port", p.Switching)
	case p.FrontDelay < 0 || p.FrontDelay > 1000:
		return fmt.Errorf("front delay %d: accepted are 0 to 1000 cycles", p.FrontDelay)
	case p.FrontDelay > 1 && p.Switching != Wormhole:
		return fmt.Errorf("front_delay models BookSim2's wormhole router; it needs wormhole switching, not %s", p.Switching)
	case p.SwitchAfterVC < 0 || p.SwitchAfterVC > 1000 || p.CrossbarDelay < 0 || p.CrossbarDelay > 1000:
		return fmt.Errorf("switch_after_vc %d, crossbar_delay %d: accepted are 0 to 1000 cycles", p.SwitchAfterVC, p.CrossbarDelay)
	case p.EjectVCs < 0 || p.EjectVCs > MaxVCs:
		return fmt.Errorf("eject_vcs %d: accepted are 0 (one packet at a time) to %d", p.EjectVCs, MaxVCs)
	case (p.SwitchAfterVC > 0 || p.CrossbarDelay > 0 || p.EjectVCs > 0 || p.SwitchISLIP) && p.Switching != Wormhole:
		return fmt.Errorf("switch_after_vc, crossbar_delay, eject_vcs and switch_islip model BookSim2's wormhole router; they need wormhole switching, not %s", p.Switching)
	case (p.KeepRingClass || p.VCISLIP) && !p.ClassVCs:
		return fmt.Errorf("keep_ring_class and vc_islip work on VC classes; they need class_vcs")
	case p.ClassVCs && p.Switching != Wormhole:
		return fmt.Errorf("class_vcs models BookSim2's wormhole VC allocation; it needs wormhole switching, not %s", p.Switching)
	case (p.ConsumeAll || p.ReserveOutputVCs) && !p.CrossbarPerVC:
		return fmt.Errorf("%s models INSEE's router (the insee preset), whose input VCs have crossbar inputs of their own: set crossbar_per_vc too", inseeOption(p))
	case (p.ConsumeAll || p.ReserveOutputVCs) && (p.Allocator.ISLIP || p.VOQ || p.OutputFlits > 0):
		return fmt.Errorf("%s works with the two-stage round-robin allocator of input-queued switches (rr2, no voq, no output_flits)", inseeOption(p))
	case p.Watchdog < 0 || p.Watchdog > MaxCycles:
		// Negative once meant "off" by accident: 0 says it, and a typo is refused.
		return fmt.Errorf("watchdog %d cycles: accepted are 0 (off) to %d", p.Watchdog, int64(MaxCycles))
	case !(p.SaturationTolerance >= 0 && p.SaturationTolerance < 1): // NaN too
		return fmt.Errorf("saturation tolerance %g: accepted are 0 to 1", p.SaturationTolerance)
	case p.ChannelFrames < 0:
		return fmt.Errorf("channel frames of %d cycles: accepted are 0 (off) or a frame length of at least 1 cycle", p.ChannelFrames)
	}
	return p.validateStationary()
}

// validateStationary checks the stationarity check's parameters.
func (p *Params) validateStationary() error {
	if p.StationaryBatches == 0 {
		return nil // off: the other two are not used
	}
	switch k := p.StationaryBatches; {
	case k < 4 || k > MaxStationaryBatches:
		return fmt.Errorf("%d stationary batches: accepted are 0 (no check) or 4 to %d (halves of at least two batches)", k, MaxStationaryBatches)
	case p.Measure < int64(k):
		return fmt.Errorf("a measurement window of %d cycles cannot be cut into %d stationary batches: accepted are at most as many batches as cycles", p.Measure, k)
	case !(p.StationaryTolerance >= 0 && p.StationaryTolerance < 1): // NaN too
		return fmt.Errorf("stationary tolerance %g: accepted are 0 to 1 (a fraction of the accepted traffic, e.g. 0.02)", p.StationaryTolerance)
	case p.StationaryWindows < 1 || p.StationaryWindows > MaxStationaryWindows:
		return fmt.Errorf("%d stationary windows: accepted are 1 (check only) to %d", p.StationaryWindows, MaxStationaryWindows)
	case p.Measure > (MaxCycles-p.Warmup)/int64(p.StationaryWindows):
		return fmt.Errorf("warm-up %d + %d windows of %d cycles: accepted are at most %d cycles in all", p.Warmup, p.StationaryWindows, p.Measure, int64(MaxCycles))
	}
	return nil
}

// StationaryOff is p with the stationarity check off (StationaryBatches 0) and its
// other two parameters cleared, which then mean nothing: the canonical form of a run
// without the check, whose key is that of a point stored before the check existed.
func (p Params) StationaryOff() Params {
	p.StationaryBatches, p.StationaryTolerance, p.StationaryWindows = 0, 0, 0
	return p
}

// lastEnd is the latest cycle a run's measurement may end: the end of its last
// window (the window's end without the check).
func (p Params) lastEnd() int64 {
	if p.StationaryBatches == 0 || p.StationaryWindows <= 1 {
		return p.Warmup + p.Measure
	}
	return p.Warmup + int64(p.StationaryWindows)*p.Measure
}

// inseeOption names the INSEE router option that p sets, for error messages.
func inseeOption(p *Params) string {
	if p.ReserveOutputVCs {
		return "reserve_output_vcs"
	}
	return "consume_all"
}

// MaxThreads is the most cores one simulation uses (Params.Threads).
const MaxThreads = 256

// SplitEqual is the buffer split of paper (b): every input port's PortFlits shared
// equally by exactly the VCs the routing uses.
const SplitEqual = "equal"

// ModelVersion is the revision of the simulation model: bump it whenever a change to
// the engine, routing, topology or traffic packages changes any result for a given
// point and seed (a bug fix, a new arbitration order, a different random draw), and
// not for changes that keep results bit for bit (speed-ups, refactorings). The golden
// test (TestGoldenResults) fails on any change of results, to force the decision.
// Stored experiment results carry it, so a new version recomputes them.
//
// Version 2 (issue 9): a wormhole output VC goes to one packet (two VCs of one input
// port could both win it, which changed wormhole runs whose injection port has more
// than one VC), and a source queue at its cap draws its traffic lazily (same law,
// other draws: runs shorter than about packet flits × the cap in cycles are
// unchanged). Virtual cut-through runs below the cap give the same results as under
// version 1, bit for bit.
const ModelVersion = 2
