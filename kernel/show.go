package kernel

import (
	"fmt"
	"os"
	"path/filepath"

	"gonum.org/v1/plot/vg"

	"github.com/twintorus/twintorus/plots"
)

// Plot is a figure with a static and an interactive rendering of the same data:
// plots.LinePlot, plots.BarPlot and plots.HeatmapPlot, and what the figures package
// makes of results.
type Plot interface {
	Figure() (*plots.Figure, error)
	Chart(width, height int) (*plots.Chart, error)
}

// Show shows p as an interactive chart (hover for values, click the legend to hide
// curves, drag to zoom), with the static figure inside it for wherever scripts do not
// run: a notebook that is not trusted, a PDF export, a site that strips scripts. The
// first chart a kernel shows carries the ECharts script (about 1 MB) for the whole
// notebook; restart the kernel and run all cells to put it back after clearing its
// output (ShowLibrary does it by hand).
//
// err is the error of the call that made p, so that one line plots a sweep:
//
//	kernel.Show(figures.Latency(res))
//
// A non-nil err, or a p that cannot be drawn, fails the cell with that error (Show
// panics, and the kernel reports the cell as failed). Outside a notebook Show draws
// nothing and fails only on a non-nil err. The explicit path is p.Figure, p.Chart and
// the HTML, PNG and SVG helpers.
func Show(p Plot, err error) { Default().Show(p, err) }

// ShowFigure shows only the static figure of p, as a PNG of plots.Width × plots.Height
// points: the figure as a paper would print it. err is as for Show.
func ShowFigure(p Plot, err error) { Default().ShowFigure(p, err) }

// ShowLibrary shows the ECharts script that interactive charts need, once more.
func ShowLibrary() { Default().HTML(plots.Library()) }

// Show is the package function Show on this screen.
func (s *Screen) Show(p Plot, err error) {
	if err != nil {
		panic(fmt.Errorf("kernel.Show: %w", err))
	}
	if s.Notebook == nil {
		return
	}
	png, err := s.staticPNG(p)
	if err != nil {
		panic(fmt.Errorf("kernel.Show: %w", err))
	}
	c, err := p.Chart(plots.ChartWidth, plots.ChartHeight)
	if err != nil {
		panic(fmt.Errorf("kernel.Show: %w", err))
	}
	html := c.WithFallback(png).Fragment()
	if s.firstChart() {
		html = plots.Library() + html
	}
	s.Notebook.DisplayChart(html, png)
}

// ShowFigure is the package function ShowFigure on this screen.
func (s *Screen) ShowFigure(p Plot, err error) {
	s.showPNG("ShowFigure", err, func() ([]byte, error) { return s.staticPNG(p) })
}

// showPNG is what the Show calls that display one picture share: a caller's error,
// or one in drawing, fails the cell (a panic naming the call); outside a notebook
// nothing is drawn.
func (s *Screen) showPNG(call string, err error, draw func() ([]byte, error)) {
	if err != nil {
		panic(fmt.Errorf("kernel.%s: %w", call, err))
	}
	if s.Notebook == nil {
		return
	}
	png, err := draw()
	if err != nil {
		panic(fmt.Errorf("kernel.%s: %w", call, err))
	}
	s.PNG(png)
}

// staticPNG draws p's static figure and says, one line each on the screen's status
// stream (the cell's stderr in a notebook), what of its text breaks the rules of a
// printed figure (plots.Figure.Problems: clipped, overlapping, over-precise): the
// figure is still shown, and the notebooks' tests fail on the line.
func (s *Screen) staticPNG(p Plot) ([]byte, error) {
	if p == nil {
		return nil, fmt.Errorf("no plot")
	}
	f, err := p.Figure()
	if err != nil {
		return nil, err
	}
	return s.figurePNG(f, plots.Width, plots.Height)
}

// figurePNG renders f at width × height and writes its layout problems, one line
// each, on the screen's status stream.
func (s *Screen) figurePNG(f *plots.Figure, width, height vg.Length) ([]byte, error) {
	png, err := f.PNG(width, height)
	if err != nil {
		return nil, err
	}
	w := s.Status
	if w == nil {
		w = os.Stderr
	}
	for _, pr := range f.Problems() {
		fmt.Fprintf(w, "%s %s\n", LayoutWarning, pr)
	}
	return png, nil
}

// LayoutWarning begins the line Show writes under a static figure whose text is
// clipped, overlaps or is over-precise.
const LayoutWarning = "figure layout:"

// firstChart reports whether this is the first chart shown since the kernel started,
// and remembers that it no longer is. A screen with a Library field decides by it;
// the default screen keeps a marker file in gonb's working directory for the kernel
// ($GONB_TMP_DIR), which lives as long as the kernel and goes with it.
func (s *Screen) firstChart() bool {
	if s.Library != nil {
		return s.Library()
	}
	dir := os.Getenv("GONB_TMP_DIR")
	if dir == "" {
		return true
	}
	f, err := os.OpenFile(filepath.Join(dir, "twintorus-echarts-shown"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return !os.IsExist(err)
	}
	_ = f.Close()
	return true
}
