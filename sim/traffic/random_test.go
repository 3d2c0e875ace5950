package traffic

import (
	"fmt"
	"math"
	"testing"
)

// destCounts draws n destinations from src and counts them per PE (index N: silent).
func destCounts(t *testing.T, p Pattern, pes, src, n int, seed uint64) []int {
	t.Helper()
	rng := newRNG(seed)
	counts := make([]int, pes)
	for range n {
		d := p.Dest(src, rng)
		if d < 0 || d >= pes {
			t.Fatalf("%s: Dest(%d) = %d, outside 0..%d", p.Name(), src, d, pes-1)
		}
		counts[d]++
	}
	return counts
}

func TestUniform(t *testing.T) {
	const pes = 32
	p := mustPattern(t, "uniform", "torus:4x4@2")
	for _, src := range []int{0, 13, pes - 1} {
		counts := destCounts(t, p, pes, src, 31*4000, uint64(src)+1)
		if counts[src] != 0 {
			t.Errorf("uniform: PE %d sent %d messages to itself", src, counts[src])
		}
		prob := make([]float64, pes)
		for d := range prob {
			if d != src {
				prob[d] = 1.0 / (pes - 1)
			}
		}
		checkChi(t, fmt.Sprintf("uniform from PE %d", src), counts, prob)
	}
	// The smallest network: the other PE, always.
	two := mustPattern(t, "uniform", "torus:2")
	rng := newRNG(9)
	for range 100 {
		if two.Dest(0, rng) != 1 || two.Dest(1, rng) != 0 {
			t.Fatal("uniform on 2 PEs must send each PE's messages to the other")
		}
	}
}

// zipfOffsetPMF is P(r) = r^−s / Σ_{j=1}^{N−1} j^−s, written out here independently.
func zipfOffsetPMF(s float64, pes int) []float64 {
	sum := 0.0
	for r := 1; r < pes; r++ {
		sum += math.Pow(float64(r), -s)
	}
	pmf := make([]float64, pes) // index = offset; offset 0 (self) has probability 0
	for r := 1; r < pes; r++ {
		pmf[r] = math.Pow(float64(r), -s) / sum
	}
	return pmf
}

func TestZipfOffset(t *testing.T) {
	const pes = 64
	for _, s := range []float64{0, 0.8, 1, 2} {
		p := mustPattern(t, fmt.Sprintf("zipf:%g", s), "torus:8x8")
		pmf := zipfOffsetPMF(s, pes)
		z := p.(*zipf)
		for r := 1; r < pes; r++ {
			if got := z.prob(0, r); math.Abs(got-pmf[r]) > 1e-12 {
				t.Fatalf("zipf:%g: P(offset %d) = %g, want %g", s, r, got, pmf[r])
			}
		}
		src := 37
		counts := destCounts(t, p, pes, src, 200_000, 7)
		byOffset := make([]int, pes)
		for d, c := range counts {
			byOffset[(d-src+pes)%pes] += c
		}
		if byOffset[0] != 0 {
			t.Errorf("zipf:%g: PE %d sent to itself", s, src)
		}
		checkChi(t, fmt.Sprintf("zipf:%g offsets from PE %d", s, src), byOffset, pmf)
		if s > 0 {
			// The first ranks are far apart: their frequencies must strictly decrease.
			for r := 2; r <= 5; r++ {
				if byOffset[r] >= byOffset[r-1] {
					t.Errorf("zipf:%g: offset %d drawn %d times, offset %d %d times; want fewer", s, r, byOffset[r], r-1, byOffset[r-1])
				}
			}
		}
	}
}

func TestZipfGlobal(t *testing.T) {
	const pes, s = 64, 1.5
	p := mustPattern(t, "zipf:1.5/global", "torus:8x8")
	// src 0 excludes the most popular PE, src 63 the least (the top of the search).
	for _, src := range []int{0, 5, pes - 1} {
		sum := 0.0
		for d := range pes {
			if d != src {
				sum += math.Pow(float64(d+1), -s)
			}
		}
		pmf := make([]float64, pes)
		for d := range pes {
			if d != src {
				pmf[d] = math.Pow(float64(d+1), -s) / sum
			}
			if got := p.(*zipf).prob(src, d); math.Abs(got-pmf[d]) > 1e-12 {
				t.Fatalf("zipf global: P(%d→%d) = %g, want %g", src, d, got, pmf[d])
			}
		}
		counts := destCounts(t, p, pes, src, 200_000, uint64(src)+3)
		if counts[src] != 0 {
			t.Errorf("zipf global: PE %d sent to itself", src)
		}
		checkChi(t, fmt.Sprintf("zipf:1.5/global from PE %d", src), counts, pmf)
	}
}

