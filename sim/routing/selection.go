package routing

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/internal/splitmix"
	"github.com/twintorus/twintorus/sim/topology"
)

// SelectionDef is one selection function by name, for help texts and the docs.
type SelectionDef struct {
	Name    string
	Summary string
}

// Selections lists the selection functions ([AR] §3.1–3.2). An
// adaptive candidate is *available* when its downstream VC has room for the packet
// (paper (b): "free space to store the packet in the neighbour node"; a port busy
// with another packet does not count against it), and *low* when less than the
// threshold share of that VC is occupied, as the credits tell. Within a set, the
// choice is round-robin over channels (port and VC) from the last one chosen.
func Selections() []SelectionDef {
	return []SelectionDef{
		{"ref", "paper (b)'s reference function: round-robin among the low available adaptive VCs, then among the high ones, then the escape"},
		{"rr", "Round-Robin, paper (b)'s name for ref on twin tori: internal-link VCs compete equally"},
		{"nointernal", "ref without the internal link's adaptive VCs"},
		{"2prio", "ref over the external adaptive VCs, then over the internal link's, then the escape"},
		{"3prio", "ref over the ports of dimensions that are not split, then the split dimension's port, then the internal link, then the escape (paper (b)'s choice)"},
		{"first", "the first candidate that can start now, in the routing's order (adaptive before escape)"},
		{"random", "uniformly among the available adaptive VCs, else the escape"},
		{"minfirst", "DAL's default: among candidates that can start now, minimal with a low VC, then non-minimal (deroutes) with a low VC, then minimal high, then non-minimal high; else the same order among those with room (waiting for the port), then the escape; round-robin within each"},
	}
}

// PointerScope is what a round-robin pointer belongs to.
type PointerScope uint8

const (
	// PointerInput keeps one pointer per input port of every switch, as a routing unit
	// per input port would (the default).
	PointerInput PointerScope = iota
	// PointerSwitch keeps one pointer per switch, shared by its input ports.
	PointerSwitch
)

func (p PointerScope) String() string {
	if p == PointerSwitch {
		return "switch"
	}
	return "input"
}

// DefaultThreshold is the occupancy share from which an adaptive VC counts as high:
// paper (b) gives none; half the VC.
const DefaultThreshold = 0.5

// Selection is a selection function with its parameters, as a Point, the command line
// and a YAML spec spell it: NAME[:OPTION,...] with the options
//
//	threshold=T       occupancy share (0 to 1) from which a VC is high (0.5)
//	pointer=input     one round-robin pointer per input port (the default)
//	pointer=switch    one per switch
//	reselect=cycle    a blocked head selects again every cycle (the default)
//	reselect=once     a head selects when it is routed and keeps the choice while it
//	                  waits for the output port; it selects again only when the
//	                  adaptive VC it chose has lost its room (a packet never waits on
//	                  a full adaptive VC, which Duato's condition forbids)
//
// The zero Selection is "the routing's default" (Duato: 3prio on twin tori, ref
// elsewhere; other routings: first).
type Selection struct {
	Name      string
	Threshold float64 // 0: DefaultThreshold
	Pointer   PointerScope
	Once      bool
}

