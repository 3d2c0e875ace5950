package engine

import (
	"bytes"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
)

// Touching ahead is loads only: a run that touches ahead gives the JSON of one that
// does not, byte for byte, on one core and with two threads (where the workers touch
// their own lists). Small networks are forced to touch ahead; torus:32x32x32's state
// is large enough to do so by itself, and torus:8x8x8's is not.
func TestTouchAheadChangesNothing(t *testing.T) {
	for _, c := range []struct {
		spec    string
		scheme  routing.Scheme
		load    float64
		threads int
	}{
		{"twin:4x4x4/D", routing.SchemeBubble, 0.5, 1},
		{"torus:8x8x8", routing.SchemeVC, 0.3, 1},
		{"twin:8x8x8/D", routing.SchemeVC, 0.5, 2},
	} {
		result := func(touch bool) []byte {
			p := params(c.load, 300, 1200, 3)
			p.Threads = c.threads
			e := newRun(t, c.spec, c.scheme, "uniform", p)
			e.touchAhead = touch
			if e.par != nil {
				e.par.minList = 0
			}
			return runJSON(t, e)
		}
		if off, on := result(false), result(true); !bytes.Equal(off, on) {
			t.Errorf("%s, %d threads: touching ahead changes the result:\n%s\n%s", c.spec, c.threads, off, on)
		}
	}
	if e := newRun(t, "torus:8x8x8", routing.SchemeVC, "uniform", params(0.1, 10, 10, 1)); e.touchAhead {
		t.Errorf("torus:8x8x8 (%d bytes of state) touches ahead", e.stateBytes())
	}
	if e := newRun(t, "torus:32x32x32", routing.SchemeVC, "uniform", params(0.01, 10, 10, 1)); !e.touchAhead {
		t.Errorf("torus:32x32x32 (%d bytes of state) does not touch ahead", e.stateBytes())
	}
}
