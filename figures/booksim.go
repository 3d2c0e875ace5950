package figures

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/datasets"
	"github.com/twintorus/twintorus/plots"
	"github.com/twintorus/twintorus/sim/experiment"
)

// BookSimRun is one BookSim2 run of the reference grid (datasets/booksim/README.md).
type BookSimRun struct {
	Config, Traffic string  // the configuration (datasets/booksim/configs) and BookSim2's pattern
	Load            float64 // injection_rate, flits/cycle/node
	Seed            int
	Unstable        bool    // BookSim2 ended the run as unstable: past saturation
	PacketLatency   float64 // mean, creation to arrival, cycles
	Accepted        float64 // flits/cycle/node
	Hops            float64 // BookSim2's count: routers crossed
	Cycles          int64
	CPUSeconds      float64
	// ToEnd: the run went on past saturation to its end (latency_thres raised), to
	// measure the accepted traffic there; the latency curves leave it out.
	ToEnd bool
}

// BookSimRuns reads the stored BookSim2 runs.
func BookSimRuns() ([]BookSimRun, error) {
	data, err := datasets.BookSimResults()
	if err != nil {
		return nil, err
	}
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("datasets/booksim/results.csv: %w", err)
	}
	if len(rows) < 2 || len(rows[0]) != 15 || rows[0][0] != "config" {
		return nil, fmt.Errorf("datasets/booksim/results.csv: want a header config,traffic,... and rows")
	}
	runs := make([]BookSimRun, 0, len(rows)-1)
	for i, r := range rows[1:] {
		var (
			x    BookSimRun
			errs []error
		)
		num := func(s string) float64 {
			v, err := strconv.ParseFloat(s, 64)
			errs = append(errs, err)
			return v
		}
		x.Config, x.Traffic = r[0], r[1]
		x.Load, x.Seed = num(r[2]), int(num(r[3]))
		x.Unstable = r[4] == "true"
		x.PacketLatency, x.Accepted, x.Hops = num(r[5]), num(r[9]), num(r[10])
		x.Cycles, x.CPUSeconds = int64(num(r[11])), num(r[13])
		x.ToEnd = r[14] == "true"
		for _, err := range errs {
			if err != nil {
				return nil, fmt.Errorf("datasets/booksim/results.csv line %d: %w", i+2, err)
			}
		}
		runs = append(runs, x)
	}
	return runs, nil
}

// BookSimPoint is one load of a latency curve, over its replications.
type BookSimPoint struct {
	Load float64
	// Latency is the mean packet latency (creation to arrival) over the runs that
	// finished, NaN when at least half did not (BookSim2 ended them as unstable; ours
	// saturated): the load is past saturation.
	Latency  float64
	Accepted float64 // flits/cycle/node, mean over the runs that finished (NaN: none did)
	N, Past  int     // runs, and runs past saturation
}

// BookSimCurve is one configuration under one pattern, by load.
type BookSimCurve struct {
	Config, Traffic string
	Points          []BookSimPoint
}

// BookSimCurves are the stored BookSim2 runs as curves, in the order of the CSV.
func BookSimCurves(runs []BookSimRun) []BookSimCurve {
	var curves []BookSimCurve
	for _, r := range runs {
		if r.ToEnd {
			continue
		}
		i := slices.IndexFunc(curves, func(c BookSimCurve) bool { return c.Config == r.Config && c.Traffic == r.Traffic })
		if i < 0 {
			curves = append(curves, BookSimCurve{Config: r.Config, Traffic: r.Traffic})
			i = len(curves) - 1
		}
		c := &curves[i]
		j := slices.IndexFunc(c.Points, func(p BookSimPoint) bool { return p.Load == r.Load })
		if j < 0 {
			c.Points = append(c.Points, BookSimPoint{Load: r.Load})
			j = len(c.Points) - 1
		}
		p := &c.Points[j]
		p.N++
		if r.Unstable {
			p.Past++
			continue
		}
		fin := float64(p.N - p.Past)
		p.Latency += (r.PacketLatency - p.Latency) / fin
		p.Accepted += (r.Accepted - p.Accepted) / fin
	}
	for i := range curves {
		pastHalf(curves[i].Points)
		slices.SortFunc(curves[i].Points, func(a, b BookSimPoint) int { return cmp.Compare(a.Load, b.Load) })
	}
	return curves
}

