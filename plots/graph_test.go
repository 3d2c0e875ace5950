package plots

import (
	"math"
	"strings"
	"testing"
)

// A ring of six nodes, one of them coloured, with a dashed chord: the golden PNG.
func TestGraphGolden(t *testing.T) {
	p := ringGraph()
	f, err := p.Figure()
	if err != nil {
		t.Fatal(err)
	}
	png, err := f.PNG(Height, Height)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "graph.png", png)
}

func TestGraphErrors(t *testing.T) {
	for name, p := range map[string]GraphPlot{
		"no nodes":  {},
		"nan":       {Nodes: []GraphNode{{X: math.NaN()}}},
		"edge":      {Nodes: []GraphNode{{}}, Edges: []GraphEdge{{A: 0, B: 1}}},
		"colour":    {Nodes: []GraphNode{{Color: 99}}},
		"edge dash": {Nodes: []GraphNode{{}, {}}, Edges: []GraphEdge{{A: 0, B: 1, Dash: 9}}},
	} {
		if _, err := p.Figure(); err == nil || !strings.HasPrefix(err.Error(), "plots: graph") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
