package engine

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"
	"unsafe"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/traffic"
)

// sourceRun runs a point with the given source-queue settings: plain keeps every
// message (the unbounded queue), capMsgs > 0 overrides the cap.
func sourceRun(t *testing.T, spec, pattern, sizes string, sw Switching, p Params, plain bool, capMsgs int32) (*Result, *Engine) {
	t.Helper()
	net := topology.MustNew(spec)
	rt, err := routing.New(routing.Default(net), net, routing.SchemeVC, routing.TiePlus)
	if err != nil {
		t.Fatal(err)
	}
	pat, err := traffic.ParsePattern(pattern, net)
	if err != nil {
		t.Fatal(err)
	}
	sz, err := traffic.ParseSizes(sizes)
	if err != nil {
		t.Fatal(err)
	}
	p.Switching = sw
	if sw == Wormhole {
		p.Terminal, p.External, p.Internal = Buffer{VCs: 4, Flits: 3}, Buffer{VCs: 2, Flits: 3}, Buffer{VCs: 8, Flits: 3}
	}
	e, err := New(Config{Net: net, Routing: rt, Pattern: pat, Sizes: sz, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	e.src.plain = plain
	if capMsgs > 0 {
		e.src.capMsgs = capMsgs
	}
	r, err := e.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r.Elapsed = 0
	return r, e
}

// The horizon drops only messages that could never be sent before the run ends:
// saturated runs give the unbounded queue's results bit for bit, while keeping far
// fewer messages.
func TestSourceHorizonExact(t *testing.T) {
	cases := []struct {
		spec, pattern, sizes string
		sw                   Switching
		load                 float64
	}{
		{"torus:4x4", "uniform", "1", CutThrough, 4},
		{"twin:4x4x2/D", "uniform", "70%x1,30%x3", CutThrough, 2},
		{"torus:4x4", "hotspot:0.3", "1-4", Wormhole, 1},
	}
	for _, c := range cases {
		// With the stationarity check's windows the horizon is the last window's end,
		// which these runs do not reach: the same results, nothing dropped.
		p := params(c.load, 1000, 4000, 5)
		p.Channels = true
		bounded, _ := sourceRun(t, c.spec, c.pattern, c.sizes, c.sw, p, false, 0)
		plain, _ := sourceRun(t, c.spec, c.pattern, c.sizes, c.sw, p, true, 0)
		if d := diffFields(*bounded, *plain); d != "" {
			t.Errorf("%s %s %s with the stationarity check: the horizon changed %s", c.spec, c.pattern, c.sw, d)
		}
		p = p.StationaryOff()
		bounded, e := sourceRun(t, c.spec, c.pattern, c.sizes, c.sw, p, false, 0)
		plain, ep := sourceRun(t, c.spec, c.pattern, c.sizes, c.sw, p, true, 0)
		if d := diffFields(*bounded, *plain); d != "" {
			t.Errorf("%s %s %s: the horizon changed %s", c.spec, c.pattern, c.sw, d)
		}
		horizon, kept, keptPlain := 0, int64(0), int64(0)
		for pe, s := range e.src.state {
			if s == srcHorizon {
				horizon++
			}
			kept += int64(e.src.n[pe])
			keptPlain += int64(ep.src.n[pe])
		}
		if horizon == 0 || !bounded.Saturated {
			t.Errorf("%s: no queue reached the horizon (saturated %v): the test tests nothing", c.spec, bounded.Saturated)
		}
		t.Logf("%s %s %s: %d PEs past the horizon; %d messages kept at the end instead of %d", c.spec, c.pattern, c.sw, horizon, kept, keptPlain)
	}
}

// A queue at its cap draws its traffic lazily: the law of what a run measures stays
// the unbounded queue's. With a cap of 2 messages, runs that keep hitting it (and
// leaving it) must agree with the plain queue within sampling error, over 12 seeds:
// below saturation (PEs go lazy and back to drawing at their cycles all the time) and
// far beyond it (every PE lazy for good, latency from generation growing with time).
func TestSourceCapKeepsLaw(t *testing.T) {
	if testing.Short() {
		t.Skip("48 runs; run without -short")
	}
	cases := []struct {
		spec, sizes string
		load        float64
	}{
		{"torus:4x4", "70%x1,30%x3", 0.55},
		{"torus:4x4", "1", 3},
	}
	const seeds = 12
	for _, c := range cases {
		type sample struct{ offered, accepted, e2e, msg, net []float64 }
		var s [2]sample
		lazy := int64(0)
		for i, plain := range []bool{false, true} {
			for seed := uint64(1); seed <= seeds; seed++ {
				r, e := sourceRun(t, c.spec, "uniform", c.sizes, CutThrough, params(c.load, 2000, 8000, seed), plain, 2)
				s[i].offered = append(s[i].offered, r.Offered)
				s[i].accepted = append(s[i].accepted, r.Accepted)
				s[i].e2e = append(s[i].e2e, r.LatencyE2E.Mean)
				s[i].msg = append(s[i].msg, r.LatencyMessage.Mean)
				s[i].net = append(s[i].net, r.LatencyNetwork.Mean)
				if !plain {
					lazy += e.src.lazies
				}
			}
		}
		for _, m := range []struct {
			name string
			a, b []float64
		}{{"offered", s[0].offered, s[1].offered}, {"accepted", s[0].accepted, s[1].accepted},
			{"end-to-end latency", s[0].e2e, s[1].e2e}, {"message latency", s[0].msg, s[1].msg},
			{"network latency", s[0].net, s[1].net}} {
			ma, sa := meanSE(m.a)
			mb, sb := meanSE(m.b)
			z := math.Abs(ma-mb) / math.Hypot(sa, sb)
			if z > 4 {
				t.Errorf("%s load %g: %s %.4f ± %.4f with the cap, %.4f ± %.4f unbounded (%.1f standard errors apart)", c.spec, c.load, m.name, ma, sa, mb, sb, z)
			}
			t.Logf("%s load %g: %s %.4f ± %.4f capped, %.4f ± %.4f unbounded", c.spec, c.load, m.name, ma, sa, mb, sb)
		}
		if lazy < seeds*16 {
			t.Errorf("%s load %g: PEs reached the cap %d times in %d runs: the cap was not exercised", c.spec, c.load, lazy, seeds)
		}
		t.Logf("%s load %g: PEs reached the cap %d times in %d runs", c.spec, c.load, lazy, seeds)
	}
}

// meanSE is the mean of v and its standard error.
func meanSE(v []float64) (mean, se float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	var ss float64
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(v)-1) / float64(len(v)))
}

