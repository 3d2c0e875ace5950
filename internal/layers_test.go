// Package internal_test checks the module's layering: the packages under internal/ are
// small libraries every layer may use (random streams, an event heap, memory limits,
// the version, test waits, user files, the OTF2 converter), so they import nothing
// above sim/. Programs and test rigs live with the programs (tools/, cmd/).
package internal_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/twintorus/twintorus/"

func TestInternalImportsNothingAboveSim(t *testing.T) {
	goCmd := os.Getenv("GO")
	if goCmd == "" {
		goCmd = "go"
	}
	out, err := exec.Command(goCmd, "list", "-deps", "-f", "{{.ImportPath}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	checked := 0
	for _, pkg := range strings.Fields(string(out)) {
		if !strings.HasPrefix(pkg, module+"internal/") {
			continue
		}
		checked++
		deps, err := exec.Command(goCmd, "list", "-deps", "-f", "{{.ImportPath}}", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(deps)) {
			rel, ours := strings.CutPrefix(dep, module)
			if ours && !strings.HasPrefix(rel, "internal/") && !strings.HasPrefix(rel, "sim/") {
				t.Errorf("%s imports %s, above sim/: a program or test rig belongs under tools/ or cmd/", strings.TrimPrefix(pkg, module), rel)
			}
		}
	}
	if checked < 5 {
		t.Errorf("found %d packages under internal/; the listing is wrong", checked)
	}
}
