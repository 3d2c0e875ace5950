package engine

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
)

// Frames change nothing else of a run, and the frames that cover the measurement
// window add up to the window's per-channel utilisation, which the meter counts by a
// different path (window bounds, flits kept ahead). On the golden points, so packet
// level, wormhole and a hot spot are all covered; with the stationarity check on too,
// where the window that counts may be a later one.
func TestChannelFramesMatchWindow(t *testing.T) {
	const frame = 250 // divides the warm-up (1000) and the window (4000)
	for _, c := range goldenCases {
		for _, stationary := range []bool{false, true} {
			p := params(0.35, 1000, 4000, 42)
			if !stationary {
				p = p.StationaryOff()
			}
			p.Channels = true
			c.change(&p)
			off := runClean(t, newRun(t, c.spec, c.scheme, c.traffic, p))
			p.ChannelFrames = frame
			on := runClean(t, newRun(t, c.spec, c.scheme, c.traffic, p))
			cf := on.ChannelFrames
			if cf == nil || cf.Cycles != frame || cf.End != on.Cycles {
				t.Fatalf("%s: frames %+v for a run of %d cycles", c.name, cf, on.Cycles)
			}
			if want := int((on.Cycles + frame - 1) / frame); len(cf.Util) != want {
				t.Fatalf("%s: %d frames, want %d", c.name, len(cf.Util), want)
			}
			on.ChannelFrames, on.Elapsed, off.Elapsed = nil, 0, 0
			a, _ := json.Marshal(on)
			b, _ := json.Marshal(off)
			if string(a) != string(b) {
				t.Fatalf("%s (stationary %v): frames changed the result near %q", c.name, stationary, firstDiff(string(a), string(b)))
			}
			start := int64(1000)
			if on.Stationarity != nil {
				start = on.Stationarity.WindowStart
			}
			lo, hi := int(start/frame), int((start+4000)/frame)
			busy := 0
			for g, u := range on.ChannelUtil {
				sum := 0.0
				for f := lo; f < hi; f++ {
					sum += cf.Util[f][g] * frame
				}
				if math.Abs(sum/4000-u) > 1e-12 {
					t.Fatalf("%s: port %d: frames %d–%d sum to %g flits/cycle, the window says %g", c.name, g, lo, hi, sum/4000, u)
				}
				if u > 0 {
					busy++
				}
			}
			if busy == 0 {
				t.Fatalf("%s: no channel carried anything", c.name)
			}
		}
	}
}

// A run on two cores gives the frames of a run on one, bit for bit.
func TestChannelFramesThreads(t *testing.T) {
	p := params(0.3, 500, 2000, 7).StationaryOff()
	p.ChannelFrames = 100
	var got [2]string
	for i, threads := range []int{1, 2} {
		p.Threads = threads
		r := runClean(t, newRun(t, "torus:8x8x8", routing.SchemeBubble, "uniform", p))
		r.Elapsed = 0
		b, _ := json.Marshal(r.ChannelFrames)
		got[i] = string(b)
	}
	if got[0] != got[1] {
		t.Fatalf("frames differ between one and two threads near %q", firstDiff(got[0], got[1]))
	}
}

// Frames cost no allocation per flit or per packet: a run four times as long, cut
// into as many frames, allocates as much more with frames as without.
func TestChannelFramesAllocations(t *testing.T) {
	allocs := func(measure, frame int64) float64 {
		return testing.AllocsPerRun(2, func() {
			p := params(0.3, 200, measure, 3).StationaryOff()
			p.ChannelFrames = frame
			if _, err := newRun(t, "torus:4x4", routing.SchemeBubble, "uniform", p).Run(context.Background()); err != nil {
				t.Fatal(err)
			}
		})
	}
	short := allocs(1000, 120) - allocs(1000, 0)
	long := allocs(4000, 420) - allocs(4000, 0)
	// The counters and each frame's row, give or take the engine's own slices growing
	// at other moments and the runtime's own allocations (the counts are process-wide,
	// and a busy machine's GC cycles add some); per packet would be thousands more.
	if math.Abs(short-long) > 10 || short > 40 {
		t.Fatalf("frames allocate %v more over 1,000 cycles and %v more over 4,000 (same frame count): want the same few", short, long)
	}
}

func TestChannelFramesRefused(t *testing.T) {
	for _, c := range []struct {
		frame   int64
		measure int64
		want    string
	}{
		{-1, 1000, "accepted are 0 (off)"},
		{1, 1 << 22, "pass 16777216 counters"},
	} {
		p := params(0.1, 0, c.measure, 1).StationaryOff()
		p.ChannelFrames = c.frame
		e := newRun(t, "torus:4x4", routing.SchemeBubble, "uniform", Defaults())
		err := Check(Config{Net: e.net, Routing: e.rt, Pattern: e.pat, Params: p})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("frames of %d cycles over %d: error %v, want %q", c.frame, c.measure, err, c.want)
		}
	}
}
