// Package kernel owns the notebook side of twintorus: installing the "twintorus"
// Jupyter kernelspec (gonb, pinned in go.mod, run behind the relay of package
// kernel/relay so that failing cells fail, with cells importing the module offline
// from the checkout the notebook is in) and the helpers cells call to show things
// inline.
//
// Cell helpers:
//   - Show shows a plot as an interactive chart with its static figure inside (one call
//     from results: kernel.Show(figures.Latency(res))), ShowFigure the static figure
//     alone;
//   - ShowNetwork shows a drawing of a network (netdraw.Draw) at its own proportions,
//     ShowNetworkFrames a run's frames with a slider;
//   - Explore shows controls (gonb's widgets: sliders, drop-downs) and what a function
//     draws for their picks, redrawn at every move while the cell runs; a static
//     picture where no browser builds the controls;
//   - HTML, PNG and SVG show content inline;
//   - Table shows headers and rows as an HTML table;
//   - NewProgress returns a bar updated in place, whose Update method has the
//     func(done, total int) shape of the experiment runner's progress callback.
//
// Every display waits until gonb has read what the program printed before it and has
// taken the display itself, so outputs keep program order and none is lost when the
// program exits (see docs/architecture.md).
//
// Outside a notebook (a test, `go run`) the helpers never fail: tables and progress
// become plain text, images and raw HTML are dropped (Show and ShowFigure fail only on
// the error they are given). A Screen makes the choice explicit and lets tests record
// what would be shown.
//
// Install writes the kernelspec; cmd/twintorus exposes it as `twintorus kernel install`
// and scripts/setup.sh runs it after building gonb, goimports, gopls and twintorus into
// bin/. There is one kernelspec per user, but it does not tie notebooks to the
// checkout that installed it last: ServedFor picks, for the directory a kernel starts
// in (its notebook's), the checkout around it and that checkout's own bin/ tools, and
// the installing checkout only for notebooks outside every checkout; the relay
// command applies it (Environ) and `twintorus kernel which` reports it. Package
// jupytertest sets the same up privately for tests, and browsertest drives Chromium.
//
// The package does not simulate, plot or read results: plots renders figures and
// experiment runs sweeps; cells hand their output to these helpers (Explore takes
// the function that simulates and draws: nb.Explore gives it one).
package kernel
