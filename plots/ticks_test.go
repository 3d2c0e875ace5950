package plots

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

func labels(ticks []plot.Tick) string {
	var l []string
	for _, t := range ticks {
		if t.Label != "" {
			l = append(l, t.Label)
		}
	}
	return strings.Join(l, " ")
}

// TestRoundTicks: the ranges of the papers' figures get the ticks a reader expects.
func TestRoundTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		target int
		want   string
	}{
		{0, 0.6, 6, "0.0 0.1 0.2 0.3 0.4 0.5 0.6"},
		{0.016, 0.44, 6, "0.1 0.2 0.3 0.4"},
		{0.04, 0.26, 6, "0.05 0.10 0.15 0.20 0.25"},
		{15, 260, 5, "50 100 150 200 250"},
		{10, 160, 6, "25 50 75 100 125 150"},
		{0, 1, 4, "0.00 0.25 0.50 0.75 1.00"},
		{-2, 2, 4, "-2 -1 0 1 2"},
		{0, 3.2e6, 4, "0 1000000 2000000 3000000"},
		{5, 5, 5, "5"},
	} {
		if got := labels(roundTicks{c.target}.Ticks(c.lo, c.hi)); got != c.want {
			t.Errorf("ticks of [%g, %g] (about %d) = %q, want %q", c.lo, c.hi, c.target, got, c.want)
		}
	}
	// Minor ticks divide a step of 0.1 in five, one of 50 in five, one of 2 in four.
	for _, c := range []struct {
		lo, hi float64
		target int
		n      int
	}{{0, 0.6, 6, 31}, {0, 250, 5, 26}, {0, 8, 4, 17}} {
		if n := len(roundTicks{c.target}.Ticks(c.lo, c.hi)); n != c.n {
			t.Errorf("[%g, %g]: %d ticks in all, want %d", c.lo, c.hi, n, c.n)
		}
	}
}

func TestPadRange(t *testing.T) {
	a := plot.Axis{Min: 0.04, Max: 0.44, Scale: plot.LinearScale{}}
	padRange(&a, 0.05)
	if math.Abs(a.Min-0.02) > 1e-12 || math.Abs(a.Max-0.46) > 1e-12 {
		t.Errorf("padded to [%g, %g]", a.Min, a.Max)
	}
	a = plot.Axis{Min: 0.01, Max: 0.41, Scale: plot.LinearScale{}}
	padRange(&a, 0.05)
	if a.Min != 0 {
		t.Errorf("positive data padded below zero: %g", a.Min)
	}
	a = plot.Axis{Min: 1, Max: 100, Scale: plot.LogScale{}}
	padRange(&a, 0.05)
	if a.Min != 1 || a.Max != 100 {
		t.Error("log axis padded")
	}
}
