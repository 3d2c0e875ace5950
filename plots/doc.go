// Package plots draws the figures of twintorus notebooks and papers.
//
// It owns the look of every figure: the kinds of chart the papers use
// (latency or accepted traffic against load, bar charts of path counts,
// heatmaps of channel utilisation), one palette and style, and the two
// outputs of each kind:
//
//   - static figures made with gonum.org/v1/plot, written as PNG (inline
//     display), SVG or PDF (papers): see [Figure];
//   - interactive charts made with go-echarts, written as HTML that carries
//     its own copy of the ECharts script, so they work with no network in a
//     notebook and in exported HTML: see [Chart].
//
// A network with a value per channel (its load) is a [NetworkPlot]: nodes at positions
// the caller chooses and channels as paths coloured and sized by value (package
// netdraw lays twintorus' networks out); [Beside] puts several on one scale.
//
// A chart is described once, as a [LinePlot], [BarPlot] or [HeatmapPlot]
// holding plain data, and rendered with its Figure or Chart method:
//
//	p := plots.LinePlot{Options: plots.Options{XLabel: "offered load", YLabel: "accepted"},
//		Series: series, Diagonal: true}
//	fig, err := p.Figure()             // then fig.PNG(plots.Width, plots.Height), fig.Save("f.pdf", w, h)
//	ch, err := p.Chart(plots.ChartWidth, plots.ChartHeight) // then ch.HTML()
//
// The package knows nothing about the simulator or the notebook kernel;
// callers turn their results into [Series], [BarGroup] or a grid of values,
// and pass the bytes or HTML to the kernel (with gonb: gonbui.DisplayPNG,
// gonbui.DisplayHTML).
//
// Bad input (no data, NaN, mismatched lengths, an unknown file extension)
// is reported as an error, never as a panic.
//
// Tests compare every kind of output with golden files in testdata/;
// `go test ./plots -update` rewrites them after an intended change. They also
// check the layout of every kind of figure, as a reader sees it: the charts in
// headless Chromium from ECharts' own layout, the static figures on a canvas that
// records each string's box; no text may be clipped, cross another text or a
// paper's mark, or write a number with a fraction past four significant digits
// (the rules of package plots/layout). Every rendering of a Figure records its text
// the same way, so Figure.Problems says what a drawn figure breaks of those rules
// (kernel.Show reports it under the figure in a notebook).
package plots
