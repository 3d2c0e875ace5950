package traffic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
)

// Never is the gap NextGap returns when the load is zero: far enough to never come,
// small enough that adding it to a cycle count cannot overflow.
const Never = 1 << 62

// Injection is Bernoulli message generation: in every cycle each PE generates a
// message with probability P. The zero Injection never generates.
type Injection struct {
	load float64 // offered load, flits/cycle/PE
	p    float64 // messages per cycle per PE
	logq float64 // ln(1 − p), for NextGap
}

// NewInjection sets up generation at an offered load in flits/cycle/PE for messages
// of the given sizes and packets of packetFlits flits on average (the engine's
// packet length, or the mean of variable ones): p = load / (mean flits per message).
// It fails when load is negative or not finite, when packetFlits < 1, and when p > 1
// (no PE can start more than one message per cycle).
func NewInjection(load float64, sizes Sizes, packetFlits float64) (Injection, error) {
	if math.IsNaN(load) || math.IsInf(load, 0) || load < 0 {
		return Injection{}, fmt.Errorf("offered load %v flits/cycle/PE: accepted is a finite number >= 0", load)
	}
	if !(packetFlits >= 1) || math.IsInf(packetFlits, 0) {
		return Injection{}, fmt.Errorf("packet of %s flits: accepted is 1 or more", fmtFloat(packetFlits))
	}
	mean := sizes.Mean() * packetFlits
	p := load / mean
	if p > 1 {
		return Injection{}, fmt.Errorf("offered load %s flits/cycle/PE needs %s messages per cycle per PE, but at most 1 is possible with messages of %s packets x %s flits (mean %s flits); accepted loads are 0 to %s",
			fmtFloat(load), fmtFloat(p), sizes, fmtFloat(packetFlits), fmtFloat(mean), fmtFloat(mean))
	}
	return Injection{load: load, p: p, logq: math.Log1p(-p)}, nil
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// Load is the offered load in flits/cycle/PE.
func (in Injection) Load() float64 { return in.load }

// P is the probability that a PE generates a message in a given cycle.
func (in Injection) P() float64 { return in.p }

// Fire is one cycle's Bernoulli trial: whether the PE generates a message now.
func (in Injection) Fire(rng *rand.Rand) bool { return rng.Float64() < in.p }

// NextGap is the number of cycles (≥ 1) from one cycle to the next cycle in which
// the PE generates a message, with the same distribution as repeating Fire until it
// succeeds: P(gap = g) = (1−p)^(g−1)·p. It is Never when p = 0.
func (in Injection) NextGap(rng *rand.Rand) int {
	switch {
	case in.p >= 1:
		return 1
	case in.p <= 0:
		return Never
	}
	// Inversion: P(gap > g) = P(u ≤ q^g) = q^g for u uniform on (0, 1].
	u := 1 - rng.Float64()
	g := math.Floor(math.Log(u) / in.logq)
	if g >= Never-1 {
		return Never
	}
	return 1 + int(g)
}
