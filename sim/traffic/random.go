package traffic

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// uniform sends each message to one of the other N−1 PEs, uniformly.
type uniform struct{ n int }

func newUniform(l layout) (Pattern, error) { return uniform{n: l.n}, nil }

func (uniform) Name() string   { return "uniform" }
func (uniform) String() string { return "uniform" }

func (u uniform) Dest(src int, rng *rand.Rand) int { return otherPE(u.n, src, rng) }

// otherPE is uniform over the n−1 PEs other than src: draw among n−1 and skip src.
func otherPE(n, src int, rng *rand.Rand) int {
	d := rng.IntN(n - 1)
	if d >= src {
		d++
	}
	return d
}

// MaxZipfExponent bounds the Zipf exponent: beyond it nearly every message goes to
// one destination and the distribution's tail underflows.
const MaxZipfExponent = 10

// zipf draws destinations with Zipf probabilities over offsets (default) or PE ids.
type zipf struct {
	s      float64
	global bool
	n      int
	// offset ranking: cdf[i] = P(offset ≤ i+1), cdf[N−2] = 1.
	// global ranking: w[j] = (j+1)^−s and cdf[j] = w[0] + … + w[j], not normalised.
	cdf []float64
	w   []float64
}

func newZipf(arg string, l layout) (Pattern, error) {
	exp, rank, hasRank := strings.Cut(arg, "/")
	s, err := parseNumber(strings.TrimSpace(exp))
	if err != nil || s < 0 || s > MaxZipfExponent {
		return nil, fmt.Errorf("bad Zipf exponent %q: accepted is a number from 0 to %d, e.g. zipf:1 or zipf:0.8/global", exp, MaxZipfExponent)
	}
	z := &zipf{s: s, n: l.n}
	switch rank = strings.ToLower(strings.TrimSpace(rank)); {
	case !hasRank || rank == "offset":
	case rank == "global":
		z.global = true
	default:
		return nil, fmt.Errorf("unknown Zipf ranking %q after '/': accepted are offset (the default: rank = (dst-src) mod N) and global (rank = dst+1)", rank)
	}
	if z.global {
		z.w = make([]float64, l.n)
		z.cdf = make([]float64, l.n)
		sum := 0.0
		for j := range z.w {
			z.w[j] = math.Pow(float64(j+1), -s)
			sum += z.w[j]
			z.cdf[j] = sum
		}
		return z, nil
	}
	z.cdf = make([]float64, l.n-1)
	sum := 0.0
	for r := 1; r < l.n; r++ {
		sum += math.Pow(float64(r), -s)
		z.cdf[r-1] = sum
	}
	for i := range z.cdf {
		z.cdf[i] /= sum
	}
	z.cdf[len(z.cdf)-1] = 1 // so that every u in [0,1) finds an offset
	return z, nil
}

func (z *zipf) Name() string {
	name := "zipf:" + strconv.FormatFloat(z.s, 'g', -1, 64)
	if z.global {
		name += "/global"
	}
	return name
}

func (z *zipf) String() string { return z.Name() }

// prob is the probability that a message from src goes to dst (tests use it).
func (z *zipf) prob(src, dst int) float64 {
	if dst == src {
		return 0
	}
	if z.global {
		return z.w[dst] / (z.cdf[z.n-1] - z.w[src])
	}
	r := (dst - src + z.n) % z.n
	if r == 1 {
		return z.cdf[0]
	}
	return z.cdf[r-1] - z.cdf[r-2]
}

func (z *zipf) Dest(src int, rng *rand.Rand) int {
	if !z.global {
		r := 1 + above(z.cdf, rng.Float64())
		return (src + r) % z.n
	}
	// Draw over the total weight without src, then step over src's interval.
	start := z.cdf[src] - z.w[src]
	u := rng.Float64() * (z.cdf[z.n-1] - z.w[src])
	if u >= start {
		u = z.cdf[src] + (u - start) // ≥ cdf[src], so the search lands past src
	}
	d := above(z.cdf, u)
	if d >= z.n { // float rounding at the very top
		d = z.n - 1
	}
	if d == src { // only by that same rounding, when src is the last PE
		d = src - 1
	}
	return d
}

// above is the smallest i with cdf[i] > u, or len(cdf) when there is none.
func above(cdf []float64, u float64) int {
	lo, hi := 0, len(cdf)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if cdf[mid] > u {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// parseNumber reads a finite number.
func parseNumber(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, err
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, errors.New("not a finite number")
	}
	return v, nil
}
