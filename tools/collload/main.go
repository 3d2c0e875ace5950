// Command collload writes the stored table of the load each collective algorithm offers
// the papers' networks (datasets/results/collective-loads.csv, figures.CollectiveLoadCases),
// counted route by route without simulating:
//
//	go run ./tools/collload -out datasets/results/collective-loads.csv
//
// Each routing runs its own tie rule (mirror for TSDOR, plus for DOR and DORT). The rows of
// the 4,096-PE networks with P(P−1)-message algorithms (ring, all-to-all linear) build
// 16.8 million messages each: about 2 GB and a minute of one core apiece.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/twintorus/twintorus/figures"
)

func main() {
	out := flag.String("out", "", "CSV file to write (required)")
	flag.Parse()
	if *out == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: collload -out FILE")
		os.Exit(2)
	}
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "collload:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	var rows []figures.CollectiveLoad
	for _, c := range figures.CollectiveLoadCases() {
		r, err := figures.CollectiveLoadOf(context.Background(), c.Topology, c.Routing, c.Tie, c.Workload, c.PacketFlits)
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "%s %s %s: NIC %d, channel %d flits\n", c.Topology, c.Routing, c.Workload, r.NICBound, r.ChannelBound)
		rows = append(rows, r)
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := figures.WriteCollectiveLoadCSV(f, rows); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
