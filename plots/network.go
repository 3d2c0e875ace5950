package plots

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// NetworkPlot draws a network with a value on each of its channels: switches as dots
// at given positions, every channel (one direction of a link) as a line whose colour
// and width say its value, e.g. its load in flits/cycle, with a colour bar for the
// scale. The caller lays the network out (package netdraw does it for twintorus'
// networks); the plot knows nothing of topologies.
//
// The two channels of a link are drawn side by side, each on the right of its
// direction of travel, so both loads show. A channel's path may have more than two
// points (an arc) and need not end at a node (a wraparound link drawn as a stub
// leaving the edge). Emphasised channels (a twin torus' internal links) are drawn
// with a dark casing, so they stand out whatever their value. There are no axes.
type NetworkPlot struct {
	Options
	Nodes    []NetworkNode
	Channels []NetworkChannel
	// Notes are texts placed in the drawing (the plane of a panel, a level's name).
	Notes []NetworkNote
	// NodeRadius is the dots' radius in the positions' units (0: 0.12).
	NodeRadius float64
	// Unit titles the colour bar, e.g. "load (flits/cycle)"; Max fixes its top
	// (values above are drawn in its colour); 0: the largest value. The bar starts
	// at 0.
	Unit string
	Max  float64
	// Groups names the node colours in the legend (Groups[i] for Color i+1);
	// Emphasis names the emphasised channels ("internal link"); Plain the others
	// when there is no value ("link"). Empty names are left out of the legend.
	Groups   []string
	Emphasis string
}

// NetworkNode is a switch: its position, a label beside it (may be empty), its
// colour (zero: dark grey).
type NetworkNode struct {
	X, Y  float64
	Label string
	Color Color
}

// NetworkChannel is one channel: its path from sender to receiver (at least two
// points), its value (NaN: none, drawn thin and grey) and whether it is emphasised.
type NetworkChannel struct {
	Path     []Pos
	Value    float64
	Emphasis bool
}

// Pos is a position.
type Pos struct{ X, Y float64 }

// NetworkNote is a text at a position: centred on it, or ending at it (Right, for
// names left of what they name). The drawing widens to keep notes inside.
type NetworkNote struct {
	X, Y  float64
	Text  string
	Right bool
}

func (p NetworkPlot) check() error {
	if len(p.Nodes) == 0 {
		return fmt.Errorf("plots: network %q has no nodes", p.Title)
	}
	for i, n := range p.Nodes {
		if !finite(n.X) || !finite(n.Y) {
			return fmt.Errorf("plots: network %q: node %d at (%v, %v)", p.Title, i, n.X, n.Y)
		}
		if n.Color < 0 || int(n.Color) > len(palette) {
			return fmt.Errorf("plots: network %q: node %d has colour %d; the palette has %d", p.Title, i, n.Color, len(palette))
		}
	}
	for i, c := range p.Channels {
		if len(c.Path) < 2 {
			return fmt.Errorf("plots: network %q: channel %d has %d points; a path needs 2 or more", p.Title, i, len(c.Path))
		}
		for _, q := range c.Path {
			if !finite(q.X) || !finite(q.Y) {
				return fmt.Errorf("plots: network %q: channel %d passes (%v, %v)", p.Title, i, q.X, q.Y)
			}
		}
		if c.Value < 0 || math.IsInf(c.Value, 0) {
			return fmt.Errorf("plots: network %q: channel %d has value %v; accepted are 0 or more, or NaN for none", p.Title, i, c.Value)
		}
	}
	if p.Max < 0 || math.IsNaN(p.Max) || math.IsInf(p.Max, 0) || p.NodeRadius < 0 || !finite(p.NodeRadius) {
		return fmt.Errorf("plots: network %q: scale top %v and node radius %v: accepted are 0 (automatic) or more", p.Title, p.Max, p.NodeRadius)
	}
	for i, n := range p.Notes {
		if !finite(n.X) || !finite(n.Y) {
			return fmt.Errorf("plots: network %q: note %d at (%v, %v)", p.Title, i, n.X, n.Y)
		}
	}
	return nil
}

