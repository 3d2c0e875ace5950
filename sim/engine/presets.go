package engine

import (
	"fmt"
	"strings"
)

// Preset is a named switch and link model: the one a source paper simulates, as far as
// it says, with our choices where it is silent (Choices says which and why). Presets
// are data; Params returns a copy to change.
type Preset struct {
	Name    string
	Summary string
	Source  string   // where the paper states its model
	Stated  []string // what the paper states
	Choices []string // what it leaves open, and what the preset takes
	// Deadlock is the deadlock scheme the paper's routing runs with; "" leaves the
	// routing's own default. A run takes it only where its routing is deadlock-free
	// under it on its network (experiment.PresetScheme): a preset never turns deadlock
	// avoidance off where the network needs it.
	Deadlock string
	params   Params
}

// Params is the preset's engine parameters (Defaults() where the preset says nothing:
// warm-up, measurement, seed, watchdog, saturation tolerance).
func (p Preset) Params() Params { return p.params }

// Presets is the table of switch presets: the one set of named switch models that
// run --switch and a spec's switch: key read.
func Presets() []Preset {
	return []Preset{threeDTPreset(), adaptivePreset(), cswitchPreset(), knsPreset(), extollPreset(), inseePreset(), bookSimPreset()}
}

// threeDTPreset is the 3DT papers' switch: the model's defaults (docs/model.md).
func threeDTPreset() Preset {
	return Preset{
		Name:    "3dt",
		Summary: "the 3DT papers (the defaults): 128 flits per input port, split among the VCs rounded up to a power of two (at least 4 under vc and on internal links), 4-flit packets",
		Source:  "[TR] §7.1, [J] §6.1",
		params:  Defaults(),
	}
}

// adaptivePreset is paper (b)'s switch (adaptive routing for nDT tori).
func adaptivePreset() Preset {
	p := Defaults()
	p.PortFlits, p.BufferSplit, p.PacketFlits = 1024, SplitEqual, 4
	return Preset{
		Name:    "adaptive",
		Summary: "paper (b), adaptive routing for nDT tori ([AR] §4.1): 1024 flits per input port split equally among the VCs the routing uses (DOR 2x512, DORT internal 4x256, adaptive 4x256 and 8x128), 4-flit packets",
		Source:  "[AR] §4.1, Table 3",
		params:  p,
	}
}

// LookupPreset finds a preset by name (case-insensitive).
func LookupPreset(name string) (Preset, error) {
	var names []string
	for _, p := range Presets() {
		if strings.EqualFold(p.Name, strings.TrimSpace(name)) {
			return p, nil
		}
		names = append(names, p.Name)
	}
	return Preset{}, fmt.Errorf("unknown switch preset %q: accepted are %s", name, strings.Join(names, ", "))
}

// cswitchPreset is the C-switch paper's model ([CS] §6.1, the thesis' first paper).
func cswitchPreset() Preset {
	p := Defaults()
	p.Switching = CutThrough
	p.VOQ = true
	p.PacketFlits = 32
	p.LinkLatency = 4
	p.InternalLatency = 2
	p.TerminalLatency = 4
	p.RoutingDelay = 4
	b := Buffer{VCs: 1, Flits: 8 * 32}
	p.Terminal, p.External, p.Internal = b, b, b
	return Preset{
		Name:     "cswitch",
		Summary:  "C-switch paper: input-queued switches with virtual output queues, 8-packet queues, InfiniBand-like links",
		Source:   "[CS] §6.1 (thesis lines 2050-2075)",
		Deadlock: "none",
		Stated: []string{
			"input-queued switch with virtual output queuing (VOQ) at switch level",
			"each queue stores eight packets",
			"InfiniBand links: serial, full-duplex, pipelined, 2.5 GB/s (20 Gbps)",
			"DESTRO routing, uniform traffic; the joining ports between the two chips are links",
		},
		Choices: []string{
			"virtual cut-through, one VC, credit-based flow control (InfiniBand's, with one virtual lane)",
			"a flit is 64 bytes and a cycle the 25.6 ns it takes on a 2.5 GB/s link: link bandwidth 1 flit/cycle",
			"packets of 32 flits (a 2 KB InfiniBand MTU)",
			"a queue is an input port's buffer, 8 packets (256 flits) organised as virtual output queues; the paper's 'each queue' may mean each VOQ, which would make the buffers k times larger",
			"link and PE-link latency 4 cycles (about 100 ns: cable and serialisation), the joining links between the two chips 2 cycles (on one board), routing delay 4 cycles",
			"no deadlock scheme: DESTRO is deadlock-free on its own",
		},
		params: p,
	}
}

