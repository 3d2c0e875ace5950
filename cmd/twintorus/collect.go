package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
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
latency_network_mean ... latency_message_max, hops, saturated, deadlocked, ...).

--summary writes one row per curve and load with the mean, standard deviation and 95 %
confidence interval (Student's t) of each metric over the seeds; --saturation one row per
curve with its saturation load and throughput.

Corrupt record files (truncated, altered, misnamed) are never merged: collect names them
and fails; running the sweep again recomputes them. Records of another model version are
left out, with a warning. Without an output flag, the CSV goes to standard output; "-"
names standard output too.`,
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

// writeOutput writes to the file at path, or to stdout for "-".
func writeOutput(stdout io.Writer, path string, write func(io.Writer) error) error {
	if path == "-" {
		w := bufio.NewWriter(stdout)
		if err := write(w); err != nil {
			return err
		}
		return w.Flush()
	}
	// A temporary file renamed into place: an interrupted collect leaves no half table.
	file, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	w := bufio.NewWriter(file)
	err = file.Chmod(0o644)
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
