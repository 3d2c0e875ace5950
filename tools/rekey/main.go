// Command rekey renames stored results whose traffic spec was pinned to a new name
// without changing what it means, so that they keep matching the specs that read them:
//
//	go run ./tools/rekey -old 'hotspot:0.2@5%' -new 'hotspot:0.2@5%/lowest' \
//	    -specs kns-256,kns-256-hotspot datasets/results/kns-256-summary.csv \
//	    datasets/results/kns-256-records.csv.gz ...
//
// Issue 38 made spread the default placement of hot PEs, so a stored run of
// hotspot:0.2@5% (then the lowest ids) is now hotspot:0.2@5%/lowest, which its spec pins.
// A record's key hashes its point, traffic spec included, so the record must be renamed:
// for every curve of the given specs whose traffic is -new, rekey builds the same point
// with traffic -old, and every row of the files with traffic -old must be one of those
// points (its curve key, and for records its key with the row's load and seed, are
// recomputed from the old point and must be the row's, bit for bit); the row then gets
// the new point's key, curve key, curve name and traffic. Nothing else in a row changes.
// A row with traffic -old that no curve explains is an error, and no file is written.
package main

import (
	"compress/gzip"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/datasets"
	"github.com/twintorus/twintorus/sim/experiment"
)

func main() {
	oldT := flag.String("old", "", "the traffic spec the stored rows were run with (canonical, as in the rows)")
	newT := flag.String("new", "", "the traffic spec the specs now name (canonical)")
	specs := flag.String("specs", "", "comma-separated experiment names whose curves explain the rows")
	flag.Parse()
	if *oldT == "" || *newT == "" || *specs == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: rekey -old TRAFFIC -new TRAFFIC -specs NAME,... FILE.csv|FILE.csv.gz...")
		os.Exit(2)
	}
	if err := run(*oldT, *newT, strings.Split(*specs, ","), flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "rekey:", err)
		os.Exit(1)
	}
}

// renamed is a curve under its old traffic spec and its new one.
type renamed struct {
	old, new experiment.Point
	name     string // the new curve's name
}

func run(oldT, newT string, specs, files []string) error {
	byOldKey := map[string]renamed{}
	for _, name := range specs {
		file, data, err := datasets.Experiment(strings.TrimSpace(name))
		if err != nil {
			return err
		}
		_, curves, err := experiment.ParseSpecCurves(file, data)
		if err != nil {
			return err
		}
		for _, c := range curves {
			if c.Point.Traffic != newT {
				continue
			}
			old := c.Point
			old.Traffic = oldT
			byOldKey[curveKey(old)] = renamed{old: old, new: c.Point, name: c.Name}
		}
	}
	if len(byOldKey) == 0 {
		return fmt.Errorf("no curve of %v has traffic %q", specs, newT)
	}
	out := map[string][]byte{}
	for _, f := range files {
		b, n, err := rewrite(f, oldT, newT, byOldKey)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		out[f] = b
		fmt.Printf("%s: %d rows renamed\n", f, n)
	}
	for _, f := range files {
		if err := os.WriteFile(f, out[f], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// curveKey is a point's curve key: its key without load and seed, 16 hex digits.
func curveKey(p experiment.Point) string {
	p.Load, p.Seed = 0, 0
	return p.Key()[:16]
}

// rewrite returns file f with its rows of traffic oldT renamed, and how many there were.
func rewrite(f, oldT, newT string, byOldKey map[string]renamed) ([]byte, int, error) {
	raw, err := os.ReadFile(f)
	if err != nil {
		return nil, 0, err
	}
	gz := strings.HasSuffix(f, ".gz")
	var in io.Reader = strings.NewReader(string(raw))
	if gz {
		z, err := gzip.NewReader(in)
		if err != nil {
			return nil, 0, err
		}
		in = z
	}
	rows, err := csv.NewReader(in).ReadAll()
	if err != nil {
		return nil, 0, err
	}
	if len(rows) == 0 {
		return nil, 0, errors.New("empty file")
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, need := range []string{"curve", "curve_key", "traffic"} {
		if _, ok := col[need]; !ok {
			return nil, 0, fmt.Errorf("no column %s", need)
		}
	}
	_, isRecords := col["key"]
	n := 0
	for i, row := range rows[1:] {
		if row[col["traffic"]] != oldT {
			continue
		}
		r, ok := byOldKey[row[col["curve_key"]]]
		if !ok {
			return nil, 0, fmt.Errorf("row %d (%s): curve key %s is no curve of the specs under %q", i+2, row[col["curve"]], row[col["curve_key"]], oldT)
		}
		if isRecords {
			load, err1 := strconv.ParseFloat(row[col["load"]], 64)
			seed, err2 := strconv.ParseUint(row[col["seed"]], 10, 64)
			if err1 != nil || err2 != nil {
				return nil, 0, fmt.Errorf("row %d: bad load or seed", i+2)
			}
			o, p := r.old, r.new
			o.Load, o.Seed, p.Load, p.Seed = load, seed, load, seed
			if o.Key() != row[col["key"]] {
				return nil, 0, fmt.Errorf("row %d (%s at %g, seed %d): its key %s is not its point's %s", i+2, row[col["curve"]], load, seed, row[col["key"]], o.Key())
			}
			row[col["key"]] = p.Key()
		}
		row[col["curve"]], row[col["curve_key"]], row[col["traffic"]] = r.name, curveKey(r.new), newT
		n++
	}
	var b strings.Builder
	var w io.Writer = &b
	var z *gzip.Writer
	if gz {
		if z, err = gzip.NewWriterLevel(&b, gzip.BestCompression); err != nil {
			return nil, 0, err
		}
		w = z
	}
	cw := csv.NewWriter(w)
	if err := cw.WriteAll(rows); err != nil {
		return nil, 0, err
	}
	if z != nil {
		if err := z.Close(); err != nil {
			return nil, 0, err
		}
	}
	return []byte(b.String()), n, nil
}
