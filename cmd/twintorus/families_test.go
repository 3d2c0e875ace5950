package main

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

var updateDocs = flag.Bool("update", false, "rewrite docs/families.md")

// docs/families.md is what `twintorus families --markdown` prints from the tables.
func TestFamiliesDoc(t *testing.T) {
	var want bytes.Buffer
	if err := writeFamiliesMarkdown(&want); err != nil {
		t.Fatal(err)
	}
	const path = "../../docs/families.md"
	if *updateDocs {
		if err := os.WriteFile(path, want.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want.Bytes()) {
		t.Errorf("docs/families.md is not current (%v): run go test ./cmd/twintorus -run TestFamiliesDoc -update", err)
	}
	out, _, err := run(t, "families")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range topology.Families() {
		if !strings.Contains(out, f.Syntax) || !strings.Contains(want.String(), "`"+f.Syntax+"`") {
			t.Errorf("families lacks %s", f.Name)
		}
	}
}
