package figures

import (
	"fmt"
	"slices"
	"strings"

	"github.com/twintorus/twintorus/plots"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/topology"
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
	cap    *float64
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

// DefaultLatencyCap is where a latency figure's curves stop, as a multiple of the
// zero-load latency: near saturation latency climbs to thousands of cycles, and an
// axis drawn to them flattens the low-load region where the papers' latency claims
// are. At twenty times the zero-load latency still fills a twentieth of the axis, and
// the knees of the configurations figure (configuration J at 13.5 times) stay whole;
// ten cut them.
const DefaultLatencyCap = 20

// LatencyCap stops a latency figure's curves at their first point above multiple
// times the zero-load latency (the largest of the curves' lowest-load latencies), and
// says in the legend how many points that leaves out; 0 draws every point.
func LatencyCap(multiple float64) Option { return func(v *view) { v.cap = &multiple } }

// Axis labels of the papers' figures.
const (
	AcceptedLabel = "accepted traffic (flits/cycle/PE)"
	OfferedLabel  = "offered load (flits/cycle/PE)"
	LatencyLabel  = "network latency (cycles)"
)

// Latency is the papers' main figure: mean network latency against accepted
// traffic, one curve per network and scheme, each point an offered load with the 95 %
// confidence intervals of both means; points past saturation are left out, and each
// curve stops above DefaultLatencyCap times the zero-load latency (LatencyCap).
//
//	kernel.Show(figures.Latency(res, figures.Deadlock("bubble")))
func Latency(src Summarized, opts ...Option) (plots.LinePlot, error) {
	return Plot(src, experiment.Accepted, experiment.LatencyNetworkMean, opts...)
}

// Throughput is accepted traffic against offered load, with the line y = x that a
// network follows until it saturates; past saturation it shows what each scheme
// keeps.
func Throughput(src Summarized, opts ...Option) (plots.LinePlot, error) {
	p, err := Plot(src, Load, experiment.Accepted, opts...)
	p.Diagonal = true
	return p, err
}

// Plot is metric y against metric x (Load for the offered load) for every curve of
// src, with 95 % confidence intervals, labelled with the metrics' names unless the
// papers' axes apply. Points whose window was not stationary are hollow (Curves);
// when some point's stationarity is unknown the legend says so (UncheckedNote). A
// latency metric on y is drawn as Latency draws it: without the points past
// saturation (unless Saturated) and cut at DefaultLatencyCap times the zero-load
// latency (LatencyCap).
func Plot(src Summarized, x, y experiment.MetricName, opts ...Option) (plots.LinePlot, error) {
	v := options(opts)
	latency := isLatency(y)
	if latency {
		v.curves.Unsaturated = true
	}
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
	if v.curves.Style == nil {
		v.curves.Style = defaultStyle(sums, v.curves.Keep, one)
	}
	series, err := Curves(sums, x, y, v.curves)
	if err != nil {
		return plots.LinePlot{}, err
	}
	var notes []string
	if uncheckedShown(sums, v.curves) {
		notes = append(notes, UncheckedNote)
	}
	if multiple := float64(DefaultLatencyCap); latency {
		if v.cap != nil {
			multiple = *v.cap
		}
		if note := cutAbove(series, multiple); note != "" {
			notes = append(notes, note)
		}
	}
	return plots.LinePlot{
		Options:     plots.Options{Title: v.title, XLabel: axisLabel(x), YLabel: axisLabel(y), Legend: v.legend},
		Series:      series,
		HollowLabel: HollowLabel,
		Notes:       notes,
	}, nil
}

// isLatency reports whether a metric is a latency (latency_network_mean, …_flit_…,
// latency_e2e_…), the metrics that climb without bound past saturation.
func isLatency(m experiment.MetricName) bool { return strings.HasPrefix(string(m), "latency_") }

// cutAbove stops each series at its first point above multiple times the zero-load
// latency (the largest of the series' lowest-load y: every curve keeps at least
// multiple times its own), and returns the legend note saying so, or "" when no point
// was left out or multiple is 0.
func cutAbove(series []plots.Series, multiple float64) string {
	if multiple <= 0 || len(series) == 0 {
		return ""
	}
	zero := 0.0
	for _, s := range series {
		zero = max(zero, s.Points[0].Y) // Curves sorts a series' points by load
	}
	limit, cut := multiple*zero, 0
	for i, s := range series {
		for j, p := range s.Points {
			if p.Y > limit {
				cut += len(s.Points) - j
				series[i].Points = s.Points[:j]
				break
			}
		}
	}
	if cut == 0 {
		return ""
	}
	points := "points"
	if cut == 1 {
		points = "point"
	}
	return fmt.Sprintf("curves stop at %g× the zero-load latency (%.0f cycles): %d %s above not drawn", multiple, limit, cut, points)
}

// networkNames picks the shortest names that tell the kept curves' networks apart:
// the configuration letter alone ("D") where the figure compares configurations of
// one twin torus (tori beside them as "2D 16x8"), else Configured ("3DT 4x4x4 D"),
// else Shape, else the spec. A lone letter beside a torus of another size would not
// say which twin torus it is.
func networkNames(sums []experiment.Summary, keep func(experiment.Summary) bool) func(string) string {
	specs := keptNetworks(sums, keep)
	candidates := []func(string) string{Configured, Shape}
	if comparesConfigurations(specs) {
		candidates = append([]func(string) string{Network}, candidates...)
	}
	for _, name := range candidates {
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

// keptNetworks lists the kept summaries' networks in order of first appearance.
func keptNetworks(sums []experiment.Summary, keep func(experiment.Summary) bool) []string {
	var specs []string
	for _, s := range sums {
		if (keep == nil || keep(s)) && !slices.Contains(specs, s.Point.Topology) {
			specs = append(specs, s.Point.Topology)
		}
	}
	return specs
}

// comparesConfigurations reports whether the twin tori among specs are two or more
// lettered configurations (A–J) of one shape: a figure where the letters are the names.
func comparesConfigurations(specs []string) bool {
	shape, configs := "", 0
	for _, spec := range specs {
		s, err := topology.Parse(spec)
		if err != nil || s.Family != topology.FamilyTwin {
			continue
		}
		if len(s.Config) != 1 || shape != "" && s.Shape() != shape {
			return false
		}
		shape = s.Shape()
		configs++
	}
	return configs >= 2
}

// defaultStyle is Style (as for bubble flow control when all curves share a scheme,
// so that the dashes still tell configurations apart), unless Style would give two
// of the kept networks the same colour and dash (two tori, or configuration D at two
// sizes): then each network takes the palette's next colour in the order the curves
// come, solid, dotted under the VC scheme beside another.
func defaultStyle(sums []experiment.Summary, keep func(experiment.Summary) bool, one bool) func(experiment.Point) (plots.Color, plots.Dash) {
	style := Style
	if one {
		style = func(p experiment.Point) (plots.Color, plots.Dash) {
			p.Deadlock = "bubble"
			return Style(p)
		}
	}
	specs := keptNetworks(sums, keep)
	type look struct {
		c plots.Color
		d plots.Dash
	}
	seen := map[look]bool{}
	for _, spec := range specs {
		c, d := style(experiment.Point{Topology: spec, Deadlock: "bubble"})
		if seen[look{c, d}] {
			return func(p experiment.Point) (plots.Color, plots.Dash) {
				c := plots.Color(1 + slices.Index(specs, p.Topology)%int(plots.Black))
				if !one && p.Deadlock == "vc" {
					return c, plots.Dotted
				}
				return c, plots.Solid
			}
		}
		seen[look{c, d}] = true
	}
	return style
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
