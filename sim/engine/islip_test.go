package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/traffic"
)

func TestParseAllocator(t *testing.T) {
	for in, want := range map[string]string{"": "rr2", "rr2": "rr2", " RR2 ": "rr2", "islip": "islip:1", "iSLIP:3": "islip:3", "islip:64": "islip:64"} {
		a, err := ParseAllocator(in)
		if err != nil || a.String() != want {
			t.Errorf("ParseAllocator(%q) = %v, %v; want %s", in, a, err, want)
		}
		var back Allocator
		txt, _ := a.MarshalText()
		if err := back.UnmarshalText(txt); err != nil || back != a {
			t.Errorf("%q: text %q reads back as %v, %v", in, txt, back, err)
		}
	}
	if txt, _ := (Allocator{}).MarshalText(); len(txt) != 0 {
		t.Errorf("the default allocator writes %q; it must write nothing, so records keep their keys", txt)
	}
	for _, in := range []string{"islip:0", "islip:65", "islip:x", "rr2:2", "pim", "islip:"} {
		if _, err := ParseAllocator(in); err == nil || !strings.Contains(err.Error(), "accepted") && !strings.Contains(err.Error(), "iterations") {
			t.Errorf("ParseAllocator(%q): %v, want an error saying what is accepted", in, err)
		}
	}
	p := params(0.1, 0, 10, 1)
	p.Allocator, p.Switching = Allocator{ISLIP: true, Iterations: 1}, Wormhole
	if err := p.validate(); err == nil || !strings.Contains(err.Error(), "rr2") {
		t.Errorf("iSLIP under wormhole: %v", err)
	}
}

