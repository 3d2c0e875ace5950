// Command stationarity re-runs stored points of an experiment spec with the
// stationarity check's batches over a longer window, to see whether the stored window
// was stationary and where the accepted traffic goes after it (issue 38;
// datasets/results/stationarity-sample.csv). Each point runs at its stored seed for
// -windows times the spec's measured cycles, cut into -batches batches per stored
// window: the first window is the stored run itself, and every window is judged by
// engine.CheckStationary. It prints one CSV row per window.
//
//	go run ./tools/stationarity -spec twisted-patterns-2d-unchecked -curve 'rt:16 bubble bitrev' -loads 0.3,0.4 -windows 4
//	go run ./tools/stationarity -spec selection-functions-1024-unchecked -list
package main

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/datasets"
	"github.com/twintorus/twintorus/sim/engine"
	"github.com/twintorus/twintorus/sim/experiment"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "stationarity:", err)
		os.Exit(1)
	}
}

func run() error {
	name := flag.String("spec", "", "a stored experiment spec (datasets/experiments/NAME.yaml)")
	filter := flag.String("curve", "", "substrings the curve's name must all hold, separated by &")
	loads := flag.String("loads", "", "offered loads, comma-separated")
	reps := flag.Int("reps", 1, "replications, from the spec's first seed")
	windows := flag.Int("windows", 3, "stored windows to run")
	batches := flag.Int("batches", 10, "batches per window")
	tolerance := flag.Float64("tolerance", engine.DefaultStationaryTolerance, "the check's tolerance")
	list := flag.Bool("list", false, "list the spec's curves and stop")
	header := flag.Bool("header", true, "print the CSV header")
	flag.Parse()
	if *name == "" {
		return fmt.Errorf("-spec: name a stored spec, e.g. -spec twisted-patterns-2d")
	}
	if *windows < 1 || *batches < 4 || *reps < 1 || *windows**batches > engine.MaxStationaryBatches {
		return fmt.Errorf("-windows %d × -batches %d, -reps %d: accepted are at least 1 window of at least 4 batches, at most %d batches in all, and 1 replication or more",
			*windows, *batches, *reps, engine.MaxStationaryBatches)
	}
	file, yaml, err := datasets.Experiment(*name)
	if err != nil {
		return err
	}
	spec, curves, err := experiment.ParseSpecCurves(file, yaml)
	if err != nil {
		return err
	}
	var values []float64
	for _, s := range strings.Split(*loads, ",") {
		if strings.TrimSpace(s) == "" {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return fmt.Errorf("-loads: %q is not a number", s)
		}
		values = append(values, v)
	}
	w := csv.NewWriter(os.Stdout)
	defer w.Flush()
	if *header && !*list {
		if err := w.Write([]string{"spec", "curve", "curve_key", "load", "seed", "warmup", "measure", "window", "window_start",
			"accepted", "stationary", "drift", "noise", "batch_accepted"}); err != nil {
			return err
		}
	}
	for _, c := range curves {
		if *list {
			fmt.Println(c.Name, c.Key)
			continue
		}
		if !matches(c.Name, *filter) {
			continue
		}
		for _, load := range values {
			for r := range *reps {
				if err := point(w, *name, c, spec.Seed+uint64(r), load, *windows, *batches, *tolerance); err != nil {
					return err
				}
				w.Flush()
			}
		}
	}
	return w.Error()
}

func matches(name, filter string) bool {
	for _, f := range strings.Split(filter, "&") {
		if !strings.Contains(name, f) {
			return false
		}
	}
	return true
}

// point runs one point over windows stored windows and writes a row per window.
func point(w *csv.Writer, spec string, c experiment.Curve, seed uint64, load float64, windows, batches int, tolerance float64) error {
	p := c.Point
	p.Load, p.Seed = load, seed
	measure := p.Measure
	p.Measure = measure * int64(windows)
	// One window of all the batches, never run on: the stored window comes first.
	p.StationaryBatches, p.StationaryTolerance, p.StationaryWindows = batches*windows, tolerance, 1
	res, err := p.Run(context.Background())
	if err != nil {
		return fmt.Errorf("%s at %g: %w", c.Name, load, err)
	}
	b := res.Stationarity.Batches
	if len(b) != batches*windows {
		return fmt.Errorf("%s at %g: %d batches (the run stopped at cycle %d)", c.Name, load, len(b), res.Cycles)
	}
	for k := range windows {
		x := b[k*batches : (k+1)*batches]
		var sum float64
		cells := make([]string, len(x))
		for i, v := range x {
			sum += v
			cells[i] = ftoa(v)
		}
		ok, drift, noise := engine.CheckStationary(x, tolerance)
		if err := w.Write([]string{spec, c.Name, c.Key, ftoa(load), strconv.FormatUint(seed, 10), strconv.FormatInt(p.Warmup, 10),
			strconv.FormatInt(measure, 10), strconv.Itoa(k + 1), strconv.FormatInt(p.Warmup+int64(k)*measure, 10),
			ftoa(sum / float64(batches)), strconv.FormatBool(ok), ftoa(drift), ftoa(noise), strings.Join(cells, " ")}); err != nil {
			return err
		}
	}
	return nil
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
