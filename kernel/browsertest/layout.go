package browsertest

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/twintorus/twintorus/internal/testwait"
)

// A figure a paper would print has no clipped text, no text over other text and no
// number written to more digits than it is known to. CheckText applies those three
// rules to the text boxes of one figure; ChartTexts reads the boxes of every ECharts
// chart on a page, as ECharts laid them out, and CheckCharts does both. Package plots
// applies CheckText to its static figures too, from the boxes gonum/plot draws.

// TextBox is one drawn text element (one line of it) and the box it occupies: X and Y
// are its top-left corner, W and H its size, in the figure's units (CSS pixels for a
// chart, points for a static figure) with Y growing downwards.
type TextBox struct {
	Text       string
	X, Y, W, H float64
}

func (b TextBox) String() string {
	return fmt.Sprintf("%q at (%.0f, %.0f) %.0f×%.0f", b.Text, b.X, b.Y, b.W, b.H)
}

// Figure is the text a figure draws: its title (to name it in a problem), its size
// and every visible text element; and its marks, what text must not cover: data
// symbols (a paper's value drawn beside a bar), each named by its series in Text, and
// a chart's toolbox ("toolbox": the icons a title once ran into).
type Figure struct {
	ID, Title     string
	Width, Height float64
	Texts         []TextBox
	Marks         []TextBox
}

// LayoutTolerance is how far, in the figure's units, a text may cross the figure's
// edge or another text before it counts: a pixel, less than any visible cut.
const LayoutTolerance = 1.0

// MaxSignificant is the most significant digits a number with a fractional part may
// be written with: our labels are rounded to four (plots' bar labels, tooltips), and a
// measured value's interval (a few % of it at 95 % confidence) supports no more, so a
// fifth digit is noise ("10.441334768568353" is a float64 printed raw). Integers
// (counts, "1,024", "300,000") are exact and pass at any length.
const MaxSignificant = 4

// Problem is one rule a figure breaks: Kind is "clipped" (text outside the figure),
// "overlap" (two texts cross), "covers mark" (a text over a data mark) or "precision"
// (a number with more than MaxSignificant significant digits), and Texts the text
// elements (and mark) concerned.
type Problem struct {
	Figure string // the figure's title, or its id when untitled
	Kind   string
	Texts  []TextBox
	Detail string
}

func (p Problem) String() string {
	var texts []string
	for _, t := range p.Texts {
		texts = append(texts, t.String())
	}
	return fmt.Sprintf("%s: %s: %s (%s)", p.Figure, p.Kind, strings.Join(texts, " and "), p.Detail)
}

// CheckText returns the problems of one figure's text, in the order its texts come:
//   - clipped: a box that crosses the figure's edge (0 to Width, 0 to Height) by more
//     than LayoutTolerance: the reader sees part of it, or none;
//   - overlap: two boxes that cross by more than LayoutTolerance both ways: the
//     reader cannot tell which words are whose (lines of one text count too: a line
//     height too small runs them together);
//   - covers mark: a text over a mark by more than LayoutTolerance both ways;
//   - precision: a text that is a number (signs, thousands separators and a % unit
//     aside) with a fractional part and more than MaxSignificant significant digits.
func CheckText(f Figure) []Problem {
	name := f.Title
	if name == "" {
		name = f.ID
	}
	var out []Problem
	tol := LayoutTolerance
	for _, t := range f.Texts {
		if t.X < -tol || t.Y < -tol || t.X+t.W > f.Width+tol || t.Y+t.H > f.Height+tol {
			out = append(out, Problem{Figure: name, Kind: "clipped", Texts: []TextBox{t},
				Detail: fmt.Sprintf("the figure is %.0f×%.0f", f.Width, f.Height)})
		}
	}
	for i, a := range f.Texts {
		for _, b := range f.Texts[i+1:] {
			if dx, dy := crossing(a, b); dx > tol && dy > tol {
				out = append(out, Problem{Figure: name, Kind: "overlap", Texts: []TextBox{a, b},
					Detail: fmt.Sprintf("they cross by %.1f×%.1f", dx, dy)})
			}
		}
	}
	for _, t := range f.Texts {
		for _, m := range f.Marks {
			if dx, dy := crossing(t, m); dx > tol && dy > tol {
				out = append(out, Problem{Figure: name, Kind: "covers mark", Texts: []TextBox{t, m},
					Detail: fmt.Sprintf("the text crosses %s's mark by %.1f×%.1f", m.Text, dx, dy)})
			}
		}
	}
	for _, t := range f.Texts {
		if n, ok := Significant(t.Text); ok && n > MaxSignificant {
			out = append(out, Problem{Figure: name, Kind: "precision", Texts: []TextBox{t},
				Detail: fmt.Sprintf("%d significant digits; a number with a fraction gets at most %d", n, MaxSignificant)})
		}
	}
	return out
}

// crossing is how far boxes a and b overlap along X and along Y (negative: apart).
func crossing(a, b TextBox) (dx, dy float64) {
	return math.Min(a.X+a.W, b.X+b.W) - math.Max(a.X, b.X), math.Min(a.Y+a.H, b.Y+b.H) - math.Max(a.Y, b.Y)
}

// number is a decimal number as figures write it, once signs, separators and units
// are gone: digits, an optional fraction, an optional exponent.
var number = regexp.MustCompile(`^([0-9]+)(?:\.([0-9]+))?(?:[eE][+-]?[0-9]+)?$`)

// Significant returns the significant digits of s when s is a number with a
// fractional part ("0.125": 3, "10.40": 4, "1.235e+05": 4), and ok false for an
// integer ("1,024") or a text that is not a number ("x = 0.1", "D"). A leading sign
// (+, -, −, ±), thousands separators (",", thin spaces) and a trailing "%" are not
// part of the number; trailing zeros of a fraction are (they claim precision).
func Significant(s string) (digits int, ok bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimSpace(strings.TrimSuffix(s, "%"))
	s = strings.TrimLeft(s, "+-−±")
	s = strings.NewReplacer(",", "", "\u2009", "", "\u202f", "").Replace(s)
	m := number.FindStringSubmatch(s)
	if m == nil || m[2] == "" {
		return 0, false
	}
	return len(strings.TrimLeft(m[1]+m[2], "0")), true
}

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