// knsPreset is the KNS paper's model (Peñaranda et al., [KNS] §5.1).
func knsPreset() Preset {
	p := Defaults()
	p.Switching = CutThrough
	p.PacketFlits = 256
	p.RoutingDelay = 20
	p.LinkLatency = 8
	p.TerminalLatency = 1
	p.OutputFlits = 2 * 256
	b := Buffer{VCs: 1, Flits: 2 * 256}
	p.Terminal, p.External, p.Internal = b, b, b
	return Preset{
		Name:     "kns",
		Summary:  "KNS paper: virtual cut-through, 2-packet queues at every input and output port, Myrinet timing, 256-flit packets",
		Source:   "[KNS] §5.1 (seed 004, line 256)",
		Deadlock: "none",
		Stated: []string{
			"virtual cut-through switching; a full crossbar with queues of two packets at every input and every output port; credit-based flow control",
			"routing 20 cycles; switch and link bandwidth 1 flit/cycle; fly time 8 cycles (Myrinet, their ref. [16])",
			"RUFT's long links back to the routers: 8 cycles per stage (the kns family makes them s_h links long)",
			"256-flit packets",
		},
		Choices: []string{
			"one VC: the routings (Hybrid-DOR, DESTRO on fat-trees, fbdor) are deadlock-free without VCs",
			"a packet crosses the crossbar into its output queue in one cycle, with no routing decision there",
			"PE links 1 cycle: a KNS router sits on the node's NIC (the paper's cost model uses dual-port NICs as routers), so injection crosses no cable; the same for every network the paper compares, for a like-for-like model",
			"round-robin arbitration, as everywhere in twintorus",
		},
		params: p,
	}
}

// inseePreset is the twisted-tori paper's router, simulated there with INSEE (Cámara et
// al., [TT] §6.1): BlueGene/L-like, the buffers in
// packets of 16 phits, a phit being what a link moves per cycle (our flit).
func inseePreset() Preset {
	p := Defaults()
	p.Switching = CutThrough
	p.PacketFlits = 16
	p.Terminal = Buffer{VCs: 1, Flits: 8 * 16}
	p.External = Buffer{VCs: 3, Flits: 4 * 16}
	p.TransitPriority = true
	p.CrossbarPerVC = true
	p.ConsumeAll, p.ReserveOutputVCs = true, true
	return Preset{
		Name:     "insee",
		Summary:  "twisted-tori paper (INSEE): virtual cut-through, 3 VCs of 4 packets per link (a bubble escape VC and two adaptive ones), an 8-packet injection queue, transit before injection, 16-phit packets",
		Source:   "[TT] §6.1",
		Deadlock: "bubble",
		Stated: []string{
			"virtual cut-through, Bubble deadlock avoidance, 3 VCs per physical input port: one escape VC with deterministic routing and two fully adaptive ones (run with --routing twisted-adaptive)",
			"transit queues of 4 packets per VC; an injection queue of at most 8 packets",
			"in-transit traffic has priority over new injections (BlueGene/L's congestion control)",
			"16-phit packets; a link moves one phit per cycle and direction",
		},
		Choices: []string{
			"every input VC has its own crossbar input (BlueGene/L's switch), so the three VCs of a link forward concurrently",
			"as INSEE does (its source, github.com/navaridas/insee: arbitrate.c, perform_mov.c): output VCs are arbitrated, not output ports, so a packet may be granted an output VC while the link carries another VC's packet and crosses it right after (reserve_output_vcs); every input VC may eject at once (consume_all, INSEE's default \"multiple\" consumption)",
			"one injection port of one VC per node, one phit per cycle",
			"routing and link each take 1 cycle (the model's defaults): the paper gives no pipeline",
			"the adaptive VCs are chosen by the routing's selection function (--selection; the paper names none)",
			"Bernoulli injection per cycle, the discrete form of the paper's Poisson arrivals",
		},
		params: p,
	}
}

