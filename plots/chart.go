package plots

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/opts"
)

// Default interactive chart size, in CSS pixels.
const (
	ChartWidth  = 720
	ChartHeight = 440
)

// Chart is an interactive ECharts chart, written as HTML.
type Chart struct {
	id            string
	width, height int
	option        string // a JavaScript object literal, safe inside <script>
	fallback      []byte // a PNG shown until the chart draws; nil for none
}

// ID is the id of the chart's <div>: derived from the chart's content, so
// the same chart always renders to the same HTML.
func (c *Chart) ID() string { return c.id }

// WithFallback sets a static image (PNG bytes, e.g. the Figure of the
// same plot) that the chart's element shows until the chart draws: where
// scripts do not run (an untrusted notebook, a site that strips them),
// readers see the figure instead of an empty box. It returns c.
func (c *Chart) WithFallback(png []byte) *Chart {
	c.fallback = png
	return c
}

// Fragment returns the chart's <div> and the script that draws it. It
// needs [Library] somewhere on the page, before or after it.
//
// Identical charts share an id; each script draws the first element with
// that id not drawn yet, so repeating a chart on a page still works.
func (c *Chart) Fragment() string {
	img := ""
	if len(c.fallback) > 0 {
		img = `<img class="twintorus-fallback" alt="static figure" style="max-width:100%;max-height:100%" src="data:image/png;base64,` +
			base64.StdEncoding.EncodeToString(c.fallback) + `">`
	}
	return fmt.Sprintf(`<div id="%s" class="twintorus-chart" style="width:%dpx;height:%dpx;max-width:100%%">%s</div>
<script type="text/javascript">
(function () {
  var id = %q, option = %s;
  function draw() {
    var all = document.querySelectorAll('[id="' + id + '"]');
    for (var i = 0; i < all.length; i++) {
      if (!all[i].hasAttribute("data-drawn")) {
        all[i].setAttribute("data-drawn", "");
        var img = all[i].querySelector(".twintorus-fallback");
        if (img) { img.remove(); }
        echarts.init(all[i]).setOption(option);
        return;
      }
    }
  }
  if (window.echarts) { draw(); } else { (window.twintorusCharts = window.twintorusCharts || []).push(draw); }
})();
</script>
`, c.id, c.width, c.height, img, c.id, c.option)
}

// HTML returns a self-contained fragment: [Library] and [Chart.Fragment].
// Display it in a notebook cell (e.g. gonbui.DisplayHTML); the library
// loads once per page however many charts carry it.
func (c *Chart) HTML() string {
	return Library() + c.Fragment()
}

// Page returns a complete HTML document showing the charts, with the
// ECharts script included once.
func Page(title string, charts ...*Chart) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n</head>\n<body>\n", html.EscapeString(title))
	b.WriteString(Library())
	for _, c := range charts {
		b.WriteString(c.Fragment())
	}
	b.WriteString("</body>\n</html>\n")
	return b.String()
}

// rect is what the three kinds of go-echarts chart share.
type rect interface {
	Validate()
	JSON() map[string]interface{}
}

