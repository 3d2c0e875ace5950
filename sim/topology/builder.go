package topology

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/twintorus/twintorus/internal/sysmem"
)

// Role is what a switch-to-switch port is for, as routing may read it: a dimension
// and direction (Dir ±1; "x+", "d4-"), the internal link of an nDT node, or nothing
// in particular, with an optional free label ("express", "up", "global"). The zero
// Role is a plain port with no dimension and no label.
type Role struct {
	Internal bool   // the internal link of an nDT node (Kind Internal)
	Dim      int    // the dimension of a dimension port (only when Dir != 0)
	Dir      int    // +1 or -1 for a dimension port, 0 for none
	Label    string // a free label, or ""
}

// DimRole is the role of the port leaving along dimension d in direction dir (±1).
func DimRole(d, dir int) Role { return Role{Dim: d, Dir: dir} }

// LabelRole is a port without a dimension, labelled for routing or for people.
func LabelRole(label string) Role { return Role{Label: label} }

// InternalRole is the role of an nDT node's internal-link port.
func InternalRole() Role { return Role{Internal: true} }

// PortRef names port Port of switch Switch while a network is being built.
type PortRef struct{ Switch, Port int }

func (p PortRef) String() string { return fmt.Sprintf("switch %d port %d", p.Switch, p.Port) }

// MaxPortsPerSwitch is the most ports one switch may have.
const MaxPortsPerSwitch = math.MaxInt16

// MaxLatency is the longest link latency, in cycles, that a network may give.
const MaxLatency = 1000

// A Builder makes a Network from switches, ports, links and PEs, in a notebook cell or
// in a family's builder (every family builds through one). Methods record mistakes
// instead of returning them, so a cell can add things in a row; Build reports them
// and validates the whole network: dangling ports, PEs on no switch, ports linked
// twice, a disconnected graph. Switch ids are dense, in the order switches are made;
// PE ids likewise, in the order they are attached.
//
// Coordinates are optional: Grid makes the switches of a grid of nodes first (ids
// node·perNode + card, dimension 0 varying fastest), and only grid switches may have
// dimension ports. Without a grid the network has Dims() == 0.
type Builder struct {
	name     string
	errs     []*BuildError
	more     int // errors beyond the ones kept
	radix    []int
	perNode  int
	gridSw   int
	nsw      int
	swLabels []string
	classes  []string         // class names, "switch" first
	classIdx map[string]uint8 // class name -> index
	swClass  []uint8          // switch -> class index, or nil while no class is set
	swGroup  []int32          // switch -> group, -1 unset; nil while no group is set
	ports    []bport
	count    []int32 // ports per switch so far
	sorted   bool    // ports were added switch by switch, in id order
	links    []blink
	pes      []int32 // PE id -> index into ports, or -1 until attached
	opens    []PortRef
	lats     []latency
	labels   []string
	labelIdx map[string]uint16
}

type bport struct {
	sw       int32
	terminal int32
	kind     PortKind
	dim, dir int8
	label    uint16
}

type latency struct {
	p      PortRef
	cycles uint16
	length bool // cycles is a length in standard links (SetLength), not a latency
}

type blink struct {
	a, z   PortRef
	oneWay bool
}

const maxBuildErrors = 8

// NewBuilder starts a network named name (its String; "custom" when empty).
func NewBuilder(name string) *Builder {
	if strings.TrimSpace(name) == "" {
		name = "custom"
	}
	return &Builder{name: name, perNode: 1, sorted: true, labels: []string{""}}
}

// BuildError is one mistake a Builder found, with what it is about, so that a file
// reader can point at the line: the link (by the order links were made), the port,
// the PE or the switch; each is -1 when the mistake is not about one.
type BuildError struct {
	Msg    string
	Link   int
	Port   PortRef
	PE     int
	Switch int
}

func (e *BuildError) Error() string { return e.Msg }

// where says what a mistake is about.
type where struct {
	link, pe, sw int
	port         PortRef
}

var nowhere = where{link: -1, pe: -1, sw: -1, port: PortRef{-1, -1}}

