package plots

import (
	"testing"

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