// ParseSelection reads a selection spec; "" is the routing's default.
func ParseSelection(s string) (Selection, error) {
	var sel Selection
	name, opts, _ := strings.Cut(strings.TrimSpace(s), ":")
	sel.Name = strings.ToLower(strings.TrimSpace(name))
	if sel.Name == "" {
		if strings.TrimSpace(opts) != "" {
			return sel, fmt.Errorf("selection %q has options but no name: accepted are %s", s, acceptedSelections())
		}
		return sel, nil
	}
	if !knownSelection(sel.Name) {
		return sel, fmt.Errorf("unknown selection function %q: accepted are %s", name, acceptedSelections())
	}
	const accepted = "accepted are threshold=T (0 to 1), pointer=input|switch and reselect=cycle|once, comma-separated"
	for _, item := range strings.Split(opts, ",") {
		item = strings.ToLower(strings.TrimSpace(item))
		if item == "" {
			continue
		}
		key, val, _ := strings.Cut(item, "=")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch {
		case key == "threshold":
			t, err := strconv.ParseFloat(strings.TrimSuffix(val, "%"), 64)
			if strings.HasSuffix(val, "%") {
				t /= 100
			}
			if err != nil || !(t >= 0 && t <= 1) {
				return sel, fmt.Errorf("selection option %q: the threshold is an occupancy share from 0 to 1 (or 0%% to 100%%)", item)
			}
			if t == 0 {
				t = -1 // an explicit 0: every VC is high (plain round-robin), not the default
			}
			sel.Threshold = t
		case key == "pointer" && val == "input":
			sel.Pointer = PointerInput
		case key == "pointer" && val == "switch":
			sel.Pointer = PointerSwitch
		case key == "reselect" && val == "cycle":
			sel.Once = false
		case key == "reselect" && val == "once":
			sel.Once = true
		default:
			return sel, fmt.Errorf("selection option %q: %s", item, accepted)
		}
	}
	if sel.Threshold == DefaultThreshold {
		sel.Threshold = 0
	}
	return sel, nil
}

// String is the canonical spec: the name, then the options that differ from the
// defaults in the order pointer, reselect, threshold.
func (s Selection) String() string {
	if s.Name == "" {
		return ""
	}
	var opts []string
	if s.Pointer != PointerInput {
		opts = append(opts, "pointer="+s.Pointer.String())
	}
	if s.Once {
		opts = append(opts, "reselect=once")
	}
	if s.Threshold != 0 {
		opts = append(opts, "threshold="+strconv.FormatFloat(s.threshold(), 'g', -1, 64))
	}
	if len(opts) == 0 {
		return s.Name
	}
	return s.Name + ":" + strings.Join(opts, ",")
}

// threshold is the occupancy share from which a VC is high.
func (s Selection) threshold() float64 {
	switch {
	case s.Threshold == 0:
		return DefaultThreshold
	case s.Threshold < 0:
		return 0
	}
	return s.Threshold
}

func knownSelection(name string) bool {
	for _, d := range Selections() {
		if d.Name == name {
			return true
		}
	}
	return false
}

func acceptedSelections() string {
	var names []string
	for _, d := range Selections() {
		names = append(names, d.Name)
	}
	return strings.Join(names, ", ")
}

// DefaultSelection is the selection function a routing uses when none is named: the
// routing's own choice (Duato's: 3prio on twin tori, ref elsewhere), else first.
func DefaultSelection(rt Func) string {
	if d, ok := rt.(interface{ DefaultSelection() string }); ok {
		return d.DefaultSelection()
	}
	return "first"
}

// Selects reports whether a routing can offer several candidates, so that a selection
// function matters: not DOR/DORT, not up*/down*, not deterministic shortest paths. A
// routing says so itself (OneCandidatePerHop); one that does not is taken as adaptive.
func Selects(rt Func) bool {
	if o, ok := rt.(interface{ OneCandidatePerHop() bool }); ok {
		return !o.OneCandidatePerHop()
	}
	return true
}

// Resolve fills in the routing's default selection function when s names none.
func (s Selection) Resolve(rt Func) Selection {
	if s.Name == "" {
		s.Name = DefaultSelection(rt)
	}
	return s
}

// Priority classes of adaptive candidates, by output port.
const (
	classOther    = 1 // an external port of a dimension that is not split (or without one)
	classSplit    = 2 // the split dimension's port on this card (d_mid)
	classInternal = 3 // the internal link
)

// Levels of each function: the classes it tries, in order, as bit masks.
var selectionLevels = map[string][]uint8{
	"ref":        {1<<classOther | 1<<classSplit | 1<<classInternal},
	"rr":         {1<<classOther | 1<<classSplit | 1<<classInternal},
	"nointernal": {1<<classOther | 1<<classSplit},
	"2prio":      {1<<classOther | 1<<classSplit, 1 << classInternal},
	"3prio":      {1 << classOther, 1 << classSplit, 1 << classInternal},
}

