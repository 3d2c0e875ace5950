package topology

import (
	"fmt"
	"strconv"
	"strings"
)

// This file holds what the grid families (torus, mesh, twin) share: the shape grammar
// K0xK1x...[@C] and the construction of a grid of nodes through a Builder.

// splitShape cuts a grid family's body into its shape, its "@C" and its "/CFG" parts.
func splitShape(body string) (shape, pes string, hasPEs bool, cfg string, hasCfg bool) {
	shape, cfg, hasCfg = strings.Cut(body, "/")
	shape, pes, hasPEs = strings.Cut(shape, "@")
	return strings.TrimSpace(shape), pes, hasPEs, cfg, hasCfg
}

func parseShape(shape string) ([]int, error) {
	if shape == "" {
		return nil, fmt.Errorf("no shape; give the radix of each dimension joined by 'x', e.g. 16x8 or 4x4x4")
	}
	parts := strings.Split(strings.ToLower(shape), "x")
	if len(parts) > MaxDims {
		return nil, fmt.Errorf("%d dimensions; accepted are 1 to %d", len(parts), MaxDims)
	}
	radix := make([]int, len(parts))
	for i, p := range parts {
		k, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return nil, fmt.Errorf("bad radix %q in shape %q: accepted are integers from 2 to %d joined by 'x'", p, shape, MaxRadix)
		}
		if k < 2 || k > MaxRadix {
			return nil, fmt.Errorf("radix %d in dimension %d: accepted are 2 to %d nodes per dimension", k, i, MaxRadix)
		}
		radix[i] = k
	}
	return radix, nil
}

// parsePEs reads the C of "@C" (1 when absent).
func parsePEs(pes string, has bool) (int, error) {
	if !has {
		return 1, nil
	}
	c, err := strconv.Atoi(strings.TrimSpace(pes))
	if err != nil || c < 1 || c > MaxPEsPerSwitch {
		return 0, fmt.Errorf("bad PEs per switch %q after '@': accepted is an integer from 1 to %d", pes, MaxPEsPerSwitch)
	}
	return c, nil
}

// formatShape prints radices joined by 'x', e.g. "4x4x4".
func formatShape(radix []int) string {
	parts := make([]string, len(radix))
	for d, k := range radix {
		parts[d] = strconv.Itoa(k)
	}
	return strings.Join(parts, "x")
}

func checkSize(radix []int, perNode int) error {
	n := perNode
	for _, k := range radix {
		n *= k
		if n > MaxSwitches {
			return fmt.Errorf("more than %d switches; accepted networks have at most that many", MaxSwitches)
		}
	}
	return nil
}

// gridNet is the network of a grid family: nodes on the radices' grid, one switch per
// node (two cards for a twin torus, Card0 holding the ports in cfg), pes PEs per
// switch, dimension links between neighbours (around the ring, unless mesh), and a
// twin node's internal link.
//
// Port order on every switch: its dimension ports in port order (d0+, d0-, d1+, ...),
// then the internal port (twin tori), then its terminal ports. Links in order: for
// each node, for each dimension, its d+ link; then (twin) its internal link.
func gridNet(s Spec, pes int, cfg Config, twin, mesh bool) (*Network, error) {
	radix := s.Radix
	dims := len(radix)
	perNode := 1
	if twin {
		perNode = 2
	}
	b := NewBuilder(s.String())
	b.Grid(radix, perNode)

	type dp struct{ d, dir int }
	cardPorts := make([][]dp, perNode)
	index := make([]int, 2*dims) // (d, dir) -> index among its card's ports
	for d := 0; d < dims; d++ {
		for _, dir := range []int{+1, -1} {
			card := 0
			if twin {
				card = cfg.Card(d, dir)
			}
			index[2*d+dirIndex(dir)] = len(cardPorts[card])
			cardPorts[card] = append(cardPorts[card], dp{d, dir})
		}
	}
	nodes := b.gridSw / perNode
	perSwitch := 2*dims/perNode + pes
	if twin {
		perSwitch++ // the internal port
	}
	b.grow(b.gridSw*perSwitch, nodes*(dims+perNode-1))
	b.pes = make([]int32, 0, b.gridSw*pes)
	for sw := 0; sw < b.gridSw; sw++ {
		for _, q := range cardPorts[sw%perNode] {
			b.AddPort(sw, DimRole(q.d, q.dir))
		}
		if twin {
			b.AddPort(sw, InternalRole())
		}
		for j := 0; j < pes; j++ {
			b.AttachPE(sw)
		}
	}
	card := func(d, dir int) int {
		if twin {
			return cfg.Card(d, dir)
		}
		return 0
	}
	stride := 1
	for d, k := range radix {
		for o := 0; o < nodes; o++ {
			if digit := o / stride % k; mesh && digit == k-1 {
				b.Unconnected(PortRef{o*perNode + card(d, +1), index[2*d]})
				b.Unconnected(PortRef{(o-digit*stride)*perNode + card(d, -1), index[2*d+1]})
			}
		}
		stride *= k
	}
	for o := 0; o < nodes; o++ {
		stride := 1
		for d, k := range radix {
			digit := o / stride % k
			if !mesh || digit != k-1 {
				o2 := o + stride
				if digit == k-1 {
					o2 -= k * stride
				}
				b.Connect(PortRef{o*perNode + card(d, +1), index[2*d]}, PortRef{o2*perNode + card(d, -1), index[2*d+1]})
			}
			stride *= k
		}
		if twin {
			b.Connect(PortRef{2 * o, len(cardPorts[0])}, PortRef{2*o + 1, len(cardPorts[1])})
		}
	}
	net, err := b.buildFamily(s)
	if err != nil {
		return nil, err
	}
	// Translation symmetry: every node looks the same in a torus, so one switch per card
	// represents all. A mesh has no such symmetry.
	if !mesh {
		net.translational = true
		for c := 0; c < perNode; c++ {
			net.classes = append(net.classes, Class{Rep: c, Count: nodes})
		}
	}
	return net, nil
}
