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

// setLegend places the named entries as the options say.
func (f *Figure) setLegend(place LegendPlace, entries []entry) {
	l := plot.NewLegend()
	l.TextStyle = f.plot.Legend.TextStyle
	l.ThumbnailWidth = f.plot.Legend.ThumbnailWidth
	for _, e := range entries {
		if e.name != "" {
			l.Add(e.name, e.thumbs...)
		}
	}
	if place == LegendHidden || l.Rectangle(draw.Canvas{}).Size().Y == 0 {
		return
	}
	if place == LegendInside {
		l.Top, l.Left = true, true
		l.XOffs, l.YOffs = vg.Points(6), vg.Points(-6)
		f.plot.Legend = l
		return
	}
	f.side = legendPanel{l}
}

// legendPanel draws a legend right of the data area, top-aligned with it.
type legendPanel struct{ l plot.Legend }

func (p legendPanel) width() vg.Length {
	r := p.l.Rectangle(draw.Canvas{})
	return r.Size().X + 2*sidePadding
}

func (p legendPanel) draw(c draw.Canvas, data vg.Rectangle) {
	p.l.Top, p.l.Left = true, true
	c.Min.X += sidePadding
	c.Max.Y = data.Max.Y
	p.l.Draw(c)
}
