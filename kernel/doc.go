// Package kernel owns the notebook side of twintorus: installing the "twintorus"
// Jupyter kernelspec (gonb, pinned in go.mod, pointed at this checkout so cells
// import the module offline) and the helpers cells call to show things inline.
//
// Cell helpers:
//   - HTML, PNG and SVG show content inline;
//   - Table shows headers and rows as an HTML table;
//   - NewProgress returns a bar updated in place, whose Update method has the
//     func(done, total int) shape of the experiment runner's progress callback.
//
// Outside a notebook (a test, `go run`) the helpers never fail: tables and progress
// become plain text, images and raw HTML are dropped. A Screen makes the choice
// explicit and lets tests record what would be shown.
//
// Install writes the kernelspec; cmd/twintorus exposes it as `twintorus kernel install`
// and scripts/setup.sh runs it after building gonb and goimports into bin/.
//
// The package does not simulate, plot or read results: plots renders figures and
// experiment runs sweeps; cells hand their output to these helpers.
package kernel