// pastHalf marks the points where at least half the runs are past saturation: no
// latency; and no accepted traffic where none finished (BookSim2's unstable runs
// report none; ours always finish).
func pastHalf(points []BookSimPoint) {
	for i := range points {
		p := &points[i]
		if 2*p.Past >= p.N {
			p.Latency = math.NaN()
		}
		if p.Past == p.N {
			p.Accepted = math.NaN()
		}
	}
}

// OurBookSimCurve is our side of a BookSim2 curve: the summaries of a booksim-*
// experiment (one curve), its mean end-to-end latency (creation to arrival, as
// BookSim2's packet latency; NaN where at least half the runs saturated, as
// BookSim2's curves) and accepted traffic by load.
func OurBookSimCurve(config, traffic string, sums []experiment.Summary) BookSimCurve {
	c := BookSimCurve{Config: config, Traffic: traffic}
	for _, s := range sums {
		p := BookSimPoint{Load: s.Load, N: s.N, Past: s.Saturated, Latency: math.NaN(), Accepted: math.NaN()}
		if e, ok := s.Estimate(experiment.LatencyE2EMean); ok && !s.SaturatedShare() {
			p.Latency = e.Mean
		}
		if e, ok := s.Estimate(experiment.Accepted); ok { // our runs always finish
			p.Accepted = e.Mean
		}
		c.Points = append(c.Points, p)
	}
	slices.SortFunc(c.Points, func(a, b BookSimPoint) int { return cmp.Compare(a.Load, b.Load) })
	return c
}

// at is the curve's point at load, if it has one.
func (c BookSimCurve) at(load float64) (BookSimPoint, bool) {
	i := slices.IndexFunc(c.Points, func(q BookSimPoint) bool { return math.Abs(q.Load-load) < 1e-9 })
	if i < 0 {
		return BookSimPoint{}, false
	}
	return c.Points[i], true
}

// SaturationFactor defines the saturation load of a latency curve: the load at which
// its mean latency reaches this multiple of its zero-load latency, a common convention
// for networks on chip that both simulators' curves resolve between their loads.
const SaturationFactor = 3

// SaturationLoad is where curve c's latency first reaches SaturationFactor times its
// latency at its lowest load, interpolated linearly between the loads around it; when
// the first load past it is past saturation (no latency), the midpoint of the two;
// NaN when the curve never gets there.
func (c BookSimCurve) SaturationLoad() float64 {
	if len(c.Points) < 2 || math.IsNaN(c.Points[0].Latency) {
		return math.NaN()
	}
	target := SaturationFactor * c.Points[0].Latency
	for i := 1; i < len(c.Points); i++ {
		a, b := c.Points[i-1], c.Points[i]
		switch {
		case math.IsNaN(b.Latency):
			return (a.Load + b.Load) / 2
		case b.Latency >= target:
			return a.Load + (target-a.Latency)*(b.Load-a.Load)/(b.Latency-a.Latency)
		}
	}
	return math.NaN()
}

// SaturationThroughput is the mean accepted traffic (flits/cycle/node) of the runs of
// config under traffic that went to their end past saturation, at the load they ran
// (the first load at which BookSim2 ended a run of the grid as unstable), and how many
// there are (0: none).
func SaturationThroughput(runs []BookSimRun, config, traffic string) (load, accepted float64, n int) {
	for _, r := range runs {
		if r.ToEnd && r.Config == config && r.Traffic == traffic {
			n++
			load = r.Load
			accepted += (r.Accepted - accepted) / float64(n)
		}
	}
	return load, accepted, n
}

// BookSimAgreement sets one of our curves beside BookSim2's, in the terms of issue 41's
// acceptance: zero-load latency and saturation throughput within 5 %, mean latency
// within 10 % at every load below 0.9 times BookSim2's saturation load.
type BookSimAgreement struct {
	Config, Traffic string
	ZeroLoad        [2]float64 // BookSim2's and ours: mean packet latency at the lowest load
	// Throughput is BookSim2's and ours: the accepted traffic at ThroughputLoad, the
	// first load past BookSim2's saturation, both run to their end (NaN: not run).
	Throughput     [2]float64
	ThroughputLoad float64
	Saturation     [2]float64 // BookSim2's and ours: SaturationLoad, the knee
	// Worst is the largest relative difference of our mean latency from BookSim2's
	// at the loads below 0.9 times BookSim2's saturation load, at WorstLoad.
	Worst, WorstLoad float64
	Compared         int // loads compared for Worst
}