// newChart turns a go-echarts chart into a Chart; edit may adjust options
// go-echarts does not model, and funcs are the JavaScript functions the
// options use (through opts.FuncOpts).
func newChart(kind string, width, height int, c rect, edit func(map[string]interface{}), funcs ...string) (*Chart, error) {
	c.Validate()
	obj := c.JSON()
	colors := make([]string, len(palette))
	for i, p := range palette {
		colors[i] = hexColor(p)
	}
	obj["color"] = colors
	obj["toolbox"] = toolbox(kind == "line")
	fitChartTitle(obj, width, kind == "line")
	// Tooltips stay inside the chart: near the right edge of a notebook
	// cell they would otherwise be cut off by the output area.
	if tt, ok := obj["tooltip"].(map[string]interface{}); ok {
		tt["confine"] = true
	} else if obj["tooltip"] != nil {
		obj["tooltip"] = mergeMap(obj["tooltip"], map[string]interface{}{"confine": true})
	}
	// Clicking a legend entry hides its curve (ECharts' default); with many
	// curves, "all" and "invert" buttons above the legend help compare two.
	if obj["legend"] != nil {
		lg := mergeMap(obj["legend"], nil)
		if lg["show"] == true && lg["orient"] == "vertical" {
			lg["selector"] = []map[string]string{{"type": "all", "title": "all"}, {"type": "inverse", "title": "invert"}}
			lg["selectorPosition"] = "start"
		}
		obj["legend"] = lg
	}
	if edit != nil {
		edit(obj)
	}
	setLineHeights(obj)
	option, err := encode(obj)
	if err != nil {
		return nil, fmt.Errorf("plots: encode %s chart options: %w", kind, err)
	}
	for _, fn := range funcs {
		if option, err = unquoteFunc(option, fn); err != nil {
			return nil, err
		}
	}
	option = scriptSafe(option)
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s %dx%d %s", kind, width, height, option)))
	return &Chart{
		id:     "twintorus-" + kind + "-" + hex.EncodeToString(sum[:6]),
		width:  width,
		height: height,
		option: option,
	}, nil
}

// mergeMap returns v (a struct or map, as go-echarts keeps options) as a map
// with extra's keys added.
func mergeMap(v interface{}, extra map[string]interface{}) map[string]interface{} {
	m := map[string]interface{}{}
	if b, err := json.Marshal(v); err == nil {
		_ = json.Unmarshal(b, &m)
	}
	if m == nil { // v was nil: JSON null unmarshals to a nil map
		m = map[string]interface{}{}
	}
	for k, x := range extra {
		m[k] = x
	}
	return m
}

// encode writes v as JSON, leaving <, > and & alone (scriptSafe deals
// with what matters inside <script>).
func encode(v interface{}) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSpace(buf.String()), nil
}

// unquoteFunc turns the string go-echarts made of fn ("__f__fn__f__",
// JSON-quoted) back into code. go-echarts' templates strip every __f__
// marker instead, which would also turn a series named "__f__…" into code.
func unquoteFunc(option, fn string) (string, error) {
	marked := string(opts.FuncOpts(fn))
	quoted, err := encode(marked)
	if err != nil {
		return "", fmt.Errorf("plots: encode chart function: %w", err)
	}
	code := strings.TrimSuffix(strings.TrimPrefix(marked, "__f__"), "__f__")
	return strings.ReplaceAll(option, quoted, code), nil
}

// scriptSafe keeps user text (titles, names) from closing the <script>
// element; both escapes mean the same inside JavaScript strings.
func scriptSafe(s string) string {
	return strings.NewReplacer("</", `<\/`, "<!--", `<\!--`).Replace(s)
}

func checkSize(width, height int) error {
	if width <= 0 || height <= 0 {
		return fmt.Errorf("plots: chart size %dx%d is not positive", width, height)
	}
	return nil
}

// Option pieces the kinds share.

func chartInit(width, height int) opts.Initialization {
	// ChartID is unused (we write our own HTML) but set so that go-echarts
	// does not draw a random one.
	return opts.Initialization{Width: fmt.Sprintf("%dpx", width), Height: fmt.Sprintf("%dpx", height), ChartID: "twintorus"}
}

func chartTitle(o Options) opts.Title {
	return opts.Title{Title: o.Title, Left: "center", TitleStyle: &opts.TextStyle{FontSize: 15, FontWeight: "normal"}}
}

