package experiment

import (
	"context"
	"fmt"
	"math"
)

// RefineKnees runs spec, then narrows down where each curve bends: its knee lies
// between the highest load that did not saturate and the first that did (see
// Saturation). Steps times, it runs every curve that saturated at the middle of that
// interval and halves it, as the automatic load search does. A quick sweep over a few
// loads then still shows each curve's knee, with points on both sides of it.
//
// The added points are ordinary records of the curve (the same keys a spec listing
// those loads would make), stored in opt.Out: a second call runs nothing. Results hold
// the spec's records and the added ones; Stored and Simulated count both. A curve
// whose first load saturated is bisected from zero; one that never saturated is left
// as it is.
func RefineKnees(ctx context.Context, spec Spec, opt Options, steps int) (*Results, error) {
	if steps < 0 {
		return nil, fmt.Errorf("knee refinement: %d steps, want 0 or more", steps)
	}
	// One progress count across the runs: the sweep's, then each bisection's.
	offset := 0
	if report := opt.Progress; report != nil {
		opt.Progress = func(done, total int) { report(offset+done, offset+total) }
	}
	res, err := Run(ctx, spec, opt)
	if err != nil {
		return res, err
	}
	curves := map[string]Curve{}
	for _, c := range res.Curves {
		curves[c.Key] = c
	}
	for step := 0; step < steps; step++ {
		for _, sat := range Saturations(res.Records) {
			c, ok := curves[sat.CurveKey]
			if !ok || math.IsNaN(sat.Load) {
				continue
			}
			lo, hi := sat.Below, sat.Load
			if math.IsNaN(lo) {
				lo = 0
			}
			mid := roundLoad((lo + hi) / 2)
			if mid <= lo || mid >= hi {
				continue
			}
			offset = res.Stored + res.Simulated
			more, err := Run(ctx, curveSpec(res.Spec, c.Point, mid), opt)
			if more != nil {
				res.Records = append(res.Records, more.Records...)
				res.Stored += more.Stored
				res.Simulated += more.Simulated
				res.Recomputed += more.Recomputed
			}
			if err != nil {
				return res, fmt.Errorf("knee refinement of %s at load %g: %w", c.Name, mid, err)
			}
		}
	}
	return res, nil
}

// curveSpec is the spec of one curve of s at one load: its point's axes, s's engine,
// replications and metrics.
func curveSpec(s Spec, p Point, load float64) Spec {
	eng := s.Engine
	eng.VOQ = p.VOQ // the curve's (PresetVOQ)
	return Spec{
		Name:       s.Name,
		Topologies: []string{p.Topology},
		Routing:    []string{p.Routing},
		Deadlock:   []string{p.Deadlock},
		Tie:        []string{p.Tie},
		Traffic:    []string{p.Traffic},
		Sizes:      []string{p.Sizes},
		Engine:     eng,
		Loads:      Fixed(load),
		Seeds:      s.Seeds,
		Seed:       s.Seed,
		Metrics:    s.Metrics,
	}
}
