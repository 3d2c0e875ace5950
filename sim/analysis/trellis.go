package analysis

import (
	"fmt"
	"math"

	"github.com/twintorus/twintorus/sim/topology"
)

// TrellisLayout is Algorithm 2 of the twisted-tori paper ([TT] §8): the
// trellis folding of a 2a×a RTT onto a grid of 2a columns and a rows, so that every
// link is short. Node x + 2a·y goes to position pos[node] = (column, row), row 0 at the
// bottom. The steps: place node (x, y) at column x, row y; rotate row i by i positions
// to the right (column + i); rotate column i by ⌊(i+1)/2⌋ positions down (row −
// ⌊(i+1)/2⌋); shuffle the rows of even columns by A and of odd columns by B; shuffle the
// columns of every row by A. With A(x) = 2x for x < n/2 and 2n−2x−1 otherwise, and B(x)
// = 2x+1 and 2n−2x−2. The paper prints "≤ n/2" in both branches and no sign
// convention; these are the ones that give its maximum link length √5.
func TrellisLayout(a int) ([][2]int, error) {
	if a < 2 || a%2 == 1 {
		return nil, fmt.Errorf("trellis folding of a 2a×a RTT needs an even a ≥ 2, not %d", a)
	}
	shA := func(x, n int) int {
		if x < n/2 {
			return 2 * x
		}
		return 2*n - 2*x - 1
	}
	shB := func(x, n int) int {
		if x < n/2 {
			return 2*x + 1
		}
		return 2*n - 2*x - 2
	}
	pos := make([][2]int, 2*a*a)
	for node := range pos {
		col, row := node%(2*a), node/(2*a)
		col = (col + row) % (2 * a)       // row i rotated i to the right
		row = ((row-(col+1)/2)%a + a) % a // column i rotated ⌊(i+1)/2⌋ down
		if col%2 == 0 {
			row = shA(row, a)
		} else {
			row = shB(row, a)
		}
		col = shA(col, 2*a)
		pos[node] = [2]int{col, row}
	}
	return pos, nil
}

// MaxLinkLength is the longest link of a network laid out at the given positions
// (one per switch), in grid units.
func MaxLinkLength(net *topology.Network, pos [][2]int) float64 {
	longest := 0.0
	for i := 0; i < net.Links(); i++ {
		l := net.Link(i)
		a, b := pos[l.A], pos[l.B]
		longest = math.Max(longest, math.Hypot(float64(a[0]-b[0]), float64(a[1]-b[1])))
	}
	return longest
}
