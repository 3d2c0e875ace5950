package engine

import (
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/traffic"
)

// The footprint estimate follows what building a network and an engine allocates:
// measured heap within 30 % of the estimate of the network and the engine's state.
func TestFootprintMatchesAllocation(t *testing.T) {
	for _, c := range []struct {
		spec        string
		scheme      routing.Scheme
		sw          Switching
		outputFlits int
		voq         bool
	}{
		{"torus:32x32x16", routing.SchemeVC, CutThrough, 0, false},
		{"twin:16x16x8/D", routing.SchemeBubble, CutThrough, 0, false},
		{"torus:32x32x16", routing.SchemeVC, Wormhole, 0, false},
		{"torus:32x32x16", routing.SchemeVC, CutThrough, 16, true},
	} {
		heap := func() int64 {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			return int64(ms.HeapAlloc)
		}
		before := heap()
		net := topology.MustNew(c.spec)
		rt := routing.NewDeterministic(net, c.scheme, routing.TiePlus)
		pat, err := traffic.ParsePattern("uniform", net)
		if err != nil {
			t.Fatal(err)
		}
		p := params(0.1, 100, 100, 1)
		p.Switching, p.OutputFlits, p.VOQ = c.sw, c.outputFlits, c.voq
		e, err := New(Config{Net: net, Routing: rt, Pattern: pat, Params: p})
		if err != nil {
			t.Fatal(err)
		}
		got := heap() - before
		f := footprint(net.Size(), e.p)
		want := f.Network + f.State
		if r := float64(got) / float64(want); r < 0.7 || r > 1.3 {
			t.Errorf("%s %s %s: building took %.1f MB, the estimate is %.1f MB (network %.1f, state %.1f)", c.spec, c.scheme, c.sw,
				float64(got)/1e6, float64(want)/1e6, float64(f.Network)/1e6, float64(f.State)/1e6)
		}
		t.Logf("%s %s %s: built %.1f MB, estimated %.1f MB; packets and queues at their largest %.1f MB more", c.spec, c.scheme, c.sw,
			float64(got)/1e6, float64(want)/1e6, float64(f.Traffic)/1e6)
		runtime.KeepAlive(e)
	}
}

// Sizes are checked up front, each error saying what is accepted: parameters out of
// range, buffers the engine cannot hold, networks the engine cannot address or the
// machine cannot hold. None of these allocates the engine.
func TestSizesRefusedUpFront(t *testing.T) {
	small := topology.MustParse("torus:4x4")
	for _, c := range []struct {
		name   string
		spec   topology.Spec
		scheme routing.Scheme
		change func(*Params)
		limit  int64
		want   string
	}{
		{"port flits too many", small, routing.SchemeVC, func(p *Params) { p.PortFlits = 100_000_000 }, 0, "100000000 flits per port: accepted are 1 to 1048576"},
		{"port flits overflowing", small, routing.SchemeVC, func(p *Params) { p.PortFlits = math.MaxInt }, 0, "accepted are 1 to 1048576"},
		{"port split into empty VCs", small, routing.SchemeVC, func(p *Params) { p.PortFlits, p.Switching = 2, Wormhole }, 0, "leave VCs of 0 flits; accepted are at least 4 flits per port"},
		{"VCs of 0 flits", small, routing.SchemeVC, func(p *Params) { p.Switching, p.Terminal = Wormhole, Buffer{VCs: 4, Flits: 0} }, 0, "terminal buffer 4x0: accepted are 1 to 64 VCs of 1 to 65536 flits"},
		{"too many VCs", small, routing.SchemeVC, func(p *Params) { p.External = Buffer{VCs: 100, Flits: 8} }, 0, "accepted are 1 to 64 VCs"},
		{"queue ring overflow", small, routing.SchemeVC, func(p *Params) { p.PacketFlits, p.External = 1, Buffer{VCs: 2, Flits: 65536} }, 0, "accepted are at most 65533 packets per VC"},
		{"cycles overflowing", small, routing.SchemeVC, func(p *Params) { p.Warmup, p.Measure = math.MaxInt64, 10 }, 0, "accepted are at most 4611686018427387903 cycles in all"},
		{"cycles summing past int64", small, routing.SchemeVC, func(p *Params) { p.Warmup, p.Measure = 1<<62, 1<<62 }, 0, "cycles in all"},
		{"watchdog negative", small, routing.SchemeVC, func(p *Params) { p.Watchdog = -1 }, 0, "watchdog -1 cycles: accepted are 0 (off) to"},
		{"saturation tolerance NaN", small, routing.SchemeVC, func(p *Params) { p.SaturationTolerance = math.NaN() }, 0, "saturation tolerance NaN: accepted are 0 to 1"},
		{"beyond the engine's queue slots", topology.MustParse("torus:4096x4096"), routing.SchemeBubble, func(*Params) {}, -1, "queues up to 2852126720 packets in its VCs; the engine holds at most 2147483647"},
		// Saturated for a million cycles, the buffers and source queues fill.
		{"beyond the memory limit", topology.MustParse("torus:64x64"), routing.SchemeVC, func(p *Params) { p.Load, p.Measure = 1, 1_000_000 }, 100 << 20, "more than the 0.1 GiB of memory this machine allows"},
	} {
		p := params(0.1, 0, 1000, 1)
		c.change(&p)
		err := CheckSize(c.spec, p, c.scheme, c.limit)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line containing %q", c.name, err, c.want)
		}
	}
	// New refuses the same before allocating: a network that exceeds a 1 MB limit.
	net := topology.MustNew("torus:32x32")
	pat, _ := traffic.ParsePattern("uniform", net)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := New(Config{Net: net, Routing: routing.NewDeterministic(net, routing.SchemeVC, routing.TiePlus), Pattern: pat, Params: params(0.1, 0, 1000, 1), MemoryLimit: 1 << 20})
	runtime.ReadMemStats(&after)
	var size *SizeError
	if !errors.As(err, &size) || size.Limit != 1<<20 {
		t.Errorf("torus:32x32 under a 1 MB limit: %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<10 {
		t.Errorf("refusing the run allocated %d bytes", grew)
	}
	// On this machine: the torus:4096x4096, refused without building it.
	if err := CheckSize(topology.MustParse("torus:4096x4096"), Defaults(), routing.SchemeVC, 0); !errors.As(err, &size) {
		t.Errorf("torus:4096x4096 on this machine: %v", err)
	} else {
		t.Log(err)
	}
}
