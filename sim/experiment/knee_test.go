package experiment

import (
	"context"
	"math"
	"testing"
)

// TestRefineKnees: two bisection steps leave each saturating curve's knee interval a
// quarter of what the coarse loads left, with the new points stored as the curve's
// own; a second call finds them all in the store.
func TestRefineKnees(t *testing.T) {
	spec, err := ParseSpec("knee.yaml", []byte(`
topologies: [torus:4x4, twin:3x3x3/D]
deadlock: bubble
engine: {warmup: 300, measure: 1500}
loads: [0.1, 0.5, 0.9]
seeds: 2
metrics: [accepted, latency_network_mean]
`))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	coarse, err := Run(context.Background(), spec, Options{Out: dir})
	if err != nil {
		t.Fatal(err)
	}
	width := map[string]float64{}
	for _, s := range coarse.Saturations() {
		if math.IsNaN(s.Load) {
			t.Fatalf("%s did not saturate at 0.9; the test needs a knee", s.Curve)
		}
		width[s.CurveKey] = s.Load - s.Below
	}
	last := [2]int{}
	res, err := RefineKnees(context.Background(), spec, Options{Out: dir, Progress: func(done, total int) {
		if done < last[0] {
			t.Errorf("progress went back from %d to %d", last[0], done)
		}
		last = [2]int{done, total}
	}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(res.Records); last != [2]int{want, want} {
		t.Errorf("last progress %v, want %d of %d", last, want, want)
	}
	if res.Simulated != 2*2*2 {
		t.Errorf("simulated %d, want 2 curves x 2 steps x 2 seeds", res.Simulated)
	}
	for _, s := range res.Saturations() {
		if got := s.Load - s.Below; math.Abs(got-width[s.CurveKey]/4) > 1e-9 {
			t.Errorf("%s: knee interval (%g, %g], width %g; want a quarter of %g", s.Curve, s.Below, s.Load, got, width[s.CurveKey])
		}
	}
	loads := map[float64]int{}
	for _, r := range res.Records {
		loads[r.Point.Load]++
	}
	if len(loads) != 3+4 && len(loads) != 3+3 {
		t.Errorf("loads run: %v", loads)
	}
	again, err := RefineKnees(context.Background(), spec, Options{Out: dir}, 2)
	if err != nil || again.Simulated != 0 || len(again.Records) != len(res.Records) {
		t.Errorf("second call: simulated %d, %d records (want 0, %d), %v", again.Simulated, len(again.Records), len(res.Records), err)
	}
	if _, err := RefineKnees(context.Background(), spec, Options{Out: dir}, -1); err == nil {
		t.Error("negative steps accepted")
	}
}