func TestHotspotSingle(t *testing.T) {
	const pes, frac, n = 64, 0.2, 200_000
	p := mustPattern(t, "hotspot:0.2", "torus:8x8")
	// From a cold PE: PE 0 gets the hot share plus its uniform share.
	counts := destCounts(t, p, pes, 5, n, 11)
	want := frac + (1-frac)/(pes-1)
	got := float64(counts[0]) / n
	if !within(got, want, math.Sqrt(want*(1-want)/n)) {
		t.Errorf("hotspot:0.2 from PE 5: %.4f of messages to PE 0, want %.4f", got, want)
	}
	prob := make([]float64, pes)
	for d := range prob {
		switch d {
		case 0:
			prob[d] = want
		case 5:
		default:
			prob[d] = (1 - frac) / (pes - 1)
		}
	}
	checkChi(t, "hotspot:0.2 from PE 5", counts, prob)
	// The hot PE itself has no other hot PE to aim at: it sends uniformly.
	counts = destCounts(t, p, pes, 0, n, 12)
	for d := range prob {
		prob[d] = 1.0 / (pes - 1)
	}
	prob[0] = 0
	checkChi(t, "hotspot:0.2 from the hot PE", counts, prob)
}

func TestHotspotShare(t *testing.T) {
	const pes, frac, n = 64, 0.25, 200_000
	p := mustPattern(t, "hotspot:0.25@12.5%/lowest", "torus:8x8") // hot = PEs 0..7
	if h := p.(*hotspot).hot; len(h) != 8 || h[0] != 0 || h[7] != 7 {
		t.Fatalf("hot PEs %v, want 0..7", h)
	}
	for _, src := range []int{20, 3} {
		hot := 8.0
		if src < 8 {
			hot = 7 // a hot source aims at the other hot PEs
		}
		prob := make([]float64, pes)
		for d := range prob {
			switch {
			case d == src:
			case d < 8:
				prob[d] = frac/hot + (1-frac)/(pes-1)
			default:
				prob[d] = (1 - frac) / (pes - 1)
			}
		}
		counts := destCounts(t, p, pes, src, n, uint64(src))
		checkChi(t, fmt.Sprintf("hotspot:0.25@12.5%%/lowest from PE %d", src), counts, prob)
		inHot := 0
		for d := range 8 {
			inHot += counts[d]
		}
		want := frac + (1-frac)*hot/(pes-1)
		if got := float64(inHot) / n; !within(got, want, math.Sqrt(want*(1-want)/n)) {
			t.Errorf("from PE %d: %.4f of messages to the hot region, want %.4f", src, got, want)
		}
	}
	// round(5% of 64) = round(3.2) = 3 hot PEs; a tiny share still gives one.
	for spec, want := range map[string]int{"hotspot:0.1@5%": 3, "hotspot:0.1@0.1%": 1, "hotspot:0.1@100%": 64, "hotspot:0.1@2-5,9": 5} {
		if got := len(mustPattern(t, spec, "torus:8x8").(*hotspot).hot); got != want {
			t.Errorf("%s: %d hot PEs, want %d", spec, got, want)
		}
	}
}

func TestHotspotList(t *testing.T) {
	const pes, n = 64, 100_000
	p := mustPattern(t, "hotspot:1@10,20", "torus:8x8") // all traffic to PEs 10 and 20
	counts := destCounts(t, p, pes, 30, n, 5)
	if counts[10]+counts[20] != n {
		t.Errorf("hotspot:1@10,20: only %d of %d messages went to PEs 10 and 20", counts[10]+counts[20], n)
	}
	if !within(float64(counts[10])/n, 0.5, math.Sqrt(0.25/n)) {
		t.Errorf("hotspot:1@10,20: PE 10 got %d of %d", counts[10], n)
	}
	counts = destCounts(t, p, pes, 10, 1000, 6) // PE 10's hot traffic all goes to PE 20
	if counts[20] != 1000 {
		t.Errorf("hotspot:1@10,20 from PE 10: %d of 1000 messages to PE 20", counts[20])
	}
}

func TestPatternsAreDeterministic(t *testing.T) {
	for _, spec := range allSpecs {
		p := mustPattern(t, spec, "twin:4x4x2x4x4/cbest")
		a, b := newRNG(42), newRNG(42)
		for src := range 1024 {
			if x, y := p.Dest(src, a), p.Dest(src, b); x != y {
				t.Fatalf("%s: Dest(%d) gave %d then %d with the same seed", spec, src, x, y)
			}
		}
	}
}

func TestDestNeverAllocates(t *testing.T) {
	for _, spec := range allSpecs {
		p := mustPattern(t, spec, "twin:4x4x2x4x4/cbest")
		rng := newRNG(1)
		src := 0
		if a := testing.AllocsPerRun(1000, func() { p.Dest(src%1024, rng); src++ }); a != 0 {
			t.Errorf("%s: Dest allocates %.1f times per call", spec, a)
		}
	}
}
