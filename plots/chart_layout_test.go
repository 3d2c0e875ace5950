package plots

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/twintorus/twintorus/kernel/browsertest"
)

// layoutCharts are the plots a notebook makes, at their hardest: long titles and
// legend names, many series, bars with labels and a paper's marks (above, below and
// on the bars, and negative), close values in narrow clusters, large and small
// numbers, heatmaps with named and numbered cells. Each is drawn as a chart and as a
// static figure, and each must pass the layout checks.
func layoutPlots() map[string]interface {
	Chart(int, int) (*Chart, error)
	Figure() (*Figure, error)
} {
	nan := math.NaN()
	var many []Series
	for i, name := range []string{"twin:4x4x4/A", "twin:4x4x4/B", "twin:4x4x4/C", "twin:4x4x4/D", "twin:4x4x4/E", "twin:4x4x4/F",
		"twin:4x4x4/G", "twin:4x4x4/H", "twin:4x4x4/I", "twin:4x4x4/J", "torus:8x8x4", "mesh:8x8x4"} {
		s := Series{Name: name}
		for _, load := range []float64{0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35} {
			sat := 0.12 + 0.02*float64(i)
			acc := math.Min(load, sat)
			s.Points = append(s.Points, Point{X: acc, Y: 40 + 10/(1.02-acc/sat)})
		}
		many = append(many, s)
	}
	big := []Series{{Name: "all-to-all, 3D torus (8×8×8)", Points: []Point{{X: 64, Y: 12000}, {X: 256, Y: 71000}, {X: 512, Y: 153000}, {X: 1024, Y: 312000}}},
		{Name: "all-to-all, 5D twin torus (4×4×2×4×2)", Points: []Point{{X: 64, Y: 9000}, {X: 256, Y: 52000}, {X: 512, Y: 118000}, {X: 1024, Y: 241000}}}}
	logs := []Series{{Name: "latency", Points: []Point{{X: 0.001, Y: 0.5}, {X: 0.01, Y: 3}, {X: 0.1, Y: 40}, {X: 1, Y: 900}}}}
	hm := make([][]float64, 16)
	for r := range hm {
		hm[r] = make([]float64, 16)
		for c := range hm[r] {
			hm[r][c] = 1200 * math.Sin(float64(r*c+1)) * math.Sin(float64(r*c+1))
		}
	}
	return map[string]interface {
		Chart(int, int) (*Chart, error)
		Figure() (*Figure, error)
	}{
		"golden latency": LinePlot{Options: Options{Title: "Network latency, 4×4×4", XLabel: "accepted traffic (flits/cycle/node)", YLabel: "latency (cycles)"},
			Series: latencyCurves()},
		"golden accepted inside": LinePlot{Options: Options{Title: "Accepted traffic", XLabel: "offered load", YLabel: "accepted", Legend: LegendInside},
			Series: acceptedCurves()[:3], Diagonal: true},
		"golden hollow": LinePlot{Options: Options{Title: "Flagged points", XLabel: "offered load", YLabel: "accepted"},
			Series: hollowCurves(), Diagonal: true, HollowLabel: "hollow: not stationary", Notes: []string{"a note without a mark"}},
		"many series, long title": LinePlot{Options: Options{Title: "Uniform traffic, 64K nodes (Fig. 3c; mesh and torus in the table), ten configurations and two references",
			XLabel: "accepted traffic (flits/cycle/node)", YLabel: "network latency (cycles)"}, Series: many},
		"long notes": LinePlot{Options: Options{Title: "Uniform traffic, twin:4x4x4/D and the 8×8×4 torus", XLabel: "accepted traffic (flits/cycle/node)", YLabel: "network latency (cycles)"},
			Series: latencyCurves(), Notes: []string{"stationarity not checked (runs before the check)",
				"curves stop at 10× the zero-load latency (420 cycles): 3 points above not drawn",
				"a third note, which no chart is wide enough to show on one line with the other two"}},
		"title beside the toolbox": LinePlot{Options: Options{Title: "3DT 4x4x4 (128 PEs), bubble: network latency against accepted traffic",
			XLabel: "accepted traffic (flits/cycle/node)", YLabel: "network latency (cycles)"}, Series: latencyCurves()},
		"bar title beside the toolbox": BarPlot{Options: Options{Title: "3DT 4x4x4 (128 PEs), bubble: paths crossing the internal link, per configuration",
			XLabel: "configuration", YLabel: "paths"}, Categories: []string{"A", "B"}, Groups: []BarGroup{{Name: "ours", Values: []float64{93, 79}}}},
		"many series inside": LinePlot{Options: Options{Title: "Accepted traffic, configurations A–J", XLabel: "offered load", YLabel: "accepted",
			Legend: LegendInside}, Series: acceptedCurves(), Diagonal: true},
		"large values": LinePlot{Options: Options{Title: "alltoall:pairwise:512B", XLabel: "PEs", YLabel: "execution time (cycles)"}, Series: big},
		"log axes":     LinePlot{Options: Options{Title: "log-log", XLabel: "load", YLabel: "latency"}, Series: logs, LogX: true, LogY: true},
		"golden bars":  pathCounts(),
		"workloads bars": BarPlot{Options: Options{Title: "512 B collectives, 1024 PEs: 5DT vs 3D torus, VCs", YLabel: "reduction of execution time (%)"},
			Categories: []string{"bcast", "reduce", "allgather ring", "allgather linear", "alltoall"},
			Groups: []BarGroup{
				{Name: "twintorus", Values: []float64{10.441334768568353, 3.0150753768844223, -77.09618089364925, 0.012314586464198881, 22.91546202927227}},
				{Name: "paper", Values: []float64{13.37704918032787, 13.250517598343686, 32.7034904742575, 32.7034904742575, 57.808881932137176}, Marker: true},
			}, Labels: true},
		"marks on the bars": BarPlot{Options: Options{Title: "latency change", YLabel: "%"},
			Categories: []string{"RandomAccess", "NAMD", "Graph500", "PTRANS"},
			Groups: []BarGroup{
				{Name: "ours", Values: []float64{10.5, -77.1, 40.25, -5}},
				{Name: "paper", Values: []float64{11.0, -76.5, 39.9, -6}, Marker: true},
			}, Labels: true},
		"close values, three groups": BarPlot{Options: Options{Title: "link utilisation per dimension", XLabel: "network", YLabel: "utilisation (%)"},
			Categories: []string{"twisted:rt:16", "twisted:rtt:16", "twisted:pt:16", "twisted:ptt:16", "twisted:pdtt:16"},
			Groups: []BarGroup{
				{Name: "X", Values: []float64{96.86, 95.59, 97.72, 96.79, 94.71}},
				{Name: "Y", Values: []float64{50.72, 95.27, 51.85, 96.72, 94.69}},
				{Name: "Z", Values: []float64{nan, nan, 51.82, 75.07, 94.65}},
			}, Labels: true},
		"ratios": BarPlot{Options: Options{Title: "PTRANS: execution time normalised to the 3D torus", XLabel: "PEs", YLabel: "execution time / 3D torus's"},
			Categories: []string{"256", "512", "1024"},
			Groups: []BarGroup{
				{Name: "3D torus", Values: []float64{1, 1, 1}},
				{Name: "5D twin torus", Values: []float64{0.8123, 0.7788, 0.7412}},
				{Name: "paper 5DT", Values: []float64{0.81, 0.76, 0.75}, Marker: true},
			}, Labels: true},
		"many long categories": BarPlot{Options: Options{Title: "paths crossing the internal link", XLabel: "network", YLabel: "paths"},
			Categories: []string{"twin:4x4x4/A", "twin:4x4x4/B", "twin:4x4x4/C", "twin:4x4x4/D", "twin:4x4x4/E",
				"twin:4x4x4/F", "twin:4x4x4/G", "twin:4x4x4/H", "twin:4x4x4/I", "twin:4x4x4/J"},
			Groups: []BarGroup{
				{Name: "ours", Values: []float64{93, 79, 49, 33, 81, 77, 41, 45, 49, 45}},
				{Name: "paper", Values: []float64{93, 79, 49, nan, nan, nan, nan, nan, nan, nan}, Marker: true},
			}, Labels: true},
		"multi-word categories": BarPlot{Options: Options{Title: "execution time of collectives", XLabel: "collective", YLabel: "cycles"},
			Categories: []string{"bcast binomial", "reduce binomial", "allgather ring", "allgather linear", "alltoall pairwise", "alltoall linear", "bcast linear", "reduce linear"},
			Groups:     []BarGroup{{Name: "5DT", Values: []float64{1200, 1350, 5400, 7800, 21000, 24500, 3100, 3300}}}, Labels: true},
		"golden heatmap": utilisation(),
		"large heatmap": HeatmapPlot{Options: Options{Title: "graph500: bytes from each task to each", XLabel: "source task", YLabel: "destination task"},
			Values: hm, ColorLabel: "bytes"},
	}
}

