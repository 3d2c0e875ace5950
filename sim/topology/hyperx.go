package topology

import (
	"fmt"
	"strconv"
	"strings"
	"unsafe"
)

// FamilyHyperX is the HyperX (Ahn, Binkert, Davis, McLaren and Schreiber, SC 2009):
// switches on an L-dimensional grid of S_1 × … × S_L, each joined to every other switch
// of its line in every dimension by K parallel links (trunking), with T terminals per
// switch. The flattened butterfly is the HyperX with all S_i equal and K = 1.
const FamilyHyperX Family = "hyperx"

// MaxTrunking bounds K, the parallel links between two switches of a line.
const MaxTrunking = 16

// HyperX is the layout of a hyperx network: switch ids are grid node indices
// (x_0 + S_0·(x_1 + …)); a switch's ports are, dimension by dimension, K per other
// coordinate x of its line in increasing order (x first, then the trunk index), then
// its T terminal ports (PE id = slot + T·switch).
type HyperX struct {
	S    []int // switches per dimension
	T, K int   // terminals per switch, parallel links per pair of a line
	off  []int // first port of each dimension
}

// NewHyperXLayout is the layout of a HyperX of the given sizes, terminals and trunking.
func NewHyperXLayout(s []int, t, k int) HyperX {
	l := HyperX{S: append([]int(nil), s...), T: max(t, 1), K: max(k, 1), off: make([]int, len(s)+1)}
	for d, sd := range s {
		l.off[d+1] = l.off[d] + l.K*(sd-1)
	}
	return l
}

// Port is the port of a switch whose coordinate in dimension d is own towards the
// switch of its line with coordinate x (x != own), on parallel link k (0 ≤ k < K).
func (l HyperX) Port(d, own, x, k int) int {
	if x > own {
		x--
	}
	return l.off[d] + x*l.K + k
}

// NetworkPorts is the number of switch-to-switch ports of every switch, K·Σ(S_i − 1).
func (l HyperX) NetworkPorts() int { return l.off[len(l.S)] }

// Switches is Π S_i.
func (l HyperX) Switches() int64 {
	n := int64(1)
	for _, s := range l.S {
		n *= int64(s)
	}
	return n
}

// Bisection is the number of links that cross the HyperX paper's bisection (§3): the
// network halved across a dimension M of even size, each of its P/S_M lines then
// crossing with (S_M/2)² pairs of K links, K·P·S_M/4; of the dimensions of even size,
// the smallest S_M gives the fewest. ok is false when no dimension has an even size
// (no halving along a dimension splits the switches evenly).
func (l HyperX) Bisection() (links int64, ok bool) {
	p := l.Switches()
	for _, s := range l.S {
		if s%2 == 0 {
			b := int64(l.K) * p * int64(s) / 4
			if !ok || b < links {
				links, ok = b, true
			}
		}
	}
	return links, ok
}

// HyperX is the layout of a hyperx spec (or of a flatfly spec, its special case).
func (s Spec) HyperX() (HyperX, error) {
	switch {
	case s.Family == FamilyHyperX && len(s.Radix) > 0:
		k := 1
		if s.Config != "" {
			var err error
			if k, err = strconv.Atoi(s.Config); err != nil {
				return HyperX{}, fmt.Errorf("%s: trunking %q is not a number", s, s.Config)
			}
		}
		return NewHyperXLayout(s.Radix, s.PEs, k), nil
	case s.Family == FamilyFlatFly:
		f, err := s.FlatFly()
		if err != nil {
			return HyperX{}, err
		}
		return f.hyperX(), nil
	}
	return HyperX{}, fmt.Errorf("%s is not a HyperX", s)
}

func hyperxFamily() FamilyDef {
	return FamilyDef{
		Name:    FamilyHyperX,
		Summary: "HyperX (Ahn et al. 2009): S1×S2×… switches, each linked to all others of its line in every dimension",
		Syntax:  "hyperx:S1xS2x...[@T][/K]",
		Help: []string{
			"T terminals (PEs) per switch (default 1), K parallel links between two switches of a line (trunking, default 1)",
			"hyperx:KxK...@P (n times) is flatfly:K,N@P",
		},
		Examples:  []string{"hyperx:4x4x4@4", "hyperx:8x8@8", "hyperx:4x6@2/2"},
		Parse:     parseHyperX,
		Format:    formatHyperX,
		Size:      hyperxSize,
		Build:     buildHyperX,
		Routing:   "hxdor",
		Bisection: hyperxBisection,
	}
}

// hyperxBisection is [HX] §3's bisection of a hyperx or flatfly spec.
func hyperxBisection(s Spec) (int64, string, bool) {
	l, err := s.HyperX()
	if err != nil {
		return 0, "", false
	}
	b, ok := l.Bisection()
	return b, "[HX] §3: K·P·S_M/4, halved across the smallest even dimension", ok
}

