package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twintorus/twintorus/sim/experiment"
)

// acceptanceSpec is the acceptance sweep: 2 configurations × 12 loads × 5 seeds.
const acceptanceSpec = "../../sim/experiment/testdata/acceptance.yaml"

// smallSpecYAML is 2 curves × 3 loads × 2 seeds of short runs.
const smallSpecYAML = `name: small
topologies: torus:4x4
deadlock: [bubble, vc]
engine: {warmup: 200, measure: 1000}
loads: [0.1, 0.5, 0.9]
seeds: 2
`

var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

// TestMain removes the twintorus binary that the subprocess tests build.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// twintorusBinary builds the command once per test run, for the tests that need a
// real process: SIGKILL, Slurm.
func twintorusBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "twintorus-bin-"); binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "twintorus")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = &buildError{err, out}
		}
	})
	if binErr != nil {
		t.Fatalf("build twintorus: %v", binErr)
	}
	return binPath
}

type buildError struct {
	err error
	out []byte
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + string(e.out) }

func writeFile(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// storeCSV is the CSV of a results store, failing on any corrupt record.
func storeCSV(t *testing.T, dir string) string {
	t.Helper()
	c, err := experiment.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Err(); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := experiment.WriteCSV(&b, c.Records); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// localCSV runs a spec with the library's local runner on 2 workers, for reference,
// and says how long it took.
func localCSV(t *testing.T, specPath string) (string, time.Duration) {
	t.Helper()
	spec, err := experiment.ReadSpec(specPath)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	res, err := experiment.Run(context.Background(), spec, experiment.Options{Out: dir, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return storeCSV(t, dir), res.Elapsed
}

// TestSweepRefusesBadInput: a malformed spec fails with file:line before anything
// runs or any directory is made; flags that do not fit say so.
func TestSweepRefusesBadInput(t *testing.T) {
	tmp := t.TempDir()
	out := filepath.Join(tmp, "out")
	cases := []struct {
		spec string
		args []string
		want string
	}{
		{"topologies: [twin:4x4x4/D]\nloads: [0.1]\nseedz: 3\n", nil, "bad.yaml:3: seedz: unknown key in the spec; accepted are"},
		{"topologies: [twin:4x4x4/D]\nloads: [0.1]\nseeds: many\n", nil, `bad.yaml:3: seeds: want an integer, got "many"`},
		{"topologies:\n  - twin:4x4x4/D\n  - twin:4x4x4/Q\nloads: [0.1]\n", nil, `bad.yaml:3: topologies[1]: topology "twin:4x4x4/Q"`},
		{"topologies: [twin:4x4x4/D]\nloads: []\n", nil, "bad.yaml:2: loads: empty load axis"},
		{smallSpecYAML, []string{"--workers", "-1"}, "--workers -1"},
		{smallSpecYAML, []string{"--shard", "2/2"}, `--shard: shard "2/2": write I/N with 0 <= I < N`},
		{smallSpecYAML, []string{"--partition", "short"}, "--partition goes with --slurm"},
		{smallSpecYAML, []string{"--slurm", "--shard", "0/2"}, "--shard and --slurm do not go together"},
	}
	for _, c := range cases {
		spec := writeFile(t, filepath.Join(tmp, "bad.yaml"), c.spec)
		args := append([]string{"sweep", spec, "--out", out}, c.args...)
		_, _, err := run(t, args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: got %v, want one line with %q", c.args, err, c.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Fatalf("%v: the results store was created: %v", c.args, err)
		}
	}
	if _, _, err := run(t, "sweep", filepath.Join(tmp, "bad.yaml")); err == nil || !strings.Contains(err.Error(), "sweep needs --out DIR") {
		t.Errorf("no --out: %v", err)
	}
	if _, _, err := run(t, "sweep"); err == nil || !strings.Contains(err.Error(), "one SPEC.yaml argument") {
		t.Errorf("no spec: %v", err)
	}
}

// TestSweepCollect runs the commands in-process: sweep, a re-run that finds
// everything stored, and collect to CSV, Parquet, summary and saturation files.
func TestSweepCollect(t *testing.T) {
	tmp := t.TempDir()
	spec := writeFile(t, filepath.Join(tmp, "small.yaml"), smallSpecYAML)
	dir := filepath.Join(tmp, "results")
	stdout, _, err := run(t, "sweep", spec, "--out", dir, "--workers", "2")
	if err != nil {
		t.Fatal(err)
	}
	saturates := regexp.MustCompile(`\ntorus:4x4 bubble uniform +\(0\.5, 0\.9\] +0\.\d{4} +\[0\.\d{4}, 0\.\d{4}\] +0\.[59] +0\n`)
	if !strings.HasPrefix(stdout, "sweep small: 12 simulations: 0 stored, 12 run in ") || !saturates.MatchString(stdout) {
		t.Errorf("sweep printed:\n%s", stdout)
	}
	stdout, _, err = run(t, "sweep", spec, "--out", dir)
	if err != nil || !strings.HasPrefix(stdout, "sweep small: 12 simulations: 12 stored, 0 run in ") {
		t.Errorf("re-run printed %v:\n%s", err, stdout)
	}

	files := map[string]string{}
	for _, k := range []string{"csv", "parquet", "summary", "saturation"} {
		files[k] = filepath.Join(tmp, "out."+k)
	}
	_, stderr, err := run(t, "collect", dir, "--csv", files["csv"], "--parquet", files["parquet"],
		"--summary", files["summary"], "--saturation", files["saturation"], "--metrics", "accepted,latency_network_p99")
	if err != nil {
		t.Fatal(err)
	}
	if stderr != "collect: 12 records, 2 curves from "+dir+"\n" {
		t.Errorf("collect said %q", stderr)
	}
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	want := storeCSV(t, dir)
	if read(files["csv"]) != want {
		t.Errorf("--csv differs from the store's CSV")
	}
	if pq := read(files["parquet"]); !strings.HasPrefix(pq, "PAR1") || !strings.HasSuffix(pq, "PAR1") {
		t.Errorf("--parquet is not a Parquet file")
	}
	sum := read(files["summary"])
	if !strings.HasPrefix(sum, "curve,curve_key,topology,routing,selection,deadlock,tie,traffic,sizes,load,n,saturated,not_stationary,unchecked,accepted_mean,accepted_sd,accepted_low,accepted_high,latency_network_p99_mean,") || strings.Count(sum, "\n") != 7 {
		t.Errorf("--summary:\n%s", sum)
	}
	if sat := read(files["saturation"]); strings.Count(sat, "\n") != 3 {
		t.Errorf("--saturation:\n%s", sat)
	}
	stdout, _, err = run(t, "collect", dir)
	if err != nil || stdout != want {
		t.Errorf("collect to stdout: %v", err)
	}
	if _, _, err := run(t, "collect", dir, "--metrics", "speed"); err == nil || !strings.Contains(err.Error(), `unknown metric "speed"`) {
		t.Errorf("bad metric: %v", err)
	}
	if _, _, err := run(t, "collect", tmp); err == nil || !strings.Contains(err.Error(), "is it a sweep's --out directory?") {
		t.Errorf("not a store: %v", err)
	}
}

// TestCollectRefusesCorrupt: a truncated record makes collect fail and name it; the
// sweep run again recomputes just that record.
func TestCollectRefusesCorrupt(t *testing.T) {
	tmp, spec, dir, paths := smallStore(t)
	want := storeCSV(t, dir)
	data, err := os.ReadFile(paths[5])
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, paths[5], string(data[:len(data)-40]))
	_, _, err = run(t, "collect", dir, "--csv", filepath.Join(tmp, "out.csv"))
	if err == nil || !strings.Contains(err.Error(), "1 corrupt record file(s)") || !strings.Contains(err.Error(), paths[5]) {
		t.Fatalf("collect with a truncated record: %v", err)
	}
	if _, err := os.Stat(filepath.Join(tmp, "out.csv")); !os.IsNotExist(err) {
		t.Error("collect wrote a CSV despite a corrupt record")
	}
	stdout, stderr, err := run(t, "sweep", spec, "--out", dir)
	if err != nil || !strings.Contains(stdout, "11 stored, 1 run (1 corrupt records recomputed)") || !strings.Contains(stderr, paths[5]) {
		t.Errorf("re-run: %v\n%s\n%s", err, stdout, stderr)
	}
	if got := storeCSV(t, dir); got != want {
		t.Error("CSV after recomputing differs")
	}
}

// smallStore sweeps smallSpecYAML into a store in a temporary directory tmp and
// returns the spec's file, the store and its 12 record files, sorted.
func smallStore(t *testing.T) (tmp, spec, dir string, records []string) {
	t.Helper()
	tmp = t.TempDir()
	spec = writeFile(t, filepath.Join(tmp, "small.yaml"), smallSpecYAML)
	dir = filepath.Join(tmp, "results")
	if _, _, err := run(t, "sweep", spec, "--out", dir); err != nil {
		t.Fatal(err)
	}
	records, _ = filepath.Glob(filepath.Join(dir, "records", "*", "*.json"))
	if len(records) != 12 {
		t.Fatalf("%d records, want 12", len(records))
	}
	return tmp, spec, dir, records
}

func TestProgressBar(t *testing.T) {
	var b bytes.Buffer
	bar := newProgressBar(&b, true, "sweep")
	bar.update(0, 10)
	bar.update(4, 10)
	bar.update(10, 12) // the total may change (load search)
	bar.update(12, 12)
	bar.finish()
	if out := b.String(); !strings.Contains(out, "sweep") || !strings.Contains(out, "12/12") {
		t.Errorf("bar printed %q", out)
	}
	b.Reset()
	quiet := newProgressBar(&b, false, "sweep")
	quiet.update(1, 2)
	quiet.finish()
	if b.Len() != 0 {
		t.Errorf("a bar off a terminal printed %q", b.String())
	}
}
