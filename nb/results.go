package nb

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"strings"

	"github.com/twintorus/twintorus/datasets/claims"
	"github.com/twintorus/twintorus/figures"
	"github.com/twintorus/twintorus/kernel"
	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/routing"
)

// The results of the project's experiments (datasets/experiments), as the notebooks
// read them: in the mode the environment chooses (figures.ModeFromEnv), the stored full
// runs by default, a quick run under QUICK=1 and a recomputation under RECOMPUTE=1.

// Context is the context of the library calls a cell makes itself (those nb does not
// wrap): context.Background. A cell runs to its end or is interrupted whole, its
// process stopped by the kernel, so there is nothing for a context to cancel.
func Context() context.Context { return context.Background() }

// Mode is where the notebook's results come from (figures.ModeFromEnv): figures.Quick
// under QUICK=1, figures.Recompute under RECOMPUTE=1, else figures.Stored.
func Mode() figures.Mode { return figures.ModeFromEnv() }

// Quick reports whether the notebook runs in quick mode (QUICK=1): small runs that
// show the shapes of the figures in seconds, not verdicts.
func Quick() bool { return Mode() == figures.Quick }

// fullMode is Mode, except that quick mode reads the stored runs: for experiments with
// no small version, whose points take minutes.
func fullMode() figures.Mode {
	if m := Mode(); m != figures.Quick {
		return m
	}
	return figures.Stored
}

// bar is a progress bar that shows only once there is something to run: a cell that
// finds everything stored shows nothing but its output. finish replaces a shown bar
// with its summary line.
func bar(label string) (update func(done, total int), finish func()) {
	var p *kernel.Progress
	update = func(done, total int) {
		if p == nil && total > done {
			p = kernel.NewProgress(label)
		}
		if p != nil {
			p.Update(done, total)
		}
	}
	finish = func() {
		if p != nil {
			p.Finish()
		}
	}
	return update, finish
}

// load is LoadJoined of names in mode with a progress bar, panicking as fn.
func load(fn string, mode figures.Mode, names []string) *figures.Results {
	update, finish := bar(strings.Join(names, ", "))
	r, err := figures.LoadJoined(context.Background(), mode, update, names...)
	finish()
	if err != nil {
		panic(fmt.Errorf("%s: %w", fn, err))
	}
	return r
}

// Results are the results of the named experiments in the notebook's mode (Mode),
// joined into one (figures.LoadJoined: the first's spec, every experiment's curves; a
// curve two of them share has the loads of both): the stored full runs, a quick run
// of each, or a recomputation. A progress bar shows while a run simulates.
//
//	res := nb.Results("3dt-vs-2d", "3dt-vs-2d-deep")
//
// It panics on an unknown name (with the names accepted) or a failed run.
func Results(names ...string) *figures.Results { return load("nb.Results", Mode(), names) }

// FullResults is Results for experiments too large for a quick run: quick mode reads
// their stored full runs as the default mode does; RECOMPUTE=1 still reruns them.
func FullResults(names ...string) *figures.Results {
	return load("nb.FullResults", fullMode(), names)
}

// StoredResults are the stored full runs of the named experiments, joined, whatever
// the mode: for runs of hours (RECOMPUTE=1 does not rerun them either; the command
// line does).
func StoredResults(names ...string) *figures.Results {
	return load("nb.StoredResults", figures.Stored, names)
}

// ResultsShrunk is Results of one experiment whose networks are too large for a quick
// run (figures.LoadResultsShrunk): in quick mode it runs shrink of the quick spec, e.g.
// the same families at a smaller size; the other modes are Results'.
func ResultsShrunk(name string, shrink func(experiment.Spec) experiment.Spec) *figures.Results {
	update, finish := bar(name)
	r, err := figures.LoadResultsShrunk(context.Background(), name, Mode(), update, shrink)
	finish()
	if err != nil {
		panic(fmt.Errorf("nb.ResultsShrunk: %w", err))
	}
	return r
}

// ClosedLoop is the results of a closed-loop experiment (datasets.ClosedLoopExperiment:
// collectives, applications, traces run to completion) in the notebook's mode
// (figures.LoadClosedLoop), with a progress bar while it simulates.
func ClosedLoop(name string) *figures.Results {
	update, finish := bar(name)
	r, err := figures.LoadClosedLoop(context.Background(), name, Mode(), update)
	finish()
	if err != nil {
		panic(fmt.Errorf("nb.ClosedLoop: %w", err))
	}
	return r
}

// Loaded runs a loader of the figures package that takes a context, a mode and a
// progress callback (figures.PTRANS, figures.Apps, figures.ExtollCollectives, ...) in
// the notebook's mode, with a progress bar while it simulates, and returns its two
// results:
//
//	rows, g := nb.Loaded(figures.PTRANS)
//
// It panics with the loader's error.
func Loaded[A, B any](loader func(context.Context, figures.Mode, func(done, total int)) (A, B, error)) (A, B) {
	update, finish := bar(loaderName(loader))
	a, b, err := loader(context.Background(), Mode(), update)
	finish()
	if err != nil {
		panic(fmt.Errorf("nb.Loaded: %w", err))
	}
	return a, b
}

// loaderName is a loader function's name, figures.PTRANS, for its progress bar.
func loaderName(f any) string {
	fn := runtime.FuncForPC(reflect.ValueOf(f).Pointer())
	if fn == nil {
		return "loading"
	}
	name := fn.Name()
	return name[strings.LastIndex(name, "/")+1:]
}

// Claims shows the table of the claims a notebook shows (claims.Notebook), each
// judged by the claims registry on the stored full runs whatever the notebook's mode
// (a quick run is too rough to judge a claim by): the claim, the paper's value, ours,
// the verdict with its diagnosis and where the paper says it. Papers, when given,
// keep the claims of those papers alone, by key or registry file name ("ext").
func Claims(notebook string, papers ...string) {
	keep := claims.Notebook(notebook)
	if len(papers) > 0 {
		ofNotebook := keep
		keep = func(c *claims.Claim) bool {
			if !ofNotebook(c) {
				return false
			}
			for _, p := range papers {
				if claims.Paper(p)(c) {
					return true
				}
			}
			return false
		}
	}
	h, rows, err := claims.Table(context.Background(), keep)
	if err != nil {
		panic(fmt.Errorf("nb.Claims: %w", err))
	}
	kernel.Table(h, rows)
}

// ChannelLoadOf is the exact uniform-traffic channel load of a deterministic routing
// (analysis.Load), for routings other than ChannelLoad's dimension order: minimal
// routing on a network of one's own, TSDOR, DOR with other ties.
func ChannelLoadOf(rt routing.Pather) *analysis.ChannelLoad {
	l, err := analysis.Load(context.Background(), rt)
	if err != nil {
		panic(fmt.Errorf("nb.ChannelLoadOf: %w", err))
	}
	return l
}

// BookSim is BookSim2's stored reference grid beside our side of it in the notebook's
// mode (figures.CompareWithBookSim), with a progress bar while ours simulates.
//
//	c := nb.BookSim()
//	nb.Table(c.Table())
//	nb.Show(c.Figure("torus88"))
func BookSim() *figures.BookSimComparison {
	update, finish := bar("the BookSim2 grid")
	c, err := figures.CompareWithBookSim(context.Background(), Mode(), update)
	finish()
	if err != nil {
		panic(fmt.Errorf("nb.BookSim: %w", err))
	}
	return c
}
