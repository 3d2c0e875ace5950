package figures

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/twintorus/twintorus/datasets"
	"github.com/twintorus/twintorus/plots"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/topology"
)

// Closed-loop results have one summary per curve (no load axis): their figures are
// a metric against network size, and the papers' "reduction" of one network against
// another per workload.

// Family is a network's family and dimension without its size, "3D torus" or "5DT
// torus": the line a closed-loop figure draws across sizes.
func Family(spec string) string {
	s, err := topology.Parse(spec)
	if err != nil {
		return spec
	}
	switch s.Family {
	case topology.FamilyTwin:
		return fmt.Sprintf("%dDT torus", len(s.Radix))
	case topology.FamilyTorus:
		return fmt.Sprintf("%dD torus", len(s.Radix))
	}
	return string(s.Family)
}

// PEs is a network's PE count, from its spec: its family's size formula, where the
// family has one (a k-ary n-tree's k^n, a Slim Fly's 2q²·p), else the product of its
// radices times the PEs per node.
func PEs(spec string) (int, error) {
	s, err := topology.Parse(spec)
	if err != nil {
		return 0, err
	}
	if z, ok := s.Size(); ok && z.Terminals > 0 {
		return int(z.Terminals), nil
	}
	n := 1
	for _, k := range s.Radix {
		n *= k
	}
	switch {
	case s.Family == topology.FamilyTwin:
		n *= 2
	case s.PEs > 1:
		n *= s.PEs
	}
	return n, nil
}

// AgainstSize draws a closed-loop metric of one workload against the networks' PEs,
// one line per network family and deadlock scheme (and mapping, when not linear):
// twin tori blue, tori black, virtual channels dotted. Points carry 95 % confidence
// intervals when the replications differ (random mappings).
//
//	kernel.Show(figures.AgainstSize(res, "alltoall:pairwise:512B", experiment.ExecutionCycles))
func AgainstSize(src Summarized, workload string, metric experiment.MetricName, opts ...Option) (plots.LinePlot, error) {
	v := options(opts)
	if src == nil {
		return plots.LinePlot{}, fmt.Errorf("figures: nothing to plot (nil results)")
	}
	var names []string
	series := map[string]*plots.Series{}
	for _, s := range src.Summaries() {
		e, ok := s.Estimate(metric)
		if s.Point.Workload != workload || !v.kept(s) || !ok || math.IsNaN(e.Mean) {
			continue
		}
		n, err := PEs(s.Point.Topology)
		if err != nil {
			return plots.LinePlot{}, err
		}
		name := Family(s.Point.Topology) + " " + Scheme(s.Point.Deadlock)
		if s.Point.Mapping != "" && s.Point.Mapping != "linear" {
			name += " " + s.Point.Mapping
		}
		sr, ok := series[name]
		if !ok {
			sr = &plots.Series{Name: name, Color: plots.Black, Dash: plots.Solid}
			if strings.Contains(Family(s.Point.Topology), "DT") {
				sr.Color = plots.Blue
			}
			if s.Point.Deadlock == "vc" {
				sr.Dash = plots.Dotted
			}
			series[name] = sr
			names = append(names, name)
		}
		p := plots.Point{X: float64(n), Y: e.Mean, XLow: math.NaN(), XHigh: math.NaN(), YLow: math.NaN(), YHigh: math.NaN()}
		if e.N > 1 && e.High > e.Low {
			p.YLow, p.YHigh = e.Low, e.High
		}
		sr.Points = append(sr.Points, p)
	}
	if len(names) == 0 {
		return plots.LinePlot{}, fmt.Errorf("figures: no closed-loop summary of %s has %s", workload, metric)
	}
	out := make([]plots.Series, len(names))
	for i, n := range names {
		out[i] = *series[n]
		slices.SortFunc(out[i].Points, func(a, b plots.Point) int { return int(a.X - b.X) })
	}
	title := v.title
	if title == "" {
		title = workload
	}
	return plots.LinePlot{Options: plots.Options{Title: title, XLabel: "PEs", YLabel: axisLabel(metric), Legend: v.legend}, Series: out}, nil
}

