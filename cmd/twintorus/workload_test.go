package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A closed-loop run prints the JSON fields; its execution time on torus:4 is
// the hand calculation of the engine's tests.
func TestRunWorkloadJSON(t *testing.T) {
	var r map[string]any
	runJSON(t, &r, "run", "torus:4", "--workload", "bcast:binomial:16B", "--json")
	for _, k := range []string{"execution_cycles", "latency_network", "latency_e2e", "latency_network_flit", "latency_e2e_flit",
		"switch_utilisation", "messages", "local_messages", "bytes", "deadlock", "point"} {
		if _, ok := r[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	for _, k := range []string{"offered", "accepted", "saturated", "closed_loop"} {
		if _, ok := r[k]; ok {
			t.Errorf("JSON of a closed-loop run has %q", k)
		}
	}
	if r["execution_cycles"].(float64) != 20 || r["messages"].(float64) != 3 || r["bytes"].(float64) != 48 {
		t.Errorf("execution %v cycles, %v messages, %v bytes; want 20, 3, 48", r["execution_cycles"], r["messages"], r["bytes"])
	}
	// Two tasks per PE: a broadcast over 8 tasks on 4 PEs; of its 7 messages only 0→1
	// stays on a PE (tasks 2k and 2k+1 share PE k).
	runJSON(t, &r, "run", "torus:4", "--workload", "bcast:binomial:16B", "--tasks-per-pe", "2", "--json")
	if r["messages"].(float64) != 7 || r["local_messages"].(float64) != 1 {
		t.Errorf("two tasks per PE: %v messages, %v local", r["messages"], r["local_messages"])
	}
	out, _, err := run(t, "run", "torus:8x8", "--workload", "graph500:levels=2", "--mapping", "random", "--seed", "4")
	if err != nil || !strings.Contains(out, "execution time") || !strings.Contains(out, "mapping random, seed 4") {
		t.Errorf("%v\n%s", err, out)
	}
}

func TestRunWorkloadBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.trace")
	os.WriteFile(bad, []byte("twintorus-trace 1\ntasks 2\n0 recv 1\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "torus:4x4", "--workload", "bcast:ring:16B"}, "unknown bcast algorithm \"ring\""},
		{[]string{"run", "torus:4x4", "--workload", "bcast:binomial:-16B"}, "is negative"},
		{[]string{"run", "torus:4x4", "--workload", "bcast:binomial:16B:tasks=0"}, "tasks=0"},
		{[]string{"run", "torus:4x4", "--workload", "trace:" + bad}, "line 3: task 0 op 0 (recv from task 1) has no matching send"},
		{[]string{"run", "torus:4x4", "--workload", "bcast:binomial:16B", "--load", "0.3"}, "--load does not apply with --workload"},
		{[]string{"run", "torus:4x4", "--mapping", "random"}, "apply to closed-loop runs"},
		{[]string{"run", "torus:4x4", "--workload", "graph500:tasks=64"}, "64 tasks do not fit 16 PEs"},
		{[]string{"run", "torus:4x4", "--workload", "bcast:binomial:16B", "--mapping", "cyclic"}, "--mapping"},
		{[]string{"run", "torus:4x4", "--workload", "bcast:binomial:16B", "--tasks-per-pe", "0"}, "tasks per PE"},
		{[]string{"run", "torus:4x4", "--workload", "bcast:binomial:16B", "--flit-bytes", "0"}, "flit"},
		{[]string{"trace", "gen", "graph500"}, "how many tasks"},
		{[]string{"trace", "gen", "nosuch:tasks=4"}, "unknown workload"},
		{[]string{"trace", "stats", filepath.Join(dir, "missing.trace")}, "missing.trace"},
		{[]string{"trace", "stats", bad}, "bad.trace: line 3"},
	} {
		out, stderr, err := run(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v (stdout %q, stderr %q)\nwant one line containing %q", c.args, err, out, stderr, c.want)
		}
	}
}

// trace gen writes what trace stats and run read; gzip by name.
func TestTraceGenStats(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "namd.trace.gz")
	if _, _, err := run(t, "trace", "gen", "namd:iterations=2", "--tasks", "27", "-o", path); err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	runJSON(t, &s, "trace", "stats", path, "--json")
	if s["tasks"].(float64) != 27 || s["messages"].(float64) != 2*27*6 || s["pairs"].(float64) != 27*6 {
		t.Errorf("stats %v", s)
	}
	csv := filepath.Join(dir, "m.csv")
	if _, _, err := run(t, "trace", "stats", path, "--matrix", csv); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(csv)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 28 || !strings.HasPrefix(lines[0], "src,0,1,2,") || !strings.HasPrefix(lines[1], "0,0,2,2,2,0,") {
		t.Errorf("matrix CSV: %d lines, %q, %q", len(lines), lines[0], lines[1])
	}
	out, _, err := run(t, "run", "torus:3x3x3", "--workload", "trace:"+path)
	if err != nil || !strings.Contains(out, "324 (0 between tasks of one PE)") {
		t.Errorf("running the trace: %v\n%s", err, out)
	}
}