// fitChartTitle keeps the title clear of the toolbox in the top right corner (the
// 3dt-configurations chart's title ran into it): the title, centred, may take the
// chart's width less the toolbox's room on both sides, and ECharts breaks it into
// lines there; the plot's grid moves down by the lines added, estimated at 8 px a
// character of the 15 px title font.
func fitChartTitle(obj map[string]interface{}, width int, zoom bool) {
	if obj["title"] == nil {
		return
	}
	t := mergeMap(obj["title"], nil)
	text, _ := t["text"].(string)
	sub, _ := t["subtext"].(string)
	if text == "" && sub == "" {
		return
	}
	room := width - 2*toolboxRoom(zoom)
	t["textStyle"] = mergeMap(t["textStyle"], map[string]interface{}{"width": room, "overflow": "break", "lineHeight": titleLineHeight})
	added := titleLineHeight * max(titleLines(text, width, zoom)-1, 0)
	// The subtitle (a line plot's notes) runs under the toolbox's row, across the
	// chart less a margin; it breaks into lines there too, estimated at 7 px a
	// character of its 12 px font.
	if sub != "" {
		subRoom := max(width-2*subtitleMargin, 1)
		t["subtextStyle"] = mergeMap(t["subtextStyle"], map[string]interface{}{"width": subRoom, "overflow": "break", "lineHeight": subtitleLineHeight})
		added += subtitleLineHeight * max((7*len([]rune(sub))+subRoom-1)/subRoom-1, 0)
	}
	obj["title"] = t
	if added == 0 || obj["grid"] == nil {
		return
	}
	// go-echarts keeps the grid as a list of one.
	var grids []map[string]interface{}
	if b, err := json.Marshal(obj["grid"]); err == nil && json.Unmarshal(b, &grids) == nil {
		for _, g := range grids {
			top, _ := strconv.Atoi(fmt.Sprint(g["top"]))
			g["top"] = strconv.Itoa(top + added)
		}
		obj["grid"] = grids
	}
}

// A subtitle's line height and its margin from the chart's sides, in CSS pixels.
const (
	subtitleLineHeight = 16
	subtitleMargin     = 20
)

// titleLineHeight is the height of a line of a chart's title (15 px font), in CSS
// pixels: set, not left to ECharts, which measures it from a CJK glyph.
const titleLineHeight = 20

// titleLines estimates how many lines ECharts breaks a title into (fitChartTitle).
func titleLines(text string, width int, zoom bool) int {
	if text == "" {
		return 0
	}
	room := max(width-2*toolboxRoom(zoom), 1)
	return max(1, (8*len([]rune(text))+room-1)/room)
}

// textLineHeight is the line height of the charts' 12 px text, in CSS pixels: the
// font size, what ECharts measures where the reader has CJK fonts (Library).
const textLineHeight = 12

// setLineHeights sets the line height of the axes' labels and names, the legend's and
// the colour scale's text, rather than leave ECharts to measure it from a CJK glyph
// (Library has it measured right, but a page whose ECharts was loaded by an older
// output, or has measured that font already, keeps the measure it has).
func setLineHeights(obj map[string]interface{}) {
	lh := map[string]interface{}{"lineHeight": textLineHeight}
	for _, key := range []string{"xAxis", "yAxis"} {
		if obj[key] == nil {
			continue
		}
		var axes []map[string]interface{}
		if b, err := json.Marshal(obj[key]); err != nil || json.Unmarshal(b, &axes) != nil {
			continue
		}
		for _, a := range axes {
			a["axisLabel"] = mergeMap(a["axisLabel"], lh)
			a["nameTextStyle"] = mergeMap(a["nameTextStyle"], lh)
		}
		obj[key] = axes
	}
	for _, key := range []string{"legend", "visualMap"} {
		if obj[key] != nil {
			m := mergeMap(obj[key], nil)
			m["textStyle"] = mergeMap(m["textStyle"], lh)
			obj[key] = m
		}
	}
}

// toolboxRoom is the width the toolbox takes from the right edge, in CSS pixels:
// its offset (20) and its icons (save, and for a line chart zoom, undo zoom and
// reset) with their padding, 28 each: ECharts draws four in 109 px and one in 28
// (browsertest reads the toolbox's box; at 25 an icon, a 467 px title ran 2.5 px
// into it in the 3dt-configurations notebook).
func toolboxRoom(zoom bool) int {
	if zoom {
		return 20 + 4*28
	}
	return 20 + 28
}

