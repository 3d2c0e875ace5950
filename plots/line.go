package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// LinePlot is a set of curves against a common X, e.g. network latency
// against accepted traffic, or accepted against offered load, one curve
// per configuration.
type LinePlot struct {
	Options
	Series     []Series
	LogX, LogY bool
	// Diagonal draws the line y = x: accepted traffic equal to offered
	// load, the ideal a network meets until it saturates.
	Diagonal bool
	// HollowLabel is the legend entry, with an empty circle, that says what
	// hollow points (Point.Hollow) mean; DefaultHollowLabel when empty. It is
	// shown only when a point is hollow.
	HollowLabel string
	// Notes are lines of the legend without a mark, after the series: what
	// the whole figure's reader should know (a static figure's legend; the
	// interactive chart's subtitle).
	Notes []string
}

// noteWidth is the least width, in points, that a legend note breaks to.
const noteWidth = 150

// DefaultHollowLabel explains hollow points when LinePlot.HollowLabel does not.
const DefaultHollowLabel = "hollow: flagged points"

// hollowLabel is the legend entry of hollow points, or "" when none is hollow.
func (p LinePlot) hollowLabel() string {
	for _, s := range p.Series {
		for _, pt := range s.Points {
			if pt.Hollow {
				if p.HollowLabel == "" {
					return DefaultHollowLabel
				}
				return p.HollowLabel
			}
		}
	}
	return ""
}

// Figure renders the plot as a static figure.
func (p LinePlot) Figure() (*Figure, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	pl := newPlot(p.Options)
	pl.Add(grid(true))
	if p.LogX {
		pl.X.Scale, pl.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	}
	if p.LogY {
		pl.Y.Scale, pl.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	}
	var entries []entry
	if p.Diagonal {
		d := diagonal{draw.LineStyle{Color: idealColor, Width: vg.Points(1), Dashes: dashes[1]}}
		pl.Add(d)
		entries = append(entries, entry{"ideal (y = x)", []plot.Thumbnailer{d}})
	}
	for i, s := range p.Series {
		lk := lookOf(i, s)
		xys := make(plotter.XYs, len(s.Points))
		for j, pt := range s.Points {
			xys[j] = plotter.XY{X: pt.X, Y: pt.Y}
		}
		line, err := plotter.NewLine(xys)
		if err != nil {
			return nil, fmt.Errorf("plots: series %q: %w", s.Name, err)
		}
		line.LineStyle = draw.LineStyle{Color: lk.color, Width: vg.Points(lineWidth), Dashes: dashes[lk.dash]}
		marks, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, fmt.Errorf("plots: series %q: %w", s.Name, err)
		}
		marks.GlyphStyle = draw.GlyphStyle{Color: lk.color, Radius: vg.Points(glyphRadius), Shape: glyphs[lk.glyph]}
		marks.GlyphStyleFunc = func(j int) draw.GlyphStyle {
			if s.Points[j].Hollow {
				return hollowGlyph(lk.color)
			}
			return marks.GlyphStyle
		}
		bars := errorBars{s.Points, draw.LineStyle{Color: lk.color, Width: vg.Points(errorWidth)}}
		pl.Add(bars, line, marks)
		entries = append(entries, entry{s.Name, []plot.Thumbnailer{line, marks}})
	}
	if label := p.hollowLabel(); label != "" {
		entries = append(entries, entry{label, []plot.Thumbnailer{hollowThumb{}}})
	}
	// A long note breaks into lines as wide as the widest curve name (at least
	// noteWidth): one unbroken line would widen the legend and squeeze the data.
	width := vg.Points(noteWidth)
	for _, e := range entries {
		width = max(width, pl.Legend.TextStyle.Width(e.name))
	}
	for _, n := range p.Notes {
		for _, line := range breakLines(pl.Legend.TextStyle, n, width) {
			entries = append(entries, entry{line, nil})
		}
	}
	// A single X or Y value gets a unit range around it, which a log axis
	// cannot show; widen it by a factor instead. Linear axes get a margin, so
	// that the outermost markers and error bars clear the frame.
	for _, a := range []*plot.Axis{&pl.X, &pl.Y} {
		if _, log := a.Scale.(plot.LogScale); log && a.Min == a.Max {
			a.Min, a.Max = a.Min/2, a.Max*2
		}
		padRange(a, axisMargin)
	}
	f := &Figure{plot: pl}
	f.setLegend(p.Legend, entries)
	return f, nil
}

