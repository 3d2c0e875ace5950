package experiment

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// smallSpec is 2 curves × 3 loads × 2 seeds = 12 short simulations on torus:4x4.
func smallSpec() Spec {
	s := NewSpec("torus:4x4")
	s.Deadlock = []string{"bubble", "vc"}
	s.Engine.Warmup, s.Engine.Measure = 200, 1000
	s.Loads = Fixed(0.1, 0.3, 0.6)
	s.Seeds = 2
	return s
}

func csvOf(t *testing.T, records []Record) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteCSV(&b, records); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func loadCSV(t *testing.T, dir string) string {
	t.Helper()
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Err(); err != nil {
		t.Fatal(err)
	}
	return csvOf(t, c.Records)
}

func run(t *testing.T, spec Spec, opt Options) *Results {
	t.Helper()
	res, err := Run(context.Background(), spec, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestRunAcceptanceWorkers is the acceptance sweep (twin:4x4x4/A and /D,
// bubble, uniform, 12 loads, 5 seeds): the same CSV with 1 and 2 workers, byte for
// byte, and a re-run that finds everything stored.
func TestRunAcceptanceWorkers(t *testing.T) {
	spec, err := ReadSpec("testdata/acceptance.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var csvs []string
	var times []time.Duration
	var last *Results
	for _, workers := range []int{1, 2} {
		dir := t.TempDir()
		res := run(t, spec, Options{Out: dir, Workers: workers})
		if res.Simulated != 120 || res.Stored != 0 || len(res.Records) != 120 {
			t.Fatalf("%d workers: simulated %d, stored %d, %d records; want 120, 0, 120", workers, res.Simulated, res.Stored, len(res.Records))
		}
		c := csvOf(t, res.Records)
		if fromStore := loadCSV(t, dir); fromStore != c {
			t.Errorf("%d workers: the store's CSV differs from the run's", workers)
		}
		again := run(t, spec, Options{Out: dir, Workers: workers})
		if again.Simulated != 0 || again.Stored != 120 || csvOf(t, again.Records) != c {
			t.Errorf("%d workers, re-run: simulated %d, stored %d; want 0 and 120, same CSV", workers, again.Simulated, again.Stored)
		}
		csvs = append(csvs, c)
		times = append(times, res.Elapsed)
		last = res
	}
	if csvs[0] != csvs[1] {
		t.Errorf("CSV with 1 worker differs from CSV with 2 workers")
	}
	if lines := strings.Count(csvs[0], "\n"); lines != 121 || !strings.HasPrefix(csvs[0], strings.Join(Columns(), ",")+"\n") {
		t.Errorf("CSV has %d lines, want a header and 120 rows:\n%.300s", lines, csvs[0])
	}
	t.Logf("acceptance sweep, 120 simulations: 1 worker %v, 2 workers %v: speed-up %.2f",
		times[0].Round(time.Millisecond), times[1].Round(time.Millisecond), times[0].Seconds()/times[1].Seconds())

	// Configuration D saturates later and delivers more than A (DORT, bubble: the
	// model's defaults).
	sats := last.Saturations()
	if len(sats) != 2 || sats[0].Curve != "twin:4x4x4/A bubble uniform" || sats[1].Curve != "twin:4x4x4/D bubble uniform" {
		t.Fatalf("saturations %+v", sats)
	}
	a, d := sats[0], sats[1]
	if !(a.Below < a.Load && a.Load < d.Load && a.Throughput.Mean < d.Throughput.Mean && a.Throughput.N == 5) {
		t.Errorf("saturation of A %+v and D %+v", a, d)
	}
	for _, s := range sats {
		if !(s.Throughput.Low < s.Throughput.Mean && s.Throughput.Mean < s.Throughput.High && s.Throughput.Mean < s.Load) {
			t.Errorf("%s: throughput %+v at saturation load %g", s.Curve, s.Throughput, s.Load)
		}
	}
}

// TestRunCancelResume cancels a sweep part-way, then resumes it: no simulation twice,
// none lost, and the same CSV as an uninterrupted run.
func TestRunCancelResume(t *testing.T) {
	spec := smallSpec()
	ref := csvOf(t, run(t, spec, Options{Out: t.TempDir(), Workers: 2}).Records)

	dir := t.TempDir()
	counts := map[string]int{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var progress [][2]int
	res, err := Run(ctx, spec, Options{Out: dir, Workers: 2,
		Progress: func(done, total int) { progress = append(progress, [2]int{done, total}) },
		OnRecord: func(r *Record) {
			counts[r.Key]++
			if len(counts) == 4 {
				cancel()
			}
		}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v", err)
	}
	if res.Simulated < 4 || res.Simulated >= 12 || progress[0] != [2]int{0, 12} || progress[len(progress)-1][0] != res.Simulated {
		t.Fatalf("cancelled run simulated %d, progress %v", res.Simulated, progress)
	}
	c, err := Load(dir)
	if err != nil || len(c.Records) != res.Simulated || c.Err() != nil {
		t.Fatalf("after cancel the store holds %d records (%v), want %d", len(c.Records), err, res.Simulated)
	}
	first := res.Simulated
	res = run(t, spec, Options{Out: dir, Workers: 2, OnRecord: func(r *Record) { counts[r.Key]++ }})
	if res.Stored != first || res.Simulated != 12-first {
		t.Errorf("resumed: stored %d, simulated %d; want %d and %d", res.Stored, res.Simulated, first, 12-first)
	}
	for k, n := range counts {
		if n != 1 {
			t.Errorf("simulation %.12s ran %d times", k, n)
		}
	}
	if len(counts) != 12 {
		t.Errorf("%d simulations ran in all, want 12", len(counts))
	}
	if got := loadCSV(t, dir); got != ref {
		t.Errorf("resumed CSV differs from the uninterrupted run's:\n%s\n%s", got, ref)
	}
}

// TestRunRecomputesCorrupt: truncated, altered, empty and misplaced record files are
// reported, recomputed, and never merged.
func TestRunRecomputesCorrupt(t *testing.T) {
	spec := smallSpec()
	dir := t.TempDir()
	ref := csvOf(t, run(t, spec, Options{Out: dir}).Records)
	paths, err := filepath.Glob(filepath.Join(dir, "records", "*", "*.json"))
	if err != nil || len(paths) != 12 {
		t.Fatalf("%d record files (%v), want 12", len(paths), err)
	}
	slices.Sort(paths)
	read := func(p string) []byte {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	write := func(p string, b []byte) {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b := read(paths[0])
	write(paths[0], b[:len(b)/2]) // truncated
	b = read(paths[1])
	i := bytes.Index(b, []byte(`"accepted":0.`)) + len(`"accepted":0.`)
	b[i] = '0' + (b[i]-'0'+1)%10 // one digit of the result altered
	write(paths[1], b)
	write(paths[2], nil)            // empty
	write(paths[3], read(paths[4])) // another record under this name

	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Records) != 8 || len(c.Corrupt) != 4 || c.Err() == nil {
		t.Fatalf("load: %d records, %d corrupt, want 8 and 4", len(c.Records), len(c.Corrupt))
	}
	for _, k := range c.Corrupt {
		if !slices.Contains(paths[:4], k.Path) || !strings.Contains(c.Err().Error(), k.Path) {
			t.Errorf("corrupt %s: %v", k.Path, k.Err)
		}
	}
	var log bytes.Buffer
	res := run(t, spec, Options{Out: dir, Log: &log})
	if res.Recomputed != 4 || res.Simulated != 4 || res.Stored != 8 || strings.Count(log.String(), "recomputing") != 4 {
		t.Errorf("re-run: recomputed %d, simulated %d, stored %d; want 4, 4, 8; log:\n%s", res.Recomputed, res.Simulated, res.Stored, &log)
	}
	if got := loadCSV(t, dir); got != ref {
		t.Errorf("CSV after recomputing differs from the original")
	}
}

// TestRunShards: shards partition the sweep and together give the unsharded CSV.
func TestRunShards(t *testing.T) {
	spec := smallSpec()
	ref := csvOf(t, run(t, spec, Options{Out: t.TempDir()}).Records)
	dir := t.TempDir()
	total := 0
	for i := range 3 {
		res := run(t, spec, Options{Out: dir, Shard: Shard{Index: i, Count: 3}})
		if res.Simulated != 4 || res.Stored != 0 {
			t.Errorf("shard %d/3: simulated %d, stored %d; want 4 and 0", i, res.Simulated, res.Stored)
		}
		total += res.Simulated
	}
	if total != 12 || loadCSV(t, dir) != ref {
		t.Errorf("shards simulated %d, want 12, and their CSV must equal the unsharded one", total)
	}
	for _, bad := range []string{"3/3", "-1/2", "1", "a/b", "0/0"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) succeeded", bad)
		}
	}
	if sh, err := ParseShard("2/5"); err != nil || sh != (Shard{2, 5}) {
		t.Errorf("ParseShard(2/5) = %v, %v", sh, err)
	}
}

// TestAutoSearch: the saturation search brackets each curve's saturation load to
// step/2^refine, between a load below saturation and one above, whatever the worker
// count and however it is sharded.
func TestAutoSearch(t *testing.T) {
	spec, err := ReadSpec("testdata/auto.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a := *spec.Loads.Auto
	res1 := run(t, spec, Options{Out: t.TempDir(), Workers: 1})
	dir := t.TempDir()
	res2 := run(t, spec, Options{Out: dir, Workers: 2})
	if c1, c2 := csvOf(t, res1.Records), csvOf(t, res2.Records); c1 != c2 {
		t.Fatalf("search with 1 and 2 workers differ:\n%s\n%s", c1, c2)
	}
	sums := res2.Summaries()
	sats := res2.Saturations()
	if len(sats) != 2 {
		t.Fatalf("saturations %+v", sats)
	}
	for _, s := range sats {
		var loads []float64
		for _, m := range sums {
			if m.CurveKey != s.CurveKey {
				continue
			}
			loads = append(loads, m.Load)
			if m.N != 3 {
				t.Errorf("%s at %g: %d replications", s.Curve, m.Load, m.N)
			}
			if m.Load <= s.Below && m.SaturatedShare() || m.Load == s.Load && !m.SaturatedShare() {
				t.Errorf("%s at %g: %d of %d saturated, bracket (%g, %g]", s.Curve, m.Load, m.Saturated, m.N, s.Below, s.Load)
			}
		}
		if w := s.Load - s.Below; !(w > 0 && w <= a.Step/8+1e-9) {
			t.Errorf("%s: bracket (%g, %g] is wider than step/2^refine = %g", s.Curve, s.Below, s.Load, a.Step/8)
		}
		// Coarse loads up to the first that saturated, plus 3 bisections.
		coarse := int(math.Round((math.Ceil(s.Load/a.Step-1e-9)*a.Step-a.From)/a.Step)) + 1
		if len(loads) != coarse+a.Refine {
			t.Errorf("%s: loads %v, want %d coarse and %d bisections", s.Curve, loads, coarse, a.Refine)
		}
	}
	if !(sats[0].Load < sats[1].Load) {
		t.Errorf("A saturates at %g, D at %g: want A first", sats[0].Load, sats[1].Load)
	}
	again := run(t, spec, Options{Out: dir, Workers: 2})
	if again.Simulated != 0 || again.Stored != len(res2.Records) {
		t.Errorf("re-run simulated %d, stored %d", again.Simulated, again.Stored)
	}
	sharded := t.TempDir()
	for i := range 2 {
		res := run(t, spec, Options{Out: sharded, Shard: Shard{i, 2}})
		if len(res.Saturations()) != 1 {
			t.Errorf("shard %d/2 searched %d curves, want 1", i, len(res.Saturations()))
		}
	}
	if loadCSV(t, sharded) != loadCSV(t, dir) {
		t.Error("sharded search differs from the whole search")
	}
}

// TestPastSaturation: a fixed load list cut short past saturation runs each curve up
// to its first saturated load and PastSaturation more, no further, with the very
// records the full list makes, whatever the worker count or sharding.
func TestPastSaturation(t *testing.T) {
	spec := NewSpec("torus:4x4", "torus:8x8")
	spec.Deadlock = []string{"bubble"}
	spec.Engine.Warmup, spec.Engine.Measure = 200, 1000
	spec.Loads = Fixed(0.1, 0.3, 0.5, 0.7, 0.9, 1.1)
	spec.Seeds = 2
	full := run(t, spec, Options{Out: t.TempDir()})
	cut := spec
	cut.PastSaturation = 1
	dir := t.TempDir()
	res := run(t, cut, Options{Out: dir, Workers: 2})
	if c1 := csvOf(t, run(t, cut, Options{Out: t.TempDir(), Workers: 1}).Records); c1 != csvOf(t, res.Records) {
		t.Fatal("1 and 2 workers differ")
	}
	want := map[string]bool{} // the records the cut sweep must hold, by point key
	for _, c := range full.Curves {
		saturated := 0
		for _, load := range spec.Loads.Values {
			if saturated > cut.PastSaturation {
				break
			}
			n := 0
			for _, rec := range full.Records {
				if curveKeyOf(rec.Point) == c.Key && rec.Point.Load == load {
					want[rec.Key] = true
					if rec.Result.Saturated {
						n++
					}
				}
			}
			if 2*n >= spec.Seeds {
				saturated++
			}
		}
		if saturated != cut.PastSaturation+1 {
			t.Fatalf("%s saturated at %d loads: the test wants every curve to pass saturation", c.Key, saturated)
		}
	}
	if len(want) >= len(full.Records) || len(want) != len(res.Records) || res.Simulated != len(want) {
		t.Fatalf("cut sweep simulated %d records; want %d of the full %d", res.Simulated, len(want), len(full.Records))
	}
	for _, rec := range res.Records {
		if !want[rec.Key] {
			t.Errorf("ran %s at load %g, past the cut", curveName(rec.Point), rec.Point.Load)
		}
	}
	sharded := t.TempDir()
	for i := range 2 {
		run(t, cut, Options{Out: sharded, Shard: Shard{i, 2}})
	}
	if loadCSV(t, sharded) != loadCSV(t, dir) {
		t.Error("sharded cut sweep differs from the whole one")
	}
	if m, total, err := Pending(context.Background(), cut, dir); err != nil || m != -1 || total != -1 {
		t.Errorf("Pending = %d, %d, %v; want -1, -1: the loads are not known before the run", m, total, err)
	}
}

func TestRunRefusesBadInput(t *testing.T) {
	spec := smallSpec()
	if _, err := Run(context.Background(), spec, Options{}); err == nil || !strings.Contains(err.Error(), "no directory") {
		t.Errorf("no store: %v", err)
	}
	if _, err := Run(context.Background(), spec, Options{Out: t.TempDir(), Workers: -1}); err == nil {
		t.Error("negative workers accepted")
	}
	spec.Loads = Fixed()
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Run(context.Background(), spec, Options{Out: dir}); err == nil {
		t.Error("empty load axis accepted")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a spec that does not validate created the store: %v", err)
	}
}

// BenchmarkSweep runs the acceptance sweep with 1 and 2 workers.
func BenchmarkSweep(b *testing.B) {
	spec, err := ReadSpec("testdata/acceptance.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		b.Run("workers="+string(rune('0'+workers)), func(b *testing.B) {
			for b.Loop() {
				if _, err := Run(context.Background(), spec, Options{Out: b.TempDir(), Workers: workers}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(120*float64(b.N)/b.Elapsed().Seconds(), "sims/s")
		})
	}
}
