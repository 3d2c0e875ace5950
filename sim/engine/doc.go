// Package engine owns the cycle-accurate simulation of an interconnection network:
// input-queued switches with virtual channels, credit-based flow control, virtual
// cut-through (default) or wormhole switching, bubble flow control, two-stage
// round-robin allocation, NICs with unbounded source queues, metrics, and a deadlock
// watchdog. It runs open-loop traffic for a measurement window, or a closed-loop
// Program (package workload's tasks and their MPI programs) to its end.
//
// The engine knows nothing about tori. It moves flits between ports and VCs of a
// topology.Network; a routing.Func says, once per packet per hop, which (output port,
// VC, bubble flag) candidates a head packet has, and a routing.Selector picks one when
// there are several. Open-loop traffic comes from a traffic.Pattern and traffic.Sizes; a
// closed-loop Program puts its messages in the same NIC source queues and hears of each
// delivery (see Program).
//
// Timing model (defaults in Defaults, described in docs/model.md; every value is a
// Params field):
//   - a flit crosses a link in LinkLatency cycles (InternalLatency for internal links);
//   - a head flit that arrives at cycle a may leave at a + RoutingDelay;
//   - crossbar: one flit per cycle per input port and per output port; an output port
//     carries one packet at a time, from head to tail;
//   - a credit returns to the upstream sender LinkLatency cycles after its flit left;
//   - packets are PacketFlits long, or under PacketLengths uniform 1 to PacketFlits
//     flits each (lengths.go);
//   - virtual cut-through: a packet starts only when the downstream VC has room for it
//     all (and for one more of the longest packets when the hop enters a ring under
//     bubble flow control);
//   - NICs inject at most one flit per cycle and eject one flit per cycle.
//
// A measurement window is checked for stationarity (stationary.go): when the accepted
// traffic of its batches drifts, the window becomes warm-up and the run measures the
// next one, up to Params.StationaryWindows.
//
// Source queues are unbounded in the model and latency runs from generation; in
// memory a queue keeps 32 bytes per waiting message up to a cap, beyond which the PE
// draws its traffic lazily in the same law (source.go). Runs shorter than about
// packet length × cap cycles never reach the cap. Sizes are checked before anything is
// allocated, against the engine's limits and the machine's memory (limits.go).
//
// Flit timing is exact: flits move one per cycle through per-VC counters, and credits
// and arrivals are events on a timing wheel. Bookkeeping is per packet: routing and
// allocation happen once per packet per hop, and there is no allocation per flit or per
// packet in steady state.
//
// Because every effect of a cycle becomes visible one or more cycles later, switches
// are independent within a cycle: the order in which they are visited cannot change
// the result, and a run is bit-for-bit deterministic for a given seed. So a cycle's
// events, allocation and arrivals can run on several cores, region by region
// (Params.Threads, parallel.go), with the result of one, bit for bit.
//
// Where things are: a cycle (Engine.Step, engine.go) runs four phases, each in the file
// named after it — events.go (the timing wheel), inject.go (generation and NIC
// injection), allocate.go (switch allocation; routing decisions in route.go) and
// traverse.go (packets and flits crossing, entering the next VC) — with credits.go and
// deliver.go for what traversal sets off. One thread runs every phase itself; with
// threads, parallel.go runs the events and allocation phases region by region through
// the same functions. state.go holds the arrays the phases share and layout.go builds
// them; wormhole.go, islip.go, classvc.go and switch.go are the switching mode,
// allocator and switch presets that allocation consults; stats.go, stationary.go and
// deadlock.go measure and watch.
package engine
