package figures

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/twintorus/twintorus/datasets"
	"github.com/twintorus/twintorus/sim/experiment"
)

// Mode is where a notebook's results come from.
type Mode int

const (
	// Stored reads the full runs kept in datasets/results (30 replications): a notebook
	// opens in seconds.
	Stored Mode = iota
	// Quick runs a small version of the experiment from scratch (QuickSpec).
	Quick
	// Recompute runs the full experiment into a results store, resuming what is there.
	Recompute
)

func (m Mode) String() string {
	return [...]string{"stored full runs", "quick run", "recomputed full runs"}[m]
}

// ModeFromEnv is Quick when QUICK=1, Recompute when RECOMPUTE=1, else Stored.
func ModeFromEnv() Mode {
	switch {
	case os.Getenv("QUICK") == "1":
		return Quick
	case os.Getenv("RECOMPUTE") == "1":
		return Recompute
	}
	return Stored
}

// Results are an experiment's summaries and saturations.
type Results struct {
	Name        string
	Mode        Mode
	Spec        experiment.Spec // as run (the quick version in Quick mode)
	Saturations []experiment.Saturation
	sums        []experiment.Summary
	curves      []experiment.Curve // the spec's, when the stored mode had them
}

// Summaries are the results' summaries, by curve (in the spec's order) and load; the
// metrics are the spec's, and the arguments, which *experiment.Results takes, are
// ignored. With this method Results, like a sweep's *experiment.Results, is a
// Summarized that the figure functions (Latency, Throughput, Plot) accept.
func (r *Results) Summaries(...string) []experiment.Summary { return r.sums }

// About says in one line where the results come from, for the notebook's reader.
func (r *Results) About() string {
	if len(r.Spec.Workload) > 0 {
		return fmt.Sprintf("%s: %s, %d curves, %d replication(s) per point, each run to its end", r.Name, r.Mode, len(r.sums), r.Spec.Seeds)
	}
	e := r.Spec.Engine
	knees := ""
	if r.Mode == Quick {
		knees = fmt.Sprintf(", knees bisected %d times", QuickKneeSteps)
	}
	reps := fmt.Sprintf("%d replications per point", r.Spec.Seeds)
	if p := r.Spec.Precision; p != nil { // Seeds is then the most a point runs
		reps = fmt.Sprintf("%d to %d replications per point (until %s is precise enough)", p.MinSeeds, r.Spec.Seeds, p.Metric)
	}
	check := "stationarity not checked"
	if e.StationaryBatches > 0 {
		check = fmt.Sprintf("windows checked for stationarity (%d batches, %g %% drift, up to %d windows)", e.StationaryBatches, 100*e.StationaryTolerance, e.StationaryWindows)
	}
	return fmt.Sprintf("%s: %s, %s, %d-cycle warm-up and %d measured cycles%s, %s", r.Name, r.Mode, reps, e.Warmup, e.Measure, knees, check)
}

// LoadResults gets the results of the experiment spec datasets.Experiment(name) in the
// given mode. Quick and Recompute report progress (done, total) when progress is set;
// Recompute keeps its records in StoreDir.
func LoadResults(ctx context.Context, name string, mode Mode, progress func(done, total int)) (*Results, error) {
	spec, curves, err := parsed(datasets.Experiment(name))
	if err != nil {
		return nil, err
	}
	return resultsOf(ctx, name, spec, curves, mode, progress)
}

// LoadResultsShrunk is LoadResults for an experiment whose networks are too large for
// a quick run (minutes per point): in Quick mode the run is shrink(QuickSpec(spec)),
// e.g. the same families at a smaller size; the other modes are LoadResults'.
func LoadResultsShrunk(ctx context.Context, name string, mode Mode, progress func(done, total int), shrink func(experiment.Spec) experiment.Spec) (*Results, error) {
	spec, curves, err := parsed(datasets.Experiment(name))
	if err != nil {
		return nil, err
	}
	if mode != Quick {
		return resultsOf(ctx, name, spec, curves, mode, progress)
	}
	return quickResultsOf(ctx, name, shrink(QuickSpec(spec)), progress)
}

// parsed parses a spec that a datasets lookup returned, with its curves.
func parsed(file string, yaml []byte, err error) (experiment.Spec, []experiment.Curve, error) {
	if err != nil {
		return experiment.Spec{}, nil, err
	}
	return experiment.ParseSpecCurves(file, yaml)
}

// LoadJoined loads several experiments in the same mode and joins them (Join): the
// first's spec, every experiment's curves and loads.
func LoadJoined(ctx context.Context, mode Mode, progress func(done, total int), names ...string) (*Results, error) {
	var out *Results
	for _, name := range names {
		r, err := LoadResults(ctx, name, mode, progress)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = r
		} else {
			out = out.Join(r)
		}
	}
	if out == nil {
		return nil, fmt.Errorf("figures: no experiment named to load")
	}
	return out, nil
}

