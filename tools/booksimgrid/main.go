// Command booksimgrid turns the outputs of a grid of BookSim2 runs into the reference
// data of datasets/booksim (README.md there says how the grid was run): one CSV row
// per run, and one experiment spec per configuration and traffic pattern that runs the
// same points on our side through the booksim mapping (docs/booksim.md).
//
//	go run ./tools/booksimgrid -runs DIR -data datasets/booksim -specs datasets/experiments
//
// DIR holds one file per run, NAME-TRAFFIC-LOAD-SEED.out: what BookSim2 printed (its
// standard output and error), then the line "cputime USER SYSTEM" that GNU time's
// -f "cputime %U %S" appends. NAME is a configuration of DATA/configs (NAME.cfg),
// TRAFFIC BookSim2's pattern, LOAD its injection_rate (flits/cycle/node) and SEED its
// seed.
package main

import (
	"bufio"
	"encoding/csv"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/sim/booksim"
)

func main() {
	runs := flag.String("runs", "", "directory of BookSim2 outputs NAME-TRAFFIC-LOAD-SEED.out")
	data := flag.String("data", "datasets/booksim", "the reference data directory: configs/ in, results.csv out")
	specs := flag.String("specs", "datasets/experiments", "where the experiment specs go")
	flag.Parse()
	if *runs == "" {
		fmt.Fprintln(os.Stderr, "booksimgrid: -runs DIR is required")
		os.Exit(2)
	}
	if err := run(*runs, *data, *specs); err != nil {
		fmt.Fprintln(os.Stderr, "booksimgrid:", err)
		os.Exit(1)
	}
}

// runRow is one BookSim2 run.
type runRow struct {
	name, traffic string
	load          float64
	seed          int
	out           booksim.Output
	cpu           float64
}

func run(runs, data, specs string) error {
	files, err := filepath.Glob(filepath.Join(runs, "*.out"))
	if err != nil {
		return err
	}
	var rows []runRow
	for _, f := range files {
		r, err := readRun(f)
		if err != nil {
			return err
		}
		if _, err := os.Stat(filepath.Join(data, "configs", r.name+".cfg")); err != nil {
			return fmt.Errorf("%s: no configuration %s.cfg in %s", f, r.name, filepath.Join(data, "configs"))
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		return fmt.Errorf("no runs NAME-TRAFFIC-LOAD-SEED.out in %s", runs)
	}
	slices.SortFunc(rows, func(a, b runRow) int {
		if c := strings.Compare(a.name+" "+a.traffic, b.name+" "+b.traffic); c != 0 {
			return c
		}
		if a.load != b.load {
			if a.load < b.load {
				return -1
			}
			return 1
		}
		return a.seed - b.seed
	})
	if err := writeCSV(filepath.Join(data, "results.csv"), rows); err != nil {
		return err
	}
	return writeSpecs(rows, data, specs)
}

// readRun reads one output file, named NAME-TRAFFIC-LOAD-SEED.out.
func readRun(path string) (runRow, error) {
	parts := strings.Split(strings.TrimSuffix(filepath.Base(path), ".out"), "-")
	if len(parts) != 4 {
		return runRow{}, fmt.Errorf("%s: want a name NAME-TRAFFIC-LOAD-SEED.out", path)
	}
	load, err1 := strconv.ParseFloat(parts[2], 64)
	seed, err2 := strconv.Atoi(parts[3])
	if err1 != nil || err2 != nil || load <= 0 || load > 1 {
		return runRow{}, fmt.Errorf("%s: want LOAD in (0, 1] and an integer SEED in the name", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return runRow{}, err
	}
	defer f.Close()
	out, err := booksim.ReadOutput(f)
	if err != nil {
		return runRow{}, fmt.Errorf("%s: %w", path, err)
	}
	r := runRow{name: parts[0], traffic: parts[1], load: load, seed: seed, out: out}
	if _, err := f.Seek(0, 0); err != nil {
		return runRow{}, err
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "cputime "); ok {
			var u, s float64
			if _, err := fmt.Sscan(rest, &u, &s); err != nil {
				return runRow{}, fmt.Errorf("%s: %q: want cputime USER SYSTEM", path, sc.Text())
			}
			r.cpu = u + s
		}
	}
	return r, sc.Err()
}

// csvHeader is results.csv's columns (datasets/booksim/README.md says what each is).
var csvHeader = []string{"config", "traffic", "load", "seed", "unstable", "packet_latency", "network_latency",
	"flit_latency", "injected", "accepted", "hops", "cycles", "seconds", "cpu_seconds"}

func writeCSV(path string, rows []runRow) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	_ = w.Write(csvHeader)
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for _, r := range rows {
		o := r.out
		_ = w.Write([]string{r.name, r.traffic, g(r.load), strconv.Itoa(r.seed), strconv.FormatBool(o.Unstable),
			g(o.PacketLatency), g(o.NetworkLatency), g(o.FlitLatency), g(o.InjectedFlits), g(o.AcceptedFlits), g(o.Hops),
			strconv.FormatInt(o.Cycles, 10), g(o.Seconds), g(r.cpu)})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeSpecs writes one spec per configuration and pattern: BookSim2's configuration
// file, our name of its pattern, every load BookSim2 ran (up to two past its first
// unstable one), as many seeds as it ran.
func writeSpecs(rows []runRow, data, specs string) error {
	type key struct{ name, traffic string }
	loads, seeds := map[key][]float64{}, map[key]int{}
	var keys []key
	for _, r := range rows {
		k := key{r.name, r.traffic}
		if _, ok := loads[k]; !ok {
			keys = append(keys, k)
		}
		if !slices.Contains(loads[k], r.load) {
			loads[k] = append(loads[k], r.load)
		}
		seeds[k] = max(seeds[k], r.seed)
	}
	for _, k := range keys {
		cfg := filepath.Join(data, "configs", k.name+".cfg")
		text, err := os.ReadFile(cfg)
		if err != nil {
			return err
		}
		c, err := booksim.Parse(cfg, append(text, []byte("\ntraffic = "+k.traffic+";\n")...))
		if err != nil {
			return err
		}
		m, err := booksim.Map(c)
		if err != nil {
			return fmt.Errorf("%s with traffic %s: %w", cfg, k.traffic, err)
		}
		rel, err := filepath.Rel(specs, cfg)
		if err != nil {
			return err
		}
		var ls []string
		for _, l := range loads[k] {
			ls = append(ls, strconv.FormatFloat(l, 'g', -1, 64))
		}
		name := "booksim-" + k.name + "-" + k.traffic
		spec := fmt.Sprintf(`# BookSim2 cross-validation (issue 41; datasets/booksim/README.md): our side of
# BookSim2's runs of configs/%s.cfg under its traffic %s, at the loads BookSim2 ran,
# through the booksim mapping (docs/booksim.md). Written by tools/booksimgrid.
name: %s
booksim: %s
traffic: [%s]
loads: [%s]
seeds: %d
metrics: [accepted, latency_e2e_mean, latency_network_mean, hops, saturated, stationary_windows]
`, k.name, k.traffic, name, filepath.ToSlash(rel), m.Traffic, strings.Join(ls, ", "), seeds[k])
		if err := os.WriteFile(filepath.Join(specs, name+".yaml"), []byte(spec), 0o644); err != nil {
			return err
		}
	}
	return nil
}
