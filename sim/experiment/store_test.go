package experiment

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// copyTree copies the directory src to dst, for tests that change a fixture.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestStoreReadsFormatV1: testdata/store-v1 was written by the first record format,
// each record embedding its spec (`twintorus sweep testdata/store-v1.yaml` before the
// change; when engine.ModelVersion became 2 its records' keys, model field and checksums
// were renamed to version 2, their results being the same under both). It still loads, with the same table and summaries as the program that made
// it wrote (testdata/store-v1.csv and store-v1-summary.csv); a sweep of its spec finds
// every record; a sweep that adds loads mixes both formats in one store.
func TestStoreReadsFormatV1(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	copyTree(t, "testdata/store-v1", dir)
	c, err := Load(dir)
	if err != nil || c.Err() != nil || len(c.Records) != 8 || len(c.SpecErrors) != 0 {
		t.Fatalf("load: %v, %v, %d records, spec errors %v", err, c.Err(), len(c.Records), c.SpecErrors)
	}
	for _, r := range c.Records {
		if r.Spec.Name != "v1-fixture" || r.Spec.Hash() != r.SpecHash {
			t.Fatalf("record %.12s: embedded spec not read: %+v", r.Key, r.Spec)
		}
	}
	// Columns added since (packet_lengths) are left out of the comparison; every column
	// the v1 program wrote must be there with the same values.
	want := readString(t, "testdata/store-v1.csv")
	if got := projectCSV(t, csvOf(t, c.Records), want); got != want {
		t.Errorf("CSV of the v1 store differs from the one its program wrote:\n got %s\nwant %s", got, want)
	}
	var sum bytes.Buffer
	metrics := RequestedMetrics(c.Records)
	if err := WriteSummaryCSV(&sum, Summarize(c.Records, metrics...), metrics); err != nil {
		t.Fatal(err)
	}
	// The stationarity columns added since say that no replication was checked.
	if want := readString(t, "testdata/store-v1-summary.csv"); projectCSV(t, sum.String(), want) != want {
		t.Errorf("summary of the v1 store differs:\n got %s\nwant %s", sum.String(), want)
	}
	for _, s := range Summarize(c.Records, metrics...) {
		if s.Unchecked != s.N || s.NonStationary != 0 || s.Steadiness() != SteadyUnknown {
			t.Errorf("%s at %g: %d unchecked, %d not stationary of %d: the v1 records have no verdict", s.Curve, s.Load, s.Unchecked, s.NonStationary, s.N)
		}
	}

	spec, err := ReadSpec("testdata/store-v1.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res := run(t, spec, Options{Out: dir, Workers: 2})
	if res.Stored != 8 || res.Simulated != 0 {
		t.Errorf("sweep over the v1 store: %d stored, %d run; want 8, 0", res.Stored, res.Simulated)
	}
	more := spec
	more.Loads = Fixed(0.001, 0.2, 0.3)
	res = run(t, more, Options{Out: dir, Workers: 2})
	if res.Stored != 8 || res.Simulated != 4 {
		t.Errorf("sweep with one more load: %d stored, %d run; want 8, 4", res.Stored, res.Simulated)
	}
	c, err = Load(dir)
	if err != nil || c.Err() != nil || len(c.Records) != 12 || len(c.SpecErrors) != 0 {
		t.Fatalf("mixed store: %v, %v, %d records, %v", err, c.Err(), len(c.Records), c.SpecErrors)
	}
	formats := map[string]int{}
	for _, r := range c.Records {
		data := readString(t, (&Store{Dir: dir}).Path(r.Key))
		for _, f := range []string{RecordFormatV1, RecordFormat} {
			if strings.Contains(data, `"format":"`+f+`"`) {
				formats[f]++
			}
		}
		if r.Point.Load == 0.2 && r.Spec.Hash() != more.Hash() {
			t.Errorf("new record %.12s: its spec is not the one that made it", r.Key)
		}
	}
	if formats[RecordFormatV1] != 8 || formats[RecordFormat] != 4 {
		t.Errorf("record formats in the mixed store: %v", formats)
	}
}

// TestRecordSizeIndependentOfSpec: a record names its spec by hash, so a spec of
// 10,000 loads costs its size once per store, not once per record (the first format
// made 70,841-byte records of such a spec).
func TestRecordSizeIndependentOfSpec(t *testing.T) {
	spec := NewSpec("torus:4x4")
	loads := make([]float64, MaxLoads)
	for i := range loads {
		loads[i] = float64(i+1) / 1e4
	}
	spec.Loads = Fixed(loads...)
	spec.Engine.Warmup, spec.Engine.Measure = 0, 1
	spec.Engine = spec.Engine.StationaryOff() // one cycle: no batches to check
	dir := t.TempDir()
	res := run(t, spec, Options{Out: dir, Workers: 2, Shard: Shard{0, 1000}})
	if res.Simulated != 10 {
		t.Fatalf("%d simulations, want 10", res.Simulated)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "records", "*", "*.json"))
	var largest int64
	for _, f := range files {
		info, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		largest = max(largest, info.Size())
	}
	specs, _ := filepath.Glob(filepath.Join(dir, "specs", "*.yaml"))
	t.Logf("%d records of at most %d bytes; %d spec file(s)", len(files), largest, len(specs))
	if len(files) != 10 || largest > 2500 || len(specs) != 1 {
		t.Errorf("%d records, the largest %d bytes (want at most 2,500), %d spec files (want 1)", len(files), largest, len(specs))
	}
	c, err := Load(dir)
	if err != nil || c.Err() != nil || len(c.Records) != 10 || len(c.Records[0].Spec.Loads.Values) != MaxLoads {
		t.Fatalf("load: %v %v", err, c.Err())
	}
}

