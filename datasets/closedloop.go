package datasets

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

// Closed-loop experiments (workload axes: collectives, traces, proxies) and their
// stored full runs, kept apart from the open-loop ones so that each kind's tools read
// only their own.

//go:embed workloads/*.yaml
var closedLoopFiles embed.FS

//go:embed results/workloads/*.csv results/workloads/README.md
var closedLoopResults embed.FS

// ClosedLoopExperimentNames lists the closed-loop experiment specs, e.g. "collectives".
func ClosedLoopExperimentNames() []string {
	entries, _ := fs.ReadDir(closedLoopFiles, "workloads")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(names)
	return names
}

// ClosedLoopExperiment returns a closed-loop experiment spec's YAML by name and the
// file name to report errors against.
func ClosedLoopExperiment(name string) (file string, yaml []byte, err error) {
	file = "datasets/workloads/" + name + ".yaml"
	yaml, err = closedLoopFiles.ReadFile("workloads/" + name + ".yaml")
	if err != nil {
		return "", nil, fmt.Errorf("no closed-loop experiment %q: accepted are %s", name, strings.Join(ClosedLoopExperimentNames(), ", "))
	}
	return file, yaml, nil
}

// ClosedLoopResult returns a file of the stored closed-loop runs, e.g.
// "collectives-summary.csv" (see results/workloads/README.md).
func ClosedLoopResult(file string) ([]byte, error) {
	b, err := closedLoopResults.ReadFile("results/workloads/" + file)
	if err != nil {
		entries, _ := fs.ReadDir(closedLoopResults, "results/workloads")
		var have []string
		for _, e := range entries {
			have = append(have, e.Name())
		}
		return nil, fmt.Errorf("no stored closed-loop result %q: have %s", file, strings.Join(have, ", "))
	}
	return b, nil
}
