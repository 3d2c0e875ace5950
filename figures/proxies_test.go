package figures

import (
	"math"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/experiment"
)

// summaryOf is a closed-loop summary with the given means (one replication).
func summaryOf(topo, routing, workload, mapping string, means map[experiment.MetricName]float64) experiment.Summary {
	s := experiment.Summary{Curve: topo + " " + routing + " " + workload + " " + mapping, N: 1,
		Point:     experiment.Point{Topology: topo, Routing: routing, Deadlock: "vc", Tie: ownTie(routing), Workload: workload, Mapping: mapping},
		Estimates: map[string]experiment.Estimate{}}
	for k, v := range means {
		s.Estimates[string(k)] = experiment.Estimate{N: 1, Mean: v, Low: math.NaN(), High: math.NaN()}
	}
	return s
}

// The collective cells pair our runs with the paper's Tables 2–3 (whose values these
// are) and the claims judge the reductions cell by cell.
func TestExtollCollectiveCells(t *testing.T) {
	lat, exe := experiment.LatencyNetworkFlitMean, experiment.ExecutionCycles
	sums := summaries{
		summaryOf("torus:8x8x4", "dor", "bcast:binomial:512B", "linear", map[experiment.MetricName]float64{lat: 100, exe: 1000}),
		summaryOf("twin:4x4x2x2x2/cbest", "tsdor", "bcast:binomial:512B", "linear", map[experiment.MetricName]float64{lat: 110, exe: 1100}),
		summaryOf("torus:8x8x4", "dor", "reduce:binomial:16B", "linear", map[experiment.MetricName]float64{lat: 50, exe: 400}),
		summaryOf("twin:4x4x2x2x2/cbest", "tsdor", "reduce:binomial:16B", "linear", map[experiment.MetricName]float64{lat: 40, exe: 300}),
		summaryOf("torus:8x8x8", "dor", "reduce:binomial:16B", "linear", map[experiment.MetricName]float64{lat: 50, exe: 400}), // no 5DT partner
	}
	cells, err := extollCollectiveCells(sums, CollectiveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 2 {
		t.Fatalf("%d cells: %+v", len(cells), cells)
	}
	b := cells[0]
	// Table 3, Broadcast 512 B at 256 PEs: 989 cycles on the 3D torus, 1,025 on the 5DT.
	if b.Op != "broadcast" || b.PEs != 256 || b.Paper3DExec != 989 || b.Paper5DTExec != 1025 || b.OursExecGain() != -10 || b.OursLatencyGain() != -10 {
		t.Errorf("broadcast cell %+v", b)
	}
	if got := b.PaperExecGain(); math.Abs(got-100*(989-1025)/989.0) > 1e-9 {
		t.Errorf("paper gain %v", got)
	}
	claims := CollectiveClaims(cells)
	byName := map[string]Claim{}
	for _, c := range claims {
		byName[c.Statement] = c
	}
	if c := byName["C4 Broadcast at 256 PEs: 5DT slower (execution)"]; c.Holds != "partly (smaller)" || c.Paper != "-4 %" || !strings.Contains(c.Ours, "-10 %") {
		t.Errorf("C4: %+v", c)
	}
	if c := byName["C1 Reduce: 5DT execution time lower"]; c.Holds == "no (sign)" || !strings.Contains(c.Ours, "25 %") {
		t.Errorf("C1: %+v", c)
	}
	if c := byName["C2 All2All: 5DT latency lower"]; c.Ours != "not run" {
		t.Errorf("C2 without cells: %+v", c)
	}
	if h, rows := CollectiveCellsTable(cells); len(rows) != 2 || len(rows[0]) != len(h) || rows[0][7] != "same" || rows[0][1] != "binomial" {
		t.Errorf("table %v %v", h, rows)
	}
	if rangeVerdict([]float64{10, 20}, []float64{12, -1}) != "no (sign)" || rangeVerdict([]float64{10, 20}, []float64{40, 50}) != "partly (larger)" ||
		rangeVerdict([]float64{10, 20}, []float64{1, 4}) != "partly (smaller)" || rangeVerdict([]float64{10, 20}, []float64{6, 30}) != "yes" {
		t.Error("range verdicts")
	}
}

// PTRANS rows normalise to the 3D torus of their PEs and carry the paper's 5DT values.
func TestPTRANSRows(t *testing.T) {
	exe, lat := experiment.ExecutionCycles, experiment.LatencyNetworkFlitMean
	w := "ptrans:iterations=5,block=4KiB"
	sums := summaries{
		summaryOf("torus:4x4x4x4x4", "", w, "random", map[experiment.MetricName]float64{exe: 500, lat: 40}),
		summaryOf("twin:4x4x2x4x4/cbest", "", w, "random", map[experiment.MetricName]float64{exe: 750, lat: 60}),
		summaryOf("torus:16x8x8", "", w, "random", map[experiment.MetricName]float64{exe: 1000, lat: 100}),
		summaryOf("torus:16x16x8", "", w, "random", map[experiment.MetricName]float64{exe: 2000, lat: 100}),
		summaryOf("twin:4x4x4x4x4/cbest", "", w, "random", map[experiment.MetricName]float64{exe: 2200, lat: 50}),
		summaryOf("torus:8x4x4x4x4", "", w, "random", map[experiment.MetricName]float64{exe: 800, lat: 45}),
	}
	rows, err := ptransRows(sums)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 6 || rows[0].Family != "3D torus" || rows[1].Family != "5DT torus" || rows[2].Family != "5D torus" || rows[3].PEs != 2048 {
		t.Fatalf("rows %+v", rows)
	}
	if rows[1].ExecNorm != 0.75 || rows[1].LatencyNorm != 0.6 || rows[1].PaperExecNorm != 0.75 || math.Abs(rows[1].PaperLatencyNorm-0.81) > 1e-12 {
		t.Errorf("5DT 1K %+v", rows[1])
	}
	if math.Abs(rows[4].ExecNorm-1.1) > 1e-12 || math.Abs(rows[4].PaperExecNorm-0.66) > 1e-12 || !math.IsNaN(rows[4].PaperLatencyNorm) || !math.IsNaN(rows[2].PaperExecNorm) {
		t.Errorf("5DT 2K %+v, 5D %+v", rows[4], rows[2])
	}
	claims := PTRANSClaims(rows)
	if len(claims) != 3 || claims[0].Holds != "yes" || claims[1].Holds != "partly" || claims[2].Holds != "no" {
		t.Errorf("claims %+v", claims)
	}
	bars, err := PTRANSBars(rows, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(bars.Categories) != 2 || math.Abs(bars.Groups[1].Values[1]-1.1) > 1e-12 || bars.Groups[2].Values[1] != 0.4 || bars.Groups[3].Values[0] != 0.75 {
		t.Errorf("bars %+v", bars)
	}
	if _, err := bars.Figure(); err != nil {
		t.Error(err)
	}
	if _, err := PTRANSBars(rows[:5], true); err == nil {
		t.Error("bars drawn without the 5D torus at 2K")
	}
	if _, err := ptransRows(summaries{sums[1]}); err == nil {
		t.Error("a 5DT without its 3D torus normalised")
	}
}

// Application rows fall into the paper's categories and series; the claims read the
// reductions between series.
func TestAppRowsAndClaims(t *testing.T) {
	lat, e2e, util := experiment.LatencyNetworkFlitMean, experiment.LatencyE2EFlitMean, experiment.SwitchUtilisation
	m := func(a, b, c float64) map[experiment.MetricName]float64 {
		return map[experiment.MetricName]float64{lat: a, e2e: b, util: c}
	}
	g, ra, nd := "graph500:levels=4,block=16B", "randomaccess:messages=16", "namd:iterations=4"
	var sums summaries
	for _, mp := range []string{"random", "random/4"} {
		sums = append(sums,
			summaryOf("torus:8x8x4", "dor", g, mp, m(100, 200, 1000)),
			summaryOf("torus:8x8x4", "adaptive", g, mp, m(90, 180, 900)),
			summaryOf("twin:4x4x2x2x2/cbest", "tsdor", g, mp, m(70, 140, 700)),
			summaryOf("torus:8x8x4", "dor", ra, mp, m(100, 200, 1000)),
			summaryOf("torus:8x8x4", "adaptive", ra, mp, m(110, 190, 950)),
			summaryOf("twin:4x4x2x2x2/cbest", "tsdor", ra, mp, m(75, 150, 750)),
			summaryOf("torus:8x8x4", "dor", nd, mp, m(100, 200, 1000)),
			summaryOf("torus:8x8x4", "adaptive", nd, mp, m(100, 200, 1000)),
			summaryOf("twin:4x4x2x2x2/cbest", "tsdor", nd, mp, m(95, 190, 950)))
	}
	// The 5DT specs run TSDOR with both tie rules: the bars read its own (mirror) by
	// default, plus when asked, never both.
	mirrorRuns := len(sums)
	for _, s := range sums[:mirrorRuns] {
		if s.Point.Routing == "tsdor" {
			p := s
			p.Point.Tie, p.Curve = "plus", s.Curve+" plus"
			p.Estimates = map[string]experiment.Estimate{}
			for k, e := range s.Estimates {
				e.Mean *= 2
				p.Estimates[k] = e
			}
			sums = append(sums, p)
		}
	}
	rows, err := appRows(sums, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 18 || rows[0].Category() != "256×1" || rows[17].Category() != "256×4" || rows[2].Series != "Det. 5DT torus" || rows[2].Tie != "mirror" {
		t.Fatalf("rows %+v", rows)
	}
	plus, err := AppRowsOf(sums, "PLUS")
	if err != nil {
		t.Fatal(err)
	}
	if len(plus) != 18 || plus[2].Tie != "plus" || plus[2].Metrics[lat].Mean != 140 || plus[0].Metrics[lat].Mean != 100 || plus[0].Tie != "" {
		t.Fatalf("plus rows %+v", plus)
	}
	if _, err := AppRowsOf(sums, "sideways"); err == nil {
		t.Error("an unknown tie rule accepted")
	}
	if _, err := AppRowsOf(append(summaries{sums[0]}, sums[0]), ""); err == nil || !strings.Contains(err.Error(), "two runs") {
		t.Errorf("a bar of two runs: %v", err)
	}
	sums = sums[:mirrorRuns]
	bars, err := AppBars(rows, "randomaccess", e2e)
	if err != nil {
		t.Fatal(err)
	}
	if len(bars.Categories) != 2 || len(bars.Groups) != 3 || bars.Groups[1].Values[1] != 190 || bars.Groups[2].Values[0] != 150 {
		t.Errorf("bars %+v", bars)
	}
	if _, err := bars.Figure(); err != nil {
		t.Error(err)
	}
	holds := map[string]string{}
	for _, c := range AppClaims(rows) {
		holds[c.Statement] = c.Holds
	}
	for st, want := range map[string]string{
		"A5 graph500: Det. 5DT lowers avg. network latency per cell against Det. 3D":       "yes", // 30 %
		"A6 randomaccess: Det. 5DT lowers avg. card utilisation against Det. 3D":           "yes", // 25 %
		"A5 graph500: Det. 5DT better than Adp. 3D (all three metrics)":                    "yes",
		"A5 graph500: Adp. 3D lower than Det. 3D (all three metrics)":                      "yes",
		"A6 randomaccess: Adp. 3D raises avg. network latency per cell against Det. 3D":    "yes",
		"A6 randomaccess: Adp. 3D lowers avg. end-to-end latency per cell against Det. 3D": "yes",
		"A7 namd: smallest 5DT gain in avg. card utilisation":                              "yes",
	} {
		if holds[st] != want {
			t.Errorf("%s: %q, want %q (all: %v)", st, holds[st], want, holds)
		}
	}
	if _, err := appRows(summaries{summaryOf("twin:4x4x2x2x2/cbest", "dort", g, "random", m(1, 1, 1))}, ""); err == nil {
		t.Error("a 5DT with DORT taken for one of the figures' series")
	}
}
