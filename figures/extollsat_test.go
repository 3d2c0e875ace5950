package figures

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/twintorus/twintorus/sim/experiment"
)

// extollSaturationSpecs are the networks of the EXTOLL paper's claim A2 (256 and 512
// PEs) as extoll-3d.yaml and extoll-5dt.yaml run them, uniform traffic: the 3D tori with
// DOR, the 5DT tori with TSDOR under both tie rules.
const extollSaturationSpecs = `switch: extoll
topologies: [torus:8x8x4, torus:8x8x8]
routing: [dor]
deadlock: vc
traffic: [uniform]
loads: [0.5]
---
switch: extoll
topologies: [twin:4x4x2x2x2/cbest, twin:4x4x2x4x2/cbest]
routing: [tsdor]
tie: [mirror, plus]
deadlock: vc
traffic: [uniform]
loads: [0.5]
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
// 20,000-cycle window after the specs' 3,000-cycle warm-up, offered loads 0.45 to 0.7,
// three replications (seeds 1-3, the specs'), on the four networks (three curves of
// 5DT: mirror and plus ties), and with TWINTORUS_SATURATION_CSV=PATH writes them there
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
	rows := [][]string{{"topology", "routing", "tie", "load", "seed", "warmup", "measure", "first_half", "second_half", "accepted"}}
	for _, load := range []float64{0.45, 0.5, 0.55, 0.6, 0.65, 0.7} {
		for _, c := range curves {
			for seed := uint64(1); seed <= 3; seed++ {
				p := c.Point
				p.Load, p.Seed, p.Warmup, p.Measure = load, seed, 3000, 20000
				first, second := windowHalves(t, p)
				t.Logf("%s load %.2f seed %d: halves %.4f %.4f", c.Name, load, seed, first, second)
				rows = append(rows, []string{p.Topology, p.Routing, p.Tie, strconv.FormatFloat(load, 'g', -1, 64), strconv.FormatUint(seed, 10),
					strconv.FormatInt(p.Warmup, 10), strconv.FormatInt(p.Measure, 10),
					strconv.FormatFloat(first, 'f', 6, 64), strconv.FormatFloat(second, 'f', 6, 64), strconv.FormatFloat((first+second)/2, 'f', 6, 64)})
			}
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
