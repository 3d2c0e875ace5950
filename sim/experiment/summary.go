package experiment

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Confidence is the level of the confidence intervals, as in the papers.
const Confidence = 0.95

// Estimate is a metric over the replications of a point: mean, sample standard
// deviation and the 95 % confidence interval of the mean with Student's t,
// mean ± t(0.975, N−1)·SD/√N. Replications where the metric is NaN (no packet
// delivered in the window) are left out of N. SD, Low and High are NaN when N < 2;
// everything is NaN when N = 0.
type Estimate struct {
	N         int
	Mean, SD  float64
	Low, High float64
}

// Estimated summarises the values of a metric over replications.
func Estimated(values []float64) Estimate {
	var x []float64
	for _, v := range values {
		if !math.IsNaN(v) {
			x = append(x, v)
		}
	}
	nan := math.NaN()
	e := Estimate{N: len(x), Mean: nan, SD: nan, Low: nan, High: nan}
	switch e.N {
	case 0:
		return e
	case 1:
		e.Mean = x[0]
		return e
	}
	e.Mean, e.SD = stat.MeanStdDev(x, nil)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(e.N - 1)}.Quantile(1 - (1-Confidence)/2)
	half := t * e.SD / math.Sqrt(float64(e.N))
	e.Low, e.High = e.Mean-half, e.Mean+half
	return e
}

// Summary is one point of a curve over its replications.
type Summary struct {
	Curve     string  // the curve's label
	CurveKey  string  // the curve's identity (16 hex digits; see Curve.Key)
	Point     Point   // the point, seed zero
	Load      float64 // offered load, flits/cycle/PE
	N         int     // replications
	Saturated int     // replications that saturated
	// Deadlocked counts the replications that stopped on a deadlock (from a summary
	// CSV: known when it has the deadlocked metric, else 0).
	Deadlocked int
	// NonStationary counts the replications whose window failed the stationarity
	// check (engine.Stationarity), Unchecked those without a verdict: run without
	// the check, or read from a summary table made before it existed.
	NonStationary, Unchecked int
	// Estimates holds one Estimate per metric asked for, by metric name.
	Estimates map[string]Estimate
}

// SaturatedShare tells whether the point counts as saturated: at least half of its
// replications saturated (the rule of the automatic load search).
func (s Summary) SaturatedShare() bool { return 2*s.Saturated >= s.N && s.N > 0 }

// Steadiness is what a point's replications say of their windows' stationarity.
type Steadiness int

const (
	// SteadyUnknown: no replication failed the check and some were not checked (a
	// run without it, a table made before it existed).
	SteadyUnknown Steadiness = iota
	// Steady: every replication was checked and found stationary.
	Steady
	// NotSteady: at least one replication's window was not stationary, even after
	// the windows the check may run on: its mean is no steady-state figure, and no
	// verdict rests on it.
	NotSteady
)

func (s Steadiness) String() string {
	return [...]string{"unknown", "stationary", "not stationary"}[s]
}

// Steadiness tells whether the point's windows were stationary (Steadiness).
func (s Summary) Steadiness() Steadiness {
	switch {
	case s.NonStationary > 0:
		return NotSteady
	case s.Unchecked > 0 || s.N == 0:
		return SteadyUnknown
	}
	return Steady
}

// group is the records of one curve at one load.
type group struct {
	curve, curveKey string
	point           Point
	load            float64
	records         []*Record
}

// groups splits records by curve and load: curves in order of first appearance,
// loads ascending, records by replication.
func groups(records []Record) []*group {
	var out []*group
	byKey := map[string]map[float64]*group{}
	var curves []string
	for i := range records {
		r := &records[i]
		ck := curveKeyOf(r.Point)
		loads, ok := byKey[ck]
		if !ok {
			loads = map[float64]*group{}
			byKey[ck] = loads
			curves = append(curves, ck)
		}
		g, ok := loads[r.Point.Load]
		if !ok {
			p := r.Point
			p.Seed = 0
			g = &group{curve: curveName(r.Point), curveKey: ck, point: p, load: r.Point.Load}
			loads[r.Point.Load] = g
		}
		g.records = append(g.records, r)
	}
	for _, ck := range curves {
		var gs []*group
		for _, g := range byKey[ck] {
			slices.SortFunc(g.records, func(a, b *Record) int { return cmp.Compare(a.Point.Seed, b.Point.Seed) })
			gs = append(gs, g)
		}
		slices.SortFunc(gs, func(a, b *group) int { return cmp.Compare(a.load, b.load) })
		out = append(out, gs...)
	}
	return out
}

// curveKeyOf identifies a point's curve: its key without load and seed.
func curveKeyOf(p Point) string {
	p.Load, p.Seed = 0, 0
	return p.Key()[:16]
}

// Summarize groups records by curve and load and estimates each metric over the
// replications. Without metrics it summarises those the records' specs ask for. It
// returns curves in order of first appearance among the records, loads ascending.
func Summarize(records []Record, metrics ...string) []Summary {
	if len(metrics) == 0 {
		metrics = RequestedMetrics(records)
	}
	var out []Summary
	for _, g := range groups(records) {
		s := Summary{Curve: g.curve, CurveKey: g.curveKey, Point: g.point, Load: g.load, N: len(g.records),
			Estimates: map[string]Estimate{}}
		for _, r := range g.records {
			if r.Result.Saturated {
				s.Saturated++
			}
			if r.Result.Deadlock != nil {
				s.Deadlocked++
			}
			switch st := r.Result.Stationarity; {
			case st == nil:
				s.Unchecked++
			case !st.Stationary:
				s.NonStationary++
			}
		}
		for _, name := range metrics {
			m, ok := metricByName(name)
			if !ok {
				continue
			}
			v := make([]float64, len(g.records))
			for i, r := range g.records {
				v[i] = m.get(r.Result)
			}
			s.Estimates[name] = Estimated(v)
		}
		out = append(out, s)
	}
	return out
}