func atLink(i int) where     { w := nowhere; w.link = i; return w }
func atPort(p PortRef) where { w := nowhere; w.port = p; return w }
func atPE(pe int) where      { w := nowhere; w.pe = pe; return w }
func atSwitch(s int) where   { w := nowhere; w.sw = s; return w }

func (b *Builder) fail(format string, args ...any) { b.failAt(nowhere, format, args...) }

func (b *Builder) failAt(w where, format string, args ...any) {
	if len(b.errs) >= maxBuildErrors {
		b.more++
		return
	}
	b.errs = append(b.errs, &BuildError{Msg: fmt.Sprintf(format, args...), Link: w.link, Port: w.port, PE: w.pe, Switch: w.sw})
}

// Grid lays out the grid: one node per coordinate point of the radices, each node of
// switchesPerNode switches (1, or 2 for twin-torus cards). It must come before any
// other switch; the grid's switches get ids node·switchesPerNode + card.
func (b *Builder) Grid(radix []int, switchesPerNode int) {
	switch {
	case b.nsw > 0 || b.radix != nil:
		b.fail("Grid must come first, once: the network already has %d switches", b.nsw)
		return
	case len(radix) < 1 || len(radix) > MaxGridDims:
		b.fail("a grid has 1 to %d dimensions, not %d", MaxGridDims, len(radix))
		return
	case switchesPerNode != 1 && switchesPerNode != 2:
		b.fail("a grid node has 1 switch (2 for a twin torus), not %d", switchesPerNode)
		return
	}
	n := switchesPerNode
	for d, k := range radix {
		if k < 1 || k > MaxRadix {
			b.fail("grid radix %d in dimension %d: accepted are 1 to %d", k, d, MaxRadix)
			return
		}
		if n *= k; n > MaxSwitches {
			b.fail("a grid of more than %d switches", MaxSwitches)
			return
		}
	}
	b.radix = append([]int(nil), radix...)
	b.perNode = switchesPerNode
	b.gridSw = n
	b.nsw = n
	b.count = make([]int32, n)
}

// grow makes room for ports and links that are about to be added (families know how
// many), so that building a large network does not copy its arrays as they grow.
func (b *Builder) grow(ports, links int) {
	b.ports = append(make([]bport, 0, len(b.ports)+ports), b.ports...)
	b.links = append(make([]blink, 0, len(b.links)+links), b.links...)
}

// At is the grid switch of card 0 at the given coordinates (-1, recorded as a mistake,
// when they are off the grid).
func (b *Builder) At(coord ...int) int { return b.AtCard(0, coord...) }

// AtCard is the grid switch of the given card at the given coordinates.
func (b *Builder) AtCard(card int, coord ...int) int {
	if len(coord) != len(b.radix) || card < 0 || card >= b.perNode {
		b.fail("no grid switch card %d at %v: the grid has %d dimensions and %d switches per node", card, coord, len(b.radix), b.perNode)
		return -1
	}
	o := 0
	for d := len(b.radix) - 1; d >= 0; d-- {
		if coord[d] < 0 || coord[d] >= b.radix[d] {
			b.fail("coordinate %d of %v is off the grid (0 to %d)", d, coord, b.radix[d]-1)
			return -1
		}
		o = o*b.radix[d] + coord[d]
	}
	return o*b.perNode + card
}

// AddSwitch adds a switch off the grid and returns its id; label may be "".
func (b *Builder) AddSwitch(label string) int {
	if b.nsw >= MaxSwitches {
		b.fail("more than %d switches", MaxSwitches)
		return -1
	}
	s := b.nsw
	b.nsw++
	b.count = append(b.count, 0)
	if label != "" {
		b.LabelSwitch(s, label)
	}
	return s
}

// LabelSwitch gives switch s a label (shown in exports and drawings).
func (b *Builder) LabelSwitch(s int, label string) {
	if !b.hasSwitch(s, "label") {
		return
	}
	if b.swLabels == nil {
		b.swLabels = make([]string, 0, b.nsw)
	}
	for len(b.swLabels) <= s {
		b.swLabels = append(b.swLabels, "")
	}
	b.swLabels[s] = label
}

// MaxSwitchClasses is the most switch classes a network may have.
const MaxSwitchClasses = 255

