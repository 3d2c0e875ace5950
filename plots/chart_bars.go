package plots

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

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
	top := gridTop + titleLineHeight*max(titleLines(p.Title, width, false)-1, 0)
	// The value axis' room on the left depends on its labels, and so on the axis,
	// whose scale depends on the plot's height, which upright category names change:
	// the left room is estimated from the data first, then fixed from the axis.
	yGap, left := yNameGap(values)
	xAxis, bottom, breakWidth := categoryAxis(p.XLabel, p.Categories, width-left-room)
	axis := p.barAxis(float64(top), float64(height-top-bottom))
	yGap, left = yNameGap(append(values, axis.lo, axis.hi))
	grid := chartGrid(left, room)
	grid.Bottom = strconv.Itoa(bottom)
	bar := charts.NewBar()
	bar.SetGlobalOptions(
		charts.WithInitializationOpts(chartInit(width, height)),
		charts.WithTitleOpts(chartTitle(p.Options)),
		charts.WithLegendOpts(legend),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithGridOpts(grid),
		charts.WithXAxisOpts(xAxis),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: p.YLabel, NameLocation: "middle", NameGap: yGap, SplitLine: splitLine(),
			Min: axis.lo, Max: axis.hi}),
	)
	bar.SetXAxis(p.Categories)
	// A marker spans the cluster of bars: ECharts leaves 20 % of each
	// category empty by default.
	plotWidth := width - left - room
	markerWidth := max(int(clusterWidth*float64(plotWidth)/float64(len(p.Categories))), 4)
	marks := charts.NewScatter()
	var labels [][]map[string]interface{} // per bar series, per value: its label
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
					s.Symbol, s.SymbolSize = "rect", []int{markerWidth, markThickness}
				}),
			)
			continue
		}
		data := make([]opts.BarData, len(g.Values))
		var placed []map[string]interface{}
		for j, v := range g.Values {
			data[j] = opts.BarData{Value: v}
			if math.IsNaN(v) { // no bar, and no label
				data[j].Value = nil
				placed = append(placed, nil)
				continue
			}
			placed = append(placed, axis.label(v, p.markers(j)))
		}
		labels = append(labels, placed)
		bar.AddSeries(g.Name, data, charts.WithItemStyleOpts(opts.ItemStyle{Color: color}))
	}
	bar.Overlap(marks)
	edit := func(obj map[string]interface{}) {
		if xs, ok := obj["xAxis"].([]opts.XAxis); ok && len(xs) == 1 && breakWidth > 0 {
			x := mergeMap(xs[0], nil)
			x["axisLabel"] = mergeMap(x["axisLabel"], map[string]interface{}{"width": breakWidth, "overflow": "break"})
			obj["xAxis"] = []map[string]interface{}{x}
		}
		if ys, ok := obj["yAxis"].([]opts.YAxis); ok && len(ys) == 1 {
			y := mergeMap(ys[0], map[string]interface{}{"interval": axis.step, "min": axis.lo, "max": axis.hi})
			obj["yAxis"] = []map[string]interface{}{y}
		}
		if p.Labels {
			setBarLabels(obj, labels)
		}
	}
	return newChart("bars", width, height, bar, edit, barLabel)
}

// categoryAxis is a bar chart's category axis over a plot width wide, and the room
// below the plot it needs. Every category is named (ECharts would otherwise hide names
// that collide, leaving bars unnamed). Names that would run into their neighbours',
// estimated at 7 px a character of the 12 px font, break at spaces into lines as
// wide as their category ("allgather linear"); where a word alone is wider than
// that, every name stands upright, reading upwards. The axis' name moves below them.
// breakWidth is the width names break at, in CSS pixels; 0 for none.
func categoryAxis(name string, categories []string, width int) (x opts.XAxis, bottom, breakWidth int) {
	label := &opts.AxisLabel{Interval: "0"}
	x = opts.XAxis{Type: "category", Name: name, NameLocation: "middle", NameGap: 30, AxisLabel: label}
	room := width / max(len(categories), 1)
	chars := func(s string) int { return len([]rune(s)) }
	widest, word, collide := 0, 0, false
	for i, c := range categories {
		widest = max(widest, chars(c))
		for _, w := range strings.Fields(c) {
			word = max(word, chars(w))
		}
		if i > 0 && 7*(chars(categories[i-1])+chars(c))/2+categoryGap > room {
			collide = true // neighbours' names, centred room apart
		}
	}
	switch {
	case !collide:
		return x, gridBottom, 0
	case 7*word+categoryGap <= room:
		lines := 1
		for _, c := range categories {
			lines = max(lines, (7*chars(c)+room-categoryGap-1)/(room-categoryGap))
		}
		x.NameGap += textLineHeight * (lines - 1)
		return x, gridBottom + textLineHeight*(lines-1), room - categoryGap
	}
	label.Rotate = 90
	x.NameGap = 7*widest + 20
	return x, max(gridBottom, x.NameGap+25), 0
}

