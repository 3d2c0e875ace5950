package main

import (
	"testing"

	"github.com/twintorus/twintorus/internal/version"
)

// TestVersion: `twintorus version` and `twintorus --version` both print the module
// version with the revision, as internal/version has it.
func TestVersion(t *testing.T) {
	want := "twintorus " + version.String() + "\n"
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, errOut, err := run(t, args...)
		if err != nil || out != want || errOut != "" {
			t.Errorf("twintorus %v = %q (stderr %q, %v), want %q", args, out, errOut, err, want)
		}
	}
	if _, _, err := run(t, "version", "extra"); err == nil {
		t.Error("twintorus version extra: no error")
	}
}
