package figures

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/experiment"
)

// The stored runs of the recorded programs: every spec's curves, the replays' message
// counts those of the imported traces (trace import's report: PTRANS 15,387 messages
// with its collectives kept, RandomAccess 18,192), and the comparisons' reductions
// recomputed from the rows by hand for one pair.
func TestRealTracesStored(t *testing.T) {
	rows, g, err := RealTraces(context.Background(), Stored, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.About) != len(RealSpecs) {
		t.Errorf("%d specs loaded, want %d", len(g.About), len(RealSpecs))
	}
	const tr = "trace:datasets/traces/otf2/"
	want := map[string]float64{tr + "ptrans-64.trace.gz": 15387, tr + "randomaccess-64.trace.gz": 18192, tr + "lammps-melt-64.trace.gz": 52239,
		tr + "ptrans-256.trace.gz": 81587, tr + "randomaccess-256.trace.gz": 224856,
		"ptrans:tasks=64": 5 * 56, "randomaccess:tasks=64,messages=16": 8 * 16 * 64, "namd:tasks=64,iterations=4": 4 * 6 * 64,
		"ptrans:tasks=256": 5 * 240, "randomaccess:tasks=256,messages=16": 8 * 16 * 256}
	var ndt3D, ndt5DT RealRow
	for _, r := range rows {
		if got := r.Metrics["messages"].Mean; got != want[r.Workload] {
			t.Errorf("%s on %s: %v messages, want %v", r.Workload, r.Topology, got, want[r.Workload])
		}
		if r.Metrics[experiment.ExecutionCycles].N != 5 {
			t.Errorf("%s on %s: %d replications, want 5", r.Workload, r.Topology, r.Metrics[experiment.ExecutionCycles].N)
		}
		if r.Switch == "nDT" && r.Real && r.App == "PTRANS" && r.Ranks == 64 {
			switch r.Topology {
			case "torus:16x8x8":
				ndt3D = r
			case "twin:4x4x2x4x4/cbest":
				ndt5DT = r
			}
		}
	}
	cs, err := RealComparisons(context.Background(), rows)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range cs {
		if c.App == "PTRANS" && c.Ranks == 64 && c.Switch == "nDT" && c.Other == "twin:4x4x2x4x4/cbest" && c.Metric == experiment.ExecutionCycles {
			found = true
			b, o := ndt3D.Metrics[experiment.ExecutionCycles].Mean, ndt5DT.Metrics[experiment.ExecutionCycles].Mean
			if want := 100 * (b - o) / b; math.Abs(c.Real.Percent-want) > 1e-9 {
				t.Errorf("PTRANS 5DT reduction %v, want %v", c.Real.Percent, want)
			}
			if c.PaperLow != 25 || c.MatchesPaper() == "–" || math.IsNaN(c.ProxyPaper.Percent) {
				t.Errorf("PTRANS 5DT against the paper: %+v", c)
			}
		}
	}
	if !found {
		t.Fatal("no PTRANS comparison of the 1,024-PE 5DT and 3D tori")
	}
	h, out := RealComparisonTable(cs)
	var b strings.Builder
	for _, r := range append([][]string{h}, out...) {
		b.WriteString(strings.Join(r, " | ") + "\n")
	}
	t.Log("\n" + b.String())
	for _, app := range RealApps {
		if _, err := RealNetworkBars(rows, app); err != nil {
			t.Error(err)
		}
		if _, err := RealBars(cs, app, experiment.ExecutionCycles); err != nil {
			t.Error(err)
		}
	}
}

// The verdicts on made-up reductions: within the intervals, of one sign, apart.
func TestRealVerdicts(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		real, proxy Reduction
		want        string
	}{
		{Reduction{20, 3}, Reduction{24, 4}, "yes"},
		{Reduction{20, 1}, Reduction{30, 1}, "sign"},
		{Reduction{20, 1}, Reduction{-10, 1}, "no"},
		{Reduction{1, 2}, Reduction{30, 1}, "no"},
		{Reduction{20, 2}, Reduction{5, 20}, "open"},
		{Reduction{10, nan}, Reduction{10, nan}, "yes"},
		{Reduction{nan, nan}, Reduction{10, 1}, "–"},
	} {
		if got := (RealComparison{Real: c.real, Proxy: c.proxy}).Predicts(); got != c.want {
			t.Errorf("real %v, proxy %v: %s, want %s", c.real, c.proxy, got, c.want)
		}
	}
	for _, c := range []struct {
		real, lo, hi float64
		want         string
	}{{22, 25, nan, "yes"}, {10, 25, nan, "partly"}, {-3, 25, nan, "no"}, {35, 20, 50, "yes"}, {16, 20, 50, "yes"}, {5, 20, 50, "partly"}, {0.5, 20, 50, "no"}} {
		got := (RealComparison{Real: Reduction{c.real, 1}, PaperLow: c.lo, PaperHigh: c.hi}).MatchesPaper()
		if got != c.want {
			t.Errorf("real %v against paper %v–%v: %s, want %s", c.real, c.lo, c.hi, got, c.want)
		}
	}
	// A reduction's interval: 100 (1 − o/b) with the relative half-widths in quadrature.
	r := reductionOf(experiment.Estimate{N: 5, Mean: 100, Low: 90, High: 110}, experiment.Estimate{N: 5, Mean: 80, Low: 76, High: 84})
	if math.Abs(r.Percent-20) > 1e-12 || math.Abs(r.Half-80*math.Hypot(0.1, 0.05)) > 1e-9 {
		t.Errorf("reduction %+v, want 20 ± %v", r, 80*math.Hypot(0.1, 0.05))
	}
}

// A quick run replays both recordings and both proxies on the 64-PE 3D and 5DT tori of
// the nDT switch, from this package's directory (the specs name the traces from the
// repository's root), with the traces' message counts.
func TestRealTracesQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates")
	}
	t.Setenv("TMPDIR", t.TempDir()) // the quick store is under it: run afresh
	rows, _, err := RealTraces(context.Background(), Quick, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2*6 {
		t.Fatalf("%d rows, want 12 (2 networks, 6 workloads)", len(rows))
	}
	for _, r := range rows {
		if r.Real && r.App == "PTRANS" && r.Metrics["messages"].Mean != 15387 {
			t.Errorf("PTRANS on %s: %v messages, want 15387", r.Topology, r.Metrics["messages"].Mean)
		}
	}
	cs, err := RealComparisons(context.Background(), rows)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 3*2 {
		t.Errorf("%d comparisons, want 6 (3 programs, 2 metrics)", len(cs))
	}
}