// A saturated run of 1,000,000 cycles (torus:4x4@4, 64 PEs each generating a message
// every cycle, far more than the network delivers) keeps its heap under a fixed bound:
// every source queue stops growing at its cap (65,536 messages: srcBudgetBytes, 128
// MiB, is 4,194,304 messages of 32 bytes over the network, in chunks of 1 MiB) within
// 100,000 cycles, long before the horizon would bound it, and the
// heap at 900,000 cycles is the heap at 400,000. The unbounded queue kept every
// message: about 3.5 GB by the end of this run.
func TestSaturatedRunMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000,000 cycles; run without -short")
	}
	bound := uint64(srcBudgetBytes) + srcChunk*uint64(unsafe.Sizeof(srcMsg{})) + 16<<20
	e := newRun(t, "torus:4x4@4", routing.SchemeVC, "uniform", params(4, 0, 1_000_000, 1))
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapInuse
	}
	base := heap()
	var at400k uint64
	e.beforeAlloc = func() {
		if e.now%100_000 != 0 || e.now == 0 {
			return
		}
		h := heap()
		h -= min(base, h)
		if h > bound {
			t.Fatalf("cycle %d: the run holds %.1f MB, more than the bound of %d MB", e.now, float64(h)/(1<<20), bound>>20)
		}
		switch e.now {
		case 400_000:
			at400k = h
			lazy := 0
			for _, s := range e.src.state {
				if s == srcLazy {
					lazy++
				}
			}
			if lazy < len(e.src.state)/2 {
				t.Errorf("only %d of %d PEs are at their cap: the test is not about the cap", lazy, len(e.src.state))
			}
		case 900_000:
			if h > at400k+1<<20 {
				t.Errorf("the heap grew from %.1f MB at cycle 400,000 to %.1f MB at 900,000", float64(at400k)/(1<<20), float64(h)/(1<<20))
			}
			t.Logf("heap held by the run: %.1f MB at cycle 400,000, %.1f MB at 900,000 (bound %d MB)", float64(at400k)/(1<<20), float64(h)/(1<<20), bound>>20)
		}
	}
	r, err := e.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r.Deadlock != nil || !r.Saturated || r.Offered < 3.9 || r.Accepted > 1 {
		t.Errorf("offered %.3f, accepted %.3f, saturated %v, deadlock %v: the run is not the saturated one this test is about", r.Offered, r.Accepted, r.Saturated, r.Deadlock)
	}
	t.Logf("offered %.3f, accepted %.3f flits/cycle/PE", r.Offered, r.Accepted)
}

