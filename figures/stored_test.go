package figures

import (
	"compress/gzip"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/datasets"
	"github.com/twintorus/twintorus/sim/experiment"
)

// TestStoredResults: the full runs the notebooks read by default are complete (every
// curve of every experiment spec, every replication, the loads the spec asks for) and
// are what the stored per-simulation records say: each summary's mean accepted traffic
// and latency recomputed from records.csv.gz (adaptive-records.csv.gz for adaptive
// routing).
func TestStoredResults(t *testing.T) {
	recs := map[string]*recordStats{}
	for _, file := range datasets.SummaryFiles {
		maps.Copy(recs, readRecordsCSV(t, "../datasets/results/"+strings.Replace(file, "summary.csv", "records.csv.gz", 1)))
	}
	for _, name := range datasets.ExperimentNames() {
		res, err := LoadResults(context.Background(), name, Stored, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		curves := res.curves // Spec.Curves, as LoadResults had them
		if len(res.Saturations) != len(curves) {
			t.Errorf("%s: %d curves stored, the spec has %d", name, len(res.Saturations), len(curves))
		}
		for _, c := range curves {
			var loads []float64
			firstSaturated := -1
			for _, s := range res.Summaries() {
				if s.CurveKey != c.Key {
					continue
				}
				if s.N != res.Spec.Seeds {
					t.Errorf("%s %s at %g: %d replications, want %d", name, c.Name, s.Load, s.N, res.Spec.Seeds)
				}
				if s.SaturatedShare() && firstSaturated < 0 {
					firstSaturated = len(loads)
				}
				loads = append(loads, s.Load)
				checkAgainstRecords(t, recs, s)
			}
			want := res.Spec.Loads.Values
			if p := res.Spec.PastSaturation; p > 0 && firstSaturated >= 0 {
				want = want[:min(len(want), firstSaturated+p+1)]
			}
			if !slices.Equal(loads, want) {
				t.Errorf("%s %s: loads %v, want %v", name, c.Name, loads, want)
			}
		}
	}
}

// recordStats is the sum and count of accepted traffic and mean network latency over
// one curve's records at one load.
type recordStats struct {
	n                 int
	accepted, latency float64
	latencyN          int
}

func readRecordsCSV(t *testing.T, path string) map[string]*recordStats {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(z)
	header, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	num := func(row []string, name string) float64 {
		v, err := strconv.ParseFloat(row[col[name]], 64)
		if err != nil {
			t.Fatalf("%s: column %s: %v", path, name, err)
		}
		return v
	}
	out := map[string]*recordStats{}
	for {
		row, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		k := fmt.Sprintf("%s@%g", row[col["curve_key"]], num(row, "load"))
		s := out[k]
		if s == nil {
			s = &recordStats{}
			out[k] = s
		}
		s.n++
		s.accepted += num(row, "accepted")
		if l := num(row, "latency_network_mean"); !math.IsNaN(l) {
			s.latency += l
			s.latencyN++
		}
	}
	return out
}

func checkAgainstRecords(t *testing.T, recs map[string]*recordStats, s experiment.Summary) {
	t.Helper()
	r := recs[fmt.Sprintf("%s@%g", s.CurveKey, s.Load)]
	if r == nil {
		t.Errorf("%s at %g: no records in records.csv.gz", s.Curve, s.Load)
		return
	}
	acc, lat := s.Estimates["accepted"], s.Estimates["latency_network_mean"]
	if r.n != s.N || r.latencyN != lat.N {
		t.Errorf("%s at %g: %d records (%d with latency), summary says %d (%d)", s.Curve, s.Load, r.n, r.latencyN, s.N, lat.N)
		return
	}
	if m := r.accepted / float64(r.n); math.Abs(m-acc.Mean) > 1e-9*math.Max(1, math.Abs(m)) {
		t.Errorf("%s at %g: accepted %v from the records, %v in the summary", s.Curve, s.Load, m, acc.Mean)
	}
	if m := r.latency / float64(r.latencyN); math.Abs(m-lat.Mean) > 1e-9*math.Max(1, math.Abs(m)) {
		t.Errorf("%s at %g: latency %v from the records, %v in the summary", s.Curve, s.Load, m, lat.Mean)
	}
}
