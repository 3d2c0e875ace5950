package engine

import (
	"context"
	"math"
	"syscall"
	"testing"
	"time"

	"github.com/twintorus/twintorus/sim/routing"
)

// benchSteady measures steady-state speed: after a warm-up outside the timer (5000
// cycles, longer for packets longer than 4 flits), one op is 1000 cycles, so allocs/op is the allocation per 1000 cycles of
// steady state (it must be 0).
func benchSteady(b *testing.B, spec string, scheme routing.Scheme, load float64, p Params) {
	p.Load, p.Warmup, p.Measure = load, 0, 1<<40
	benchEngine(b, newRun(b, spec, scheme, "uniform", p))
}

// benchEngine warms e up for 5000 cycles, then times ops of 1000 cycles.
func benchEngine(b *testing.B, e *Engine) {
	for e.now < 5000*int64(max(1, e.p.PacketFlits/4)) { // long packets take longer to fill the network
		e.Step()
	}
	hops0, cycles0 := e.m.flitHops, e.now
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		for end := e.now + 1000; e.now < end; {
			e.Step()
		}
	}
	sec := time.Since(start).Seconds()
	b.StopTimer()
	if e.dl != nil {
		b.Fatal(e.dl)
	}
	b.ReportMetric(float64(e.m.flitHops-hops0)/sec, "flit-hops/s")
	b.ReportMetric(float64(e.now-cycles0)*float64(e.net.Switches())/sec, "switch-cycles/s")
}

// BenchmarkTorus8x8x8 is the engine's speed target: torus:8x8x8, DOR with 2 dateline
// VCs per link, 4-flit packets, uniform traffic at 0.2 flits/cycle/PE.
func BenchmarkTorus8x8x8(b *testing.B) {
	p := Defaults()
	p.External, p.Terminal = Buffer{VCs: 2, Flits: 64}, Buffer{VCs: 2, Flits: 64}
	benchSteady(b, "torus:8x8x8", routing.SchemeVC, 0.2, p)
}

// BenchmarkTwin4x4x4Saturated is configuration D near saturation under bubble flow
// control: the regime of the papers' figures.
func BenchmarkTwin4x4x4Saturated(b *testing.B) {
	benchSteady(b, "twin:4x4x4/D", routing.SchemeBubble, 0.4, Defaults())
}

// BenchmarkTwin4x4x4DatelinePastSaturation is configuration A under dateline VCs at
// 0.6, well past its saturation: most heads and NICs wait for room, the regime
// in which the configurations figure's highest loads spend their time.
func BenchmarkTwin4x4x4DatelinePastSaturation(b *testing.B) {
	benchSteady(b, "twin:4x4x4/A", routing.SchemeVC, 0.6, Defaults())
}

// BenchmarkTorus32x32x32 is a large network (32,768 switches) whose state does not fit
// in cache: the memory-bound regime.
func BenchmarkTorus32x32x32(b *testing.B) {
	p := Defaults()
	p.External, p.Terminal = Buffer{VCs: 2, Flits: 64}, Buffer{VCs: 2, Flits: 64}
	benchSteady(b, "torus:32x32x32", routing.SchemeVC, 0.02, p)
}

// BenchmarkTorus32x32x32Threads is BenchmarkTorus32x32x32 at 0.05 on 1 and 2 threads
// (Params.Threads): one simulation's allocation phase on several cores.
func BenchmarkTorus32x32x32Threads(b *testing.B) { benchThreads(b, "torus:32x32x32") }

// BenchmarkTorus64x32x32Threads is the large-network target (65,536 switches,
// uniform at 0.05) on 1 and 2 threads. Its warm-up alone takes minutes.
func BenchmarkTorus64x32x32Threads(b *testing.B) { benchThreads(b, "torus:64x32x32") }

func benchThreads(b *testing.B, spec string) {
	for _, threads := range []int{1, 2} {
		b.Run("threads="+string(rune('0'+threads)), func(b *testing.B) {
			p := Defaults()
			p.External, p.Terminal = Buffer{VCs: 2, Flits: 64}, Buffer{VCs: 2, Flits: 64}
			p.Threads = threads
			benchSteady(b, spec, routing.SchemeVC, 0.05, p)
		})
	}
}

// BenchmarkTorus8x8x8Wormhole is the target network under wormhole switching (flit by
// flit, the default 4 VCs × 32 flits per port) at 0.2 flits/cycle/PE.
func BenchmarkTorus8x8x8Wormhole(b *testing.B) {
	p := Defaults()
	p.Switching = Wormhole
	benchSteady(b, "torus:8x8x8", routing.SchemeVC, 0.2, p)
}

// BenchmarkTorus8x8x8OutputQueues is the target network with an output queue of two
// packets per port and VC: every packet-hop crosses two queues.
func BenchmarkTorus8x8x8OutputQueues(b *testing.B) {
	p := Defaults()
	p.External, p.Terminal = Buffer{VCs: 2, Flits: 64}, Buffer{VCs: 2, Flits: 64}
	p.OutputFlits = 8
	benchSteady(b, "torus:8x8x8", routing.SchemeVC, 0.2, p)
}

// BenchmarkTorus8x8x8VOQ is the target network with virtual output queues.
func BenchmarkTorus8x8x8VOQ(b *testing.B) {
	p := Defaults()
	p.External, p.Terminal = Buffer{VCs: 2, Flits: 64}, Buffer{VCs: 2, Flits: 64}
	p.VOQ = true
	benchSteady(b, "torus:8x8x8", routing.SchemeVC, 0.2, p)
}

