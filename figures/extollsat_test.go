package figures

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/experiment"
)

// extollSaturationSpecs are the networks of the EXTOLL paper's claim A2 (256 and 512
// PEs) as extoll-3d.yaml and extoll-5dt.yaml run them, uniform traffic: the 3D tori with
// DOR, the 5DT tori with TSDOR under both tie rules. The windows' halves are the
// stationarity reading of these runs, made before the engine's own check (which would
// lengthen a window that drifts, so the halves would not be one window's): the check
// is off, as in the stored specs.
const extollSaturationSpecs = `switch: extoll
topologies: [torus:8x8x4, torus:8x8x8]
routing: [dor]
deadlock: vc
traffic: [uniform]
loads: [0.5]
engine:
  stationary_batches: 0
---
switch: extoll
topologies: [twin:4x4x2x2x2/cbest, twin:4x4x2x4x2/cbest]
routing: [tsdor]
tie: [mirror, plus]
deadlock: vc
traffic: [uniform]
loads: [0.5]
engine:
  stationary_batches: 0
`

// windowHalves runs point p twice, to the middle of its window and to its end, and
// returns the accepted traffic of the window's two halves: the simulation is
// deterministic, so the first run is the second's first part.
func windowHalves(t testing.TB, p experiment.Point) (first, second float64) {
	t.Helper()
	h := p.Measure / 2
	a, b := p, p
	a.Measure = h
	b.Warmup, b.Measure = p.Warmup+h, p.Measure-h
	ra, err := a.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rb, err := b.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return ra.Accepted, rb.Accepted
}

// windowRun is one replication's point and the accepted traffic of its window's halves.
type windowRun struct {
	p             experiment.Point
	first, second float64
}

// stationaryDrift is the most the accepted traffic of a window's two halves may differ,
// relative to their mean, for a replication to be stationary.
const stationaryDrift = 0.02

// extollSaturationRows lays out the halves of claim A2's runs (each point with its two
// halves' accepted traffic, a network's loads and seeds in order) as the rows of
// extoll-saturation.csv: per replication its halves, their mean (the window's accepted
// traffic) and drift ((second − first) / mean); per load whether every replication is
// stationary (|drift| at most stationaryDrift); and per network the peak, the
// stationary load of the highest mean accepted traffic, its saturation throughput read
// at a stationary point.
func extollSaturationRows(measure int64, runs []windowRun) [][]string {
	type key struct {
		topo, tie string
		load      float64
	}
	type net struct{ topo, tie string }
	stationary, sum, n := map[key]bool{}, map[key]float64{}, map[key]int{}
	var order []key
	for _, r := range runs {
		p, first, second := r.p, r.first, r.second
		k := key{p.Topology, p.Tie, p.Load}
		if _, seen := stationary[k]; !seen {
			stationary[k] = true
			order = append(order, k)
		}
		mean := (first + second) / 2
		if math.Abs(second-first) > stationaryDrift*mean {
			stationary[k] = false
		}
		sum[k] += mean
		n[k]++
	}
	peak := map[net]key{}
	for _, k := range order {
		nk := net{k.topo, k.tie}
		if b, ok := peak[nk]; stationary[k] && (!ok || sum[k]/float64(n[k]) > sum[b]/float64(n[b])) {
			peak[nk] = k
		}
	}
	flag := func(b bool) string {
		if b {
			return "1"
		}
		return "0"
	}
	rows := [][]string{{"topology", "routing", "tie", "load", "seed", "warmup", "measure", "first_half", "second_half", "accepted", "drift", "stationary", "peak"}}
	for _, r := range runs {
		p := r.p
		k := key{p.Topology, p.Tie, p.Load}
		mean := (r.first + r.second) / 2
		rows = append(rows, []string{p.Topology, p.Routing, p.Tie, strconv.FormatFloat(p.Load, 'g', -1, 64), strconv.FormatUint(p.Seed, 10),
			strconv.FormatInt(p.Warmup, 10), strconv.FormatInt(measure, 10),
			strconv.FormatFloat(r.first, 'f', 6, 64), strconv.FormatFloat(r.second, 'f', 6, 64), strconv.FormatFloat(mean, 'f', 6, 64),
			strconv.FormatFloat((r.second-r.first)/mean, 'f', 4, 64), flag(stationary[k]), flag(peak[net{k.topo, k.tie}] == k)})
	}
	return rows
}

// extollSaturationCurves are the curves of extollSaturationSpecs.
func extollSaturationCurves(t testing.TB) []experiment.Curve {
	t.Helper()
	var out []experiment.Curve
	for i, doc := range splitYAML(extollSaturationSpecs) {
		s, err := experiment.ParseSpec(fmt.Sprintf("a2-%d.yaml", i), []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		c, err := s.Curves()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c...)
	}
	return out
}

func splitYAML(s string) []string {
	var docs []string
	start := 0
	for i := 0; i+4 <= len(s); i++ {
		if s[i:i+4] == "---\n" && (i == 0 || s[i-1] == '\n') {
			docs = append(docs, s[start:i])
			start = i + 4
		}
	}
	return append(docs, s[start:])
}