// TestStoreLostSpec: records whose spec file is gone still load, with the loss
// reported once; their rows are whole.
func TestStoreLostSpec(t *testing.T) {
	dir := t.TempDir()
	run(t, smallSpec(), Options{Out: dir, Workers: 2})
	want := loadCSV(t, dir)
	specs, _ := filepath.Glob(filepath.Join(dir, "specs", "*.yaml"))
	for _, s := range specs {
		if err := os.Remove(s); err != nil {
			t.Fatal(err)
		}
	}
	c, err := Load(dir)
	if err != nil || c.Err() != nil {
		t.Fatal(err, c.Err())
	}
	if len(c.SpecErrors) != 1 || !errors.Is(c.SpecErrors[0].Err, fs.ErrNotExist) {
		t.Errorf("spec errors: %v", c.SpecErrors)
	}
	if csvOf(t, c.Records) != want {
		t.Error("the CSV changed when the spec file went")
	}
	// A spec file that holds another spec is not taken for the lost one.
	other := smallSpec()
	other.Name = "other"
	data, err := yaml.Marshal(other)
	if err != nil {
		t.Fatal(err)
	}
	lost := c.Records[0].SpecHash
	path := filepath.Join(dir, "specs", lost[:16]+".yaml")
	if err := os.WriteFile(path, append([]byte(specHeader(lost)), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err = Load(dir)
	if err != nil || len(c.SpecErrors) != 1 || !strings.Contains(c.SpecErrors[0].Err.Error(), "holds spec") {
		t.Errorf("a spec file holding another spec: %v %v", err, c.SpecErrors)
	}
}

// TestSpecYAMLHasEveryKey: the YAML a store keeps of a spec reads back as the same
// spec whatever it sets. past_saturation was once left out, so that a Slurm task
// read a different spec from the one submitted.
func TestSpecYAMLHasEveryKey(t *testing.T) {
	s := NewSpec("torus:4x4", "mesh:4x4")
	s.Name = "every key"
	s.Routing = []string{"dor"}
	s.Selection = []string{"3prio"}
	s.Deadlock = []string{"vc", "bubble"}
	s.Tie = []string{"minus"}
	s.Traffic = []string{"uniform", "transpose"}
	s.Sizes = []string{"2"}
	s.Engine.Warmup, s.Engine.Measure, s.Engine.PacketFlits = 10, 100, 2
	s.Loads = Fixed(0.1, 0.2)
	s.PastSaturation = 1
	s.Seeds, s.Seed = 3, 7
	s.Precision = &Precision{Metric: "latency_network_mean", Absolute: 0.5, MinSeeds: 2}
	s.Metrics = []string{"accepted"}
	// The closed-loop keys, which exclude traffic, sizes and loads, in a second spec.
	c := NewSpec("torus:4x4")
	c.Name = "every closed-loop key"
	c.Workload = []string{"bcast:binomial:512B", "alltoall:linear:16B"}
	c.Mapping = []string{"random", "linear/2"}
	c.FlitBytes, c.LocalCycles = 8, 3
	c.Seeds = 2
	c.Preset = "kns" // its parameters are the engine block as written: the round trip keeps them
	c.Metrics = []string{"execution_cycles"}
	c.Precision = &Precision{Relative: 0.05} // the relative form, and the defaults filled in
	// Every field of Spec is set to something else than NewSpec's default in one of them.
	v, w, d := reflect.ValueOf(s), reflect.ValueOf(c), reflect.ValueOf(NewSpec())
	for i := range v.NumField() {
		if f := v.Type().Field(i); f.IsExported() && reflect.DeepEqual(v.Field(i).Interface(), d.Field(i).Interface()) &&
			reflect.DeepEqual(w.Field(i).Interface(), d.Field(i).Interface()) {
			t.Errorf("the test leaves Spec.%s at its default: set it", f.Name)
		}
	}
	for _, s := range []Spec{s, c} {
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		data, err := yaml.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseSpec("back.yaml", data)
		if err != nil {
			t.Fatalf("%v\n%s", err, data)
		}
		if back.Hash() != s.Hash() {
			t.Errorf("the spec changed on its way through YAML:\n%s", data)
		}
		dir := t.TempDir()
		store, err := OpenStore(dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := store.SaveSpec(s); err != nil {
			t.Fatal(err)
		}
		got, err := (&Store{Dir: dir}).Spec(s.Hash())
		if err != nil || got.Hash() != s.Hash() || got.PastSaturation != s.PastSaturation || len(got.Workload) != len(s.Workload) {
			t.Errorf("spec read back from the store: %v, %+v", err, got)
		}
	}
}

// treeState is what a test can see of a directory tree changing: every entry's name,
// inode, size and modification time.
func treeState(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		ino := uint64(0)
		if st, ok := info.Sys().(*syscall.Stat_t); ok {
			ino = st.Ino
		}
		out = append(out, fmt.Sprintf("%s %v %s inode %d, %d bytes", path, info.Mode(), info.ModTime().Format(time.RFC3339Nano), ino, info.Size()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestRunCompleteStoreWritesNothing: a sweep whose records are all stored only reads
// the store, so that it runs on a read-only copy (it used to rewrite the spec file).
func TestRunCompleteStoreWritesNothing(t *testing.T) {
	dir := t.TempDir()
	run(t, smallSpec(), Options{Out: dir, Workers: 2})
	before := treeState(t, dir)
	time.Sleep(20 * time.Millisecond) // a rewrite would show in the times too
	res := run(t, smallSpec(), Options{Out: dir, Workers: 2})
	if res.Simulated != 0 {
		t.Fatalf("second sweep ran %d simulations", res.Simulated)
	}
	if after := treeState(t, dir); !slices.Equal(before, after) {
		t.Errorf("a sweep of a complete store changed it:\nbefore %q\nafter  %q", before, after)
	}
	if m, total, err := Pending(context.Background(), smallSpec(), dir); m != 0 || total != 12 || err != nil {
		t.Errorf("Pending = %d, %d, %v", m, total, err)
	}
	if after := treeState(t, dir); !slices.Equal(before, after) {
		t.Error("Pending changed the store")
	}
}

// TestStoreNonRegularFiles: a named pipe where a record should be is never opened for
// reading (it would block until a writer came): Load skips it and says so, Get
// reports it, and a sweep recomputes the record in its place. A directory where a
// record should be is corrupt: Load names it, so collect fails instead of leaving
// the record out silently.
func TestStoreNonRegularFiles(t *testing.T) {
	dir := t.TempDir()
	spec := smallSpec()
	run(t, spec, Options{Out: dir, Workers: 2})
	want := loadCSV(t, dir)
	paths, _ := filepath.Glob(filepath.Join(dir, "records", "*", "*.json"))
	slices.Sort(paths)
	fifo, asDir := paths[0], paths[1]
	for _, p := range []string{fifo, asDir} {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("cannot make a named pipe here: %v", err)
	}
	if err := os.MkdirAll(filepath.Join(asDir, "inside"), 0o755); err != nil {
		t.Fatal(err)
	}

	type loaded struct {
		c   *Collection
		err error
	}
	done := make(chan loaded, 1)
	go func() {
		c, err := Load(dir)
		done <- loaded{c, err}
	}()
	var c *Collection
	select {
	case l := <-done:
		if l.err != nil {
			t.Fatal(l.err)
		}
		c = l.c
	case <-time.After(10 * time.Second):
		t.Fatal("Load hangs on a named pipe named like a record")
	}
	if len(c.Skipped) != 1 || c.Skipped[0].Path != fifo || !strings.Contains(c.Skipped[0].Err.Error(), "named pipe") {
		t.Errorf("skipped: %v", c.Skipped)
	}
	if len(c.Corrupt) != 1 || c.Corrupt[0].Path != asDir || !strings.Contains(c.Err().Error(), "a directory where record files should be") {
		t.Errorf("corrupt: %v", c.Corrupt)
	}
	if len(c.Records) != 10 {
		t.Errorf("%d records, want 10", len(c.Records))
	}
	key := strings.TrimSuffix(filepath.Base(fifo), ".json")
	if _, err := (&Store{Dir: dir}).Get(key); err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("Get of a named pipe: %v", err)
	}

	// The sweep recomputes the record the pipe stood for; the directory stays, and
	// the sweep fails on it, naming it.
	if err := os.RemoveAll(asDir); err != nil {
		t.Fatal(err)
	}
	ran := make(chan *Results, 1)
	go func() { ran <- run(t, spec, Options{Out: dir, Workers: 2}) }()
	select {
	case res := <-ran:
		if res.Simulated != 2 || res.Recomputed != 1 {
			t.Errorf("sweep over the pipe: %d run, %d recomputed; want 2, 1", res.Simulated, res.Recomputed)
		}
	case <-time.After(time.Minute):
		t.Fatal("the sweep hangs on a named pipe named like a record")
	}
	if got := loadCSV(t, dir); got != want {
		t.Error("CSV after recomputing differs")
	}
}

// TestLoadCancel: reading a store stops when its context is cancelled.
func TestLoadCancel(t *testing.T) {
	dir := t.TempDir()
	run(t, smallSpec(), Options{Out: dir, Workers: 2})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := LoadContext(ctx, dir); !errors.Is(err, context.Canceled) {
		t.Errorf("LoadContext with a cancelled context: %v", err)
	}
	if _, _, err := Pending(ctx, smallSpec(), dir); !errors.Is(err, context.Canceled) {
		t.Errorf("Pending with a cancelled context: %v", err)
	}
	res, err := Run(ctx, smallSpec(), Options{Out: dir})
	if !errors.Is(err, context.Canceled) || res.Stored != 0 {
		t.Errorf("Run with a cancelled context: %v, %d stored", err, res.Stored)
	}
}

// TestRecordEncoderNamesField: a non-finite number in a point (which validation
// refuses; see TestParseSpecErrors) makes the encoder name the field.
func TestRecordEncoderNamesField(t *testing.T) {
	r := testRecord(t)
	r.Point.SaturationTolerance = math.NaN()
	_, err := r.Marshal()
	if err == nil || !strings.Contains(err.Error(), "point.saturation_tolerance (NaN) is not a finite number") {
		t.Errorf("encoding a NaN tolerance: %v", err)
	}
}

// projectCSV keeps the columns of table that like's header names, in like's order.
func projectCSV(t *testing.T, table, like string) string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(table)).ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("table: %v", err)
	}
	header, err := csv.NewReader(strings.NewReader(like)).Read()
	if err != nil {
		t.Fatalf("header: %v", err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	for _, row := range rows {
		out := make([]string, len(header))
		for i, h := range header {
			j, ok := col[h]
			if !ok {
				t.Fatalf("column %s missing from %v", h, rows[0])
			}
			out[i] = row[j]
		}
		if err := w.Write(out); err != nil {
			t.Fatal(err)
		}
	}
	w.Flush()
	return b.String()
}

// TestResumeRemovesKilledTemps: the temporary files of records and specs that a killed
// sweep leaves behind are removed when the sweep resumes, at once, not an hour later
// (issue 39); the temporary file of a record another process is writing (it holds
// its lock) is left alone.
func TestResumeRemovesKilledTemps(t *testing.T) {
	dir := t.TempDir()
	run(t, smallSpec(), Options{Out: dir, Workers: 2})
	killed := []string{
		filepath.Join(dir, "records", "ab", tempPrefix+"ab12.json-123"),
		filepath.Join(dir, "specs", tempPrefix+"0123456789abcdef.yaml-456"),
	}
	live := filepath.Join(dir, "records", "cd", tempPrefix+"cd34.json-789")
	for _, p := range append(killed, live) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(`{"form`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(live)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Skipf("no file locks here: %v", err)
	}
	run(t, smallSpec(), Options{Out: dir, Workers: 2})
	for _, p := range killed {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s left by a killed sweep is still there (%v)", p, err)
		}
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the temporary file a live writer holds was removed: %v", err)
	}
}
