package experiment

import (
	"strings"
	"testing"
)

// The engine key threads changes how a point runs, never what it gives: it is not
// part of a spec's hash or of any point's key.
func TestThreadsKeyLeavesKeysAlone(t *testing.T) {
	base := "name: t\ntopologies: [torus:8x8]\ndeadlock: vc\ntraffic: uniform\nloads: [0.1, 0.2]\nseeds: 2\nengine:\n  warmup: 100\n  measure: 200\n"
	plain, err := ParseSpec("t.yaml", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	threaded, err := ParseSpec("t.yaml", []byte(base+"  threads: 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	if threaded.Engine.Threads != 2 {
		t.Fatalf("threads = %d, want 2", threaded.Engine.Threads)
	}
	if plain.Hash() != threaded.Hash() {
		t.Fatalf("spec hash changed with threads: %s vs %s", plain.Hash(), threaded.Hash())
	}
	a, err := plain.Curves()
	if err != nil {
		t.Fatal(err)
	}
	b, err := threaded.Curves()
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		pa, pb := a[i].Point, b[i].Point
		pa.Load, pb.Load = 0.1, 0.1
		if pa.Key() != pb.Key() {
			t.Fatalf("curve %d: key changed with threads", i)
		}
	}
	if _, err := ParseSpec("t.yaml", []byte(base+"  threads: -1\n")); err == nil || !strings.Contains(err.Error(), "threads") {
		t.Fatalf("threads -1: got %v, want an error naming threads", err)
	}
}

func TestThreadsPerSimulation(t *testing.T) {
	for _, c := range []struct{ workers, n, want int }{
		{2, 100, 1}, {2, 2, 1}, {2, 1, 2}, {8, 3, 2}, {8, 1, 8}, {1, 1, 1}, {2, 0, 1},
	} {
		if got := threadsPerSimulation(c.workers, c.n); got != c.want {
			t.Errorf("threadsPerSimulation(%d, %d) = %d, want %d", c.workers, c.n, got, c.want)
		}
	}
}

// The runner gives a simulation the threads its batch allows only from
// minSwitchesForThreads switches on (counted from the spec, before anything is built);
// smaller ones, and topologies whose size is unknown, run on one.
func TestThreadsForNetworkSize(t *testing.T) {
	for _, c := range []struct {
		topology      string
		threads, want int
	}{
		{"torus:32x32x16", 2, 2},   // 16,384 switches
		{"torus:32x16x16", 2, 2},   // 8,192: the smallest given threads
		{"twin:16x16x8/D", 2, 1},   // 4,096 (two switches per node)
		{"twin:16x16x16/D", 4, 4},  // 8,192
		{"torus:31x16x16", 2, 1},   // 7,936
		{"twin:8x8x8/D", 2, 1},     // 1,024
		{"torus:64x32x32", 1, 1},   // the batch allows one
		{"no-such-family:3", 2, 1}, // Build reports the spec
	} {
		if got := threadsFor(Point{Topology: c.topology}, c.threads); got != c.want {
			t.Errorf("threadsFor(%s, %d) = %d, want %d", c.topology, c.threads, got, c.want)
		}
	}
}
