package plots

import (
	"math"
	"strings"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"

	"github.com/twintorus/twintorus/plots/layout"
)

// textCanvas is a canvas that draws as the one it wraps and records where each
// string lands: the box of a line of text is its advance width by its font size,
// from its baseline less the font's descent (gonum's own box of a line), carried
// through the canvas' transforms (a rotated axis title gives the upright box around
// it), in the canvas' coordinates.
type textCanvas struct {
	vg.Canvas
	m     affine
	stack []affine
	boxes []vg.Rectangle
	texts []string
}

// affine maps (x, y) to (a x + c y + e, b x + d y + f).
type affine struct{ a, b, c, d, e, f float64 }

var identity = affine{a: 1, d: 1}

// then is m applied after n: the transform of a canvas that had m and was told n.
func (m affine) then(n affine) affine {
	return affine{
		a: m.a*n.a + m.c*n.b, b: m.b*n.a + m.d*n.b,
		c: m.a*n.c + m.c*n.d, d: m.b*n.c + m.d*n.d,
		e: m.a*n.e + m.c*n.f + m.e, f: m.b*n.e + m.d*n.f + m.f,
	}
}

func (m affine) apply(x, y float64) (float64, float64) {
	return m.a*x + m.c*y + m.e, m.b*x + m.d*y + m.f
}

func newTextCanvas(c vg.Canvas) *textCanvas { return &textCanvas{Canvas: c, m: identity} }

func (c *textCanvas) Translate(pt vg.Point) {
	c.m = c.m.then(affine{a: 1, d: 1, e: float64(pt.X), f: float64(pt.Y)})
	c.Canvas.Translate(pt)
}

func (c *textCanvas) Rotate(rad float64) {
	s, k := math.Sincos(rad)
	c.m = c.m.then(affine{a: k, b: s, c: -s, d: k})
	c.Canvas.Rotate(rad)
}

func (c *textCanvas) Scale(x, y float64) {
	c.m = c.m.then(affine{a: x, d: y})
	c.Canvas.Scale(x, y)
}

func (c *textCanvas) Push() {
	c.stack = append(c.stack, c.m)
	c.Canvas.Push()
}

func (c *textCanvas) Pop() {
	c.m = c.stack[len(c.stack)-1]
	c.stack = c.stack[:len(c.stack)-1]
	c.Canvas.Pop()
}

func (c *textCanvas) FillString(f font.Face, pt vg.Point, s string) {
	c.Canvas.FillString(f, pt, s)
	if strings.TrimSpace(s) == "" || f.Font.Size == 0 {
		return
	}
	x0, y0 := float64(pt.X), float64(pt.Y-f.Extents().Descent)
	x1, y1 := x0+float64(f.Width(s)), y0+float64(f.Font.Size)
	r := vg.Rectangle{Min: vg.Point{X: vg.Length(math.Inf(1)), Y: vg.Length(math.Inf(1))}, Max: vg.Point{X: vg.Length(math.Inf(-1)), Y: vg.Length(math.Inf(-1))}}
	for _, p := range [][2]float64{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}} {
		x, y := c.m.apply(p[0], p[1])
		r.Min.X, r.Min.Y = min(r.Min.X, vg.Length(x)), min(r.Min.Y, vg.Length(y))
		r.Max.X, r.Max.Y = max(r.Max.X, vg.Length(x)), max(r.Max.Y, vg.Length(y))
	}
	c.boxes = append(c.boxes, r)
	c.texts = append(c.texts, s)
}

// recorder wraps c, a canvas of w×h points, so that drawing the figure on it records
// its text for Layout.
func (f *Figure) recorder(c vg.Canvas, w, h vg.Length) vg.Canvas {
	f.text = newTextCanvas(c)
	f.textWidth, f.textHeight = w, h
	return f.text
}

// Layout is the text of the figure's last drawing (a PNG, SVG or PDF it rendered) as
// package layout checks it: every string's box in points, Y down from the top, the
// figure named by its title.
func (f *Figure) Layout() layout.Figure {
	out := layout.Figure{Title: f.title}
	if out.Title == "" && f.plot != nil {
		out.Title = f.plot.Title.Text
	}
	if f.text == nil {
		return out
	}
	h := f.textHeight
	out.Width, out.Height = float64(f.textWidth), float64(h)
	for i, r := range f.text.boxes {
		out.Texts = append(out.Texts, layout.TextBox{Text: f.text.texts[i],
			X: float64(r.Min.X), Y: float64(h - r.Max.Y), W: float64(r.Max.X - r.Min.X), H: float64(r.Max.Y - r.Min.Y)})
	}
	return out
}

// Problems is what the figure's last drawing breaks of the rules a printed figure
// keeps (layout.Check): clipped text, text over text, over-precise numbers. A notebook
// shows it under the figure (kernel.Show).
func (f *Figure) Problems() []layout.Problem { return layout.Check(f.Layout()) }
