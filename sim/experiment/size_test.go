package experiment

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/twintorus/twintorus/sim/topology"
)

// A sweep's validation refuses a network the engine cannot hold before building it:
// torus:4096x4096 once ran out of memory here.
func TestSpecRefusesOversizeNetwork(t *testing.T) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ParseSpec("big.yaml", []byte("topologies: [torus:4x4, torus:4096x4096]\nloads: [0.1]\n"))
	runtime.ReadMemStats(&after)
	if err == nil || !strings.HasPrefix(err.Error(), "big.yaml:1: topologies[1]: torus:4096x4096 with buffers") {
		t.Fatalf("error %v, want the size of torus:4096x4096 refused at topologies[1]", err)
	}
	// What it allocated shows it built nothing; a time limit would fail on a busy machine.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("refusing it allocated %d MB", grew>>20)
	}
	t.Log(err)
}

// A spec of two million loads is refused before its YAML is parsed (issue 39: the
// parser's tree took 917 MB and 19 s before MaxLoads refused it), and so are a
// million loads packed into a megabyte; what they allocate shows it.
func TestSpecRefusesHugeFileBeforeParsing(t *testing.T) {
	for _, c := range []struct {
		loads int
		want  string
	}{{2000000, "a spec file is at most 1048576 bytes"}, {400000, "a spec holds at most 100000 list items in all (loads: at most 10000)"}} {
		data := []byte("topologies: [torus:4x4]\nloads: [" + strings.Repeat("0,", c.loads) + "0]\n")
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := ParseSpec("big.yaml", data)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.HasPrefix(err.Error(), "big.yaml: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%d loads: %v, want %q", c.loads, err, c.want)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
			t.Errorf("%d loads: refusing allocated %d MB", c.loads, grew>>20)
		}
	}
}

// Validating a spec of many topologies holds one network at a time (issue 39: one of
// 16,000 tori built and kept every network until the end): the live heap, sampled
// after collections while the spec of 300 tori of 400 to 1,300 switches is checked,
// stays a small share of what keeping those networks takes, measured by building and
// holding them all. (It was compared with the peak of 30 tori, which the 5 ms sampler
// can miss on so short a run: 0.6 against 3.3 MB failed on a quiet machine, where
// keeping the 300 takes some 40 MB.)
func TestSpecValidationKeepsOneNetwork(t *testing.T) {
	var tori []string
	for a := 20; a < 40; a++ {
		for b := 20; b < 35; b++ {
			tori = append(tori, fmt.Sprintf("torus:%dx%d", a, b))
		}
	}
	peak := func(topologies []string) uint64 {
		spec := NewSpec(topologies...)
		spec.Loads = Loads{Values: []float64{0.1}}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base := ms.HeapAlloc
		stop, result := make(chan struct{}), make(chan uint64)
		go func() {
			var max uint64
			tick := time.NewTicker(5 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					result <- max
					return
				case <-tick.C:
					runtime.GC() // what is live, not what awaits collection
					var m runtime.MemStats
					runtime.ReadMemStats(&m)
					if m.HeapAlloc > base {
						max = maxOf(max, m.HeapAlloc-base)
					}
				}
			}
		}()
		if _, err := spec.Curves(); err != nil {
			t.Fatal(err)
		}
		close(stop)
		return <-result
	}
	many := peak(tori)
	// What keeping every network costs: build them all and hold them.
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	kept := make([]*topology.Network, 0, len(tori))
	for _, spec := range tori {
		kept = append(kept, topology.MustNew(spec))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	all := after.HeapAlloc - before.HeapAlloc
	runtime.KeepAlive(kept)
	if many > all/4 {
		t.Errorf("validating 300 tori: live heap up to %.1f MB, keeping them all takes %.1f MB: the networks are kept", float64(many)/1e6, float64(all)/1e6)
	}
	t.Logf("validating 300 tori: live heap up to %.1f MB; keeping them all takes %.1f MB", float64(many)/1e6, float64(all)/1e6)
}

func maxOf(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}
