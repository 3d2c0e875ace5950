package plots

import (
	"fmt"
	"math"
)

// interval reports whether [lo, hi] is a drawable interval around v.
func interval(what string, v, lo, hi float64) (bool, error) {
	loNaN, hiNaN := math.IsNaN(lo), math.IsNaN(hi)
	switch {
	case loNaN && hiNaN, lo == hi:
		return false, nil
	case loNaN || hiNaN || math.IsInf(lo, 0) || math.IsInf(hi, 0):
		return false, fmt.Errorf("%s interval [%g, %g] must have two finite bounds or none", what, lo, hi)
	case lo > hi:
		return false, fmt.Errorf("%s interval [%g, %g] has low > high", what, lo, hi)
	case v < lo || v > hi:
		return false, fmt.Errorf("%s interval [%g, %g] does not contain %s = %g (bounds are absolute, not offsets)", what, lo, hi, what, v)
	}
	return true, nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// check validates everything the plot draws, so drawing cannot fail.
func (p LinePlot) check() error {
	if len(p.Series) == 0 {
		return fmt.Errorf("plots: line plot %q has no series", p.Title)
	}
	for i, s := range p.Series {
		if len(s.Points) == 0 {
			return fmt.Errorf("plots: series %d %q has no points", i, s.Name)
		}
		if s.Color < 0 || int(s.Color) > len(palette) || s.Dash < 0 || int(s.Dash) > len(dashes) {
			return fmt.Errorf("plots: series %d %q: unknown colour %d or dash %d", i, s.Name, s.Color, s.Dash)
		}
		for j, pt := range s.Points {
			if err := checkPoint(pt, p.LogX, p.LogY); err != nil {
				return fmt.Errorf("plots: series %d %q point %d: %w", i, s.Name, j, err)
			}
		}
	}
	return nil
}

func checkPoint(pt Point, logX, logY bool) error {
	if !finite(pt.X) || !finite(pt.Y) {
		return fmt.Errorf("(X, Y) = (%g, %g) is not finite", pt.X, pt.Y)
	}
	hasX, err := interval("X", pt.X, pt.XLow, pt.XHigh)
	if err != nil {
		return err
	}
	hasY, err := interval("Y", pt.Y, pt.YLow, pt.YHigh)
	if err != nil {
		return err
	}
	// A log axis cannot show zero or less; the interval's low end counts too.
	if logX && (pt.X <= 0 || hasX && pt.XLow <= 0) {
		return fmt.Errorf("log axis needs positive values: X = %g, interval [%g, %g]", pt.X, pt.XLow, pt.XHigh)
	}
	if logY && (pt.Y <= 0 || hasY && pt.YLow <= 0) {
		return fmt.Errorf("log axis needs positive values: Y = %g, interval [%g, %g]", pt.Y, pt.YLow, pt.YHigh)
	}
	return nil
}

func (p BarPlot) check() error {
	if len(p.Categories) == 0 {
		return fmt.Errorf("plots: bar plot %q has no categories", p.Title)
	}
	if len(p.Groups) == 0 {
		return fmt.Errorf("plots: bar plot %q has no groups", p.Title)
	}
	bars := 0
	for i, g := range p.Groups {
		if len(g.Values) != len(p.Categories) {
			return fmt.Errorf("plots: bar group %d %q has %d values for %d categories", i, g.Name, len(g.Values), len(p.Categories))
		}
		if !g.Marker {
			bars++
		}
		for j, v := range g.Values {
			if math.IsNaN(v) { // no bar or marker here
				continue
			}
			if !finite(v) {
				return fmt.Errorf("plots: bar group %d %q, category %q: value %g is not finite", i, g.Name, p.Categories[j], v)
			}
		}
	}
	if bars > len(palette) {
		return fmt.Errorf("plots: bar plot %q has %d bar groups; at most %d are distinguishable", p.Title, bars, len(palette))
	}
	return nil
}

func (p HeatmapPlot) check() error {
	if len(p.Values) == 0 || len(p.Values[0]) == 0 {
		return fmt.Errorf("plots: heatmap %q has no values", p.Title)
	}
	cols := len(p.Values[0])
	for r, row := range p.Values {
		if len(row) != cols {
			return fmt.Errorf("plots: heatmap %q: row %d has %d values, row 0 has %d", p.Title, r, len(row), cols)
		}
		for c, v := range row {
			if !finite(v) {
				return fmt.Errorf("plots: heatmap %q: value %g at row %d, column %d is not finite", p.Title, v, r, c)
			}
		}
	}
	if p.XTicks != nil && len(p.XTicks) != cols {
		return fmt.Errorf("plots: heatmap %q: %d X tick labels for %d columns", p.Title, len(p.XTicks), cols)
	}
	if p.YTicks != nil && len(p.YTicks) != len(p.Values) {
		return fmt.Errorf("plots: heatmap %q: %d Y tick labels for %d rows", p.Title, len(p.YTicks), len(p.Values))
	}
	if math.IsNaN(p.Min) || math.IsNaN(p.Max) || p.Min > p.Max {
		return fmt.Errorf("plots: heatmap %q: colour range [%g, %g] is invalid", p.Title, p.Min, p.Max)
	}
	return nil
}

// scale returns the colour range: [Min, Max] if set, else the data's,
// widened when flat so every value maps to a colour.
func (p HeatmapPlot) scale() (lo, hi float64) {
	if p.Min < p.Max {
		return p.Min, p.Max
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, row := range p.Values {
		for _, v := range row {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if lo == hi {
		lo, hi = lo-0.5, hi+0.5
	}
	return lo, hi
}