// crossbar is one switch with n PEs: input and output port i are PE i's.
func crossbar(t testing.TB, n int, a Allocator, vcs, packetFlits int) *Engine {
	t.Helper()
	b := topology.NewBuilder("crossbar")
	s := b.AddSwitch("")
	for i := 0; i < n; i++ {
		b.AttachPE(s)
	}
	net, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	rt, err := routing.New("min", net, routing.SchemeNone, routing.TiePlus)
	if err != nil {
		t.Fatal(err)
	}
	pat, err := traffic.ParsePattern("uniform", net)
	if err != nil {
		t.Fatal(err)
	}
	p := params(0, 0, 1<<20, 1)
	p.Allocator, p.PacketFlits = a, packetFlits
	p.Terminal = Buffer{VCs: vcs, Flits: 4 * packetFlits}
	e, err := New(Config{Net: net, Routing: rt, Pattern: pat, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// stage puts a packet from PE src to PE dst at the tail of src's input VC vc, ready
// next cycle (an allocation sees what became ready by events, not what a test lists).
func stage(e *Engine, src, dst, vc int) {
	at := e.net.Attachment(src)
	ivc := e.ports[e.net.PortID(int(at.Switch), int(at.Port))].vc0 + int32(vc)
	mi := e.newMessage()
	e.msgs[mi] = message{gen: e.now, remaining: 1, next: -1}
	pi := e.newPacket()
	e.pk[pi] = packet{src: int32(src), dst: int32(dst), msg: mi, next: -1, gen: e.now, inj: e.now}
	e.inNet++
	e.enqueue(ivc, pi, e.now+1)
}

// started lists the (input, output) pairs that started crossing in the cycle just
// stepped, as "in>out" by PE.
func started(e *Engine) string {
	var out []string
	for t := 0; t < e.net.Terminals(); t++ {
		at := e.net.Attachment(t)
		op := &e.ports[e.net.PortID(int(at.Switch), int(at.Port))]
		if op.outBusy == e.now-1+int64(e.L) && op.owner >= 0 {
			out = append(out, fmt.Sprintf("%d>%d", e.ports[op.owner].local, t))
		}
	}
	return strings.Join(out, " ")
}

// A hand-worked allocation on a 4x4 switch, every pointer at 0. Requests: input 0 to
// outputs 1 (its VC 0) and 2 (VC 1), input 1 to 2, input 2 to 1 (VC 0) and 3 (VC 1).
//
//	grant:  output 1 (requests 0, 2) grants 0; output 2 (0, 1) grants 0; output 3 grants 2
//	accept: input 0 (grants 1, 2) accepts 1; input 2 accepts 3      -> 0>1, 2>3
//	second iteration: input 1 and output 2 are free, 1 requests 2  -> 1>2
//
// The two-stage round-robin instead lets each input pick one VC first (0: VC 0 to 1;
// 1: to 2; 2: VC 0 to 1) and output 1 grants input 0: 0>1, 1>2. Pointers move only
// for first-iteration matches.
func TestISLIPByHand(t *testing.T) {
	for _, c := range []struct {
		alloc string
		want  string
	}{{"islip:1", "0>1 2>3"}, {"islip:2", "0>1 1>2 2>3"}, {"islip:4", "0>1 1>2 2>3"}, {"rr2", "0>1 1>2"}} {
		a, _ := ParseAllocator(c.alloc)
		e := crossbar(t, 4, a, 2, 1)
		stage(e, 0, 1, 0)
		stage(e, 0, 2, 1)
		stage(e, 1, 2, 0)
		stage(e, 2, 1, 0)
		stage(e, 2, 3, 1)
		e.Step() // the heads become ready at the next cycle
		e.Step()
		if got := started(e); got != c.want {
			t.Errorf("%s: started %s, want %s", c.alloc, got, c.want)
		}
		if !a.ISLIP {
			continue
		}
		port := func(pe int) *portState {
			at := e.net.Attachment(pe)
			return &e.ports[e.net.PortID(int(at.Switch), int(at.Port))]
		}
		// Grant pointers one beyond the accepted input, accept pointers one beyond the
		// accepted output, for the first iteration's matches only.
		if port(1).outRR != 1 || port(3).outRR != 3 || port(2).outRR != 0 || port(0).acRR != 2 || port(2).acRR != 0 || port(1).acRR != 0 {
			t.Errorf("%s: grant pointers %d %d %d, accept pointers %d %d %d; want 1 3 0 and 2 0 0", c.alloc,
				port(1).outRR, port(3).outRR, port(2).outRR, port(0).acRR, port(2).acRR, port(1).acRR)
		}
	}
}

// iSLIP's best-known property: with every input holding packets for every output
// (the VC-per-output queues of McKeown's analysis, kept full), one iteration
// desynchronises the grant pointers within N cycles and then matches every input to
// an output every cycle: 100 % throughput.
func TestISLIPSaturatedFullThroughput(t *testing.T) {
	const n = 8
	for _, c := range []struct {
		alloc string
		full  bool
	}{{"islip:1", true}, {"islip:3", true}, {"rr2", true}} { // rr2: its VC and grant pointers desynchronise too
		a, _ := ParseAllocator(c.alloc)
		e := crossbar(t, n, a, n, 1)
		refill := func() {
			for i := 0; i < n; i++ {
				at := e.net.Attachment(i)
				ps := &e.ports[e.net.PortID(int(at.Switch), int(at.Port))]
				for j := 0; j < n; j++ {
					for e.vcs[ps.vc0+int32(j)].qLen < 2 {
						stage(e, i, j, j)
					}
				}
			}
		}
		worst, total := n, 0
		for cycle := 0; cycle < 200; cycle++ {
			refill()
			e.Step()
			if m := strings.Count(started(e), ">"); cycle > n {
				worst = min(worst, m)
				total += m
			}
		}
		t.Logf("%s: %.3f matches per cycle, fewest %d", c.alloc, float64(total)/float64(200-n-1), worst)
		if c.full && worst != n {
			t.Errorf("%s: after %d cycles, some cycle matched only %d of %d inputs", c.alloc, n, worst, n)
		}
	}
}

// Input FIFOs (one VC per input) limit any allocator to the head-of-line bound: about
// 0.618 for 8 ports under uniform traffic (Karol, Hluchyj and Morgan 1987, N = 8),
// and more iterations cannot help; with many VCs per input iSLIP does better, and more
// with a second iteration.
func TestISLIPHeadOfLine(t *testing.T) {
	run := func(alloc string, vcs int) float64 {
		a, _ := ParseAllocator(alloc)
		e := crossbar(t, 8, a, vcs, 1)
		e.p.Load, e.p.Warmup, e.p.Measure = 0.95, 2000, 20000
		e.inj, _ = traffic.NewInjection(0.95, traffic.Sizes{}, 1)
		e.gen.init(e.net.Terminals(), e.inj.P())
		for t := 0; t < e.net.Terminals(); t++ {
			e.gen.add(int32(t), e.nextGen(-1), 0)
		}
		e.m.init(e)
		r, err := e.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return r.Accepted
	}
	for _, alloc := range []string{"rr2", "islip:1", "islip:4"} {
		if acc := run(alloc, 1); acc < 0.60 || acc > 0.64 {
			t.Errorf("%s with input FIFOs: accepted %.4f, the head-of-line bound is about 0.618", alloc, acc)
		}
	}
	one, two := run("islip:1", 32), run("islip:2", 32)
	if !(one > 0.7 && two > one+0.05) {
		t.Errorf("32 VCs per input: iSLIP accepts %.4f with one iteration, %.4f with two", one, two)
	}
}

// Under iSLIP too the engine's shortcuts (packet level, wake-ups) give the plain
// model's results bit for bit, and the invariants hold every cycle.
func TestISLIPShortcutsMatchPlainModel(t *testing.T) {
	for _, c := range []struct {
		spec   string
		scheme routing.Scheme
		load   float64
		alloc  string
	}{
		{"torus:8x8", routing.SchemeVC, 0.9, "islip:1"},
		{"torus:4x4x4@2", routing.SchemeBubble, 0.5, "islip:2"},
		{"twin:4x4x4/A", routing.SchemeVC, 0.5, "islip:1"},
		{"twin:4x4x2", routing.SchemeVC, 0.8, "islip:3"},
		{"torus:3x3@62", routing.SchemeVC, 0.3, "islip:2"}, // 66 ports: wider than the ready masks
	} {
		a, _ := ParseAllocator(c.alloc)
		run := func(packetLevel, everyCycle bool) *Result {
			p := params(c.load, 500, 3000, 11)
			p.Channels, p.Allocator = true, a
			e := newRun(t, c.spec, c.scheme, "uniform", p)
			e.packetLevel, e.allocEveryCycle = packetLevel, everyCycle
			if !packetLevel && c.spec == "twin:4x4x2" {
				for e.now < 1500 { // every flit visible: the invariants every cycle
					e.Step()
					if err := e.check(); err != nil {
						t.Fatalf("%s %s: %v", c.spec, c.alloc, err)
					}
				}
			}
			return runClean(t, e)
		}
		ref := matchesPlainModel(t, fmt.Sprintf("%s %s load %g", c.spec, c.alloc, c.load), run)
		// And iSLIP is not the two-stage allocator under another name.
		r2 := runClean(t, newRun(t, c.spec, c.scheme, "uniform", params(c.load, 500, 3000, 11)))
		if c.load >= 0.5 && diffFields(*r2, *ref) == "" {
			t.Errorf("%s load %g: %s gives the two-stage allocator's results exactly", c.spec, c.load, c.alloc)
		}
	}
}
