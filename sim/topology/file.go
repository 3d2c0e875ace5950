package topology

import (
	"fmt"
	"strings"
)

// FamilyFile names a network stored in the JSON form of WriteJSON.
const FamilyFile Family = "file"

// fileFamily reads a network from a JSON file (WriteJSON's form): a network built in
// one notebook, reused in another or on the command line.
func fileFamily() FamilyDef {
	return FamilyDef{
		Name:    FamilyFile,
		Summary: "a network saved as JSON (Network.WriteJSON); a bare PATH.json also works",
		Syntax:  "file:PATH",
		Parse:   func(body string) (Spec, error) { return parsePath(FamilyFile, body) },
		Format:  func(s Spec) string { return s.Path },
		Build:   func(s Spec) (*Network, error) { return ReadJSONFile(s.Path) },
	}
}

// parsePath reads the PATH of a file family's spec.
func parsePath(f Family, body string) (Spec, error) {
	path := strings.TrimSpace(body)
	if path == "" {
		return Spec{}, fmt.Errorf("no file; write %s:PATH, e.g. %s:net.json", f, f)
	}
	return Spec{Family: f, Path: path}, nil
}
