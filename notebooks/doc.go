// Package notebooks holds twintorus's Jupyter notebooks (*.ipynb) and the tests that
// guard them as committed: each is executed, error-free, under 2 MB, with one copy
// of the embedded ECharts script, and each renders its interactive charts in
// headless Chromium with no network request once exported to HTML.
//
// Running the notebooks themselves is scripts/run-notebooks.sh's job (make
// notebooks); the package has no Go API.
package notebooks
