package figures

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/twintorus/twintorus/plots"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/topology"
)

// Load is the pseudo-metric "offered load" (the summaries' load axis) for Curves and
// Plot.
const Load experiment.MetricName = "load"

// CurveOptions choose and label the curves of a figure.
type CurveOptions struct {
	// Keep selects summaries (nil keeps all).
	Keep func(experiment.Summary) bool
	// Name is a curve's legend entry (nil: Label).
	Name func(experiment.Point) string
	// Style overrides a curve's colour and dash (nil: Style).
	Style func(experiment.Point) (plots.Color, plots.Dash)
	// Unsaturated drops the points where at least half of the replications saturated:
	// past saturation latency grows with the run's length, not with the network.
	Unsaturated bool
}

// Curves makes one series per curve of the summaries: metric y against metric x (Load
// for the offered load), each point with the 95 % confidence intervals of both means.
// Curves keep the order of their first summary; points go by load. A point whose
// window was not stationary (experiment.NotSteady) is hollow: its means still drift,
// and no verdict rests on it (HollowLabel says so in the legend).
func Curves(sums []experiment.Summary, x, y experiment.MetricName, o CurveOptions) ([]plots.Series, error) {
	var keys []string
	byKey := map[string][]experiment.Summary{}
	kept := 0
	for _, s := range sums {
		if o.Keep != nil && !o.Keep(s) {
			continue
		}
		kept++
		if o.Unsaturated && s.SaturatedShare() {
			continue
		}
		if _, ok := byKey[s.CurveKey]; !ok {
			keys = append(keys, s.CurveKey)
		}
		byKey[s.CurveKey] = append(byKey[s.CurveKey], s)
	}
	if len(keys) == 0 {
		return nil, nothingToPlot(sums, kept, x, y)
	}
	name, style := o.Name, o.Style
	if name == nil {
		name = Label
	}
	if style == nil {
		style = Style
	}
	out := make([]plots.Series, 0, len(keys))
	for _, k := range keys {
		ss := byKey[k]
		sort.Slice(ss, func(i, j int) bool { return ss[i].Load < ss[j].Load })
		s := plots.Series{Name: name(ss[0].Point)}
		s.Color, s.Dash = style(ss[0].Point)
		for _, m := range ss {
			px, err := estimate(m, x)
			if err != nil {
				return nil, err
			}
			py, err := estimate(m, y)
			if err != nil {
				return nil, err
			}
			if math.IsNaN(px.Mean) || math.IsNaN(py.Mean) {
				continue // no packet delivered at this load
			}
			s.Points = append(s.Points, plots.Point{X: px.Mean, XLow: px.Low, XHigh: px.High, Y: py.Mean, YLow: py.Low, YHigh: py.High,
				Hollow: m.Steadiness() == experiment.NotSteady})
		}
		if len(s.Points) > 0 {
			out = append(out, s)
		}
	}
	return out, nil
}

// Legend notes of the figures on the stationarity of their points.
const (
	// HollowLabel explains hollow points: not stationary.
	HollowLabel = "hollow: not stationary (no verdict rests on it)"
	// UncheckedNote marks a figure with points whose stationarity is unknown: runs
	// made without the check, such as the stored runs made before it existed.
	UncheckedNote = "stationarity not checked (runs before the check)"
)

// uncheckedShown reports whether a point the curves draw has no stationarity verdict
// for some replication (experiment.SteadyUnknown).
func uncheckedShown(sums []experiment.Summary, o CurveOptions) bool {
	for _, s := range sums {
		if o.Keep != nil && !o.Keep(s) || o.Unsaturated && s.SaturatedShare() || s.Point.ClosedLoop() {
			continue
		}
		if s.Steadiness() == experiment.SteadyUnknown {
			return true
		}
	}
	return false
}

func estimate(s experiment.Summary, metric experiment.MetricName) (experiment.Estimate, error) {
	if metric == Load {
		return experiment.Estimate{N: s.N, Mean: s.Load, Low: math.NaN(), High: math.NaN()}, nil
	}
	e, ok := s.Estimate(metric)
	if !ok {
		var have []string
		for m := range s.Estimates {
			have = append(have, m)
		}
		sort.Strings(have)
		return e, fmt.Errorf("figures: the summaries have no metric %q (they have %s)", metric, strings.Join(have, ", "))
	}
	if e.N < 2 { // one replication: no interval
		e.Low, e.High = math.NaN(), math.NaN()
	}
	return e, nil
}

