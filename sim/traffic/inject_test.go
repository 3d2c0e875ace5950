package traffic

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func mustSizes(t testing.TB, spec string) Sizes {
	t.Helper()
	s, err := ParseSizes(spec)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestInjectionRate(t *testing.T) {
	cases := []struct {
		load  float64
		sizes string
		flits int
		p     float64
	}{
		{0.3, "70%x2,30%x8", 4, 0.3 / 15.2},
		{0.5, "1", 4, 0.125},
		{1, "1", 1, 1},
		{0.8, "70%x1,30%x3", 4, 0.8 / 6.4},
		{0, "1-32", 1, 0},
	}
	for _, c := range cases {
		in, err := NewInjection(c.load, mustSizes(t, c.sizes), float64(c.flits))
		if err != nil {
			t.Errorf("load %g, %s x %d flits: %v", c.load, c.sizes, c.flits, err)
			continue
		}
		if math.Abs(in.P()-c.p) > 1e-15 || in.Load() != c.load {
			t.Errorf("load %g, %s x %d flits: p = %g, load %g; want p = %g", c.load, c.sizes, c.flits, in.P(), in.Load(), c.p)
		}
	}
}

func TestInjectionErrors(t *testing.T) {
	one := mustSizes(t, "1")
	cases := []struct {
		load  float64
		sizes Sizes
		flits int
		want  string
	}{
		{-0.1, one, 4, "offered load -0.1 flits/cycle/PE: accepted is a finite number >= 0"},
		{math.NaN(), one, 4, "offered load NaN"},
		{math.Inf(1), one, 4, "offered load +Inf"},
		{0.5, one, 0, "packet of 0 flits: accepted is 1 or more"},
		{5, one, 4, "offered load 5 flits/cycle/PE needs 1.25 messages per cycle per PE, but at most 1 is possible with messages of 1 packets x 4 flits (mean 4 flits); accepted loads are 0 to 4"},
		{16, mustSizes(t, "70%x2,30%x8"), 4, "accepted loads are 0 to 15.2"},
	}
	for _, c := range cases {
		_, err := NewInjection(c.load, c.sizes, float64(c.flits))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("load %g, %s x %d: error %v, want one line with %q", c.load, c.sizes, c.flits, err, c.want)
		}
	}
}

// gapStats draws n gaps and returns their mean, variance and histogram (last bin: ≥ len−1).
func gapStats(in Injection, n, bins int, seed uint64, offset int) (mean, variance float64, hist []int) {
	rng := newRNG(seed)
	hist = make([]int, bins)
	sum, sq := 0.0, 0.0
	for range n {
		g := in.NextGap(rng) + offset
		sum += float64(g)
		sq += float64(g) * float64(g)
		hist[min(g, bins-1)]++
	}
	mean = sum / float64(n)
	return mean, sq/float64(n) - mean*mean, hist
}

func TestNextGapIsGeometric(t *testing.T) {
	const n = 200_000
	for _, p := range []float64{0.001, 0.02, 0.3, 0.9} {
		in := Injection{p: p, logq: math.Log1p(-p)}
		mu, v := 1/p, (1-p)/(p*p)
		mean, variance, hist := gapStats(in, n, 40, uint64(p*1e6), 0)
		seMean := math.Sqrt(v / n)
		// The geometric distribution's kurtosis is 9 + p²/(1−p); Var(s²) ≈ (μ4 − σ⁴)/n.
		mu4 := v * v * (9 + p*p/(1-p))
		seVar := math.Sqrt((mu4 - v*v) / n)
		if !within(mean, mu, seMean) {
			t.Errorf("p = %g: gap mean %.4f, want 1/p = %.4f (se %.4f)", p, mean, mu, seMean)
		}
		if !within(variance, v, seVar) {
			t.Errorf("p = %g: gap variance %.4f, want (1-p)/p² = %.4f (se %.4f)", p, variance, v, seVar)
		}
		if hist[0] != 0 {
			t.Errorf("p = %g: %d gaps of 0 cycles", p, hist[0])
		}
		// Histogram against P(g) = (1−p)^(g−1)·p, with the tail in the last bin.
		prob := make([]float64, len(hist))
		for g := 1; g < len(hist)-1; g++ {
			prob[g] = math.Pow(1-p, float64(g-1)) * p
		}
		prob[len(hist)-1] = math.Pow(1-p, float64(len(hist)-2))
		checkChi(t, fmt.Sprintf("gap histogram, p = %g", p), hist, prob)
		// The same mean check rejects gaps off by one cycle, so it has teeth.
		if off, _, _ := gapStats(in, n, 2, uint64(p*1e6), 1); within(off, mu, seMean) && p > 0.01 {
			t.Errorf("p = %g: gaps off by one pass the mean check", p)
		}
	}
}

