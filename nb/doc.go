// Package nb is the notebook-facing face of twintorus: short, panicking forms of the
// library with the defaults a researcher expects, so that a cell reads like the
// experiment it runs. A sweep of two networks and its figure is three statements:
//
//	import "github.com/twintorus/twintorus/nb"
//
//	%%
//	res := nb.Sweep(nb.Nets("twin:4x4x4/D", "torus:16x8"))
//	nb.Table(nb.Saturation(res))
//	nb.Show(nb.Latency(res, nb.Title("128 PEs, uniform traffic")))
//
// It owns four things, and nothing else:
//
//   - Sweep (and Spec, the spec it runs), configured by Options: uniform traffic, a
//     load grid from 0.05 to 1 flits/cycle/PE stopped two loads past each curve's
//     saturation, each knee bisected twice, 3 replications, the model's engine
//     parameters, in a results store in the temporary directory that a re-run (of the
//     cell, or of any sweep sharing its points) finds and resumes, with a progress bar
//     in the notebook while it runs;
//   - Must forms of the calls cells make one at a time: Must, Must2 and Check for any
//     call returning an error (with Context for the calls that take one), and Net,
//     Distances, ChannelLoad, ChannelLoadOf, Point and Run for building a network, its
//     exact analysis and one simulation;
//   - the results of the project's stored experiments as the notebooks read them, in
//     the mode the environment chooses (the stored full runs; a quick run under
//     QUICK=1; a recomputation under RECOMPUTE=1): Results, FullResults,
//     StoredResults, ResultsShrunk, ClosedLoop and Loaded, with Mode and Quick, and
//     Claims, the claims registry's verdicts on a notebook's claims;
//   - the display vocabulary of package kernel and figures under one import: Show,
//     ShowFigure, ShowNetwork, Table, Row, PNG, HTML, Latency, Throughput, Saturation
//     and Title;
//   - Explore: controls (load, configuration A–J, routing, traffic) on a short
//     simulation of the 4×4×4 twin torus, redrawing its network and latency curve
//     (kernel.Explore with an Explorer).
//
// Bad input panics with the library's error, which says what was wrong and what is
// accepted, prefixed by the nb function that met it: in a notebook a panic fails the
// cell with that message, as an exception does in Python. Programs use the library
// underneath (sim/experiment, sim/analysis, figures, kernel), whose functions return
// their errors; nb adds no behaviour of its own to a run, so a sweep gives the same
// records, bit for bit, as the library's calls on the same spec.
//
// Outside a notebook (a test, `go run`) the display functions behave as kernel's do:
// tables print as aligned text, charts are not drawn, progress goes to stderr.
package nb
