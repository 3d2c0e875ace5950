package engine_test

import (
	"context"
	"testing"

	"github.com/twintorus/twintorus/sim/engine"
	"github.com/twintorus/twintorus/sim/experiment"
)

// The papers' deadlock examples (experiment.DeadlockExamples documents them and the
// buffers under which simulation fills their cycles) must deadlock with one VC and no
// bubble, with the watchdog naming a cycle through internal links, and must flow with
// either deadlock-avoidance scheme on the same traffic, switching and buffers.
func TestPapersDeadlockExamples(t *testing.T) {
	for _, ex := range experiment.DeadlockExamples() {
		for _, scheme := range []string{"none", "vc", "bubble"} {
			if scheme == "bubble" && ex.Point.Switching != 0 {
				continue // bubble flow control needs virtual cut-through
			}
			for seed := uint64(1); seed <= 3; seed++ {
				p := ex.WithScheme(scheme)
				p.Seed = seed
				r, err := p.Run(context.Background())
				if err != nil {
					t.Fatalf("%s under %s: %v", ex.Name, scheme, err)
				}
				if scheme != "none" {
					if r.Deadlock != nil || r.PacketsDelivered < 1000 {
						t.Errorf("%s under %s, seed %d: deadlock %v, %d packets delivered", ex.Name, scheme, seed, r.Deadlock, r.PacketsDelivered)
					}
					continue
				}
				if r.Deadlock == nil || len(r.Deadlock.Channels) < 2 {
					t.Fatalf("%s with one VC and no bubble, seed %d: no deadlock found in %d cycles (%d packets delivered)", ex.Name, seed, r.Cycles, r.PacketsDelivered)
				}
				internal := 0
				for _, c := range r.Deadlock.Channels {
					if c.PortName == "int" {
						internal++
					}
				}
				if internal == 0 {
					t.Errorf("%s: the cycle has no internal link: %v", ex.Name, r.Deadlock)
				}
				if seed == 1 {
					t.Logf("%s: %v", ex.Name, r.Deadlock)
				}
			}
		}
	}
}

// A watchdog stop without a cycle of waiting channels says so instead of printing an
// empty cycle.
func TestDeadlockWithoutCycleSaysSo(t *testing.T) {
	got := (&engine.Deadlock{Cycle: 12}).String()
	if want := "deadlock detected at cycle 12: packets are in the network but no flit moved for the watchdog's span, and no cycle of waiting channels was found"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// A run that ends before its watchdog can fire is still checked (issue 39): DOR without
// a scheme on torus:8x8 at full load deadlocks at about cycle 1,000, so a 3,000-cycle
// run under the default 10,000-cycle watchdog ended "saturated" and not deadlocked. It
// is now reported with its cycle of waiting channels, at the end of the run, under
// every switching mode and thread count. The same runs with a scheme are not.
func TestDeadlockShorterThanWatchdog(t *testing.T) {
	for _, c := range []struct {
		scheme, switching string
		threads           int
	}{{"none", "vct", 1}, {"none", "vct", 2}, {"none", "wormhole", 1}, {"bubble", "vct", 1}, {"vc", "wormhole", 1}} {
		p := experiment.NewPoint("torus:8x8", 1)
		p.Deadlock, p.Warmup, p.Measure, p.Threads = c.scheme, 0, 3000, c.threads
		if c.switching == "wormhole" {
			p.Switching = engine.Wormhole
		}
		r, err := p.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case c.scheme == "none" && (r.Deadlock == nil || len(r.Deadlock.Channels) < 2 || r.Deadlock.Cycle != 3000):
			t.Errorf("%s %s, %d threads, 3,000 cycles: deadlock %v, want a cycle found at cycle 3000", c.scheme, c.switching, c.threads, r.Deadlock)
		case c.scheme != "none" && r.Deadlock != nil:
			t.Errorf("%s %s: a deadlock-free run reported %v", c.scheme, c.switching, r.Deadlock)
		}
	}
}
