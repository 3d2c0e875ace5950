// Command claims evaluates the claims registry (datasets/claims) on the stored full
// runs and prints the verdicts.
//
//	go run ./tools/claims                      # every claim, as a text table
//	go run ./tools/claims -paper ext           # one paper's claims ([EXT] or ext)
//	go run ./tools/claims -notebook 3dt-vs-2d  # the claims a notebook shows
//	go run ./tools/claims -readme              # README.md's comparison table, as Markdown
//	go run ./tools/claims -write README.md     # put that table between README.md's markers
//
// A test (datasets/claims) fails when README.md's table differs from -readme's output.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/twintorus/twintorus/datasets/claims"
	"github.com/twintorus/twintorus/kernel"
)

func main() {
	paper := flag.String("paper", "", "only this paper's claims: its key ([EXT]) or registry file (ext)")
	notebook := flag.String("notebook", "", "only the claims this notebook shows")
	readme := flag.Bool("readme", false, "print README.md's comparison table (Markdown)")
	write := flag.String("write", "", "rewrite the comparison table between the markers of this file (README.md)")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: claims [-paper KEY] [-notebook NAME] [-readme] [-write README.md]")
		os.Exit(2)
	}
	if err := run(os.Stdout, *paper, *notebook, *readme, *write); err != nil {
		fmt.Fprintln(os.Stderr, "claims:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, paper, notebook string, readme bool, write string) error {
	ctx := context.Background()
	reg, err := claims.Load()
	if err != nil {
		return err
	}
	var keep claims.Filter
	switch {
	case readme || write != "":
		keep = claims.InREADME
	case paper != "":
		keep = claims.Paper(paper)
	case notebook != "":
		keep = claims.Notebook(notebook)
	}
	res, err := claims.Evaluate(ctx, claims.NewStored(), reg, keep)
	if err != nil {
		return err
	}
	switch {
	case write != "":
		old, err := os.ReadFile(write)
		if err != nil {
			return err
		}
		text, err := claims.ReplaceREADME(string(old), claims.README(res))
		if err != nil {
			return fmt.Errorf("%s: %w", write, err)
		}
		return os.WriteFile(write, []byte(text), 0o644)
	case readme:
		_, err := io.WriteString(w, claims.README(res))
		return err
	}
	if len(res) == 0 {
		return fmt.Errorf("no claim kept")
	}
	h, rows := claims.TableOf(res)
	_, err = io.WriteString(w, kernel.TableText(h, rows))
	return err
}
