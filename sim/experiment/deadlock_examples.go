package experiment

import (
	"fmt"
	"strings"

	"github.com/twintorus/twintorus/sim/engine"
)

// DeadlockExample is one of the 3DT papers' deadlock examples ([TR] §6.2.2) as a
// runnable point: with Deadlock "none" it deadlocks, with "vc" or "bubble" it flows.
type DeadlockExample struct {
	Name, About string
	Point       Point
}

// DeadlockExamples returns the papers' Examples 6.1 and 6.2, replicated over the
// network as the papers' "any size" allows (PE id = card + 2·node, node = x + kx·(y +
// ky·z)), with the buffers under which simulation fills their cycles:
//   - Example 6.1, cycle type A: configuration D with 2 nodes in Y; in every (x, z)
//     column PE0 of <x,0,z> and of <x,1,z> send to each other, and so do their PE1s;
//     the internal link is part of the Y ring, whose four channels form a cycle.
//     Virtual cut-through with one-packet buffers: with two packets or more per
//     buffer round-robin arbitration keeps packets that eject between the ones that
//     block, and the cycle never fills.
//   - Example 6.2, cycle type B: PE1 of <x,y,z> sends to PE0 of <x+1,y,z+1> and PE1
//     of <x+1,y,z+1> to PE0 of <x,y,z>, for every node (so each PE1 sends to both
//     diagonal neighbours); each message uses three internal links. Under virtual
//     cut-through the cycle never fills (an internal-link buffer that a blocked
//     packet leaves always takes a packet that ejects next); under wormhole with
//     two-flit buffers, where a blocked packet spans two buffers, it does.
//
// The returned points use Deadlock "none" and load 1; set Deadlock to "vc" (or
// "bubble", with twice the flits per VC, for 6.1) to see the same traffic flow.
func DeadlockExamples() []DeadlockExample {
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
	mk := func(spec, flows string, sw engine.Switching, flits int) Point {
		p := NewPoint(spec, 1)
		p.Deadlock, p.Traffic, p.Switching = "none", "pairs:"+strings.Join(strings.Fields(flows), ""), sw
		p.Warmup, p.Measure, p.Watchdog = 0, 50000, 1000
		p.Terminal = engine.Buffer{VCs: 1, Flits: flits}
		p.External = engine.Buffer{VCs: 1, Flits: flits}
		p.Internal = engine.Buffer{VCs: 1, Flits: flits}
		return p
	}
	return []DeadlockExample{
		{"Example 6.1", "cycle type A: the internal link as part of the Y ring (configuration D, 2 nodes in Y)",
			mk("twin:4x2x4/D", strings.Join(f61, ","), engine.CutThrough, 4)},
		{"Example 6.2", "cycle type B: internal links used to change dimension and to reach the destination PE",
			mk("twin:4x4x4/D", strings.Join(f62, ","), engine.Wormhole, 2)},
	}
}

// WithScheme is the example's point under another deadlock scheme, with the buffers
// that scheme needs: the VCs it uses, and room for two packets per VC under bubble.
func (x DeadlockExample) WithScheme(scheme string) Point {
	p := x.Point
	p.Deadlock = scheme
	switch scheme {
	case "vc":
		p.External.VCs, p.Internal.VCs = 2, 8
	case "bubble":
		p.Internal.VCs = 4
		p.Terminal.Flits *= 2
		p.External.Flits *= 2
		p.Internal.Flits *= 2
	}
	return p
}
