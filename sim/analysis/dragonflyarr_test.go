package analysis

import (
	"slices"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// The arrangement ranking's counts against closed forms: on a dragonfly with G = a·h+1
// (one link between every two groups), Valiant routing under groupshift:1 loads the
// global links most, 2(a·p)² routes (the 2a·p/(G−2) per unit of injection of
// TestDragonflyValiantShiftLoad), and under groupshift:h a local link of every
// intermediate group: the h source groups whose links land on one router all leave by
// the next router, h·(a·p)² routes, plus p·h·a·p of that router's own PEs heading out
// and p·h·a·p arriving packets heading home, h·a·p·(a·p+2p) in all. Both arrangements.
func TestDragonflyArrangementClosedForms(t *testing.T) {
	for _, c := range []struct{ a, p, h int }{{4, 2, 2}, {6, 3, 3}, {8, 4, 4}} {
		shape := topology.Spec{Family: topology.FamilyDragonfly, Radix: []int{c.a, c.p, c.h, c.a*c.h + 1}}
		fam, _ := topology.LookupFamily(string(topology.FamilyDragonfly))
		variants, err := fam.Variants(shape)
		if err != nil {
			t.Fatal(err)
		}
		r, err := RankVariants(variants, routing.TiePlus)
		if err != nil {
			t.Fatal(err)
		}
		// The finding docs/model.md reports: the arrangements tie at every shift.
		if !slices.Equal(r.Ranked[0].ByStage, r.Ranked[1].ByStage) {
			t.Errorf("%v: the arrangements differ: %v and %v", shape.Radix, r.Ranked[0].ByStage, r.Ranked[1].ByStage)
		}
		ap := int64(c.a * c.p)
		k1, kh := 2*ap*ap, int64(c.h)*ap*(ap+2*int64(c.p))
		for _, v := range r.Ranked {
			if v.ByStage[0] != k1 || v.ByStage[c.h-1] != kh {
				t.Errorf("%s: busiest channel %d routes at shift 1, %d at shift %d; want %d and %d", v.Spec, v.ByStage[0], v.ByStage[c.h-1], c.h, k1, kh)
			}
			if v.Crossing < kh || v.Total != ap*int64(c.a*c.h-1) {
				t.Errorf("%s: worst %d routes (at least %d), %d routes per source PE (want a·p·(G−2) = %d)", v.Spec, v.Crossing, kh, v.Total, ap*int64(c.a*c.h-1))
			}
		}
	}
}

// The ranking follows routes router by router and counts each P·P times; a PE-by-PE
// enumeration must give the same count on every channel, also where two global links
// join every pair of groups (dragonfly:4,2,2,5: the salt chooses the link).
func TestValiantShiftRoutesByPE(t *testing.T) {
	for _, spec := range []string{"dragonfly:4,2,2", "dragonfly:4,2,2,5/relative", "dragonfly:4,2,2,5"} {
		net := topology.MustNew(spec)
		l, _ := net.Spec().Dragonfly()
		rt, err := routing.NewDragonfly(net, routing.DFVal, routing.DragonflyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		fast := make([]int64, net.TotalPorts())
		for k := 1; k < l.G; k++ {
			if _, err := valiantShiftRoutes(net, rt, l, k, fast); err != nil {
				t.Fatal(err)
			}
			slow := valiantRoutesByPE(t, net, rt, l, k)
			if !slices.Equal(fast, slow) {
				t.Fatalf("%s, groupshift:%d: router-level counts differ from the PE-level enumeration", spec, k)
			}
		}
	}
}
