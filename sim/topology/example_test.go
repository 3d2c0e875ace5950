package topology_test

import (
	"fmt"
	"strings"

	"github.com/twintorus/twintorus/sim/topology"
)

func Example() {
	net, err := topology.New("twin:4x4x4/D")
	if err != nil {
		panic(err)
	}
	fmt.Println(net, net.Switches(), "switches,", net.Terminals(), "PEs,", net.Links(), "links")
	s := net.Switch(0, 1) // Card1 of node <0,0,0>
	for p := 0; p < net.Ports(s); p++ {
		fmt.Print(net.Port(s, p).Name(net.Dims()), " ")
	}
	fmt.Println()
	// Output:
	// twin:4x4x4/D 128 switches, 128 PEs, 256 links
	// y- z+ z- int pe
}

func ExampleParse() {
	s, err := topology.Parse("twin:4x4x4/y+,x-,x+")
	fmt.Println(s, err)
	_, err = topology.Parse("twin:4x4x4/x+,x+,y+")
	fmt.Println(err)
	// Output:
	// twin:4x4x4/x+,x-,y+ <nil>
	// topology "twin:4x4x4/x+,x+,y+": port x+ is listed twice in "x+,x+,y+"
}

func ExampleConfigurations() {
	cs, _ := topology.Configurations(3)
	var names []string
	for _, c := range cs {
		names = append(names, c.Name(3)+"="+c.Ports(3))
	}
	fmt.Println(strings.Join(names, " "))
	cs, _ = topology.Configurations(7)
	fmt.Println(len(cs), "configurations of a 7DT node")
	// Output:
	// D=x+,x-,y+ G=x+,x-,y- I=x+,x-,z+ J=x+,x-,z- C=x+,y+,y- A=x+,y+,z+ B=x+,y+,z- E=x+,y-,z+ F=x+,y-,z- H=x+,z+,z-
	// 1716 configurations of a 7DT node
}

// A network of your own: two switches of two PEs each, joined by two links, one of
// them one-way with a latency of its own.
func ExampleBuilder() {
	b := topology.NewBuilder("pair")
	left, right := b.AddSwitch("left"), b.AddSwitch("right")
	b.Link(left, topology.LabelRole("main"), right, topology.LabelRole("main"))
	fast, _ := b.LinkOneWay(left, topology.LabelRole("shortcut"), right, topology.Role{})
	b.SetLatency(fast, 3)
	for _, s := range []int{left, left, right, right} {
		b.AttachPE(s)
	}
	net, err := b.Build()
	if err != nil {
		panic(err)
	}
	fmt.Println(net, net.Switches(), "switches,", net.Terminals(), "PEs,", net.Links(), "links")
	var names []string
	for p := 0; p < net.Ports(left); p++ {
		names = append(names, net.PortName(left, p))
	}
	fmt.Println(strings.Join(names, " "))
	fmt.Println(net.Port(left, 1).OneWay(), net.Port(left, 1).Latency)

	// Build says what is wrong, in one line.
	bad := topology.NewBuilder("bad")
	bad.AttachPE(bad.AddSwitch(""))
	bad.AttachPE(bad.AddSwitch(""))
	_, err = bad.Build()
	fmt.Println(err)
	// Output:
	// pair 2 switches, 4 PEs, 2 links
	// main shortcut pe pe
	// true 3
	// building bad: the network is disconnected: switch 1 cannot be reached from switch 0
}

// BookSim2's example network (src/examples/anynet/anynet_file).
func ExampleReadAnynet() {
	file := "router 0 node 0 node 1 node 2 router 1\nrouter 1 node 3 node 4 node 5\nrouter 2 node 6 node 7 node 8 router 1 router 0\n"
	net, err := topology.ReadAnynet(strings.NewReader(file), "anynet_file")
	if err != nil {
		panic(err)
	}
	fmt.Println(net, net.Switches(), "routers,", net.Terminals(), "nodes,", net.Links(), "links")
	_, err = topology.ReadAnynet(strings.NewReader("router 0 node 0 router 1 -5\n"), "bad.txt")
	fmt.Println(err)
	// Output:
	// anynet_file 3 routers, 9 nodes, 3 links
	// bad.txt:1: negative latency -5 after router 1; accepted are 1 to 1000 cycles
}
