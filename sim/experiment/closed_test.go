package experiment

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/datasets"
	"github.com/twintorus/twintorus/sim/workload"
)

const closedSpec = `name: closed
topologies: [torus:4x4, twin:2x2x2/cbest]
deadlock: [vc, bubble]
workload: [bcast:binomial:512B, alltoall:pairwise:16B]
mapping: [linear, random/2]
seeds: 3
`

// A closed-loop sweep: curves over workloads and mappings, one run per seed (a
// linear mapping gives the same result for every seed, a random one its own),
// identical with 1 and 2 workers, summarised with the closed-loop metrics.
func TestClosedLoopSweep(t *testing.T) {
	spec, err := ParseSpec("closed.yaml", []byte(closedSpec))
	if err != nil {
		t.Fatal(err)
	}
	curves, err := spec.Curves()
	if err != nil {
		t.Fatal(err)
	}
	if len(curves) != 2*2*2*2 || curves[0].Name != "torus:4x4 vc bcast:binomial:512B" || curves[1].Name != "torus:4x4 vc bcast:binomial:512B mapping random/2" {
		t.Fatalf("%d curves: %q, %q", len(curves), curves[0].Name, curves[1].Name)
	}
	var csvs []string
	var last *Results
	for _, workers := range []int{1, 2} {
		res := run(t, spec, Options{Out: t.TempDir(), Workers: workers})
		if res.Simulated != 16*3 {
			t.Fatalf("%d workers: %d simulations, want 48", workers, res.Simulated)
		}
		csvs = append(csvs, csvOf(t, res.Records))
		last = res
	}
	if csvs[0] != csvs[1] {
		t.Error("closed-loop sweep: CSV with 1 worker differs from 2 workers")
	}
	for _, r := range last.Records {
		if r.Result.Closed == nil || r.Result.Deadlock != nil || r.Result.Closed.ExecutionCycles <= 0 {
			t.Fatalf("%s seed %d: %+v", r.Curve, r.Point.Seed, r.Result.Closed)
		}
		if r.Point.Load != 0 || r.Point.Traffic != "" || r.Point.Warmup != 0 {
			t.Errorf("%s: a closed-loop point carries open-loop settings: %+v", r.Curve, r.Point)
		}
	}
	sums := last.Summaries()
	if len(sums) != 16 {
		t.Fatalf("%d summaries", len(sums))
	}
	for _, s := range sums {
		e := s.Estimates["execution_cycles"]
		m := s.Estimates["messages"]
		if e.N != 3 || !(e.Mean > 0) {
			t.Errorf("%s: execution cycles %+v", s.Curve, e)
		}
		random := strings.Contains(s.Curve, "random")
		if !random && e.SD != 0 {
			t.Errorf("%s: a linear mapping gave different times for different seeds (SD %g)", s.Curve, e.SD)
		}
		// Over all tasks: 16 with one task per PE, 32 with two.
		p := 16.0
		if random {
			p = 32
		}
		want := p - 1 // a broadcast
		if strings.Contains(s.Curve, "alltoall") {
			want = p * (p - 1)
		}
		if m.Mean != want {
			t.Errorf("%s: %g messages, want %g", s.Curve, m.Mean, want)
		}
	}
	// Random mappings differ per seed: the all-to-all's times are not all equal.
	for _, s := range sums {
		if s.Curve == "torus:4x4 vc alltoall:pairwise:16B mapping random/2" && s.Estimates["execution_cycles"].SD == 0 {
			t.Errorf("%s: three random mappings, one execution time", s.Curve)
		}
	}
}

