package plots

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot/cmpimg"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// checkGolden compares got with testdata/name, or rewrites it with -update.
// Images are compared by cmpimg, which decodes PNGs (so encoder details do
// not matter); everything else must match byte for byte.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./plots -update to create it)", err)
	}
	var same bool
	switch ext := filepath.Ext(name)[1:]; ext {
	case "png", "svg":
		same, err = cmpimg.Equal(ext, got, want)
		if err != nil {
			t.Fatalf("compare %s: %v", name, err)
		}
	default:
		same = bytes.Equal(got, want)
	}
	if !same {
		out := filepath.Join(t.TempDir(), name)
		if dir := os.Getenv("PLOTS_FAILED_DIR"); dir != "" {
			out = filepath.Join(dir, name)
		}
		_ = os.WriteFile(out, got, 0o644)
		t.Errorf("%s differs from its golden file; got written to %s (set PLOTS_FAILED_DIR to keep it; -update accepts it)", name, out)
	}
}
