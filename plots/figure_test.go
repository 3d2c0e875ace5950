package plots

import (
	"strings"
	"testing"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"gonum.org/v1/plot/vg"
)

// Golden figures are 400×300 pixels as PNG.
const goldenW, goldenH vg.Length = 300, 225

func goldenFigures() map[string]func() (*Figure, error) {
	return map[string]func() (*Figure, error){
		"latency": LinePlot{
			Options: Options{Title: "Network latency, 4×4×4", XLabel: "accepted traffic (flits/cycle/node)", YLabel: "latency (cycles)", Legend: LegendInside},
			Series:  latencyCurves(),
		}.Figure,
		"accepted": LinePlot{
			Options:  Options{Title: "Accepted traffic, configurations A–J", XLabel: "offered load", YLabel: "accepted"},
			Series:   acceptedCurves(),
			Diagonal: true,
		}.Figure,
		"hollow": LinePlot{
			Options:     Options{Title: "Flagged points", XLabel: "offered load", YLabel: "accepted"},
			Series:      hollowCurves(),
			Diagonal:    true,
			HollowLabel: "hollow: not stationary",
			Notes:       []string{"a note without a mark"},
		}.Figure,
		"bars":    pathCounts().Figure,
		"heatmap": utilisation().Figure,
	}
}

func TestFigureGolden(t *testing.T) {
	for name, mk := range goldenFigures() {
		t.Run(name, func(t *testing.T) {
			f, err := mk()
			if err != nil {
				t.Fatal(err)
			}
			png, err := f.PNG(goldenW, goldenH)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, name+".png", png)
			svg, err := f.SVG(goldenW, goldenH)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, name+".svg", svg)
		})
	}
}

// TestLongTitleFits: kns Fig. 3c's title was cut at both ends ("Jniform traffic…")
// where it was wider than the plot left of its legend. A title that does not fit
// breaks into lines (and shrinks) so that every line lies inside the figure; a title
// that fits stays one line at its size.
func TestLongTitleFits(t *testing.T) {
	series := []Series{{Name: "kns:256,2,1", Points: []Point{{X: 0.1, Y: 500}, {X: 0.4, Y: 1100}}},
		{Name: "flatfly:16,3@16", Points: []Point{{X: 0.1, Y: 520}, {X: 0.4, Y: 1500}}}}
	draws := func(title string) (lines []string, boxes []vg.Rectangle) {
		f, err := LinePlot{Series: series, Options: Options{Title: title, XLabel: "accepted traffic", YLabel: "network latency"}}.Figure()
		if err != nil {
			t.Fatal(err)
		}
		var rec recorder.Canvas
		f.draw(draw.NewCanvas(&rec, Width, Height))
		for _, a := range rec.Actions {
			if s, ok := a.(*recorder.FillString); ok && strings.Contains(title, s.String) && len(s.String) > 4 {
				face := font.DefaultCache.Lookup(s.Font, s.Size)
				w := face.Width(s.String)
				lines = append(lines, s.String)
				boxes = append(boxes, vg.Rectangle{Min: s.Point, Max: vg.Point{X: s.Point.X + w, Y: s.Point.Y + s.Size}})
			}
		}
		return lines, boxes
	}
	long := "Uniform traffic, 64K nodes (Fig. 3c; mesh and torus in the table)"
	lines, boxes := draws(long)
	if strings.Join(lines, " ") != long {
		t.Fatalf("the title's lines %q do not make up %q", lines, long)
	}
	if len(lines) < 2 {
		t.Errorf("the long title is one line: %q", lines)
	}
	for i, b := range boxes {
		if b.Min.X < 0 || b.Max.X > Width {
			t.Errorf("title line %q spans %v to %v, outside the figure's 0 to %v", lines[i], b.Min.X, b.Max.X, Width)
		}
	}
	if lines, _ := draws("Uniform traffic, 64K nodes"); len(lines) != 1 {
		t.Errorf("a short title became %q", lines)
	}
}
