package plots

import (
	"math"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// Each point is sent as [x, y, xLow, xHigh, yLow, yHigh], null for a
// missing interval, so tooltips and error bars can show the intervals.

// pointTooltip shows a point and its intervals. Functions are joined into
// one line by go-echarts: no // comments, and end statements with ;.
const pointTooltip = `function (p) {
  var v = p.value, f = function (n) { return +n.toPrecision(4); };
  var s = echarts.format.encodeHTML(p.seriesName) + '<br>x = ' + f(v[0]);
  if (v[2] != null) { s += ' [' + f(v[2]) + ', ' + f(v[3]) + ']'; }
  s += '<br>y = ' + f(v[1]);
  if (v[4] != null) { s += ' [' + f(v[4]) + ', ' + f(v[5]) + ']'; }
  return s;
}`

// errorBars draws a point's intervals with caps, like the static figure.
const errorBarsItem = `function (params, api) {
  var x = api.value(0), y = api.value(1), xl = api.value(2), xh = api.value(3), yl = api.value(4), yh = api.value(5);
  var style = {stroke: api.visual('color'), lineWidth: 1.3}, kids = [], w = 3;
  function seg(a, b) { kids.push({type: 'line', shape: {x1: a[0], y1: a[1], x2: b[0], y2: b[1]}, style: style}); }
  if (yl < yh) {
    var lo = api.coord([x, yl]), hi = api.coord([x, yh]);
    seg(lo, hi); seg([lo[0] - w, lo[1]], [lo[0] + w, lo[1]]); seg([hi[0] - w, hi[1]], [hi[0] + w, hi[1]]);
  }
  if (xl < xh) {
    var le = api.coord([xl, y]), ri = api.coord([xh, y]);
    seg(le, ri); seg([le[0], le[1] - w], [le[0], le[1] + w]); seg([ri[0], ri[1] - w], [ri[0], ri[1] + w]);
  }
  return {type: 'group', children: kids};
}`

// Chart renders the plot as an interactive chart of the given size in CSS
// pixels: hover for values and intervals, zoom, toggle series in the legend.
func (p LinePlot) Chart(width, height int) (*Chart, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	if err := checkSize(width, height); err != nil {
		return nil, err
	}
	var names []string
	for _, s := range p.Series {
		names = append(names, s.Name)
	}
	hollow := p.hollowLabel()
	if hollow != "" {
		names = append(names, hollow)
	}
	legend, room := chartLegend(p.Legend, names)
	x, y, left := valueAxes(p)
	title := chartTitle(p.Options)
	title.Subtitle = strings.Join(p.Notes, "; ")
	line := charts.NewLine()
	line.SetGlobalOptions(
		charts.WithInitializationOpts(chartInit(width, height)),
		charts.WithTitleOpts(title),
		charts.WithLegendOpts(legend),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item", Formatter: opts.FuncOpts(pointTooltip)}),
		charts.WithGridOpts(chartGrid(left, room)),
		charts.WithXAxisOpts(x),
		charts.WithYAxisOpts(y),
	)
	bars := charts.NewCustom()
	for i, s := range p.Series {
		lk := lookOf(i, s)
		color := hexColor(lk.color)
		data := make([]opts.LineData, len(s.Points))
		var withCI []opts.CustomData
		for j, pt := range s.Points {
			v := pointValue(pt)
			data[j] = opts.LineData{Value: v}
			if pt.Hollow {
				data[j].Symbol, data[j].SymbolSize = "emptyCircle", hollowSymbolSize
			}
			if v[2] != nil || v[4] != nil {
				withCI = append(withCI, opts.CustomData{Value: v})
			}
		}
		line.AddSeries(s.Name, data,
			charts.WithLineChartOpts(opts.LineChart{Symbol: echartsSymbols[lk.glyph], SymbolSize: 7, ShowSymbol: opts.Bool(true)}),
			charts.WithLineStyleOpts(opts.LineStyle{Color: color, Width: 2, Type: echartsDashes[lk.dash]}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: color}),
		)
		if len(withCI) > 0 {
			// Same name as the line, so the legend toggles both.
			bars.AddSeries(s.Name, withCI,
				charts.WithItemStyleOpts(opts.ItemStyle{Color: color}),
				charts.WithEncodeOpts(opts.Encode{X: []int{0, 2, 3}, Y: []int{1, 4, 5}}),
				charts.WithSeriesOpts(func(s *charts.SingleSeries) { s.RenderItem = opts.FuncOpts(errorBarsItem) }),
			)
		}
	}
	if hollow != "" {
		// A series without data: its legend entry is the hollow mark and its label.
		line.AddSeries(hollow, nil,
			charts.WithLineChartOpts(opts.LineChart{Symbol: "emptyCircle", SymbolSize: hollowSymbolSize, ShowSymbol: opts.Bool(true)}),
			charts.WithLineStyleOpts(opts.LineStyle{Color: hexColor(idealColor), Width: 0}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: hexColor(idealColor)}),
		)
	}
	if lo, hi := diagonalSpan(p.Series); p.Diagonal && lo < hi {
		line.AddSeries("ideal (y = x)", []opts.LineData{{Value: []float64{lo, lo}}, {Value: []float64{hi, hi}}},
			charts.WithLineChartOpts(opts.LineChart{Symbol: "none"}),
			charts.WithLineStyleOpts(opts.LineStyle{Color: hexColor(idealColor), Width: 1, Type: "dashed"}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: hexColor(idealColor)}),
		)
	}
	line.Overlap(bars)
	return newChart("line", width, height, line, nil, pointTooltip, errorBarsItem)
}

// hollowSymbolSize is a hollow point's symbol in CSS pixels, larger than the
// filled marks (7), as the static figure's ring.
const hollowSymbolSize = 10

// pointValue is a point as sent to ECharts; JSON has no NaN, so missing
// intervals are nil (null).
func pointValue(pt Point) []interface{} {
	v := []interface{}{pt.X, pt.Y, nil, nil, nil, nil}
	if pt.XLow < pt.XHigh {
		v[2], v[3] = pt.XLow, pt.XHigh
	}
	if pt.YLow < pt.YHigh {
		v[4], v[5] = pt.YLow, pt.YHigh
	}
	return v
}

// diagonalSpan is where y = x lies inside the data's X and Y ranges.
func diagonalSpan(series []Series) (lo, hi float64) {
	xmin, ymin := math.Inf(1), math.Inf(1)
	xmax, ymax := math.Inf(-1), math.Inf(-1)
	for _, s := range series {
		for _, pt := range s.Points {
			xmin, xmax = math.Min(xmin, pt.X), math.Max(xmax, pt.X)
			ymin, ymax = math.Min(ymin, pt.Y), math.Max(ymax, pt.Y)
		}
	}
	return math.Max(xmin, ymin), math.Min(xmax, ymax)
}
