package engine

import (
	"unsafe"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// The state the phases share: packets and messages, input VCs with their queues and
// credits, ports, switches and flit-level streams. Every piece is a flat array indexed
// by a dense id (packet, message, VC, global port, switch), reused from free lists, so
// that a cycle allocates nothing; the Engine (engine.go) holds the arrays, and each
// phase's own scratch sits in the Engine beside them.

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
	tag     uint8 // the routing's state from the packet's last hop (routing.Candidate.Tag)
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