func TestNextGapMatchesBernoulliFrequencies(t *testing.T) {
	// Mark generation cycles with NextGap over a long run; then the share of cycles
	// with a generation must be p, and the counts per window of W cycles must be
	// Binomial(W, p), as they are when Fire is tried every cycle.
	const cycles, w = 2_000_000, 10
	for _, p := range []float64{0.05, 0.4} {
		in := Injection{p: p, logq: math.Log1p(-p)}
		rng := newRNG(uint64(p * 100))
		fired := make([]bool, cycles)
		for c := in.NextGap(rng) - 1; c < cycles; c += in.NextGap(rng) {
			fired[c] = true
		}
		bern := newRNG(uint64(p*100) + 1)
		total, bernTotal := 0, 0
		windows := make([]int, w+1)
		for start := 0; start < cycles; start += w {
			k := 0
			for c := start; c < start+w; c++ {
				if fired[c] {
					k++
				}
				if in.Fire(bern) {
					bernTotal++
				}
			}
			windows[k]++
			total += k
		}
		se := math.Sqrt(p * (1 - p) / cycles)
		if got := float64(total) / cycles; !within(got, p, se) {
			t.Errorf("p = %g: NextGap generated in %.5f of cycles, want %.5f", p, got, p)
		}
		if got := float64(bernTotal) / cycles; !within(got, p, se) {
			t.Errorf("p = %g: Fire succeeded in %.5f of cycles, want %.5f", p, got, p)
		}
		binom := make([]float64, w+1)
		for k := range binom {
			binom[k] = float64(choose(w, k)) * math.Pow(p, float64(k)) * math.Pow(1-p, float64(w-k))
		}
		checkChi(t, fmt.Sprintf("generations per %d cycles, p = %g", w, p), windows, binom)
	}
}

func choose(n, k int) int {
	c := 1
	for i := range k {
		c = c * (n - i) / (i + 1)
	}
	return c
}

func TestNextGapEdges(t *testing.T) {
	rng := newRNG(3)
	always, err := NewInjection(4, mustSizes(t, "1"), 4)
	if err != nil {
		t.Fatal(err)
	}
	var never Injection
	zero, err := NewInjection(0, mustSizes(t, "1"), 4)
	if err != nil {
		t.Fatal(err)
	}
	for range 1000 {
		if g := always.NextGap(rng); g != 1 || !always.Fire(rng) {
			t.Fatalf("p = 1: gap %d, want 1 and Fire true", g)
		}
		if never.NextGap(rng) != Never || zero.NextGap(rng) != Never || never.Fire(rng) || zero.Fire(rng) {
			t.Fatal("p = 0: want gap Never and Fire false")
		}
	}
	if Never+Never < 0 {
		t.Error("Never + Never overflows")
	}
	tiny := Injection{p: 1e-300, logq: math.Log1p(-1e-300)}
	for range 1000 {
		if g := tiny.NextGap(rng); g < 1 || g > Never {
			t.Fatalf("p = 1e-300: gap %d outside 1..Never", g)
		}
	}
	if a := testing.AllocsPerRun(1000, func() { always.NextGap(rng); tiny.NextGap(rng) }); a != 0 {
		t.Errorf("NextGap allocates %.1f times per call", a)
	}
}
