package experiment

import (
	"runtime"
	"strings"
	"testing"
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