// SetClass puts switch s in a class ("router", "stage 0", ...): statistics per class,
// such as link utilisation, group switches by it. Unclassified switches are "switch".
func (b *Builder) SetClass(s int, class string) {
	if !b.hasSwitch(s, "class") {
		return
	}
	if b.classIdx == nil {
		b.classes, b.classIdx = []string{defaultClass}, map[string]uint8{defaultClass: 0}
	}
	i, ok := b.classIdx[class]
	if !ok {
		if len(b.classes) > MaxSwitchClasses {
			b.failAt(atSwitch(s), "more than %d switch classes", MaxSwitchClasses)
			return
		}
		i = uint8(len(b.classes))
		b.classes = append(b.classes, class)
		b.classIdx[class] = i
	}
	if b.swClass == nil {
		b.swClass = make([]uint8, 0, b.nsw)
	}
	for len(b.swClass) <= s {
		b.swClass = append(b.swClass, 0)
	}
	b.swClass[s] = i
}

// SetGroup puts switch s in group g, numbered from 0: a dragonfly's groups, which
// traffic that moves PEs from group to group (groupshift) and the drawings read.
// Either every switch has a group or none does, and every group from 0 to the
// largest has a switch (Build checks).
func (b *Builder) SetGroup(s, g int) {
	if !b.hasSwitch(s, "group") {
		return
	}
	if g < 0 || g >= MaxSwitches {
		b.failAt(atSwitch(s), "group %d of switch %d: accepted are 0 to %d", g, s, MaxSwitches-1)
		return
	}
	for len(b.swGroup) <= s {
		b.swGroup = append(b.swGroup, -1)
	}
	b.swGroup[s] = int32(g)
}

// groups checks the switches' groups (SetGroup) and gives each switch's group and
// their number; nil and 0 when no switch has one.
func (b *Builder) groups() ([]int32, int) {
	if b.swGroup == nil {
		return nil, 0
	}
	out := make([]int32, b.nsw)
	size := map[int32]int{}
	n := 0
	for s := range out {
		out[s] = -1
		if s < len(b.swGroup) {
			out[s] = b.swGroup[s]
		}
		if out[s] < 0 {
			b.failAt(atSwitch(s), "switch %d has no group while others have: give every switch a group, or none", s)
			continue
		}
		size[out[s]]++
		n = max(n, int(out[s])+1)
	}
	for g := 0; g < n; g++ {
		if size[int32(g)] == 0 {
			b.fail("group %d has no switch: groups are numbered from 0 without gaps (the largest is %d)", g, n-1)
			break
		}
	}
	return out, n
}

func (b *Builder) hasSwitch(s int, what string) bool {
	if s < 0 || s >= b.nsw {
		b.failAt(atSwitch(s), "%s: switch %d does not exist (the switches are 0 to %d)", what, s, b.nsw-1)
		return false
	}
	return true
}

// AddPort adds a switch-to-switch port with the given role to switch s.
func (b *Builder) AddPort(s int, r Role) PortRef {
	if !b.hasSwitch(s, "port") {
		return PortRef{-1, -1}
	}
	bp := bport{sw: int32(s), terminal: -1, kind: External, dim: -1}
	next := atPort(PortRef{s, int(b.count[s])})
	switch {
	case r.Internal:
		if r.Dir != 0 {
			b.failAt(next, "switch %d: an internal port has no dimension", s)
		}
		bp.kind = Internal
	case r.Dir != 0:
		if r.Dir != 1 && r.Dir != -1 {
			b.failAt(next, "switch %d: direction %d; a dimension port's direction is +1 or -1", s, r.Dir)
			return PortRef{-1, -1}
		}
		if s >= b.gridSw || len(b.radix) == 0 {
			b.failAt(next, "switch %d: dimension port %s on a switch with no coordinates; make the switch with Grid, or give the port a label", s, DimPortName(r.Dim, r.Dir, max(len(b.radix), r.Dim+1)))
			return PortRef{-1, -1}
		}
		if r.Dim < 0 || r.Dim >= len(b.radix) {
			b.failAt(next, "switch %d: dimension %d; the grid has dimensions 0 to %d", s, r.Dim, len(b.radix)-1)
			return PortRef{-1, -1}
		}
		bp.dim, bp.dir = int8(r.Dim), int8(r.Dir)
	}
	if r.Label != "" {
		bp.label = b.label(r.Label)
	}
	return b.addPort(bp)
}

