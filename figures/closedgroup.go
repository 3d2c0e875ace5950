package figures

import (
	"context"
	"fmt"
	"math"

	"github.com/twintorus/twintorus/datasets"
	"github.com/twintorus/twintorus/sim/experiment"
)

// A closed-loop experiment whose curves cannot share one spec (their packet lengths,
// or their routings and the topologies these fit, differ) is stored as a group of
// specs, read together.

// ClosedLoopGroup is the summaries of a group of closed-loop specs and, per spec, where
// they came from (Results.About).
type ClosedLoopGroup struct {
	Sums  []experiment.Summary
	About []string
}

// Summaries makes a group a Summarized that the figure functions accept.
func (g *ClosedLoopGroup) Summaries(...string) []experiment.Summary { return g.Sums }

// loadClosedLoopGroup reads the closed-loop specs names in mode. In Quick mode a spec
// for which keep says false is left out, and the others run shrink(QuickClosedLoopSpec
// (spec)) (shrink nil: as is).
func loadClosedLoopGroup(ctx context.Context, names []string, mode Mode, progress func(done, total int),
	keep func(name string) bool, shrink func(experiment.Spec) experiment.Spec) (*ClosedLoopGroup, error) {
	if shrink == nil {
		shrink = func(s experiment.Spec) experiment.Spec { return s }
	}
	g := &ClosedLoopGroup{}
	for _, name := range names {
		if mode == Quick && keep != nil && !keep(name) {
			continue
		}
		r, err := LoadClosedLoopShrunk(ctx, name, mode, progress, shrink)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		g.Sums = append(g.Sums, r.Summaries()...)
		g.About = append(g.About, r.About())
	}
	return g, nil
}

// paperValue is the value of the reference id (NaN when it has none).
func paperValue(id string) (float64, error) {
	r, err := datasets.Lookup(id)
	if err != nil {
		return math.NaN(), err
	}
	return r.Value, nil
}

// reduction is how much less other is than base, in percent: (base − other)/base.
func reduction(base, other float64) float64 { return 100 * (base - other) / base }
