package plots

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// BarPlot is a grouped bar chart: one cluster per category (e.g. the
// configurations A–J), one bar or marker per group (e.g. ours and the
// paper's).
type BarPlot struct {
	Options
	Categories []string
	Groups     []BarGroup
	// Labels writes each bar's value above it.
	Labels bool
}

// Share of a category's width taken by its cluster of bars.
const clusterWidth = 0.8

// labelGap is the space under a bar's value label, in points.
const labelGap = 2.5

// Figure renders the plot as a static figure.
func (p BarPlot) Figure() (*Figure, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	pl := newPlot(p.Options)
	pl.Add(grid(false))
	pl.NominalX(p.Categories...)
	b := &bars{groups: p.Groups, labels: p.Labels, text: pl.Y.Tick.Label}
	b.text.XAlign, b.text.YAlign = draw.XCenter, draw.YBottom
	var entries []entry
	for i, g := range p.Groups {
		b.styles = append(b.styles, barStyle(i, p.Groups))
		entries = append(entries, entry{g.Name, []plot.Thumbnailer{b.styles[i]}})
	}
	pl.Add(b)
	padRange(&pl.Y, axisMargin) // bars start at zero, which stays the axis' end
	f := &Figure{plot: pl, fit: func(data vg.Rectangle) { b.fit(pl, p.Categories, data.Max.X-data.Min.X) }}
	f.setLegend(p.Legend, entries)
	return f, nil
}

// fit turns text that does not fit across its room upright, for a data area width
// wide: category names that would run into their neighbours' ("allgather ring" over
// "allgather linear") break at spaces into two lines, or where that is not enough
// stand along the axis, reading upwards; and
// bar labels that do not fit over their bars even shortened and shrunk (fitLabel)
// stand along their bars. matplotlib users rotate such labels by hand; here the figure
// does it when, and only when, its size needs it.
func (b *bars) fit(pl *plot.Plot, categories []string, width vg.Length) {
	room := width / vg.Length(max(len(categories), 1))
	tick := &pl.X.Tick.Label
	tick.Rotation, tick.XAlign, tick.YAlign = 0, draw.XCenter, draw.YTop
	// Names as they are, else broken at spaces into two lines at most, else upright.
	fits := func(names []string) bool {
		width := func(s string) (w vg.Length) {
			for _, line := range strings.Split(s, "\n") {
				w = max(w, tick.Width(line))
			}
			return w
		}
		for i := 1; i < len(names); i++ { // neighbours' names, centred room apart
			if (width(names[i-1])+width(names[i]))/2+vg.Points(labelSpace) > room {
				return false
			}
		}
		return true
	}
	names := categories
	if !fits(names) {
		broken := make([]string, len(categories))
		for i, c := range categories {
			lines := breakLines(*tick, c, room-vg.Points(labelSpace))
			if len(lines) > 2 {
				lines = []string{c}
			}
			broken[i] = strings.Join(lines, "\n")
		}
		names = broken
		if !fits(names) {
			names = categories
			tick.Rotation, tick.XAlign, tick.YAlign = math.Pi/2, draw.XRight, draw.YCenter
		}
	}
	ticks := make(plot.ConstantTicks, len(names))
	for i, n := range names {
		ticks[i] = plot.Tick{Value: float64(i), Label: n}
	}
	pl.X.Tick.Marker = ticks
	b.upright = false
	barRoom := vg.Length(clusterWidth)*room/vg.Length(max(b.nBars(), 1)) - vg.Points(labelSpace)
	for _, g := range b.groups {
		for _, v := range g.Values {
			if g.Marker || math.IsNaN(v) || !b.labels {
				continue
			}
			if st, s := fitLabel(b.text, v, barRoom); st.Width(s) > barRoom {
				b.upright = true
			}
		}
	}
}

// barStyle gives bar groups the palette in order and marker groups the
// palette backwards, so a single marker group (a paper's values) is black.
func barStyle(i int, groups []BarGroup) barLook {
	nth := 0
	for _, g := range groups[:i] {
		if g.Marker == groups[i].Marker {
			nth++
		}
	}
	if groups[i].Marker {
		return barLook{color: palette[len(palette)-1-nth%len(palette)], marker: true}
	}
	return barLook{color: palette[nth%len(palette)]}
}

type barLook struct {
	color  color.NRGBA
	marker bool
}

func (l barLook) Thumbnail(c *draw.Canvas) {
	if l.marker {
		y := c.Center().Y
		c.StrokeLine2(markerStyle(l.color), c.Min.X, y, c.Max.X, y)
		return
	}
	r := c.Rectangle
	c.FillPolygon(l.color, []vg.Point{r.Min, {X: r.Min.X, Y: r.Max.Y}, r.Max, {X: r.Max.X, Y: r.Min.Y}})
}

func markerStyle(c color.Color) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: vg.Points(2.5)}
}

// bars draws every group; category i is centred on x = i.
type bars struct {
	groups []BarGroup
	styles []barLook
	labels bool
	text   text.Style
	// upright stands every label along its bar, reading upwards (fit).
	upright bool
}

func (b bars) nBars() int {
	n := 0
	for _, g := range b.groups {
		if !g.Marker {
			n++
		}
	}
	return n
}

