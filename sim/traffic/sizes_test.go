package traffic

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestSizesParse(t *testing.T) {
	cases := []struct {
		in, canonical string
		mean          float64
		max           int
	}{
		{"1", "1", 1, 1},
		{" 4 ", "4", 4, 4},
		{"100%x3", "3", 3, 3},
		{"70%x1,30%x3", "70%x1,30%x3", 1.6, 3}, // 3DT journal
		{"70%x2,30%x8", "70%x2,30%x8", 3.8, 8}, // nDT paper: 15.2 flits with 4-flit packets
		{"70% x 2 , 30%X8", "70%x2,30%x8", 3.8, 8},
		{"1-32", "1-32", 16.5, 32}, // EXTOLL paper
		{"50%x1,50%x4-8", "50%x1,50%x4-8", 3.5, 8},
		{"12.5%x1,87.5%x2", "12.5%x1,87.5%x2", 1.875, 2},
		{"30%x3,70%x1", "30%x3,70%x1", 1.6, 3}, // order is kept
		{"33.3333333%x1,33.3333333%x2,33.3333334%x3", "33.3333333%x1,33.3333333%x2,33.3333334%x3", 2.000000001, 3},
	}
	for _, c := range cases {
		s, err := ParseSizes(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if s.String() != c.canonical || math.Abs(s.Mean()-c.mean) > 1e-9 || s.Max() != c.max {
			t.Errorf("%q: %s, mean %g, max %d; want %s, %g, %d", c.in, s, s.Mean(), s.Max(), c.canonical, c.mean, c.max)
		}
		if r, err := ParseSizes(s.String()); err != nil || r.String() != s.String() {
			t.Errorf("%q does not round-trip: %v, %v", s, r, err)
		}
	}
	var zero Sizes
	if zero.String() != "1" || zero.Mean() != 1 || zero.Max() != 1 || zero.Sample(newRNG(1)) != 1 {
		t.Errorf("zero Sizes: %s, mean %g, max %d; want one packet", zero, zero.Mean(), zero.Max())
	}
}

func TestSizesErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "empty; accepted: N"},
		{"abc", `bad packet count "abc": accepted is N or LO-HI`},
		{"0", `bad packet count "0"`},
		{"-3", `bad packet count "-3"`},
		{"5-3", `bad packet count "5-3"`},
		{"2000000", "LO <= HI <= 1048576"},
		{"70%x1,20%x3", "the percentages sum to 90%; they must sum to 100%"},
		{"70%x1,40%x3", "sum to 110%"},
		{"50%x1", "sum to 50%"},
		{"70%x1,30", `"30" has no percentage`},
		{"70%1,30%x3", `no 'x' after "70%"`},
		{"0%x1,100%x3", `bad percentage "0%"`},
		{"101%x1", `bad percentage "101%"`},
		{"nan%x1", `bad percentage "nan%"`},
		{"%x1", `bad percentage "%"`},
		{"70%x1,,30%x3", `"" has no percentage`},
		{"70%x1,30%x", `bad packet count ""`},
		{"1,2", `"1" has no percentage`},
	}
	for _, c := range cases {
		_, err := ParseSizes(c.in)
		if err == nil {
			t.Errorf("%q: accepted, want an error with %q", c.in, c.want)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, fmt.Sprintf("message sizes %q: ", c.in)) || !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
			t.Errorf("%q: error %q, want one line with the spec and %q", c.in, msg, c.want)
		}
	}
}

func TestSizesSample(t *testing.T) {
	cases := []struct {
		spec string
		pmf  map[int]float64
	}{
		{"70%x2,30%x8", map[int]float64{2: 0.7, 8: 0.3}},
		{"70%x1,30%x3", map[int]float64{1: 0.7, 3: 0.3}},
		{"50%x1,50%x4-7", map[int]float64{1: 0.5, 4: 0.125, 5: 0.125, 6: 0.125, 7: 0.125}},
		{"20%x3,30%x2-3,50%x1", map[int]float64{1: 0.5, 2: 0.15, 3: 0.35}},
		{"1-32", func() map[int]float64 {
			m := map[int]float64{}
			for k := 1; k <= 32; k++ {
				m[k] = 1.0 / 32
			}
			return m
		}()},
	}
	const n = 200_000
	for i, c := range cases {
		s, err := ParseSizes(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		rng := newRNG(uint64(i) + 100)
		counts := make([]int, s.Max()+1)
		sum := 0
		for range n {
			k := s.Sample(rng)
			if k < 1 || k > s.Max() {
				t.Fatalf("%s: sampled %d packets", c.spec, k)
			}
			counts[k]++
			sum += k
		}
		prob := make([]float64, len(counts))
		mean, sq := 0.0, 0.0
		for k, p := range c.pmf {
			prob[k] = p
			mean += p * float64(k)
			sq += p * float64(k*k)
		}
		checkChi(t, c.spec, counts, prob)
		if math.Abs(s.Mean()-mean) > 1e-12 {
			t.Errorf("%s: Mean %g, want %g", c.spec, s.Mean(), mean)
		}
		if got := float64(sum) / n; !within(got, mean, math.Sqrt((sq-mean*mean)/n)) {
			t.Errorf("%s: sample mean %g, want %g", c.spec, got, mean)
		}
	}
}

func TestSizesText(t *testing.T) {
	var v struct{ Sizes Sizes }
	if err := json.Unmarshal([]byte(`{"Sizes":"70%x2, 30%x8"}`), &v); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(v)
	if err != nil || string(out) != `{"Sizes":"70%x2,30%x8"}` {
		t.Errorf("JSON round trip gave %s, %v", out, err)
	}
	if err := json.Unmarshal([]byte(`{"Sizes":"70%x2"}`), &v); err == nil || !strings.Contains(err.Error(), "sum to 70%") {
		t.Errorf("bad sizes in JSON: error %v, want the percentages' sum", err)
	}
}

func TestSampleNeverAllocates(t *testing.T) {
	s, _ := ParseSizes("50%x1,25%x4-8,25%x2")
	rng := newRNG(1)
	if a := testing.AllocsPerRun(1000, func() { s.Sample(rng) }); a != 0 {
		t.Errorf("Sample allocates %.1f times per call", a)
	}
}
