package topology

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// NetworkJSON is the JSON form of a network (WriteJSON, ReadJSON): every switch with
// its coordinates, card and ports, every link and every terminal, with the ids the
// network uses, so that the network can be read back (file:PATH) and tools outside Go
// can rebuild or draw it.
//
// Reading takes the ports from each switch's list (their kind, dimension and
// direction, label and latency), the links from Links and the PEs from Terminals;
// the ports' peer, from and terminal fields, written for other tools, are checked
// against them when present. Coordinates matter when Radix is given: switch ids are
// then node·switches_per_node + card for the grid's switches, which come first.
type NetworkJSON struct {
	Topology        string         `json:"topology"`
	Family          string         `json:"family"`
	Radix           []int          `json:"radix"`
	SwitchesPerNode int            `json:"switches_per_node,omitempty"` // 2 for twin tori; absent means 1
	Config          string         `json:"config,omitempty"`            // twin tori: Card0's ports
	Switches        []SwitchJSON   `json:"switches"`
	Links           []LinkJSON     `json:"links"`
	Terminals       []TerminalJSON `json:"terminals"`
}

// SwitchJSON is one switch of NetworkJSON. Coord is absent for switches off the grid.
type SwitchJSON struct {
	ID    int        `json:"id"`
	Node  int        `json:"node"`
	Coord []int      `json:"coord,omitempty"`
	Card  int        `json:"card"`
	Label string     `json:"label,omitempty"`
	Class string     `json:"class,omitempty"` // absent for an unclassified switch
	Group *int       `json:"group,omitempty"` // absent in a network without groups
	Ports []PortJSON `json:"ports"`
}

