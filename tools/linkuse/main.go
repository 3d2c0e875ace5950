// Command linkuse writes the stored table of link utilisation per dimension
// (datasets/results/twisted-links.csv, the twisted-tori paper's Fig. 10) from the
// records of results stores whose runs had channel counters on (engine key
// channels: true):
//
//	go run ./tools/linkuse -out datasets/results/twisted-links.csv STORE...
//
// Records without channel counters are skipped; every record with them becomes one row.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/twintorus/twintorus/figures"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/topology"
)

func main() {
	out := flag.String("out", "", "CSV file to write (required)")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: linkuse -out FILE STORE...")
		os.Exit(2)
	}
	if err := run(*out, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "linkuse:", err)
		os.Exit(1)
	}
}

func run(out string, stores []string) error {
	var rows []figures.LinkUse
	nets := map[string]*topology.Network{}
	for _, dir := range stores {
		c, err := experiment.Load(dir)
		if err != nil {
			return err
		}
		if err := c.Err(); err != nil {
			return err
		}
		for _, rec := range c.Records {
			if rec.Result == nil || rec.Result.ChannelUtil == nil {
				continue
			}
			net := nets[rec.Point.Topology]
			if net == nil {
				if net, err = topology.New(rec.Point.Topology); err != nil {
					return err
				}
				nets[rec.Point.Topology] = net
			}
			u, err := figures.LinkUseOf(net, rec.Point, rec.Result)
			if err != nil {
				return fmt.Errorf("%s: %w", rec.Key, err)
			}
			rows = append(rows, u)
		}
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := figures.WriteLinkUseCSV(f, rows); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
