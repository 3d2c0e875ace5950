package topology

import "unsafe"

// Size is how big the network a spec names is, known without building it, so that a
// simulation too big for the machine can be refused before anything is allocated.
type Size struct {
	Switches, Terminals int64
	// Ports by kind; External counts a mesh's unconnected boundary ports too.
	External, Internal, TerminalPorts int64
	// Bytes estimates the memory of the built Network.
	Bytes int64
}

// Ports is the number of ports of every kind.
func (z Size) Ports() int64 { return z.External + z.Internal + z.TerminalPorts }

// Size is the size of the network the spec names, and whether its family can tell
// without building it (files cannot). The spec must be valid (from Parse).
func (s Spec) Size() (Size, bool) {
	f, ok := LookupFamily(string(s.Family))
	if !ok || f.Size == nil {
		return Size{}, false
	}
	return f.Size(s), true
}

// Size is the size of the built network, counted from its arrays.
func (n *Network) Size() Size {
	z := Size{Switches: int64(n.Switches()), Terminals: int64(n.Terminals())}
	for _, p := range n.ports {
		switch p.Kind {
		case Internal:
			z.Internal++
		case Terminal:
			z.TerminalPorts++
		default:
			z.External++
		}
	}
	z.Bytes = int64(len(n.digits))*int64(unsafe.Sizeof(uint16(0))) +
		int64(len(n.portStart))*int64(unsafe.Sizeof(int32(0))) +
		int64(len(n.ports))*int64(unsafe.Sizeof(Port{})) +
		int64(len(n.dimPort)+len(n.intPort))*int64(unsafe.Sizeof(int16(0))) +
		int64(len(n.terminals))*int64(unsafe.Sizeof(Attachment{})) +
		int64(len(n.links))*int64(unsafe.Sizeof(Link{}))
	return z
}

// gridSize is the size of a torus, mesh or twin torus spec.
func gridSize(s Spec) Size {
	dims := int64(len(s.Radix))
	nodes := int64(1)
	for _, k := range s.Radix {
		nodes *= int64(k)
	}
	perNode, pes, internal := int64(1), int64(max(s.PEs, 1)), int64(0)
	if s.Family == FamilyTwin {
		perNode, pes, internal = 2, 1, 2
	}
	z := Size{Switches: nodes * perNode, External: nodes * 2 * dims, Internal: nodes * internal}
	z.Terminals = z.Switches * pes
	z.TerminalPorts = z.Terminals
	links := nodes * (dims + internal/2)
	z.Bytes = nodes*dims*int64(unsafe.Sizeof(uint16(0))) + // digits
		(z.Switches+1)*int64(unsafe.Sizeof(int32(0))) + // portStart
		z.Ports()*int64(unsafe.Sizeof(Port{})) +
		z.Switches*2*dims*int64(unsafe.Sizeof(int16(0))) + // dimPort
		z.Terminals*int64(unsafe.Sizeof(Attachment{})) +
		links*int64(unsafe.Sizeof(Link{}))*5/4 // appended: room to grow
	return z
}