// BenchmarkKNSPreset is the KNS paper's model (output queues, 256-flit packets) on
// kns:16,2,2,fattree (256 PEs) at 0.3 flits/cycle/PE, below its saturation.
func BenchmarkKNSPreset(b *testing.B) {
	pre, _ := LookupPreset("kns")
	benchSteady(b, "kns:16,2,2,fattree", routing.SchemeNone, 0.3, pre.Params())
}

// BenchmarkCSwitchPreset is the C-switch paper's model (virtual output queues, 32-flit
// packets) on the 1,024-node O-BMIN, ktree:4,5/cswitch, at 0.5 flits/cycle/PE.
func BenchmarkCSwitchPreset(b *testing.B) {
	pre, _ := LookupPreset("cswitch")
	benchSteady(b, "ktree:4,5/cswitch", routing.SchemeNone, 0.5, pre.Params())
}

// BenchmarkTorus8x8x8Adaptive is BenchmarkTorus8x8x8 under Duato's adaptive routing
// with the reference selection function: the cost of adaptivity. Same buffer per port
// (128 flits: 2 dateline escape VCs and 2 adaptive VCs of 32 flits), same traffic.
func BenchmarkTorus8x8x8Adaptive(b *testing.B) {
	p := Defaults()
	p.External, p.Terminal = Buffer{VCs: 4, Flits: 32}, Buffer{VCs: 2, Flits: 64}
	benchAdaptive(b, "torus:8x8x8", "ref", 0.2, p)
}

// BenchmarkTwin4x4x4AdaptiveSaturated is adaptive routing with 3 priority on the
// 128-PE 3DT torus beyond saturation (0.6): most heads wait for room every cycle.
func BenchmarkTwin4x4x4AdaptiveSaturated(b *testing.B) {
	benchAdaptive(b, "twin:4x4x4", "3prio", 0.6, Defaults())
}

func benchAdaptive(b *testing.B, spec, selection string, load float64, p Params) {
	p.Load, p.Warmup, p.Measure = load, 0, 1<<40
	benchEngine(b, newAdaptive(b, spec, routing.SchemeVC, selection, "uniform", p))
}

// BenchmarkAlltoall1024 is a closed-loop run from start to finish: a 1024-task
// all-to-all (Open MPI's pairwise exchange) of 512-byte messages on torus:16x8x8, one
// task per PE, 16-byte flits (8 packets per message), DOR with dateline VCs. One op
// is the whole run; the workload is built once, outside the timer.
func BenchmarkAlltoall1024(b *testing.B) {
	w := buildWorkload(b, "alltoall:pairwise:512B", 1024)
	p := Defaults()
	var cycles, messages int64
	b.ReportAllocs()
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuSeconds()
	for i := 0; i < b.N; i++ {
		e, _ := closedRun(b, "torus:16x8x8", w, routing.SchemeVC, p)
		r, err := e.Run(context.Background())
		if err != nil || r.Deadlock != nil {
			b.Fatal(err, r.Deadlock)
		}
		cycles += r.Closed.ExecutionCycles
		messages += r.Closed.Messages
	}
	sec, cpu := time.Since(start).Seconds(), cpuSeconds()-cpu0
	b.ReportMetric(float64(cycles)/sec, "cycles/s")
	b.ReportMetric(float64(messages)/sec, "messages/s")
	// On a shared machine the wall clock measures the others too; the process's CPU
	// time (user and system, all threads) does not.
	b.ReportMetric(float64(cycles)/cpu, "cycles/cpu-s")
	b.ReportMetric(float64(messages)/cpu, "messages/cpu-s")
	b.ReportMetric(float64(cycles)/float64(b.N), "execution-cycles")
}

// cpuSeconds is the CPU time this process has used, user and system.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// BenchmarkTwin4x4x4SaturatedISLIP is BenchmarkTwin4x4x4Saturated under iSLIP with
// two iterations: the cost of the allocator against the two-stage round-robin one.
func BenchmarkTwin4x4x4SaturatedISLIP(b *testing.B) {
	p := Defaults()
	p.Allocator = Allocator{ISLIP: true, Iterations: 2}
	benchSteady(b, "twin:4x4x4/D", routing.SchemeBubble, 0.4, p)
}

// BenchmarkTwin4x4x4SaturatedUniformLengths is BenchmarkTwin4x4x4Saturated with packets
// of 1 to 8 flits (uniform lengths, mean 4.5): the cost of variable lengths.
func BenchmarkTwin4x4x4SaturatedUniformLengths(b *testing.B) {
	p := Defaults()
	p.PacketFlits, p.PacketLengths = 8, LengthsUniform
	benchSteady(b, "twin:4x4x4/D", routing.SchemeBubble, 0.4, p)
}

// BenchmarkTorus8x8x8BookSim is the target network with BookSim2's router (the booksim
// preset: wormhole, 4 VCs of 8 flits allocated per class, iSLIP for VCs and the switch,
// BookSim2's pipeline) at 0.225 flits/cycle/PE, below saturation: the configuration
// BENCHMARKS.md times against BookSim2 itself.
func BenchmarkTorus8x8x8BookSim(b *testing.B) {
	pre, _ := LookupPreset("booksim")
	benchSteady(b, "torus:8x8x8", routing.SchemeVC, 0.225, pre.Params())
}
