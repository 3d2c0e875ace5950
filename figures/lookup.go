package figures

import (
	"math"

	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/topology"
)

// canonical is the canonical spec string of a topology (the form results carry).
func canonical(spec string) string {
	if s, err := topology.Parse(spec); err == nil {
		return s.String()
	}
	return spec
}

func (r *Results) summaries(topo, scheme string) []experiment.Summary {
	topo = canonical(topo)
	var out []experiment.Summary
	for _, s := range r.Summaries {
		if s.Point.Topology == topo && s.Point.Deadlock == scheme {
			out = append(out, s)
		}
	}
	return out
}

// Saturation is the saturation of the curve of a topology under a deadlock scheme.
func (r *Results) Saturation(topo, scheme string) (experiment.Saturation, bool) {
	ss := r.summaries(topo, scheme)
	if len(ss) == 0 {
		return experiment.Saturation{}, false
	}
	for _, s := range r.Saturations {
		if s.CurveKey == ss[0].CurveKey {
			return s, true
		}
	}
	return experiment.Saturation{}, false
}

// At is a metric's estimate on a curve at an offered load (NaN mean when the curve has
// no such load).
func (r *Results) At(topo, scheme string, load float64, metric string) experiment.Estimate {
	for _, s := range r.summaries(topo, scheme) {
		if math.Abs(s.Load-load) < 1e-9 {
			if e, ok := s.Estimates[metric]; ok {
				return e
			}
		}
	}
	return experiment.Estimate{Mean: math.NaN(), SD: math.NaN(), Low: math.NaN(), High: math.NaN()}
}

// Summary is a curve's summary at an offered load.
func (r *Results) Summary(topo, scheme string, load float64) (experiment.Summary, bool) {
	for _, s := range r.summaries(topo, scheme) {
		if math.Abs(s.Load-load) < 1e-9 {
			return s, true
		}
	}
	return experiment.Summary{}, false
}

// Loads lists a curve's offered loads, increasing.
func (r *Results) Loads(topo, scheme string) []float64 {
	var out []float64
	for _, s := range r.summaries(topo, scheme) {
		out = append(out, s.Load)
	}
	return sortedUnique(out)
}

// CommonUnsaturated is the highest load at which none of the given curves saturated
// (at least half of the replications), or NaN: the load where the papers' latency
// comparisons are fair to every network.
func (r *Results) CommonUnsaturated(scheme string, topos ...string) float64 {
	best := math.NaN()
	var loads []float64
	if len(topos) > 0 {
		loads = r.Loads(topos[0], scheme)
	}
	for _, l := range loads {
		ok := true
		for _, t := range topos {
			s, found := r.Summary(t, scheme, l)
			if !found || s.SaturatedShare() {
				ok = false
				break
			}
		}
		if ok {
			best = l
		}
	}
	return best
}

func sortedUnique(v []float64) []float64 {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] < v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
	out := v[:0]
	for i, x := range v {
		if i == 0 || x != out[len(out)-1] {
			out = append(out, x)
		}
	}
	return out
}
