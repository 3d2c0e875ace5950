package plots

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// labelBoxes draws p at the default figure size and returns the rectangles of the
// strings it writes that contain a decimal point (the bar labels of the plots
// below; tick labels are whole numbers there).
func labelBoxes(t *testing.T, p BarPlot) (boxes []vg.Rectangle, texts []string) {
	t.Helper()
	f, err := p.Figure()
	if err != nil {
		t.Fatal(err)
	}
	var rec recorder.Canvas
	f.draw(draw.NewCanvas(&rec, Width, Height))
	for _, a := range rec.Actions {
		s, ok := a.(*recorder.FillString)
		if !ok || !strings.Contains(s.String, ".") {
			continue
		}
		face := font.DefaultCache.Lookup(s.Font, s.Size)
		w := face.Width(s.String)
		boxes = append(boxes, vg.Rectangle{Min: s.Point, Max: vg.Point{X: s.Point.X + w, Y: s.Point.Y + s.Size}})
		texts = append(texts, s.String)
	}
	return boxes, texts
}

// TestBarLabelsDoNotOverlap: Fig. 10 of the twisted-tori notebook, whose labels ran
// into each other where two close values stood in a narrow cluster (96.79 beside
// 96.72). Every label is drawn, none comes within 2 points of another (labels that
// touch read as one number), and a bar without a value (NaN: the Z dimension of a
// 2D network) has no bar and no label.
func TestBarLabelsDoNotOverlap(t *testing.T) {
	nan := math.NaN()
	p := BarPlot{
		Options:    Options{Title: "link utilisation per dimension", XLabel: "network", YLabel: "utilisation (%)"},
		Categories: []string{"twisted:rt:16", "twisted:rtt:16", "twisted:pt:16", "twisted:ptt:16", "twisted:pdtt:16"},
		Groups: []BarGroup{
			{Name: "X", Values: []float64{96.86, 95.59, 97.72, 96.79, 94.71}},
			{Name: "Y", Values: []float64{50.72, 95.27, 51.85, 96.72, 94.69}},
			{Name: "Z", Values: []float64{nan, nan, 51.82, 75.07, 94.65}},
		},
		Labels: true,
	}
	boxes, texts := labelBoxes(t, p)
	if len(boxes) != 13 {
		t.Fatalf("%d labels drawn (%q), want 13: one per bar with a value", len(boxes), texts)
	}
	for i := range boxes {
		for j := i + 1; j < len(boxes); j++ {
			a, b := boxes[i], boxes[j]
			gap := vg.Points(2)
			if a.Min.X < b.Max.X+gap && b.Min.X < a.Max.X+gap && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y {
				t.Errorf("labels %q at %v and %q at %v are closer than %v", texts[i], a, texts[j], b, gap)
			}
		}
	}
	if !strings.Contains(strings.Join(texts, " "), "96.8") || !strings.Contains(strings.Join(texts, " "), "96.7") {
		t.Errorf("labels %q: the close values 96.79 and 96.72 should stay apart (96.8 and 96.7)", texts)
	}
	if _, err := p.Chart(ChartWidth, ChartHeight); err != nil {
		t.Errorf("chart with a NaN bar: %v", err)
	}
}

// TestFitLabel: a label that fits is the value to four significant digits at the
// tick labels' size; one that does not loses a digit and then shrinks, never
// below minLabelScale of that size.
func TestFitLabel(t *testing.T) {
	st := newPlot(Options{}).Y.Tick.Label
	full := st.Font.Size
	if got, s := fitLabel(st, 96.79, 100); s != "96.79" || got.Font.Size != full {
		t.Errorf("wide room: %q at %v, want 96.79 at %v", s, got.Font.Size, full)
	}
	w3 := st.Width("96.8")
	if got, s := fitLabel(st, 96.79, w3); s != "96.8" || got.Font.Size != full {
		t.Errorf("room for three digits: %q at %v, want 96.8 at %v", s, got.Font.Size, full)
	}
	got, s := fitLabel(st, 96.79, w3*0.8)
	if s != "96.8" || got.Font.Size >= full || got.Width(s) > w3*0.8+1e-9 {
		t.Errorf("narrow room: %q at %v (width %v), want 96.8 shrunk to fit %v", s, got.Font.Size, got.Width(s), w3*0.8)
	}
	if got, _ := fitLabel(st, 96.79, 1); got.Font.Size != full*minLabelScale {
		t.Errorf("no room: size %v, want the floor %v", got.Font.Size, full*minLabelScale)
	}
	if _, s := fitLabel(st, 123456, 1); s != "1.235e+05" {
		t.Errorf("large value: %q, want 1.235e+05 (a shorter form would need an exponent)", s)
	}
}

// TestBarLabelOfAFallingBar: the workloads notebook's bars, where a negative change
// (−77.1) was labelled at +33, over the paper's marker of its category. A negative
// bar's label hangs below the bar's end, under the zero line, wherever the marker is;
// a positive bar's label stands above its bar and is lifted only past a marker that
// would cross it.
func TestBarLabelOfAFallingBar(t *testing.T) {
	p := BarPlot{
		Options:    Options{Title: "latency change", YLabel: "%"},
		Categories: []string{"RandomAccess", "NAMD"},
		Groups: []BarGroup{
			{Name: "ours", Values: []float64{10.5, -77.1}},
			{Name: "paper", Values: []float64{11.0, 33.0}, Marker: true},
		},
		Labels: true,
	}
	boxes, texts := labelBoxes(t, p)
	if len(boxes) != 2 {
		t.Fatalf("labels %q; want the two bars'", texts)
	}
	pos, neg := boxes[0], boxes[1]
	if texts[1] != "-77.1" {
		t.Errorf("negative label %q; want -77.1", texts[1])
	}
	// The positive bar's label is above 11 (its marker crosses it): higher than its
	// bar's end at 10.5. The negative one is below zero, so under the positive label by
	// at least the label's height.
	if neg.Max.Y >= pos.Min.Y-(pos.Max.Y-pos.Min.Y) {
		t.Errorf("the -77.1 label (%v) is not below the zero line's side of the 10.5 label (%v)", neg, pos)
	}
}

// TestBarChartLabelsRounded: the interactive chart writes bar labels as the static
// figure does, through a formatter function, not as raw float64s.
func TestBarChartLabelsRounded(t *testing.T) {
	c, err := BarPlot{Categories: []string{"a"}, Groups: []BarGroup{{Name: "g", Values: []float64{10.441334768568353}}}, Labels: true}.Chart(ChartWidth, ChartHeight)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.option, `"formatter":`+barLabel) || strings.Contains(c.option, "__f__") {
		t.Errorf("the bar labels' formatter is not the rounding function as code:\n%s", c.option)
	}
}
