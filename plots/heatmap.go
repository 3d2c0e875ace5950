package plots

import (
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// HeatmapPlot is a grid of values shown as colours, e.g. the utilisation
// of the channels of each node of a torus plane. Options.Legend is unused:
// the colour bar is the legend.
type HeatmapPlot struct {
	Options
	// Values[row][col]; row 0 is drawn at the bottom, as y = 0 would be.
	Values [][]float64
	// XTicks and YTicks name the columns and rows; nil numbers them from 0.
	XTicks, YTicks []string
	// ColorLabel titles the colour bar, e.g. "utilisation".
	ColorLabel string
	// Min and Max fix the colour range (values outside are clamped); unless
	// Min < Max the range is the data's.
	Min, Max float64
}

// Figure renders the heatmap as a static figure with a colour bar.
func (p HeatmapPlot) Figure() (*Figure, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	pl := newPlot(p.Options)
	pl.X.Padding, pl.Y.Padding = 0, 0
	rows, cols := len(p.Values), len(p.Values[0])
	pl.X.Tick.Marker = cellTicks(cols, p.XTicks)
	pl.Y.Tick.Marker = cellTicks(rows, p.YTicks)
	lo, hi := p.scale()
	pl.Add(cells{p.Values, lo, hi})
	bar := colorBar{lo: lo, hi: hi, ticks: pl.Y.Tick.Label, title: pl.Y.Label.TextStyle, label: p.ColorLabel}
	return &Figure{plot: pl, side: bar}, nil
}

// cellTicks labels cell centres, thinned so that large grids stay legible.
func cellTicks(n int, names []string) plot.ConstantTicks {
	step := (n + 11) / 12
	var ticks plot.ConstantTicks
	for i := 0; i < n; i += step {
		name := strconv.Itoa(i)
		if names != nil {
			name = names[i]
		}
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: name})
	}
	return ticks
}

// cells draws one rectangle per value; cell (r, c) is centred on (c, r).
type cells struct {
	values [][]float64
	lo, hi float64
}

func (h cells) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for r, row := range h.values {
		for col, v := range row {
			// Each cell overlaps the next ones, drawn later, by a hair, so
			// anti-aliasing leaves no light seams between cells.
			x0, x1 := trX(float64(col)-0.5), trX(float64(col)+0.5)+seam
			y0, y1 := trY(float64(r)-0.5), trY(float64(r)+0.5)+seam
			c.FillPolygon(colorAt(v, h.lo, h.hi), c.ClipPolygonXY([]vg.Point{
				{X: x0, Y: y0}, {X: x0, Y: y1}, {X: x1, Y: y1}, {X: x1, Y: y0},
			}))
		}
	}
}

func (h cells) DataRange() (xmin, xmax, ymin, ymax float64) {
	return -0.5, float64(len(h.values[0])) - 0.5, -0.5, float64(len(h.values)) - 0.5
}

// colorBar draws the colour scale right of the data area, as tall as it.
type colorBar struct {
	lo, hi float64
	ticks  text.Style // style of the tick labels
	title  text.Style // style of the bar's title
	label  string
	// colors is the colour map (nil: colorAt, the heatmaps' viridis).
	colors func(v, lo, hi float64) color.NRGBA
}

func (b colorBar) color(v float64) color.NRGBA {
	if b.colors != nil {
		return b.colors(v, b.lo, b.hi)
	}
	return colorAt(v, b.lo, b.hi)
}

const (
	barWidth  = colorBarSide
	barTick   = 3
	barSlices = 96 // enough for a smooth-looking gradient
	seam      = 0.75
)

func (b colorBar) marks() []plot.Tick {
	var ts []plot.Tick
	for _, t := range (roundTicks{target: 5}).Ticks(b.lo, b.hi) {
		if t.Label != "" && t.Value >= b.lo && t.Value <= b.hi {
			ts = append(ts, t)
		}
	}
	return ts
}

func (b colorBar) width(vg.Length) vg.Length {
	var labels vg.Length
	for _, t := range b.marks() {
		labels = max(labels, b.ticks.Width(t.Label))
	}
	w := 2*sidePadding + barWidth + barTick + 2 + labels
	if b.label != "" {
		w += b.title.Height(b.label) + 4
	}
	return w
}

func (b colorBar) draw(c draw.Canvas, data vg.Rectangle) {
	x0 := c.Min.X + sidePadding
	x1 := x0 + barWidth
	y0, h := data.Min.Y, data.Max.Y-data.Min.Y
	step := h / barSlices
	for i := 0; i < barSlices; i++ {
		v := b.lo + (float64(i)+0.5)/barSlices*(b.hi-b.lo)
		bottom := y0 + vg.Length(i)*step
		top := math.Min(float64(bottom+step+seam), float64(data.Max.Y))
		c.FillPolygon(b.color(v), []vg.Point{
			{X: x0, Y: bottom}, {X: x0, Y: vg.Length(top)}, {X: x1, Y: vg.Length(top)}, {X: x1, Y: bottom},
		})
	}
	edge := draw.LineStyle{Color: palette[len(palette)-1], Width: vg.Points(0.5)}
	c.StrokeLines(edge, []vg.Point{{X: x0, Y: y0}, {X: x0, Y: data.Max.Y}, {X: x1, Y: data.Max.Y}, {X: x1, Y: y0}, {X: x0, Y: y0}})
	labels := b.ticks
	labels.XAlign, labels.YAlign = draw.XLeft, draw.YCenter
	var widest vg.Length
	for _, t := range b.marks() {
		y := y0 + vg.Length((t.Value-b.lo)/(b.hi-b.lo))*h
		c.StrokeLine2(edge, x1, y, x1+barTick, y)
		c.FillText(labels, vg.Point{X: x1 + barTick + 2, Y: y}, t.Label)
		widest = max(widest, labels.Width(t.Label))
	}
	if b.label != "" {
		// Placed as gonum places a Y axis label, mirrored to the right.
		title := b.title
		title.Rotation += math.Pi / 2
		x := x1 + barTick + 2 + widest + 4 + title.Height(b.label) - title.FontExtents().Descent
		c.FillText(title, vg.Point{X: x, Y: y0 + h/2}, b.label)
	}
}
