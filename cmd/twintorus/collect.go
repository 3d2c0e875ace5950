package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/experiment/parquetfile"
)

func init() { commands = append(commands, newCollectCmd) }

type collectFlags struct {
	csv, parquet, summary, saturation string
	metrics                           []string
}

func newCollectCmd() *cobra.Command {
	var f collectFlags
	cmd := &cobra.Command{
		Use:   "collect DIR",
		Short: "Merge a results store's records into CSV or Parquet tables",
		Long: `collect reads every record of the results store DIR (written by twintorus sweep, here
or by Slurm array tasks) and writes one row per simulation, sorted by topology, routing,
deadlock scheme, tie, traffic, sizes, load and seed, so that equal sweeps give equal
files. Columns: the point's axes, load and seed, then the result (offered, accepted,
latency_network_mean ... latency_message_max, hops, saturated, deadlocked, ..., and the
stationarity check's: stationary (true, false, or unknown for a run without the check),
windows, window_start, stationary_drift, stationary_noise, batch_accepted).

--summary writes one row per curve and load with the replications, how many saturated,
were not stationary and were not checked, and the mean, standard deviation and 95 %
confidence interval (Student's t) of each metric over the seeds; --saturation one row per
curve with its saturation load and throughput, which leave out the loads that were not
stationary.

Corrupt record files (truncated, altered, misnamed) are never merged: collect names them
and fails; running the sweep again recomputes them. Records of another model version are
left out, with a warning. Without an output flag, the CSV goes to standard output; "-"
names standard output too.

A regular file given as an output (or reached through symbolic links) is replaced
whole, by renaming a complete new file over it, so an interrupted collect leaves no half
table; anything else there, a named pipe or a device such as /dev/stdout, is written
through and stays what it is. A directory, a link to nothing, and two outputs that name
one file are refused before anything is written.`,
		Example: `  twintorus collect results/fig7 --csv fig7.csv --parquet fig7.parquet
  twintorus collect results/fig7 --summary fig7-summary.csv --metrics accepted,latency_network_mean`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return fmt.Errorf("collect takes one results directory, got %d arguments, e.g. twintorus collect results/fig7", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCollect(cmd, args[0], f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.csv, "csv", "", "write one row per simulation as CSV to this file")
	fl.StringVar(&f.parquet, "parquet", "", "write the same rows as Parquet to this file")
	fl.StringVar(&f.summary, "summary", "", "write mean and 95% CI per curve and load as CSV to this file")
	fl.StringVar(&f.saturation, "saturation", "", "write saturation load and throughput per curve as CSV to this file")
	fl.StringSliceVar(&f.metrics, "metrics", nil, "metrics of --summary (default: those the specs ask for)")
	return cmd
}

func runCollect(cmd *cobra.Command, dir string, f collectFlags) error {
	for _, m := range f.metrics {
		if !slices.Contains(experiment.MetricNames(), m) {
			return fmt.Errorf("--metrics: unknown metric %q: accepted are %s", m, strings.Join(experiment.MetricNames(), ", "))
		}
	}
	ctx, stop := interruptible(cmd.Context())
	defer stop()
	c, err := experiment.LoadContext(ctx, dir)
	if err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	for _, k := range c.Skipped {
		fmt.Fprintf(stderr, "collect: skipped %s: %v\n", k.Path, k.Err)
	}
	if err := c.Err(); err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	for _, k := range c.SpecErrors {
		fmt.Fprintf(stderr, "collect: the spec of some records is lost (%v): their rows are complete, their specs' metrics unknown\n", k.Err)
	}
	if c.Stale > 0 {
		fmt.Fprintf(stderr, "collect: %d records of another model version left out (this is model version %d)\n", c.Stale, experiment.ModelVersion)
	}
	status, err := c.Status(ctx, dir)
	if err != nil {
		return err
	}
	for _, st := range status {
		if st.Total > st.Stored {
			fmt.Fprintf(stderr, "collect: spec %s (%s): %d of %d simulations stored, %d missing, e.g. %s; twintorus sweep %s --out %s runs them\n",
				st.Name, st.Path, st.Stored, st.Total, st.Total-st.Stored, strings.Join(st.Missing, ", "), st.Path, dir)
		}
	}
	if len(c.Records) == 0 {
		return fmt.Errorf("%s holds no records: run twintorus sweep SPEC --out %s first", dir, dir)
	}
	notSteady, unchecked := 0, 0
	for _, r := range c.Records {
		switch s := r.Result.Stationarity; {
		case s == nil && !r.Point.ClosedLoop():
			unchecked++
		case s != nil && !s.Stationary:
			notSteady++
		}
	}
	if notSteady > 0 {
		fmt.Fprintf(stderr, "collect: %d simulations' windows were not stationary, even after the windows the check ran on (stationary column false): no verdict should rest on their points; a longer warm-up or window, or more stationary_windows, measures them\n", notSteady)
	}
	if unchecked > 0 {
		fmt.Fprintf(stderr, "collect: %d simulations ran without the stationarity check (stationary column unknown)\n", unchecked)
	}
	if f.csv == "" && f.parquet == "" && f.summary == "" && f.saturation == "" {
		f.csv = "-"
	}
	metrics := f.metrics
	if len(metrics) == 0 {
		metrics = experiment.RequestedMetrics(c.Records)
	}
	outputs := []struct {
		path  string
		write func(io.Writer) error
	}{
		{f.csv, func(w io.Writer) error { return experiment.WriteCSV(w, c.Records) }},
		{f.parquet, func(w io.Writer) error { return parquetfile.Write(w, c.Records) }},
		{f.summary, func(w io.Writer) error {
			return experiment.WriteSummaryCSV(w, experiment.Summarize(c.Records, metrics...), metrics)
		}},
		{f.saturation, func(w io.Writer) error { return experiment.WriteSaturationCSV(w, experiment.Saturations(c.Records)) }},
	}
	var named []namedOutput
	for _, o := range []namedOutput{{"--csv", f.csv}, {"--parquet", f.parquet}, {"--summary", f.summary}, {"--saturation", f.saturation}} {
		if o.path != "" {
			named = append(named, o)
		}
	}
	if err := distinctOutputs(named); err != nil {
		return err
	}
	for _, o := range outputs {
		if o.path == "" {
			continue
		}
		if err := writeOutput(cmd.OutOrStdout(), o.path, o.write); err != nil {
			return err
		}
	}
	curves := map[string]bool{}
	for _, s := range experiment.Saturations(c.Records) {
		curves[s.CurveKey] = true
	}
	fmt.Fprintf(stderr, "collect: %d records, %d curves from %s\n", len(c.Records), len(curves), dir)
	return nil
}

// namedOutput is an output flag and the path it gives.
type namedOutput struct{ flag, path string }

// distinctOutputs refuses two outputs that would write one file: the same path however
// spelt, the same file through a link, or standard output twice.
func distinctOutputs(outs []namedOutput) error {
	id := func(p string) string {
		if p == "-" {
			return "standard output"
		}
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		return p
	}
	for i, a := range outs {
		if err := checkOutput(a.path); err != nil {
			return fmt.Errorf("%s: %w", a.flag, err)
		}
		for _, b := range outs[:i] {
			same := id(a.path) == id(b.path)
			if fa, err := os.Stat(a.path); err == nil && a.path != "-" && b.path != "-" {
				if fb, err := os.Stat(b.path); err == nil && os.SameFile(fa, fb) {
					same = true
				}
			}
			if same {
				where := a.path
				if a.path == "-" {
					where = "standard output"
				}
				return fmt.Errorf("%s and %s both write %s: give each table a file of its own", b.flag, a.flag, where)
			}
		}
	}
	return nil
}

// writeOutput writes to the file at path, or to stdout for "-". A regular file (or
// none yet) is replaced whole by a rename, through any symbolic links to it; anything
// else there (a named pipe, a device, a link to one) is written through and left
// what it is: a rename would have put a regular file in its place.
func writeOutput(stdout io.Writer, path string, write func(io.Writer) error) error {
	if path == "-" {
		w := bufio.NewWriter(stdout)
		if err := write(w); err != nil {
			return err
		}
		return w.Flush()
	}
	if err := checkOutput(path); err != nil {
		return err
	}
	info, err := os.Stat(path) // what is there at the end of any links
	switch {
	case err == nil && !info.Mode().IsRegular():
		return writeThrough(path, write)
	case err == nil:
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		return replaceFile(real, info.Mode().Perm(), write)
	case errors.Is(err, fs.ErrNotExist):
		return replaceFile(path, 0o644, write)
	}
	return fmt.Errorf("write %s: %w", path, err)
}

// checkOutput refuses an output path that collect cannot write as asked: a directory,
// or a symbolic link to nothing (writing through it would make a file elsewhere, not
// atomically).
func checkOutput(path string) error {
	if path == "-" {
		return nil
	}
	info, err := os.Stat(path)
	switch {
	case err == nil && info.IsDir():
		return fmt.Errorf("write %s: it is a directory: give a file name", path)
	case errors.Is(err, fs.ErrNotExist):
		if target, lerr := os.Readlink(path); lerr == nil {
			return fmt.Errorf("write %s: it is a symbolic link to nothing (%s): create the file it names, or remove the link", path, target)
		}
		return nil
	case err != nil:
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// writeThrough writes into what is at path (a named pipe, a device), leaving it there.
func writeThrough(path string, write func(io.Writer) error) error {
	file, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	w := bufio.NewWriter(file)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// replaceFile puts a new regular file at path with the given permissions: a temporary
// file renamed into place, so that an interrupted collect leaves no half table.
func replaceFile(path string, perm fs.FileMode, write func(io.Writer) error) error {
	file, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	w := bufio.NewWriter(file)
	err = file.Chmod(perm)
	if err == nil {
		err = write(w)
	}
	if err == nil {
		err = w.Flush()
	}
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(file.Name(), path)
	}
	if err != nil {
		return errors.Join(fmt.Errorf("write %s: %w", path, err), os.Remove(file.Name()))
	}
	return nil
}
