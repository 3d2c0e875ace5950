package plots

import (
	"bytes"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Options are the parts every kind of plot shares.
type Options struct {
	Title  string
	XLabel string
	YLabel string
	Legend LegendPlace
}

// LegendPlace says where the legend goes.
type LegendPlace int

const (
	// LegendRight puts the legend outside the data area, on the right, so
	// it never hides data (ten configurations need room).
	LegendRight LegendPlace = iota
	// LegendInside puts it in the top-left corner of the data area, which
	// load curves leave empty (latency is flat at low load, and accepted
	// traffic stays under y = x).
	LegendInside
	// LegendHidden draws no legend.
	LegendHidden
)

// Default figure size (vg.Length is in points): 600×400 pixels as PNG.
const (
	Width  vg.Length = 450
	Height vg.Length = 300
)

// Figure is a static figure ready to be written as PNG, SVG or PDF.
type Figure struct {
	plot *plot.Plot
	// side is drawn right of the plot, aligned with its data area: an
	// outside legend or a colour bar. Nil for none.
	side sidePanel
	// title is the title as set, before fitTitle broke or shrank it for a size.
	title string
	// labels are the axes' labels as set, before fitLabels broke them for a size;
	// nil until the first drawing.
	labels *[2]string
	// fit, when set, adjusts the plot to the width of its data area before it is
	// drawn (a bar chart's upright labels); nil for none.
	fit func(data vg.Rectangle)
	// text records the strings of the last drawing and where they went, on a
	// textWidth × textHeight figure (Layout).
	text                  *textCanvas
	textWidth, textHeight vg.Length
}

type sidePanel interface {
	// width is the panel's width beside a data area about height tall.
	width(height vg.Length) vg.Length
	draw(c draw.Canvas, data vg.Rectangle)
}

// Plot gives access to the underlying gonum plot, to adjust what the
// options do not cover (e.g. axis ranges).
func (f *Figure) Plot() *plot.Plot { return f.plot }

// PNG renders the figure at 96 dpi: w×h points make w×h×4/3 pixels.
func (f *Figure) PNG(w, h vg.Length) ([]byte, error) {
	return f.render("png", w, h)
}

// SVG renders the figure as SVG; text refers to the Liberation Sans font
// by name rather than embedding it, which keeps files small.
func (f *Figure) SVG(w, h vg.Length) ([]byte, error) {
	return f.render("svg", w, h)
}

// PDF renders the figure as PDF with its fonts embedded, for papers.
func (f *Figure) PDF(w, h vg.Length) ([]byte, error) {
	return f.render("pdf", w, h)
}

// Save writes the figure to path, in the format its extension names
// (.png, .svg or .pdf).
func (f *Figure) Save(path string, w, h vg.Length) error {
	format := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	b, err := f.render(format, w, h)
	if err != nil {
		return fmt.Errorf("plots: save %s: %w", path, err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("plots: save figure: %w", err)
	}
	return nil
}

func (f *Figure) render(format string, w, h vg.Length) (out []byte, err error) {
	if f == nil || f.plot == nil {
		return nil, fmt.Errorf("plots: render %s: nil figure", format)
	}
	if !(w > 0 && h > 0) {
		return nil, fmt.Errorf("plots: render %s: size %v×%v is not positive", format, w, h)
	}
	var c vg.CanvasWriterTo
	switch format {
	case "png":
		img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(pngDPI))
		c = vgimg.PngCanvas{Canvas: img}
	case "svg":
		c = vgsvg.New(w, h)
	case "pdf":
		c = vgpdf.New(w, h)
	default:
		return nil, fmt.Errorf("plots: unknown figure format %q (want png, svg or pdf)", format)
	}
	// gonum/plot panics on some input its API lets through (e.g. a log
	// axis made to start at zero through Plot()); callers get an error.
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("plots: render %s: %v", format, r)
		}
	}()
	f.draw(draw.NewCanvas(f.recorder(c, w, h), w, h))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plots: write %s: %w", format, err)
	}
	return buf.Bytes(), nil
}

