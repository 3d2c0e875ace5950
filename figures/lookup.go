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

// summaries are a topology's summaries under a deadlock scheme; scheme "" takes every
// scheme, for results whose networks each run under one (the torus with bubble, a
// fat-tree with none).
func (r *Results) summaries(topo, scheme string) []experiment.Summary {
	topo = canonical(topo)
	var out []experiment.Summary
	for _, s := range r.sums {
		if s.Point.Topology == topo && (scheme == "" || s.Point.Deadlock == scheme) {
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
// no such load, or when its window was not stationary: a verdict never rests on a
// point whose figures still drift); scheme "" matches any deadlock scheme.
func (r *Results) At(topo, scheme string, load float64, metric experiment.MetricName) experiment.Estimate {
	for _, s := range r.summaries(topo, scheme) {
		if math.Abs(s.Load-load) < 1e-9 && s.Steadiness() != experiment.NotSteady {
			if e, ok := s.Estimate(metric); ok {
				return e
			}
		}
	}
	return noEstimate()
}

func noEstimate() experiment.Estimate {
	return experiment.Estimate{Mean: math.NaN(), SD: math.NaN(), Low: math.NaN(), High: math.NaN()}
}

// Steadiness is whether the windows of a curve's point at a load were stationary
// (experiment.Steadiness; SteadyUnknown when there is no such point).
func (r *Results) Steadiness(topo, scheme string, load float64) experiment.Steadiness {
	if s, ok := r.Summary(topo, scheme, load); ok {
		return s.Steadiness()
	}
	return experiment.SteadyUnknown
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
// (at least half of the replications) and every one was stationary (or unchecked), or
// NaN: the load where the papers' latency comparisons are fair to every network.
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
			if !found || s.SaturatedShare() || s.Steadiness() == experiment.NotSteady {
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

// Last is a metric's estimate at the highest load a curve ran whose window was
// stationary (or unchecked), with that load (NaN mean and load when there is none).
func (r *Results) Last(topo, scheme string, metric experiment.MetricName) experiment.Estimate {
	e, _ := r.LastAt(topo, scheme, metric)
	return e
}

// LastAt is Last with the load it was read at.
func (r *Results) LastAt(topo, scheme string, metric experiment.MetricName) (experiment.Estimate, float64) {
	loads := r.Loads(topo, scheme)
	for i := len(loads) - 1; i >= 0; i-- {
		if r.Steadiness(topo, scheme, loads[i]) != experiment.NotSteady {
			return r.At(topo, scheme, loads[i], metric), loads[i]
		}
	}
	return noEstimate(), math.NaN()
}

// Plateau is the mean accepted traffic of a curve over its loads from `from` on, and
// the lowest and highest of those loads' means: where a saturated network settles. n
// is the number of loads; NaNs when there is none. Loads whose window was not
// stationary are left out.
func (r *Results) Plateau(topo, scheme string, from float64) (mean, lo, hi float64, n int) {
	mean, lo, hi = 0, math.Inf(1), math.Inf(-1)
	for _, l := range r.Loads(topo, scheme) {
		if l < from-1e-9 || r.Steadiness(topo, scheme, l) == experiment.NotSteady {
			continue
		}
		a := r.At(topo, scheme, l, experiment.Accepted).Mean
		mean += a
		lo, hi = math.Min(lo, a), math.Max(hi, a)
		n++
	}
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN(), 0
	}
	return mean / float64(n), lo, hi, n
}

// SaturationWhere is the saturation of the first curve whose point keep accepts: for
// specs with more axes than topology and scheme (traffic patterns, presets).
func (r *Results) SaturationWhere(keep func(experiment.Point) bool) (experiment.Saturation, bool) {
	for _, s := range r.sums {
		if !keep(s.Point) {
			continue
		}
		for _, sat := range r.Saturations {
			if sat.CurveKey == s.CurveKey {
				return sat, true
			}
		}
	}
	return experiment.Saturation{}, false
}
