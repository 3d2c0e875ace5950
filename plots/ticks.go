package plots

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// roundTicks puts major ticks at round numbers, a step of 1, 2, 2.5 or 5 times a power
// of ten chosen to give about target ticks across the range, every label written with
// the same number of decimals the step needs (0, 0.1, 0.2; 25, 50, 75; 0.05, 0.10);
// minor ticks divide each step in four or five. It is matplotlib's default (its
// MaxNLocator steps and AutoMinorLocator), which gonum's DefaultTicks is not: that
// one gives steps like 0.15 and labels like 25.00.
type roundTicks struct{ target int }

// tickSteps are the mantissas of a major step, with the minor divisions of each.
var tickSteps = []struct {
	mantissa float64
	minor    int
}{{1, 5}, {2, 4}, {2.5, 5}, {5, 5}, {10, 5}}

// Ticks returns the ticks between lo and hi.
func (t roundTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return []plot.Tick{{Value: lo, Label: formatTick(lo, 0)}}
	}
	step, minor, decimals := roundStep(hi-lo, max(t.target, 2))
	var ticks []plot.Tick
	// Work in units of the minor step, so that values are exact multiples.
	ms := step / float64(minor)
	first, last := math.Ceil(lo/ms-1e-9), math.Floor(hi/ms+1e-9)
	for i := first; i <= last; i++ {
		v := i * ms
		major := math.Mod(math.Abs(i), float64(minor)) == 0
		if math.Abs(v) < ms*1e-9 {
			v = 0
		}
		tk := plot.Tick{Value: v}
		if major {
			tk.Label = formatTick(v, decimals)
		}
		ticks = append(ticks, tk)
	}
	return ticks
}

// roundStep is the round major step for a range, its minor divisions and the
// decimals its labels need.
func roundStep(span float64, target int) (step float64, minor, decimals int) {
	raw := span / float64(target)
	exp := math.Floor(math.Log10(raw))
	mag := math.Pow(10, exp)
	for _, s := range tickSteps {
		if s.mantissa*mag >= raw*(1-1e-9) {
			m, e := s.mantissa, exp
			if m == 10 {
				m, e = 1, e+1
			}
			extra := 0.0
			if m == 2.5 {
				extra = 1 // 0.25, 2.5; but 25
			}
			return s.mantissa * mag, s.minor, int(max(0, extra-e))
		}
	}
	return raw, 5, 0
}

// formatTick writes v with the given decimals, and never "-0".
func formatTick(v float64, decimals int) string {
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if z, err := strconv.ParseFloat(s, 64); err == nil && z == 0 {
		return strconv.FormatFloat(0, 'f', decimals, 64)
	}
	return s
}

// padRange widens a linear axis by share of its span on each side (matplotlib's
// margins), so that no marker, cap or error bar sits on the frame. The low end does
// not cross zero when the data do not: a curve of loads starting at 0.02 gets an
// axis from 0, not from -0.01.
func padRange(a *plot.Axis, share float64) {
	if _, log := a.Scale.(plot.LogScale); log {
		return
	}
	lo, hi := a.Min, a.Max
	span := hi - lo
	if !(span > 0) {
		return
	}
	a.Min, a.Max = lo-share*span, hi+share*span
	if lo >= 0 && a.Min < 0 {
		a.Min = 0
	}
	if hi <= 0 && a.Max > 0 {
		a.Max = 0
	}
}
