package datasets

import (
	"fmt"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/experiment"
)

// Every embedded experiment spec is valid: it parses and every point builds, with the
// 3DT papers' 30 replications for theirs and at least 3 for the others.
func TestExperimentsValid(t *testing.T) {
	names := ExperimentNames()
	if len(names) < 2 {
		t.Fatalf("experiments: %v", names)
	}
	for _, n := range names {
		file, b, err := Experiment(n)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := experiment.ParseSpec(file, b) // validates: every point builds
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		// The papers use 30 replications; a spec with fewer says how many and why.
		noun := "replications"
		if spec.Seeds == 1 {
			noun = "replication"
		}
		want := fmt.Sprintf("%d %s per point (the papers use 30)", spec.Seeds, noun)
		if spec.Seeds != 30 && !strings.Contains(strings.Join(strings.Fields(string(b)), " "), want) {
			t.Errorf("%s: %d replications; the papers use 30 (a spec with fewer must say %q and why)", n, spec.Seeds, want)
		}
	}
	if _, _, err := Experiment("nope"); err == nil || !strings.Contains(err.Error(), "3dt-configurations") {
		t.Errorf("unknown experiment: %v", err)
	}
	if _, err := Result("nope.csv"); err == nil || !strings.Contains(err.Error(), "README.md") {
		t.Errorf("unknown result: %v", err)
	}
}
