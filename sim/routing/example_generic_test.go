package routing_test

import (
	"fmt"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// A routing from a Go function: at every switch of a 6-ring, take the clockwise port
// (port 0, "cw"). Made into a table once; with the escape scheme it gets an up*/down*
// escape VC and becomes deadlock-free.
func ExampleNewTable() {
	b := topology.NewBuilder("ring")
	for i := 0; i < 6; i++ {
		b.AddSwitch("")
	}
	for i := 0; i < 6; i++ {
		b.Link(i, topology.LabelRole("cw"), (i+1)%6, topology.LabelRole("ccw"))
		b.AttachPE(i)
	}
	net, err := b.Build()
	if err != nil {
		panic(err)
	}
	clockwise, err := routing.NewTable(net, "clockwise", func(s, dst int) []int {
		if s == 0 {
			return []int{0} // switch 0 made its cw port first
		}
		return []int{1} // the others made ccw first (linked from their left neighbour)
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(clockwise.Name(), "at switch 2 towards switch 5:", net.PortName(2, clockwise.Ports(2, 5)[0]))
	safe, err := routing.WithEscape(net, clockwise)
	if err != nil {
		panic(err)
	}
	fmt.Println(safe.Name(), "uses", safe.VCs(topology.External), "VCs per link")
	// Output:
	// clockwise at switch 2 towards switch 5: cw
	// clockwise+escape uses 2 VCs per link
}
