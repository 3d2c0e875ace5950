package engine

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
)

// TestCountedRun is a measuring aid, not a check: with TT_COUNTED_RUN=name,warm,cycles it
// runs one of the benchmarks' configurations (countedRuns, SPEC@SCHEME@LOAD: figureRun,
// or SPEC@LOAD: benchRun) for that many cycles and prints the packet-hops of the cycles after the
// first warm ones and a digest of the results. scripts/instructions.sh runs it so.
// Run under valgrind's cachegrind twice with different cycle counts, the difference of
// the counts is the cost of the extra cycles alone (BENCHMARKS.md, issue 15):
//
//	go test -c -o engine.test ./sim/engine/
//	TT_COUNTED_RUN=torus32,200,300 valgrind --tool=cachegrind --cache-sim=yes ./engine.test -test.run=CountedRun -test.v
func TestCountedRun(t *testing.T) {
	arg := os.Getenv("TT_COUNTED_RUN")
	if arg == "" {
		t.Skip("TT_COUNTED_RUN=name,warm,cycles not set (a measuring aid)")
	}
	f := strings.Split(arg, ",")
	if len(f) != 3 {
		t.Fatalf("TT_COUNTED_RUN=%q: want name,warm,cycles", arg)
	}
	name := f[0]
	warm, err1 := strconv.ParseInt(f[1], 10, 64)
	cycles, err2 := strconv.ParseInt(f[2], 10, 64)
	if err1 != nil || err2 != nil || warm > cycles {
		t.Fatalf("TT_COUNTED_RUN=%q: want name,warm,cycles (warm <= cycles)", arg)
	}
	build, ok := countedRuns[name]
	if !ok {
		build, ok = figureRun(name)
	}
	if !ok {
		build, ok = benchRun(name)
	}
	if !ok {
		t.Fatalf("TT_COUNTED_RUN: unknown run %q: want one of the named runs, SPEC@SCHEME@LOAD or SPEC@LOAD", name)
	}
	e := build(t)
	for e.now < warm {
		e.Step()
	}
	hops0 := e.m.flitHops
	for e.now < cycles {
		e.Step()
	}
	fmt.Printf("%s: cycles %d..%d flit-hops %d packet-hops %.0f delivered %d latency-sum %.0f\n",
		name, warm, cycles, e.m.flitHops-hops0, float64(e.m.flitHops-hops0)/float64(e.L), e.m.delPackets, e.m.netLat.sum)
}

// countedRuns are the benchmarks' configurations, by name.
var countedRuns = map[string]func(t testing.TB) *Engine{
	"torus8": func(t testing.TB) *Engine {
		return newRun(t, "torus:8x8x8", routing.SchemeVC, "uniform", benchParams(0.2))
	},
	"torus16": func(t testing.TB) *Engine {
		return newRun(t, "torus:16x16x16", routing.SchemeVC, "uniform", benchParams(0.05))
	},
	"torus32": func(t testing.TB) *Engine {
		return newRun(t, "torus:32x32x32", routing.SchemeVC, "uniform", benchParams(0.02))
	},
	"torus64": func(t testing.TB) *Engine {
		return newRun(t, "torus:64x32x32", routing.SchemeVC, "uniform", benchParams(0.05))
	},
	// Past saturation under dateline VCs, as the A–J figure's highest loads run:
	// most heads and NICs wait for room.
	"twinAvc": func(t testing.TB) *Engine {
		p := Defaults()
		p.Load, p.Warmup, p.Measure = 0.6, 0, 1<<40
		return newRun(t, "twin:4x4x4/A", routing.SchemeVC, "uniform", p)
	},
	"torus16x8vc": func(t testing.TB) *Engine {
		p := Defaults()
		p.Load, p.Warmup, p.Measure = 0.6, 0, 1<<40
		return newRun(t, "torus:16x8", routing.SchemeVC, "uniform", p)
	},
	"twin4sat": func(t testing.TB) *Engine {
		p := Defaults()
		p.Load, p.Warmup, p.Measure = 0.4, 0, 1<<40
		return newRun(t, "twin:4x4x4/D", routing.SchemeBubble, "uniform", p)
	},
}

// figureRun is a run named SPEC@SCHEME@LOAD (twin:4x4x4/A@bubble@0.6): the network under
// DOR/DORT with that deadlock scheme and the defaults of the papers' figures (5,000
// cycles of warm-up and 20,000 measured, uniform traffic), the regimes the figures'
// sweeps spend their time in.
func figureRun(name string) (func(t testing.TB) *Engine, bool) {
	f := strings.Split(name, "@")
	if len(f) != 3 {
		return nil, false
	}
	scheme, err := routing.ParseScheme(f[1])
	load, err2 := strconv.ParseFloat(f[2], 64)
	if err != nil || err2 != nil {
		return nil, false
	}
	return func(t testing.TB) *Engine {
		p := Defaults()
		p.Load = load
		return newRun(t, f[0], scheme, "uniform", p)
	}, true
}

// benchRun is a run named SPEC@LOAD (torus:8x8x8@0.6): the torus benchmarks' parameters
// (benchParams, DOR with dateline VCs) on that network at that load.
func benchRun(name string) (func(t testing.TB) *Engine, bool) {
	spec, l, ok := strings.Cut(name, "@")
	load, err := strconv.ParseFloat(l, 64)
	if !ok || err != nil || strings.Contains(l, "@") {
		return nil, false
	}
	return func(t testing.TB) *Engine {
		return newRun(t, spec, routing.SchemeVC, "uniform", benchParams(load))
	}, true
}

// benchParams are the torus benchmarks' parameters: 2 VCs × 64 flits, at a load.
func benchParams(load float64) Params {
	p := Defaults()
	p.External, p.Terminal = Buffer{VCs: 2, Flits: 64}, Buffer{VCs: 2, Flits: 64}
	p.Load, p.Warmup, p.Measure = load, 0, 1<<40
	return p
}
