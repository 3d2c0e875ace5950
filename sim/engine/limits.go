package engine

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/twintorus/twintorus/internal/sysmem"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// What one engine can hold. Sizes are checked before anything is allocated, each
// with its accepted range in the error.
const (
	// MaxCycles bounds warm-up plus measurement: cycle arithmetic, a "never" generation
	// gap (traffic.Never = 2^62) included, stays within int64.
	MaxCycles = 1<<62 - 1
	// MaxVCs is the VCs of one port: a port's ready mask is one 64-bit word.
	MaxVCs = 64
	// MaxVCFlits is the flits of one VC.
	MaxVCFlits = 1 << 16
	// MaxPortFlits is the flits of an input port under the default split.
	MaxPortFlits = 1 << 20
	// maxQueuedPackets is what a VC's ring of queued packets can count (16 bits).
	maxQueuedPackets = math.MaxUint16
	// maxVCsTotal: VC ids travel in timing-wheel events with 29 bits.
	maxVCsTotal = evMask
)

// Footprint is the estimated memory of a run, in bytes: what the process holds at its
// peak, to compare with the machine's memory (cmd/twintorus's
// TestRunMemoryEstimateNearPeak holds it within 1.5 times the measured peak, 8^3 to
// 128x128x64 switches).
type Footprint struct {
	Process int64 // the program itself: runtime, code, its tables
	Network int64 // the network and its routing tables
	State   int64 // what New allocates: ports, VCs, queue slots, NICs
	// Traffic is packets and messages at their most: a packet in every queue slot and
	// source queues at their cap, or, in an open-loop run, what its load can generate
	// in its cycles if that is less.
	Traffic int64
	// VCs and QueueEntries are the engine's input VCs and their queue slots.
	VCs, QueueEntries int64
}

// Total is the whole estimate.
func (f Footprint) Total() int64 { return f.Process + f.Network + f.State + f.Traffic }

// processBytes is what the command holds before it builds anything (its code, the Go
// runtime, the family and routing tables): 17 MB resident for twintorus version.
const processBytes = 16 << 20

// footprint estimates the memory of a run on a network of size z, with p's buffers
// resolved. It follows layout, initWormhole and the per-terminal state field by
// field; packets and messages are counted as if every queue slot held one.
func footprint(z topology.Size, p Params) Footprint {
	var f Footprint
	f.Network = z.Bytes + z.Ports() + z.Switches*8                           // routing: a byte per port, a word per node
	perVC := int64(unsafe.Sizeof(vcState{})+unsafe.Sizeof(vcFlits{})) + 4    // + Engine.waitNext
	perPort := int64(unsafe.Sizeof(portState{})+unsafe.Sizeof(stream{})) + 8 // + channel counts
	if p.Switching == Wormhole {
		perVC += 3 * 4
		perPort += 2*8 + 2*4
	}
	for _, c := range []struct {
		ports int64
		buf   Buffer
	}{{z.TerminalPorts, p.Terminal}, {z.External, p.External}, {z.Internal, p.Internal}} {
		vcs := c.ports * int64(c.buf.VCs)
		f.VCs += vcs
		f.QueueEntries += vcs * int64(c.buf.Flits/p.shortestPacket()+2)
	}
	perSwitch := int64(unsafe.Sizeof(switchState{}))
	ports, switches := z.Ports(), z.Switches
	if p.OutputFlits > 0 { // a two-port stage per port, with as many VCs as the link's far end
		vcs := f.VCs
		f.VCs += vcs
		f.QueueEntries += vcs * int64(p.OutputFlits/p.shortestPacket()+2)
		ports += 2 * z.Ports()
		switches += z.Ports()
	}
	perPE := int64(4+4+8+8+4+1+1+4) + // NIC
		int64(5*4+2*8+1) + // source queue
		64 // generation calendar: two slots of 4 bytes per PE per expected arrival
	// Packets can fill every queue slot and one more per PE being injected; messages
	// wait in source queues up to their cap. An open-loop run cannot hold more of
	// either than it generates: about PEs·T·load/L packets in T cycles (L the mean
	// packet length), doubled, and a few thousand more, for the spread of the draws and
	// of messages of several packets. (Without a load, a program fills the queues: the
	// worst case stays.) Counting every slot full made torus:128x128x64 at load 0.002
	// need 29 GiB where it peaks at 3.7.
	msgs := max(int64(srcBudget), z.Terminals*srcCapMin)
	inFlight := f.QueueEntries + z.Terminals
	if p.Load > 0 {
		cycles := float64(p.lastEnd()) // every window the run may measure
		if gen := 2*float64(z.Terminals)*cycles*p.Load/p.MeanPacketFlits() + 4096; gen < float64(msgs+inFlight) {
			inFlight, msgs = min(inFlight, int64(gen)), min(msgs, int64(gen))
		}
	}
	msgs = (msgs + srcChunk - 1) / srcChunk * srcChunk // the source pool grows by chunks
	perSlot := int64(unsafe.Sizeof(qEntry{}))
	if p.VOQ {
		perSlot += int64(unsafe.Sizeof(routing.Candidate{}))
	}
	if p.PacketLengths != LengthsFixed {
		perSlot += 2 // the lengths of pending credit ramps (Engine.rampLens)
		perVC += int64(unsafe.Sizeof(rampRing{}))
	}
	f.State = f.VCs*perVC + f.QueueEntries*perSlot + ports*perPort +
		switches*perSwitch + z.Terminals*perPE +
		2<<20 // calendar wheel, histograms, timing wheel
	f.Traffic = msgs*int64(unsafe.Sizeof(srcMsg{})) + // the source queues' pool, in chunks
		inFlight*int64(unsafe.Sizeof(packet{})+unsafe.Sizeof(message{}))*5/4 // packet pools, grown by a quarter
	f.Process = processBytes
	return f
}

