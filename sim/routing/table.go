package routing

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/internal/userfile"
	"github.com/twintorus/twintorus/sim/topology"
)

// Table is a routing a user supplies: for every switch and every destination switch
// (one that has PEs), the ports a packet may leave by. One port is deterministic
// routing; several are adaptive candidates, offered in the order given. It uses one
// VC; before a run it must pass analysis.CheckRouting (runs refuse a table whose
// channel dependencies can close a cycle, naming the cycle), or run with the escape
// scheme. Every route must reach its destination whichever listed port a packet takes:
// NewTable and ReadTable refuse a table whose routes loop.
//
// Make one from a Go function in a cell (NewTable) or from a table file (ReadTable).
type Table struct {
	name  string
	net   *topology.Network
	dests distTable // index only
	start []int32   // (destination index * switches + switch) -> first entry in ports
	ports []int16
}

// NewTable makes a table routing named name from next(s, dst), the ports to take at
// switch s towards destination switch dst; it is asked once for every switch and
// every destination switch other than s that has PEs. Ports must carry links.
func NewTable(net *topology.Network, name string, next func(s, dst int) []int) (*Table, error) {
	t, err := newTable(net, name)
	if err != nil {
		return nil, err
	}
	n := net.Switches()
	for _, d32 := range t.dests.sw {
		d := int(d32)
		for s := 0; s < n; s++ {
			var ports []int
			if s != d {
				ports = next(s, d)
			}
			if err := t.set(s, d, ports); err != nil {
				return nil, fmt.Errorf("routing %s on %s: %w", name, net, err)
			}
		}
	}
	if s, d, loop := t.loop(); loop != "" {
		return nil, fmt.Errorf("routing %s on %s: switch %d's routes towards switch %d loop: %s; every route must reach its destination", name, net, s, d, loop)
	}
	return t, nil
}

// loop finds a route of the table that never reaches its destination: a switch s
// whose ports towards destination d lead, by some choice at every hop, back to a switch
// on the way. It returns s, d and the loop ("1 -> 2 -> 1"), or "" when every route
// ends at its destination. Such a table is refused whatever the deadlock scheme: an
// escape would keep it deadlock-free, but packets would wander the loop until they
// took the escape (38 hops on average on a 4-switch ring).
func (t *Table) loop() (int, int, string) {
	n := t.net.Switches()
	state := make([]uint8, n) // 0 unvisited, 1 on the current path, 2 reaches d whatever it chooses
	type frame struct{ s, next int32 }
	var stack []frame
	for _, d32 := range t.dests.sw {
		d := int(d32)
		clear(state)
		state[d] = 2
		for s0 := 0; s0 < n; s0++ {
			if state[s0] != 0 {
				continue
			}
			stack = append(stack[:0], frame{int32(s0), 0})
			state[s0] = 1
			for len(stack) > 0 {
				f := &stack[len(stack)-1]
				i := int(t.dests.index[d])*n + int(f.s)
				ports := t.ports[t.start[i]:t.start[i+1]]
				if int(f.next) == len(ports) {
					state[f.s] = 2
					stack = stack[:len(stack)-1]
					continue
				}
				v := int(t.net.Port(int(f.s), int(ports[f.next])).Peer)
				f.next++
				switch state[v] {
				case 0:
					state[v] = 1
					stack = append(stack, frame{int32(v), 0})
				case 1: // back to a switch on the path: a loop
					j := len(stack) - 1
					for int(stack[j].s) != v {
						j--
					}
					var b strings.Builder
					for _, g := range stack[j:] {
						fmt.Fprintf(&b, "%d -> ", g.s)
					}
					fmt.Fprintf(&b, "%d", v)
					return v, d, b.String()
				}
			}
		}
	}
	return 0, 0, ""
}

func newTable(net *topology.Network, name string) (*Table, error) {
	idx, err := newDestIndex(net)
	if err != nil {
		return nil, fmt.Errorf("routing %s on %s: %w", name, net, err)
	}
	return &Table{name: name, net: net, dests: idx, start: make([]int32, len(idx.sw)*net.Switches()+1)}, nil
}

// set records the ports at s towards d; entries come in destination-index order, then
// switch order.
func (t *Table) set(s, d int, ports []int) error {
	if s != d && len(ports) == 0 {
		return fmt.Errorf("no port at switch %d towards switch %d", s, d)
	}
	for _, p := range ports {
		if p < 0 || p >= t.net.Ports(s) {
			return fmt.Errorf("switch %d has no port %d (ports 0 to %d)", s, p, t.net.Ports(s)-1)
		}
		if !t.net.Port(s, p).Connected() {
			return fmt.Errorf("port %d of switch %d sends to no switch", p, s)
		}
		t.ports = append(t.ports, int16(p))
	}
	i := int(t.dests.index[d])*t.net.Switches() + s
	t.start[i+1] = int32(len(t.ports))
	return nil
}

// Name is the name the table was given.
func (t *Table) Name() string { return t.name }

// Network is the network the routing was made for.
func (t *Table) Network() *topology.Network { return t.net }

// Scheme is SchemeNone: the routing alone has no deadlock avoidance of its own.
func (t *Table) Scheme() Scheme { return SchemeNone }

// VCs is 1.
func (t *Table) VCs(topology.PortKind) int { return 1 }

// SourceIndependent reports that a table's routes depend only on the destination.
func (t *Table) SourceIndependent() bool { return true }

// Ports lists the ports the table gives at switch s towards switch dst.
func (t *Table) Ports(s, dst int) []int {
	i := int(t.dests.index[dst])*t.net.Switches() + s
	var out []int
	for _, p := range t.ports[t.start[i]:t.start[i+1]] {
		out = append(out, int(p))
	}
	return out
}

