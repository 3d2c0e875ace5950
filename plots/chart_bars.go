package plots

import (
	"math"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// barLabel writes a bar's value as the static figure does (label: four significant
// digits, no trailing zeros), not as the float64 it is ("10.441334768568353").
const barLabel = `function (p) { return String(+Number(p.value).toPrecision(4)); }`

// Chart renders the bar plot as an interactive chart of the given size in
// CSS pixels; marker groups are drawn as flat marks across each category.
func (p BarPlot) Chart(width, height int) (*Chart, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	if err := checkSize(width, height); err != nil {
		return nil, err
	}
	var names []string
	for _, g := range p.Groups {
		names = append(names, g.Name)
	}
	legend, room := chartLegend(p.Legend, names)
	var values []float64
	for _, g := range p.Groups {
		values = append(values, g.Values...)
	}
	yGap, left := yNameGap(values)
	bar := charts.NewBar()
	bar.SetGlobalOptions(
		charts.WithInitializationOpts(chartInit(width, height)),
		charts.WithTitleOpts(chartTitle(p.Options)),
		charts.WithLegendOpts(legend),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithGridOpts(chartGrid(left, room)),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", Name: p.XLabel, NameLocation: "middle", NameGap: 30}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: p.YLabel, NameLocation: "middle", NameGap: yGap, SplitLine: splitLine()}),
	)
	bar.SetXAxis(p.Categories)
	// A marker spans the cluster of bars: ECharts leaves 20 % of each
	// category empty by default.
	plotWidth := width - 80 - room
	markerWidth := max(int(clusterWidth*float64(plotWidth)/float64(len(p.Categories))), 4)
	marks := charts.NewScatter()
	for i, g := range p.Groups {
		color := hexColor(barStyle(i, p.Groups).color)
		if g.Marker {
			data := make([]opts.ScatterData, len(g.Values))
			for j, v := range g.Values {
				data[j] = opts.ScatterData{Value: v}
				if math.IsNaN(v) {
					data[j].Value = nil
				}
			}
			marks.AddSeries(g.Name, data,
				charts.WithItemStyleOpts(opts.ItemStyle{Color: color}),
				charts.WithSeriesOpts(func(s *charts.SingleSeries) {
					s.Symbol, s.SymbolSize = "rect", []int{markerWidth, 4}
				}),
			)
			continue
		}
		data := make([]opts.BarData, len(g.Values))
		for j, v := range g.Values {
			data[j] = opts.BarData{Value: v}
			switch {
			case math.IsNaN(v): // no bar, and no label
				data[j].Value = nil
			case v < 0 && p.Labels: // below the end of a bar that falls, as the static figure
				data[j].Label = &opts.Label{Show: opts.Bool(true), Position: "bottom", Formatter: string(opts.FuncOpts(barLabel))}
			}
		}
		bar.AddSeries(g.Name, data,
			charts.WithItemStyleOpts(opts.ItemStyle{Color: color}),
			charts.WithLabelOpts(opts.Label{Show: opts.Bool(p.Labels), Position: "top", Formatter: string(opts.FuncOpts(barLabel))}),
		)
	}
	bar.Overlap(marks)
	return newChart("bars", width, height, bar, nil, barLabel)
}