// The source queues at their cap hold what the budget says, in bytes (issue 39: the
// comment said 96 MB where a pool grown by append held twice its 128 MiB, and a
// saturated run on 64 PEs took 0.5 GB): 4,096 PEs generating a message a cycle reach
// their cap of 1,024 messages within 2,000 cycles, and the pool then holds the budget
// and at most one chunk.
func TestSourceQueueCapInBytes(t *testing.T) {
	if srcBudgetBytes != 128<<20 || srcBudget != 4194304 {
		t.Fatalf("budget %d bytes, %d messages: the comment says 128 MiB, 4,194,304 messages", srcBudgetBytes, srcBudget)
	}
	e := newRun(t, "torus:8x8@64", routing.SchemeVC, "uniform", params(4, 0, 10_000, 1))
	if _, err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	chunk := int64(srcChunk * unsafe.Sizeof(srcMsg{}))
	if got := e.src.poolBytes(); got < srcBudgetBytes-chunk || got > srcBudgetBytes+chunk {
		t.Errorf("the pool holds %d MiB at the cap; the budget is %d MiB", got>>20, srcBudgetBytes>>20)
	}
	if e.src.lazies == 0 {
		t.Error("no PE reached its cap: the test is not about the cap")
	}
	t.Logf("pool %d MiB (%d messages), %d times a PE reached its cap", e.src.poolBytes()>>20, e.src.size, e.src.lazies)
}

// A random hot set is drawn from the run's seed when the engine is built
// (traffic.Seeded): the engine's pattern has the seed's draw, another seed draws
// another set, and the run is the same for the same seed.
func TestRandomHotSetFromSeed(t *testing.T) {
	net := topology.MustNew("torus:8x8")
	pat, err := traffic.ParsePattern("hotspot:0.5@10%/random", net)
	if err != nil {
		t.Fatal(err)
	}
	sets := map[string]bool{}
	for seed := uint64(1); seed <= 4; seed++ {
		r, e := sourceRun(t, "torus:8x8", "hotspot:0.5@10%/random", "1", CutThrough, params(0.1, 200, 2000, seed), false, 0)
		got, _ := traffic.HotPEs(e.pat)
		want, _ := traffic.HotPEs(traffic.Seeded(pat, seed))
		if !slices.Equal(got, want) || len(got) != 6 {
			t.Fatalf("seed %d: the engine's hot PEs %v, the seed's draw %v", seed, got, want)
		}
		sets[fmt.Sprint(got)] = true
		again, _ := sourceRun(t, "torus:8x8", "hotspot:0.5@10%/random", "1", CutThrough, params(0.1, 200, 2000, seed), false, 0)
		if d := diffFields(*r, *again); d != "" {
			t.Fatalf("seed %d: two runs differ %s", seed, d)
		}
	}
	if len(sets) < 3 {
		t.Errorf("4 seeds drew %d hot sets", len(sets))
	}
}