func (b *Builder) addPort(bp bport) PortRef {
	s := int(bp.sw)
	if b.count[s] >= MaxPortsPerSwitch {
		b.fail("switch %d has more than %d ports", s, MaxPortsPerSwitch)
		return PortRef{-1, -1}
	}
	if n := len(b.ports); n > 0 && b.ports[n-1].sw > bp.sw {
		b.sorted = false
	}
	b.ports = append(b.ports, bp)
	b.count[s]++
	return PortRef{s, int(b.count[s]) - 1}
}

func (b *Builder) label(l string) uint16 {
	if b.labelIdx == nil {
		b.labelIdx = map[string]uint16{}
	}
	if i, ok := b.labelIdx[l]; ok {
		return i
	}
	if len(b.labels) > math.MaxUint16 {
		b.fail("more than %d distinct port labels", math.MaxUint16)
		return 0
	}
	i := uint16(len(b.labels))
	b.labels = append(b.labels, l)
	b.labelIdx[l] = i
	return i
}

// Connect joins two ports with a bidirectional link.
func (b *Builder) Connect(a, z PortRef) { b.links = append(b.links, blink{a: a, z: z}) }

// ConnectOneWay joins port from to port to with a link that carries traffic from one
// to the other only.
func (b *Builder) ConnectOneWay(from, to PortRef) {
	b.links = append(b.links, blink{a: from, z: to, oneWay: true})
}

// Link adds a port with role ra to switch a and one with role rz to switch z, and
// joins them with a bidirectional link; it returns the two ports.
func (b *Builder) Link(a int, ra Role, z int, rz Role) (PortRef, PortRef) {
	pa, pz := b.AddPort(a, ra), b.AddPort(z, rz)
	if pa.Switch >= 0 && pz.Switch >= 0 {
		b.Connect(pa, pz)
	}
	return pa, pz
}

// LinkOneWay is Link for a one-way link from switch a to switch z.
func (b *Builder) LinkOneWay(a int, ra Role, z int, rz Role) (PortRef, PortRef) {
	pa, pz := b.AddPort(a, ra), b.AddPort(z, rz)
	if pa.Switch >= 0 && pz.Switch >= 0 {
		b.ConnectOneWay(pa, pz)
	}
	return pa, pz
}

// Unconnected marks a port as left open on purpose (a mesh's boundary ports keep
// every switch's port numbering alike); other unlinked ports are mistakes.
func (b *Builder) Unconnected(p PortRef) { b.opens = append(b.opens, p) }

// SetLatency sets the latency of the link leaving port p, in cycles (1 to MaxLatency);
// ports without one take the engine's link latency parameter.
func (b *Builder) SetLatency(p PortRef, cycles int) {
	if cycles < 1 || cycles > MaxLatency {
		b.failAt(atPort(p), "%s: latency %d; accepted are 1 to %d cycles", p, cycles, MaxLatency)
		return
	}
	b.lats = append(b.lats, latency{p: p, cycles: uint16(cycles)})
}

// MaxLength is the longest link, in standard links, that SetLength accepts.
const MaxLength = 255

// SetLength makes the link leaving port p as long as `times` standard links (1 to
// MaxLength): without a latency of its own it takes that many times the engine's link
// latency. KNS's RUFT subnets return to the routers over links s_h times as long.
func (b *Builder) SetLength(p PortRef, times int) {
	if times < 1 || times > MaxLength {
		b.failAt(atPort(p), "%s: length %d; accepted are 1 to %d standard links", p, times, MaxLength)
		return
	}
	b.lats = append(b.lats, latency{p: p, cycles: uint16(times), length: true})
}

// AttachPE adds a terminal port to switch s with a new PE and returns the PE's id.
func (b *Builder) AttachPE(s int) int {
	pe := len(b.pes)
	b.attach(s, pe)
	return pe
}