// top is the top of the colour scale, 0 when no channel has a value.
func (p NetworkPlot) top() float64 {
	if p.Max > 0 {
		return p.Max
	}
	hi, any := 0.0, false
	for _, c := range p.Channels {
		if !math.IsNaN(c.Value) {
			hi, any = max(hi, c.Value), true
		}
	}
	if any && hi == 0 {
		hi = 1 // all idle: a scale to 1 shows it
	}
	return hi
}

// Channel widths in points, from an idle channel to one at the top of the scale, and
// the casing of emphasised ones on each side.
const (
	chanMinWidth = 0.6
	chanMaxWidth = 3.2
	chanNoValue  = 0.5
	chanCasing   = 0.9
)

var (
	noValueGrey = color.NRGBA{0xa0, 0xa0, 0xa0, 0xff}
	nodeGrey    = color.NRGBA{0x40, 0x40, 0x40, 0xff}
	casingColor = color.NRGBA{0x10, 0x10, 0x10, 0xff}
)

// loadRamp is the channels' colour map: light grey for an idle channel through
// yellow and orange to dark red at the top of the scale, so that idle channels
// recede on white paper and busy ones stand out (viridis, the heatmaps' map, is
// darkest at zero).
var loadRamp = [...]color.NRGBA{
	{0xd4, 0xd4, 0xd4, 0xff}, {0xfe, 0xd9, 0x76, 0xff}, {0xfd, 0x8d, 0x3c, 0xff},
	{0xe3, 0x1a, 0x1c, 0xff}, {0x80, 0x00, 0x26, 0xff},
}

// loadColor maps v in [lo, hi] (clamped) to loadRamp.
func loadColor(v, lo, hi float64) color.NRGBA {
	return ramp(loadRamp[:], v, lo, hi)
}

// Figure renders the network as a static figure. Draw it at the size Size gives for
// a width, so that lengths keep their proportions.
func (p NetworkPlot) Figure() (*Figure, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	pl := newPlot(p.Options)
	pl.HideAxes()
	r := p.NodeRadius
	if r == 0 {
		r = 0.12
	}
	hi := p.top()
	pl.Add(&networkDrawing{p: p, radius: r, hi: hi})
	xmin, xmax, ymin, ymax := p.extent()
	padBy := 2 * r
	pl.X.Min, pl.X.Max, pl.Y.Min, pl.Y.Max = xmin-padBy, xmax+padBy, ymin-padBy, ymax+padBy
	f := &Figure{plot: pl}
	f.fit = func(data vg.Rectangle) { p.fitNotes(pl, data) }
	var entries []entry
	for i, g := range p.Groups {
		if g != "" {
			entries = append(entries, entry{name: g, thumbs: []plot.Thumbnailer{nodeThumb{col: nodeColor(Color(i + 1))}}})
		}
	}
	if p.Emphasis != "" {
		col := color.Color(noValueGrey)
		if hi > 0 {
			col = loadColor(hi/2, 0, hi)
		}
		entries = append(entries, entry{name: p.Emphasis, thumbs: []plot.Thumbnailer{chanThumb{emphasis: true, col: col}}})
	}
	if hi > 0 || len(entries) > 0 {
		f.side = &networkSide{f: f, bar: hi > 0, hi: hi, label: p.Unit, entries: entries}
	}
	return f, nil
}

// fitNotes widens the x range so that every note's text stays inside the data area
// data (in points), whose width the x range maps onto.
func (p NetworkPlot) fitNotes(pl *plot.Plot, data vg.Rectangle) {
	st := noteStyle(pl)
	W := float64(data.Max.X - data.Min.X)
	for range 2 { // each widening moves the others a little
		for _, n := range p.Notes {
			w := float64(st.Width(n.Text)) + 2
			left, right := w/2, w/2 // points needed left and right of n.X
			if n.Right {
				left, right = w, 0
			}
			a, b := pl.X.Min, pl.X.Max
			if W <= left+right {
				continue
			}
			if (n.X-a)*W < left*(b-a) {
				a = (n.X*W - left*b) / (W - left)
			}
			if (b-n.X)*W < right*(b-a) {
				b = (n.X*W - right*a) / (W - right)
			}
			pl.X.Min, pl.X.Max = a, b
		}
	}
}

