package figures

import (
	"fmt"
	"slices"

	"github.com/twintorus/twintorus/plots"
	"github.com/twintorus/twintorus/sim/experiment"
)

// Summarized is what the figure functions draw from: anything holding experiment
// summaries. *Results (stored, quick or recomputed runs of a notebook's experiment)
// and *experiment.Results (a sweep a cell ran) both are.
type Summarized interface {
	Summaries(metrics ...string) []experiment.Summary
}

// Option adjusts a figure: which curves it draws, how it names and styles them, its
// title and legend.
type Option func(*view)

type view struct {
	curves CurveOptions
	keep   []func(experiment.Summary) bool
	title  string
	legend plots.LegendPlace
	all    bool // keep saturated points on latency figures
}

// Only keeps the summaries keep accepts (every Only must accept a summary).
func Only(keep func(experiment.Summary) bool) Option {
	return func(v *view) { v.keep = append(v.keep, keep) }
}

// Topologies keeps the curves of these networks (any spelling a spec accepts).
func Topologies(specs ...string) Option {
	for i, s := range specs {
		specs[i] = canonical(s)
	}
	return Only(func(s experiment.Summary) bool { return slices.Contains(specs, s.Point.Topology) })
}

// Deadlock keeps the curves of these deadlock schemes ("bubble", "vc", "none").
func Deadlock(schemes ...string) Option {
	return Only(func(s experiment.Summary) bool { return slices.Contains(schemes, s.Point.Deadlock) })
}

// Title sets the figure's title.
func Title(title string) Option { return func(v *view) { v.title = title } }

// Names names the curves (default: the network, by its configuration letter or, where
// letters repeat, its kind and size, then the scheme unless all curves share one).
func Names(name func(experiment.Point) string) Option {
	return func(v *view) { v.curves.Name = name }
}

// Styles colours and dashes the curves (default: Style, as for bubble flow control when
// all curves share one scheme).
func Styles(style func(experiment.Point) (plots.Color, plots.Dash)) Option {
	return func(v *view) { v.curves.Style = style }
}

// Legend places the legend (default: right of the plot).
func Legend(place plots.LegendPlace) Option { return func(v *view) { v.legend = place } }

// Saturated keeps, on a latency figure, the points where most replications
// saturated: there the latency grows with the length of the run, not with the
// network, so they are left out by default.
func Saturated() Option { return func(v *view) { v.all = true } }

// Axis labels of the papers' figures.
const (
	AcceptedLabel = "accepted traffic (flits/cycle/PE)"
	OfferedLabel  = "offered load (flits/cycle/PE)"
	LatencyLabel  = "network latency (cycles)"
)

// Latency is the papers' main figure: mean network latency against accepted
// traffic, one curve per network and scheme, each point an offered load with the 95 %
// confidence intervals of both means; points past saturation are left out.
//
//	kernel.Show(figures.Latency(res, figures.Deadlock("bubble")))
func Latency(src Summarized, opts ...Option) (plots.LinePlot, error) {
	return Plot(src, experiment.Accepted, experiment.LatencyNetworkMean, append([]Option{unsaturated}, opts...)...)
}

// Throughput is accepted traffic against offered load, with the line y = x that a
// network follows until it saturates; past saturation it shows what each scheme
// keeps.
func Throughput(src Summarized, opts ...Option) (plots.LinePlot, error) {
	p, err := Plot(src, Load, experiment.Accepted, opts...)
	p.Diagonal = true
	return p, err
}

// unsaturated is Latency's default, which Saturated undoes.
func unsaturated(v *view) { v.curves.Unsaturated = true }

// Plot is metric y against metric x (Load for the offered load) for every curve of
// src, with 95 % confidence intervals, labelled with the metrics' names unless the
// papers' axes apply. Points whose window was not stationary are hollow (Curves);
// when some point's stationarity is unknown the legend says so (UncheckedNote).
func Plot(src Summarized, x, y experiment.MetricName, opts ...Option) (plots.LinePlot, error) {
	v := options(opts)
	if v.all {
		v.curves.Unsaturated = false
	}
	if src == nil {
		return plots.LinePlot{}, fmt.Errorf("figures: nothing to plot (nil results)")
	}
	sums := src.Summaries()
	if len(v.keep) > 0 {
		v.curves.Keep = v.kept
	}
	network := networkNames(sums, v.curves.Keep)
	one := oneScheme(sums, v.curves.Keep)
	if v.curves.Name == nil {
		v.curves.Name = func(p experiment.Point) string {
			if one { // curves of one scheme need no scheme in their names
				return network(p.Topology)
			}
			return network(p.Topology) + " " + Scheme(p.Deadlock)
		}
	}
	if one && v.curves.Style == nil {
		// Keep the dashes that tell configurations apart (VC curves are otherwise
		// all dotted).
		v.curves.Style = func(p experiment.Point) (plots.Color, plots.Dash) {
			p.Deadlock = "bubble"
			return Style(p)
		}
	}
	series, err := Curves(sums, x, y, v.curves)
	if err != nil {
		return plots.LinePlot{}, err
	}
	var notes []string
	if uncheckedShown(sums, v.curves) {
		notes = append(notes, UncheckedNote)
	}
	return plots.LinePlot{
		Options:     plots.Options{Title: v.title, XLabel: axisLabel(x), YLabel: axisLabel(y), Legend: v.legend},
		Series:      series,
		HollowLabel: HollowLabel,
		Notes:       notes,
	}, nil
}

// networkNames picks the shortest names that tell the kept curves' networks apart:
// Network ("D", "2D 16x8"), else Shape ("3DT 8x8x8"), else the spec.
func networkNames(sums []experiment.Summary, keep func(experiment.Summary) bool) func(string) string {
	var specs []string
	for _, s := range sums {
		if (keep == nil || keep(s)) && !slices.Contains(specs, s.Point.Topology) {
			specs = append(specs, s.Point.Topology)
		}
	}
	for _, name := range []func(string) string{Network, Shape} {
		seen := map[string]bool{}
		unique := true
		for _, t := range specs {
			if seen[name(t)] {
				unique = false
				break
			}
			seen[name(t)] = true
		}
		if unique {
			return name
		}
	}
	return func(spec string) string { return spec }
}

// oneScheme reports whether every summary kept has the same deadlock scheme.
func oneScheme(sums []experiment.Summary, keep func(experiment.Summary) bool) bool {
	schemes := map[string]bool{}
	for _, s := range sums {
		if keep == nil || keep(s) {
			schemes[s.Point.Deadlock] = true
		}
	}
	return len(schemes) == 1
}

func axisLabel(m experiment.MetricName) string {
	switch m {
	case Load:
		return OfferedLabel
	case experiment.Accepted:
		return AcceptedLabel
	case experiment.LatencyNetworkMean:
		return LatencyLabel
	case experiment.LatencyNetworkFlitMean:
		return "network latency per flit (cycles)"
	case experiment.LatencyE2EMean:
		return "end-to-end latency (cycles)"
	case experiment.Hops:
		return "hops per packet"
	case experiment.ExecutionCycles:
		return "execution time (cycles)"
	case experiment.SwitchUtilisation:
		return "switch utilisation (cycles delivering)"
	}
	return string(m)
}
