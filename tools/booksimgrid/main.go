// Command booksimgrid turns the outputs of a grid of BookSim2 runs into the reference
// data of datasets/booksim (README.md there says how the grid was run): one CSV row
// per run, and one experiment spec per configuration and traffic pattern that runs the
// same points on our side, written out as the booksim mapping (docs/booksim.md) maps
// the configuration, so that a spec reads without the configuration file beside it.
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
	"bytes"
	"encoding/csv"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/sim/booksim"
	"github.com/twintorus/twintorus/sim/engine"
	"github.com/twintorus/twintorus/sim/topology"
	"gopkg.in/yaml.v3"
)

func main() {
	runs := flag.String("runs", "", "directory of BookSim2 outputs NAME-TRAFFIC-LOAD-SEED.out")
	sat := flag.String("sat", "", "directory of BookSim2 outputs run to their end (latency_thres raised) past saturation, named alike")
	data := flag.String("data", "datasets/booksim", "the reference data directory: configs/ in, results.csv out")
	specs := flag.String("specs", "datasets/experiments", "where the experiment specs go")
	flag.Parse()
	if *runs == "" {
		fmt.Fprintln(os.Stderr, "booksimgrid: -runs DIR is required")
		os.Exit(2)
	}
	if err := run(*runs, *sat, *data, *specs); err != nil {
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
	toEnd         bool // run to its end past saturation (latency_thres raised)
}

func run(runs, sat, data, specs string) error {
	files, err := filepath.Glob(filepath.Join(runs, "*.out"))
	if err != nil {
		return err
	}
	var satFiles []string
	if sat != "" {
		if satFiles, err = filepath.Glob(filepath.Join(sat, "*.out")); err != nil {
			return err
		}
	}
	var rows []runRow
	for i, f := range append(files, satFiles...) {
		r, err := readRun(f)
		if err != nil {
			return err
		}
		r.toEnd = i >= len(files)
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
		if a.seed != b.seed {
			return a.seed - b.seed
		}
		if a.toEnd != b.toEnd && !a.toEnd {
			return -1
		} else if a.toEnd != b.toEnd {
			return 1
		}
		return 0
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
	"flit_latency", "injected", "accepted", "hops", "cycles", "seconds", "cpu_seconds", "to_end"}

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
			strconv.FormatInt(o.Cycles, 10), g(o.Seconds), g(r.cpu), strconv.FormatBool(r.toEnd)})
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
		top, err := ourTopology(m.Topology, text)
		if err != nil {
			return fmt.Errorf("%s: %w", cfg, err)
		}
		var ls []string
		for _, l := range loads[k] {
			ls = append(ls, strconv.FormatFloat(l, 'g', -1, 64))
		}
		name := "booksim-" + k.name + "-" + k.traffic
		engineKeys, err := engineYAML(m.Engine)
		if err != nil {
			return err
		}
		tie := ""
		if m.Tie != "" {
			tie = "tie: " + m.Tie + "\n"
		}
		spec := fmt.Sprintf(`# BookSim2 cross-validation (issue 41; datasets/booksim/README.md): our side of
# BookSim2's runs of datasets/booksim/configs/%s.cfg under its traffic %s, at the
# loads BookSim2 ran, as the booksim mapping (docs/booksim.md) maps that configuration
# (figures.TestBookSimSpecsMapped checks it still does). Written by tools/booksimgrid.
# %d replications per point (the papers use 30): as many as BookSim2's grid has seeds.
name: %s
topologies: ["%s"]
routing: [%s]
deadlock: %s
%straffic: [%s]
sizes: "1"
engine:
%sloads: [%s]
seeds: %d
metrics: [accepted, latency_e2e_mean, latency_network_mean, hops, saturated, stationary_windows]
`, k.name, k.traffic, seeds[k], name, top, m.Routing, m.Deadlock, tie, m.Traffic,
			engineKeys, strings.Join(ls, ", "), seeds[k])
		if err := os.WriteFile(filepath.Join(specs, name+".yaml"), []byte(spec), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// ourTopology is the spec's topology for a mapped one: itself, but for an anynet file,
// which a spec could not name from wherever it is read, the network the configuration
// says the file was written from ("// topology: SPEC"), once the file is checked to
// be exactly what WriteAnynet writes of it.
func ourTopology(mapped string, cfg []byte) (string, error) {
	file, ok := strings.CutPrefix(mapped, "anynet:")
	if !ok {
		return mapped, nil
	}
	var spec string
	for _, line := range strings.Split(string(cfg), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "// topology: "); ok {
			spec, _, _ = strings.Cut(rest, " ")
		}
	}
	if spec == "" {
		return "", fmt.Errorf("an anynet configuration needs a line \"// topology: SPEC\" naming the network its file was written from")
	}
	net, err := topology.New(spec)
	if err != nil {
		return "", err
	}
	var want bytes.Buffer
	if err := topology.WriteAnynet(&want, net); err != nil {
		return "", err
	}
	got, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	if !bytes.Equal(got, want.Bytes()) {
		return "", fmt.Errorf("%s is not what twintorus analyze %s --anynet writes", file, spec)
	}
	return spec, nil
}

// engineYAML is the engine keys of e that differ from engine.Defaults(), but its load
// and seed (the spec's axes), one "  key: value" line each in the Params field order.
func engineYAML(e engine.Params) (string, error) {
	e.Load, e.Seed = engine.Defaults().Load, engine.Defaults().Seed
	var have, base yaml.Node
	if err := have.Encode(e); err != nil {
		return "", err
	}
	if err := base.Encode(engine.Defaults()); err != nil {
		return "", err
	}
	def := map[string]string{}
	for i := 0; i+1 < len(base.Content); i += 2 {
		def[base.Content[i].Value] = base.Content[i+1].Value
	}
	var b strings.Builder
	for i := 0; i+1 < len(have.Content); i += 2 {
		k, v := have.Content[i].Value, have.Content[i+1].Value
		if d, ok := def[k]; ok && d == v {
			continue
		}
		fmt.Fprintf(&b, "  %s: %s\n", k, v)
	}
	return b.String(), nil
}
