package routing

import (
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

func BenchmarkZZBuild(b *testing.B) {
	for _, c := range []struct {
		spec string
		s    Scheme
	}{{"torus:8x8x8", SchemeVC}, {"twin:4x4x4/D", SchemeBubble}, {"twin:5x5x5/D", SchemeBubble}} {
		net := topology.MustNew(c.spec)
		b.Run(c.spec, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				NewDeterministic(net, c.s, TiePlus).CacheRoutes()
			}
		})
	}
}