// Tolerances of issue 41's acceptance.
const (
	BookSimZeroLoadTolerance   = 0.05
	BookSimSaturationTolerance = 0.05
	BookSimLatencyTolerance    = 0.10
)

// CompareBookSim compares our curve with BookSim2's at the loads both ran; sat is
// BookSim2's saturation throughput (SaturationThroughput), our accepted traffic at
// its load is read from our curve (our runs always go to their end).
func CompareBookSim(ref, ours BookSimCurve, satLoad, satAccepted float64) BookSimAgreement {
	a := BookSimAgreement{Config: ref.Config, Traffic: ref.Traffic, ThroughputLoad: satLoad,
		Throughput: [2]float64{math.NaN(), math.NaN()}}
	if satLoad > 0 {
		a.Throughput[0] = satAccepted
		if q, ok := ours.at(satLoad); ok {
			a.Throughput[1] = q.Accepted
		}
	}
	if len(ref.Points) > 0 && len(ours.Points) > 0 {
		a.ZeroLoad = [2]float64{ref.Points[0].Latency, ours.Points[0].Latency}
	}
	a.Saturation = [2]float64{ref.SaturationLoad(), ours.SaturationLoad()}
	for _, p := range ref.Points {
		if !(p.Load < 0.9*a.Saturation[0]) || math.IsNaN(p.Latency) {
			continue
		}
		q, ok := ours.at(p.Load)
		if !ok {
			continue
		}
		a.Compared++
		d := rel(p.Latency, q.Latency) // +Inf: ours past saturation where BookSim2 is not
		if d > a.Worst || a.Compared == 1 {
			a.Worst, a.WorstLoad = d, p.Load
		}
	}
	return a
}

// Measured reports whether BookSim2's saturation throughput was measured.
func (a BookSimAgreement) Measured() bool { return !math.IsNaN(a.Throughput[0]) }

// rel is |ours/ref - 1|, +Inf when either is NaN.
func rel(ref, ours float64) float64 {
	d := math.Abs(ours/ref - 1)
	if math.IsNaN(d) {
		return math.Inf(1)
	}
	return d
}

// Agrees reports whether the curve meets the three tolerances, and if not, which
// first fails. Where BookSim2 has no run to its end past saturation (Throughput[0]
// NaN: on the 8×8×8 torus one such run takes BookSim2 more than half an hour) the
// saturation throughput is not compared, and Measured says so.
func (a BookSimAgreement) Agrees() (bool, string) {
	switch {
	case rel(a.ZeroLoad[0], a.ZeroLoad[1]) > BookSimZeroLoadTolerance:
		return false, fmt.Sprintf("zero-load latency %.1f vs BookSim2's %.1f", a.ZeroLoad[1], a.ZeroLoad[0])
	case a.Measured() && rel(a.Throughput[0], a.Throughput[1]) > BookSimSaturationTolerance:
		return false, fmt.Sprintf("saturation throughput %.3f vs BookSim2's %.3f", a.Throughput[1], a.Throughput[0])
	case a.Compared == 0:
		return false, "no load below 0.9 × saturation to compare"
	case a.Worst > BookSimLatencyTolerance:
		return false, fmt.Sprintf("latency %+.0f %% at load %g", 100*a.Worst, a.WorstLoad)
	}
	return true, ""
}

// BookSimPair is one configuration under one pattern in both simulators.
type BookSimPair struct {
	Ref, Ours BookSimCurve
	Agreement BookSimAgreement
	About     string // where our side comes from (Results.About)
}

// BookSimComparison is the stored BookSim2 grid beside our side of it.
type BookSimComparison struct {
	Runs  []BookSimRun
	Pairs []BookSimPair // in the order of the grid's CSV
}