// layoutPage writes the charts to one page, in name order, and opens it in Chromium.
func layoutPage(t *testing.T, charts []*Chart) *browsertest.Page {
	t.Helper()
	path := filepath.Join(t.TempDir(), "layout.html")
	if err := os.WriteFile(path, []byte(Page("layout", charts...)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	t.Cleanup(cancel)
	p, err := browsertest.Load(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if dir := os.Getenv("PLOTS_FAILED_DIR"); dir != "" { // to look at the result
			if png, err := p.Screenshot(); err == nil {
				_ = os.WriteFile(filepath.Join(dir, t.Name()+".png"), png, 0o644)
			}
		}
		if err := p.Close(); err != nil {
			t.Error(err)
		}
	})
	return p
}

// TestChartLayout draws every kind of chart in Chromium and checks its text as
// ECharts laid it out (browsertest.CheckText): nothing clipped at the chart's edge, no
// text over another, over a paper's mark or under the toolbox (by more than a pixel),
// and no number with a fraction past four significant digits: our labels are rounded
// to four, and a measured value's interval (a few % at 95 % confidence) supports no
// more, so a longer number is a float printed raw; integers are exact at any length.
// Every category of a bar chart must be named on its axis.
func TestChartLayout(t *testing.T) {
	browsertest.Require(t)
	plots := layoutPlots()
	var names []string
	for name := range plots {
		names = append(names, name)
	}
	sort.Strings(names)
	var charts []*Chart
	for _, name := range names {
		c, err := plots[name].Chart(ChartWidth, ChartHeight)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		charts = append(charts, c)
	}
	p := layoutPage(t, charts)
	figs, err := browsertest.ChartTexts(p, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != len(charts) {
		t.Fatalf("read %d charts, drew %d", len(figs), len(charts))
	}
	for i, f := range figs {
		if len(f.Texts) < 5 {
			t.Errorf("%s: only %d texts read: %v", names[i], len(f.Texts), f.Texts)
		}
		if bp, ok := plots[names[i]].(BarPlot); ok { // every bar is named
			shown := map[string]bool{}
			for _, tx := range f.Texts {
				shown[tx.Text] = true
			}
			for _, c := range bp.Categories {
				if !shown[c] {
					t.Errorf("%s: category %q is not named on the axis", names[i], c)
				}
			}
		}
		for _, pr := range browsertest.CheckText(f) {
			t.Errorf("%s: %s", names[i], pr)
		}
	}
	if errs := p.Errors(); len(errs) != 0 {
		t.Errorf("page errors: %q", errs)
	}
}

// TestChartLayoutCanFail: charts built to break each rule are reported, each with the
// rule it breaks and the text that breaks it: a title wider than the chart, two labels
// on one spot, a label over a mark, an unrounded label.
func TestChartLayoutCanFail(t *testing.T) {
	browsertest.Require(t)
	raw := func(option string) *Chart {
		return &Chart{id: fmt.Sprintf("bad-%d", len(option)), width: 400, height: 300, option: option}
	}
	charts := []*Chart{
		raw(`{"animation": false, "title": {"text": "A title far wider than the chart it sits on, past both of its edges", "left": "center"},
		  "xAxis": {"type": "category", "data": ["a"]}, "yAxis": {"type": "value"}, "series": [{"type": "bar", "data": [1]}]}`),
		raw(`{"title": {"text": "two labels on one spot"}, "xAxis": {"type": "category", "data": ["a"]}, "yAxis": {"type": "value", "max": 2},
		  "series": [{"type": "scatter", "data": [1], "label": {"show": true, "formatter": "first label"}},
		             {"type": "scatter", "data": [1], "symbolSize": 0, "label": {"show": true, "formatter": "second label"}}]}`),
		raw(`{"title": {"text": "a label over a mark"}, "xAxis": {"type": "category", "data": ["a"]}, "yAxis": {"type": "value", "max": 20},
		  "series": [{"type": "bar", "data": [10], "label": {"show": true, "position": "top", "formatter": "10"}},
		             {"type": "scatter", "name": "paper", "symbol": "rect", "symbolSize": [80, 4], "data": [10.8]}]}`),
		raw(`{"title": {"text": "an unrounded label"}, "xAxis": {"type": "category", "data": ["a"]}, "yAxis": {"type": "value", "max": 20},
		  "series": [{"type": "bar", "data": [10.441334768568353], "label": {"show": true, "position": "top"}}]}`),
	}
	p := layoutPage(t, charts)
	probs, n, err := browsertest.CheckCharts(p, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if n != len(charts) {
		t.Fatalf("read %d charts, drew %d", n, len(charts))
	}
	got := map[string]string{}
	for _, pr := range probs {
		got[pr.Figure] += pr.Kind + " " + pr.Texts[0].Text + ";"
		t.Log(pr)
	}
	for title, want := range map[string]string{
		"A title far wider than the chart it sits on, past both of its edges": "clipped A title far",
		"two labels on one spot": "overlap first label",
		"a label over a mark":    "covers mark 10",
		"an unrounded label":     "precision 10.441334768568353",
	} {
		if !strings.Contains(got[title], want) {
			t.Errorf("%q: problems %q; want one starting %q", title, got[title], want)
		}
	}
}
