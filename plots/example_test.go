package plots_test

import (
	"bytes"
	"fmt"
	"image/png"
	"log"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/twintorus/twintorus/plots"
)

// Latency against accepted traffic, with 95 % confidence intervals, as a
// PNG for a notebook and a PDF for a paper.
func ExampleLinePlot_Figure() {
	d := plots.Series{Name: "D", Points: []plots.Point{
		{X: 0.10, Y: 24, YLow: 23.5, YHigh: 24.6},
		{X: 0.20, Y: 31, YLow: 30.1, YHigh: 32.2, XLow: 0.198, XHigh: 0.202},
		{X: 0.26, Y: 95, YLow: 88, YHigh: 103},
	}}
	a, err := plots.XY("A", []float64{0.10, 0.18, 0.21}, []float64{26, 48, 160})
	if err != nil {
		log.Fatal(err)
	}
	a.Points[2].YLow, a.Points[2].YHigh = 150, 171 // an interval for one point only

	fig, err := plots.LinePlot{
		Options: plots.Options{
			Title:  "3DT 4×4×4, uniform traffic",
			XLabel: "accepted traffic (flits/cycle/node)",
			YLabel: "network latency (cycles)",
		},
		Series: []plots.Series{a, d},
	}.Figure()
	if err != nil {
		log.Fatal(err)
	}
	b, err := fig.PNG(plots.Width, plots.Height) // in a gonb cell: gonbui.DisplayPNG(b)
	if err != nil {
		log.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("PNG %d×%d pixels\n", cfg.Width, cfg.Height)

	dir, err := os.MkdirTemp("", "plots")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := fig.Save(filepath.Join(dir, "latency.pdf"), 3.5*72, 2.5*72); err != nil { // 3.5 × 2.5 in
		log.Fatal(err)
	}
	// Output: PNG 600×400 pixels
}

// Accepted traffic against offered load, with the ideal y = x.
func ExampleLinePlot_Chart() {
	var curves []plots.Series
	for i, name := range []string{"A", "D"} {
		s := plots.Series{Name: name}
		for _, load := range []float64{0.1, 0.2, 0.3, 0.4} {
			s.Points = append(s.Points, plots.Point{X: load, Y: math.Min(load, 0.22+0.08*float64(i))})
		}
		curves = append(curves, s)
	}
	chart, err := plots.LinePlot{
		Options:  plots.Options{XLabel: "offered load", YLabel: "accepted traffic", Legend: plots.LegendInside},
		Series:   curves,
		Diagonal: true,
	}.Chart(plots.ChartWidth, plots.ChartHeight)
	if err != nil {
		log.Fatal(err)
	}
	html := chart.HTML() // in a gonb cell: gonbui.DisplayHTML(html)
	fmt.Println(strings.HasPrefix(html, "<script"), strings.Contains(html, `id="`+chart.ID()+`"`))
	// Output: true true
}

// Paths crossing the internal link per configuration, ours against the
// paper's, which gives only some.
func ExampleBarPlot() {
	nan := math.NaN()
	p := plots.BarPlot{
		Options:    plots.Options{XLabel: "configuration", YLabel: "paths using both cards"},
		Categories: []string{"A", "B", "C", "D"},
		Groups: []plots.BarGroup{
			{Name: "simulated", Values: []float64{93, 79, 49, 33}},
			{Name: "paper", Values: []float64{93, 79, 49, nan}, Marker: true},
		},
		Labels: true,
	}
	fig, err := p.Figure()
	if err != nil {
		log.Fatal(err)
	}
	svg, err := fig.SVG(plots.Width, plots.Height)
	if err != nil {
		log.Fatal(err)
	}
	chart, err := p.Chart(plots.ChartWidth, plots.ChartHeight)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(bytes.Contains(svg, []byte("<svg")), strings.Contains(chart.Fragment(), "echarts.init"))
	// Output: true true
}

// Utilisation of the channels of a 4×4 plane, on a fixed 0–1 scale.
func ExampleHeatmapPlot() {
	p := plots.HeatmapPlot{
		Options:    plots.Options{Title: "z = 0", XLabel: "x", YLabel: "y"},
		Values:     [][]float64{{0.2, 0.4, 0.4, 0.2}, {0.4, 0.8, 0.8, 0.4}, {0.4, 0.8, 0.8, 0.4}, {0.2, 0.4, 0.4, 0.2}},
		ColorLabel: "utilisation",
		Min:        0,
		Max:        1,
	}
	if _, err := p.Figure(); err != nil {
		log.Fatal(err)
	}
	p.Values[3] = p.Values[3][:2] // a ragged grid is an error, not a panic
	_, err := p.Chart(plots.ChartWidth, plots.ChartHeight)
	fmt.Println(err)
	// Output: plots: heatmap "z = 0": row 3 has 2 values, row 0 has 4
}

// A standalone HTML page with several charts and one copy of ECharts.
func ExamplePage() {
	a, _ := plots.BarPlot{Categories: []string{"A"}, Groups: []plots.BarGroup{{Values: []float64{1}}}}.Chart(400, 300)
	b, _ := plots.HeatmapPlot{Values: [][]float64{{1, 2}}}.Chart(400, 300)
	page := plots.Page("results", a, b)
	fmt.Println(strings.Count(page, "echarts.init("), strings.Count(page, "twintorusCharts = [];"))
	// Output: 2 1
}
