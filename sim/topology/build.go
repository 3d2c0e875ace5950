package topology

import "fmt"

// Build makes the network a spec names.
func Build(s Spec) (*Network, error) {
	switch s.Family {
	case FamilyTorus, FamilyMesh:
		pes := s.PEs
		if pes == 0 {
			pes = 1
		}
		return build(s, s.Radix, pes, 0)
	case FamilyTwin:
		c, err := s.TwinConfig()
		if err != nil {
			return nil, err
		}
		return build(s, s.Radix, 1, c)
	}
	return nil, fmt.Errorf("unknown family %q", s.Family)
}

// New parses a spec string and builds its network.
func New(spec string) (*Network, error) {
	s, err := Parse(spec)
	if err != nil {
		return nil, err
	}
	return Build(s)
}

// MustNew is New for specs known to be valid (tests and examples); it panics on error.
func MustNew(spec string) *Network {
	n, err := New(spec)
	if err != nil {
		panic(err)
	}
	return n
}

// Torus builds a torus with the given radices and PEs per switch.
func Torus(radix []int, pes int) (*Network, error) {
	return fromSpec(Spec{Family: FamilyTorus, Radix: radix, PEs: pes})
}

// Mesh builds a mesh with the given radices and PEs per switch.
func Mesh(radix []int, pes int) (*Network, error) {
	return fromSpec(Spec{Family: FamilyMesh, Radix: radix, PEs: pes})
}

// Twin builds an nDT twin torus with Card0 holding the ports in c.
func Twin(radix []int, c Config) (*Network, error) {
	return fromSpec(Spec{Family: FamilyTwin, Radix: radix, Config: c.Ports(len(radix))})
}

// fromSpec validates a programmatic spec through the same path as a parsed one.
func fromSpec(s Spec) (*Network, error) {
	p, err := Parse(s.String())
	if err != nil {
		return nil, err
	}
	return Build(p)
}

// build lays out switches, ports, links and terminals. Port order on every switch:
// its external ports in port order (d0+, d0-, d1+, ...), then the internal port (twin
// tori), then its terminal ports.
func build(s Spec, radix []int, pes int, cfg Config) (*Network, error) {
	dims := len(radix)
	twin := s.Family == FamilyTwin
	mesh := s.Family == FamilyMesh
	net := &Network{spec: s, radix: append([]int(nil), radix...), perNode: 1, config: cfg}
	if twin {
		net.perNode, net.nodeShift = 2, 1
	}
	net.stride = make([]int, dims)
	net.nodes = 1
	for d, k := range radix {
		net.stride[d] = net.nodes
		net.nodes *= k
	}
	nsw := net.nodes * net.perNode
	net.digits = make([]uint16, net.nodes*dims)
	for o := 0; o < net.nodes; o++ {
		for d := 0; d < dims; d++ {
			net.digits[o*dims+d] = uint16(o / net.stride[d] % radix[d])
		}
	}

	// Ports of one switch of each card, as (dim, dir) lists; identical on every node.
	type dp struct{ d, dir int }
	cardPorts := make([][]dp, net.perNode)
	for d := 0; d < dims; d++ {
		for _, dir := range []int{+1, -1} {
			card := 0
			if twin {
				card = cfg.Card(d, dir)
			}
			cardPorts[card] = append(cardPorts[card], dp{d, dir})
		}
	}
	perSwitch := make([]int, net.perNode)
	for c := range perSwitch {
		perSwitch[c] = len(cardPorts[c]) + pes
		if twin {
			perSwitch[c]++
		}
	}

	net.portStart = make([]int32, nsw+1)
	for sw := 0; sw < nsw; sw++ {
		net.portStart[sw+1] = net.portStart[sw] + int32(perSwitch[sw%net.perNode])
	}
	net.ports = make([]Port, net.portStart[nsw])
	net.dimPort = make([]int16, nsw*dims*2)
	for i := range net.dimPort {
		net.dimPort[i] = -1
	}
	net.terminals = make([]Attachment, nsw*pes)

	for sw := 0; sw < nsw; sw++ {
		card := sw % net.perNode
		base := int(net.portStart[sw])
		for p, q := range cardPorts[card] {
			net.ports[base+p] = Port{Kind: External, Dim: int8(q.d), Dir: int8(q.dir), Peer: -1, PeerPort: -1, Terminal: -1}
			net.dimPort[(sw*dims+q.d)*2+dirIndex(q.dir)] = int16(p)
		}
		next := len(cardPorts[card])
		if twin {
			net.ports[base+next] = Port{Kind: Internal, Dim: -1, Peer: int32(sw ^ 1), PeerPort: int16(len(cardPorts[card^1])), Terminal: -1}
			next++
		}
		for j := 0; j < pes; j++ {
			t := sw*pes + j
			net.ports[base+next+j] = Port{Kind: Terminal, Dim: -1, Peer: -1, PeerPort: -1, Terminal: int32(t)}
			net.terminals[t] = Attachment{Switch: int32(sw), Port: int16(next + j)}
		}
	}

	// Links: port d+ of node o joins port d- of node o+1 (mod k_d).
	for o := 0; o < net.nodes; o++ {
		for d := 0; d < dims; d++ {
			if mesh && net.Digit(o, d) == radix[d]-1 {
				continue
			}
			o2 := net.Neighbor(o, d, +1)
			a, b := o*net.perNode, o2*net.perNode
			if twin {
				a += cfg.Card(d, +1)
				b += cfg.Card(d, -1)
			}
			pa, pb := net.DimPort(a, d, +1), net.DimPort(b, d, -1)
			net.ports[int(net.portStart[a])+pa].Peer = int32(b)
			net.ports[int(net.portStart[a])+pa].PeerPort = int16(pb)
			net.ports[int(net.portStart[b])+pb].Peer = int32(a)
			net.ports[int(net.portStart[b])+pb].PeerPort = int16(pa)
			net.links = append(net.links, Link{A: int32(a), PA: int16(pa), B: int32(b), PB: int16(pb)})
		}
		if twin {
			a := o * 2
			net.links = append(net.links, Link{A: int32(a), PA: int16(net.InternalPort(a)), B: int32(a + 1), PB: int16(net.InternalPort(a + 1))})
		}
	}

	// Translation symmetry: every node looks the same in a torus, so one switch per card
	// represents all. A mesh has no such symmetry.
	if !mesh {
		for c := 0; c < net.perNode; c++ {
			net.classes = append(net.classes, Class{Rep: c, Count: net.nodes})
		}
	}
	return net, nil
}
