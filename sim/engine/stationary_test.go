package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// The check on synthetic batch means: a constant series and a noisy one without trend
// pass, a falling line fails, a noisy one whose drift exceeds the tolerance but not its
// noise passes, and drift and noise are those of an independent least-squares fit
// (gonum's) with Student's t.
func TestCheckStationarySynthetic(t *testing.T) {
	constant := []float64{0.4, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4}
	if ok, drift, noise := CheckStationary(constant, 0.02); !ok || math.Abs(drift) > 1e-12 || noise > 1e-12 {
		t.Errorf("constant series: stationary %v, drift %g, noise %g; want true, 0, 0 (to rounding)", ok, drift, noise)
	}
	// A throughput still falling: 1 % of the first batch per batch, no noise. The line
	// is exact: drift = slope·k/2/mean = −0.01·5/0.955.
	falling := make([]float64, 10)
	for j := range falling {
		falling[j] = 1 - 0.01*float64(j)
	}
	ok, drift, noise := CheckStationary(falling, 0.02)
	if want := -0.05 / 0.955; ok || math.Abs(drift-want) > 1e-12 || noise > 1e-12 {
		t.Errorf("falling series: stationary %v, drift %g (want %g), noise %g (want 0); it must fail", ok, drift, want, noise)
	}
	if ok, _, _ := CheckStationary(falling, 0.06); !ok {
		t.Errorf("falling series with tolerance 0.06 (its drift is 0.052): want stationary")
	}
	// Alternating 1.2, 0.8, ...: a slope of −0.2·5/82.5 from the alternation alone,
	// a drift of −1/16.5 beyond the 2 % tolerance, which its scatter explains.
	alternating := make([]float64, 10)
	for j := range alternating {
		alternating[j] = 1 + 0.2*math.Pow(-1, float64(j))
	}
	ok, drift, noise = CheckStationary(alternating, 0.02)
	if !ok || math.Abs(drift+1/16.5) > 1e-12 || noise <= math.Abs(drift) {
		t.Errorf("alternating series: stationary %v, drift %g (want %g), noise %g (want above the drift)", ok, drift, -1/16.5, noise)
	}
	// The same falling trend under that scatter's tenth: detected.
	noisyFalling := make([]float64, 10)
	for j := range noisyFalling {
		noisyFalling[j] = falling[j] + 0.02*math.Pow(-1, float64(j))
	}
	ok, drift, noise = CheckStationary(noisyFalling, 0.02)
	if ok {
		t.Errorf("noisy falling series: drift %g, noise %g; want not stationary", drift, noise)
	}
	// Independently: gonum's regression of the batch means on their index, the
	// residuals' standard error of the slope, Student's t at 95 %.
	for _, x := range [][]float64{alternating, noisyFalling, {0.3, 0.31, 0.29, 0.33, 0.28, 0.3, 0.27}} {
		idx := make([]float64, len(x))
		for j := range idx {
			idx[j] = float64(j)
		}
		alpha, beta := stat.LinearRegression(idx, x, nil, false)
		var rss float64
		for j := range x {
			r := x[j] - alpha - beta*idx[j]
			rss += r * r
		}
		_, sd := stat.MeanStdDev(idx, nil)
		sxx := sd * sd * float64(len(x)-1)
		k := float64(len(x))
		mean := stat.Mean(x, nil)
		tq := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: k - 2}.Quantile(0.975)
		wantDrift := beta * k / 2 / mean
		wantNoise := tq * math.Sqrt(rss/(k-2)/sxx) * k / 2 / mean
		ok, drift, noise := CheckStationary(x, 0.02)
		if math.Abs(drift-wantDrift) > 1e-9 || math.Abs(noise-wantNoise) > 1e-9 || ok != (math.Abs(wantDrift) <= math.Max(0.02, wantNoise)) {
			t.Errorf("%v: drift %g noise %g stationary %v; gonum gives drift %g noise %g", x, drift, noise, ok, wantDrift, wantNoise)
		}
	}
	if ok, drift, noise := CheckStationary(make([]float64, 6), 0.02); !ok || drift != 0 || noise != 0 {
		t.Errorf("nothing delivered: stationary %v, drift %g, noise %g; want true, 0, 0", ok, drift, noise)
	}
}

