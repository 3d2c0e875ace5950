package plots

import "fmt"

// Point is one measurement, with optional confidence intervals (e.g. 95 %)
// around X and Y. The bounds are absolute values, not offsets from X or Y.
// An interval is drawn only when Low < High: leave both bounds zero or NaN
// when there is none.
type Point struct {
	X, Y        float64
	XLow, XHigh float64
	YLow, YHigh float64
	// Hollow draws the point's mark as an empty circle in the series' colour: a
	// point the caller flags (a simulation whose measurement did not settle), which
	// LinePlot.HollowLabel explains in the legend.
	Hollow bool
}

// Series is one curve of a line plot, e.g. one configuration A–J.
type Series struct {
	Name   string // legend entry; empty means none
	Points []Point
	// Color and Dash override the style the series gets from its position;
	// zero keeps it. Same colour with another dash pairs related curves,
	// e.g. one configuration with bubble and with virtual channels.
	Color Color
	Dash  Dash
}

// XY makes a series from parallel slices of X and Y, as simulators often
// return them.
func XY(name string, x, y []float64) (Series, error) {
	if len(x) != len(y) {
		return Series{}, fmt.Errorf("plots: series %q: %d X values but %d Y values", name, len(x), len(y))
	}
	s := Series{Name: name, Points: make([]Point, len(x))}
	for i := range x {
		s.Points[i] = Point{X: x[i], Y: y[i]}
	}
	return s, nil
}

// BarGroup is one value per category, e.g. our counts for configurations
// A–J, or the paper's.
type BarGroup struct {
	Name   string
	Values []float64
	// Marker draws the values as reference marks across each category
	// instead of bars, e.g. the value a paper reports. NaN means no value: no
	// marker, or no bar (e.g. a dimension a network does not have).
	Marker bool
}
