package analysis_test

import (
	"context"
	"fmt"

	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

func ExampleDistances() {
	net, err := topology.New("twin:4x4x4/D")
	if err != nil {
		panic(err)
	}
	st, err := analysis.Distances(context.Background(), net)
	if err != nil {
		panic(err)
	}
	fmt.Printf("diameter %d, average %.3f (distinct pairs), %.3f (self included), %d BFS runs\n",
		st.Diameter, st.AvgDistance, st.AvgDistanceInclSelf, st.Sources)
	// Output:
	// diameter 8, average 4.220 (distinct pairs), 4.188 (self included), 2 BFS runs
}

func ExampleTransitByEnumeration() {
	t, err := analysis.TransitByEnumeration([]int{4, 4, 4}, routing.TiePlus)
	if err != nil {
		panic(err)
	}
	for _, l := range []byte("ACD") {
		c, _ := topology.Letter(l)
		fmt.Printf("%c crosses the internal link on %d of %d transit paths\n", l, t.Crossing(c), t.Total())
	}
	// Output:
	// A crosses the internal link on 93 of 129 transit paths
	// C crosses the internal link on 79 of 129 transit paths
	// D crosses the internal link on 49 of 129 transit paths
}

func ExampleRankConfigurations() {
	ranked, _, err := analysis.RankConfigurations([]int{5, 5, 5, 5, 5}, routing.TiePlus)
	if err != nil {
		panic(err)
	}
	for _, r := range ranked[:3] {
		fmt.Println(r.Rank, r.Spec, r.Crossing, r.CBest)
	}
	fmt.Println(len(ranked), "configurations, worst", ranked[len(ranked)-1].Crossing)
	// Output:
	// 1 twin:5x5x5x5x5/d0+,d0-,d1+,d1-,d2+ 4226 false
	// 1 twin:5x5x5x5x5/d0+,d0-,d1+,d1-,d2- 4226 true
	// 3 twin:5x5x5x5x5/d0+,d0-,d1+,d1-,d4+ 5378 false
	// 126 configurations, worst 10938
}

func ExampleLoad() {
	net, err := topology.New("twin:4x4x4/D")
	if err != nil {
		panic(err)
	}
	l, err := analysis.Load(context.Background(), routing.NewDOR(net, routing.TiePlus))
	if err != nil {
		panic(err)
	}
	fmt.Printf("at most %.4f flits/cycle/PE: %d routes on the busiest internal link; %.3f hops on average\n",
		l.Bound, l.MaxInternal, l.AvgHops)
	// Output:
	// at most 0.4394 flits/cycle/PE: 289 routes on the busiest internal link; 4.795 hops on average
}

// Minimal adaptive routing on a torus closes cycles around the rings; with the escape
// VC it is deadlock-free (Duato's condition on the up*/down* escape subnetwork).
func ExampleCheckRouting() {
	net := topology.MustNew("torus:4x4")
	adaptive, _ := routing.NewMinimal(net, true)
	rep, _ := analysis.CheckRouting(context.Background(), net, adaptive)
	fmt.Println(rep.DeadlockFree, len(rep.Cycle) > 0)
	safe, _ := routing.WithEscape(net, adaptive)
	rep, _ = analysis.CheckRouting(context.Background(), net, safe)
	fmt.Println(rep.DeadlockFree, rep.Escape)
	// Output:
	// false true
	// true true
}