// checkFits refuses a run on network name (of size z, buffers of p resolved) whose
// ids or counters would overflow, or whose footprint exceeds memoryLimit bytes: 0
// means the memory this process may use (sysmem.Limit), a negative value no limit.
func checkFits(name string, z topology.Size, p Params, memoryLimit int64) error {
	f := footprint(z, p)
	buffers := fmt.Sprintf("buffers terminal %s, external %s", p.Terminal, p.External)
	if z.Internal > 0 {
		buffers += ", internal " + p.Internal.String()
	}
	limit := uint64(memoryLimit)
	if memoryLimit == 0 {
		limit = sysmem.Limit()
	}
	if memoryLimit >= 0 && limit > 0 && uint64(f.Total()) > limit {
		return &SizeError{Footprint: f, Limit: limit, msg: fmt.Sprintf("%s with %s needs an estimated %s (network %s, engine state %s, packets and queues %s), more than the %s of memory this machine allows: accepted are runs whose estimate fits; use a smaller network, smaller buffers, or a lower load or fewer cycles",
			name, buffers, gib(f.Total()), gib(f.Network), gib(f.State), gib(f.Traffic), gib(int64(limit)))}
	}
	switch {
	case f.VCs > maxVCsTotal:
		return &SizeError{Footprint: f, msg: fmt.Sprintf("%s with %s has %d input VCs; the engine addresses at most %d: use a smaller network or fewer VCs", name, buffers, f.VCs, maxVCsTotal)}
	case f.QueueEntries > math.MaxInt32:
		return &SizeError{Footprint: f, msg: fmt.Sprintf("%s with %s queues up to %d packets in its VCs; the engine holds at most %d: use a smaller network or smaller buffers", name, buffers, f.QueueEntries, math.MaxInt32)}
	}
	return nil
}

// SizeError says that a run is too big: for the engine's ids and counters, or for
// the memory limit (Limit > 0).
type SizeError struct {
	Footprint Footprint
	Limit     uint64 // the memory limit exceeded, or 0
	msg       string
}

func (e *SizeError) Error() string { return e.msg }

func gib(b int64) string { return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30)) }

// CheckSize refuses, before its network is built, a run that cannot fit: parameters
// out of range, more VCs or queue slots than the engine addresses, or an estimated
// footprint above memoryLimit (as for Config.MemoryLimit). The routing's VC needs are
// not known before the network exists, so buffers left to the default split count
// with the fewest VCs the scheme allows: the estimate is a lower bound, and what
// CheckSize refuses, New would refuse after building the network.
func CheckSize(spec topology.Spec, p Params, scheme routing.Scheme, memoryLimit int64) error {
	p = p.withDefaults()
	if err := p.validate(); err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	one := func(topology.PortKind) int { return 1 }
	if err := p.fillBuffers(scheme, one, scheme.String()); err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	z, known := spec.Size()
	if !known {
		return nil // a file's network: New checks it once it is read
	}
	if err := checkFits(spec.String(), z, p, memoryLimit); err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	return nil
}