// stationaryRun is torus:8x8 under dateline VCs at twice its saturation throughput
// (about 0.46 flits/cycle/PE) with no warm-up: the first window of 4,000 cycles still
// sees the accepted traffic fall from the empty network's 0.51 to 0.46.
func stationaryRun(t *testing.T, threads int, change func(*Params)) (*Result, []byte) {
	t.Helper()
	p := params(1.0, 0, 4000, 3)
	if change != nil {
		change(&p)
	}
	net := topology.MustNew("torus:8x8")
	rt, err := routing.New(routing.Default(net), net, routing.SchemeVC, routing.TiePlus)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := threadsResult(t, Config{Net: net, Routing: rt, Params: p}, "uniform", threads, 0)
	var r Result
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r, b
}

// withoutStationarity is a result's JSON without the check's verdict.
func withoutStationarity(t *testing.T, r *Result) []byte {
	t.Helper()
	c := *r
	c.Stationarity, c.Elapsed = nil, 0
	b, err := json.Marshal(&c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Twice past saturation the first window fails the check and the run measures the
// next one, in the same simulation: what it reports is, field for field, what a run
// without the check whose warm-up is the failed window measures. The first window
// alone (one window: check only) is marked not stationary, falling, and reads a
// higher throughput than the window the extension reports.
func TestStationaryExtension(t *testing.T) {
	r, _ := stationaryRun(t, 1, nil)
	s := r.Stationarity
	if s == nil || s.Windows < 2 {
		t.Fatalf("the first window was not run on: %+v", s)
	}
	if !s.Stationary || s.WindowStart != int64(s.Windows-1)*4000 || r.Cycles != int64(s.Windows)*4000 || len(s.Batches) != 10 {
		t.Fatalf("run on to %d windows: stationary %v, window from %d, %d cycles, %d batches; want stationary, from %d, %d cycles, 10 batches",
			s.Windows, s.Stationary, s.WindowStart, r.Cycles, len(s.Batches), (s.Windows-1)*4000, s.Windows*4000)
	}
	var sum float64
	for _, b := range s.Batches {
		sum += b
	}
	if math.Abs(sum/10-r.Accepted) > 1e-12 { // equal batches: their mean is the window's
		t.Errorf("batches average %v, the window accepted %v", sum/10, r.Accepted)
	}
	later, _ := stationaryRun(t, 1, func(p *Params) {
		*p = p.StationaryOff()
		p.Warmup = s.WindowStart
	})
	if got, want := withoutStationarity(t, r), withoutStationarity(t, later); !bytes.Equal(got, want) {
		t.Errorf("the extended run differs from the run with the longer warm-up:\n%s\n%s", got, want)
	}
	first, _ := stationaryRun(t, 1, func(p *Params) { p.StationaryWindows = 1 })
	f := first.Stationarity
	if f.Stationary || f.Windows != 1 || f.Drift >= -0.02 || first.Accepted <= r.Accepted {
		t.Errorf("first window: stationary %v, %d window(s), drift %g, accepted %g (the extension's %g); want not stationary, 1, falling beyond 2 %%, higher",
			f.Stationary, f.Windows, f.Drift, first.Accepted, r.Accepted)
	}
	t.Logf("first window: accepted %.4f, drift %.3f, noise %.3f; window %d: accepted %.4f, drift %.3f, noise %.3f",
		first.Accepted, f.Drift, f.Noise, s.Windows, r.Accepted, s.Drift, s.Noise)
}

// The extension on two threads (every cycle's allocation in parallel) gives the
// one-thread result byte for byte, the verdict and the counts kept ahead included.
func TestStationaryExtensionThreads(t *testing.T) {
	r, one := stationaryRun(t, 1, nil)
	if r.Stationarity.Windows < 2 {
		t.Fatalf("no extension to compare: %+v", r.Stationarity)
	}
	_, two := stationaryRun(t, 2, nil)
	if !bytes.Equal(one, two) {
		t.Fatalf("2 threads differ from one:\n%s\n%s", two, one)
	}
	again, _ := stationaryRun(t, 1, nil)
	if b := withoutStationarity(t, again); !bytes.Equal(b, withoutStationarity(t, r)) {
		t.Fatalf("same point and seed, another result")
	}
}

// A run that the check finds stationary in its first window is the run without the
// check, field for field: the golden points, whose results are stored bit for bit.
// Where the check runs on, the result is that of the run whose warm-up covers the
// windows it discarded.
func TestStationaryCheckKeepsResults(t *testing.T) {
	for _, c := range goldenCases {
		p := params(0.35, 1000, 4000, 42)
		p.Channels = true
		c.change(&p)
		on, err := newRun(t, c.spec, c.scheme, c.traffic, p).Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		s := on.Stationarity
		if s == nil || len(s.Batches) != DefaultStationaryBatches {
			t.Fatalf("%s: no verdict: %+v", c.name, s)
		}
		off := p.StationaryOff()
		off.Warmup = s.WindowStart
		r, err := newRun(t, c.spec, c.scheme, c.traffic, off).Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got, want := withoutStationarity(t, on), withoutStationarity(t, r); !bytes.Equal(got, want) {
			t.Errorf("%s: with the check (%d window(s)) the result differs from the run without it:\n%s\n%s", c.name, s.Windows, got, want)
		}
		t.Logf("%s: stationary %v after %d window(s), drift %.3f, noise %.3f", c.name, s.Stationary, s.Windows, s.Drift, s.Noise)
	}
}

// Bad stationarity parameters are refused with what is accepted; the check off
// accepts anything in the other two.
func TestStationaryParams(t *testing.T) {
	for _, c := range []struct {
		change func(*Params)
		want   string // "" accepted
	}{
		{func(p *Params) {}, ""},
		{func(p *Params) { p.StationaryBatches = 3 }, "accepted are 0 (no check) or 4 to"},
		{func(p *Params) { p.StationaryBatches = MaxStationaryBatches + 1 }, "accepted are 0 (no check) or 4 to"},
		{func(p *Params) { p.StationaryBatches, p.Measure = 20, 10 }, "cannot be cut into 20 stationary batches"},
		{func(p *Params) { p.StationaryTolerance = math.NaN() }, "stationary tolerance"},
		{func(p *Params) { p.StationaryTolerance = -0.1 }, "stationary tolerance"},
		{func(p *Params) { p.StationaryWindows = 0 }, "stationary windows: accepted are 1"},
		{func(p *Params) { p.Measure = MaxCycles / 2 }, "windows of"},
		{func(p *Params) { *p = p.StationaryOff(); p.StationaryTolerance = math.NaN() }, ""},
	} {
		p := params(0.1, 10, 1000, 1).withDefaults()
		c.change(&p)
		err := p.validate()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v refused: %v", p, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("want an error with %q, got %v", c.want, err)
		}
	}
}

// Batches are the window cut into k parts whose lengths differ by at most a cycle, and
// a cycle's batch is ⌊(t−start)·k/Measure⌋ (computed here with math/big), whatever the
// order the cycles come in and however long the window.
func TestBatchBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, measure := range []int64{10, 97, 20000, 1<<40 + 3} {
		for _, k := range []int{4, 7, 10, 100} {
			if int64(k) > measure {
				continue
			}
			m := &meter{start: 12345, end: 12345 + measure, k: k, measure: measure}
			m.setBatches()
			if m.bounds[0] != m.start || m.bounds[k] != m.end {
				t.Fatalf("measure %d, k %d: bounds from %d to %d, want the window %d to %d", measure, k, m.bounds[0], m.bounds[k], m.start, m.end)
			}
			for j := range k {
				if l := m.bounds[j+1] - m.bounds[j]; l != measure/int64(k) && l != measure/int64(k)+1 {
					t.Fatalf("measure %d, k %d: batch %d is %d cycles", measure, k, j, l)
				}
			}
			for range 2000 {
				at := m.start + rng.Int64N(measure)
				want := new(big.Int).Mul(big.NewInt(at-m.start), big.NewInt(int64(k)))
				want.Div(want, big.NewInt(measure))
				if got := m.batchOf(at); int64(got) != want.Int64() {
					t.Fatalf("measure %d, k %d: cycle %d in batch %d, want %d", measure, k, at, got, want)
				}
			}
		}
	}
}
