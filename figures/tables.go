package figures

import (
	"fmt"
	"math"

	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/topology"
)

// SaturationTable lays out, for kernel.Table, each curve's saturation throughput
// (the highest mean accepted traffic, ± the half-width of its 95 % confidence
// interval, and the load where it was reached) and the accepted traffic at its highest
// load, which shows what a scheme keeps past saturation. Loads whose window was not
// stationary give neither (experiment.SaturationsOf, Results.Last), and the
// throughput says how many were left out:
//
//	kernel.Table(figures.SaturationTable(res))
func SaturationTable(src Summarized) (headers []string, rows [][]string) {
	r := asResults(src)
	headers = []string{"network", "PEs", "scheme", "saturation throughput", "at load", "accepted at the highest load"}
	for _, sat := range r.Saturations {
		var p experiment.Point
		for _, s := range r.sums {
			if s.CurveKey == sat.CurveKey {
				p = s.Point
				break
			}
		}
		pes := ""
		if net, err := topology.New(p.Topology); err == nil {
			pes = fmt.Sprint(net.Terminals())
		}
		last, at := r.LastAt(p.Topology, p.Deadlock, experiment.Accepted)
		throughput := PlusMinus(sat.Throughput, 3)
		if math.IsNaN(sat.Load) {
			// No load saturated the curve: its highest accepted traffic is a lower bound
			// of the saturation throughput, not the throughput itself.
			throughput = "not reached: ≥ " + throughput + " (no load saturated it)"
		}
		if sat.NotSteady > 0 {
			throughput += fmt.Sprintf(" (%d load(s) not stationary left out)", sat.NotSteady)
		}
		rows = append(rows, []string{Network(p.Topology), pes, Scheme(p.Deadlock),
			throughput, fmt.Sprintf("%.2f", sat.PeakLoad), fmt.Sprintf("%.3f (load %.2f)", last.Mean, at)})
	}
	return headers, rows
}

// PlusMinus writes an estimate as "mean ± half-width" with the given decimals, or
// the mean alone when there is no interval.
func PlusMinus(e experiment.Estimate, decimals int) string {
	if h := e.HalfWidth(); !math.IsNaN(h) {
		return fmt.Sprintf("%.*f ± %.*f", decimals, e.Mean, decimals, h)
	}
	return fmt.Sprintf("%.*f", decimals, e.Mean)
}

// asResults is src as Results, for the lookups: itself, or a cell's sweep wrapped.
func asResults(src Summarized) *Results {
	if r, ok := src.(*Results); ok {
		return r
	}
	sums := src.Summaries()
	return &Results{sums: sums, Saturations: experiment.SaturationsOf(sums)}
}
