package datasets

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
)

// The BookSim2 reference runs (booksim/README.md): their results and the
// configurations they ran.
//
//go:embed booksim/results.csv booksim/configs/*.cfg booksim/configs/*.anynet booksim/README.md
var bookSimFiles embed.FS

// BookSimResults returns booksim/results.csv: one row per BookSim2 run of the grid.
func BookSimResults() ([]byte, error) { return bookSimFiles.ReadFile("booksim/results.csv") }

// BookSimConfig returns the BookSim2 configuration file NAME.cfg of the grid, e.g.
// "torus88", and its path in the repository for errors.
func BookSimConfig(name string) (file string, data []byte, err error) {
	data, err = bookSimFiles.ReadFile("booksim/configs/" + name + ".cfg")
	if err != nil {
		return "", nil, fmt.Errorf("no BookSim2 configuration %q: accepted are %s", name, strings.Join(BookSimConfigs(), ", "))
	}
	return "datasets/booksim/configs/" + name + ".cfg", data, nil
}

// BookSimConfigs lists the grid's configurations by name.
func BookSimConfigs() []string {
	entries, _ := fs.ReadDir(bookSimFiles, "booksim/configs")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".cfg"))
	}
	return names
}

// BookSimNetworkFile returns a network file of the grid's anynet configurations, by
// its name in configs/, e.g. "cswitch43.anynet".
func BookSimNetworkFile(name string) ([]byte, error) {
	return bookSimFiles.ReadFile("booksim/configs/" + name)
}