func (b bars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	cluster := vg.Length(clusterWidth) * (trX(1) - trX(0))
	width := cluster / vg.Length(max(b.nBars(), 1))
	zero := trY(0)
	for i := range b.groups[0].Values {
		left := trX(float64(i)) - cluster/2
		for j, g := range b.groups {
			v := g.Values[i]
			if g.Marker {
				if !math.IsNaN(v) {
					y := trY(v)
					c.StrokeLines(markerStyle(b.styles[j].color), c.ClipLinesXY([]vg.Point{{X: trX(float64(i)) - cluster/2, Y: y}, {X: trX(float64(i)) + cluster/2, Y: y}})...)
				}
				continue
			}
			if math.IsNaN(v) { // no bar: the category has no such value
				left += width
				continue
			}
			top := trY(v)
			c.FillPolygon(b.styles[j].color, c.ClipPolygonXY([]vg.Point{
				{X: left, Y: zero}, {X: left, Y: top}, {X: left + width, Y: top}, {X: left + width, Y: zero},
			}))
			if b.labels {
				st, s := fitLabel(b.text, v, width-vg.Points(labelSpace))
				if b.upright {
					st, s = b.uprightText(v < 0), label(v)
				}
				y := labelY(st, s, top, v < 0, b.markers(i, trY))
				c.FillText(labelPlace(st, v < 0), vg.Point{X: left + width/2, Y: y}, s)
			}
			left += width
		}
	}
}

// markers are the heights of category i's markers on the canvas.
func (b bars) markers(i int, trY func(float64) vg.Length) []vg.Length {
	var ys []vg.Length
	for _, m := range b.groups {
		if m.Marker && !math.IsNaN(m.Values[i]) {
			ys = append(ys, trY(m.Values[i]))
		}
	}
	return ys
}

// labelPlace aligns a bar's label: above the end of a bar that rises, below the end
// of one that falls (a negative value), so the label reads as that bar's.
func labelPlace(st text.Style, down bool) text.Style {
	if down && st.Rotation == 0 {
		st.YAlign = draw.YTop
	}
	return st
}

// uprightText is the style of a label standing along its bar: rotated a quarter
// turn, starting at the end of a bar that rises and ending at the end of one that
// falls.
func (b bars) uprightText(down bool) text.Style {
	st := b.text
	st.Rotation, st.XAlign, st.YAlign = math.Pi/2, draw.XLeft, draw.YCenter
	if down {
		st.XAlign = draw.XRight
	}
	return st
}

// labelHeight is how far a label reaches along its bar: its height, or its width
// when it stands upright.
func labelHeight(st text.Style, s string) vg.Length {
	r := st.Rectangle(s)
	return r.Max.Y - r.Min.Y
}

// labelY is where a bar's label stands: labelGap past the bar's end (top), moved past
// a marker of the same category only where the marker would cross the label (a mark
// on the other side of the bar, or far beyond its label, leaves it in place).
func labelY(st text.Style, s string, top vg.Length, down bool, marks []vg.Length) vg.Length {
	gap, h, line := vg.Points(labelGap), labelHeight(st, s), vg.Points(1.25)
	if !down {
		y := top + gap
		for _, m := range marks {
			if m >= top-line && m <= y+h {
				y = max(y, m+line+gap)
			}
		}
		return y
	}
	y := top - gap
	for _, m := range marks {
		if m <= top+line && m >= y-h {
			y = min(y, m-line-gap)
		}
	}
	return y
}

// DataRange spans every category and always includes zero, where bars start.
func (b bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	ymin, ymax = 0, 0
	for _, g := range b.groups {
		for _, v := range g.Values {
			if !math.IsNaN(v) {
				ymin, ymax = math.Min(ymin, v), math.Max(ymax, v)
			}
		}
	}
	return -0.5, float64(len(b.groups[0].Values)) - 0.5, ymin, ymax
}

// GlyphBoxes reserve room above the bars for their labels.
func (b bars) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	if !b.labels {
		return nil
	}
	var boxes []plot.GlyphBox
	for _, g := range b.groups {
		if g.Marker {
			continue
		}
		for i, v := range g.Values {
			if math.IsNaN(v) {
				continue
			}
			st := b.text
			if b.upright {
				st = b.uprightText(v < 0)
			}
			r := st.Rectangle(label(v))
			if b.upright { // the box stands on (or hangs from) the bar's end
				h := r.Max.Y - r.Min.Y
				r.Min.Y, r.Max.Y = 0, h
			}
			if v < 0 { // the label hangs below the bar's end
				h := r.Max.Y - r.Min.Y
				r.Min.Y, r.Max.Y = -h-vg.Points(labelGap+2), -vg.Points(labelGap+2)
			} else {
				r.Min.Y, r.Max.Y = r.Min.Y+vg.Points(labelGap+2), r.Max.Y+vg.Points(labelGap+2)
			}
			boxes = append(boxes, plot.GlyphBox{X: p.X.Norm(float64(i)), Y: p.Y.Norm(v), Rectangle: r})
		}
	}
	return boxes
}

func label(v float64) string { return fmt.Sprintf("%.4g", v) }

// labelSpace is the least space between the labels of neighbouring bars, in points.
const labelSpace = 4

// minLabelScale is the smallest share of the tick labels' size a bar's label shrinks to.
const minLabelScale = 0.6

// fitLabel gives the style and text of value v's label over a bar room wide. Labels
// wider than their bar would run into their neighbours' (two close values in a
// narrow cluster), so a label that does not fit loses its fourth significant digit
// and then shrinks, down to minLabelScale of the tick labels' size; past that it is
// drawn at that size however wide (the value stays legible, and the table beside a
// figure has every digit).
func fitLabel(st text.Style, v float64, room vg.Length) (text.Style, string) {
	s := label(v)
	if st.Width(s) <= room {
		return st, s
	}
	if short := fmt.Sprintf("%.3g", v); !strings.Contains(short, "e") {
		s = short
	}
	if w := st.Width(s); w > room {
		st.Font.Size = max(st.Font.Size*room/w, st.Font.Size*minLabelScale)
	}
	return st, s
}
