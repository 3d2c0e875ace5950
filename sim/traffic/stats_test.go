package traffic

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Statistical checks use fixed seeds, so they are deterministic; their thresholds sit
// about 4 standard deviations out, and TestStatsHavePower shows they reject
// distributions a little off the mark.

func newRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

// chiSquared compares observed counts with expected probabilities (summing to 1).
func chiSquared(observed []int, prob []float64) (stat float64, df int) {
	total := 0
	for _, o := range observed {
		total += o
	}
	for i, o := range observed {
		e := prob[i] * float64(total)
		if e == 0 {
			if o != 0 {
				return math.Inf(1), len(observed) - 1
			}
			continue
		}
		stat += (float64(o) - e) * (float64(o) - e) / e
		df++
	}
	return stat, df - 1
}

// chiCritical is the chi-squared quantile about 4 standard normal deviations above the
// median (tail ≈ 3e-5), by the Wilson–Hilferty approximation.
func chiCritical(df int) float64 {
	const z = 4.0
	k := float64(df)
	a := 2 / (9 * k)
	return k * math.Pow(1-a+z*math.Sqrt(a), 3)
}

// checkChi fails t when observed counts do not fit prob.
func checkChi(t *testing.T, what string, observed []int, prob []float64) {
	t.Helper()
	stat, df := chiSquared(observed, prob)
	if crit := chiCritical(df); !(stat <= crit) {
		t.Errorf("%s: chi-squared %.1f with %d degrees of freedom exceeds %.1f", what, stat, df, crit)
	}
}

// within reports whether an estimate is within 4.5 standard errors of the truth.
func within(est, truth, se float64) bool { return math.Abs(est-truth) <= 4.5*se }

func TestStatsHavePower(t *testing.T) {
	rng := newRNG(1)
	const n, cells = 310_000, 31
	fair := make([]float64, cells)
	for i := range fair {
		fair[i] = 1.0 / cells
	}
	good, biased := make([]int, cells), make([]int, cells)
	for range n {
		good[rng.IntN(cells)]++
		// One cell 10 % more likely than the others.
		u := rng.Float64() * (cells + 0.1)
		biased[min(int(u), cells-1)]++
	}
	if stat, df := chiSquared(good, fair); stat > chiCritical(df) {
		t.Errorf("fair sampler rejected: chi-squared %.1f > %.1f", stat, chiCritical(df))
	}
	if stat, df := chiSquared(biased, fair); stat <= chiCritical(df) {
		t.Errorf("a 10%% bias in one of %d cells went unnoticed: chi-squared %.1f <= %.1f", cells, stat, chiCritical(df))
	}
	// The chi-squared upper tail at 49.54 with 16 degrees of freedom is 2.7e-5 (by the
	// regularised incomplete gamma function): the approximation must land close.
	if c := chiCritical(16); math.Abs(c-49.54) > 0.5 {
		t.Errorf("chiCritical(16) = %.2f, want about 49.54", c)
	}
}
