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
func ExperimentNames() []string {
	entries, _ := fs.ReadDir(experimentFiles, "experiments")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(names)
	return names
}

// Experiment returns an experiment spec's YAML by name, e.g. "3dt-configurations", and the
// file name to report errors against.
func Experiment(name string) (file string, yaml []byte, err error) {
	file = "datasets/experiments/" + name + ".yaml"
	yaml, err = experimentFiles.ReadFile("experiments/" + name + ".yaml")
	if err != nil {
		return "", nil, fmt.Errorf("no experiment %q: accepted are %s", name, strings.Join(ExperimentNames(), ", "))
	}
	return file, yaml, nil
}

// Result returns a file of stored full-run results, e.g. "summary.csv" or
// "saturation.csv" (see results/README.md).
func Result(file string) ([]byte, error) {
	b, err := resultFiles.ReadFile("results/" + file)
	if err != nil {
		entries, _ := fs.ReadDir(resultFiles, "results")
		var have []string
		for _, e := range entries {
			have = append(have, e.Name())
		}
		return nil, fmt.Errorf("no stored result %q: have %s", file, strings.Join(have, ", "))
	}
	return b, nil
}
