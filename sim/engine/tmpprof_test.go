package engine

import (
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
)

func TestTmpClosedProfile(t *testing.T) {
	p := params(0, 0, 1, 1)
	p.Threads = 2
	e, _ := closedRun(t, "torus:32x16x16", buildWorkload(t, "allreduce:recursive_doubling:4KiB", 8192), routing.SchemeVC, p)
	r := runClean(t, e)
	t.Logf("%d cycles, phases %d", r.Closed.ExecutionCycles, e.par.phases)
}