// categoryGap is the least space between neighbouring category names, in CSS pixels.
const categoryGap = 8

// setBarLabels gives each bar of the bar series, in order, its label.
func setBarLabels(obj map[string]interface{}, labels [][]map[string]interface{}) {
	var series []map[string]interface{}
	if b, err := json.Marshal(obj["series"]); err != nil || json.Unmarshal(b, &series) != nil {
		return
	}
	k := 0
	for _, s := range series {
		if s["type"] != "bar" || k >= len(labels) {
			continue
		}
		data, _ := s["data"].([]interface{})
		for j, d := range data {
			item, ok := d.(map[string]interface{})
			if ok && j < len(labels[k]) && labels[k][j] != nil {
				item["label"] = labels[k][j]
			}
		}
		k++
	}
	obj["series"] = series
}

// markers are the values of category i's marker groups.
func (p BarPlot) markers(i int) []float64 {
	var ms []float64
	for _, g := range p.Groups {
		if g.Marker && !math.IsNaN(g.Values[i]) {
			ms = append(ms, g.Values[i])
		}
	}
	return ms
}

// Sizes of a bar chart's labels and marks, in CSS pixels.
const (
	markThickness  = 4  // a marker's height
	barLabelHeight = 14 // a label's line (12 px font)
	barLabelGap    = 5  // between a bar's end and its label: ECharts' default
	markLabelGap   = 2  // between a marker and a label moved past it
)

// barAxis is a bar chart's value axis, set rather than left to ECharts, so that each
// label's place is known: ECharts' axis ends at the longest bar, leaving its label
// above the plot or, for a falling bar, over the category names; and its labels do
// not avoid the paper's marks (a "10.44" sat on the paper's 13.4 in the workloads
// notebook). top and height are the plot's, in CSS pixels.
type barAxis struct {
	lo, hi, step float64
	top, height  float64
}

// barAxis spans the bars, their markers and zero, in round steps, and one step more
// on a side where a label would leave the plot.
func (p BarPlot) barAxis(top, height float64) barAxis {
	lo, hi := 0.0, 0.0
	for _, g := range p.Groups {
		for _, v := range g.Values {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if hi == lo {
		hi = lo + 1
	}
	step, _, _ := roundStep(hi-lo, 5)
	a := barAxis{lo: step * math.Floor(lo/step+1e-9), hi: step * math.Ceil(hi/step-1e-9), step: step, top: top, height: height}
	for range 8 {
		above, below := false, false
		for _, g := range p.Groups {
			for i, v := range g.Values {
				if g.Marker || math.IsNaN(v) || !p.Labels {
					continue
				}
				d := a.label(v, p.markers(i))["distance"].(float64)
				end := a.px(v)
				above = above || (v >= 0 && end-d-barLabelHeight < a.top)
				below = below || (v < 0 && end+d+barLabelHeight > a.top+a.height)
			}
		}
		if !above && !below {
			break
		}
		if above {
			a.hi += step
		}
		if below {
			a.lo -= step
		}
	}
	return a
}

// px is where value v lies on the chart, in CSS pixels from its top.
func (a barAxis) px(v float64) float64 {
	return a.top + (a.hi-v)/(a.hi-a.lo)*a.height
}

// label is the ECharts label of a bar of value v among markers at values marks: above
// the end of a bar that rises, below the end of one that falls (as the static
// figure), barLabelGap from it, or past a marker that would cross it.
func (a barAxis) label(v float64, marks []float64) map[string]interface{} {
	end, d := a.px(v), float64(barLabelGap)
	half := float64(markThickness) / 2
	for range 2 { // a marker moved past may push the label into another
		for _, m := range marks {
			y := a.px(m)
			if v >= 0 && y-half < end && y+half > end-d-barLabelHeight-markLabelGap {
				d = math.Max(d, end-(y-half-markLabelGap))
			}
			if v < 0 && y+half > end && y-half < end+d+barLabelHeight+markLabelGap {
				d = math.Max(d, y+half+markLabelGap-end)
			}
		}
	}
	pos := "top"
	if v < 0 {
		pos = "bottom"
	}
	return map[string]interface{}{"show": true, "position": pos, "distance": math.Round(d*10) / 10,
		"lineHeight": barLabelHeight, "formatter": string(opts.FuncOpts(barLabel))}
}

// String describes the axis, for test failures.
func (a barAxis) String() string {
	return fmt.Sprintf("%g to %g by %g over %g px from %g", a.lo, a.hi, a.step, a.height, a.top)
}
