package topology

import "fmt"

// PortKind is the role of a switch port.
type PortKind uint8

const (
	// External ports join switches of different nodes along a dimension.
	External PortKind = iota
	// Internal is the port of an nDT card that joins it to the other card of its node.
	Internal
	// Terminal ports attach a PE (its NIC) to the switch.
	Terminal
)

func (k PortKind) String() string {
	switch k {
	case External:
		return "external"
	case Internal:
		return "internal"
	case Terminal:
		return "terminal"
	}
	return fmt.Sprintf("PortKind(%d)", uint8(k))
}

// Port is one port of a switch. Peer is the switch at the other end of the link and
// PeerPort the port there; Peer is -1 for terminal ports and for the unconnected
// boundary ports of a mesh.
type Port struct {
	Kind     PortKind
	Dim      int8  // dimension of an external port, else -1
	Dir      int8  // +1 or -1 for an external port, else 0
	PeerPort int16 // port index at Peer
	Peer     int32 // switch at the other end, or -1
	Terminal int32 // PE attached to a terminal port, else -1
}

// Connected reports whether the port carries a link to another switch.
func (p Port) Connected() bool { return p.Peer >= 0 }

// Name is a short label such as "x+", "d4-", "int" or "pe".
func (p Port) Name(dims int) string {
	switch p.Kind {
	case External:
		return DimPortName(int(p.Dim), int(p.Dir), dims)
	case Internal:
		return "int"
	default:
		return "pe"
	}
}

// Link is a bidirectional link between port PA of switch A and port PB of switch B.
type Link struct {
	A, B   int32
	PA, PB int16
}

// Attachment says where a terminal (PE) hangs: its switch and the switch's port.
type Attachment struct {
	Switch int32
	Port   int16
}

// Class is a set of switches that the network's automorphisms map onto each other:
// every distance statistic seen from Rep holds for all Count members.
type Class struct {
	Rep   int
	Count int
}

// Network is an immutable interconnection network. Build one with Build, Torus, Mesh
// or Twin; share it freely between goroutines.
type Network struct {
	spec      Spec
	radix     []int
	stride    []int
	digits    []uint16 // node*dims + d -> coordinate d of node, so routing never divides
	nodes     int
	perNode   int  // switches per node: 1, or 2 for twin tori
	nodeShift uint // log2(perNode): Node is a shift, not a division
	portStart []int32
	ports     []Port
	dimPort   []int16 // [switch*2*dims + 2*dim + dirIndex] -> port index or -1
	terminals []Attachment
	links     []Link
	config    Config // twin only: Card0's ports
	classes   []Class
}

// Spec is the spec the network was built from.
func (n *Network) Spec() Spec { return n.spec }

// String is the network's spec string.
func (n *Network) String() string { return n.spec.String() }

// Dims is the number of torus dimensions.
func (n *Network) Dims() int { return len(n.radix) }

// Radix is the number of nodes along dimension d.
func (n *Network) Radix(d int) int { return n.radix[d] }

// Radices returns a copy of the radix of every dimension.
func (n *Network) Radices() []int { return append([]int(nil), n.radix...) }

// Nodes is the number of nodes (the product of the radices).
func (n *Network) Nodes() int { return n.nodes }

// SwitchesPerNode is 1 for tori and meshes and 2 for twin tori.
func (n *Network) SwitchesPerNode() int { return n.perNode }

// Switches is the number of switches.
func (n *Network) Switches() int { return len(n.portStart) - 1 }

// Terminals is the number of PEs.
func (n *Network) Terminals() int { return len(n.terminals) }

// Links is the number of bidirectional switch-to-switch links.
func (n *Network) Links() int { return len(n.links) }

// Link returns link i.
func (n *Network) Link(i int) Link { return n.links[i] }

// Ports is the number of ports of switch s.
func (n *Network) Ports(s int) int { return int(n.portStart[s+1] - n.portStart[s]) }

