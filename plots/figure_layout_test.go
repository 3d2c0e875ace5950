package plots

import (
	"math"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/twintorus/twintorus/kernel/browsertest"
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

// figureText draws f at w×h points and returns its text as browsertest.CheckText
// takes it: boxes in points with Y down from the top, named by title.
func figureText(f *Figure, w, h vg.Length) browsertest.Figure {
	c := newTextCanvas(vgimg.New(w, h))
	f.draw(draw.NewCanvas(c, w, h))
	out := browsertest.Figure{Title: f.title, Width: float64(w), Height: float64(h)}
	if out.Title == "" {
		out.Title = f.plot.Title.Text
	}
	for i, r := range c.boxes {
		out.Texts = append(out.Texts, browsertest.TextBox{Text: c.texts[i],
			X: float64(r.Min.X), Y: float64(h - r.Max.Y), W: float64(r.Max.X - r.Min.X), H: float64(r.Max.Y - r.Min.Y)})
	}
	return out
}

// smallFigure reports whether figure name is checked at the golden files' size
// (300×225 pt, two thirds of a notebook's) as well as at a notebook's: the golden
// figures and every bar chart (whose category names and labels stand upright when
// they do not fit). A legend of twelve curves or of three long notes does not fit
// beside the data at that size (its columns run off the figure's right edge): those
// figures are checked at a notebook's size only.
func smallFigure(name string) bool {
	return strings.HasPrefix(name, "golden") || name == "graph" || name == "large values" || name == "log axes" ||
		strings.Contains(name, "bars") || strings.Contains(name, "categor") || strings.Contains(name, "groups") || name == "ratios"
}

// TestFigureLayout draws every kind of static figure (layoutPlots, and a graph) at
// the size notebooks use, and most at the golden files' smaller size (smallFigure),
// and checks its text with the rules the interactive charts are held to
// (browsertest.CheckText), in points.
func TestFigureLayout(t *testing.T) {
	figs := map[string]func() (*Figure, error){"graph": ringGraph().Figure}
	for name, p := range layoutPlots() {
		figs[name] = p.Figure
	}
	var names []string
	for name := range figs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		sizes := [][2]vg.Length{{Width, Height}}
		if smallFigure(name) {
			sizes = append(sizes, [2]vg.Length{goldenW, goldenH})
		}
		for _, size := range sizes {
			f, err := figs[name]()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			text := figureText(f, size[0], size[1])
			if len(text.Texts) < 3 {
				t.Errorf("%s: only %d texts recorded: %v", name, len(text.Texts), text.Texts)
			}
			for _, pr := range browsertest.CheckText(text) {
				t.Errorf("%s at %v×%v pt: %s", name, size[0], size[1], pr)
			}
		}
	}
}

// ringGraph is a ring of six labelled nodes with a coloured source and a chord.
func ringGraph() GraphPlot {
	var p GraphPlot
	p.Title = "ring of six"
	for i := range 6 {
		a := 2 * math.Pi * float64(i) / 6
		p.Nodes = append(p.Nodes, GraphNode{X: math.Cos(a), Y: math.Sin(a), Label: string(rune('a' + i))})
		p.Edges = append(p.Edges, GraphEdge{A: i, B: (i + 1) % 6})
	}
	p.Nodes[0].Color = Vermillion
	p.Edges = append(p.Edges, GraphEdge{A: 0, B: 3, Color: Blue, Dash: Dashed})
	p.Groups = []string{"", "source"}
	return p
}

// TestFigureLayoutCanFail: static figures built to break the rules are reported: a
// title as one word wider than the figure (it cannot break), two graph nodes' labels
// on one spot, and a label written by hand past four significant digits.
func TestFigureLayoutCanFail(t *testing.T) {
	wide, err := LinePlot{Options: Options{Title: strings.Repeat("Unbreakable", 12)},
		Series: []Series{{Name: "a", Points: []Point{{X: 0, Y: 0}, {X: 1, Y: 1}}}}}.Figure()
	if err != nil {
		t.Fatal(err)
	}
	twins, err := GraphPlot{Options: Options{Title: "two labels on one node"},
		Nodes: []GraphNode{{X: 0, Y: 0, Label: "first"}, {X: 0, Y: 0, Label: "second"}, {X: 1, Y: 1, Label: "10.441334768568353"}}}.Figure()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, f := range []*Figure{wide, twins} {
		for _, pr := range browsertest.CheckText(figureText(f, Width, Height)) {
			got[pr.Kind+" "+pr.Texts[0].Text] = true
			t.Log(pr)
		}
	}
	for _, want := range []string{"clipped " + strings.Repeat("Unbreakable", 12), "overlap first", "precision 10.441334768568353"} {
		if !got[want] {
			t.Errorf("not reported: %s", want)
		}
	}
}