func parseHyperX(body string) (Spec, error) {
	shape, pes, hasPEs, trunk, hasTrunk := splitShape(body)
	radix, err := parseShape(shape)
	if err != nil {
		return Spec{}, fmt.Errorf("hyperx: %w", err)
	}
	t, err := parsePEs(pes, hasPEs)
	if err != nil {
		return Spec{}, fmt.Errorf("hyperx: %w", err)
	}
	k := 1
	if hasTrunk {
		if k, err = strconv.Atoi(strings.TrimSpace(trunk)); err != nil || k < 1 || k > MaxTrunking {
			return Spec{}, fmt.Errorf("hyperx: bad trunking %q after '/': accepted is an integer from 1 to %d (parallel links between two switches of a line)", trunk, MaxTrunking)
		}
	}
	ports := 0
	for _, s := range radix {
		ports += k * (s - 1)
	}
	if ports+t > MaxPortsPerSwitch {
		return Spec{}, fmt.Errorf("hyperx: switches of %d ports: accepted are at most %d", ports+t, MaxPortsPerSwitch)
	}
	if err := checkSize(radix, 1); err != nil {
		return Spec{}, fmt.Errorf("hyperx: %w", err)
	}
	sw := int64(1)
	for _, s := range radix {
		sw *= int64(s)
	}
	if sw*int64(ports) > 1<<30 {
		return Spec{}, fmt.Errorf("hyperx: %d switches of %d network ports: accepted are at most 2^30 ports", sw, ports)
	}
	s := Spec{Family: FamilyHyperX, Radix: radix, PEs: t}
	if k > 1 {
		s.Config = strconv.Itoa(k)
	}
	return s, nil
}

func formatHyperX(s Spec) string {
	out := formatShape(s.Radix)
	if s.PEs > 1 {
		out += "@" + strconv.Itoa(s.PEs)
	}
	if s.Config != "" {
		out += "/" + s.Config
	}
	return out
}

func hyperxSize(s Spec) Size {
	l, _ := s.HyperX()
	return l.size()
}

// size counts a HyperX's switches, ports and bytes.
func (l HyperX) size() Size {
	sw, n := l.Switches(), int64(len(l.S))
	z := Size{Switches: sw, Terminals: sw * int64(l.T), External: sw * int64(l.NetworkPorts())}
	z.TerminalPorts = z.Terminals
	links := z.External / 2
	z.Bytes = sw*n*int64(unsafe.Sizeof(uint16(0))) + (sw+1)*int64(unsafe.Sizeof(int32(0))) +
		z.Ports()*int64(unsafe.Sizeof(Port{})) + sw*2*n*int64(unsafe.Sizeof(int16(0))) +
		z.Terminals*int64(unsafe.Sizeof(Attachment{})) + links*int64(unsafe.Sizeof(Link{}))*5/4
	return z
}

func buildHyperX(s Spec) (*Network, error) {
	l, err := s.HyperX()
	if err != nil {
		return nil, err
	}
	return l.build(s, "hxdor")
}

// build makes the network of a HyperX layout (a hyperx or flatfly spec): ports are
// labelled "dD=X" towards coordinate X of dimension D ("dD=X#k" for parallel link k > 0
// under trunking), links are added switch by switch, dimension by dimension, towards
// the higher coordinates of the line.
func (l HyperX) build(s Spec, routing string) (*Network, error) {
	n := len(l.S)
	z := l.size()
	b := NewBuilder(s.String())
	b.Grid(l.S, 1)
	b.grow(int(z.Ports()), int(z.External/2))
	b.pes = make([]int32, 0, z.Terminals)
	labels := make([][]string, n) // [d][x*K + k]
	for d, sd := range l.S {
		labels[d] = make([]string, sd*l.K)
		for x := 0; x < sd; x++ {
			for k := 0; k < l.K; k++ {
				lab := "d" + strconv.Itoa(d) + "=" + strconv.Itoa(x)
				if k > 0 {
					lab += "#" + strconv.Itoa(k)
				}
				labels[d][x*l.K+k] = lab
			}
		}
	}
	stride := make([]int, n)
	stride[0] = 1
	for d := 1; d < n; d++ {
		stride[d] = stride[d-1] * l.S[d-1]
	}
	for sw := 0; sw < b.gridSw; sw++ {
		for d, sd := range l.S {
			own := sw / stride[d] % sd
			for x := 0; x < sd; x++ {
				if x != own {
					for k := 0; k < l.K; k++ {
						b.AddPort(sw, LabelRole(labels[d][x*l.K+k]))
					}
				}
			}
		}
		for range l.T {
			b.AttachPE(sw)
		}
	}
	for sw := 0; sw < b.gridSw; sw++ {
		for d, sd := range l.S {
			own := sw / stride[d] % sd
			for x := own + 1; x < sd; x++ {
				peer := sw + (x-own)*stride[d]
				for k := 0; k < l.K; k++ {
					b.Connect(PortRef{sw, l.Port(d, own, x, k)}, PortRef{peer, l.Port(d, x, own, k)})
				}
			}
		}
	}
	net, err := b.Build()
	if err != nil {
		return nil, err
	}
	net.spec, net.routing = s, routing
	net.classes = []Class{{Rep: 0, Count: b.gridSw}} // translations are automorphisms
	return net, nil
}