// Closed-loop specs refuse what does not apply, with the key and line.
func TestClosedLoopSpecErrors(t *testing.T) {
	cases := map[string]string{
		"topologies: [torus:4x4]\nworkload: bcast:binomial:16B\ntraffic: uniform\n":          "closed.yaml:3: traffic: does not apply to a closed-loop spec",
		"topologies: [torus:4x4]\nworkload: bcast:binomial:16B\nloads: [0.1]\n":              "closed.yaml:3: loads: does not apply to a closed-loop spec",
		"topologies: [torus:4x4]\nworkload: [bcast:binomial:16B, bcast:ring:16B]\n":          `closed.yaml:2: workload[1]: workload "bcast:ring:16B": unknown bcast algorithm`,
		"topologies: [torus:4x4]\nworkload: [bcast:binomial:16B, BCAST:binomial:16B]\n":      "workload[1]: bcast:binomial:16B is listed twice",
		"topologies: [torus:4x4]\nworkload: bcast:binomial:16B\nmapping: cyclic\n":           "closed.yaml:3: mapping[0]: mapping \"cyclic\"",
		"topologies: [torus:4x4]\nworkload: graph500:tasks=64\n":                             "workload[0]: torus:4x4 bubble graph500:tasks=64: workload graph500:tasks=64: 64 tasks do not fit 16 PEs",
		"topologies: [torus:4x4]\nworkload: trace:/nonexistent/x.trace\n":                    "workload[0]: trace: open /nonexistent/x.trace",
		"topologies: [torus:4x4]\nloads: [0.1]\nmapping: random\n":                           "closed.yaml:3: mapping: applies to closed-loop specs only",
		"topologies: [torus:4x4]\nworkload: bcast:binomial:16B\nflit_bytes: -2\n":            "closed.yaml:3: flit_bytes: flit of -2 bytes",
		"topologies: [torus:4x4]\nworkload: bcast:binomial:16B\nmetrics: [execution_time]\n": "unknown metric \"execution_time\"",
		"topologies: [torus:4x4]\nworkload: bcast:binomial:16B\npast_saturation: 2\n":        "past_saturation: does not apply to a closed-loop spec",
	}
	for yaml, want := range cases {
		_, err := ParseSpec("closed.yaml", []byte(yaml))
		var se *SpecError
		if err == nil || !strings.Contains(err.Error(), want) || !errors.As(err, &se) {
			t.Errorf("%q:\n got %v\nwant %q", yaml, err, want)
		}
	}
}

// A trace workload's record key follows the trace's content: a changed trace is a new
// point, and a point made for the old content refuses to run on the new one.
func TestClosedLoopTraceIdentity(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pp.trace")
	write := func(n int) {
		text := "twintorus-trace 1\ntasks 2\n0 send 1 " + strings.Repeat("1", n) + "\n1 recv 0\n"
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(2)
	spec := NewSpec("torus:2")
	spec.Workload = []string{"trace:" + path}
	c1, err := spec.Curves()
	if err != nil {
		t.Fatal(err)
	}
	r1, err := c1[0].Point.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	write(3) // 11 bytes → 111 bytes
	if _, err := c1[0].Point.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "the trace file changed") {
		t.Errorf("a changed trace: %v", err)
	}
	c2, err := spec.Curves()
	if err != nil {
		t.Fatal(err)
	}
	if c1[0].Key == c2[0].Key {
		t.Error("a changed trace keeps its curve key")
	}
	r2, _ := c2[0].Point.Run(context.Background())
	if r1.Closed.Bytes != 11 || r2.Closed.Bytes != 111 {
		t.Errorf("bytes %d and %d, want 11 and 111", r1.Closed.Bytes, r2.Closed.Bytes)
	}
}

// Open-loop records read closed-loop metrics as NaN; closed-loop ones have them.
func TestClosedLoopMetrics(t *testing.T) {
	p := NewPoint("torus:4x4", 0.1)
	p.Warmup, p.Measure = 100, 200
	open, err := p.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := Metric(open, "execution_cycles"); !ok || !math.IsNaN(v) {
		t.Errorf("open loop: execution_cycles %v, %v", v, ok)
	}
	q := NewPoint("torus:4x4", 0)
	q.Workload = "alltoall:linear:64B"
	closed, err := q.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range DefaultClosedMetrics() {
		if v, ok := Metric(closed, m); !ok || !(v > 0) {
			t.Errorf("closed loop: %s = %v", m, v)
		}
	}
	if v, _ := Metric(closed, "messages"); v != 16*15 {
		t.Errorf("messages %v", v)
	}
}