// PortJSON is one port of a SwitchJSON. Kind is "external", "internal" or
// "terminal"; Dim is -1 and Dir 0 unless the port has a dimension; Peer and PeerPort
// (where it sends) and From and FromPort (where it receives from) are -1 when it has
// no such link; Terminal is -1 unless Kind is "terminal". Latency is the latency of
// the link leaving the port, absent when the engine's parameter decides.
type PortJSON struct {
	Index    int    `json:"index"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	Dim      int    `json:"dim"`
	Dir      int    `json:"dir"`
	Label    string `json:"label,omitempty"`
	Latency  int    `json:"latency,omitempty"`
	Length   int    `json:"length,omitempty"` // in standard links; absent for a standard link
	Peer     int    `json:"peer"`
	PeerPort int    `json:"peer_port"`
	From     int    `json:"from"`
	FromPort int    `json:"from_port"`
	Terminal int    `json:"terminal"`
}

// LinkJSON is one link: port PA of switch A to port PB of switch B, both ways unless
// OneWay (then from A to B only).
type LinkJSON struct {
	A      int    `json:"a"`
	PA     int    `json:"pa"`
	B      int    `json:"b"`
	PB     int    `json:"pb"`
	Kind   string `json:"kind"` // "external" or "internal"
	OneWay bool   `json:"one_way,omitempty"`
}

// TerminalJSON is one PE and where it attaches.
type TerminalJSON struct {
	ID     int `json:"id"`
	Switch int `json:"switch"`
	Port   int `json:"port"`
}

// Export returns the network as plain data for JSON.
func (n *Network) Export() NetworkJSON {
	out := NetworkJSON{
		Topology:  n.String(),
		Family:    string(n.spec.Family),
		Radix:     n.Radices(),
		Switches:  make([]SwitchJSON, n.Switches()),
		Links:     make([]LinkJSON, n.Links()),
		Terminals: make([]TerminalJSON, n.Terminals()),
	}
	if n.perNode > 1 {
		out.SwitchesPerNode = n.perNode
	}
	if n.IsTwin() {
		out.Config = n.config.Ports(n.Dims())
	}
	for s := range out.Switches {
		sw := SwitchJSON{ID: s, Node: n.Node(s), Card: n.Card(s), Label: n.SwitchLabel(s), Ports: make([]PortJSON, n.Ports(s))}
		if c := n.SwitchClass(s); c != defaultClass {
			sw.Class = c
		}
		if g := n.Group(s); g >= 0 {
			sw.Group = &g
		}
		if n.OnGrid(s) {
			sw.Coord = n.Coord(n.Node(s))
		}
		for p := range sw.Ports {
			pt := n.Port(s, p)
			sw.Ports[p] = PortJSON{Index: p, Name: n.PortName(s, p), Kind: pt.Kind.String(), Dim: int(pt.Dim), Dir: int(pt.Dir),
				Label: n.labels[pt.Label], Latency: int(pt.Latency), Length: int(pt.Length), Peer: int(pt.Peer), PeerPort: int(pt.PeerPort),
				From: int(pt.From), FromPort: int(pt.FromPort), Terminal: int(pt.Terminal)}
		}
		out.Switches[s] = sw
	}
	for i, l := range n.links {
		out.Links[i] = LinkJSON{A: int(l.A), PA: int(l.PA), B: int(l.B), PB: int(l.PB), Kind: n.Port(int(l.A), int(l.PA)).Kind.String(), OneWay: l.OneWay}
	}
	for t, a := range n.terminals {
		out.Terminals[t] = TerminalJSON{ID: t, Switch: int(a.Switch), Port: int(a.Port)}
	}
	return out
}

// WriteJSON writes the network's JSON form (see NetworkJSON), indented.
func (n *Network) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	if err := enc.Encode(n.Export()); err != nil {
		return fmt.Errorf("writing %s as JSON: %w", n, err)
	}
	return nil
}

// WriteDOT writes the network as an undirected Graphviz graph: one node per switch,
// labelled with its node coordinates, its card (twin tori) and its PEs; one edge per
// link, its ends labelled with the port names. Internal links are drawn bold and red.
func (n *Network) WriteDOT(w io.Writer) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "graph %s {\n", dotQuote(n.String()))
	fmt.Fprintf(b, "  graph [overlap=false, splines=true];\n  node [shape=box, fontsize=10];\n  edge [fontsize=8];\n")
	for s := 0; s < n.Switches(); s++ {
		label := fmt.Sprintf("s%d", s)
		if n.OnGrid(s) {
			coord := n.Coord(n.Node(s))
			parts := make([]string, len(coord))
			for i, c := range coord {
				parts[i] = fmt.Sprint(c)
			}
			label = "<" + strings.Join(parts, ",") + ">"
		}
		if l := n.SwitchLabel(s); l != "" {
			label += " " + l
		}
		if n.IsTwin() {
			label += fmt.Sprintf(" card %d", n.Card(s))
		}
		var pes []string
		for p := 0; p < n.Ports(s); p++ {
			if pt := n.Port(s, p); pt.Kind == Terminal {
				pes = append(pes, fmt.Sprint(pt.Terminal))
			}
		}
		if len(pes) > 0 {
			label += "\nPE " + strings.Join(pes, ",")
		}
		fmt.Fprintf(b, "  s%d [label=%s];\n", s, dotQuote(label))
	}
	for _, l := range n.links {
		style := ""
		if n.Port(int(l.A), int(l.PA)).Kind == Internal {
			style = ", style=bold, color=red"
		}
		if l.OneWay { // an undirected graph draws one-way links with an arrowhead
			style += ", dir=forward"
		}
		fmt.Fprintf(b, "  s%d -- s%d [taillabel=%s, headlabel=%s%s];\n", l.A, l.B, dotQuote(n.PortName(int(l.A), int(l.PA))), dotQuote(n.PortName(int(l.B), int(l.PB))), style)
	}
	b.WriteString("}\n")
	if err := b.Flush(); err != nil {
		return fmt.Errorf("writing %s as DOT: %w", n, err)
	}
	return nil
}

// dotQuote makes a DOT string literal; \n stays a line break in labels.
func dotQuote(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `"`, `\"`)
	return `"` + strings.ReplaceAll(s, "\n", `\n`) + `"`
}