// extollPreset is the EXTOLL paper's card ([EXT] §2.1–2.2 and its EXTOLLsim model, §3;
// docs/model.md lists what is modelled and what is not).
func extollPreset() Preset {
	p := Defaults()
	p.Switching = CutThrough
	p.Allocator = Allocator{ISLIP: true, Iterations: 1}
	p.PortFlits, p.BufferSplit, p.PacketFlits, p.PacketLengths = 512, SplitEqual, 32, LengthsUniform
	p.VOQ = true
	return Preset{
		Name:    "extoll",
		Summary: "the EXTOLL paper's card: virtual cut-through, iSLIP with one iteration, input buffers organised as virtual output queues, 512 flits (16-byte cells) per input port split equally among the VCs the routing uses (TSDOR 4x128, DOR 2x256), packets of 1-32 cells (uniform lengths in open loop; messages cut into 32-cell packets and an unpadded last one in closed loop)",
		Source:  "[EXT] §2.1-2.2, §3",
		Stated: []string{
			"7-port cards: 6 link ports and a NIC port (half a 5DT node: 5 links and the internal link)",
			"virtual cut-through, credit-based flow control, a routing unit per input port",
			"iSLIP arbitration",
			"an IQ switch (buffers at the input ports only): \"EXTOLL implements VOQ at switch level; i.e, each packet is stored in a different queue depending on its output channel\" (§2.1); \"Once the routing process finishes, the packet is stored in the buffer\" (§3)",
			"4 traffic classes x 2 deterministic VCs, and a third VC for adaptive routing in two of the classes; a packet never changes class; TSDOR puts PE0's and PE1's packets in classes of their own",
			"variable-size packets of 1-32 cells of 16 bytes; a 16-byte message is a 1-cell packet, a 512-byte one a 32-cell packet (§4.2.1)",
		},
		Choices: []string{
			"iSLIP with one iteration (the paper gives none; islip:N changes it)",
			"a flit is one 16-byte cell",
			"adaptive routing (the paper's Adp. 3D torus) in one class with the third VC: 2 escape VCs and 1 adaptive VC per link (routing adaptive:vcs=1; the routing, not the preset, sets its VCs)",
			"virtual output queues in every input VC's buffer, for routings that give one port per hop (DOR, TSDOR): the paper's VOQ; runs whose routing has a choice (adaptive) keep first-in first-out VCs, since the engine's VOQ routes a packet once, on arrival, and an adaptive packet selects when it leaves (experiment.PresetVOQ); voq: false turns them off",
			"512 flits per input port, split equally among the VCs the routing uses (the static model closest to EXTOLL's dynamically shared buffer)",
			"open-loop packet lengths uniform over 1-32 cells (mean 16.5), drawn per packet (the paper gives no distribution; packet_lengths: fixed and packet_flits change it)",
			"link and routing latencies 1 cycle (the model's defaults)",
		},
		params: p,
	}
}

// bookSimPreset is BookSim2's input-queued router with its default router keys
// (booksim_config.cpp at commit 28f4329), as the booksim mapping models it
// (docs/booksim.md, "BookSim2's router, cycle by cycle"): the same parameters a
// BookSim2 configuration that leaves its router keys alone maps to.
func bookSimPreset() Preset {
	p := Defaults()
	p.Switching = Wormhole
	b := Buffer{VCs: 16, Flits: 8}
	p.Terminal, p.External, p.Internal = b, b, b
	// A channel of 1 cycle is read the cycle after it delivers.
	p.LinkLatency, p.TerminalLatency = 2, 2
	p.RoutingDelay, p.FrontDelay, p.SwitchAfterVC, p.CrossbarDelay = 1, 2, 1, 1
	p.ClassVCs, p.VCISLIP, p.SwitchISLIP = true, true, true
	p.EjectVCs = b.VCs
	p.KeepRingClass = true
	return Preset{
		Name:     "booksim",
		Summary:  "BookSim2's input-queued router with its default router keys: wormhole, 16 VCs of 8 flits, routing, VC allocation, switch allocation and switch traversal one cycle each, iSLIP (one iteration) for VCs and the switch, credits sent at switch allocation, channels of one cycle read the cycle after",
		Source:   "BookSim2 (Jiang et al., ISPASS 2013), src/routers/iq_router.cpp and src/booksim_config.cpp at commit 28f4329; docs/booksim.md",
		Deadlock: "vc",
		Stated: []string{
			"num_vcs = 16, vc_buf_size = 8, wait_for_tail_credit = 0, hold_switch_for_packet = 0",
			"routing_delay = 1, vc_alloc_delay = 1, sw_alloc_delay = 1, st_prepare_delay = 0, st_final_delay = 1, credit_delay = 0",
			"vc_allocator = islip, sw_allocator = islip, alloc_iters = 1, input and output speedup 1",
		},
		Choices: []string{
			"channels of 1 cycle (use_noc_latency = 0); BookSim2's tori take 2 with use_noc_latency = 1, which a configuration file maps",
			"our packets (4 flits) and traffic; BookSim2's default packet_size is 1",
			"dateline VCs (deadlock vc) where the routing needs a scheme: wormhole cannot use bubble flow control",
			"a routing's VC is a class: its share of the port's VCs, taken by iSLIP (class_vcs, vc_islip); routings with one candidate per hop only",
		},
		params: p,
	}
}
