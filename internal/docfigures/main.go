// Command docfigures draws the README's figures from the stored full runs in
// datasets/results (never from a quick run), into docs/figures:
//
//	go run ./internal/docfigures [-out docs/figures]
//
// Run it after the stored results change (make docfigures).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/twintorus/twintorus/figures"
	"github.com/twintorus/twintorus/sim/experiment"
)

func main() {
	out := flag.String("out", filepath.Join("docs", "figures"), "directory for the figures")
	flag.Parse()
	if err := draw(*out); err != nil {
		fmt.Fprintln(os.Stderr, "docfigures:", err)
		os.Exit(1)
	}
}

func draw(dir string) error {
	res, err := figures.LoadResults(context.Background(), "3dt-configurations", figures.Stored, nil)
	if err != nil {
		return err
	}
	lp, err := figures.Latency(res, figures.Deadlock("bubble"), figures.Only(func(s experiment.Summary) bool {
		return strings.Contains(s.Point.Topology, "4x4x4") || s.Point.Topology == "torus:16x8"
	}), figures.Title("3DT 4x4x4 (128 PEs), the ten configurations, uniform traffic, bubble"))
	if err != nil {
		return err
	}
	fig, err := lp.Figure()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return fig.Save(filepath.Join(dir, "3dt-configurations-128.png"), 600, 340)
}
