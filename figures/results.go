package figures

import (
	"bytes"
	"context"
	"fmt"
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
	Summaries   []experiment.Summary
	Saturations []experiment.Saturation
}

// About says in one line where the results come from, for the notebook's reader.
func (r *Results) About() string {
	e := r.Spec.Engine
	return fmt.Sprintf("%s: %s, %d replications per point, %d-cycle warm-up and %d measured cycles", r.Name, r.Mode, r.Spec.Seeds, e.Warmup, e.Measure)
}

// LoadResults gets the results of the experiment spec datasets.Experiment(name) in the
// given mode. Quick and Recompute report progress (done, total) when progress is set;
// Recompute keeps its records in StoreDir.
func LoadResults(ctx context.Context, name string, mode Mode, progress func(done, total int)) (*Results, error) {
	file, yaml, err := datasets.Experiment(name)
	if err != nil {
		return nil, err
	}
	spec, err := experiment.ParseSpec(file, yaml)
	if err != nil {
		return nil, err
	}
	return resultsOf(ctx, name, spec, mode, progress)
}

func resultsOf(ctx context.Context, name string, spec experiment.Spec, mode Mode, progress func(done, total int)) (*Results, error) {
	r := &Results{Name: name, Mode: mode, Spec: spec}
	switch mode {
	case Stored:
		b, err := datasets.Result("summary.csv")
		if err != nil {
			return nil, err
		}
		all, err := experiment.ReadSummaryCSV(bytes.NewReader(b))
		if err != nil {
			return nil, err
		}
		if r.Summaries, err = inSpec(all, spec); err != nil {
			return nil, err
		}
		if len(r.Summaries) == 0 {
			return nil, fmt.Errorf("the stored results hold no curve of %s: recompute them (see datasets/results/README.md)", name)
		}
	default:
		dir := StoreDir()
		if mode == Quick {
			// A store per quick spec in the temporary directory: the notebook's later
			// cells find the records its first cell made.
			r.Spec = QuickSpec(spec)
			dir = filepath.Join(os.TempDir(), "twintorus-quick", r.Spec.Hash())
		}
		res, err := experiment.Run(ctx, r.Spec, experiment.Options{Out: dir, Progress: progress})
		if err != nil {
			return nil, err
		}
		r.Summaries = res.Summaries(r.Spec.Metrics...)
	}
	r.Saturations = experiment.SaturationsOf(r.Summaries)
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

// QuickSpec is the quick version of a spec: two replications (so that intervals
// exist), every third load (at least five, the highest kept), a 500-cycle warm-up and
// 3,000 measured cycles.
func QuickSpec(s experiment.Spec) experiment.Spec {
	q := s
	q.Seeds = 2
	q.Engine.Warmup, q.Engine.Measure = 500, 3000
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
// for load and seed), in the spec's curve order.
func inSpec(all []experiment.Summary, s experiment.Spec) ([]experiment.Summary, error) {
	curves, err := s.Curves()
	if err != nil {
		return nil, err
	}
	var out []experiment.Summary
	for _, c := range curves {
		for _, x := range all {
			if x.CurveKey == c.Key {
				out = append(out, x)
			}
		}
	}
	return out, nil
}
