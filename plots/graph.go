package plots

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// GraphPlot draws a network: nodes at given positions and links as straight lines,
// as the papers draw their topologies (a folded layout, a toroid). It has no axes; the
// caller chooses the positions.
type GraphPlot struct {
	Options
	Nodes []GraphNode
	Edges []GraphEdge
	// Groups names the node colours in a legend (Groups[i] for Color i+1), or none.
	Groups []string
}

// GraphNode is one node: its position, a label drawn beside it (may be empty) and
// its colour (zero: black).
type GraphNode struct {
	X, Y  float64
	Label string
	Color Color
}

// GraphEdge is a link between nodes A and B (indices into Nodes), with an optional
// colour and dash (zero: grey, solid).
type GraphEdge struct {
	A, B  int
	Color Color
	Dash  Dash
}

func (p GraphPlot) check() error {
	if len(p.Nodes) == 0 {
		return fmt.Errorf("plots: graph %q has no nodes", p.Title)
	}
	for i, n := range p.Nodes {
		if !finite(n.X) || !finite(n.Y) {
			return fmt.Errorf("plots: graph %q: node %d at (%v, %v)", p.Title, i, n.X, n.Y)
		}
		if n.Color < 0 || int(n.Color) > len(palette) {
			return fmt.Errorf("plots: graph %q: node %d has colour %d; the palette has %d", p.Title, i, n.Color, len(palette))
		}
	}
	for i, e := range p.Edges {
		if e.A < 0 || e.A >= len(p.Nodes) || e.B < 0 || e.B >= len(p.Nodes) {
			return fmt.Errorf("plots: graph %q: edge %d joins nodes %d and %d; there are %d", p.Title, i, e.A, e.B, len(p.Nodes))
		}
		if e.Color < 0 || int(e.Color) > len(palette) || e.Dash < 0 || int(e.Dash) > len(dashes) {
			return fmt.Errorf("plots: graph %q: edge %d has colour %d and dash %d", p.Title, i, e.Color, e.Dash)
		}
	}
	return nil
}

var edgeGrey = color.NRGBA{0x80, 0x80, 0x80, 0xff}

// Figure renders the graph as a static figure; draw it with the same aspect ratio as
// the positions' spread to keep lengths true.
func (p GraphPlot) Figure() (*Figure, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	pl := newPlot(p.Options)
	pl.HideAxes()
	for _, e := range p.Edges {
		a, b := p.Nodes[e.A], p.Nodes[e.B]
		l, err := plotter.NewLine(plotter.XYs{{X: a.X, Y: a.Y}, {X: b.X, Y: b.Y}})
		if err != nil {
			return nil, fmt.Errorf("plots: graph %q: %w", p.Title, err)
		}
		l.LineStyle = draw.LineStyle{Color: edgeGrey, Width: vg.Points(1)}
		if e.Color > 0 {
			l.LineStyle.Color = palette[e.Color-1]
		}
		if e.Dash > 0 {
			l.LineStyle.Dashes = dashes[e.Dash-1]
		}
		pl.Add(l)
	}
	byColor := map[Color]plotter.XYs{}
	var labels plotter.XYLabels
	for _, n := range p.Nodes {
		byColor[n.Color] = append(byColor[n.Color], plotter.XY{X: n.X, Y: n.Y})
		if n.Label != "" {
			labels.XYs = append(labels.XYs, plotter.XY{X: n.X, Y: n.Y})
			labels.Labels = append(labels.Labels, n.Label)
		}
	}
	for c := Color(0); int(c) <= len(palette); c++ {
		xys, ok := byColor[c]
		if !ok {
			continue
		}
		s, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, fmt.Errorf("plots: graph %q: %w", p.Title, err)
		}
		col := color.Color(color.Black)
		if c > 0 {
			col = palette[c-1]
		}
		s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}
		pl.Add(s)
		if int(c) >= 1 && int(c) <= len(p.Groups) && p.Options.Legend != LegendHidden {
			pl.Legend.Add(p.Groups[c-1], s)
		}
	}
	if len(labels.Labels) > 0 {
		l, err := plotter.NewLabels(labels)
		if err != nil {
			return nil, fmt.Errorf("plots: graph %q: %w", p.Title, err)
		}
		for i := range l.TextStyle {
			l.TextStyle[i].Font = sans(tickSize)
			l.TextStyle[i].XAlign, l.TextStyle[i].YAlign = draw.XLeft, draw.YBottom
		}
		l.Offset = vg.Point{X: vg.Points(3), Y: vg.Points(2)}
		pl.Add(l)
	}
	pl.Legend.Top = true
	pad(pl, 0.06)
	return &Figure{plot: pl}, nil
}

// pad widens both axes' ranges by share of their span (at least 0.5), so nodes at the
// edges and their labels stay inside.
func pad(pl *plot.Plot, share float64) {
	for _, a := range []*plot.Axis{&pl.X, &pl.Y} {
		d := max((a.Max-a.Min)*share, 0.5)
		a.Min -= d
		a.Max += d
	}
}
