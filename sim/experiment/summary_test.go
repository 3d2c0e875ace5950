package experiment

import (
	"bytes"
	"encoding/csv"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/internal/version"
	"github.com/twintorus/twintorus/sim/engine"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// TestEstimated checks the Student-t interval against hand-computed values:
// t(0.975, 4) = 2.7764451051977987 and t(0.975, 1) = 12.706204736174705.
func TestEstimated(t *testing.T) {
	e := Estimated([]float64{1, 2, 3, 4, 5})
	half := 2.7764451051977987 * math.Sqrt(2.5) / math.Sqrt(5)
	if e.N != 5 || !near(e.Mean, 3) || !near(e.SD, math.Sqrt(2.5)) || !near(e.Low, 3-half) || !near(e.High, 3+half) {
		t.Errorf("1..5: %+v, want mean 3, SD %g, CI ±%g", e, math.Sqrt(2.5), half)
	}
	e = Estimated([]float64{2, math.NaN(), 4})
	if e.N != 2 || !near(e.Mean, 3) || !near(e.Low, 3-12.706204736174705) || !near(e.High, 3+12.706204736174705) {
		t.Errorf("2, NaN, 4: %+v", e)
	}
	e = Estimated([]float64{7})
	if e.N != 1 || e.Mean != 7 || !math.IsNaN(e.SD) || !math.IsNaN(e.Low) || !math.IsNaN(e.High) {
		t.Errorf("one value: %+v", e)
	}
	e = Estimated(nil)
	if e.N != 0 || !math.IsNaN(e.Mean) {
		t.Errorf("no value: %+v", e)
	}
}

// synthetic makes records of one curve: at each load, seeds with the given accepted
// traffic and saturation flags.
func synthetic(loads []float64, accepted [][]float64, saturated [][]bool) []Record {
	var recs []Record
	for i, l := range loads {
		for r := range accepted[i] {
			p := NewPoint("torus:4x4", l)
			p.Routing, p.Sizes, p.Seed = "dor", "1", uint64(1+r)
			recs = append(recs, Record{Key: p.Key(), Point: p, Replication: r,
				Result: &engine.Result{Accepted: accepted[i][r], Offered: l, Saturated: saturated[i][r], Hops: math.NaN()}})
		}
	}
	return recs
}

func TestSaturationsAndLines(t *testing.T) {
	f, T := false, true
	recs := synthetic([]float64{0.1, 0.2, 0.3, 0.4},
		[][]float64{{0.1, 0.1, 0.1}, {0.2, 0.2, 0.2}, {0.25, 0.26, 0.24}, {0.24, 0.24, 0.24}},
		[][]bool{{f, f, f}, {T, f, f}, {T, T, f}, {T, T, T}})
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
	sats := Saturations(recs)
	if len(sats) != 1 {
		t.Fatalf("%d curves, want 1", len(sats))
	}
	s := sats[0]
	if s.Curve != "torus:4x4 bubble uniform" || s.Load != 0.3 || s.Below != 0.2 || s.PeakLoad != 0.3 || !near(s.Throughput.Mean, 0.25) || s.Throughput.N != 3 {
		t.Errorf("saturation %+v: want load 0.3 (2 of 3 saturated), below 0.2, throughput 0.25 at 0.3", s)
	}
	lines := Lines(Summarize(recs, "accepted", "hops"), "accepted")
	if len(lines) != 1 || len(lines[0].Points) != 4 {
		t.Fatalf("lines %+v", lines)
	}
	p := lines[0].Points[2]
	if p.Load != 0.3 || !near(p.Mean, 0.25) || !(p.Low < 0.25 && p.High > 0.25) || p.N != 3 {
		t.Errorf("point at 0.3: %+v", p)
	}
	if h := Summarize(recs, "hops")[0].Estimates["hops"]; h.N != 0 || !math.IsNaN(h.Mean) {
		t.Errorf("NaN hops summarised as %+v", h)
	}
	never := Saturations(synthetic([]float64{0.1}, [][]float64{{0.1}}, [][]bool{{f}}))[0]
	if !math.IsNaN(never.Load) || never.Below != 0.1 {
		t.Errorf("curve that never saturates: %+v", never)
	}
}

// TestTables: the CSV rows are sorted whatever the input order (parquetfile checks
// the Parquet file against them), and the summary CSV has a column per metric statistic.
func TestTables(t *testing.T) {
	res := run(t, smallSpec(), Options{Out: t.TempDir()})
	recs := res.Records
	want := csvOf(t, recs)
	shuffled := append([]Record(nil), recs...)
	rand.New(rand.NewPCG(3, 4)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	if csvOf(t, shuffled) != want {
		t.Error("CSV depends on the order of the records")
	}
	rows, err := csv.NewReader(strings.NewReader(want)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 13 || !reflect.DeepEqual(rows[0], Columns()) {
		t.Fatalf("CSV: %d rows, header %v", len(rows), rows[0])
	}
	col := func(name string) int { return reflectIndex(Columns(), name) }
	if r := rows[1]; r[col("topology")] != "torus:4x4" || r[col("deadlock")] != "bubble" || r[col("load")] != "0.1" || r[col("seed")] != "1" ||
		r[col("saturated")] != "false" || r[col("deadlocked")] != "false" || r[col("routing")] != "dor" {
		t.Errorf("first row %v", r)
	}

	var sum bytes.Buffer
	if err := WriteSummaryCSV(&sum, res.Summaries(), []string{"accepted"}); err != nil {
		t.Fatal(err)
	}
	srows, err := csv.NewReader(&sum).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(srows[0], ","); got != "curve,curve_key,topology,routing,selection,deadlock,tie,traffic,sizes,load,n,saturated,not_stationary,unchecked,accepted_mean,accepted_sd,accepted_low,accepted_high" || len(srows) != 7 {
		t.Errorf("summary CSV: %d rows, header %s", len(srows), got)
	}
	var sat bytes.Buffer
	if err := WriteSaturationCSV(&sat, res.Saturations()); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(sat.String(), "\n"); n != 3 {
		t.Errorf("saturation CSV has %d lines, want 3:\n%s", n, &sat)
	}
}

func reflectIndex(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

func TestSlurmScript(t *testing.T) {
	j := SlurmJob{Binary: "/opt/tt/twintorus", Spec: "/data/r 1/specs/abc.yaml", Out: "/data/r 1", Tasks: 4, CPUs: 2,
		Partition: "short", Name: "fig7", Options: []string{"--time=1:00:00"}, Comment: "120 simulations."}
	got, err := j.Script()
	if err != nil {
		t.Fatal(err)
	}
	want := `#!/bin/bash
#SBATCH --job-name=fig7
#SBATCH --array=0-3
#SBATCH --cpus-per-task=2
#SBATCH "--output=/data/r 1/slurm/logs/%A_%a.out"
#SBATCH --partition=short
#SBATCH --time=1:00:00
# Written by twintorus ` + version.String() + `. 120 simulations.
# Each array task runs one shard of the sweep into the shared results store;
# submitting again runs only what is missing. Merge with: twintorus collect '/data/r 1'
set -eu
exec '/opt/tt/twintorus' sweep '/data/r 1/specs/abc.yaml' --out '/data/r 1' --shard "${SLURM_ARRAY_TASK_ID}/4" --workers "${SLURM_CPUS_PER_TASK:-2}"
`
	if got != want {
		t.Errorf("script:\n%s\nwant:\n%s", got, want)
	}
	path := filepath.Join(t.TempDir(), "s.sbatch")
	if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("bash", "-n", path).CombinedOutput(); err != nil {
		t.Errorf("bash -n: %v\n%s", err, out)
	}
	for what, change := range map[string]func(*SlurmJob){
		"must be absolute":     func(j *SlurmJob) { j.Out = "results" },
		"array tasks":          func(j *SlurmJob) { j.Tasks = 0 },
		"want one option":      func(j *SlurmJob) { j.Options = []string{"time=1"} },
		"has characters other": func(j *SlurmJob) { j.Name = "a b" },
	} {
		bad := j
		change(&bad)
		if _, err := bad.Script(); err == nil || !strings.Contains(err.Error(), what) {
			t.Errorf("%s: %v", what, err)
		}
	}
}

// A deadlocked record never gives a saturation throughput (issue 39: a torus run
// dor/none by the kns preset deadlocked at load 0.4 and the saturation table listed
// its 0.2697): the loads where any replication deadlocked are left out of the peak,
// from records and from a summary CSV that has the deadlocked metric alike.
func TestSaturationIgnoresDeadlocked(t *testing.T) {
	f, T := false, true
	recs := synthetic([]float64{0.1, 0.2, 0.3, 0.4},
		[][]float64{{0.1, 0.1}, {0.19, 0.19}, {0.2697, 0.21}, {0.3, 0.3}},
		[][]bool{{f, f}, {f, f}, {T, T}, {T, T}})
	for i := range recs {
		if l := recs[i].Point.Load; l == 0.4 || l == 0.3 && recs[i].Replication == 0 {
			recs[i].Result.Deadlock = &engine.Deadlock{Cycle: 9000}
		}
	}
	check := func(how string, s Saturation) {
		t.Helper()
		if s.PeakLoad != 0.2 || !near(s.Throughput.Mean, 0.19) || s.Load != 0.3 {
			t.Errorf("%s: saturation %+v: want throughput 0.19 at 0.2, the deadlocked loads 0.3 and 0.4 left out", how, s)
		}
	}
	check("records", Saturations(recs)[0])
	var buf bytes.Buffer
	metrics := []string{"accepted", "deadlocked"}
	if err := WriteSummaryCSV(&buf, Summarize(recs, metrics...), metrics); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSummaryCSV(&buf)
	if err != nil {
		t.Fatal(err)
	}
	check("summary CSV", SaturationsOf(back)[0])
	all := synthetic([]float64{0.5}, [][]float64{{0.27}}, [][]bool{{T}})
	all[0].Result.Deadlock = &engine.Deadlock{Cycle: 9000}
	if s := Saturations(all)[0]; !math.IsNaN(s.Throughput.Mean) || !math.IsNaN(s.PeakLoad) {
		t.Errorf("a curve whose every run deadlocked has throughput %+v at %g", s.Throughput, s.PeakLoad)
	}
}
