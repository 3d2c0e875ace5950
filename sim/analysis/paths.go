package analysis

import (
	"fmt"
	"strings"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// Transit holds the node-level DOR transit-path counts of an n-dimensional torus of
// nodes (the nDT papers' R_{P→P'}): R[in][out] is the number of ordered source–
// destination node pairs whose route passes through a node entering by port in and
// leaving by port out. Ports are indexed 2d for d+ and 2d+1 for d−, as in
// topology.Config. Translation symmetry makes R the same at every node.
type Transit struct {
	Radix []int
	Tie   routing.Tie
	R     [][]int64
	// Ds[P] is the number of nodes whose route to a node enters it by port P, and
	// Dd[P] the number of nodes a node's routes leave it for by port P (the papers'
	// D_s^P and D_d^P).
	Ds, Dd []int64
}

// PortIndex is the index of port (d, dir) in R.
func PortIndex(d, dir int) int {
	if dir > 0 {
		return 2 * d
	}
	return 2*d + 1
}

// PortNames lists the names of R's ports in index order for an n-dimensional network.
func PortNames(n int) []string {
	names := make([]string, 2*n)
	for i := range names {
		names[i] = topology.DimPortName(i/2, 1-2*(i%2), n)
	}
	return names
}

// Total is the number of transit paths through a node.
func (t *Transit) Total() int64 {
	var s int64
	for _, row := range t.R {
		for _, v := range row {
			s += v
		}
	}
	return s
}

// Crossing is the number of transit paths that cross the internal link under
// configuration c: those whose input and output ports sit on different cards.
func (t *Transit) Crossing(c topology.Config) int64 {
	var s int64
	n := len(t.Radix)
	for in := 0; in < 2*n; in++ {
		for out := 0; out < 2*n; out++ {
			if c&(1<<in) != 0 != (c&(1<<out) != 0) {
				s += t.R[in][out]
			}
		}
	}
	return s
}

// Equal reports whether two transit matrices hold the same counts.
func (t *Transit) Equal(o *Transit) bool {
	if len(t.R) != len(o.R) {
		return false
	}
	for i := range t.Ds {
		if t.Ds[i] != o.Ds[i] || t.Dd[i] != o.Dd[i] {
			return false
		}
	}
	for i := range t.R {
		for j := range t.R[i] {
			if t.R[i][j] != o.R[i][j] {
				return false
			}
		}
	}
	return true
}

// String prints R as a table, rows are input ports and columns output ports.
func (t *Transit) String() string {
	names := PortNames(len(t.Radix))
	w := 4
	for _, row := range t.R {
		for _, v := range row {
			w = max(w, len(fmt.Sprint(v))+1)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-6s", "in\\out")
	for _, nm := range names {
		fmt.Fprintf(&b, "%*s", w, nm)
	}
	b.WriteByte('\n')
	for i, row := range t.R {
		fmt.Fprintf(&b, "%-6s", names[i])
		for _, v := range row {
			fmt.Fprintf(&b, "%*d", w, v)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// checkShape checks a shape for the node-level counts and returns the tie rule they
// use: TieDefault is plus (DOR's and DORT's own). Mirror is refused: a node-level
// route goes from node to node, and mirror's ties depend on which PE of the source
// node sends (PE0's routes are plus's, PE1's minus's).
func checkShape(radix []int, tie routing.Tie) (routing.Tie, error) {
	if len(radix) < 1 || len(radix) > topology.MaxTwinDims {
		return 0, fmt.Errorf("transit paths need 1 to %d dimensions, not %d", topology.MaxTwinDims, len(radix))
	}
	nodes := 1
	for d, k := range radix {
		if k < 2 || k > topology.MaxRadix {
			return 0, fmt.Errorf("radix %d in dimension %d: accepted are 2 to %d", k, d, topology.MaxRadix)
		}
		nodes *= k
		if nodes > topology.MaxSwitches {
			return 0, fmt.Errorf("more than %d nodes", topology.MaxSwitches)
		}
	}
	switch tie {
	case routing.TieDefault:
		return routing.TiePlus, nil
	case routing.TiePlus, routing.TieMinus:
		return tie, nil
	case routing.TieMirror:
		return 0, fmt.Errorf("tie mirror: transit paths count node-level DOR routes, one per pair of nodes, but under mirror a pair of nodes has two (PE0's, ties +, and PE1's, ties -): use plus or minus (mirror's routes are plus's from PE0 and minus's from PE1)")
	}
	return 0, fmt.Errorf("tie %d: accepted are routing.TiePlus and routing.TieMinus", tie)
}

func newTransit(radix []int, tie routing.Tie) *Transit {
	n := len(radix)
	t := &Transit{Radix: append([]int(nil), radix...), Tie: tie, R: make([][]int64, 2*n),
		Ds: make([]int64, 2*n), Dd: make([]int64, 2*n)}
	for i := range t.R {
		t.R[i] = make([]int64, 2*n)
	}
	return t
}

// TransitByEnumeration counts transit paths by walking the node-level DOR route from
// node 0 to every other node, one hop at a time, and recording the (input, output)
// port pair at every node strictly between source and destination. By translation
// symmetry the paths through any one node, from every source, are exactly these records
// (path u→v passes node x as path 0→v−u passes node x−u). This walk is written
// independently of routing.DOR and of the closed forms, so the tests can compare them.
func TransitByEnumeration(radix []int, tie routing.Tie) (*Transit, error) {
	tie, err := checkShape(radix, tie)
	if err != nil {
		return nil, err
	}
	n := len(radix)
	t := newTransit(radix, tie)
	off := make([]int, n) // destination coordinates (source is node 0), an odometer
	for {
		prevOut := -1 // port the packet left the previous node by, -1 at the source
		first := true
		for d := 0; d < n; d++ {
			k := radix[d]
			fwd := off[d] // hops in the + direction
			if fwd == 0 {
				continue
			}
			dir, steps := +1, fwd
			if bwd := k - fwd; bwd < fwd || (bwd == fwd && tie == routing.TieMinus) {
				dir, steps = -1, bwd
			}
			out := PortIndex(d, dir)
			if first {
				t.Dd[out]++
				first = false
			}
			for range steps {
				if prevOut >= 0 { // the node we are at is neither source nor destination
					t.R[inOf(prevOut)][out]++
				}
				prevOut = out
			}
		}
		if prevOut >= 0 {
			t.Ds[inOf(prevOut)]++
		}
		i := 0
		for ; i < n; i++ {
			off[i]++
			if off[i] < radix[i] {
				break
			}
			off[i] = 0
		}
		if i == n {
			return t, nil
		}
	}
}

// inOf is the port a packet enters the next node by when it left through port out:
// leaving by d+ means arriving by d−.
func inOf(out int) int { return out ^ 1 }
