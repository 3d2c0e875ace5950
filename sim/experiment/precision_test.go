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
)

// precisionSpec is one curve on torus:4x4 from a light load to past saturation, with
// a target on the mean network latency that is met at once at light loads (short
// paths, little queueing) and takes more replications near and past saturation.
func precisionSpec() Spec {
	s := NewSpec("torus:4x4")
	s.Engine.Warmup, s.Engine.Measure = 200, 1000
	s.Loads = Fixed(0.02, 0.3, 0.6, 0.9)
	s.Seeds = 16
	s.Metrics = []string{"accepted", "latency_network_mean"}
	s.Precision = &Precision{Metric: "latency_network_mean", Relative: 0.06, MinSeeds: 4}
	return s
}

// pointsOf splits records by (curve, load), each point's records by seed.
func pointsOf(records []Record) [][]Record {
	var out [][]Record
	for _, g := range groups(records) {
		rs := make([]Record, len(g.records))
		for i, r := range g.records {
			rs[i] = *r
		}
		out = append(out, rs)
	}
	return out
}

// checkStoppingRule holds each point's records to the rule, recomputed here from the
// stored results with Estimated alone: seeds Seed..Seed+n−1 with no gap, n a batch
// boundary (MinSeeds, 2·MinSeeds, ..., Seeds); the target met by the first n and by
// no shorter prefix at an earlier boundary, unless n is Seeds. It returns the
// replication counts of the points.
func checkStoppingRule(t *testing.T, spec Spec, records []Record) []int {
	t.Helper()
	p := spec.withDefaults().Precision
	m, _ := metricByName(p.Metric)
	met := func(rs []Record) bool {
		v := make([]float64, len(rs))
		for i := range rs {
			v[i] = m.get(rs[i].Result)
		}
		e := Estimated(v)
		hw := (e.High - e.Low) / 2
		target := p.Absolute
		if p.Relative != 0 {
			target = p.Relative * math.Abs(e.Mean)
		}
		return e.N >= p.MinSeeds && hw <= target
	}
	var ns []int
	for _, rs := range pointsOf(records) {
		n := len(rs)
		where := func() string { return rs[0].Curve + " at " + ftoa(rs[0].Point.Load) }
		for i, r := range rs {
			if r.Point.Seed != spec.Seed+uint64(i) {
				t.Fatalf("%s: replication %d has seed %d, want %d", where(), i, r.Point.Seed, spec.Seed+uint64(i))
			}
		}
		if n < p.MinSeeds || n > spec.Seeds || n != spec.Seeds && n%p.MinSeeds != 0 {
			t.Errorf("%s: %d replications, not a batch boundary of %d up to %d", where(), n, p.MinSeeds, spec.Seeds)
		}
		if n < spec.Seeds && !met(rs) {
			t.Errorf("%s stopped at %d replications without meeting the target", where(), n)
		}
		for k := p.MinSeeds; k < n; k += p.MinSeeds {
			if met(rs[:k]) {
				t.Errorf("%s met the target at %d replications but ran %d", where(), k, n)
			}
		}
		ns = append(ns, n)
	}
	return ns
}