func noteStyle(pl *plot.Plot) draw.TextStyle {
	st := pl.Y.Tick.Label
	st.Font = sans(legendSize)
	st.XAlign, st.YAlign = draw.XCenter, draw.YCenter
	return st
}

// extent is the range the nodes, paths and notes span.
func (p NetworkPlot) extent() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin, xmax, ymax = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	add := func(x, y float64) {
		xmin, xmax, ymin, ymax = min(xmin, x), max(xmax, x), min(ymin, y), max(ymax, y)
	}
	for _, n := range p.Nodes {
		add(n.X, n.Y)
	}
	for _, c := range p.Channels {
		for _, q := range c.Path {
			add(q.X, q.Y)
		}
	}
	for _, n := range p.Notes {
		add(n.X, n.Y)
	}
	if xmax-xmin < 1 {
		xmin, xmax = xmin-0.5, xmax+0.5
	}
	if ymax-ymin < 1 {
		ymin, ymax = ymin-0.5, ymax+0.5
	}
	return
}

// Size is the size to draw the figure at, width wide: its height keeps the drawing's
// proportions, but is at least what the colour bar and legend need and what keeps the
// notes apart (a level's name from the next one's), and at most three times the width.
func (p NetworkPlot) Size(width vg.Length) (w, h vg.Length) {
	f, err := p.Figure()
	if err != nil {
		return width, width * 2 / 3
	}
	side := vg.Length(0)
	need := vg.Length(0) // the data area's least height
	if ns, ok := f.side.(*networkSide); ok {
		side = ns.width(width / 2)
		if ns.bar {
			need = 120
			if len(ns.entries) > 0 {
				need = 120/barShare + vg.Length(len(ns.entries))*14
			}
		} else {
			need = vg.Length(len(ns.entries)) * 14
		}
	}
	title := vg.Length(0)
	if p.Title != "" {
		title = vg.Points(titleSize + titleGap + 4)
	}
	xspan, yspan := f.plot.X.Max-f.plot.X.Min, f.plot.Y.Max-f.plot.Y.Min
	data := width - side - 2*margin
	// Notes on different rows must stand a line apart where their texts would overlap
	// side by side (a level's name and the next one's); notes far apart across the
	// drawing (a dragonfly's group names round a circle) need not.
	st := noteStyle(f.plot)
	scale := float64(data) / xspan // points per unit across
	span := func(n NetworkNote) (lo, hi float64) {
		w := float64(st.Width(n.Text)) + 2
		if n.Right {
			return n.X*scale - w, n.X * scale
		}
		return n.X*scale - w/2, n.X*scale + w/2
	}
	gap := math.Inf(1)
	for i, a := range p.Notes {
		alo, ahi := span(a)
		for _, b := range p.Notes[i+1:] {
			blo, bhi := span(b)
			if d := math.Abs(a.Y - b.Y); d > 0 && alo < bhi && blo < ahi {
				gap = min(gap, d)
			}
		}
	}
	if !math.IsInf(gap, 1) {
		need = max(need, vg.Length(yspan/gap)*vg.Points(legendSize+4))
	}
	h = max(data*vg.Length(yspan/xspan), need) + title + 2*margin
	return width, min(h, 3*width)
}

func nodeColor(c Color) color.Color {
	if c == 0 {
		return nodeGrey
	}
	return palette[c-1]
}

// networkDrawing is the plotter that draws the channels, nodes and notes.
type networkDrawing struct {
	p      NetworkPlot
	radius float64
	hi     float64
	top    vg.Length // the widest channel, at the top of the scale (set by Plot)
}

func (d *networkDrawing) width(v float64) vg.Length {
	if math.IsNaN(v) {
		return vg.Points(chanNoValue)
	}
	t := 0.0
	if d.hi > 0 {
		t = math.Min(1, v/d.hi)
	}
	lo := min(vg.Points(chanMinWidth), d.top/3)
	return lo + vg.Length(t)*(d.top-lo)
}