// errorBars draws the confidence intervals of a series, with caps.
type errorBars struct {
	points []Point
	style  draw.LineStyle
}

func (e errorBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	half := vg.Points(errorCap) / 2
	for _, pt := range e.points {
		x, y := trX(pt.X), trY(pt.Y)
		if pt.YLow < pt.YHigh {
			lo, hi := trY(pt.YLow), trY(pt.YHigh)
			c.StrokeLines(e.style, c.ClipLinesXY(
				[]vg.Point{{X: x, Y: lo}, {X: x, Y: hi}},
				[]vg.Point{{X: x - half, Y: lo}, {X: x + half, Y: lo}},
				[]vg.Point{{X: x - half, Y: hi}, {X: x + half, Y: hi}},
			)...)
		}
		if pt.XLow < pt.XHigh {
			lo, hi := trX(pt.XLow), trX(pt.XHigh)
			c.StrokeLines(e.style, c.ClipLinesXY(
				[]vg.Point{{X: lo, Y: y}, {X: hi, Y: y}},
				[]vg.Point{{X: lo, Y: y - half}, {X: lo, Y: y + half}},
				[]vg.Point{{X: hi, Y: y - half}, {X: hi, Y: y + half}},
			)...)
		}
	}
}

// DataRange makes the axes include the intervals.
func (e errorBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, pt := range e.points {
		xmin, xmax = math.Min(xmin, pt.X), math.Max(xmax, pt.X)
		ymin, ymax = math.Min(ymin, pt.Y), math.Max(ymax, pt.Y)
		if pt.XLow < pt.XHigh {
			xmin, xmax = math.Min(xmin, pt.XLow), math.Max(xmax, pt.XHigh)
		}
		if pt.YLow < pt.YHigh {
			ymin, ymax = math.Min(ymin, pt.YLow), math.Max(ymax, pt.YHigh)
		}
	}
	return xmin, xmax, ymin, ymax
}

// diagonal draws y = x across the part of the data area where both fit;
// it does not widen the axes.
type diagonal struct{ style draw.LineStyle }

func (d diagonal) Plot(c draw.Canvas, p *plot.Plot) {
	lo, hi := math.Max(p.X.Min, p.Y.Min), math.Min(p.X.Max, p.Y.Max)
	if lo >= hi {
		return
	}
	trX, trY := p.Transforms(&c)
	c.StrokeLines(d.style, c.ClipLinesXY([]vg.Point{{X: trX(lo), Y: trY(lo)}, {X: trX(hi), Y: trY(hi)}})...)
}

func (d diagonal) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(d.style, c.Min.X, y, c.Max.X, y)
}

// hollowGlyph is the mark of a hollow point: a circle in the series' colour,
// larger than the filled marks, with a white middle that hides the line.
func hollowGlyph(c color.Color) draw.GlyphStyle {
	return draw.GlyphStyle{Color: c, Radius: vg.Points(hollowRadius), Shape: hollowMark{}}
}

// hollowMark draws a white disc inside a ring.
type hollowMark struct{}

func (hollowMark) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	var circle vg.Path
	circle.Move(vg.Point{X: pt.X + sty.Radius, Y: pt.Y})
	circle.Arc(pt, sty.Radius, 0, 2*math.Pi)
	circle.Close()
	c.SetColor(color.White)
	c.Fill(circle)
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(lineWidth)})
	c.Stroke(circle)
}

// hollowThumb is the legend's mark for hollow points, in grey.
type hollowThumb struct{}

func (hollowThumb) Thumbnail(c *draw.Canvas) {
	hollowMark{}.DrawGlyph(c, hollowGlyph(idealColor), c.Center())
}