// attach puts PE pe on a new terminal port of switch s (readers give PE ids).
func (b *Builder) attach(s, pe int) PortRef {
	if !b.hasSwitch(s, fmt.Sprintf("PE %d", pe)) {
		return PortRef{-1, -1}
	}
	if pe < 0 || pe >= MaxSwitches*MaxPEsPerSwitch {
		b.failAt(atPE(pe), "PE id %d: accepted are 0 to %d", pe, MaxSwitches*MaxPEsPerSwitch-1)
		return PortRef{-1, -1}
	}
	for len(b.pes) <= pe {
		b.pes = append(b.pes, -1)
	}
	if b.pes[pe] >= 0 {
		b.failAt(atPE(pe), "PE %d is attached twice (to switch %d and switch %d)", pe, b.ports[b.pes[pe]].sw, s)
		return PortRef{-1, -1}
	}
	r := b.addPort(bport{sw: int32(s), terminal: int32(pe), kind: Terminal, dim: -1})
	if r.Switch >= 0 {
		b.pes[pe] = int32(len(b.ports) - 1)
	}
	return r
}

// Build validates the network and returns it.
func (b *Builder) Build() (*Network, error) {
	net, err := b.build()
	if err != nil {
		return nil, fmt.Errorf("building %s: %w", b.name, err)
	}
	return net, nil
}

// buildErrors is what Build returns: the mistakes it kept (errors.As finds the first
// *BuildError) and how many more there were, in one line.
type buildErrors struct {
	list []*BuildError
	more int
}

func (e *buildErrors) Error() string {
	msgs := make([]string, len(e.list))
	for i, be := range e.list {
		msgs[i] = be.Msg
	}
	msg := strings.Join(msgs, "; ")
	if e.more > 0 {
		msg += fmt.Sprintf("; and %d more", e.more)
	}
	return msg
}

func (e *buildErrors) Unwrap() []error {
	out := make([]error, len(e.list))
	for i, be := range e.list {
		out[i] = be
	}
	return out
}

func (b *Builder) err() error {
	if len(b.errs) == 0 {
		return nil
	}
	return &buildErrors{list: b.errs, more: b.more}
}