// TestPrecisionStops: points stop adding seeds once precise enough and not before;
// light loads stop at min_seeds, loads near saturation go on. Summaries, tables and
// the saturation rule take each point's own count.
func TestPrecisionStops(t *testing.T) {
	spec := precisionSpec()
	var progress [][2]int
	res := run(t, spec, Options{Out: t.TempDir(), Workers: 2, Progress: func(done, total int) { progress = append(progress, [2]int{done, total}) }})
	ns := checkStoppingRule(t, spec, res.Records)
	if len(ns) != 4 {
		t.Fatalf("%d points, want 4", len(ns))
	}
	if ns[0] != 4 || slices.Max(ns) <= 4 {
		t.Errorf("replications per load %v: want the lightest load at min_seeds (4) and a heavier one past it", ns)
	}
	if res.Planned != -1 || res.Simulated != len(res.Records) || res.Simulated >= 4*spec.Seeds {
		t.Errorf("planned %d, simulated %d of %d records; want -1 and fewer than %d", res.Planned, res.Simulated, len(res.Records), 4*spec.Seeds)
	}
	t.Logf("replications per load %v: %d simulations instead of %d", ns, res.Simulated, 4*spec.Seeds)
	// Progress: starts at 0 of the most there could be, totals never grow, ends exact.
	if progress[0] != [2]int{0, 4 * spec.Seeds} {
		t.Errorf("first progress %v, want [0 %d]", progress[0], 4*spec.Seeds)
	}
	for i := 1; i < len(progress); i++ {
		if progress[i][1] > progress[i-1][1] || progress[i][0] < progress[i-1][0] {
			t.Errorf("progress went from %v to %v", progress[i-1], progress[i])
		}
	}
	if last := progress[len(progress)-1]; last != [2]int{res.Simulated, res.Simulated} {
		t.Errorf("last progress %v, want [%d %d]", last, res.Simulated, res.Simulated)
	}

	sums := res.Summaries()
	var buf bytes.Buffer
	if err := WriteSummaryCSV(&buf, sums, spec.Metrics); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSummaryCSV(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range sums {
		if s.N != ns[i] || s.Estimates["accepted"].N != ns[i] || back[i].N != ns[i] {
			t.Errorf("load %g: summary N %d (CSV %d), want %d", s.Load, s.N, back[i].N, ns[i])
		}
	}
	// Saturation: at least half of the point's own replications, whatever their count.
	sat := res.Saturations()[0]
	for i, s := range sums {
		if want := 2*s.Saturated >= ns[i]; s.SaturatedShare() != want {
			t.Errorf("load %g: %d of %d saturated, SaturatedShare %v", s.Load, s.Saturated, ns[i], s.SaturatedShare())
		}
		if s.SaturatedShare() && math.IsNaN(sat.Load) {
			t.Errorf("load %g saturated but the curve has no saturation load", s.Load)
		}
	}
	if sat.Load != 0.9 {
		t.Errorf("saturation load %g, want 0.9 (the test wants the last load past saturation)", sat.Load)
	}
}

// TestPrecisionDeterministic: the same simulations and the same tables with 1 and 2
// workers, after an interruption, after records are lost, and from a store that
// holds more seeds of each point than the target needs.
func TestPrecisionDeterministic(t *testing.T) {
	spec := precisionSpec()
	metrics := spec.Metrics
	summary := func(records []Record) string {
		var b bytes.Buffer
		if err := WriteSummaryCSV(&b, Summarize(records, metrics...), metrics); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	ref := run(t, spec, Options{Out: t.TempDir(), Workers: 1})
	refCSV, refSum := csvOf(t, ref.Records), summary(ref.Records)
	dir := t.TempDir()
	two := run(t, spec, Options{Out: dir, Workers: 2})
	if csvOf(t, two.Records) != refCSV || summary(two.Records) != refSum {
		t.Fatal("1 and 2 workers give different records or summaries")
	}
	if loadCSV(t, dir) != refCSV {
		t.Error("the store holds other records than the run returned")
	}

	// Interrupted after a few records, then resumed: no simulation twice, the same end.
	dir = t.TempDir()
	counts := map[string]int{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := Run(ctx, spec, Options{Out: dir, Workers: 2, OnRecord: func(r *Record) {
		counts[r.Key]++
		if len(counts) == 6 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || res.Simulated < 6 || res.Simulated >= ref.Simulated || res.Unfinished == 0 {
		t.Fatalf("cancelled run: %v; simulated %d of %d, %d curves unfinished", err, res.Simulated, ref.Simulated, res.Unfinished)
	}
	res = run(t, spec, Options{Out: dir, Workers: 2, OnRecord: func(r *Record) { counts[r.Key]++ }})
	if csvOf(t, res.Records) != refCSV || summary(res.Records) != refSum || loadCSV(t, dir) != refCSV {
		t.Error("resumed run differs from the uninterrupted one")
	}
	for k, n := range counts {
		if n != 1 {
			t.Errorf("simulation %.12s ran %d times", k, n)
		}
	}
	if len(counts) != len(ref.Records) {
		t.Errorf("%d simulations in all, want %d", len(counts), len(ref.Records))
	}

	// Records deleted from a finished store are run again, and only they.
	paths, err := filepath.Glob(filepath.Join(dir, "records", "*", "*.json"))
	if err != nil || len(paths) != len(ref.Records) {
		t.Fatalf("%d record files (%v), want %d", len(paths), err, len(ref.Records))
	}
	slices.Sort(paths)
	for _, p := range paths[:len(paths)/2] {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	res = run(t, spec, Options{Out: dir, Workers: 2})
	if res.Simulated != len(paths)/2 || csvOf(t, res.Records) != refCSV {
		t.Errorf("after deleting %d records: simulated %d; the records must be the uninterrupted run's", len(paths)/2, res.Simulated)
	}

	// A store that already holds every seed: the target picks the same replications.
	full := spec
	full.Precision = nil
	dir = t.TempDir()
	all := run(t, full, Options{Out: dir, Workers: 2})
	if len(all.Records) != 4*spec.Seeds {
		t.Fatalf("without a target: %d records, want %d", len(all.Records), 4*spec.Seeds)
	}
	res = run(t, spec, Options{Out: dir, Workers: 2})
	if res.Simulated != 0 || res.Stored != len(ref.Records) || csvOf(t, res.Records) != refCSV {
		t.Errorf("on a full store: simulated %d, found %d; want 0 and %d, the same records", res.Simulated, res.Stored, len(ref.Records))
	}
}

// TestPrecisionShards: under a target, shards own whole points and together make the
// unsharded sweep's records.
func TestPrecisionShards(t *testing.T) {
	spec := precisionSpec()
	ref := run(t, spec, Options{Out: t.TempDir()})
	dir := t.TempDir()
	total := 0
	for i := range 3 {
		res := run(t, spec, Options{Out: dir, Shard: Shard{Index: i, Count: 3}})
		for _, rs := range pointsOf(res.Records) {
			pi := slices.Index(spec.Loads.Values, rs[0].Point.Load) // one curve: point index = load index
			if pi%3 != i {
				t.Errorf("shard %d/3 ran load %g, point %d", i, rs[0].Point.Load, pi)
			}
		}
		total += res.Simulated
	}
	if total != ref.Simulated || loadCSV(t, dir) != csvOf(t, ref.Records) {
		t.Errorf("shards simulated %d, want %d, and their records must be the unsharded sweep's", total, ref.Simulated)
	}
	if m, n, err := Pending(context.Background(), spec, dir); err != nil || m != -1 || n != -1 {
		t.Errorf("Pending = %d, %d, %v; want -1, -1: a point's replications are not known before it runs", m, n, err)
	}
}

// TestPrecisionLoadWalks: with past_saturation and with a load search, each load's
// replications follow the target, the walk judges saturation on them, and the result
// does not depend on the worker count or sharding.
func TestPrecisionLoadWalks(t *testing.T) {
	walk := precisionSpec()
	walk.Topologies = []string{"torus:4x4", "mesh:4x4"}
	walk.Loads = Fixed(0.02, 0.3, 0.6, 0.9, 1.2)
	walk.PastSaturation = 0
	search := walk
	search.Loads = Auto(AutoSearch{From: 0.3, Step: 0.3, Max: 1.2, Refine: 1})
	walk.PastSaturation = 1
	for name, spec := range map[string]Spec{"past_saturation": walk, "auto": search} {
		t.Run(name, func(t *testing.T) {
			one := run(t, spec, Options{Out: t.TempDir(), Workers: 1})
			checkStoppingRule(t, spec, one.Records)
			if one.Unfinished != 0 || one.Planned != -1 {
				t.Errorf("unfinished %d, planned %d", one.Unfinished, one.Planned)
			}
			if c2 := csvOf(t, run(t, spec, Options{Out: t.TempDir(), Workers: 2}).Records); c2 != csvOf(t, one.Records) {
				t.Error("1 and 2 workers differ")
			}
			sharded := t.TempDir()
			for i := range 2 {
				run(t, spec, Options{Out: sharded, Shard: Shard{i, 2}})
			}
			if loadCSV(t, sharded) != csvOf(t, one.Records) {
				t.Error("sharded walk differs from the whole one")
			}
			// The walk went on from a load only if fewer than half its own
			// replications saturated (past_saturation 1: one saturated load more).
			sums := one.Summaries()
			for i, s := range sums {
				if i > 0 && sums[i-1].CurveKey == s.CurveKey && spec.PastSaturation == 1 {
					saturatedBefore := 0
					for _, b := range sums[:i] {
						if b.CurveKey == s.CurveKey && b.SaturatedShare() {
							saturatedBefore++
						}
					}
					if saturatedBefore > spec.PastSaturation {
						t.Errorf("%s ran load %g after %d saturated loads", s.Curve, s.Load, saturatedBefore)
					}
				}
			}
			t.Logf("%d simulations, %d points", one.Simulated, len(sums))
		})
	}
}

// TestPrecisionClosedLoop: a closed-loop spec judges execution_cycles by default, and
// random mappings make replications differ as open-loop seeds do.
func TestPrecisionClosedLoop(t *testing.T) {
	spec, err := ParseSpec("closed.yaml", []byte(`
topologies: [torus:4x4]
deadlock: vc
workload: [alltoall:pairwise:16B]
mapping: [linear, random/2]
seeds: 9
precision: {absolute: 1, min_seeds: 3}
`))
	if err != nil {
		t.Fatal(err)
	}
	if p := spec.Precision; p.Metric != "execution_cycles" || p.MinSeeds != 3 {
		t.Fatalf("closed-loop precision defaults %+v", *p)
	}
	res := run(t, spec, Options{Out: t.TempDir(), Workers: 2})
	ns := checkStoppingRule(t, spec, res.Records)
	// A linear mapping gives every seed the same time: SD 0, precise at once.
	if len(ns) != 2 || ns[0] != 3 {
		t.Errorf("replications per curve %v, want the linear mapping's at 3", ns)
	}
}

// TestPrecisionErrors: every bad precision block is refused with what is wrong and
// what is accepted, before anything runs.
func TestPrecisionErrors(t *testing.T) {
	base := "topologies: [torus:4x4]\nloads: [0.1]\nseeds: 30\n"
	cases := []specErrorCase{
		{base + "precision: {metric: speed, relative: 0.01}\n", `bad.yaml:4: precision.metric: unknown metric "speed": accepted are ` + strings.Join(MetricNames(), ", ")},
		{base + "precision: {metric: execution_cycles, relative: 0.01}\n", "bad.yaml:4: precision.metric: execution_cycles is a closed-loop metric, NaN in every run of a spec without a workload axis: judge an open-loop one such as accepted"},
		{base + "precision: {relative: 0.01, absolute: 0.002}\n", "bad.yaml:4: precision: both relative and absolute: give one"},
		{base + "precision: {min_seeds: 5}\n", "bad.yaml:4: precision: no target: give relative (the 95 % CI half-width as a fraction of |mean|, e.g. 0.01) or absolute (in the metric's unit, e.g. 0.002)"},
		{base + "precision:\n", "bad.yaml:4: precision: no target: give relative (the 95 % CI half-width as a fraction of |mean|, e.g. 0.01) or absolute (in the metric's unit, e.g. 0.002)"},
		{base + "precision:\n  relative: 0\n", "bad.yaml:5: precision.relative: relative 0: accepted is a finite number above 0 (the half-width as a fraction of |mean|, e.g. 0.01)"},
		{base + "precision:\n  relative: -0.1\n", "bad.yaml:5: precision.relative: relative -0.1: accepted is a finite number above 0 (the half-width as a fraction of |mean|, e.g. 0.01)"},
		{base + "precision:\n  relative: .nan\n", "bad.yaml:5: precision.relative: relative NaN: accepted is a finite number above 0 (the half-width as a fraction of |mean|, e.g. 0.01)"},
		{base + "precision:\n  absolute: .inf\n", "bad.yaml:5: precision.absolute: absolute +Inf: accepted is a finite number above 0 (the half-width in the metric's unit, e.g. 0.002)"},
		{base + "precision:\n  relative: 0.01\n  min_seeds: 1\n", "bad.yaml:6: precision.min_seeds: 1 replications: accepted are 2 to seeds (30)"},
		{base + "precision:\n  relative: 0.01\n  min_seeds: 31\n", "bad.yaml:6: precision.min_seeds: 31 replications: accepted are 2 to seeds (30)"},
		{base + "precision:\n  relative: 0.01\n  min_seeds: 2.5\n", `bad.yaml:6: precision.min_seeds: want an integer, got "2.5"`},
		{base + "precision:\n  relative: 1%\n", `bad.yaml:5: precision.relative: want a number, got "1%"`},
		{base + "precision:\n  relative: 0.01\n  seeds: 5\n", "bad.yaml:6: precision.seeds: unknown key in precision; accepted are metric, relative, absolute, min_seeds"},
		{base + "precision: 0.01\n", `bad.yaml:4: precision: want a mapping of keys (metric, relative, absolute, min_seeds), got "0.01"`},
		{"topologies: [torus:4x4]\nloads: [0.1]\nseeds: 1\nprecision: {relative: 0.01}\n", "bad.yaml:3: seeds: 1 replication with a precision target: accepted are 2 or more (the most a point runs)"},
	}
	checkSpecErrors(t, cases)
	// Defaults: accepted, 5 replications, or seeds when fewer.
	for _, c := range []struct {
		seeds, min int
	}{{30, 5}, {3, 3}} {
		s, err := ParseSpec("ok.yaml", []byte("topologies: [torus:4x4]\nloads: [0.1]\nseeds: "+ftoa(float64(c.seeds))+"\nprecision: {relative: 0.01}\n"))
		if err != nil {
			t.Fatal(err)
		}
		if p := s.Precision; p.Metric != "accepted" || p.MinSeeds != c.min || p.Relative != 0.01 {
			t.Errorf("seeds %d: precision %+v, want accepted, min_seeds %d", c.seeds, *p, c.min)
		}
	}
	// A Go value is checked the same way, and the caller's value is left alone.
	s := NewSpec("torus:4x4")
	s.Loads, s.Seeds = Fixed(0.1), 10
	s.Precision = &Precision{Absolute: 0.002}
	if err := s.Validate(); err != nil {
		t.Errorf("valid Go spec: %v", err)
	}
	if s.Precision.MinSeeds != 0 || s.Precision.Metric != "" {
		t.Errorf("validation changed the caller's precision: %+v", *s.Precision)
	}
	// A target is part of the spec's hash; a spec without one keeps its old hash.
	without := s
	without.Precision = nil
	if s.Hash() == without.Hash() {
		t.Error("a precision target does not change the spec's hash")
	}
}

// TestPrecisionBatches: the replication counts at which points are judged.
func TestPrecisionBatches(t *testing.T) {
	for _, c := range []struct {
		seeds, min int
		want       []int
	}{{30, 5, []int{5, 10, 15, 20, 25, 30}}, {12, 5, []int{5, 10, 12}}, {5, 5, []int{5}}, {7, 2, []int{2, 4, 6, 7}}} {
		s := NewSpec("torus:4x4")
		s.Seeds, s.Precision = c.seeds, &Precision{Relative: 0.01, MinSeeds: c.min}
		if got := s.withDefaults().batches(); !slices.Equal(got, c.want) {
			t.Errorf("seeds %d, min_seeds %d: batches %v, want %v", c.seeds, c.min, got, c.want)
		}
	}
	if got := NewSpec().batches(); !slices.Equal(got, []int{1}) {
		t.Errorf("without a target: batches %v, want [1]", got)
	}
}

// TestPrecisionNaN: a point whose metric is NaN in too many replications to judge (no
// packet delivered in a tiny window) goes on to seeds, however loose the target; the
// same point judged on a metric that always has a value stops at min_seeds.
func TestPrecisionNaN(t *testing.T) {
	spec := NewSpec("torus:4x4")
	spec.Engine.Warmup, spec.Engine.Measure = 0, 20
	spec.Loads = Fixed(0.002)
	spec.Seeds = 6
	spec.Precision = &Precision{Metric: "latency_network_mean", Absolute: 1e9, MinSeeds: 2}
	res := run(t, spec, Options{Out: t.TempDir(), Workers: 2})
	checkStoppingRule(t, spec, res.Records)
	nan := 0
	for _, r := range res.Records {
		if math.IsNaN(r.Result.LatencyNetwork.Mean) {
			nan++
		}
	}
	if len(res.Records) != spec.Seeds || nan <= spec.Seeds-spec.Precision.MinSeeds {
		t.Errorf("%d replications, %d without a latency: want all %d seeds, run because too few had one", len(res.Records), nan, spec.Seeds)
	}
	spec.Precision.Metric = "accepted"
	if res := run(t, spec, Options{Out: t.TempDir(), Workers: 2}); len(res.Records) != 2 {
		t.Errorf("judged on accepted: %d replications, want min_seeds (2)", len(res.Records))
	}
	// Met itself: values, not replications, count towards min_seeds.
	p := Precision{Absolute: 1e9, MinSeeds: 3}
	if p.Met(Estimated([]float64{1, 1, math.NaN()})) || !p.Met(Estimated([]float64{1, 1, math.NaN(), 1})) {
		t.Error("Met counts NaN replications towards min_seeds")
	}
}
