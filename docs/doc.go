// Package docs holds the project's documentation pages; its test checks that they
// stand alone. In README.md, BENCHMARKS.md, docs/*.md and the markdown cells of
// notebooks/*.ipynb, every relative link (and image) must lead to a file or directory
// of the repository, every anchor of a link to a markdown page must name one of its
// headings, every backquoted repository path must exist, and nothing may cite the
// development notes kept beside the checkout, which are not part of the repository
// (the model and architecture notes, the reference specs, the shared directory).
// links_test.go states the rules precisely.
//
// The pages: model.md (the simulation model and its defaults), references.md (the
// source papers, their citation keys and the claim labels), traces.md (closed-loop
// workloads and the trace format), families.md (generated: network families, routings,
// selection functions), booksim.md (BookSim2 configuration files, key by key) and
// architecture.md (design decisions).
package docs
