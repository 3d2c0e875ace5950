package figures

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/datasets"
	"github.com/twintorus/twintorus/sim/experiment"
)

func closedSummary(topo, scheme, workload string, exec float64) experiment.Summary {
	return experiment.Summary{Curve: topo + " " + scheme + " " + workload, N: 1,
		Point:     experiment.Point{Topology: topo, Deadlock: scheme, Workload: workload, Mapping: "linear"},
		Estimates: map[string]experiment.Estimate{string(experiment.ExecutionCycles): {N: 1, Mean: exec, Low: math.NaN(), High: math.NaN()}}}
}

func TestClosedLoopFigures(t *testing.T) {
	sums := []experiment.Summary{
		closedSummary("torus:8x8x4", "vc", "bcast:binomial:16B", 100),
		closedSummary("twin:4x4x2x2x2/cbest", "vc", "bcast:binomial:16B", 90),
		closedSummary("torus:8x8x8", "vc", "bcast:binomial:16B", 120),
		closedSummary("twin:4x4x2x4x2/cbest", "vc", "bcast:binomial:16B", 100),
		closedSummary("torus:8x8x4", "vc", "alltoall:pairwise:16B", 200),
		closedSummary("twin:4x4x2x2x2/cbest", "vc", "alltoall:pairwise:16B", 150),
	}
	lp, err := AgainstSize(summaries(sums), "bcast:binomial:16B", experiment.ExecutionCycles)
	if err != nil {
		t.Fatal(err)
	}
	series := lp.Series
	if len(series) != 2 || series[0].Name != "3D torus VCs" || series[1].Name != "5DT torus VCs" ||
		len(series[1].Points) != 2 || series[1].Points[0].X != 256 || series[1].Points[1].Y != 100 {
		t.Errorf("series %+v", series)
	}
	bars, err := Reductions(summaries(sums), experiment.ExecutionCycles, "torus:8x8x4", "twin:4x4x2x2x2/cbest", "vc", func(w string) float64 {
		if strings.HasPrefix(w, "bcast") {
			return -12.7
		}
		return math.NaN()
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(bars.Categories) != 2 || bars.Groups[0].Values[0] != 10 || bars.Groups[0].Values[1] != 25 || bars.Groups[1].Values[0] != -12.7 {
		t.Errorf("bars %+v", bars)
	}
	if bars.Categories[0] != "bcast" || bars.Categories[1] != "alltoall" { // one size: names without it
		t.Errorf("categories %v", bars.Categories)
	}
	if got := shortWorkloads([]string{"allgather:ring:16B", "allgather:linear:512B", "bcast:binomial:4KiB", "graph500:tasks=4"}); strings.Join(got, "|") != "allgather ring 16B|allgather linear 512B|bcast 4KiB|graph500:tasks=4" {
		t.Errorf("short names %v", got)
	}
	if got := shortWorkloads([]string{"allgather:ring:16B", "bcast:binomial:16B"}); strings.Join(got, "|") != "allgather|bcast" {
		t.Errorf("short names of one size %v", got)
	}
	if _, err := bars.Figure(); err != nil {
		t.Error(err)
	}
	if _, err := AgainstSize(summaries(sums), "gather:binomial:16B", experiment.ExecutionCycles); err == nil {
		t.Error("a workload with no summaries plotted")
	}
}

// summaries holds summaries for the figure functions.
type summaries []experiment.Summary

func (s summaries) Summaries(...string) []experiment.Summary { return s }

// The stored closed-loop results load by name, hold every curve of their spec, and
// the quick version keeps only the smallest networks.
func TestLoadClosedLoopStored(t *testing.T) {
	res, err := LoadClosedLoop(context.Background(), "collectives", Stored, nil)
	if err != nil {
		t.Fatal(err)
	}
	curves, err := res.Spec.Curves()
	if err != nil {
		t.Fatal(err)
	}
	if got := len(res.Summaries()); got != len(curves) || got != 120 {
		t.Errorf("%d stored summaries, the spec has %d curves", got, len(curves))
	}
	if !strings.Contains(res.About(), "each run to its end") {
		t.Errorf("About: %s", res.About())
	}
	lp, err := AgainstSize(res, "alltoall:pairwise:512B", experiment.ExecutionCycles)
	if err != nil || len(lp.Series) != 4 || len(lp.Series[0].Points) != 3 {
		t.Errorf("execution time against size: %v, %+v", err, lp.Series)
	}
	q := QuickClosedLoopSpec(res.Spec)
	if len(q.Topologies) != 2 || q.Topologies[0] != "torus:8x8x4" {
		t.Errorf("quick topologies %v", q.Topologies)
	}
}

// Every closed-loop experiment in datasets/workloads has its stored full run: every
// curve of its spec with all its replications, none deadlocked.
func TestEveryClosedLoopExperimentStored(t *testing.T) {
	names := datasets.ClosedLoopExperimentNames()
	if len(names) < 2 {
		t.Fatalf("closed-loop experiments: %v", names)
	}
	for _, name := range names {
		res, err := LoadClosedLoop(context.Background(), name, Stored, nil)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		curves, err := res.Spec.Curves()
		if err != nil {
			t.Fatal(err)
		}
		if got := len(res.Summaries()); got != len(curves) {
			t.Errorf("%s: %d stored summaries, the spec has %d curves", name, got, len(curves))
		}
		for _, s := range res.Summaries() {
			if e := s.Estimates["execution_cycles"]; e.N != res.Spec.Seeds || !(e.Mean > 0) {
				t.Errorf("%s, %s: execution time over %d replications (want %d), mean %v", name, s.Curve, e.N, res.Spec.Seeds, e.Mean)
			}
			if d, ok := s.Estimates["deadlocked"]; ok && d.Mean != 0 {
				t.Errorf("%s, %s: deadlocked", name, s.Curve)
			}
		}
	}
}

// A quick run of a closed-loop experiment too large to run quickly is the shrunk
// spec's: here the 1,024-PE collectives of the nDT paper as one 64-PE broadcast.
func TestLoadClosedLoopShrunk(t *testing.T) {
	r, err := LoadClosedLoopShrunk(context.Background(), "ndt-collectives-1k", Quick, nil, func(q experiment.Spec) experiment.Spec {
		q.Topologies, q.Workload = []string{"torus:4x4x4", "twin:2x2x2x2x2/cbest"}, []string{"bcast:binomial:128B"}
		return q
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Mode != Quick || len(r.Summaries()) != 2 || r.Spec.Seeds != 1 {
		t.Fatalf("quick results: %v, %d summaries, %d seeds", r.Mode, len(r.Summaries()), r.Spec.Seeds)
	}
	for _, s := range r.Summaries() {
		if pes, _ := PEs(s.Point.Topology); pes != 64 || s.Point.Workload != "bcast:binomial:128B" || !(s.Estimates["execution_cycles"].Mean > 0) {
			t.Errorf("quick summary %s: %d PEs, %s, execution %v", s.Curve, pes, s.Point.Workload, s.Estimates["execution_cycles"].Mean)
		}
	}
}