// The EXTOLL paper's claim A2 compares saturation throughput, which is read at a
// stationary point: one whose accepted traffic in the two halves of its window agrees.
// Past saturation the 3D tori's accepted traffic falls for tens of thousands of
// cycles, so the highest mean of a 5,000-cycle window can be a transient.
//
// The halves come from two runs of the same point (to the window's middle, to its end):
// their mean is the whole window's accepted traffic, exactly (checked here on short
// runs of each network). With TWINTORUS_LONG=1 the test measures the halves of a
// 20,000-cycle window after the specs' 3,000-cycle warm-up, three replications (seeds
// 1-3, the specs'), offered loads 0.45 to 0.7 where the stored curves saturate near 0.6
// (the 3D tori, the 5DT with plus ties) and 0.6 to 1.0 where they saturate near 0.8 (the
// 5DT with mirrored ties), on the four networks (two curves of each 5DT: mirror and plus
// ties); with TWINTORUS_SATURATION_CSV=PATH it writes them there
// (datasets/results/extoll-saturation.csv, which the 5dt-vs-3d notebook and the claims
// registry read; datasets/results/README.md).
func TestExtollSaturationHalves(t *testing.T) {
	curves := extollSaturationCurves(t)
	if len(curves) != 6 {
		t.Fatalf("%d curves, want 6 (2 tori, 2 twin tori x 2 tie rules)", len(curves))
	}
	long := os.Getenv("TWINTORUS_LONG") == "1"
	if !long {
		for _, c := range curves {
			p := c.Point
			if !p.VOQ {
				t.Errorf("%s: no virtual output queues under the extoll preset", c.Name)
			}
			p.Load, p.Seed, p.Warmup, p.Measure = 0.6, 1, 300, 600
			first, second := windowHalves(t, p)
			whole, err := p.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if mean := (first + second) / 2; math.Abs(mean-whole.Accepted) > 1e-12 {
				t.Errorf("%s: halves %.6f and %.6f, mean %.9f; the whole window %.9f", c.Name, first, second, mean, whole.Accepted)
			}
		}
		return
	}
	var runs []windowRun
	for _, c := range curves {
		loads := []float64{0.45, 0.5, 0.55, 0.6, 0.65, 0.7}
		if c.Point.Tie == "mirror" {
			loads = []float64{0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 1.0}
		}
		for _, load := range loads {
			for seed := uint64(1); seed <= 3; seed++ {
				p := c.Point
				p.Load, p.Seed, p.Warmup, p.Measure = load, seed, 3000, 20000
				first, second := windowHalves(t, p)
				t.Logf("%s load %.2f seed %d: halves %.4f %.4f", c.Name, load, seed, first, second)
				runs = append(runs, windowRun{p, first, second})
			}
		}
	}
	rows := extollSaturationRows(runs[0].p.Measure, runs)
	for _, r := range rows[1:] {
		if r[len(r)-1] == "1" {
			t.Logf("peak: %v", r)
		}
	}
	if path := os.Getenv("TWINTORUS_SATURATION_CSV"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w := csv.NewWriter(f)
		w.WriteAll(rows)
		if err := w.Error(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// The peak of a network is its stationary load of highest mean accepted traffic: a load
// with one drifting replication is not stationary, however high its mean.
func TestExtollSaturationRows(t *testing.T) {
	pt := func(topo string, load float64, seed uint64) experiment.Point {
		p := experiment.NewPoint(topo, load)
		p.Tie, p.Seed, p.Warmup = "plus", seed, 3000
		return p
	}
	runs := []windowRun{
		{pt("torus:4x4", 0.5, 1), 0.50, 0.50}, {pt("torus:4x4", 0.5, 2), 0.49, 0.50},
		{pt("torus:4x4", 0.6, 1), 0.60, 0.59}, {pt("torus:4x4", 0.6, 2), 0.60, 0.595}, // peak
		{pt("torus:4x4", 0.7, 1), 0.70, 0.62}, {pt("torus:4x4", 0.7, 2), 0.66, 0.66}, // drifts 12 %
		{pt("torus:8x8", 0.5, 1), 0.40, 0.30}, // nothing stationary: no peak
	}
	rows := extollSaturationRows(20000, runs)
	var got []string
	for _, r := range rows[1:] {
		got = append(got, r[0]+" "+r[3]+" "+r[4]+" "+r[9]+" "+r[10]+" "+r[11]+r[12])
	}
	want := []string{
		"torus:4x4 0.5 1 0.500000 0.0000 00", "torus:4x4 0.5 2 0.495000 0.0202 00", // seed 2 drifts 2.02 %
		"torus:4x4 0.6 1 0.595000 -0.0168 11", "torus:4x4 0.6 2 0.597500 -0.0084 11",
		"torus:4x4 0.7 1 0.660000 -0.1212 00", "torus:4x4 0.7 2 0.660000 0.0000 00",
		"torus:8x8 0.5 1 0.350000 -0.2857 00",
	}
	if !slices.Equal(got, want) {
		t.Errorf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