// The collectives of datasets/workloads/collectives.yaml on its 256-PE networks (the
// 512- and 1,024-PE ones run in the stored full run, datasets/results/workloads):
// every run completes without deadlock under both schemes, and the results are
// identical with 1 and 2 workers.
func TestCollectivesAcceptance256(t *testing.T) {
	spec, err := ReadSpec("../../datasets/workloads/collectives.yaml")
	if err != nil {
		t.Fatal(err)
	}
	spec.Topologies = []string{"torus:8x8x4", "twin:4x4x2x2x2/cbest"}
	var csvs []string
	var records []Record
	for _, workers := range []int{1, 2} {
		res := run(t, spec, Options{Out: t.TempDir(), Workers: workers})
		if want := 2 * 2 * len(spec.Workload); res.Simulated != want {
			t.Fatalf("%d workers: %d simulations, want %d", workers, res.Simulated, want)
		}
		csvs = append(csvs, csvOf(t, res.Records))
		records = res.Records
	}
	if csvs[0] != csvs[1] {
		t.Error("collectives: the CSV with 1 worker differs from the one with 2")
	}
	for _, r := range records {
		if r.Result.Deadlock != nil || r.Result.Closed == nil || r.Result.Closed.ExecutionCycles <= 0 {
			t.Errorf("%s: deadlock %v, %+v", r.Curve, r.Result.Deadlock, r.Result.Closed)
		}
	}
	// The stored full run (datasets/results/workloads) holds these curves with these
	// very numbers, and every curve of the spec, none deadlocked.
	b, err := datasets.ClosedLoopResult("collectives-summary.csv")
	if err != nil {
		t.Fatal(err)
	}
	stored, err := ReadSummaryCSV(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	full, err := ReadSpec("../../datasets/workloads/collectives.yaml")
	if err != nil {
		t.Fatal(err)
	}
	curves, _ := full.Curves()
	if len(stored) != len(curves) {
		t.Errorf("%d curves stored, the spec has %d", len(stored), len(curves))
	}
	byCurve := map[string]Summary{}
	for _, s := range stored {
		byCurve[s.Curve] = s
		if d := s.Estimates["deadlocked"]; d.Mean != 0 {
			t.Errorf("stored %s deadlocked", s.Curve)
		}
	}
	for _, s := range Summarize(records, spec.Metrics...) {
		old, ok := byCurve[s.Curve]
		if !ok {
			t.Errorf("%s is not stored", s.Curve)
			continue
		}
		for _, m := range spec.Metrics {
			if a, b := s.Estimates[m].Mean, old.Estimates[m].Mean; a != b && !(math.IsNaN(a) && math.IsNaN(b)) {
				t.Errorf("%s: %s is %v, stored %v", s.Curve, m, a, b)
			}
		}
	}
}

// A Graph500 proxy of 256 tasks, as a trace file, runs on a 256-PE torus with 1, 2
// and 4 tasks per PE: linearly on all 256 PEs, on 128 and on 64 of them (every PE
// then serves 2 or 4 tasks through its one NIC), and randomly over the 1,024 cores of
// 4-core PEs; tasks that share a PE exchange some messages without the network.
func TestGraph500TraceTasksPerPE(t *testing.T) {
	s, _ := workload.ParseSpec("graph500:tasks=256,levels=2")
	w, err := s.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "graph500-256.trace.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := workload.WriteTrace(f, w, true); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, c := range []struct {
		mapping string
		local   bool
		pes     int // PEs that run tasks (0: not checked)
	}{{"linear", false, 256}, {"linear/2", true, 128}, {"linear/4", true, 64}, {"random/4", true, 0}} {
		p := NewPoint("torus:8x8x4", 0)
		p.Workload, p.Mapping = "trace:"+path, c.mapping
		m, err := workload.ParseMapping(c.mapping)
		if err != nil {
			t.Fatal(err)
		}
		pe, err := m.Place(w.Tasks(), 256, p.Seed)
		if err != nil {
			t.Fatal(err)
		}
		used := map[int32]int{}
		for _, x := range pe {
			used[x]++
		}
		if c.pes != 0 && len(used) != c.pes {
			t.Errorf("%s: tasks on %d PEs, want %d", c.mapping, len(used), c.pes)
		}
		r, err := p.Run(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", c.mapping, err)
		}
		cl := r.Closed
		if r.Deadlock != nil || cl.Messages != int64(w.Messages()) || cl.Bytes != w.Bytes() || (cl.LocalMessages > 0) != c.local {
			t.Errorf("%s: deadlock %v, %d messages (%d local), %d bytes; want %d messages, %d bytes", c.mapping, r.Deadlock,
				cl.Messages, cl.LocalMessages, cl.Bytes, w.Messages(), w.Bytes())
		}
		t.Logf("graph500 256 tasks, %s: %d cycles, %d local messages", c.mapping, cl.ExecutionCycles, cl.LocalMessages)
	}
}