func (b *Builder) build() (*Network, error) {
	if err := b.err(); err != nil {
		return nil, err
	}
	if b.nsw == 0 {
		return nil, errors.New("no switches")
	}
	net := &Network{name: b.name, labels: b.labels, perNode: b.perNode, gridSw: b.gridSw}
	// Ports in switch order: the order they were added within each switch.
	net.portStart = sysmem.MakeHuge[int32](b.nsw + 1)
	for s, c := range b.count {
		net.portStart[s+1] = net.portStart[s] + c
	}
	total := int(net.portStart[b.nsw])
	net.ports = sysmem.MakeHuge[Port](total)
	var pos []int32 // builder index -> global port id, when ports came out of order
	if !b.sorted {
		pos = make([]int32, len(b.ports))
		next := append([]int32(nil), net.portStart[:b.nsw]...)
		for i, bp := range b.ports {
			pos[i] = next[bp.sw]
			next[bp.sw]++
		}
	}
	for i, bp := range b.ports {
		g := i
		if pos != nil {
			g = int(pos[i])
		}
		net.ports[g] = Port{Kind: bp.kind, Dim: bp.dim, Dir: bp.dir, Label: bp.label,
			PeerPort: -1, FromPort: -1, Peer: -1, From: -1, Terminal: bp.terminal}
	}
	gid := func(p PortRef) int { return int(net.portStart[p.Switch]) + p.Port }
	valid := func(p PortRef) bool {
		return p.Switch >= 0 && p.Switch < b.nsw && p.Port >= 0 && p.Port < int(b.count[p.Switch])
	}
	for _, l := range b.lats {
		if !valid(l.p) {
			b.failAt(atPort(l.p), "latency of %s, which does not exist", l.p)
			continue
		}
		if l.length {
			net.ports[gid(l.p)].Length = uint8(l.cycles)
		} else {
			net.ports[gid(l.p)].Latency = l.cycles
		}
	}
	open := map[int]bool{}
	for _, p := range b.opens {
		if !valid(p) {
			b.failAt(atPort(p), "%s, marked unconnected, does not exist", p)
			continue
		}
		open[gid(p)] = true
	}

	// Links.
	net.links = make([]Link, 0, len(b.links))
	for i, l := range b.links {
		if !valid(l.a) || !valid(l.z) {
			bad := l.a
			if valid(l.a) {
				bad = l.z
			}
			b.failAt(atLink(i), "link %d: %s does not exist", i, bad)
			continue
		}
		if l.a.Switch == l.z.Switch {
			b.failAt(atLink(i), "link %d joins switch %d to itself", i, l.a.Switch)
			continue
		}
		pa, pz := &net.ports[gid(l.a)], &net.ports[gid(l.z)]
		if pa.Kind == Terminal || pz.Kind == Terminal {
			b.failAt(atLink(i), "link %d joins a PE's terminal port (%s to %s); PEs attach with AttachPE", i, l.a, l.z)
			continue
		}
		if pa.Kind != pz.Kind {
			b.failAt(atLink(i), "link %d joins an internal port to an external one (%s to %s)", i, l.a, l.z)
			continue
		}
		if pa.Peer >= 0 || (!l.oneWay && pa.From >= 0) {
			b.failAt(atLink(i), "%s is linked twice (link %d)", b.describe(net, l.a), i)
			continue
		}
		if pz.From >= 0 || (!l.oneWay && pz.Peer >= 0) {
			b.failAt(atLink(i), "%s is linked twice (link %d)", b.describe(net, l.z), i)
			continue
		}
		pa.Peer, pa.PeerPort = int32(l.z.Switch), int16(l.z.Port)
		pz.From, pz.FromPort = int32(l.a.Switch), int16(l.a.Port)
		if !l.oneWay {
			pz.Peer, pz.PeerPort = int32(l.a.Switch), int16(l.a.Port)
			pa.From, pa.FromPort = int32(l.z.Switch), int16(l.z.Port)
		}
		net.links = append(net.links, Link{A: int32(l.a.Switch), PA: int16(l.a.Port), B: int32(l.z.Switch), PB: int16(l.z.Port), OneWay: l.oneWay})
	}
	if err := b.err(); err != nil {
		return nil, err
	}
	for s := 0; s < b.nsw; s++ {
		for p := 0; p < int(b.count[s]); p++ {
			port := net.ports[gid(PortRef{s, p})]
			if port.Kind != Terminal && port.Peer < 0 && port.From < 0 && !open[gid(PortRef{s, p})] {
				b.failAt(atPort(PortRef{s, p}), "%s is dangling: link it, or mark it Unconnected", b.describe(net, PortRef{s, p}))
			}
		}
	}

	// PEs.
	if len(b.pes) == 0 {
		b.fail("no PEs: attach at least one with AttachPE")
	}
	net.terminals = sysmem.MakeHuge[Attachment](len(b.pes))
	for pe, i := range b.pes {
		if i < 0 {
			b.failAt(atPE(pe), "PE %d is on no switch (PE ids run from 0 to %d without gaps)", pe, len(b.pes)-1)
			continue
		}
		g := int(i)
		if pos != nil {
			g = int(pos[i])
		}
		s := int(b.ports[i].sw)
		net.terminals[pe] = Attachment{Switch: int32(s), Port: int16(g - int(net.portStart[s]))}
	}
	if b.swLabels != nil {
		net.swLabels = make([]string, b.nsw)
		copy(net.swLabels, b.swLabels)
	}
	if b.swClass != nil {
		net.classNames = b.classes
		net.swClass = make([]uint8, b.nsw)
		copy(net.swClass, b.swClass)
	}
	net.groups, net.ngroups = b.groups()
	if err := b.err(); err != nil {
		return nil, err
	}
	if err := b.layGrid(net); err != nil {
		return nil, err
	}
	if err := connected(net); err != nil {
		return nil, err
	}
	return net, nil
}

func (b *Builder) describe(net *Network, p PortRef) string {
	port := net.ports[int(net.portStart[p.Switch])+p.Port]
	name := port.Name(len(b.radix))
	if port.Label != 0 {
		name = b.labels[port.Label]
	}
	if name == "ext" {
		return p.String()
	}
	return fmt.Sprintf("%s (%s)", p, name)
}

