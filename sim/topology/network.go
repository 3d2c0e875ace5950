package topology

import (
	"fmt"
	"strconv"
)

// PortKind is the role of a switch port.
type PortKind uint8

const (
	// External ports join switches (of different nodes, in a torus): every
	// switch-to-switch port of a network that is not an nDT internal link.
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

// Port is one port of a switch.
//
// Peer and PeerPort are where the port sends: the switch at the other end of its
// link and the port there, or -1 when the port sends to no switch (a terminal port, an
// open boundary port of a mesh, the receiving end of a one-way link). From and
// FromPort are where it receives from; on a bidirectional link they equal Peer and
// PeerPort.
type Port struct {
	Kind PortKind
	Dim  int8 // dimension of a dimension port, else -1
	Dir  int8 // +1 or -1 for a dimension port, else 0
	// Length is the length of the link leaving this port in standard links, 0 or 1 for
	// a standard one: without a Latency of its own the link takes Length times the
	// engine's link latency (RUFT's long return links, [KNS] §5.1).
	Length uint8
	// Label indexes the network's port labels (Network.Label); 0 is no label.
	Label    uint16
	PeerPort int16
	FromPort int16
	// Latency is the latency in cycles of the link leaving this port, or 0 when the
	// engine's parameter for the port's kind decides (every family leaves it 0).
	Latency  uint16
	Peer     int32 // switch this port sends to, or -1
	From     int32 // switch this port receives from, or -1
	Terminal int32 // PE attached to a terminal port, else -1
}

// Connected reports whether the port sends to another switch.
func (p Port) Connected() bool { return p.Peer >= 0 }

// Receives reports whether another switch sends to the port.
func (p Port) Receives() bool { return p.From >= 0 }

// OneWay reports whether the port's link carries traffic in one direction only.
func (p Port) OneWay() bool { return p.Peer != p.From }

// Name is a short name such as "x+", "d4-", "int" or "pe"; switch-to-switch ports with
// no dimension are "ext" (Network.PortName also knows their labels and indices).
func (p Port) Name(dims int) string {
	switch {
	case p.Kind == Internal:
		return "int"
	case p.Kind == Terminal:
		return "pe"
	case p.Dim >= 0:
		return DimPortName(int(p.Dim), int(p.Dir), dims)
	}
	return "ext"
}

// Link is a link between port PA of switch A and port PB of switch B: bidirectional,
// or from A to B only when OneWay.
type Link struct {
	A, B   int32
	PA, PB int16
	OneWay bool
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

// Network is an immutable interconnection network: switches with numbered ports,
// links, PEs and, optionally, node coordinates. Make one with New (a spec string),
// Build (a Spec), a Builder, or ReadJSON; share it freely between goroutines.
//
// Coordinates are optional. A network built on a grid (tori, meshes, twin tori, or a
// Builder with Grid) numbers its grid switches node·SwitchesPerNode()+card and has
// Dims() > 0; Node, Card, Digit, Coord, Neighbor and DimPort describe it. Other
// networks have Dims() == 0 and one node per switch.
type Network struct {
	name    string // String(): the canonical spec, a file spec, or the builder's name
	spec    Spec
	routing string // the family's default routing, or ""

	portStart []int32
	ports     []Port
	terminals []Attachment
	links     []Link
	labels    []string // port labels; labels[0] is "" (no label)
	swLabels  []string // switch labels, or nil
	// Switch classes: class names (classNames[0] is "switch", the class of a switch
	// nobody classified) and each switch's class index, or nil when all are "switch".
	classNames []string
	swClass    []uint8

	// The grid (Dims() > 0 only).
	radix     []int
	stride    []int
	digits    []uint16 // node*dims + d -> coordinate d of node, so routing never divides
	nodes     int
	gridSw    int     // switches on the grid: nodes·perNode (all switches when there is no grid)
	perNode   int     // switches per node: 1, or 2 for twin tori
	nodeShift uint    // log2(perNode): Node is a shift, not a division
	dimPort   []int16 // [switch*2*dims + 2*dim + dirIndex] -> port index or -1
	intPort   []int16 // perNode 2: the internal port of each grid switch, or -1
	mesh      bool    // a grid without wrap-around links
	config    Config  // twin only: Card0's ports

	classes       []Class
	translational bool

	// metaRadix and metaPEs: the torus of PE groups of a network without a grid
	// (TCT, TCC: the meta torus, 2n PEs per cluster), for coordinate traffic.
	metaRadix []int
	metaPEs   int

	// groups is each switch's group in a network of groups (the dragonfly's), nil in
	// others; ngroups is how many there are. Traffic that moves PEs from group to
	// group (groupshift) reads it instead of knowing the family.
	groups  []int32
	ngroups int
}

// Spec is the spec the network was built from; its Family is empty for a network made
// by a Builder or read from a file's contents.
func (n *Network) Spec() Spec { return n.spec }

// String is the network's name: its spec string, or the name its Builder gave it.
func (n *Network) String() string { return n.name }

// DefaultRouting is the routing its family's papers use ("dor", "dort"), or "" when the
// network has no family (routing.Default then picks one that fits).
func (n *Network) DefaultRouting() string { return n.routing }

// Dims is the number of coordinate dimensions: 0 for a network without a grid.
func (n *Network) Dims() int { return len(n.radix) }

// Radix is the number of nodes along dimension d.
func (n *Network) Radix(d int) int { return n.radix[d] }

// Radices returns a copy of the radix of every dimension (nil without a grid).
func (n *Network) Radices() []int { return append([]int(nil), n.radix...) }

// Nodes is the number of nodes: the product of the radices on a grid, else the number
// of switches (every switch its own node).
func (n *Network) Nodes() int { return n.nodes }

// SwitchesPerNode is 1 for tori, meshes and networks without a grid, 2 for twin tori.
func (n *Network) SwitchesPerNode() int { return n.perNode }

// OnGrid reports whether switch s has coordinates (a grid network may have switches
// off the grid, numbered after the grid's).
func (n *Network) OnGrid(s int) bool { return len(n.radix) > 0 && s < n.gridSw }

// Switches is the number of switches.
func (n *Network) Switches() int { return len(n.portStart) - 1 }

// Terminals is the number of PEs.
func (n *Network) Terminals() int { return len(n.terminals) }

// Links is the number of switch-to-switch links (bidirectional and one-way).
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

// Label is port label l (Port.Label); 0 is "".
func (n *Network) Label(l uint16) string { return n.labels[l] }

// Labels lists the network's port labels, without the empty one.
func (n *Network) Labels() []string { return append([]string(nil), n.labels[1:]...) }

// SwitchLabel is the label a Builder gave switch s, or "".
func (n *Network) SwitchLabel(s int) string {
	if n.swLabels == nil {
		return ""
	}
	return n.swLabels[s]
}

// SwitchClass is the class a family or a Builder gave switch s ("router", "stage 0",
// ...), or "switch"; statistics per class (utilisation) group switches by it.
func (n *Network) SwitchClass(s int) string {
	if n.swClass == nil {
		return defaultClass
	}
	return n.classNames[n.swClass[s]]
}

// SwitchClassIndex is the index of switch s's class in SwitchClasses (0 for all
// switches of a network with no classes).
func (n *Network) SwitchClassIndex(s int) int {
	if n.swClass == nil {
		return 0
	}
	return int(n.swClass[s])
}

// SwitchClasses lists the switch classes, "switch" first (the class of switches no one
// classified, possibly empty).
func (n *Network) SwitchClasses() []string {
	if n.classNames == nil {
		return []string{defaultClass}
	}
	return append([]string(nil), n.classNames...)
}

const defaultClass = "switch"

// PortName names port p of switch s for people: its label when it has one, else
// "x+", "d4-", "int" or "pe", else "p" and its index.
func (n *Network) PortName(s, p int) string {
	port := n.Port(s, p)
	switch {
	case port.Label != 0:
		return n.labels[port.Label]
	case port.Kind == External && port.Dim < 0:
		return "p" + strconv.Itoa(p)
	}
	return port.Name(n.Dims())
}

// Attachment returns the switch and port of terminal t.
func (n *Network) Attachment(t int) Attachment { return n.terminals[t] }

// Node is the node that switch s belongs to (s itself without a grid).
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

// Coord returns the coordinates of a node (nil without a grid).
func (n *Network) Coord(node int) []int {
	if len(n.radix) == 0 || node >= n.nodes {
		return nil
	}
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

// DimPort is the port of grid switch s that leaves along dimension d in direction dir,
// or -1 when that port sits on the other card of the node (or nowhere).
func (n *Network) DimPort(s, d, dir int) int {
	return int(n.dimPort[(s*len(n.radix)+d)*2+dirIndex(dir)])
}

// InternalPort is the internal-link port of a twin-torus switch, or -1.
func (n *Network) InternalPort(s int) int {
	if n.intPort == nil || s >= len(n.intPort) {
		return -1
	}
	return int(n.intPort[s])
}

// TerminalPort is the port where terminal t attaches.
func (n *Network) TerminalPort(t int) int { return int(n.terminals[t].Port) }

// TerminalsPerSwitch is the number of PEs on each switch when every switch has the
// same number, else 0.
func (n *Network) TerminalsPerSwitch() int {
	if len(n.terminals)%n.Switches() != 0 {
		return 0
	}
	c := len(n.terminals) / n.Switches()
	for t, a := range n.terminals {
		if int(a.Switch) != t/c {
			return 0
		}
	}
	return c
}

// IsTwin reports whether the network is an nDT twin torus (a grid of two-card nodes).
func (n *Network) IsTwin() bool { return n.perNode == 2 }

// IsMesh reports whether the network is a grid without wrap-around links.
func (n *Network) IsMesh() bool { return n.mesh }

// Config is Card0's port set of a twin torus (zero for other networks).
func (n *Network) Config() Config { return n.config }

// Classes lists the switch classes under the network's symmetry, or nil when the
// network has none that the package knows (meshes, networks from a Builder or a file).
func (n *Network) Classes() []Class { return append([]Class(nil), n.classes...) }

// PatternGrid is the grid that coordinate traffic patterns (tornado, neighbor) move
// PEs on: radix per dimension and PEs per grid node, PE t being slot t mod perNode of
// node t / perNode, nodes numbered dimension 0 fastest. A network on a grid gives its
// own; a torus of clusters (TCT, TCC) its meta torus with a cluster's PEs per node;
// other networks none (nil).
func (n *Network) PatternGrid() (radix []int, perNode int) {
	switch {
	case n.metaRadix != nil:
		return append([]int(nil), n.metaRadix...), n.metaPEs
	case len(n.radix) > 0 && n.nodes > 0 && len(n.terminals)%n.nodes == 0:
		return n.Radices(), len(n.terminals) / n.nodes
	}
	return nil, 0
}

// Groups is the number of groups of switches the network declares (a dragonfly's
// groups), or 0 when it declares none.
func (n *Network) Groups() int { return n.ngroups }

// Group is the group of switch s (0 ≤ Group < Groups()); -1 when the network declares
// no groups or has no switch s.
func (n *Network) Group(s int) int {
	if s < 0 || s >= len(n.groups) {
		return -1
	}
	return int(n.groups[s])
}

// Translational reports whether every node of the grid looks the same under
// translation, switch by switch and port by port (tori and twin tori): node 0's
// switches then stand for every node in analyses of translation-invariant routing.
func (n *Network) Translational() bool { return n.translational }

func dirIndex(dir int) int {
	if dir > 0 {
		return 0
	}
	return 1
}
