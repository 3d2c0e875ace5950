package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// The two deadlock examples of the 3DT papers (spec/3dt.md §5.3), replicated over the
// network as the papers' "any size" allows, as flows between PEs (PE id = card +
// 2·node, node = x + kx·(y + ky·z)):
//   - Example 6.1, cycle type A: configuration D with 2 nodes in Y; in every (x, z)
//     column, PE0 of <x,0,z> and of <x,1,z> send to each other, and so do their PE1s.
//     The internal link is part of the Y ring, whose four channels form a cycle.
//   - Example 6.2, cycle type B: PE1 of <x,y,z> sends to PE0 of <x+1,y,z+1> and PE1
//     of <x+1,y,z+1> to PE0 of <x,y,z>; for every node, so PE1 of each node sends to
//     PE0 of both diagonal neighbours <x±1,y,z±1>. Each message uses three internal
//     links: to reach X, to reach Z, and to reach the destination PE.
//
// Both cycles exist with one VC (see analysis' channel dependency graph), but a
// simulation only deadlocks if traffic fills them. Measured here (5 seeds each, load
// 1, 50,000 cycles): the replicated 6.1 deadlocks every time under virtual
// cut-through with one-packet buffers, and never with buffers of two packets or more;
// 6.2 never deadlocks under virtual cut-through, because round-robin arbitration
// always lets a packet that ejects into an internal-link buffer that a blocked packet
// has just left; under wormhole with two-flit buffers, where a blocked packet spans
// two buffers and holds its output, it deadlocks every time. Both examples run under
// their filling conditions, and the same traffic, switching and buffers with either
// deadlock-avoidance scheme must keep flowing.
type deadlockExample struct {
	name, spec, flows string
	switching         Switching
	flits             int // per VC; bubble runs get room for two packets
}

func deadlockExamples() []deadlockExample {
	var f61, f62 []string
	for z := 0; z < 4; z++ {
		for x := 0; x < 4; x++ {
			a, b := x+4*(0+2*z), x+4*(1+2*z)
			for card := 0; card < 2; card++ {
				f61 = append(f61, fmt.Sprintf("%d>%d,%d>%d", card+2*a, card+2*b, card+2*b, card+2*a))
			}
		}
	}
	node := func(x, y, z int) int { return (x+4)%4 + 4*(y+4*((z+4)%4)) }
	for z := 0; z < 4; z++ {
		for y := 0; y < 4; y++ {
			for x := 0; x < 4; x++ {
				f62 = append(f62, fmt.Sprintf("%d>%d|%d", 1+2*node(x, y, z), 2*node(x+1, y, z+1), 2*node(x-1, y, z-1)))
			}
		}
	}
	return []deadlockExample{
		{"Example 6.1", "twin:4x2x4/D", "pairs:" + strings.Join(f61, ","), CutThrough, 4},
		{"Example 6.2", "twin:4x4x4/D", "pairs:" + strings.Join(f62, ","), Wormhole, 2},
	}
}

func TestPapersDeadlockExamples(t *testing.T) {
	for _, ex := range deadlockExamples() {
		for _, scheme := range []routing.Scheme{routing.SchemeNone, routing.SchemeVC, routing.SchemeBubble} {
			flits := ex.flits
			if scheme == routing.SchemeBubble {
				if ex.switching != CutThrough {
					continue // bubble flow control needs virtual cut-through
				}
				flits *= 2
			}
			vcs := routing.NewDeterministic(topology.MustNew(ex.spec), scheme, routing.TiePlus)
			for seed := uint64(1); seed <= 3; seed++ {
				p := params(1.0, 0, 50000, seed)
				p.Watchdog = 1000
				p.Switching = ex.switching
				p.Terminal = Buffer{VCs: 1, Flits: flits}
				p.External = Buffer{VCs: vcs.VCs(topology.External), Flits: flits}
				p.Internal = Buffer{VCs: vcs.VCs(topology.Internal), Flits: flits}
				e := newRun(t, ex.spec, scheme, ex.flows, p)
				r, err := e.Run(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if scheme != routing.SchemeNone {
					if r.Deadlock != nil || r.PacketsDelivered < 1000 {
						t.Errorf("%s under %s, seed %d: deadlock %v, %d packets delivered", ex.name, scheme, seed, r.Deadlock, r.PacketsDelivered)
					}
					continue
				}
				if r.Deadlock == nil || len(r.Deadlock.Channels) < 2 {
					t.Fatalf("%s with one VC and no bubble, seed %d: no deadlock found in %d cycles (%d packets delivered)", ex.name, seed, r.Cycles, r.PacketsDelivered)
				}
				internal := 0
				for _, c := range r.Deadlock.Channels {
					if c.PortName == "int" {
						internal++
					}
				}
				if internal == 0 {
					t.Errorf("%s: the cycle has no internal link: %v", ex.name, r.Deadlock)
				}
				if seed == 1 {
					t.Logf("%s: %v", ex.name, r.Deadlock)
				}
			}
		}
	}
}
