package datasets

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

//go:embed experiments/*.yaml
var experimentFiles embed.FS

//go:embed results/*.csv results/README.md
var resultFiles embed.FS

// ExperimentNames lists the experiment specs behind the notebooks' figures.
func ExperimentNames() []string { return specNames(experimentFiles, "experiments") }

// Experiment returns an experiment spec's YAML by name, e.g. "3dt-configurations", and the
// file name to report errors against.
func Experiment(name string) (file string, yaml []byte, err error) {
	return readSpec(experimentFiles, "experiments", name, "experiment")
}

// Result returns a file of stored full-run results, e.g. "summary.csv" or
// "saturation.csv" (see results/README.md).
func Result(file string) ([]byte, error) {
	return readResult(resultFiles, "results", file, "stored result")
}

// SummaryFiles are the stored summary tables of the open-loop experiments: the
// experiments of issues 1-9 in summary.csv, adaptive routing (issue 11) in
// adaptive-summary.csv and, added later, one file per experiment: adaptive routing's
// (issue 11) selection-functions-* and adaptive-vs-3d, the C-switch and KNS papers' (issue 14; KNS at 64K nodes in the kns-64k-* files), issue
// 12's (5DT vs 3D) extoll-summary.csv, ndt-fig6-summary.csv and ndt-fig6-8k-summary.csv, the KNS hot-spot runs
// with spread hot PEs and the twisted tori's escape-return runs (issue 38), the twisted
// tori's 2D patterns and every selection-function curve and mD torus of paper (b) re-run
// around its knee with the stationarity check (issue 38), and the twisted tori's larger runs (issue 13) in
// twisted-summary.csv, our side of the BookSim2 grid (issue 41) in booksim-summary.csv,
// and the dragonfly, HyperX and Slim Fly papers' claims and the 1,024-PE comparison of
// today's topologies (issue 42) in modern-claims-summary.csv, modern-1k-summary.csv and
// modern-16k-summary.csv,
// each with its records file (see results/README.md).
var SummaryFiles = []string{"summary.csv", "adaptive-summary.csv",
	"selection-functions-5dt-summary.csv", "adaptive-vs-3d-summary.csv", "selection-functions-b1-summary.csv", "selection-functions-b1-options-summary.csv",
	"selection-functions-128-summary.csv", "selection-functions-512-summary.csv", "selection-functions-1024-summary.csv",
	"selection-functions-64-summary.csv", "selection-functions-128-zipf-summary.csv", "selection-functions-256-summary.csv",
	"selection-functions-512-zipf-summary.csv", "selection-functions-1024-zipf-summary.csv", "selection-functions-2048-summary.csv",
	"adaptive-vs-md-checked-summary.csv", "adaptive-vs-3d-checked-summary.csv",
	"cswitch-1024-summary.csv", "cswitch-joining-summary.csv", "kns-256-summary.csv", "kns-256-torus-summary.csv",
	"cswitch-4096-summary.csv", "cswitch-joining-4096-summary.csv", "cswitch-bbmin-summary.csv",
	"cswitch-bbmin-classes-summary.csv", "cswitch-bbmin-joining-summary.csv",
	"kns-256-hotspot-summary.csv", "kns-256-hotspot-torus-summary.csv",
	"kns-256-hotspot-spread-summary.csv", "kns-256-hotspot-spread-torus-summary.csv", "twisted-return-2d-summary.csv", "twisted-return-2d-unchecked-summary.csv",
	"twisted-patterns-2d-summary.csv", "kns-4k-summary.csv",
	"kns-4k-permutations-summary.csv", "kns-4k-more-summary.csv", "kns-4k-torus-summary.csv",
	"kns-4k-more-permutations-summary.csv", "kns-4k-torus-permutations-summary.csv",
	"extoll-summary.csv", "ndt-fig6-summary.csv", "ndt-fig6-8k-summary.csv", "twisted-summary.csv",
	"kns-64k-summary.csv", "kns-64k-torus-summary.csv", "kns-64k-4i-summary.csv", "kns-64k-big-summary.csv",
	"kns-64k-base-summary.csv", "kns-64k-torus-base-summary.csv", "kns-64k-dims-summary.csv",
	"kns-64k-dims-torus-summary.csv", "kns-64k-permutations-summary.csv", "kns-64k-torus-permutations-summary.csv",
	"kns-64k-mesh-summary.csv", "booksim-summary.csv", "modern-claims-summary.csv", "modern-1k-summary.csv", "modern-16k-summary.csv"}

// specNames lists the specs (NAME.yaml) in directory dir of fsys.
func specNames(fsys embed.FS, dir string) []string {
	entries, _ := fs.ReadDir(fsys, dir)
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(names)
	return names
}

// readSpec reads spec NAME.yaml of directory dir of fsys (a kind of spec, for the
// error that lists what there is), and the file name to report errors against.
func readSpec(fsys embed.FS, dir, name, kind string) (file string, yaml []byte, err error) {
	file = "datasets/" + dir + "/" + name + ".yaml"
	yaml, err = fsys.ReadFile(dir + "/" + name + ".yaml")
	if err != nil {
		return "", nil, fmt.Errorf("no %s %q: accepted are %s", kind, name, strings.Join(specNames(fsys, dir), ", "))
	}
	return file, yaml, nil
}

// readResult reads file of directory dir of fsys, or says which files there are.
func readResult(fsys embed.FS, dir, file, kind string) ([]byte, error) {
	b, err := fsys.ReadFile(dir + "/" + file)
	if err != nil {
		entries, _ := fs.ReadDir(fsys, dir)
		var have []string
		for _, e := range entries {
			have = append(have, e.Name())
		}
		return nil, fmt.Errorf("no %s %q: have %s", kind, file, strings.Join(have, ", "))
	}
	return b, nil
}
