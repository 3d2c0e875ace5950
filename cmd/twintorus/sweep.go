package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/twintorus/twintorus/sim/experiment"
	"golang.org/x/term"
)

func init() { commands = append(commands, newSweepCmd) }

// simLogEnv names a file to which every simulation the sweep completes appends its
// record key, one line each. It exists for the kill-and-resume and Slurm tests, which
// count simulations across processes; it is not a user feature.
const simLogEnv = "TWINTORUS_TEST_SIMLOG"

// defaultArrayTasks bounds the job array when --array-size is not given.
const defaultArrayTasks = 32

type sweepFlags struct {
	out       string
	workers   int
	shard     string
	slurm     bool
	dryRun    bool
	partition string
	arraySize int
	sbatch    []string
}

func newSweepCmd() *cobra.Command {
	var f sweepFlags
	cmd := &cobra.Command{
		Use:   "sweep SPEC.yaml --out DIR",
		Short: "Run an experiment spec: every point and seed, resumable, on all cores or on Slurm",
		Long: `sweep runs every simulation of an experiment spec (topologies × routing × deadlock
schemes × traffic × sizes × loads × seeds; see the sim/experiment package documentation
for the YAML) and stores one record per simulation in the results store DIR. A sweep
that stops (Ctrl-C, a crash, a kill) loses only the simulations in flight: run the same
command again and it runs only what is missing. Corrupt records are detected and run
again. Results do not depend on --workers.

A malformed spec fails before anything runs, with its file, line and what is wrong.

With --slurm, sweep writes DIR/slurm/sweep.sbatch, a job array whose task i runs shard
i/N of the sweep into DIR (which, like this binary, must be on a file system the
compute nodes share), and submits it with sbatch. Submitting again when the job is over
runs only what is missing. Merge the records with twintorus collect DIR.`,
		Example: `  twintorus sweep fig7.yaml --out results/fig7
  twintorus sweep fig7.yaml --out results/fig7 --workers 4
  twintorus sweep fig7.yaml --out /scratch/fig7 --slurm --partition short --array-size 64 --sbatch=--time=2:00:00
  twintorus collect results/fig7 --csv fig7.csv`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return fmt.Errorf("sweep takes one SPEC.yaml argument, got %d, e.g. twintorus sweep fig7.yaml --out results/fig7", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSweep(cmd, args[0], f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.out, "out", "", "results store directory (required; created if needed)")
	fl.IntVar(&f.workers, "workers", 0, "simulations at once (default: one per CPU); with --slurm, CPUs per array task (default 1)")
	fl.StringVar(&f.shard, "shard", "", "run only shard I/N of the sweep (what each Slurm array task does)")
	fl.BoolVar(&f.slurm, "slurm", false, "submit the sweep to Slurm as a job array instead of running it here")
	fl.BoolVar(&f.dryRun, "dry-run", false, "with --slurm: write the sbatch script, do not submit it")
	fl.StringVar(&f.partition, "partition", "", "with --slurm: the partition (default: the cluster's)")
	fl.IntVar(&f.arraySize, "array-size", 0, fmt.Sprintf("with --slurm: array tasks, i.e. shards (default: the simulations to run, at most %d)", defaultArrayTasks))
	fl.StringArrayVar(&f.sbatch, "sbatch", nil, "with --slurm: one more sbatch option, e.g. --sbatch=--time=2:00:00 (repeatable)")
	return cmd
}

func runSweep(cmd *cobra.Command, specPath string, f sweepFlags) error {
	spec, err := experiment.ReadSpec(specPath)
	if err != nil {
		return err
	}
	if f.out == "" {
		return errors.New("sweep needs --out DIR, the results store, e.g. --out results/" + strings.TrimSuffix(filepath.Base(specPath), filepath.Ext(specPath)))
	}
	if f.workers < 0 {
		return fmt.Errorf("--workers %d: want 1 or more (or leave it out for one per CPU)", f.workers)
	}
	if !f.slurm {
		for _, o := range []struct {
			name string
			set  bool
		}{{"--dry-run", f.dryRun}, {"--partition", f.partition != ""}, {"--array-size", f.arraySize != 0}, {"--sbatch", len(f.sbatch) > 0}} {
			if o.set {
				return fmt.Errorf("%s goes with --slurm", o.name)
			}
		}
	}
	ctx, stop := interruptible(cmd.Context())
	defer stop()
	if f.slurm {
		if f.shard != "" {
			return errors.New("--shard and --slurm do not go together: the job array's tasks take the shards")
		}
		return submitSweep(ctx, cmd.OutOrStdout(), spec, f)
	}
	var shard experiment.Shard
	if f.shard != "" {
		if shard, err = experiment.ParseShard(f.shard); err != nil {
			return fmt.Errorf("--shard: %w", err)
		}
	}
	stderr := cmd.ErrOrStderr()
	bar := newProgressBar(stderr, isTerminal(stderr), "sweep")
	opt := experiment.Options{Out: f.out, Workers: f.workers, Shard: shard, Progress: bar.update, Log: stderr}
	if path := os.Getenv(simLogEnv); path != "" {
		log, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("%s: %w", simLogEnv, err)
		}
		defer log.Close()
		opt.OnRecord = func(r *experiment.Record) { _, _ = io.WriteString(log, r.Key+"\n") }
	}
	res, err := experiment.Run(ctx, spec, opt)
	bar.finish()
	if res == nil {
		return err
	}
	out := cmd.OutOrStdout()
	workers := f.workers
	if workers == 0 {
		workers = defaultWorkers()
	}
	name := spec.Name
	if name == "" {
		name = specPath
	}
	scope := ""
	if shard.Count > 0 {
		scope = " (shard " + shard.String() + ")"
	}
	if err != nil {
		printIncomplete(stderr, name+scope, f.out, res)
		return err
	}
	fmt.Fprintf(out, "sweep %s%s: %d simulations: %d stored, %d run", name, scope, len(res.Records), res.Stored, res.Simulated)
	if res.Recomputed > 0 {
		fmt.Fprintf(out, " (%d corrupt records recomputed)", res.Recomputed)
	}
	fmt.Fprintf(out, " in %s with %d workers; records in %s\n", res.Elapsed.Round(time.Millisecond), workers, f.out)
	if shard.Count > 0 {
		return nil // a shard's curves are partial: collect merges them
	}
	return printSaturations(out, res.Saturations())
}

// printIncomplete says what a sweep that stopped on an error has and what it lacks,
// so that a failure is never read as a smaller sweep.
func printIncomplete(w io.Writer, name, dir string, res *experiment.Results) {
	have := fmt.Sprintf("%d simulations", len(res.Records))
	lacking := ""
	if res.Planned >= 0 {
		have = fmt.Sprintf("%d of its %d simulations", len(res.Records), res.Planned)
		lacking = fmt.Sprintf("%d missing", res.Planned-len(res.Records))
	} else {
		lacking = fmt.Sprintf("%d curves with loads or replications still to run", res.Unfinished)
	}
	fmt.Fprintf(w, "sweep %s: INCOMPLETE: %s are in %s (%d found there, %d run now); %s: run the same command again, once the error below is dealt with, to run only what is missing\n",
		name, have, dir, res.Stored, res.Simulated, lacking)
}

// interruptible is a context that SIGINT or SIGTERM cancel, so that a long command
// stops cleanly. The first signal cancels it and gives the signals back their
// default action: a second one ends the process at once, whatever it is doing.
func interruptible(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}

// printSaturations shows where each curve saturates, when any did, and how many of
// its loads were left out as not stationary.
func printSaturations(w io.Writer, sats []experiment.Saturation) error {
	saturated := false
	for _, s := range sats {
		saturated = saturated || !math.IsNaN(s.Load)
	}
	if !saturated {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "curve\tsaturates in\tthroughput\t95% CI\tat load\tloads not stationary")
	for _, s := range sats {
		bracket := "not up to the largest load"
		if !math.IsNaN(s.Load) {
			bracket = fmt.Sprintf("(%.4g, %.4g]", s.Below, s.Load)
		}
		t := s.Throughput
		ci := "-"
		if !math.IsNaN(t.Low) {
			ci = fmt.Sprintf("[%.4f, %.4f]", t.Low, t.High)
		}
		fmt.Fprintf(tw, "%s\t%s\t%.4f\t%s\t%.4g\t%d\n", s.Curve, bracket, t.Mean, ci, s.PeakLoad, s.NotSteady)
	}
	return tw.Flush()
}

// submitSweep writes the job array script and submits it.
func submitSweep(ctx context.Context, out io.Writer, spec experiment.Spec, f sweepFlags) error {
	dir, err := filepath.Abs(f.out)
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	missing, total, err := experiment.Pending(ctx, spec, dir)
	if err != nil {
		return err
	}
	if missing == 0 {
		fmt.Fprintf(out, "nothing to submit: all %d simulations are in %s\n", total, dir)
		return nil
	}
	bin, err := os.Executable()
	if err == nil {
		bin, err = filepath.EvalSymlinks(bin)
	}
	if err != nil {
		return fmt.Errorf("find the twintorus binary for the job script: %w", err)
	}
	// Shards: simulations with fixed loads, points (curve and load) under a precision
	// target, curves with a load search.
	units, what := missing, fmt.Sprintf("%d of %d simulations to run", missing, total)
	if missing < 0 {
		curves, err := spec.Curves()
		if err != nil {
			return err
		}
		units, what = len(curves), fmt.Sprintf("a saturation search over %d curves", len(curves))
		if spec.Precision != nil && spec.Loads.Auto == nil && spec.PastSaturation == 0 {
			loads := max(len(spec.Loads.Values), 1) // a closed-loop curve is one point
			units = len(curves) * loads
			what = fmt.Sprintf("%d points under a precision target, each of %d to %d seeds", units, spec.Precision.MinSeeds, spec.Seeds)
		}
	}
	tasks := f.arraySize
	if tasks == 0 {
		tasks = min(units, defaultArrayTasks)
	}
	if tasks < 1 || tasks > experiment.MaxArrayTasks {
		return fmt.Errorf("--array-size %d: accepted are 1 to %d", tasks, experiment.MaxArrayTasks)
	}
	tasks = min(tasks, units)
	job := experiment.SlurmJob{Binary: bin, Spec: filepath.Join(dir, "specs", "spec.yaml"), Out: dir, Tasks: tasks, CPUs: max(f.workers, 1),
		Partition: f.partition, Name: jobName(spec.Name), Options: f.sbatch, Comment: "Spec " + spec.Hash()[:16] + ": " + what + "."}
	// A path or option the script cannot hold is refused before anything is written.
	if _, err := job.Script(); err != nil {
		return err
	}
	store, err := experiment.OpenStore(dir)
	if err != nil {
		return err
	}
	if job.Spec, err = store.SaveSpec(spec); err != nil {
		return err
	}
	script, err := job.Write()
	if err != nil {
		return err
	}
	if f.dryRun {
		fmt.Fprintf(out, "wrote %s: %d array tasks for %s; submit it with: sbatch %s\n", script, tasks, what, experiment.ShellQuote(script))
		return nil
	}
	id, err := experiment.SubmitSlurm(ctx, script)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "submitted Slurm job %s: %d array tasks for %s; script %s\nwhen it is done: twintorus collect %s\n", id, tasks, what, script, dir)
	return nil
}

// jobName makes a Slurm job name from a spec name.
func jobName(name string) string {
	clean := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, name)
	if clean == "" {
		return "twintorus"
	}
	return "twintorus-" + clean
}

// progressBar is a terminal bar with ETA on stderr, or nothing when stderr is not a
// terminal (logs, Slurm tasks, pipes).
type progressBar struct {
	w       io.Writer
	enabled bool
	label   string
	bar     *progressbar.ProgressBar
}

func newProgressBar(w io.Writer, enabled bool, label string) *progressBar {
	return &progressBar{w: w, enabled: enabled, label: label}
}

// update has the shape of experiment.Options.Progress.
func (p *progressBar) update(done, total int) {
	if !p.enabled || total <= 0 {
		return
	}
	if p.bar == nil {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription(p.label),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionSetRenderBlankState(true),
		)
	}
	if p.bar.GetMax() != total {
		p.bar.ChangeMax(total)
	}
	_ = p.bar.Set(done)
}

// finish ends the bar's line.
func (p *progressBar) finish() {
	if p.bar != nil {
		_ = p.bar.Exit()
		fmt.Fprintln(p.w)
	}
}

func defaultWorkers() int { return runtime.GOMAXPROCS(0) }

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
