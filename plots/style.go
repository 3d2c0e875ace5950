package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Color names an entry of the palette: the Okabe–Ito colours, which stay
// distinguishable for colour-blind readers. Their yellow is left out: it
// is unreadable as a line on white.
type Color int

// The palette, in the order series receive it. Zero means automatic.
const (
	Blue Color = iota + 1
	Vermillion
	Green
	Purple
	Orange
	SkyBlue
	Black
)

var palette = [...]color.NRGBA{
	{0x00, 0x72, 0xb2, 0xff}, // blue
	{0xd5, 0x5e, 0x00, 0xff}, // vermillion
	{0x00, 0x9e, 0x73, 0xff}, // bluish green
	{0xcc, 0x79, 0xa7, 0xff}, // reddish purple
	{0xe6, 0x9f, 0x00, 0xff}, // orange
	{0x56, 0xb4, 0xe9, 0xff}, // sky blue
	{0x00, 0x00, 0x00, 0xff}, // black
}

// Dash names a line pattern. Zero means automatic.
type Dash int

// Line patterns, in the order series receive them once colours run out.
const (
	Solid Dash = iota + 1
	Dashed
	Dotted
)

var dashes = [...][]vg.Length{
	nil,
	{vg.Points(5), vg.Points(3)},
	{vg.Points(1.2), vg.Points(2)},
}

// Echarts names of the dashes, in the same order.
var echartsDashes = [...]string{"solid", "dashed", "dotted"}

// Glyphs cycle with a period (8) coprime to the palette's (7), so series
// differ by marker shape as well as colour. None is a circle outline: a ring is
// the mark of a point whose window was not stationary (hollowGlyph), so the fifth
// series takes a diamond outline instead.
var glyphs = [...]draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{},
	diamondGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.PlusGlyph{},
}

// Echarts symbols drawing the same marks as the glyphs, in the same order:
// filled circle, square outline, triangle outline, ×, diamond outline, filled
// square, filled triangle, +. ECharts has no × or +; they are given as filled
// outlines (a 10×10 path, scaled to the symbol size).
var echartsSymbols = [...]string{
	"circle", "emptyRect", "emptyTriangle",
	"path://M1.5,0L5,3.5L8.5,0L10,1.5L6.5,5L10,8.5L8.5,10L5,6.5L1.5,10L0,8.5L3.5,5L0,1.5Z",
	"emptyDiamond", "rect", "triangle",
	"path://M4,0H6V4H10V6H6V10H4V6H0V4H4Z",
}

// diamondGlyph is a diamond outline as wide and tall as a ring of the same radius
// is, a little larger so that it reads as a diamond at marker size.
type diamondGlyph struct{}

func (diamondGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius * 1.3
	var p vg.Path
	p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - r, Y: pt.Y})
	p.Close()
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(0.5)})
	c.Stroke(p)
}

// look is the resolved style of series i.
type look struct {
	color color.NRGBA
	dash  int // index into dashes
	glyph int // index into glyphs
}

// lookOf gives series i a colour by position, then a dash once the colours
// have all been used, so up to 21 series differ in colour or dash.
func lookOf(i int, s Series) look {
	l := look{
		color: palette[i%len(palette)],
		dash:  (i / len(palette)) % len(dashes),
		glyph: i % len(glyphs),
	}
	if s.Color > 0 {
		l.color = palette[s.Color-1]
	}
	if s.Dash > 0 {
		l.dash = int(s.Dash) - 1
	}
	return l
}

// hexColor formats a colour for ECharts.
func hexColor(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// Sizes in points. PNGs are rasterised at 96 dpi, where a point is 4/3 of a
// CSS pixel, so inline PNGs show text at the size a browser would.
const (
	pngDPI       = 96
	titleSize    = 12
	labelSize    = 11
	tickSize     = 9.5
	legendSize   = 9.5
	lineWidth    = 1.5
	glyphRadius  = 2.5
	hollowRadius = 3.5 // a hollow point's ring (Point.Hollow)
	errorWidth   = 1
	errorCap     = 4
	gridWidth    = 0.5
	sidePadding  = 8
	colorBarSide = 12
	margin       = 5 // around the whole figure
	titleGap     = 8 // between the title and the plot
	axisMargin   = 0.04
)

var (
	gridColor  = color.NRGBA{0xdd, 0xdd, 0xdd, 0xff}
	idealColor = color.NRGBA{0x80, 0x80, 0x80, 0xff}
)

// Liberation Sans ships with gonum/plot; sans-serif reads better at small
// sizes than the default serif.
func sans(size vg.Length) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
}

// viridis is a perceptually uniform, colour-blind safe sequential map,
// given by nine evenly spaced samples.
var viridis = [...]color.NRGBA{
	{0x44, 0x01, 0x54, 0xff}, {0x47, 0x2d, 0x7b, 0xff}, {0x3b, 0x52, 0x8b, 0xff},
	{0x2c, 0x72, 0x8e, 0xff}, {0x21, 0x91, 0x8c, 0xff}, {0x28, 0xae, 0x80, 0xff},
	{0x5e, 0xc9, 0x62, 0xff}, {0xad, 0xdc, 0x30, 0xff}, {0xfd, 0xe7, 0x25, 0xff},
}

// colorAt maps v in [lo, hi] (clamped) to the colour map.
func colorAt(v, lo, hi float64) color.NRGBA { return ramp(viridis[:], v, lo, hi) }

// ramp maps v in [lo, hi] (clamped) to a colour map given by evenly spaced samples,
// interpolating between them.
func ramp(m []color.NRGBA, v, lo, hi float64) color.NRGBA {
	if !(hi > lo) || math.IsNaN(v) {
		return m[0]
	}
	t := (v - lo) / (hi - lo)
	t = math.Max(0, math.Min(1, t)) * float64(len(m)-1)
	i := int(t)
	if i == len(m)-1 {
		return m[i]
	}
	f := t - float64(i)
	a, b := m[i], m[i+1]
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + f*(float64(y)-float64(x)))) }
	return color.NRGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}
}
