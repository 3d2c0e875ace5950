package nb

import (
	"github.com/twintorus/twintorus/figures"
	"github.com/twintorus/twintorus/kernel"
	"github.com/twintorus/twintorus/plots"
)

// The display vocabulary of kernel and figures, so that a cell needs one import. Each
// is the function it names; their documentation says more.

// Show shows a plot as an interactive chart with its static figure inside, and fails
// the cell on err, so that one line plots: nb.Show(nb.Latency(res)). It is kernel.Show.
func Show(p kernel.Plot, err error) { kernel.Show(p, err) }

// ShowFigure shows only the static figure of a plot, as a paper prints it, and fails
// the cell on err: for a notebook's many figures, which would each carry an
// interactive chart otherwise. It is kernel.ShowFigure.
func ShowFigure(p kernel.Plot, err error) { kernel.ShowFigure(p, err) }

// Table shows headers and rows as a table (aligned text outside a notebook):
// nb.Table(nb.Saturation(res)). It is kernel.Table.
func Table(headers []string, rows [][]string) { kernel.Table(headers, rows) }

// Row formats values as a table row (kernel.Row).
func Row(values ...any) []string { return kernel.Row(values...) }

// PNG shows an encoded PNG image (kernel.PNG), e.g. a figure as a paper prints it.
func PNG(png []byte) { kernel.PNG(png) }

// HTML shows an HTML fragment (kernel.HTML), e.g. a chart's Fragment.
func HTML(html string) { kernel.HTML(html) }

// Latency is the papers' main figure of a sweep: network latency against accepted
// traffic, a curve per network and scheme, with 95 % confidence intervals, stopped at
// saturation (figures.Latency; its options choose curves, names and the title).
func Latency(src figures.Summarized, opts ...figures.Option) (plots.LinePlot, error) {
	return figures.Latency(src, opts...)
}

// Throughput is accepted traffic against offered load (figures.Throughput).
func Throughput(src figures.Summarized, opts ...figures.Option) (plots.LinePlot, error) {
	return figures.Throughput(src, opts...)
}

// Saturation is the table of each curve's saturation throughput, with its confidence
// interval and load (figures.SaturationTable), for Table.
func Saturation(src figures.Summarized) (headers []string, rows [][]string) {
	return figures.SaturationTable(src)
}

// Title sets a figure's title (figures.Title).
func Title(title string) figures.Option { return figures.Title(title) }
