package traffic_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/traffic"
)

func Example() {
	net := topology.MustNew("twin:4x4x4/D") // 128 PEs: PE = card + 2·node
	pattern, _ := traffic.ParsePattern("bitrev", net)
	sizes, _ := traffic.ParseSizes("70%x2,30%x8")
	inj, _ := traffic.NewInjection(0.3, sizes, 4) // 0.3 flits/cycle/PE, 4-flit packets
	senders := net.Terminals() - traffic.Silent(pattern)
	fmt.Printf("%s: %d of %d PEs send, %.1f flits/cycle offered in all\n", pattern.Name(), senders, net.Terminals(), inj.Load()*float64(senders))
	fmt.Printf("%s packets: p = %.5f messages/cycle/PE\n", sizes, inj.P())

	// One PE's generation loop as the engine runs it, skipping idle cycles.
	rng := rand.New(rand.NewPCG(1, 2))
	const cycles = 1_000_000
	flits := 0
	for c := inj.NextGap(rng); c <= cycles; c += inj.NextGap(rng) {
		flits += 4 * sizes.Sample(rng)
	}
	fmt.Printf("PE 3 sends to PE %d at about %.1f flits/cycle\n", pattern.Dest(3, rng), float64(flits)/cycles)
	// Output:
	// bitrev: 112 of 128 PEs send, 33.6 flits/cycle offered in all
	// 70%x2,30%x8 packets: p = 0.01974 messages/cycle/PE
	// PE 3 sends to PE 96 at about 0.3 flits/cycle
}

func ExampleParsePattern() {
	net := topology.MustNew("torus:8") // an 8-ring, PEs 0..7
	for _, spec := range []string{"bitrev", "shuffle", "butterfly", "complement", "tornado", "neighbour"} {
		p, err := traffic.ParsePattern(spec, net)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-10s", p.Name())
		for src := range 8 {
			fmt.Printf(" %2d", p.Dest(src, nil)) // permutations draw nothing from the rng
		}
		fmt.Printf("   silent: %d\n", traffic.Silent(p))
	}
	_, err := traffic.ParsePattern("bitrev", topology.MustNew("mesh:3x5"))
	fmt.Println(err)
	// Output:
	// bitrev     -1  4 -1  6  1 -1  3 -1   silent: 4
	// shuffle    -1  2  4  6  1  3  5 -1   silent: 2
	// butterfly  -1  4 -1  6  1 -1  3 -1   silent: 4
	// complement  7  6  5  4  3  2  1  0   silent: 0
	// tornado     3  4  5  6  7  0  1  2   silent: 0
	// neighbor    1  2  3  4  5  6  7  0   silent: 0
	// traffic pattern "bitrev": bitrev permutes the bits of PE ids and needs a power-of-two number of PEs; mesh:3x5 has 15 (complement, transpose, tornado and neighbor do not need one)
}

func ExampleParsePattern_twin() {
	// In a twin torus the PE keeps its card under tornado and neighbor:
	// PE 1 is Card1 of node <0,0,0>; tornado moves ⌈8/2⌉−1 = 3 in x and 1 in y and z.
	net := topology.MustNew("twin:8x4x4/cbest")
	p, _ := traffic.ParsePattern("tornado", net)
	d := p.Dest(1, nil)
	node := d / 2
	fmt.Println("PE 1 ->", d, "= card", d%2, "of node", node, net.Coord(node))
	// Output:
	// PE 1 -> 87 = card 1 of node 43 [3 1 1]
}

func ExampleParsePattern_hotspot() {
	net := topology.MustNew("torus:8x8")
	for _, spec := range []string{"hotspot:0.1", "hotspot:25%@12.5%", "hotspot:0.2@5%/lowest", "hotspot:0.1@9,3,4,5", "zipf:1.0", "zipf:0.8/global"} {
		p, err := traffic.ParsePattern(spec, net)
		fmt.Println(p.Name(), err)
	}
	// Output:
	// hotspot:0.1 <nil>
	// hotspot:0.25@12.5%/spread <nil>
	// hotspot:0.2@5%/lowest <nil>
	// hotspot:0.1@3-5,9 <nil>
	// zipf:1 <nil>
	// zipf:0.8/global <nil>
}

func ExampleParseSizes() {
	for _, spec := range []string{"1", "70%x1, 30%x3", "70%x2,30%x8", "1-32", "70%x1,20%x3"} {
		s, err := traffic.ParseSizes(spec)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-12s mean %.1f packets, at most %d\n", s, s.Mean(), s.Max())
	}
	// Output:
	// 1            mean 1.0 packets, at most 1
	// 70%x1,30%x3  mean 1.6 packets, at most 3
	// 70%x2,30%x8  mean 3.8 packets, at most 8
	// 1-32         mean 16.5 packets, at most 32
	// message sizes "70%x1,20%x3": the percentages sum to 90%; they must sum to 100%
}

func ExampleNewInjection() {
	sizes, _ := traffic.ParseSizes("70%x2,30%x8") // 15.2 flits with 4-flit packets
	for _, load := range []float64{0.3, 1, 20} {
		inj, err := traffic.NewInjection(load, sizes, 4)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("load %g: p = %.4f, mean gap %.1f cycles\n", load, inj.P(), 1/inj.P())
	}
	// Output:
	// load 0.3: p = 0.0197, mean gap 50.7 cycles
	// load 1: p = 0.0658, mean gap 15.2 cycles
	// offered load 20 flits/cycle/PE needs 1.31579 messages per cycle per PE, but at most 1 is possible with messages of 70%x2,30%x8 packets x 4 flits (mean 15.2 flits); accepted loads are 0 to 15.2
}
