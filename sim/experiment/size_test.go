package experiment

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
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
// after collections while the spec is checked, is about the same for 300 tori of 400
// to 1,300 switches as for 30 of them, where keeping them all makes it ten times more.
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
	few, many := peak(tori[:30]), peak(tori)
	if many > 3*few+(1<<20) {
		t.Errorf("validating 30 tori: live heap up to %.1f MB; 300 tori: %.1f MB: the networks are kept", float64(few)/1e6, float64(many)/1e6)
	}
	t.Logf("validating 30 tori: live heap up to %.1f MB; 300 tori: %.1f MB", float64(few)/1e6, float64(many)/1e6)
}

func maxOf(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}
