// Package notebooks holds twintorus's Jupyter notebooks (*.ipynb) and the tests that
// guard them: as committed, each is executed, error-free, under 2 MB, with one copy of
// the embedded ECharts script and, in every cell, the interactive charts its metadata
// declares ("twintorus": {"charts": N}); exported to HTML, each draws them in headless
// Chromium with no network request; and in a live Jupyter started as `make run` does,
// each draws them when opened and again after Run All (TestLiveNotebooks, which also
// checks completion in a cell and that a panicking cell stops Run All).
//
// Running the notebooks themselves is scripts/run-notebooks.sh's job (make
// notebooks); the package has no Go API.
package notebooks