// Route appends the table's ports towards h.Dst, on VC 0.
func (t *Table) Route(s, _, _ int, h Head, out []Candidate) []Candidate {
	at := t.net.Attachment(int(h.Dst))
	d := int(at.Switch)
	if d == s {
		return append(out, Candidate{Port: at.Port})
	}
	i := int(t.dests.index[d])*t.net.Switches() + s
	for _, p := range t.ports[t.start[i]:t.start[i+1]] {
		out = append(out, Candidate{Port: p})
	}
	return out
}

// Path appends the hops of the table's first-choice route from PE src to PE dst.
func (t *Table) Path(src, dst int, buf []Step) []Step { return firstPath(t.net, t, src, dst, buf) }

// WriteTable writes the table in the file format ReadTable reads.
func (t *Table) WriteTable(w io.Writer) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "# routing %s on %s: SWITCH DESTINATION-SWITCH PORT [PORT ...]\n", t.name, t.net)
	n := t.net.Switches()
	for _, d32 := range t.dests.sw {
		d := int(d32)
		for s := 0; s < n; s++ {
			if s == d {
				continue
			}
			fmt.Fprintf(b, "%d %d", s, d)
			for _, p := range t.Ports(s, d) {
				fmt.Fprintf(b, " %d", p)
			}
			b.WriteByte('\n')
		}
	}
	if err := b.Flush(); err != nil {
		return fmt.Errorf("writing routing table %s: %w", t.name, err)
	}
	return nil
}

// ReadTableFile reads a routing table file for a network (see ReadTable); the
// routing's name is table:PATH. The file must be a regular one (a device such as
// /dev/zero would be read without end); it is read as a stream, its lines bounded by
// the table's entries.
func ReadTableFile(net *topology.Network, path string) (*Table, error) {
	f, err := userfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("routing table: %w", err)
	}
	defer f.Close()
	return ReadTable(f, net, "table:"+path, path)
}

// ReadTable reads a routing table: one line per switch and destination switch,
//
//	SWITCH DESTINATION-SWITCH PORT [PORT ...]
//
// giving the ports (indices on SWITCH) a packet for any PE of the destination switch
// may leave by; lines starting with # are comments. Every switch needs a line for
// every other switch that has PEs. Errors give the file (file) and line.
func ReadTable(r io.Reader, net *topology.Network, name, file string) (*Table, error) {
	t, err := newTable(net, name)
	if err != nil {
		return nil, err
	}
	n := net.Switches()
	entries := make([][]int, len(t.start)-1)
	seen := make([]int32, len(t.start)-1) // line of each entry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", file, line, fmt.Sprintf(format, args...))
		}
		if len(fields) < 3 {
			return nil, bad("%q: a line is SWITCH DESTINATION-SWITCH PORT [PORT ...]", sc.Text())
		}
		var v []int
		for _, f := range fields {
			x, err := strconv.Atoi(f)
			if err != nil || x < 0 {
				return nil, bad("%q is not a switch or port number (whole numbers from 0)", f)
			}
			v = append(v, x)
		}
		s, d := v[0], v[1]
		switch {
		case s >= n:
			return nil, bad("switch %d does not exist (switches 0 to %d)", s, n-1)
		case d >= n:
			return nil, bad("destination switch %d does not exist (switches 0 to %d)", d, n-1)
		case t.dests.index[d] < 0:
			return nil, bad("switch %d has no PEs, so it is no destination", d)
		case s == d:
			return nil, bad("switch %d to itself: packets there leave by their PE's port", s)
		}
		i := int(t.dests.index[d])*n + s
		if seen[i] > 0 {
			return nil, bad("switch %d to switch %d is given twice (also at line %d)", s, d, seen[i])
		}
		for _, p := range v[2:] {
			if p >= net.Ports(s) || !net.Port(s, p).Connected() {
				return nil, bad("port %d of switch %d sends to no switch", p, s)
			}
		}
		seen[i] = int32(line)
		entries[i] = v[2:]
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	for _, d32 := range t.dests.sw {
		d := int(d32)
		for s := 0; s < n; s++ {
			i := int(t.dests.index[d])*n + s
			if s != d && seen[i] == 0 {
				return nil, fmt.Errorf("%s: no line for switch %d to switch %d; a table gives every switch a port towards every other switch with PEs", file, s, d)
			}
			if err := t.set(s, d, entries[i]); err != nil {
				return nil, fmt.Errorf("%s: %w", file, err)
			}
		}
	}
	if s, d, loop := t.loop(); loop != "" {
		return nil, fmt.Errorf("%s:%d: switch %d's routes towards switch %d loop: %s; every route must reach its destination", file, seen[int(t.dests.index[d])*n+s], s, d, loop)
	}
	return t, nil
}

func tableRouting() RoutingDef {
	return RoutingDef{
		Name:    "table",
		Summary: "a routing table file, table:PATH (SWITCH DEST PORT... lines); any network",
		Scheme:  SchemeEscape,
		Fits:    func(*topology.Network) error { return nil },
		New: func(net *topology.Network, o Options) (Func, error) {
			if strings.TrimSpace(o.Arg) == "" {
				return nil, fmt.Errorf("routing table needs its file: table:PATH")
			}
			t, err := ReadTableFile(net, strings.TrimSpace(o.Arg))
			if err != nil {
				return nil, err
			}
			return withScheme(t, net, o.Scheme)
		},
		Checked: true,
	}
}