// CompareWithBookSim loads our side of every configuration and pattern of the grid
// (the booksim-CONFIG-TRAFFIC experiments) in the given mode and sets it beside
// BookSim2's stored runs. Quick mode runs a few of the loads, shorter: its verdicts
// are indicative, the stored full runs' are the comparison.
func CompareWithBookSim(ctx context.Context, mode Mode, progress func(done, total int)) (*BookSimComparison, error) {
	runs, err := BookSimRuns()
	if err != nil {
		return nil, err
	}
	c := &BookSimComparison{Runs: runs}
	for _, ref := range BookSimCurves(runs) {
		res, err := LoadResults(ctx, "booksim-"+ref.Config+"-"+ref.Traffic, mode, progress)
		if err != nil {
			return nil, err
		}
		ours := OurBookSimCurve(ref.Config, ref.Traffic, res.Summaries())
		load, acc, _ := SaturationThroughput(runs, ref.Config, ref.Traffic)
		c.Pairs = append(c.Pairs, BookSimPair{Ref: ref, Ours: ours, Agreement: CompareBookSim(ref, ours, load, acc), About: res.About()})
	}
	return c, nil
}

// Table is the comparison as rows: configuration, pattern, zero-load latency and
// saturation throughput of both, the largest latency difference below 0.9 × BookSim2's
// saturation load, and the verdict against issue 41's tolerances.
func (c *BookSimComparison) Table() (headers []string, rows [][]string) {
	headers = []string{"configuration", "traffic", "zero-load latency BookSim2 / ours (cycles)",
		"saturation throughput BookSim2 / ours (flits/cycle/node)", "at load", "largest latency difference below 0.9 × saturation", "verdict"}
	num := func(v float64, prec int) string {
		if math.IsNaN(v) {
			return "–"
		}
		return strconv.FormatFloat(v, 'f', prec, 64)
	}
	for _, p := range c.Pairs {
		a := p.Agreement
		verdict := "agrees"
		if ok, why := a.Agrees(); !ok {
			verdict = "differs: " + why
		} else if !a.Measured() {
			verdict = "agrees in latency; BookSim2's saturation throughput not run"
		}
		worst := "–"
		if a.Compared > 0 {
			worst = fmt.Sprintf("%.1f %% at %g", 100*a.Worst, a.WorstLoad)
		}
		rows = append(rows, []string{a.Config, a.Traffic, num(a.ZeroLoad[0], 1) + " / " + num(a.ZeroLoad[1], 1),
			num(a.Throughput[0], 3) + " / " + num(a.Throughput[1], 3), loadText(a), worst, verdict})
	}
	return headers, rows
}

// loadText is the load of a's saturation throughput, "–" where BookSim2 ran none.
func loadText(a BookSimAgreement) string {
	if !a.Measured() {
		return "–"
	}
	return strconv.FormatFloat(a.ThroughputLoad, 'g', -1, 64)
}

// Figure draws one configuration's latency curves, every pattern in both simulators:
// BookSim2 dashed, ours solid, one colour per pattern; each curve up to its last load
// before saturation.
func (c *BookSimComparison) Figure(config string) (plots.LinePlot, error) {
	p := plots.LinePlot{Options: plots.Options{Title: config + ": BookSim2 (dashed) and twintorus (solid)",
		XLabel: "offered load (flits/cycle/node)", YLabel: "mean packet latency (cycles)"}}
	n := 0
	for _, pair := range c.Pairs {
		if pair.Ref.Config != config {
			continue
		}
		n++
		for i, curve := range []BookSimCurve{pair.Ref, pair.Ours} {
			s := plots.Series{Name: pair.Ref.Traffic + [...]string{", BookSim2", ", twintorus"}[i], Color: plots.Color(n), Dash: [...]plots.Dash{plots.Dashed, plots.Solid}[i]}
			for _, q := range curve.Points {
				if !math.IsNaN(q.Latency) {
					s.Points = append(s.Points, plots.Point{X: q.Load, Y: q.Latency})
				}
			}
			p.Series = append(p.Series, s)
		}
	}
	if n == 0 {
		return p, fmt.Errorf("no configuration %q in the BookSim2 grid: accepted are %s", config, strings.Join(c.Configs(), ", "))
	}
	return p, nil
}

// Configs lists the grid's configurations in order.
func (c *BookSimComparison) Configs() []string {
	var names []string
	for _, pair := range c.Pairs {
		if !slices.Contains(names, pair.Ref.Config) {
			names = append(names, pair.Ref.Config)
		}
	}
	return names
}