// resultsOf gets spec's results in the given mode; curves are the spec's (nil: computed
// here), which the stored mode picks its summaries by.
func resultsOf(ctx context.Context, name string, spec experiment.Spec, curves []experiment.Curve, mode Mode, progress func(done, total int)) (*Results, error) {
	r := &Results{Name: name, Mode: mode, Spec: spec}
	switch mode {
	case Stored:
		all, err := storedSummaries(name, spec)
		if err != nil {
			return nil, err
		}
		r.curves = curves
		if r.sums, err = inSpec(all, spec, curves); err != nil {
			return nil, err
		}
		if len(r.sums) == 0 {
			return nil, fmt.Errorf("the stored results hold no curve of %s: recompute them (see datasets/results/README.md)", name)
		}
	default:
		dir := StoreDir()
		if mode == Quick {
			r.Spec = QuickSpec(spec)
			if len(spec.Workload) > 0 {
				r.Spec = QuickClosedLoopSpec(spec)
			}
			dir = quickStore(r.Spec)
		}
		opt := experiment.Options{Out: dir, Progress: progress}
		var (
			res *experiment.Results
			err error
		)
		if mode == Quick && len(spec.Workload) == 0 {
			// Few loads: bisect each curve's knee so that the figures still show it.
			res, err = experiment.RefineKnees(ctx, r.Spec, opt, QuickKneeSteps)
		} else {
			res, err = experiment.Run(ctx, r.Spec, opt)
		}
		if err != nil {
			return nil, err
		}
		r.sums = res.Summaries(r.Spec.Metrics...)
	}
	if len(spec.Workload) == 0 {
		r.Saturations = experiment.SaturationsOf(r.sums)
	}
	return r, nil
}

// quickStore is a store per quick spec in the temporary directory: the notebook's
// later cells find the records its first cell made.
func quickStore(q experiment.Spec) string {
	return filepath.Join(os.TempDir(), "twintorus-quick", q.Hash())
}

// quickResultsOf runs quick spec q (already quick) as resultsOf runs a quick spec:
// knees refined for open-loop specs, a plain run for closed-loop ones.
func quickResultsOf(ctx context.Context, name string, q experiment.Spec, progress func(done, total int)) (*Results, error) {
	opt := experiment.Options{Out: quickStore(q), Progress: progress}
	if len(q.Workload) > 0 { // closed loop: no loads, no knees
		res, err := experiment.Run(ctx, q, opt)
		if err != nil {
			return nil, err
		}
		return &Results{Name: name, Mode: Quick, Spec: q, sums: res.Summaries(q.Metrics...)}, nil
	}
	res, err := experiment.RefineKnees(ctx, q, opt, QuickKneeSteps)
	if err != nil {
		return nil, err
	}
	r := &Results{Name: name, Mode: Quick, Spec: q, sums: res.Summaries(q.Metrics...)}
	r.Saturations = experiment.SaturationsOf(r.sums)
	return r, nil
}

// StoreDir is where Recompute keeps records: $TWINTORUS_STORE, else out/store in the
// checkout ($TWINTORUS_ROOT, set by the kernel), else out/store here.
func StoreDir() string {
	if d := os.Getenv("TWINTORUS_STORE"); d != "" {
		return d
	}
	return filepath.Join(os.Getenv("TWINTORUS_ROOT"), "out", "store")
}

// QuickMeasure is a quick run's measured cycles: enough for a curve's shape (at the
// lowest load of a 64-PE network some 80 packets, and saturation is told by a backlog
// of four packets per PE, not by noise), half of what make test's notebook step spent
// before, when it ran 2,000.
const QuickMeasure = 1000

// QuickKneeSteps is how many times a quick run bisects each curve's knee after its
// loads (experiment.RefineKnees): once, so that the knee shows between the quick
// loads. A second bisection's points sit nearest saturation, the costliest of a quick
// run, and make test's notebook step runs every notebook's quick run.
const QuickKneeSteps = 1

