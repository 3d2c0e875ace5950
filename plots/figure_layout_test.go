package plots

import (
	"math"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/twintorus/twintorus/kernel/browsertest"
)

// figureText draws f at w×h points and returns its text as browsertest.CheckText
// takes it (Figure.Layout after a drawing).
func figureText(f *Figure, w, h vg.Length) browsertest.Figure {
	f.draw(draw.NewCanvas(f.recorder(vgimg.New(w, h), w, h), w, h))
	return f.Layout()
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
