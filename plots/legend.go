package plots

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// entry is one legend line: a name and what its data looks like.
type entry struct {
	name   string
	thumbs []plot.Thumbnailer
}

// Legend spacing, in points.
const (
	legendRowGap    = 2.5 // between entries
	legendColumnGap = 10  // between columns
)

// setLegend places the named entries as the options say.
func (f *Figure) setLegend(place LegendPlace, entries []entry) {
	var named []entry
	for _, e := range entries {
		if e.name != "" {
			named = append(named, e)
		}
	}
	if place == LegendHidden || len(named) == 0 {
		return
	}
	if place == LegendInside {
		l := f.newLegend(named)
		l.Top, l.Left = true, true
		l.XOffs, l.YOffs = vg.Points(6), vg.Points(-6)
		f.plot.Legend = l
		return
	}
	f.side = &legendPanel{f: f, entries: named}
}

func (f *Figure) newLegend(entries []entry) plot.Legend {
	l := plot.NewLegend()
	l.TextStyle = f.plot.Legend.TextStyle
	l.ThumbnailWidth = f.plot.Legend.ThumbnailWidth
	l.Padding = vg.Points(legendRowGap)
	for _, e := range entries {
		l.Add(e.name, e.thumbs...)
	}
	return l
}

// legendPanel draws a legend right of the data area, top-aligned with it, in as
// many columns as it needs to fit the data area's height: ten configurations and a
// reference torus never run off a short figure.
type legendPanel struct {
	f       *Figure
	entries []entry
}

// columns splits the entries into columns no taller than height.
func (p *legendPanel) columns(height vg.Length) []plot.Legend {
	one := p.f.newLegend(p.entries[:1])
	row := one.Rectangle(draw.Canvas{}).Size().Y + vg.Points(legendRowGap)
	perColumn := max(1, int(height/row))
	var cols []plot.Legend
	for start := 0; start < len(p.entries); start += perColumn {
		cols = append(cols, p.f.newLegend(p.entries[start:min(start+perColumn, len(p.entries))]))
	}
	return cols
}

// width is the panel's width in a figure whose data area is about height tall.
func (p *legendPanel) width(height vg.Length) vg.Length {
	w := vg.Length(2 * sidePadding)
	for i, l := range p.columns(height) {
		if i > 0 {
			w += vg.Points(legendColumnGap)
		}
		w += l.Rectangle(draw.Canvas{}).Size().X
	}
	return w
}

func (p *legendPanel) draw(c draw.Canvas, data vg.Rectangle) {
	x := c.Min.X + sidePadding
	for _, l := range p.columns(data.Max.Y - data.Min.Y) {
		l.Top, l.Left = true, true
		col := c
		col.Min.X, col.Max.Y = x, data.Max.Y
		l.Draw(col)
		x += l.Rectangle(draw.Canvas{}).Size().X + vg.Points(legendColumnGap)
	}
}
