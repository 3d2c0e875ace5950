package figures

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/twintorus/twintorus/plots"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/topology"
)

// Closed-loop results: one summary per curve (no load axis), so the figures are
// against network size, or bars per workload.

// ExecutionCycles is the closed-loop metric figures plot by default.
const ExecutionCycles = "execution_cycles"

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

// pes is a network's PE count, from its spec.
func pes(spec string) (int, error) {
	s, err := topology.Parse(spec)
	if err != nil {
		return 0, err
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

// AgainstSize makes one series per network family and deadlock scheme of the
// summaries of one workload: metric against PEs, with 95 % confidence intervals
// (a linear mapping has none: every replication is the same run). Bubble flow control
// is solid, virtual channels dotted.
func AgainstSize(sums []experiment.Summary, workload, metric string) ([]plots.Series, error) {
	var names []string
	series := map[string]*plots.Series{}
	for _, s := range sums {
		if s.Point.Workload != workload {
			continue
		}
		e, ok := s.Estimates[metric]
		if !ok || math.IsNaN(e.Mean) {
			continue
		}
		n, err := pes(s.Point.Topology)
		if err != nil {
			return nil, err
		}
		name := Family(s.Point.Topology) + " " + Scheme(s.Point.Deadlock)
		if s.Point.Mapping != "" && s.Point.Mapping != "linear" {
			name += " " + s.Point.Mapping
		}
		sr, ok := series[name]
		if !ok {
			sr = &plots.Series{Name: name, Color: plots.Black, Dash: plots.Solid}
			if strings.HasPrefix(name, "5DT") || strings.Contains(name, "DT ") {
				sr.Color = plots.Blue
			}
			if s.Point.Deadlock == "vc" {
				sr.Dash = plots.Dotted
			}
			series[name] = sr
			names = append(names, name)
		}
		p := plots.Point{X: float64(n), Y: e.Mean, XLow: math.NaN(), XHigh: math.NaN(), YLow: e.Low, YHigh: e.High}
		if e.N < 2 {
			p.YLow, p.YHigh = math.NaN(), math.NaN()
		}
		sr.Points = append(sr.Points, p)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("figures: no closed-loop summaries of %s with %s", workload, metric)
	}
	out := make([]plots.Series, len(names))
	for i, n := range names {
		out[i] = *series[n]
		slices.SortFunc(out[i].Points, func(a, b plots.Point) int { return int(a.X - b.X) })
	}
	return out, nil
}

// Reductions is a bar chart of how much less of a metric (execution time by default)
// one network needs than another, (base − other)/base in percent, for each workload
// the summaries hold, at one deadlock scheme: the form of the papers' "reduction"
// columns. paper, when set, gives the paper's reduction per workload, drawn as
// markers beside the bars (NaN where the paper has none).
func Reductions(sums []experiment.Summary, metric, base, other, scheme string, paper func(workload string) float64) (plots.BarPlot, error) {
	value := map[[2]string]float64{}
	var workloads []string
	for _, s := range sums {
		if s.Point.Deadlock != scheme || s.Point.Workload == "" {
			continue
		}
		e, ok := s.Estimates[metric]
		if !ok {
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
		ours.Values = append(ours.Values, 100*(b-o)/b)
		v := math.NaN()
		if paper != nil {
			v = paper(w)
		}
		ref.Values = append(ref.Values, v)
	}
	if len(cats) == 0 {
		return plots.BarPlot{}, fmt.Errorf("figures: no workload has %s on both %s and %s with %s", metric, base, other, scheme)
	}
	groups := []plots.BarGroup{ours}
	if slices.ContainsFunc(ref.Values, func(v float64) bool { return !math.IsNaN(v) }) {
		groups = append(groups, ref)
	}
	return plots.BarPlot{Options: plots.Options{Title: fmt.Sprintf("%s against %s, %s", Network(other), Network(base), Scheme(scheme)),
		YLabel: "reduction of " + strings.ReplaceAll(metric, "_", " ") + " (%)"}, Categories: cats, Groups: groups, Labels: true}, nil
}