// toolbox offers saving as PNG and, for numeric axes, box zoom. It is
// a plain map: go-echarts writes a null zoom icon, which hides ECharts'
// default one.
func toolbox(zoom bool) map[string]interface{} {
	features := map[string]interface{}{
		"saveAsImage": map[string]interface{}{"title": "save as PNG"},
	}
	if zoom {
		features["dataZoom"] = map[string]interface{}{"title": map[string]string{"zoom": "zoom", "back": "undo zoom"}}
		features["restore"] = map[string]interface{}{"title": "reset"}
	}
	return map[string]interface{}{"show": true, "right": 20, "feature": features}
}

// chartLegend places the legend; it returns the room the grid leaves on
// the right for it.
func chartLegend(place LegendPlace, names []string) (opts.Legend, int) {
	switch place {
	case LegendHidden:
		return opts.Legend{Show: opts.Bool(false)}, 30
	case LegendInside:
		return opts.Legend{Show: opts.Bool(true), Type: "scroll", Orient: "vertical", Left: "100", Top: "70"}, 30
	}

	widest := 0
	for _, n := range names {
		widest = max(widest, len([]rune(n)))
	}
	room := 60 + 7*widest
	return opts.Legend{Show: opts.Bool(true), Type: "scroll", Orient: "vertical", Right: "10", Top: "middle"}, room
}

// Room above and below a chart's plot, in CSS pixels: the title above (more when it
// takes more lines: fitChartTitle), the category or value axis' labels and name below.
const (
	gridTop    = 60
	gridBottom = 60
)

func chartGrid(left, right int) opts.Grid {
	return opts.Grid{Left: strconv.Itoa(left), Right: strconv.Itoa(right), Top: strconv.Itoa(gridTop), Bottom: strconv.Itoa(gridBottom)}
}

// yNameGap is how far a value axis' name stands from the axis, and gridLeft the room
// left of the plot for both, in CSS pixels: wide tick labels ("300,000") would
// otherwise run under the name, as the all-to-all chart's did. The widest label is
// estimated from the largest magnitude among values, as ECharts writes it (thousands
// separated, a minus sign), at 7 px a character of the 12 px tick font.
func yNameGap(values []float64) (gap, gridLeft int) {
	widest := 0
	for _, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		chars := len(strconv.FormatFloat(math.Round(math.Abs(v)), 'f', 0, 64))
		chars += (chars - 1) / 3 // thousands separators
		if math.Abs(v) < 10 {
			chars += 2 // a decimal point and a digit, as small ticks carry
		}
		if v < 0 {
			chars++
		}
		widest = max(widest, chars)
	}
	gap = max(50, 7*widest+18)
	return gap, max(80, gap+25)
}

func splitLine() *opts.SplitLine {
	return &opts.SplitLine{Show: opts.Bool(true), LineStyle: &opts.LineStyle{Color: hexColor(gridColor)}}
}

// valueAxes are numeric axes named in the middle, like gonum's, that fit
// the data rather than start at zero.
func valueAxes(p LinePlot) (x opts.XAxis, y opts.YAxis, gridLeft int) {
	kind := func(log bool) string {
		if log {
			return "log"
		}
		return "value"
	}
	x = opts.XAxis{Type: kind(p.LogX), Name: p.XLabel, NameLocation: "middle", NameGap: 30, Scale: opts.Bool(true), SplitLine: splitLine()}
	var ys []float64
	for _, sr := range p.Series {
		for _, pt := range sr.Points {
			ys = append(ys, pt.Y, pt.YLow, pt.YHigh)
		}
	}
	gap, gridLeft := yNameGap(ys)
	y = opts.YAxis{Type: kind(p.LogY), Name: p.YLabel, NameLocation: "middle", NameGap: gap, Scale: opts.Bool(true), SplitLine: splitLine()}
	return x, y, gridLeft
}
