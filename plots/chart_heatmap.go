package plots

import (
	"fmt"
	"math"
	"strconv"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// cellTooltip shows the cell's name (its coordinates) and value.
const cellTooltip = `function (p) {
  return echarts.format.encodeHTML(p.name) + '<br>' + (+p.value[2].toPrecision(4));
}`

// Chart renders the heatmap as an interactive chart of the given size in
// CSS pixels, with a colour scale that can filter a range of values.
func (p HeatmapPlot) Chart(width, height int) (*Chart, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	if err := checkSize(width, height); err != nil {
		return nil, err
	}
	rows, cols := len(p.Values), len(p.Values[0])
	xs, ys := names(cols, p.XTicks), names(rows, p.YTicks)
	hm := charts.NewHeatMap()
	hm.SetGlobalOptions(
		charts.WithInitializationOpts(chartInit(width, height)),
		charts.WithTitleOpts(chartTitle(p.Options)),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item", Formatter: opts.FuncOpts(cellTooltip)}),
		charts.WithGridOpts(chartGrid(80, 120)),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", Data: xs, Name: p.XLabel, NameLocation: "middle", NameGap: 30}),
		charts.WithYAxisOpts(opts.YAxis{Type: "category", Data: ys, Name: p.YLabel, NameLocation: "middle", NameGap: 50}),
	)
	hm.SetXAxis(xs)
	data := make([]opts.HeatMapData, 0, rows*cols)
	for r, row := range p.Values {
		for c, v := range row {
			name := fmt.Sprintf("%s = %s, %s = %s", axisName(p.XLabel, "x"), xs[c], axisName(p.YLabel, "y"), ys[r])
			data = append(data, opts.HeatMapData{Name: name, Value: [3]interface{}{c, r, v}})
		}
	}
	hm.AddSeries(p.ColorLabel, data)
	lo, hi := p.scale()
	colors := make([]string, len(viridis))
	for i, c := range viridis {
		colors[i] = hexColor(c)
	}
	// Set here rather than through opts.VisualMap, whose float32 bounds
	// are dropped when zero and lose precision.
	edit := func(o map[string]interface{}) {
		o["visualMap"] = map[string]interface{}{
			"type": "continuous", "min": lo, "max": hi, "calculable": true,
			"orient": "vertical", "right": 10, "top": "middle",
			"text": []string{p.ColorLabel, ""}, "precision": precision(lo, hi),
			"inRange": map[string]interface{}{"color": colors},
		}
	}
	return newChart("heatmap", width, height, hm, edit, cellTooltip)
}

// names labels n cells: the given names, or 0, 1, …
func names(n int, given []string) []string {
	if given != nil {
		return given
	}
	out := make([]string, n)
	for i := range out {
		out[i] = strconv.Itoa(i)
	}
	return out
}

func axisName(label, fallback string) string {
	if label == "" {
		return fallback
	}
	return label
}

// precision is how many decimals tell apart values a hundredth of the
// range apart.
func precision(lo, hi float64) int {
	return max(0, 2-int(math.Floor(math.Log10(hi-lo))))
}