// RequestedMetrics is the union of the metrics the records' specs ask for, in order of
// first appearance, or DefaultMetrics.
func RequestedMetrics(records []Record) []string {
	var names []string
	seen := map[string]bool{}
	for i := range records {
		for _, m := range records[i].Spec.Metrics {
			if !seen[m] {
				seen[m] = true
				names = append(names, m)
			}
		}
	}
	if len(names) == 0 {
		return DefaultMetrics()
	}
	return names
}

// Saturation is where a curve saturates and what it delivers there.
type Saturation struct {
	Curve    string
	CurveKey string
	// Load is the lowest load at which at least half the replications saturated;
	// NaN if none did. Below is the highest load under it that did not saturate
	// (NaN if none ran): the saturation point lies in (Below, Load]. Loads that were
	// not stationary (Summary.Steadiness) are left out of both: whether a window
	// whose throughput still changes keeps up with its load is not known, and the
	// bracket holds whatever it would show.
	Load, Below float64
	// Throughput is the saturation throughput: the accepted traffic at PeakLoad, the
	// load where its mean over replications is highest (flits/cycle/PE). Loads where a
	// replication deadlocked give none: what a run delivered before it stopped is no
	// throughput the network sustains. Nor do loads that were not stationary
	// (Summary.Steadiness): their windows read a throughput still changing.
	Throughput Estimate
	PeakLoad   float64
	// NotSteady counts the loads left out as not stationary.
	NotSteady int
}

// Saturations reports, for each curve among the records, its saturation load and
// saturation throughput, curves in order of first appearance.
func Saturations(records []Record) []Saturation {
	return SaturationsOf(Summarize(records, "accepted"))
}

// SaturationsOf is Saturations from summaries that hold the "accepted" estimate, in
// curve and load order as Summarize returns them (or ReadSummaryCSV reads them).
func SaturationsOf(summaries []Summary) []Saturation {
	var out []Saturation
	for _, s := range summaries {
		if len(out) == 0 || out[len(out)-1].CurveKey != s.CurveKey {
			out = append(out, Saturation{Curve: s.Curve, CurveKey: s.CurveKey, Load: math.NaN(), Below: math.NaN(),
				Throughput: Estimated(nil), PeakLoad: math.NaN()})
		}
		c := &out[len(out)-1]
		if s.Steadiness() == NotSteady {
			c.NotSteady++
			continue
		}
		if s.SaturatedShare() {
			if math.IsNaN(c.Load) {
				c.Load = s.Load
			}
		} else if math.IsNaN(c.Load) {
			c.Below = s.Load
		}
		if a := s.Estimates["accepted"]; s.Deadlocked == 0 && !math.IsNaN(a.Mean) && (math.IsNaN(c.Throughput.Mean) || a.Mean > c.Throughput.Mean) {
			c.Throughput, c.PeakLoad = a, s.Load
		}
	}
	return out
}

// Line is one curve of a metric against the offered load, for plotting: the plots
// package draws it as a series with X = Load, Y = Mean and a Y interval [Low, High].
type Line struct {
	Curve  string
	Points []LinePoint
}

// LinePoint is one load of a Line.
type LinePoint struct {
	Load, Mean, Low, High float64
	N                     int
}

// Lines extracts one metric from summaries as a line per curve.
func Lines(summaries []Summary, metric string) []Line {
	var out []Line
	var last string
	for _, s := range summaries {
		e, ok := s.Estimates[metric]
		if !ok {
			continue
		}
		if len(out) == 0 || last != s.CurveKey {
			out = append(out, Line{Curve: s.Curve})
			last = s.CurveKey
		}
		l := &out[len(out)-1]
		l.Points = append(l.Points, LinePoint{Load: s.Load, Mean: e.Mean, Low: e.Low, High: e.High, N: e.N})
	}
	return out
}

// SortRecords orders records canonically: by topology, routing, selection, deadlock scheme, tie
// rule, traffic and sizes, then the rest of the curve (its key), load and seed.
func SortRecords(records []Record) {
	ck := make([]string, len(records))
	idx := make([]int, len(records))
	for i := range records {
		ck[i] = curveKeyOf(records[i].Point)
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		p, q := records[a].Point, records[b].Point
		return cmp.Or(
			cmp.Compare(p.Topology, q.Topology),
			cmp.Compare(p.Routing, q.Routing),
			cmp.Compare(p.Selection, q.Selection),
			cmp.Compare(p.Deadlock, q.Deadlock),
			cmp.Compare(p.Tie, q.Tie),
			cmp.Compare(p.Traffic, q.Traffic),
			cmp.Compare(p.Sizes, q.Sizes),
			cmp.Compare(ck[a], ck[b]),
			cmp.Compare(p.Load, q.Load),
			cmp.Compare(p.Seed, q.Seed),
		)
	})
	sorted := make([]Record, len(records))
	for i, j := range idx {
		sorted[i] = records[j]
	}
	copy(records, sorted)
}
