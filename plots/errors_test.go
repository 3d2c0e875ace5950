package plots

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadInput: every kind of bad input is an error naming the problem,
// from both renderers, and nothing panics.
func TestBadInput(t *testing.T) {
	nan := math.NaN()
	pt := func(x, y float64) Point { return Point{X: x, Y: y} }
	ok := []Series{{Name: "ok", Points: []Point{pt(1, 2)}}}
	grid := func(v ...[]float64) HeatmapPlot { return HeatmapPlot{Values: v} }
	type plotter interface {
		Figure() (*Figure, error)
		Chart(w, h int) (*Chart, error)
	}
	cases := []struct {
		name string
		p    plotter
		want string
	}{
		{"no series", LinePlot{}, "no series"},
		{"empty series", LinePlot{Series: []Series{{Name: "A"}}}, "no points"},
		{"NaN Y", LinePlot{Series: []Series{{Points: []Point{pt(1, nan)}}}}, "not finite"},
		{"Inf X", LinePlot{Series: []Series{{Points: []Point{pt(math.Inf(1), 1)}}}}, "not finite"},
		{"half interval", LinePlot{Series: []Series{{Points: []Point{{X: 1, Y: 2, YLow: 1, YHigh: nan}}}}}, "two finite bounds"},
		{"swapped interval", LinePlot{Series: []Series{{Points: []Point{{X: 1, Y: 2, YLow: 3, YHigh: 1}}}}}, "low > high"},
		{"offsets not bounds", LinePlot{Series: []Series{{Points: []Point{{X: 1, Y: 20, YLow: 0.5, YHigh: 0.7}}}}}, "does not contain"},
		{"zero on log axis", LinePlot{LogY: true, Series: []Series{{Points: []Point{pt(1, 0)}}}}, "log axis"},
		{"unknown colour", LinePlot{Series: []Series{{Points: []Point{pt(1, 1)}, Color: 99}}}, "unknown colour"},
		{"no categories", BarPlot{Groups: []BarGroup{{Values: []float64{1}}}}, "no categories"},
		{"no groups", BarPlot{Categories: []string{"A"}}, "no groups"},
		{"bars mismatched", BarPlot{Categories: []string{"A", "B"}, Groups: []BarGroup{{Name: "g", Values: []float64{1}}}}, "1 values for 2 categories"},
		{"infinite bar", BarPlot{Categories: []string{"A"}, Groups: []BarGroup{{Values: []float64{math.Inf(1)}}}}, "not finite"},
		{"empty heatmap", grid(), "no values"},
		{"ragged heatmap", grid([]float64{1, 2}, []float64{3}), "row 1 has 1 values"},
		{"NaN cell", grid([]float64{1, nan}), "not finite"},
		{"tick labels mismatched", HeatmapPlot{Values: [][]float64{{1, 2}}, XTicks: []string{"a"}}, "1 X tick labels for 2 columns"},
		{"colour range", HeatmapPlot{Values: [][]float64{{1}}, Min: 2, Max: 1}, "colour range"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := c.p.Figure(); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Figure: error %v, want one containing %q", err, c.want)
			}
			if _, err := c.p.Chart(ChartWidth, ChartHeight); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Chart: error %v, want one containing %q", err, c.want)
			}
		})
	}
	// A group may leave values out (NaN: no bar or marker); the rest must be valid.
	if _, err := (BarPlot{Categories: []string{"A"}, Groups: []BarGroup{{Values: []float64{nan}, Marker: true}}}).Figure(); err != nil {
		t.Errorf("NaN marker: %v", err)
	}
	if _, err := (LinePlot{Series: ok}).Chart(0, 10); err == nil {
		t.Error("zero chart size: no error")
	}
}

func TestXY(t *testing.T) {
	if _, err := XY("A", []float64{1, 2}, []float64{1}); err == nil || !strings.Contains(err.Error(), "2 X values but 1 Y values") {
		t.Errorf("mismatched XY: %v", err)
	}
	s, err := XY("A", []float64{1, 2}, []float64{3, 4})
	if err != nil || len(s.Points) != 2 || s.Points[1] != (Point{X: 2, Y: 4}) {
		t.Errorf("XY = %+v, %v", s, err)
	}
}

func TestRenderErrors(t *testing.T) {
	f, err := LinePlot{Series: []Series{{Name: "A", Points: []Point{{X: 1, Y: 1}}}}}.Figure()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := f.Save(filepath.Join(dir, "fig.gif"), Width, Height); err == nil || !strings.Contains(err.Error(), "unknown figure format") {
		t.Errorf("Save .gif: %v", err)
	}
	if err := f.Save(filepath.Join(dir, "fig"), Width, Height); err == nil {
		t.Error("Save without extension: no error")
	}
	if _, err := f.PNG(0, Height); err == nil || !strings.Contains(err.Error(), "not positive") {
		t.Errorf("PNG of width 0: %v", err)
	}
	if _, err := (*Figure)(nil).SVG(Width, Height); err == nil {
		t.Error("nil figure: no error")
	}
	// Far too small for its labels: whatever gonum makes of it, no panic.
	_, _ = f.PNG(2, 2)
	// gonum panics when a log axis reaches zero; we return an error.
	logf, err := LinePlot{LogY: true, Series: []Series{{Points: []Point{{X: 1, Y: 1}, {X: 2, Y: 10}}}}}.Figure()
	if err != nil {
		t.Fatal(err)
	}
	logf.Plot().Y.Min = 0
	if _, err := logf.PNG(Width, Height); err == nil || !strings.Contains(err.Error(), "log scale") {
		t.Errorf("log axis from 0: %v", err)
	}
	for _, ext := range []string{"png", "svg", "pdf", "PDF"} {
		path := filepath.Join(dir, "fig."+ext)
		if err := f.Save(path, Width, Height); err != nil {
			t.Errorf("Save %s: %v", path, err)
		}
	}
}

// TestSinglePoints: degenerate ranges (one point, log axes) still draw.
func TestSinglePoints(t *testing.T) {
	one := []Series{{Name: "A", Points: []Point{{X: 1, Y: 1}}}}
	for _, p := range []LinePlot{{Series: one}, {Series: one, LogX: true, LogY: true, Diagonal: true}} {
		f, err := p.Figure()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.PNG(Width, Height); err != nil {
			t.Errorf("log=%v: %v", p.LogX, err)
		}
	}
	f, err := HeatmapPlot{Values: [][]float64{{5}}}.Figure()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.SVG(Width, Height); err != nil {
		t.Error(err)
	}
}