// Label names a point the papers' way: "D bubble" for twin:4x4x4/D under bubble flow
// control, "16x8 VCs" for torus:16x8 under the VC scheme.
func Label(p experiment.Point) string {
	return Network(p.Topology) + " " + Scheme(p.Deadlock)
}

// Network is a short name: the configuration letter of a 3DT torus, "3DT 4x4x4 CBest",
// "2D 16x8" or "3D 8x8x8" for tori, else the spec.
func Network(spec string) string {
	s, err := topology.Parse(spec)
	if err != nil {
		return spec
	}
	shape := strings.TrimPrefix(strings.Split(s.Shape(), ":")[1], "")
	switch s.Family {
	case topology.FamilyTwin:
		if len(s.Config) == 1 {
			return s.Config
		}
		return fmt.Sprintf("%dDT %s %s", len(s.Radix), shape, s.Config)
	case topology.FamilyTorus:
		return fmt.Sprintf("%dD %s", len(s.Radix), shape)
	}
	return spec
}

// Configured names a network by its kind, size and configuration: "3DT 4x4x4 D",
// "5DT 4x4x2x2x2 CBest", "2D 16x8" for a torus, else the spec.
func Configured(spec string) string {
	s, err := topology.Parse(spec)
	if err != nil || s.Family != topology.FamilyTwin || len(s.Config) != 1 {
		return Network(spec)
	}
	return Shape(spec) + " " + s.Config
}

// Shape names a network by its kind and size, as the papers compare them: "3DT 4x4x2"
// for a twin torus (whatever its configuration), "2D 16x8" or "3D 8x8x8" for a torus,
// else the spec.
func Shape(spec string) string {
	s, err := topology.Parse(spec)
	if err != nil {
		return spec
	}
	shape := strings.Split(s.Shape(), ":")[1]
	switch s.Family {
	case topology.FamilyTwin:
		return fmt.Sprintf("%dDT %s", len(s.Radix), shape)
	case topology.FamilyTorus:
		return fmt.Sprintf("%dD %s", len(s.Radix), shape)
	}
	return spec
}

// Scheme is the papers' name of a deadlock scheme: "bubble", "VCs", "none".
func Scheme(s string) string {
	if s == "vc" {
		return "VCs"
	}
	return s
}

// Style gives configurations A–J colours of their own (dashed for SC0 = A, B, E, F,
// whose three dimensions are all split; solid for SC1), the tori black, and the VC
// scheme a dotted line when bubble is shown beside it.
func Style(p experiment.Point) (plots.Color, plots.Dash) {
	s, err := topology.Parse(p.Topology)
	if err != nil || s.Family != topology.FamilyTwin || len(s.Config) != 1 {
		if p.Deadlock == "vc" {
			return plots.Black, plots.Dotted
		}
		return plots.Black, plots.Solid
	}
	// SC1 (C, D, G, H, I, J) solid in six colours, D blue; SC0 (A, B, E, F) dashed.
	colors := map[byte]plots.Color{'C': plots.Green, 'D': plots.Blue, 'G': plots.Orange, 'H': plots.Purple,
		'I': plots.SkyBlue, 'J': plots.Vermillion, 'A': plots.Vermillion, 'B': plots.Orange, 'E': plots.Purple, 'F': plots.Green}
	dash := plots.Solid
	if strings.IndexByte("ABEF", s.Config[0]) >= 0 {
		dash = plots.Dashed
	}
	if p.Deadlock == "vc" {
		dash = plots.Dotted
	}
	return colors[s.Config[0]], dash
}

// nothingToPlot says why a figure has no curve: no summaries at all, a filter
// (Only, Topologies, Deadlock) that kept none of them, or only points past
// saturation, which a latency figure leaves out.
func nothingToPlot(sums []experiment.Summary, kept int, x, y experiment.MetricName) error {
	switch {
	case len(sums) == 0:
		return fmt.Errorf("figures: no summaries to plot %s against %s: the results hold none", y, x)
	case kept == 0:
		var nets []string
		for _, s := range sums {
			if !slices.Contains(nets, s.Point.Topology) {
				nets = append(nets, s.Point.Topology)
			}
		}
		return fmt.Errorf("figures: no summaries to plot %s against %s: the filter kept none of the %d summaries (networks: %s)",
			y, x, len(sums), strings.Join(nets, ", "))
	}
	return fmt.Errorf("figures: no summaries to plot %s against %s: each of the %d kept is past saturation, where a latency figure leaves points out (figures.Saturated keeps them)",
		y, x, kept)
}