// draw lays out the plot and, right of it, the side panel, inside a margin that
// keeps the title and the last tick label off the edges.
func (f *Figure) draw(c draw.Canvas) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	c = draw.Crop(c, vg.Points(margin), -vg.Points(margin), vg.Points(margin), -vg.Points(margin))
	if f.side == nil {
		f.fitTitle(c.Size().X)
		f.fitData(c)
		f.plot.Draw(c)
		return
	}
	data := f.plot.DataCanvas(c).Rectangle
	w := f.side.width(data.Max.Y - data.Min.Y)
	f.fitTitle(c.Size().X - w)
	main := draw.Crop(c, 0, -w, 0, 0)
	f.fitData(main)
	f.plot.Draw(main)
	side := draw.Crop(c, c.Size().X-w, 0, 0, 0)
	f.side.draw(side, f.plot.DataCanvas(main).Rectangle)
}

// fitTitle fits the title to the width it is centred on (the plot's, left of a side
// panel): a title wider than that would be cut at both ends ("Jniform traffic…"). It
// breaks at spaces into two lines, then shrinks, down to minTitleScale of its size;
// past that it takes as many lines as it needs.
func (f *Figure) fitTitle(width vg.Length) {
	if f.title == "" {
		f.title = f.plot.Title.Text
	}
	st := &f.plot.Title.TextStyle
	st.Font.Size = vg.Points(titleSize)
	f.plot.Title.Text = f.title
	if f.title == "" || st.Width(f.title) <= width {
		return
	}
	for _, scale := range []vg.Length{1, 0.9, minTitleScale} {
		st.Font.Size = vg.Points(titleSize) * scale
		lines := breakLines(*st, f.title, width)
		if len(lines) <= 2 || scale == minTitleScale {
			f.plot.Title.Text = strings.Join(lines, "\n")
			return
		}
	}
}

// minTitleScale is the smallest share of its size a title shrinks to.
const minTitleScale = 0.8

// breakLines breaks s at spaces into lines no wider than width where the words
// allow; a word wider than width breaks after a ':' or '/' in it (a spec such as
// "alltoall:pairwise:512B" is one word), and a part wider than that keeps a line of
// its own.
func breakLines(st text.Style, s string, width vg.Length) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		parts := []string{word}
		if st.Width(word) > width {
			parts = splitAfterAny(word, ":/")
		}
		for i, w := range parts {
			sep := " "
			if i > 0 {
				sep = ""
			}
			switch {
			case line == "":
				line = w
			case st.Width(line+sep+w) <= width:
				line += sep + w
			default:
				lines = append(lines, line)
				line = w
			}
		}
	}
	return append(lines, line)
}

// splitAfterAny splits s after each of the characters in chars.
func splitAfterAny(s, chars string) []string {
	var parts []string
	for {
		i := strings.IndexAny(s, chars)
		if i < 0 || i == len(s)-1 {
			return append(parts, s)
		}
		parts = append(parts, s[:i+1])
		s = s[i+1:]
	}
}

// fitData fits the ticks, and what fit adjusts, to the data area the plot has on c.
func (f *Figure) fitData(c draw.Canvas) {
	f.fitLabels(f.plot.DataCanvas(c).Rectangle, c.Rectangle)
	if f.fit != nil {
		f.fit(f.plot.DataCanvas(c).Rectangle)
	}
	f.fitTicks(f.plot.DataCanvas(c).Rectangle)
}

