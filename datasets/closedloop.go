package datasets

import "embed"

// Closed-loop experiments (workload axes: collectives, traces, proxies) and their
// stored full runs, kept apart from the open-loop ones so that each kind's tools read
// only their own.

//go:embed workloads/*.yaml
var closedLoopFiles embed.FS

//go:embed results/workloads/*.csv results/workloads/README.md
var closedLoopResults embed.FS

// ClosedLoopExperimentNames lists the closed-loop experiment specs, e.g. "collectives".
func ClosedLoopExperimentNames() []string { return specNames(closedLoopFiles, "workloads") }

// ClosedLoopExperiment returns a closed-loop experiment spec's YAML by name and the
// file name to report errors against.
func ClosedLoopExperiment(name string) (file string, yaml []byte, err error) {
	return readSpec(closedLoopFiles, "workloads", name, "closed-loop experiment")
}

// ClosedLoopResult returns a file of the stored closed-loop runs, e.g.
// "collectives-summary.csv" (see results/workloads/README.md).
func ClosedLoopResult(file string) ([]byte, error) {
	return readResult(closedLoopResults, "results/workloads", file, "stored closed-loop result")
}