// Reductions is a bar chart of how much less of a closed-loop metric network other
// needs than network base, (base − other)/base in percent, per workload of src under
// one deadlock scheme: the form of the papers' "reduction" columns. paper, when set,
// gives the paper's reduction of a workload, drawn as a marker beside its bar (NaN
// where the paper has none).
func Reductions(src Summarized, metric experiment.MetricName, base, other, scheme string, paper func(workload string) float64, opts ...Option) (plots.BarPlot, error) {
	v := options(opts)
	if src == nil {
		return plots.BarPlot{}, fmt.Errorf("figures: nothing to plot (nil results)")
	}
	base, other = canonical(base), canonical(other)
	value := map[[2]string]float64{}
	var workloads []string
	for _, s := range src.Summaries() {
		e, ok := s.Estimate(metric)
		if s.Point.Deadlock != scheme || s.Point.Workload == "" || !ok || !v.kept(s) {
			continue
		}
		value[[2]string{s.Point.Topology, s.Point.Workload}] = e.Mean
		if !slices.Contains(workloads, s.Point.Workload) {
			workloads = append(workloads, s.Point.Workload)
		}
	}
	ours := plots.BarGroup{Name: "twintorus"}
	ref := plots.BarGroup{Name: "paper", Marker: true}
	var cats []string
	for _, w := range workloads {
		b, ok1 := value[[2]string{base, w}]
		o, ok2 := value[[2]string{other, w}]
		if !ok1 || !ok2 || b == 0 {
			continue
		}
		cats = append(cats, w)
		ours.Values = append(ours.Values, reduction(b, o))
		r := math.NaN()
		if paper != nil {
			r = paper(w)
		}
		ref.Values = append(ref.Values, r)
	}
	if len(cats) == 0 {
		return plots.BarPlot{}, fmt.Errorf("figures: no workload has %s on both %s and %s with %s", metric, base, other, scheme)
	}
	cats = shortWorkloads(cats)
	groups := []plots.BarGroup{ours}
	if slices.ContainsFunc(ref.Values, func(x float64) bool { return !math.IsNaN(x) }) {
		groups = append(groups, ref)
	}
	title := v.title
	if title == "" {
		title = fmt.Sprintf("%s against %s, %s", Network(other), Network(base), Scheme(scheme))
	}
	what := strings.TrimSuffix(strings.TrimSuffix(axisLabel(metric), " (cycles)"), " (cycles delivering)")
	return plots.BarPlot{Options: plots.Options{Title: title, YLabel: "reduction of " + what + " (%)", Legend: v.legend},
		Categories: cats, Groups: groups, Labels: true}, nil
}

// options applies a figure's options.
func options(opts []Option) view {
	var v view
	for _, o := range opts {
		o(&v)
	}
	return v
}

// kept reports whether every Only of the view accepts s.
func (v view) kept(s experiment.Summary) bool {
	for _, k := range v.keep {
		if !k(s) {
			return false
		}
	}
	return true
}

// LoadClosedLoop gets the results of the closed-loop experiment spec
// datasets.ClosedLoopExperiment(name) in the given mode: the stored full run
// (datasets/results/workloads/NAME-summary.csv), a quick run (QuickClosedLoopSpec) or
// a recomputation into StoreDir.
func LoadClosedLoop(ctx context.Context, name string, mode Mode, progress func(done, total int)) (*Results, error) {
	spec, curves, err := parsed(datasets.ClosedLoopExperiment(name))
	if err != nil {
		return nil, err
	}
	return resultsOf(ctx, name, spec, curves, mode, progress)
}

// LoadClosedLoopShrunk is LoadClosedLoop for a closed-loop experiment whose networks
// are too large for a quick run (minutes per point even at the smallest size): in Quick
// mode the run is shrink(QuickClosedLoopSpec(spec)), e.g. the same families at a
// smaller size; the other modes are LoadClosedLoop's.
func LoadClosedLoopShrunk(ctx context.Context, name string, mode Mode, progress func(done, total int), shrink func(experiment.Spec) experiment.Spec) (*Results, error) {
	spec, curves, err := parsed(datasets.ClosedLoopExperiment(name))
	if err != nil {
		return nil, err
	}
	if mode != Quick {
		return resultsOf(ctx, name, spec, curves, mode, progress)
	}
	return quickResultsOf(ctx, name, shrink(QuickClosedLoopSpec(spec)), progress)
}

// QuickClosedLoopSpec is the quick version of a closed-loop spec: its smallest
// networks (those with the fewest PEs) and at most two replications.
func QuickClosedLoopSpec(s experiment.Spec) experiment.Spec {
	q := s
	q.Seeds = min(s.Seeds, 2)
	least := math.MaxInt
	for _, t := range s.Topologies {
		if n, err := PEs(t); err == nil {
			least = min(least, n)
		}
	}
	q.Topologies = nil
	for _, t := range s.Topologies {
		if n, err := PEs(t); err != nil || n == least {
			q.Topologies = append(q.Topologies, t)
		}
	}
	return q
}

// shortWorkloads names workloads for a chart's categories: a collective as its
// operation and size ("bcast 16B"), with its algorithm only where the chart holds
// two algorithms of one operation ("allgather ring 16B"), and without its size when
// all have the same ("bcast").
func shortWorkloads(ws []string) []string {
	algs := map[string]map[string]bool{}
	sizes := map[string]bool{}
	for _, w := range ws {
		if p := strings.Split(w, ":"); len(p) >= 3 {
			if algs[p[0]] == nil {
				algs[p[0]] = map[string]bool{}
			}
			algs[p[0]][p[1]] = true
			sizes[p[2]] = true
		}
	}
	out := make([]string, len(ws))
	for i, w := range ws {
		p := strings.Split(w, ":")
		switch {
		case len(p) < 3 || p[0] == "trace":
			out[i] = w
		case len(algs[p[0]]) > 1:
			out[i] = p[0] + " " + p[1] + " " + p[2]
		default:
			out[i] = p[0] + " " + p[2]
		}
		if len(sizes) == 1 && len(p) >= 3 && p[0] != "trace" {
			out[i] = strings.TrimSuffix(out[i], " "+p[2])
		}
	}
	return out
}
