package topology

import (
	"fmt"
	"strconv"
	"strings"
)

// FamilyTofu is the Tofu-like network the TCT paper compares with ([TCT] §4, Lemma
// 1): k³ groups on a 3D k-ary torus (X, Y, Z), each group a (2, 3, 2) block of 12
// nodes (a and c lines of two nodes, b a ring of three), so 12k³ nodes of degree 10:
// 4 links inside the group, 6 to the neighbouring groups (every node has its own X, Y
// and Z links). It is the six-dimensional grid X×Y×Z×a×b×c with a and c open.
const FamilyTofu Family = "tofu"

func tofuFamily() FamilyDef {
	return FamilyDef{
		Name:     FamilyTofu,
		Summary:  "Tofu-like 6D network (12k^3 nodes, degree 10): k-ary X,Y,Z torus of (2,3,2) groups",
		Syntax:   "tofu:K",
		Help:     []string{"K >= 2; dimensions x, y, z (rings of K), a (2, open), b (ring of 3), c (2, open)"},
		Examples: []string{"tofu:3"},
		Parse: func(body string) (Spec, error) {
			k, err := strconv.Atoi(strings.TrimSpace(body))
			if err != nil || k < 2 || 12*k*k*k > MaxSwitches || k > 1<<10 {
				return Spec{}, fmt.Errorf("bad tofu %q: write tofu:K with K from 2 to 112 (12K^3 nodes), e.g. tofu:3", body)
			}
			return Spec{Family: FamilyTofu, Radix: []int{k}}, nil
		},
		Format: func(s Spec) string { return strconv.Itoa(s.Radix[0]) },
		Size: func(s Spec) Size {
			k := s.Radix[0]
			return gridSize(Spec{Family: FamilyTorus, Radix: []int{k, k, k, 2, 3, 2}, PEs: 1})
		},
		Build:   buildTofu,
		Routing: "min", // shortest paths from a table (Tofu is a 6D grid with open a and c lines, which DOR does not fit)
	}
}

// TofuShape is the grid of tofu:k: X, Y, Z of k, then a, b, c of 2, 3, 2.
func TofuShape(k int) []int { return []int{k, k, k, 2, 3, 2} }

func buildTofu(s Spec) (*Network, error) {
	shape := TofuShape(s.Radix[0])
	open := []bool{false, false, false, true, false, true}
	b := NewBuilder(s.String())
	b.Grid(shape, 1)
	nodes := b.gridSw
	dims := len(shape)
	b.grow(nodes*(2*dims+1), nodes*dims)
	b.pes = make([]int32, 0, nodes)
	for o := 0; o < nodes; o++ {
		for d := 0; d < dims; d++ {
			b.AddPort(o, DimRole(d, +1))
			b.AddPort(o, DimRole(d, -1))
		}
		b.AttachPE(o)
	}
	stride := 1
	for d, k := range shape {
		for o := 0; o < nodes; o++ {
			digit := o / stride % k
			next := o + stride
			if digit == k-1 {
				if open[d] {
					b.Unconnected(PortRef{o, 2 * d})
					b.Unconnected(PortRef{o - digit*stride, 2*d + 1})
					continue
				}
				next -= k * stride
			}
			b.Connect(PortRef{o, 2 * d}, PortRef{next, 2*d + 1})
		}
		stride *= k
	}
	net, err := b.buildFamily(s)
	if err != nil {
		return nil, err
	}
	// X, Y, Z and b are rings and a, c swap their two nodes: every node looks alike.
	net.classes = []Class{{Rep: 0, Count: nodes}}
	return net, nil
}
