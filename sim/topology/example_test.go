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