// Port returns port p of switch s.
func (n *Network) Port(s, p int) Port { return n.ports[int(n.portStart[s])+p] }

// PortID is the dense global id of port p of switch s, in [0, TotalPorts()).
// The engine uses it to index per-port (and per-channel) arrays.
func (n *Network) PortID(s, p int) int { return int(n.portStart[s]) + p }

// TotalPorts is the number of ports of all switches.
func (n *Network) TotalPorts() int { return len(n.ports) }

// Attachment returns the switch and port of terminal t.
func (n *Network) Attachment(t int) Attachment { return n.terminals[t] }

// Node is the node that switch s belongs to.
func (n *Network) Node(s int) int { return s >> n.nodeShift }

// Card is the card of switch s inside its node: 0 or 1 in twin tori, else 0.
func (n *Network) Card(s int) int { return s & (n.perNode - 1) }

// Switch is the switch of card c in node o.
func (n *Network) Switch(node, card int) int { return node*n.perNode + card }

// Digit is coordinate d of a node.
func (n *Network) Digit(node, d int) int { return int(n.digits[node*len(n.radix)+d]) }

// Digits returns the coordinates of a node as a view into the network's table (do not
// modify it); unlike Coord it does not allocate.
func (n *Network) Digits(node int) []uint16 {
	d := len(n.radix)
	return n.digits[node*d : node*d+d : node*d+d]
}

// DigitTable is the coordinate table of all nodes, node-major (node*Dims()+d), for
// routing code that reads two nodes' coordinates in one loop. Do not modify it.
func (n *Network) DigitTable() []uint16 { return n.digits }

// Coord returns the coordinates of a node.
func (n *Network) Coord(node int) []int {
	c := make([]int, len(n.radix))
	for d := range c {
		c[d] = n.Digit(node, d)
	}
	return c
}

// NodeAt is the node index of the given coordinates (taken modulo the radices).
func (n *Network) NodeAt(coord []int) int {
	o := 0
	for d := len(n.radix) - 1; d >= 0; d-- {
		o = o*n.radix[d] + ((coord[d]%n.radix[d])+n.radix[d])%n.radix[d]
	}
	return o
}

// Neighbor is the node one step from node along dimension d in direction dir (+1 or -1),
// wrapping around; meshes use it too and must check the boundary themselves.
func (n *Network) Neighbor(node, d, dir int) int {
	k := n.radix[d]
	digit := n.Digit(node, d)
	next := (digit + dir + k) % k
	return node + (next-digit)*n.stride[d]
}

// DimPort is the port of switch s that leaves along dimension d in direction dir,
// or -1 when that port sits on the other card of the node.
func (n *Network) DimPort(s, d, dir int) int {
	return int(n.dimPort[(s*len(n.radix)+d)*2+dirIndex(dir)])
}

// InternalPort is the internal-link port of a twin-torus switch, or -1.
func (n *Network) InternalPort(s int) int {
	if n.perNode != 2 {
		return -1
	}
	return n.Ports(s) - 2 // layout: external ports, internal, terminal
}

// TerminalPort is the port where terminal t attaches.
func (n *Network) TerminalPort(t int) int { return int(n.terminals[t].Port) }

// TerminalsPerSwitch is the number of PEs on each switch.
func (n *Network) TerminalsPerSwitch() int { return len(n.terminals) / n.Switches() }

// IsTwin reports whether the network is an nDT twin torus.
func (n *Network) IsTwin() bool { return n.perNode == 2 }

// IsMesh reports whether the network is a mesh (no wrap-around links).
func (n *Network) IsMesh() bool { return n.spec.Family == FamilyMesh }

// Config is Card0's port set of a twin torus (zero for other families).
func (n *Network) Config() Config { return n.config }

// Classes lists the switch classes under the network's translation symmetry, or nil
// when the network has none that the package knows (meshes).
func (n *Network) Classes() []Class { return append([]Class(nil), n.classes...) }

func dirIndex(dir int) int {
	if dir > 0 {
		return 0
	}
	return 1
}
