// Package topotest makes networks for tests: random ones, of the kind a researcher
// might bring, with what the grid families lack (switches without PEs, switches with
// several, parallel paths, one-way shortcuts).
package topotest

import (
	"fmt"
	"math/rand/v2"

	"github.com/twintorus/twintorus/sim/topology"
)

// Random is a connected network of n ≥ 2 switches, the same for the same seed: a
// random spanning tree, n random extra links, three one-way shortcuts labelled
// "short", and 0 to 2 PEs per switch (switch 0 has at least one).
func Random(seed uint64, n int) (*topology.Network, error) {
	rng := rand.New(rand.NewPCG(seed, 7))
	b := topology.NewBuilder(fmt.Sprintf("random-%d", seed))
	for i := 0; i < n; i++ {
		b.AddSwitch("")
	}
	other := func(a int) int { return (a + 1 + rng.IntN(n-1)) % n }
	for i := 1; i < n; i++ {
		b.Link(i, topology.Role{}, rng.IntN(i), topology.Role{})
	}
	for i := 0; i < n; i++ {
		a := rng.IntN(n)
		b.Link(a, topology.Role{}, other(a), topology.Role{})
	}
	for i := 0; i < 3; i++ {
		a := rng.IntN(n)
		b.LinkOneWay(a, topology.LabelRole("short"), other(a), topology.Role{})
	}
	b.AttachPE(0)
	for i := 0; i < n; i++ {
		for j := rng.IntN(3); j > 0; j-- {
			b.AttachPE(i)
		}
	}
	return b.Build()
}