// fitLabels breaks an axis label into lines, as fitTitle does a title, where it would
// not fit: the x axis' label, centred under the data area, may span as far as the
// figure (all of it, c) lets it on both sides (centred under a narrow plot beside a
// long legend, "accepted traffic (flits/cycle/node)" ran off the figure); the y
// axis' label spans the data area's height at most (the title is above it).
func (f *Figure) fitLabels(data, c vg.Rectangle) {
	if f.labels == nil {
		f.labels = &[2]string{f.plot.X.Label.Text, f.plot.Y.Label.Text}
	}
	mid := (data.Min.X + data.Max.X) / 2
	for i, a := range []struct {
		axis   *plot.Axis
		length vg.Length
	}{{&f.plot.X, 2 * min(mid-c.Min.X, c.Max.X-mid)}, {&f.plot.Y, data.Max.Y - data.Min.Y}} {
		l := &a.axis.Label
		l.Text = f.labels[i]
		if l.Text != "" && l.TextStyle.Width(l.Text) > a.length {
			l.Text = strings.Join(breakLines(l.TextStyle, l.Text, a.length), "\n")
		}
	}
}

// Room per labelled tick, in points: about what matplotlib leaves.
const (
	xTickRoom = 50
	yTickRoom = 30
)

// fitTicks sets how many round ticks the axes aim for from the size of the data
// area, as matplotlib does: more on a wide figure, fewer on a small one. Tickers set
// through Plot are left alone.
func (f *Figure) fitTicks(data vg.Rectangle) {
	if _, ok := f.plot.X.Tick.Marker.(roundTicks); ok {
		width := data.Max.X - data.Min.X
		target := max(4, int(width/vg.Points(xTickRoom)))
		// Fewer where the labels would still run into each other (wide numbers on a
		// narrow plot beside a long legend: "500" over "1000").
		for target > 2 && !ticksFit(f.plot.X, roundTicks{target: target}, width) {
			target--
		}
		f.plot.X.Tick.Marker = roundTicks{target: target}
	}
	if _, ok := f.plot.Y.Tick.Marker.(roundTicks); ok {
		f.plot.Y.Tick.Marker = roundTicks{target: max(4, int((data.Max.Y-data.Min.Y)/vg.Points(yTickRoom)))}
	}
}

// ticksFit reports whether the labels of ticks on axis a, width long, stand apart by
// labelSpace at least.
func ticksFit(a plot.Axis, ticks roundTicks, width vg.Length) bool {
	if !(a.Max > a.Min) {
		return true
	}
	var prevX, prevW vg.Length
	first := true
	for _, t := range ticks.Ticks(a.Min, a.Max) {
		if t.Label == "" || t.Value < a.Min || t.Value > a.Max {
			continue
		}
		x := width * vg.Length((t.Value-a.Min)/(a.Max-a.Min))
		w := a.Tick.Label.Width(t.Label)
		if !first && x-prevX < (w+prevW)/2+vg.Points(labelSpace) {
			return false
		}
		prevX, prevW, first = x, w, false
	}
	return true
}

// newPlot returns a plot in the package style.
func newPlot(o Options) *plot.Plot {
	p := plot.New()
	p.Title.Text = o.Title
	p.Title.TextStyle.Font = sans(titleSize)
	p.Title.Padding = vg.Points(titleGap)
	p.X.Label.Text = o.XLabel
	p.Y.Label.Text = o.YLabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = sans(labelSize)
		a.Label.Padding = vg.Points(4)
		a.Tick.Label.Font = sans(tickSize)
		a.Tick.Length = vg.Points(4)
		a.Padding = vg.Points(2)
	}
	p.X.Tick.Marker = roundTicks{target: 6}
	p.Y.Tick.Marker = roundTicks{target: 5}
	p.Legend.TextStyle.Font = sans(legendSize)
	p.Legend.ThumbnailWidth = vg.Points(22)
	return p
}

// grid returns light grid lines to draw under the data; bar charts need
// only the horizontal ones.
func grid(vertical bool) *plotter.Grid {
	g := plotter.NewGrid()
	g.Horizontal = draw.LineStyle{Color: gridColor, Width: gridWidth}
	if vertical {
		g.Vertical = g.Horizontal
	} else {
		g.Vertical = draw.LineStyle{}
	}
	return g
}
