package engine

import (
	"context"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/workload"
)

// closedRun builds a closed-loop engine for a workload spec on a network, tasks
// mapped linearly, 16-byte flits.
func closedRun(t testing.TB, spec string, w *workload.Workload, scheme routing.Scheme, p Params) (*Engine, *workload.Run) {
	t.Helper()
	net := topology.MustNew(spec)
	rt, err := routing.New(routing.Default(net), net, scheme, routing.TiePlus)
	if err != nil {
		t.Fatal(err)
	}
	pe, err := workload.Mapping{}.Place(w.Tasks(), net.Terminals(), 1)
	if err != nil {
		t.Fatal(err)
	}
	r, err := workload.NewRun(w, pe, workload.RunConfig{FlitBytes: 16, PacketFlits: p.PacketFlits, Unpadded: p.PacketLengths != LengthsFixed})
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Config{Net: net, Routing: rt, Program: r, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	return e, r
}

func buildWorkload(t testing.TB, spec string, tasks int) *workload.Workload {
	t.Helper()
	s, err := workload.ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.Build(tasks)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// runClosed runs a workload spec on a network and returns the result.
func runClosed(t testing.TB, net, spec string, scheme routing.Scheme, p Params) (*Result, *workload.Run) {
	t.Helper()
	w := buildWorkload(t, spec, topology.MustNew(net).Terminals())
	e, r := closedRun(t, net, w, scheme, p)
	res, err := e.Run(context.Background())
	if err != nil {
		t.Fatalf("%s on %s: %v", spec, net, err)
	}
	if res.Deadlock != nil {
		t.Fatalf("%s on %s: %v", spec, net, res.Deadlock)
	}
	return res, r
}

// Execution times of every collective on a 2-PE and a 4-PE network, against a hand
// calculation. The model at the defaults (4-flit packets, links of 1 cycle, routing
// decision of 1 cycle, a 16-byte message is one packet, 512 bytes eight):
//
//   - a NIC starts one packet every 4 cycles; a packet injected at cycle s is ready
//     to leave its first switch at s+2;
//   - a packet leaving a switch at t holds that output port and its input port for
//     [t, t+4) and is ready at the next switch at t+2; one leaving to its NIC at t is
//     delivered at t+4; a busy port or an earlier packet in the same VC makes it wait;
//   - so a one-packet message over H switch-to-switch hops takes 2H+6 cycles alone,
//     one of n packets 4(n−1) more;
//   - a task resumes in the cycle its message is delivered and may send in it.
//
// torus:2 is two switches: every message is one hop, and two messages between the
// PEs use different ports. torus:4 is a ring 0-1-2-3: ±1 is one hop, +2 is two hops
// in the + direction (ties go +).
func TestProgramExecutionTimesByHand(t *testing.T) {
	cases := []struct {
		net, spec string
		want      int64
		why       string
	}{
		// Two PEs: one message, or two at once in opposite directions, is 2·1+6 = 8
		// cycles, 8 packets 4·7+8 = 36; reduce + broadcast is two in a row.
		{"torus:2", "bcast:binomial:16B", 8, "0→1"},
		{"torus:2", "bcast:binomial:512B", 36, "0→1, 8 packets"},
		{"torus:2", "bcast:chain:16B", 8, "0→1"},
		{"torus:2", "bcast:pipeline:512B", 36, "0→1, 8 packets"},
		{"torus:2", "reduce:binomial:16B", 8, "1→0"},
		{"torus:2", "reduce:binomial:512B", 36, "1→0"},
		{"torus:2", "allgather:ring:512B", 36, "0→1 and 1→0 at once"},
		{"torus:2", "allgather:recursive_doubling:16B", 8, "exchange"},
		{"torus:2", "allgather:bruck:512B", 36, "exchange"},
		{"torus:2", "alltoall:pairwise:16B", 8, "exchange"},
		{"torus:2", "alltoall:linear:512B", 36, "exchange"},
		{"torus:2", "allreduce:recursive_doubling:512B", 36, "exchange"},
		{"torus:2", "allreduce:nonoverlapping:16B", 16, "1→0 then 0→1"},
		{"torus:2", "allreduce:nonoverlapping:512B", 72, "1→0 then 0→1"},
		{"torus:2", "gather:binomial:16B", 8, "1→0"},
		{"torus:2", "allgather:linear:16B", 16, "1→0, then 0→1 with both blocks"},
		{"torus:2", "allgather:linear:512B", 104, "1→0 (36), then 1 KiB, 16 packets, 0→1: 4·15+8"},
		{"torus:2", "scatter:binomial:512B", 36, "0→1"},

		// Binomial broadcast: 0→1 delivered at 8; 0→2 injected at 4, leaves switch 0 at
		// 6, switch 1 at 8 (holding 1+ over [8,12)), delivered at 14; 1→3 injected at 8
		// is ready at switch 1 at 10, waits for 1+ until 12, leaves switch 2 at 14 and
		// is delivered at 20.
		{"torus:4", "bcast:binomial:16B", 20, "0→1, 0→2; 1→3 waits for 1+"},
		// 512 B: 0→1's 8 packets are delivered by 36; 0→2's leave switch 0 at 34+4k;
		// from 38 on, 1→3's packets compete with them for 1+ at switch 1 and round robin
		// alternates (0→2's first packet took 1+ at 36, so 1→3's goes at 40): 0→2's
		// leave switch 1 at 36, 44, …, 92 and 1→3's at 40, 48, …, 96; the last leaves
		// switch 2 at 98 and is delivered at 102+2 = 104.
		{"torus:4", "bcast:binomial:512B", 104, "1+ shared packet by packet"},
		// Chain with 4 chains over 4 PEs is three chains of one: 0 sends to 1, 2, 3 at
		// 0, 4, 8; 0→3 is one hop the − way: 8+2+6 = 16.
		{"torus:4", "bcast:chain:16B", 16, "0→1, 0→2, 0→3"},
		// Pipeline: 0→1→2→3, 8 cycles each.
		{"torus:4", "bcast:pipeline:16B", 24, "three hops in a row"},
		// Reduce on the in-order tree 1→0, 3→2, then 2→0: 1→0 and 3→2 at 8; 2→0 goes
		// 2+, 3+ (two hops): 8+10 = 18.
		{"torus:4", "reduce:binomial:16B", 18, "1→0, 3→2, then 2→0"},
		// Ring: three steps of r→r+1 on distinct ports, 8 each.
		{"torus:4", "allgather:ring:16B", 24, "3 × 8"},
		// Recursive doubling: r↔r^1 (distinct ports) at 8; then r→r^2 = r+2, all four
		// the + way: each leaves its switch at 10, waits at the next for r+1's own
		// packet on the + port until 14, and at the last switch the input port is
		// held until 18 by the packet that waited ahead of it in the same VC; leaving
		// to the NIC at 18, delivered at 22.
		{"torus:4", "allgather:recursive_doubling:16B", 22, "8, then four +2 messages at once"},
		// Bruck: r→r−1 (distinct ports) at 8, then r→r−2 = r+2 with two blocks, as above.
		{"torus:4", "allgather:bruck:16B", 22, "as recursive doubling"},
		{"torus:4", "allreduce:recursive_doubling:16B", 22, "as recursive doubling"},
		// Pairwise: +1 at 8, +2 as above at 22, then +3 = −1 on distinct ports: 30.
		{"torus:4", "alltoall:pairwise:16B", 30, "8, 22, 30"},
		// Linear: every rank sends to r−1 at 0 (delivered 8), to r+2 at 4 and to r+1 at
		// 8. The +2 packets leave at 6, wait at the next switch for its own +2 packet
		// until 10, and leave to the NIC at 14 (input held by the one ahead): 18. The
		// +1 packets are ready at 10 but lose the + port to the +2 packet passing
		// through (round robin: the terminal had the last grant), leave at 14 and wait
		// at the next switch for its ejection port and input until 18: delivered 22.
		{"torus:4", "alltoall:linear:16B", 22, "8, 18, 22"},
		// Reduce (18) then the broadcast from 0 on an empty network (20): 38.
		{"torus:4", "allreduce:nonoverlapping:16B", 38, "18 + 20"},
		// Gather: 1→0 and 3→2 at 8, then 2→0 with two blocks (one packet) as reduce.
		{"torus:4", "gather:binomial:16B", 18, "as reduce"},
		// Linear allgather: the gather (18), then a broadcast of 4 blocks (64 bytes, one
		// packet) from 0 on an empty network (20).
		{"torus:4", "allgather:linear:16B", 38, "18 + 20"},
		// Scatter: 0→2 (two blocks, first: the larger subtree) delivered at 10; 0→1
		// injected at 4, delivered at 12; 2→3 from 10: 18.
		{"torus:4", "scatter:binomial:16B", 18, "0→2, 0→1, then 2→3"},
	}
	for _, c := range cases {
		for _, scheme := range []routing.Scheme{routing.SchemeBubble, routing.SchemeVC} {
			res, r := runClosed(t, c.net, c.spec, scheme, Defaults())
			if got := res.Closed.ExecutionCycles; got != c.want || r.Stats().ExecutionCycles != got {
				t.Errorf("%s on %s (%s): %d cycles (the program says %d), by hand %d (%s)", c.spec, c.net, scheme, got, r.Stats().ExecutionCycles, c.want, c.why)
			}
		}
	}
}

// A single message on an empty network takes the engine's zero-load latency for its
// size: the injection link, a routing decision and a link per switch, L−1 cycles for
// the tail, and L cycles per packet before the last (the NIC sends one flit per cycle).
func TestProgramSingleMessageIsZeroLoadLatency(t *testing.T) {
	for _, c := range []struct {
		net      string
		lat, rd  int
		src, dst int
		bytes    int64
	}{
		{"torus:8x8x8", 1, 1, 0, 511, 16},
		{"torus:8x8x8", 1, 1, 3, 300, 512},
		{"torus:8x8x8", 3, 2, 17, 200, 4096},
		{"twin:4x4x2x2x2/cbest", 1, 1, 0, 255, 16},
		{"twin:4x4x2x2x2/cbest", 1, 1, 6, 129, 512},
		{"twin:4x4x2x2x2/cbest", 2, 0, 1, 0, 100},
		{"mesh:5x4", 1, 1, 19, 0, 1000},
	} {
		net := topology.MustNew(c.net)
		b, _ := workload.NewBuilder(net.Terminals())
		b.Send(c.src, c.dst, c.bytes)
		b.Recv(c.dst, c.src)
		w, err := b.Build("one message")
		if err != nil {
			t.Fatal(err)
		}
		p := Defaults()
		p.LinkLatency, p.RoutingDelay = c.lat, c.rd
		e, _ := closedRun(t, c.net, w, routing.SchemeBubble, p)
		res, err := e.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		hops := len(routing.NewDOR(net, routing.TiePlus).Path(c.src, c.dst, nil)) - 1
		packets := workload.RunConfig{FlitBytes: 16, PacketFlits: p.PacketFlits}.Packets(c.bytes)
		L := int64(p.PacketFlits)
		want := int64(c.lat) + int64(hops+1)*int64(c.rd+c.lat) + L - 1 + (packets-1)*L
		if got := res.Closed.ExecutionCycles; got != want {
			t.Errorf("%s, %d→%d (%d hops), %d bytes, link %d, routing %d: %d cycles, zero-load latency %d",
				c.net, c.src, c.dst, hops, c.bytes, c.lat, c.rd, got, want)
		}
		// Per flit: every flit crosses in the head's time; the switches on the path
		// deliver L flits per packet each.
		if f, pk := res.Closed.LatencyNetworkFlit.Mean, res.LatencyNetwork.Mean; f != pk-float64(L-1) {
			t.Errorf("%s: flit network latency %g, packet %g", c.net, f, pk)
		}
		if got, want := res.Closed.SwitchUtilisation*float64(net.Switches()), float64(int64(hops+1)*L*packets); got != want {
			t.Errorf("%s: switches busy %g cycles in all, want %g", c.net, got, want)
		}
		if res.Closed.SwitchUtilisationMax != float64(L*packets) {
			t.Errorf("%s: busiest switch %g cycles, want %d", c.net, res.Closed.SwitchUtilisationMax, L*packets)
		}
	}
}

// The engine's shortcuts hold for closed-loop runs too: packet-level timing, the
// wake-ups and the jump over idle cycles to the program's next event give exactly
// what the plain model gives (every flit moved one by one, every switch allocating
// every cycle, every cycle stepped).
func TestProgramShortcutsMatchPlainModel(t *testing.T) {
	cases := []struct {
		net, spec string
		scheme    routing.Scheme
		sw        Switching
		perPE     int
	}{
		{"torus:4x4", "alltoall:linear:512B", routing.SchemeVC, CutThrough, 1},
		{"torus:4x4", "bcast:binomial:4KiB:seg=1KiB", routing.SchemeBubble, CutThrough, 1},
		{"twin:2x2x2/cbest", "allgather:ring:512B", routing.SchemeVC, CutThrough, 1},
		{"twin:4x2x2/cbest", "graph500:levels=2,compute=50", routing.SchemeBubble, CutThrough, 2},
		{"mesh:4x3", "alltoall:pairwise:100B", routing.SchemeVC, CutThrough, 1},
		{"torus:4x4", "alltoall:pairwise:512B", routing.SchemeVC, Wormhole, 1},
		{"twin:2x2x2/cbest", "namd:iterations=2,compute=30,tasks=16", routing.SchemeVC, Wormhole, 2},
	}
	for _, c := range cases {
		net := topology.MustNew(c.net)
		w := buildWorkload(t, c.spec, net.Terminals()*c.perPE)
		run := func(packetLevel, everyCycle, stepAll bool) *Result {
			p := Defaults()
			p.Switching = c.sw
			p.Channels = true
			if c.sw == Wormhole {
				p.External, p.Terminal, p.Internal = Buffer{VCs: 4, Flits: 3}, Buffer{VCs: 2, Flits: 3}, Buffer{VCs: 8, Flits: 3}
			}
			rt, _ := routing.New(routing.Default(net), net, c.scheme, routing.TiePlus)
			pe, _ := workload.Mapping{Kind: workload.Random, TasksPerPE: c.perPE}.Place(w.Tasks(), net.Terminals(), 5)
			r, err := workload.NewRun(w, pe, workload.RunConfig{FlitBytes: 16, PacketFlits: p.PacketFlits, LocalCycles: 3})
			if err != nil {
				t.Fatal(err)
			}
			e, err := New(Config{Net: net, Routing: rt, Program: r, Params: p})
			if err != nil {
				t.Fatal(err)
			}
			e.packetLevel = packetLevel && c.sw == CutThrough
			e.allocEveryCycle, e.stepEveryCycle = everyCycle, stepAll
			res, err := e.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if res.Deadlock != nil {
				t.Fatalf("%s on %s: %v", c.spec, c.net, res.Deadlock)
			}
			res.Elapsed = 0
			return res
		}
		ref := run(false, true, true)
		for _, v := range []struct {
			name                    string
			packet, every, stepping bool
		}{{"flit level with wake-ups and skips", false, false, false}, {"packet level", true, true, true}, {"packet level with wake-ups and skips", true, false, false}} {
			if d := diffFields(*run(v.packet, v.every, v.stepping), *ref); d != "" {
				t.Errorf("%s on %s (%s, %s): %s differs from the plain model in %s", c.spec, c.net, c.scheme, c.sw, v.name, d)
			}
		}
		if ref.Closed.ExecutionCycles <= 0 || ref.PacketsDelivered == 0 {
			t.Errorf("%s on %s: nothing ran (%+v)", c.spec, c.net, ref.Closed)
		}
	}
}

// Tasks sharing a PE talk through memory: LocalCycles per message, no network.
func TestProgramLocalMessages(t *testing.T) {
	b, _ := workload.NewBuilder(4)
	b.Send(0, 1, 512) // tasks 0 and 1 share PE 0
	b.Recv(1, 0)
	b.Compute(1, 10)
	b.Send(1, 0, 512)
	b.Recv(0, 1)
	w, err := b.Build("local")
	if err != nil {
		t.Fatal(err)
	}
	net := topology.MustNew("torus:2")
	rt, _ := routing.New(routing.Default(net), net, routing.SchemeBubble, routing.TiePlus)
	pe, _ := workload.Mapping{TasksPerPE: 2}.Place(4, 2, 1)
	r, _ := workload.NewRun(w, pe, workload.RunConfig{PacketFlits: 4, LocalCycles: 25})
	e, err := New(Config{Net: net, Routing: rt, Program: r, Params: Defaults()})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Closed; c.Messages != 2 || c.LocalMessages != 2 || c.Bytes != 1024 {
		t.Errorf("local ping-pong: %d messages, %d local, %d bytes; want 2, 2, 1024", c.Messages, c.LocalMessages, c.Bytes)
	}
	if res.Closed.ExecutionCycles != 25+10+25 || res.PacketsDelivered != 0 || r.Stats().LocalMessages != 2 {
		t.Errorf("local ping-pong: %d cycles (want 60), %d packets through the network", res.Closed.ExecutionCycles, res.PacketsDelivered)
	}
}

// A closed-loop run that deadlocks stops and names the cycle, as an open-loop one
// does: a linear all-to-all on a ring of 8 without deadlock avoidance fills the x+
// channels (8-flit buffers) in a cycle; with dateline VCs or bubble flow control (and
// the default buffers, which the VCs split) the same workload ends.
func TestProgramDeadlockNamed(t *testing.T) {
	p := Defaults()
	p.PortFlits, p.Watchdog = 8, 2000
	w := buildWorkload(t, "alltoall:linear:512B", 8)
	e, _ := closedRun(t, "torus:8", w, routing.SchemeNone, p)
	res, err := e.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Deadlock == nil || len(res.Deadlock.Channels) != 8 || res.Closed == nil || res.Closed.ExecutionCycles != -1 {
		t.Fatalf("no avoidance: deadlock %v, closed-loop %+v", res.Deadlock, res.Closed)
	}
	for _, scheme := range []routing.Scheme{routing.SchemeVC, routing.SchemeBubble} {
		e, r := closedRun(t, "torus:8", w, scheme, Defaults())
		res, err := e.Run(context.Background())
		if err != nil || res.Deadlock != nil || res.Closed.ExecutionCycles <= 0 || r.Stats().Messages != 56 {
			t.Errorf("%s: %v, deadlock %v, %+v", scheme, err, res.Deadlock, res.Closed)
		}
	}
}

// Closed-loop switch utilisation counts a network switch's flits once with the switch
// features of the presets: an output queue delivers for the switch it belongs to, and
// a packet chosen from a virtual output queue counts as any other. One message, as in
// TestProgramSingleMessageIsZeroLoadLatency: every switch on its path delivers L
// flits per packet.
func TestProgramSwitchUtilisationWithOutputQueuesAndVOQ(t *testing.T) {
	for _, c := range []struct {
		net      string
		src, dst int
	}{{"torus:8x8x8", 3, 300}, {"mesh:5x4", 19, 0}} {
		net := topology.MustNew(c.net)
		for _, variant := range []string{"output queues", "voq"} {
			b, _ := workload.NewBuilder(net.Terminals())
			b.Send(c.src, c.dst, 512)
			b.Recv(c.dst, c.src)
			w, err := b.Build("one message")
			if err != nil {
				t.Fatal(err)
			}
			p := Defaults()
			if variant == "voq" {
				p.VOQ = true
			} else {
				p.OutputFlits = 2 * p.PacketFlits
			}
			e, _ := closedRun(t, c.net, w, routing.SchemeBubble, p)
			res, err := e.Run(context.Background())
			if err != nil || res.Deadlock != nil {
				t.Fatal(err, res.Deadlock)
			}
			hops := len(routing.NewDOR(net, routing.TiePlus).Path(c.src, c.dst, nil)) - 1
			packets := workload.RunConfig{FlitBytes: 16, PacketFlits: p.PacketFlits}.Packets(512)
			L := int64(p.PacketFlits)
			if got, want := res.Closed.SwitchUtilisation*float64(net.Switches()), float64(int64(hops+1)*L*packets); got != want {
				t.Errorf("%s %s: switches busy %g cycles in all, want %g", c.net, variant, got, want)
			}
			if res.Closed.SwitchUtilisationMax != float64(L*packets) {
				t.Errorf("%s %s: busiest switch %g cycles, want %d", c.net, variant, res.Closed.SwitchUtilisationMax, L*packets)
			}
		}
	}
}