// New makes the selection function for a run on net; seed drives random.
func (s Selection) New(net *topology.Network, seed uint64) (Selector, error) {
	if s.Name == "" {
		return nil, fmt.Errorf("selection function not resolved: name one of %s", acceptedSelections())
	}
	if !knownSelection(s.Name) {
		return nil, fmt.Errorf("unknown selection function %q: accepted are %s", s.Name, acceptedSelections())
	}
	sel := &selector{net: net, name: s.Name, spec: s.String(), levels: selectionLevels[s.Name], threshold: s.threshold(), perSwitch: s.Pointer == PointerSwitch}
	sel.class = make([]uint8, net.TotalPorts())
	var split []bool
	if net.IsTwin() {
		split = make([]bool, net.Dims())
		for _, d := range net.Config().Split(net.Dims()) {
			split[d] = true
		}
	}
	for sw := 0; sw < net.Switches(); sw++ {
		for p := 0; p < net.Ports(sw); p++ {
			port := net.Port(sw, p)
			c := uint8(classOther)
			switch {
			case port.Kind == topology.Internal:
				c = classInternal
			case split != nil && port.Dim >= 0 && split[port.Dim]:
				c = classSplit
			}
			sel.class[net.PortID(sw, p)] = c
		}
	}
	if sel.perSwitch {
		sel.ptr = make([]int32, net.Switches())
	} else {
		sel.ptr = make([]int32, net.TotalPorts())
	}
	for i := range sel.ptr {
		sel.ptr[i] = -1
	}
	if s.Name == "random" {
		sel.rng = make([]uint64, net.TotalPorts())
		for g := range sel.rng {
			sel.rng[g] = splitmix.Stream(seed, g)
		}
	}
	return sel, nil
}

// selector implements every selection function: a table of priority levels over the
// candidates' classes, round-robin pointers, and a random state per input port (so
// that the order in which switches are visited cannot change a choice).
type selector struct {
	net       *topology.Network
	name      string
	spec      string // the canonical selection spec
	levels    []uint8
	class     []uint8 // per global port
	threshold float64
	perSwitch bool
	ptr       []int32 // last channel chosen (port*64 + VC), per input port or per switch; -1: none yet
	rng       []uint64
}

// String is the selection spec, e.g. "3prio:threshold=0.25".
func (sel *selector) String() string { return sel.spec }

// Select picks a candidate for the head packet at input port in of switch s.
func (sel *selector) Select(s, in int, opts []Option) int {
	base := sel.net.PortID(s, 0)
	switch sel.name {
	case "first":
		for i, o := range opts {
			if o.Available {
				return i
			}
		}
		return -1
	case "random":
		n := 0
		for _, o := range opts {
			if !o.Escape && o.Room {
				n++
			}
		}
		if n > 0 {
			k := int(splitmix.Next(&sel.rng[base+in]) % uint64(n))
			for i, o := range opts {
				if !o.Escape && o.Room {
					if k == 0 {
						return i
					}
					k--
				}
			}
		}
		return escapeOf(opts)
	}
	key := base + in
	if sel.perSwitch {
		key = s
	}
	if sel.name == "minfirst" {
		return sel.minFirst(base, key, opts)
	}
	for _, mask := range sel.levels {
		if i := sel.pick(base, key, opts, mask); i >= 0 {
			return i
		}
	}
	return escapeOf(opts)
}

