package main

import (
	"fmt"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

func main() {
	for _, s := range []string{"twin:4x4x2x2x2/cbest", "twin:4x4x2x4x2/cbest", "twin:4x4x2x4x4/cbest"} {
		net := topology.MustNew(s)
		for _, tie := range []routing.Tie{routing.TiePlus} {
			r0 := routing.NewTSDOR(net, tie)
			r1 := routing.NewDeterministic(net, routing.SchemeVC, tie).DOR()
			for _, r := range []interface {
				Path(int, int, []routing.Step) []routing.Step
			}{r0, r1} {
				n := net.Terminals()
				hist := map[int]int{}
				var buf []routing.Step
				total := 0
				hops := 0
				for a := 0; a < n; a++ {
					for b := 0; b < n; b++ {
						if a == b {
							continue
						}
						buf = r.Path(a, b, buf[:0])
						c := 0
						for _, st := range buf {
							if st.Port >= 0 && net.Port(st.Switch, st.Port).Kind == topology.Internal {
								c++
							}
						}
						hist[c]++
						total++
						hops += len(buf)
					}
				}
				fmt.Println(s, tie, total, hist, float64(hist[2])/float64(total), "avg steps", float64(hops)/float64(total))
			}
		}
	}
}
