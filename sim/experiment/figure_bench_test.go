package experiment

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

// BenchmarkFigure runs a fixed, scaled-down version of two stored experiments end to
// end (spec, sweep, store, summaries), so that a change to the engine or the runner
// can be compared on whole figures: every topology and deadlock scheme of the spec,
// one seed, every third load, 250 + 750 cycles. It reports simulations per second
// and simulated switch-cycles per second (switches × cycles run, summed over the
// simulations). Workers: one per CPU, as `twintorus sweep` runs.
func BenchmarkFigure(b *testing.B) {
	for _, name := range []string{"3dt-configurations", "3dt-vs-2d"} {
		b.Run(name, func(b *testing.B) { benchFigure(b, name, true) })
	}
}

// BenchmarkFullLengthSample runs one seed of 3dt-configurations as the spec has it:
// every topology, scheme and load, 5,000 + 20,000 cycles (630 simulations). Its
// time per op times 30 is the full figure's (18,900 simulations) with the same
// workers; it takes minutes.
func BenchmarkFullLengthSample(b *testing.B) { benchFigure(b, "3dt-configurations", false) }

// benchFigure runs spec name with one seed; if short, only every third load, and
// every run cut to 250 + 750 cycles.
func benchFigure(b *testing.B, name string, short bool) {
	spec, err := ReadSpec(filepath.Join("..", "..", "datasets", "experiments", name+".yaml"))
	if err != nil {
		b.Fatal(err)
	}
	spec.Seeds = 1
	if short {
		spec.Engine.Warmup, spec.Engine.Measure = 250, 750
		var loads []float64
		for i, l := range spec.Loads.Values {
			if i%3 == 0 {
				loads = append(loads, l)
			}
		}
		spec.Loads.Values = loads
	}
	switches := map[string]float64{}
	var sims, switchCycles float64
	for b.Loop() {
		res, err := Run(context.Background(), spec, Options{Out: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		for i := range res.Records {
			r := &res.Records[i]
			n, ok := switches[r.Point.Topology]
			if !ok {
				n = float64(topology.MustNew(r.Point.Topology).Switches())
				switches[r.Point.Topology] = n
			}
			switchCycles += n * float64(r.Result.Cycles)
		}
		sims += float64(res.Simulated)
	}
	b.ReportMetric(sims/b.Elapsed().Seconds(), "sims/s")
	b.ReportMetric(switchCycles/b.Elapsed().Seconds(), "switch-cycles/s")
	b.ReportMetric(sims/float64(b.N), "sims/op")
}