func (d *networkDrawing) Plot(c draw.Canvas, pl *plot.Plot) {
	trX, trY := pl.Transforms(&c)
	// The widest channel is a sixth of the median channel's length (or of the node
	// spacing, for stubs), up to chanMaxWidth: dense drawings get thin lines.
	lengths := make([]float64, 0, len(d.p.Channels))
	for _, ch := range d.p.Channels {
		a, b := ch.Path[0], ch.Path[len(ch.Path)-1]
		lengths = append(lengths, math.Hypot(float64(trX(a.X)-trX(b.X)), float64(trY(a.Y)-trY(b.Y))))
	}
	d.top = vg.Points(chanMaxWidth)
	if len(lengths) > 0 {
		sort.Float64s(lengths)
		d.top = max(vg.Points(0.8), min(d.top, vg.Length(lengths[len(lengths)/2]/6)))
	}
	// Channels in order of value, so the busiest are on top; emphasised ones after the
	// others of the same value.
	order := make([]int, len(d.p.Channels))
	for i := range order {
		order[i] = i
	}
	key := func(i int) float64 {
		v := d.p.Channels[i].Value
		if math.IsNaN(v) {
			return -1
		}
		return v
	}
	sort.SliceStable(order, func(a, b int) bool {
		ka, kb := key(order[a]), key(order[b])
		if ka != kb {
			return ka < kb
		}
		return !d.p.Channels[order[a]].Emphasis && d.p.Channels[order[b]].Emphasis
	})
	pts := make([]vg.Point, 0, 16)
	for _, i := range order {
		ch := d.p.Channels[i]
		w := d.width(ch.Value)
		pts = pts[:0]
		for _, q := range ch.Path {
			pts = append(pts, vg.Point{X: trX(q.X), Y: trY(q.Y)})
		}
		shift(pts, w/2+vg.Points(0.3))
		col := color.Color(noValueGrey)
		if !math.IsNaN(ch.Value) {
			col = loadColor(ch.Value, 0, d.hi)
		}
		if ch.Emphasis {
			c.StrokeLines(draw.LineStyle{Color: casingColor, Width: w + 2*vg.Points(chanCasing)}, pts)
		}
		c.StrokeLines(draw.LineStyle{Color: col, Width: w}, pts)
	}
	rad := max(vg.Points(1), min(vg.Points(5), trX(d.radius)-trX(0)))
	for _, n := range d.p.Nodes {
		pt := vg.Point{X: trX(n.X), Y: trY(n.Y)}
		c.DrawGlyphNoClip(draw.GlyphStyle{Color: nodeColor(n.Color), Radius: rad, Shape: draw.CircleGlyph{}}, pt)
	}
	st := pl.Y.Tick.Label
	st.Font = sans(tickSize)
	st.XAlign, st.YAlign = draw.XLeft, draw.YBottom
	for _, n := range d.p.Nodes {
		if n.Label != "" {
			c.FillText(st, vg.Point{X: trX(n.X) + rad + 1, Y: trY(n.Y) + rad/2}, n.Label)
		}
	}
	st = noteStyle(pl)
	for _, n := range d.p.Notes {
		s := st
		if n.Right {
			s.XAlign = draw.XRight
		}
		c.FillText(s, vg.Point{X: trX(n.X), Y: trY(n.Y)}, n.Text)
	}
}

// shift moves a path by off to the right of its direction of travel, segment by
// segment (joints take the mean of their segments' normals).
func shift(pts []vg.Point, off vg.Length) {
	n := len(pts)
	normals := make([]vg.Point, n-1)
	for i := 0; i+1 < n; i++ {
		dx, dy := float64(pts[i+1].X-pts[i].X), float64(pts[i+1].Y-pts[i].Y)
		l := math.Hypot(dx, dy)
		if l > 0 {
			normals[i] = vg.Point{X: vg.Length(dy / l), Y: vg.Length(-dx / l)}
		}
	}
	for i := range pts {
		var nx, ny vg.Length
		switch {
		case i == 0:
			nx, ny = normals[0].X, normals[0].Y
		case i == n-1:
			nx, ny = normals[n-2].X, normals[n-2].Y
		default:
			nx, ny = (normals[i-1].X+normals[i].X)/2, (normals[i-1].Y+normals[i].Y)/2
		}
		pts[i].X += nx * off
		pts[i].Y += ny * off
	}
}

