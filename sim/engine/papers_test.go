package engine

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// No configuration deadlocks under either scheme: twin:4x4x4, every configuration A–J,
// uniform traffic at twice the analytic saturation bound (an upper bound of the real
// saturation load), 40,000 cycles (100,000 under TWINTORUS_LONG=1, make test-long).
// Accepted traffic is measured over four windows and must hold its plateau: no window
// below 80 % of the best one.
func TestNoDeadlockBeyondSaturation(t *testing.T) {
	if testing.Short() {
		t.Skip("40,000 cycles x 20 runs; run without -short")
	}
	cycles := acceptanceCycles(40000)
	for l := 'A'; l <= 'J'; l++ {
		spec := fmt.Sprintf("twin:4x4x4/%c", l)
		net := topology.MustNew(spec)
		bound, err := analysis.Load(context.Background(), routing.NewDOR(net, routing.TiePlus))
		if err != nil {
			t.Fatal(err)
		}
		for _, scheme := range []routing.Scheme{routing.SchemeVC, routing.SchemeBubble} {
			load := 2 * bound.Bound
			e := newRun(t, spec, scheme, "uniform", params(load, 0, cycles, 1))
			what := fmt.Sprintf("%s %s at load %.3f", spec, scheme, load)
			windows := acceptedWindows(t, e, cycles, what)
			checkThroughputHeld(t, windows, what+": ")
			t.Logf("%s %-6s offered %.3f, accepted per window %.4f %.4f %.4f %.4f (bound %.4f)",
				spec, scheme, load, windows[0], windows[1], windows[2], windows[3], bound.Bound)
		}
	}
}

// Configurations matter as the papers say ([TR] §7.3, [Th] Fig. 1.5): twin:4x4x4 (128
// PEs), uniform, 4-flit packets, 128-flit input buffers, bubble: saturation throughput
// orders D > C > A, and D is at least 1.5 times A. Saturation throughput is the
// accepted traffic under an offered load far beyond saturation (0.8), which bubble
// flow control sustains without collapse.
func TestConfigurationsOrderSaturation(t *testing.T) {
	if testing.Short() {
		t.Skip("ten long runs; run without -short")
	}
	sat := map[rune]float64{}
	for l := 'A'; l <= 'J'; l++ {
		spec := fmt.Sprintf("twin:4x4x4/%c", l)
		e := newRun(t, spec, routing.SchemeBubble, "uniform", params(0.8, 10000, 40000, 1))
		r, err := e.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if r.Deadlock != nil || !r.Saturated {
			t.Fatalf("%s: deadlock %v, saturated %v at offered 0.8", spec, r.Deadlock, r.Saturated)
		}
		sat[l] = r.Accepted
		t.Logf("%s bubble: saturation throughput %.4f flits/cycle/PE", spec, r.Accepted)
	}
	if !(sat['D'] > sat['C'] && sat['C'] > sat['A']) || sat['D'] < 1.5*sat['A'] {
		t.Errorf("saturation throughput D %.4f, C %.4f, A %.4f: want D > C > A and D >= 1.5 A (D/A = %.2f)", sat['D'], sat['C'], sat['A'], sat['D']/sat['A'])
	}
	t.Logf("D/A = %.2f (thesis: practically twice)", sat['D']/sat['A'])
}

// A torus:64x64x64 (262,144 switches) run of 2,000 cycles at low load fits in 4 GB.
func TestMemoryLargeTorus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 262,144-switch network; run without -short")
	}
	runtime.GC()
	// 500 cycles: the memory is the network's (1.5 GiB either way); 2,000 cycles took
	// twice the time to find the same (issue 37).
	e := newRun(t, "torus:64x64x64", routing.SchemeVC, "uniform", params(0.002, 0, 500, 1))
	r, err := e.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("torus:64x64x64: %d packets delivered, %d flit-hops in %.1f s; memory obtained from the OS %.2f GiB (heap in use %.2f GiB)",
		r.PacketsDelivered, r.FlitHops, r.Elapsed, float64(ms.Sys)/(1<<30), float64(ms.HeapInuse)/(1<<30))
	if ms.Sys > 4<<30 {
		t.Errorf("the run took %.2f GiB from the OS, more than 4", float64(ms.Sys)/(1<<30))
	}
	if r.PacketsDelivered == 0 || r.Deadlock != nil {
		t.Errorf("delivered %d, deadlock %v", r.PacketsDelivered, r.Deadlock)
	}
}