// A closed-loop summary table has workload and mapping columns and reads back.
func TestClosedLoopSummaryCSV(t *testing.T) {
	spec, err := ParseSpec("s.yaml", []byte("topologies: [torus:2x2]\nworkload: [bcast:binomial:16B, alltoall:linear:16B]\nmapping: random\nseeds: 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	res := run(t, spec, Options{Out: t.TempDir(), Workers: 1})
	sums := res.Summaries(spec.Metrics...)
	var b strings.Builder
	if err := WriteSummaryCSV(&b, sums, spec.Metrics); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "curve,curve_key,topology,routing,selection,deadlock,tie,traffic,sizes,workload,mapping,load,n,saturated,execution_cycles_mean,") {
		t.Errorf("header %.200s", b.String())
	}
	back, err := ReadSummaryCSV(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 2 || back[1].Point.Workload != "alltoall:linear:16B" || back[1].Point.Mapping != "random" ||
		back[1].Estimates["execution_cycles"].Mean != sums[1].Estimates["execution_cycles"].Mean {
		t.Errorf("read back %+v", back)
	}
}

// A closed-loop run that deadlocks has no execution time (NaN, so that summaries
// average only the runs that ended) and counts as deadlocked.
func TestClosedLoopDeadlockMetrics(t *testing.T) {
	p := NewPoint("torus:8", 0)
	p.Deadlock, p.Workload = "none", "alltoall:linear:512B"
	p.PortFlits, p.Watchdog = 8, 2000
	r, err := p.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r.Deadlock == nil {
		t.Fatal("no deadlock without deadlock avoidance")
	}
	if v, _ := Metric(r, "execution_cycles"); !math.IsNaN(v) {
		t.Errorf("execution_cycles %v after a deadlock, want NaN", v)
	}
	if v, _ := Metric(r, "deadlocked"); v != 1 {
		t.Errorf("deadlocked %v", v)
	}
}

// Point.Check refuses what Point.Build refuses, with the same message, without
// building a collective's programs.
func TestClosedLoopCheckAgreesWithBuild(t *testing.T) {
	for _, c := range []struct{ workload, mapping string }{
		{"bcast:binomial:16B", "linear"},
		{"bcast:binomial:16B:root=300", "linear"},
		{"bcast:binomial:16B:root=300", "linear/2"},
		{"alltoall:pairwise:512B:tasks=300", "random"},
		{"alltoall:pairwise:512B:tasks=300", "random/2"},
		{"allgather:linear:8MiB", "linear"},
		{"graph500:tasks=600", "linear/2"},
		{"trace:../../datasets/traces/namd-64.trace.gz", "linear"},
		{"trace:missing.trace", "linear"},
	} {
		p := NewPoint("torus:8x8x4", 0)
		p.Workload, p.Mapping = c.workload, c.mapping
		_, berr := p.Build()
		cerr := p.Check()
		if (berr == nil) != (cerr == nil) || berr != nil && berr.Error() != cerr.Error() {
			t.Errorf("%s, %s: Build says %v, Check %v", c.workload, c.mapping, berr, cerr)
		}
	}
}