// QuickSpec is the quick version of a spec: two replications (so that intervals
// exist), every third load (at least five, the highest kept), a 300-cycle warm-up and
// QuickMeasure measured cycles, without the stationarity check (a window that short
// proves nothing stationary, and extending it would cost what the quick run saves),
// and each curve stopped one load after its first saturated one unless the spec says
// otherwise (past_saturation: saturated runs cost the most, and two show that a curve
// saturated; the notebook step spent a fifth of its time deeper in saturation). A
// quick run then bisects each curve's knee QuickKneeSteps times. It shows each
// figure's shape in seconds; it is what make test runs of every notebook, and its
// numbers are not the papers' (the stored full runs are).
func QuickSpec(s experiment.Spec) experiment.Spec {
	q := s
	q.Seeds = 2
	q.Engine.Warmup, q.Engine.Measure = 300, QuickMeasure
	q.Engine = q.Engine.StationaryOff()
	if q.PastSaturation == 0 {
		q.PastSaturation = 1
	}
	if v := s.Loads.Values; len(v) > 5 {
		step := max(1, min(3, len(v)/5))
		var kept []float64
		for i := len(v) - 1; i >= 0; i -= step {
			kept = append(kept, v[i])
		}
		slices.Reverse(kept)
		q.Loads = experiment.Fixed(kept...)
	}
	return q
}

// inSpec keeps the summaries of the spec's curves (same curve key: same point but
// for load and seed) at the spec's loads, in the spec's curve order. Two specs may
// share a curve at different loads (3dt-vs-2d-deep extends 3dt-vs-2d): each gets its
// own points.
func inSpec(all []experiment.Summary, s experiment.Spec, curves []experiment.Curve) ([]experiment.Summary, error) {
	if curves == nil {
		var err error
		if curves, err = s.Curves(); err != nil {
			return nil, err
		}
	}
	listed := func(load float64) bool {
		if s.Loads.Auto != nil || len(s.Workload) > 0 { // a closed-loop curve has one point
			return true
		}
		for _, l := range s.Loads.Values {
			if math.Abs(l-load) < 1e-9 {
				return true
			}
		}
		return false
	}
	var out []experiment.Summary
	for _, c := range curves {
		var mine []experiment.Summary
		for _, x := range all {
			if x.CurveKey == c.Key && listed(x.Load) {
				mine = append(mine, x)
			}
		}
		out = append(out, pastSaturation(mine, s.PastSaturation)...)
	}
	return out, nil
}

// pastSaturation cuts a curve's summaries (by load) where a spec with past_saturation
// p stops running it: after its (p+1)-th saturated load. Another spec may have run the
// curve further; those points are not this spec's.
func pastSaturation(curve []experiment.Summary, p int) []experiment.Summary {
	if p <= 0 {
		return curve
	}
	slices.SortStableFunc(curve, func(a, b experiment.Summary) int { return cmp.Compare(a.Load, b.Load) })
	saturated := 0
	for i, x := range curve {
		if x.SaturatedShare() {
			if saturated++; saturated > p {
				return curve[:i+1]
			}
		}
	}
	return curve
}

// Join returns the results of r and other together: their curves, with the points
// of a curve both have merged by load (r's point where both have one). It is how a
// notebook extends an experiment's curves with a second one's loads, as 3dt-vs-2d-deep
// takes the VC curves of 3dt-vs-2d deep into saturation. The spec is r's.
func (r *Results) Join(other *Results) *Results {
	out := &Results{Name: r.Name + " + " + other.Name, Mode: r.Mode, Spec: r.Spec}
	type at struct {
		key  string
		load float64
	}
	have := map[at]bool{}
	var keys []string
	byKey := map[string][]experiment.Summary{}
	for _, s := range append(append([]experiment.Summary{}, r.sums...), other.sums...) {
		k := at{s.CurveKey, math.Round(s.Load * 1e9)}
		if have[k] {
			continue
		}
		have[k] = true
		if _, ok := byKey[s.CurveKey]; !ok {
			keys = append(keys, s.CurveKey)
		}
		byKey[s.CurveKey] = append(byKey[s.CurveKey], s)
	}
	for _, k := range keys {
		ss := byKey[k]
		slices.SortStableFunc(ss, func(a, b experiment.Summary) int { return cmp.Compare(a.Load, b.Load) })
		out.sums = append(out.sums, ss...)
	}
	out.Saturations = experiment.SaturationsOf(out.sums)
	return out
}

// storedSummaries reads the stored summary tables a spec's curves are in: the
// closed-loop experiment's own file, or every open-loop table (datasets.SummaryFiles).
func storedSummaries(name string, spec experiment.Spec) ([]experiment.Summary, error) {
	if len(spec.Workload) > 0 {
		b, err := datasets.ClosedLoopResult(name + "-summary.csv")
		if err != nil {
			return nil, err
		}
		return experiment.ReadSummaryCSV(bytes.NewReader(b))
	}
	var all []experiment.Summary
	for _, file := range datasets.SummaryFiles {
		b, err := datasets.Result(file)
		if err != nil {
			return nil, err
		}
		sums, err := experiment.ReadSummaryCSV(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		all = append(all, sums...)
	}
	return all, nil
}
