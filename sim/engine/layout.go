package engine

import (
	"github.com/twintorus/twintorus/internal/sysmem"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// Building the state arrays for a network, once per run (New): switches, ports and
// their VCs, the output-queue stages of a switch preset with output queues, link and
// buffer parameters per port.

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
