package nb_test

import (
	"fmt"
	"os"

	"github.com/twintorus/twintorus/nb"
	"github.com/twintorus/twintorus/sim/topology"
)

// A sweep named by its networks alone runs the defaults; Spec shows them.
func ExampleSpec() {
	s := nb.Spec(nb.Nets("twin:4x4x4/D", "torus:16x8"))
	loads := s.Loads.Values
	fmt.Println("networks:", s.Topologies)
	fmt.Println("traffic:", s.Traffic, "deadlock:", s.Deadlock)
	fmt.Printf("loads: %v, %v, ..., %v (%d), stopped %d past saturation\n", loads[0], loads[1], loads[len(loads)-1], len(loads), s.PastSaturation)
	fmt.Println("replications:", s.Seeds, "window:", s.Engine.Warmup, "+", s.Engine.Measure, "cycles")
	// Output:
	// networks: [twin:4x4x4/D torus:16x8]
	// traffic: [uniform] deadlock: [bubble]
	// loads: 0.05, 0.1, ..., 1 (20), stopped 2 past saturation
	// replications: 3 window: 5000 + 20000 cycles
}

// Options set the axes of a sweep's spec; their values multiply into curves, and
// every curve runs every load with every seed.
func ExampleOption() {
	s := nb.Spec(nb.Nets("twin:4x4x4/D", "torus:16x8"), nb.Traffic("uniform", "bitrev"),
		nb.Deadlock("bubble", "vc"), nb.Loads(0.1, 0.2, 0.3), nb.Seeds(5), nb.Window(1000, 4000))
	curves := nb.Must(s.Curves())
	for _, c := range curves {
		fmt.Println(c.Name)
	}
	fmt.Println(len(curves)*len(s.Loads.Values)*s.Seeds, "simulations")
	// Output:
	// twin:4x4x4/D bubble uniform
	// twin:4x4x4/D bubble bitrev
	// twin:4x4x4/D vc uniform
	// twin:4x4x4/D vc bitrev
	// torus:16x8 bubble uniform
	// torus:16x8 bubble bitrev
	// torus:16x8 vc uniform
	// torus:16x8 vc bitrev
	// 120 simulations
}

// A sweep of two 64-PE networks at three loads, each knee bisected once, into a store
// of its own (without Store it is DefaultStore). Running it again simulates nothing.
func ExampleSweep() {
	store, err := os.MkdirTemp("", "nb-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(store)
	sweep := []nb.Option{nb.Nets("twin:4x4x2/D", "torus:8x8"), nb.Loads(0.2, 0.5, 0.8),
		nb.Window(500, 2000), nb.Seeds(2), nb.Knees(1), nb.Workers(1), nb.Store(store)}

	res := nb.Sweep(sweep...)
	for _, c := range res.Curves {
		fmt.Println(c.Name)
	}
	fmt.Println("points:", len(res.Summaries()), "simulations:", res.Simulated)
	nb.Show(nb.Latency(res, nb.Title("64 PEs, uniform traffic"))) // outside a notebook: nothing drawn

	again := nb.Sweep(sweep...)
	fmt.Println("again:", again.Simulated, "simulated,", again.Stored, "from the store")
	// Output:
	// twin:4x4x2/D bubble uniform
	// torus:8x8 bubble uniform
	// points: 8 simulations: 16
	// again: 0 simulated, 16 from the store
}

// Outside a notebook a table prints as aligned text; in one it is an HTML table.
func ExampleTable() {
	nb.Table([]string{"network", "PEs", "diameter"}, [][]string{
		nb.Row("torus:16x8", 128, nb.Distances(nb.Net("torus:16x8")).Diameter),
		nb.Row("twin:4x4x4/D", 128, nb.Distances(nb.Net("twin:4x4x4/D")).Diameter),
	})
	// Output:
	// network       PEs  diameter
	// ------------  ---  --------
	// torus:16x8    128  12
	// twin:4x4x4/D  128  8
}

// The exact analysis of a network, without error handling: the 2D torus 16×8 under
// dimension-order routing saturates a channel at 127/288 flits/cycle/PE.
func ExampleChannelLoad() {
	net := nb.Net("torus:16x8")
	d, l := nb.Distances(net), nb.ChannelLoad(net)
	fmt.Printf("%s: %d PEs, diameter %d, average distance %.3f\n", net, d.PEs, d.Diameter, d.AvgDistance)
	fmt.Printf("busiest channel: %d routes; saturates at %.4f flits/cycle/PE\n", l.MaxRoutes, l.Bound)
	// Output:
	// torus:16x8: 128 PEs, diameter 12, average distance 6.047
	// busiest channel: 288 routes; saturates at 0.4410 flits/cycle/PE
}

// One simulation: a point with the model's defaults, shortened here.
func ExampleRun() {
	p := nb.Point("twin:4x4x2/D", 0.1)
	p.Warmup, p.Measure = 500, 2000
	r := nb.Run(p)
	fmt.Printf("offered %.2f, accepted %.2f flits/cycle/PE, saturated %v\n", r.Offered, r.Accepted, r.Saturated)
	// Output:
	// offered 0.10, accepted 0.10 flits/cycle/PE, saturated false
}

// Must turns any library call's error into a panic, which fails the cell with the
// error's message.
func ExampleMust() {
	net := nb.Must(topology.New("mesh:8x8"))
	fmt.Println(net, net.Switches(), "switches")
	defer func() { fmt.Println("panic:", recover()) }()
	nb.Must(topology.New("mesh:8y8"))
	// Output:
	// mesh:8x8 64 switches
	// panic: topology "mesh:8y8": bad radix "8y8" in shape "8y8": accepted are integers from 2 to 65536 joined by 'x'
}
