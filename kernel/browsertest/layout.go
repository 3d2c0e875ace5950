package browsertest

import (
	"fmt"
	"time"

	"github.com/twintorus/twintorus/internal/testwait"
	"github.com/twintorus/twintorus/plots/layout"
)

// A figure a paper would print has no clipped text, no text over other text and no
// number written to more digits than it is known to: package plots/layout has the
// rules (layout.Check), which plots applies to its static figures from the boxes
// gonum/plot draws. ChartTexts reads the boxes of every ECharts chart on a page, as
// ECharts laid them out, and CheckCharts applies the rules to them.

// TextBox, Figure and Problem are layout's: a text's box, a figure's texts and marks,
// a rule broken.
type (
	TextBox = layout.TextBox
	Figure  = layout.Figure
	Problem = layout.Problem
)

// LayoutTolerance and MaxSignificant are layout's Tolerance and MaxSignificant.
const (
	LayoutTolerance = layout.Tolerance
	MaxSignificant  = layout.MaxSignificant
)

// CheckText is layout.Check: the problems of one figure's text.
func CheckText(f Figure) []Problem { return layout.Check(f) }

// Significant is layout.Significant.
func Significant(s string) (digits int, ok bool) { return layout.Significant(s) }

// chartTexts reads, for every ECharts instance on the page (an element ECharts marks
// with _echarts_instance_), the text zrender draws: every text span in its display
// list that is shown (not ignored, invisible, fully transparent or clipped away by a
// clip path, such as a scrolling legend's hidden pages). Texts shown only on hover
// (toolbox titles, emphasis labels) and tooltips (HTML) are not in the list. Marks are
// the symbols of scatter series, from their data's layout, and the toolbox's icons.
//
// A span's box is its measured width and, as height, its font size, placed by its
// baseline: zrender's own line height is the width of "国", which a browser without
// CJK fonts measures at a third of the font size. Both go through the span's global
// transform (rotated axis names become upright boxes around them). busy counts the
// elements still animating: the layout is final when it is zero.
const chartTexts = `(function () {
  var out = [];
  function fontSize(font) { var m = /([0-9.]+)px/.exec(font || ""); return m ? +m[1] : 12; }
  function hidden(el) {
    for (var e = el; e; e = e.parent || e.__hostTarget) {
      if (e.ignore || e.invisible || (e.style && e.style.opacity === 0)) { return true; }
    }
    return false;
  }
  function animating(el) {
    for (var e = el; e; e = e.parent || e.__hostTarget) {
      if (e.animators && e.animators.length > 0) { return true; }
    }
    return false;
  }
  function globalRect(el, r) {
    r = r.clone();
    if (el.transform) { r.applyTransform(el.transform); }
    return r;
  }
  document.querySelectorAll("[_echarts_instance_]").forEach(function (dom) {
    var chart = window.echarts && echarts.getInstanceByDom(dom);
    if (!chart || chart.isDisposed()) { return; }
    var opt = chart.getOption() || {}, title = "";
    if (opt.title && opt.title.length && opt.title[0].text) { title = opt.title[0].text; }
    var fig = {id: dom.id, title: title, width: chart.getWidth(), height: chart.getHeight(), busy: 0, texts: [], marks: []};
    chart.getZr().storage.getDisplayList(true).forEach(function (el) {
      if (animating(el)) { fig.busy++; }
      if (el.type !== "tspan" || !el.style || el.style.text == null || String(el.style.text).trim() === "" || hidden(el)) { return; }
      var st = el.style, h = fontSize(st.font), local = el.getBoundingRect().clone();
      var base = st.textBaseline, y = st.y || 0;
      local.y = base === "top" || base === "hanging" ? y : base === "bottom" || base === "ideographic" ? y - h : base === "middle" ? y - h / 2 : y - 0.8 * h;
      local.height = h;
      var r = globalRect(el, local);
      var clips = el.__clipPaths || [];
      for (var i = 0; i < clips.length; i++) {
        var c = clips[i];
        c.updateTransform && c.updateTransform();
        var cr = globalRect(c, c.getBoundingRect());
        var x0 = Math.max(r.x, cr.x), y0 = Math.max(r.y, cr.y);
        var x1 = Math.min(r.x + r.width, cr.x + cr.width), y1 = Math.min(r.y + r.height, cr.y + cr.height);
        if (x1 - x0 < 1 || y1 - y0 < 1) { return; }
      }
      fig.texts.push({text: String(st.text), x: r.x, y: r.y, w: r.width, h: r.height});
    });
    var model = chart.getModel && chart.getModel();
    var toolbox = model && model.getComponent("toolbox");
    var tview = toolbox && chart.getViewOfComponentModel && chart.getViewOfComponentModel(toolbox);
    if (tview && tview.group && !tview.group.ignore && tview.group.childCount() > 0) {
      tview.group.updateTransform();
      var tr = globalRect(tview.group, tview.group.getBoundingRect());
      fig.marks.push({text: "toolbox", x: tr.x, y: tr.y, w: tr.width, h: tr.height});
    }
    (model ? model.getSeries() : []).forEach(function (s) {
      if (s.subType !== "scatter") { return; }
      var data = s.getData();
      data.each(function (i) {
        var p = data.getItemLayout(i), size = data.getItemVisual(i, "symbolSize");
        if (!p || !isFinite(p[0]) || !isFinite(p[1])) { return; }
        if (!Array.isArray(size)) { size = [size, size]; }
        fig.marks.push({text: s.name, x: p[0] - size[0] / 2, y: p[1] - size[1] / 2, w: size[0], h: size[1]});
      });
    });
    out.push(fig);
  });
  return out;
})()`