// layGrid fills the coordinate tables of a grid network, or the trivial ones.
func (b *Builder) layGrid(net *Network) error {
	if len(b.radix) == 0 {
		net.nodes, net.gridSw = b.nsw, b.nsw
		return nil
	}
	dims := len(b.radix)
	net.radix = b.radix
	net.stride = make([]int, dims)
	net.nodes = 1
	for d, k := range b.radix {
		net.stride[d] = net.nodes
		net.nodes *= k
	}
	net.nodeShift = uint(bits.TrailingZeros(uint(b.perNode)))
	net.digits = sysmem.MakeHuge[uint16](net.nodes * dims)
	for o := 0; o < net.nodes; o++ {
		for d := 0; d < dims; d++ {
			net.digits[o*dims+d] = uint16(o / net.stride[d] % b.radix[d])
		}
	}
	net.dimPort = sysmem.MakeHuge[int16](b.gridSw * dims * 2)
	for i := range net.dimPort {
		net.dimPort[i] = -1
	}
	if b.perNode == 2 {
		net.intPort = make([]int16, b.gridSw)
	}
	wraps, dimPorts := false, false
	for s := 0; s < b.gridSw; s++ {
		if net.intPort != nil {
			net.intPort[s] = -1
		}
		for p := 0; p < net.Ports(s); p++ {
			port := net.Port(s, p)
			if port.Kind == Internal && net.intPort != nil {
				if net.intPort[s] >= 0 {
					return &BuildError{Msg: fmt.Sprintf("switch %d has two internal ports (%d and %d)", s, net.intPort[s], p), Link: -1, PE: -1, Switch: -1, Port: PortRef{s, p}}
				}
				net.intPort[s] = int16(p)
			}
			if port.Dir == 0 {
				continue
			}
			d, dir := int(port.Dim), int(port.Dir)
			i := (s*dims+d)*2 + dirIndex(dir)
			if net.dimPort[i] >= 0 {
				return &BuildError{Msg: fmt.Sprintf("switch %d has two %s ports (%d and %d)", s, DimPortName(d, dir, dims), net.dimPort[i], p), Link: -1, PE: -1, Switch: -1, Port: PortRef{s, p}}
			}
			net.dimPort[i] = int16(p)
			dimPorts = true
			digit := net.Digit(net.Node(s), d)
			if port.Peer >= 0 && (dir > 0 && digit == b.radix[d]-1 || dir < 0 && digit == 0) {
				wraps = true
			}
		}
	}
	net.mesh = dimPorts && !wraps // a grid whose switches link by labels (KNS, flattened butterflies) is no mesh
	if b.perNode == 2 {
		for p := 0; p < net.Ports(0); p++ {
			if port := net.Port(0, p); port.Dir != 0 {
				net.config |= PortBit(int(port.Dim), int(port.Dir))
			}
		}
	}
	return nil
}

// connected checks that every switch reaches every other along links' directions.
func connected(net *Network) error {
	n := net.Switches()
	for _, forward := range []bool{true, false} {
		seen := make([]bool, n)
		seen[0] = true
		queue := make([]int32, 1, n)
		for head := 0; head < len(queue); head++ {
			s := int(queue[head])
			for p := 0; p < net.Ports(s); p++ {
				port := net.Port(s, p)
				t := port.Peer
				if !forward {
					t = port.From
				}
				if t >= 0 && !seen[t] {
					seen[t] = true
					queue = append(queue, t)
				}
			}
		}
		for s, ok := range seen {
			if ok {
				continue
			}
			msg := fmt.Sprintf("the network is disconnected: switch %d cannot reach switch 0", s)
			if forward {
				msg = fmt.Sprintf("the network is disconnected: switch %d cannot be reached from switch 0", s)
			}
			return &BuildError{Msg: msg, Link: -1, PE: -1, Switch: s, Port: PortRef{-1, -1}}
		}
	}
	return nil
}

// buildFamily is Build for a family's own builder: the network also carries its spec
// and the routing the family's table names, as every registered family's networks do.
func (b *Builder) buildFamily(s Spec) (*Network, error) {
	net, err := b.Build()
	if err != nil {
		return nil, err
	}
	net.spec = s
	if f, ok := LookupFamily(string(s.Family)); ok {
		net.routing = f.Routing
	}
	return net, nil
}
