package topology

import (
	"fmt"
	"strconv"
	"strings"
)

// FamilyFlatFly is the flattened butterfly (Kim, Dally and Abts 2007): a k-ary n-flat,
// k^n switches on a grid, each joined to every other switch of its line in every
// dimension, with P PEs per switch (concentration).
const FamilyFlatFly Family = "flatfly"

// FlatFly is the layout of a flatfly network: switch ids are grid node indices
// (x_0 + k·(x_1 + …)); a switch's ports are, dimension by dimension, one per other
// coordinate x of its line in increasing order, then its P terminal ports (PE id =
// slot + P·switch).
type FlatFly struct{ K, N, P int }

// Port is the port of a switch whose coordinate in dimension d is own towards the
// switch of its line with coordinate x (x != own).
func (l FlatFly) Port(d, own, x int) int {
	if x > own {
		x--
	}
	return d*(l.K-1) + x
}

// FlatFly is the layout of a flatfly spec.
func (s Spec) FlatFly() (FlatFly, error) {
	if s.Family != FamilyFlatFly || len(s.Radix) != 2 {
		return FlatFly{}, fmt.Errorf("%s is not a flattened butterfly", s)
	}
	return FlatFly{K: s.Radix[0], N: s.Radix[1], P: max(s.PEs, 1)}, nil
}

func flatflyFamily() FamilyDef {
	return FamilyDef{
		Name:     FamilyFlatFly,
		Summary:  "flattened butterfly (k-ary n-flat): k^n switches, each linked to all others of its line in every dimension",
		Syntax:   "flatfly:K,N[@P]",
		Help:     []string{"P PEs per switch (concentration, default 1)"},
		Examples: []string{"flatfly:4,3@4", "flatfly:16,2"},
		Parse:    parseFlatFly,
		Format: func(s Spec) string {
			out := fmt.Sprintf("%d,%d", s.Radix[0], s.Radix[1])
			if s.PEs > 1 {
				out += "@" + strconv.Itoa(s.PEs)
			}
			return out
		},
		Size:      flatflySize,
		Build:     buildFlatFly,
		Routing:   "fbdor",
		Bisection: hyperxBisection,
	}
}

func parseFlatFly(body string) (Spec, error) {
	params, pes, hasPEs := strings.Cut(body, "@")
	nums, err := parseInts(params, "K,N", 2)
	if err != nil {
		return Spec{}, fmt.Errorf("flatfly: %w", err)
	}
	k, n := nums[0], nums[1]
	switch {
	case k < 2 || k > MaxRadix:
		return Spec{}, fmt.Errorf("%d switches per dimension: accepted are 2 to %d", k, MaxRadix)
	case n < 1 || n > MaxGridDims:
		return Spec{}, fmt.Errorf("%d dimensions: accepted are 1 to %d", n, MaxGridDims)
	case n*(k-1) > MaxPortsPerSwitch-MaxPEsPerSwitch:
		return Spec{}, fmt.Errorf("switches of %d ports: accepted are at most %d", n*(k-1), MaxPortsPerSwitch-MaxPEsPerSwitch)
	}
	c, err := parsePEs(pes, hasPEs)
	if err != nil {
		return Spec{}, err
	}
	radix := make([]int, n)
	for d := range radix {
		radix[d] = k
	}
	if err := checkSize(radix, 1); err != nil {
		return Spec{}, err
	}
	return Spec{Family: FamilyFlatFly, Radix: []int{k, n}, PEs: c}, nil
}

func flatflySize(s Spec) Size {
	l, _ := s.FlatFly()
	return l.hyperX().size()
}

func buildFlatFly(s Spec) (*Network, error) {
	l, err := s.FlatFly()
	if err != nil {
		return nil, err
	}
	return l.hyperX().build(s, "fbdor")
}

// hyperX is the flattened butterfly as the HyperX it is: K switches in each of N
// dimensions, P terminals, no trunking. Its ports and links are numbered alike.
func (l FlatFly) hyperX() HyperX {
	s := make([]int, l.N)
	for d := range s {
		s[d] = l.K
	}
	return NewHyperXLayout(s, l.P, 1)
}