func (d *networkDrawing) DataRange() (xmin, xmax, ymin, ymax float64) {
	return d.p.extent()
}

// nodeThumb and chanThumb draw the legend's samples.
type nodeThumb struct{ col color.Color }

func (t nodeThumb) Thumbnail(c *draw.Canvas) {
	mid := vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: (c.Min.Y + c.Max.Y) / 2}
	c.DrawGlyphNoClip(draw.GlyphStyle{Color: t.col, Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}, mid)
}

type chanThumb struct {
	emphasis bool
	col      color.Color
}

func (t chanThumb) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	line := []vg.Point{{X: c.Min.X, Y: y}, {X: c.Max.X, Y: y}}
	w := vg.Points((chanMinWidth + chanMaxWidth) / 2)
	if t.emphasis {
		c.StrokeLines(draw.LineStyle{Color: casingColor, Width: w + 2*vg.Points(chanCasing)}, line)
	}
	c.StrokeLines(draw.LineStyle{Color: t.col, Width: w}, line)
}

// networkSide is the panel right of the drawing: the colour bar of the channels'
// values, and under it the legend of node colours and emphasised channels.
type networkSide struct {
	f       *Figure
	bar     bool
	hi      float64
	label   string
	entries []entry
}

// barShare is the share of the data area's height the colour bar takes when a legend
// is under it.
const barShare = 0.6

func (s *networkSide) colorBar() colorBar {
	return colorBar{lo: 0, hi: s.hi, ticks: s.f.plot.Y.Tick.Label, title: s.f.plot.Y.Label.TextStyle, label: s.label, colors: loadColor}
}

func (s *networkSide) legend() *legendPanel {
	if len(s.entries) == 0 {
		return nil
	}
	return &legendPanel{f: s.f, entries: s.entries}
}

func (s *networkSide) width(height vg.Length) vg.Length {
	w := vg.Length(0)
	if s.bar {
		w = s.colorBar().width(height)
	}
	if l := s.legend(); l != nil {
		w = max(w, l.width(height*(1-barShare)))
	}
	return w
}

func (s *networkSide) draw(c draw.Canvas, data vg.Rectangle) {
	l := s.legend()
	if s.bar {
		bar := data
		if l != nil {
			bar.Min.Y = data.Max.Y - (data.Max.Y-data.Min.Y)*barShare
		}
		s.colorBar().draw(c, bar)
		data.Max.Y = bar.Min.Y - vg.Points(16)
	}
	if l != nil {
		l.draw(c, data)
	}
}

// Beside puts drawings side by side, left to right, as one: each keeps its title as a
// note above it, and all share one colour scale (the largest top of theirs), so that
// loads compare at a glance. Legend entries are the first drawing's.
func Beside(title string, ps ...NetworkPlot) (NetworkPlot, error) {
	if len(ps) == 0 {
		return NetworkPlot{}, fmt.Errorf("plots: Beside needs at least one network")
	}
	out := NetworkPlot{Options: Options{Title: title}, Unit: ps[0].Unit, Groups: ps[0].Groups, NodeRadius: ps[0].NodeRadius}
	x := 0.0
	for _, p := range ps {
		if err := p.check(); err != nil {
			return NetworkPlot{}, err
		}
		out.Max = max(out.Max, p.top())
		if out.Emphasis == "" {
			out.Emphasis = p.Emphasis
		}
		xmin, xmax, _, ymax := p.extent()
		dx := x - xmin

		for _, n := range p.Nodes {
			n.X += dx
			out.Nodes = append(out.Nodes, n)
		}
		for _, c := range p.Channels {
			path := make([]Pos, len(c.Path))
			for j, q := range c.Path {
				path[j] = Pos{X: q.X + dx, Y: q.Y}
			}
			c.Path = path
			out.Channels = append(out.Channels, c)
		}
		for _, n := range p.Notes {
			n.X += dx
			out.Notes = append(out.Notes, n)
		}
		if p.Title != "" {
			out.Notes = append(out.Notes, NetworkNote{X: (xmin+xmax)/2 + dx, Y: ymax + 1, Text: p.Title})
		}
		x += xmax - xmin + 2
	}
	return out, nil
}