// pick is the choice within one priority level: round-robin among the available
// adaptive candidates of the classes in mask whose VC is low, else among the high ones;
// -1 when none is available.
func (sel *selector) pick(base, key int, opts []Option, mask uint8) int {
	last := sel.ptr[key]
	bestLow, bestHigh := -1, -1
	var rankLow, rankHigh uint32
	for i, o := range opts {
		if o.Escape || !o.Room || mask&(1<<sel.class[base+int(o.Port)]) == 0 {
			continue
		}
		// Channels after the last one chosen come first, in channel order, wrapping.
		rank := uint32(int32(o.Port)<<6|int32(o.VC)) - uint32(last) - 1
		if float64(o.Capacity-o.Credits) < sel.threshold*float64(o.Capacity) {
			if bestLow < 0 || rank < rankLow {
				bestLow, rankLow = i, rank
			}
		} else if bestHigh < 0 || rank < rankHigh {
			bestHigh, rankHigh = i, rank
		}
	}
	best := bestLow
	if best < 0 {
		best = bestHigh
	}
	if best >= 0 {
		sel.ptr[key] = int32(opts[best].Port)<<6 | int32(opts[best].VC)
	}
	return best
}

// minFirst is the minfirst function: among the candidates that can start now
// (Available), round-robin among the minimal ones whose VC is low, else the low
// non-minimal ones, else the high minimal ones, else the high non-minimal ones; when
// none can start, the same order among those with room (the packet waits for the
// port). A deroute is taken only when the minimal port is busy or its VC is high and
// the deroute can go at once: in an input-queued switch a contended output shows as a
// busy port, not as a full downstream VC, which drains as fast as the link fills it.
func (sel *selector) minFirst(base, key int, opts []Option) int {
	last := sel.ptr[key]
	var best [8]int
	var rank [8]uint32
	best = [8]int{-1, -1, -1, -1, -1, -1, -1, -1}
	for i, o := range opts {
		if o.Escape || !o.Room {
			continue
		}
		level := 0
		if o.NonMin {
			level = 1
		}
		if float64(o.Capacity-o.Credits) >= sel.threshold*float64(o.Capacity) {
			level += 2
		}
		if !o.Available {
			level += 4
		}
		r := uint32(int32(o.Port)<<6|int32(o.VC)) - uint32(last) - 1
		if best[level] < 0 || r < rank[level] {
			best[level], rank[level] = i, r
		}
	}
	for _, b := range best {
		if b >= 0 {
			sel.ptr[key] = int32(opts[b].Port)<<6 | int32(opts[b].VC)
			return b
		}
	}
	return escapeOf(opts)
}

// escapeOf is the escape candidate (the packet waits for it when it has no room), or
// -1 when the routing offers none.
func escapeOf(opts []Option) int {
	for i, o := range opts {
		if o.Escape {
			return i
		}
	}
	return -1
}

// ZeroLoadChoices appends to buf the indices of the candidates that selection function
// sel may take at zero load, when every downstream VC is empty (so every candidate is
// available and low): the first candidate for first; every adaptive candidate for
// random; the adaptive candidates of the first priority level that has any, otherwise
// the escape, for the others. Under round-robin each is taken equally often when the
// pointer is equally likely anywhere, which the exact route-length analysis assumes.
func ZeroLoadChoices(sel Selector, s int, cands []Candidate, buf []int) []int {
	buf = buf[:0]
	x, ok := sel.(*selector)
	if !ok || len(cands) == 1 || x.name == "first" {
		return append(buf, 0)
	}
	base := x.net.PortID(s, 0)
	if x.name == "minfirst" {
		for i, c := range cands {
			if !c.Escape && !c.NonMin {
				buf = append(buf, i)
			}
		}
		if len(buf) > 0 {
			return buf
		}
	}
	masks := x.levels
	if x.name == "random" {
		masks = []uint8{^uint8(0)}
	}
	for _, mask := range masks {
		for i, c := range cands {
			if !c.Escape && mask&(1<<x.class[base+int(c.Port)]) != 0 {
				buf = append(buf, i)
			}
		}
		if len(buf) > 0 {
			return buf
		}
	}
	for i, c := range cands {
		if c.Escape {
			return append(buf, i)
		}
	}
	return append(buf, 0)
}