type chartFigure struct {
	ID     string    `json:"id"`
	Title  string    `json:"title"`
	Width  float64   `json:"width"`
	Height float64   `json:"height"`
	Busy   int       `json:"busy"`
	Texts  []textBox `json:"texts"`
	Marks  []textBox `json:"marks"`
}

type textBox struct {
	Text string  `json:"text"`
	X    float64 `json:"x"`
	Y    float64 `json:"y"`
	W    float64 `json:"w"`
	H    float64 `json:"h"`
}

// ChartTexts returns the text of every ECharts chart on the page once no element of
// any is animating (ECharts animates a chart in for about a second), waiting up to
// timeout (stretched as WaitFor's): see chartTexts above for what counts as shown.
func ChartTexts(p *Page, timeout time.Duration) ([]Figure, error) {
	deadline := time.Now().Add(testwait.Scale(timeout))
	for {
		raw, err := Eval[[]chartFigure](p, chartTexts)
		if err != nil {
			return nil, err
		}
		busy := 0
		for _, f := range raw {
			busy += f.Busy
		}
		if busy == 0 || time.Now().After(deadline) {
			if busy > 0 {
				return nil, fmt.Errorf("browsertest: charts still animating %d elements after %v", busy, testwait.Scale(timeout))
			}
			out := make([]Figure, len(raw))
			for i, f := range raw {
				out[i] = Figure{ID: f.ID, Title: f.Title, Width: f.Width, Height: f.Height}
				for _, t := range f.Texts {
					out[i].Texts = append(out[i].Texts, TextBox(t))
				}
				for _, m := range f.Marks {
					out[i].Marks = append(out[i].Marks, TextBox(m))
				}
			}
			return out, nil
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// CheckCharts reads every ECharts chart's text (ChartTexts) and returns the
// problems CheckText finds, with the number of charts read.
func CheckCharts(p *Page, timeout time.Duration) (problems []Problem, charts int, err error) {
	figs, err := ChartTexts(p, timeout)
	if err != nil {
		return nil, 0, err
	}
	for _, f := range figs {
		problems = append(problems, CheckText(f)...)
	}
	return problems, len(figs), nil
}
