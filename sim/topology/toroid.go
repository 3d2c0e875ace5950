package topology

import (
	"fmt"
	"strconv"
)

// FamilyToroid is Bossard's n-toroid (Computers 2023, Definition 2): the 2n-node
// cluster of a torus-connected toroids network, alone.
const FamilyToroid Family = "toroid"

// MaxToroidN bounds n for toroids and the networks built of them.
const MaxToroidN = 32

// The n-toroid, Definition 2 of the TCT paper ([TCT] §2.2): nodes (x, y, z) in
// P = {0, min(1, n−1)} × {0, 1} × {0 … ⌊(n−1)/2⌋}, without (1, y, (n−1)/2) for odd n;
// Y edges join the two nodes of a column, X edges the two nodes of a row, Z edges
// consecutive z of a column (mod ⌈n/2⌉), and for odd n the contracted node (0, y, h),
// h = (n−1)/2, is joined to both ends of row y's x = 1 column.
//
// Nodes are numbered by the TCT dimension whose external link they carry ([TCT]
// Fig. 5): node 2α + y serves dimension α, the + direction when y = 1 and − when
// y = 0, and sits at x_α = ⌊2α/n⌋, z_α = α (x_α = 0) or n−1−α (x_α = 1).

// ToroidCoord is the position (x, y, z) of toroid node i = 2α + y.
func ToroidCoord(n, i int) (x, y, z int) {
	alpha, y := i/2, i%2
	x = 2 * alpha / n
	z = alpha
	if x == 1 {
		z = n - 1 - alpha
	}
	return x, y, z
}

// ToroidEdge says whether toroid nodes i and j are adjacent (Definition 2), and by
// which kind of edge: "y", "x", "z" or "c" (the contracted node's cross edges).
func ToroidEdge(n, i, j int) (string, bool) {
	if i == j {
		return "", false
	}
	ux, uy, uz := ToroidCoord(n, i)
	vx, vy, vz := ToroidCoord(n, j)
	m := (n + 1) / 2 // ⌈n/2⌉: the Z ring
	zStep := m > 1 && ((uz-vz+m)%m == 1 || (vz-uz+m)%m == 1)
	h := (n - 1) / 2
	switch {
	case ux == vx && uz == vz && uy != vy:
		return "y", true
	case uy == vy && uz == vz && ux != vx:
		return "x", true
	case ux == vx && uy == vy && zStep:
		return "z", true
	case n%2 == 1 && uy == vy && ux != vx && zStep && (uz == h || vz == h):
		return "c", true
	}
	return "", false
}

// ToroidAdjacency lists each toroid node's neighbours in ascending order.
func ToroidAdjacency(n int) [][]int {
	adj := make([][]int, 2*n)
	for i := range adj {
		for j := 0; j < 2*n; j++ {
			if _, ok := ToroidEdge(n, i, j); ok {
				adj[i] = append(adj[i], j)
			}
		}
	}
	return adj
}

func toroidFamily() FamilyDef {
	return FamilyDef{
		Name:     FamilyToroid,
		Summary:  "Bossard's n-toroid (2n nodes), the cluster of a TCT",
		Syntax:   "toroid:N",
		Help:     []string{"N: 1 to 32; node 2a+y carries TCT dimension a's external port (+ when y = 1)"},
		Examples: []string{"toroid:5"},
		Parse: func(body string) (Spec, error) {
			v, err := parseInts(body, "toroid:N with N from 1 to 32, e.g. toroid:5", 1)
			if err != nil {
				return Spec{}, err
			}
			if v[0] < 1 || v[0] > MaxToroidN {
				return Spec{}, fmt.Errorf("n = %d: write toroid:N with N from 1 to %d", v[0], MaxToroidN)
			}
			return Spec{Family: FamilyToroid, Radix: v}, nil
		},
		Format: func(s Spec) string { return strconv.Itoa(s.Radix[0]) },
		Size: func(s Spec) Size {
			n := s.Radix[0]
			ports := int64(0)
			for _, a := range ToroidAdjacency(n) {
				ports += int64(len(a))
			}
			return clusterSize(int64(2*n), 1, ports)
		},
		Build: func(s Spec) (*Network, error) {
			n := s.Radix[0]
			return clusterTorus(s, n, 1, ToroidAdjacency(n), toroidLabel(n))
		},
		Routing:     "tct",
		LoadRouting: "tct",
	}
}

func toroidLabel(n int) func(i, j int) string {
	return func(i, j int) string {
		kind, _ := ToroidEdge(n, i, j)
		return kind
	}
}
