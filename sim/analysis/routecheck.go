package analysis

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// RoutingReport is the verdict of CheckRouting on a routing function.
type RoutingReport struct {
	Routing string
	// States is the number of (switch, input port, input VC, escaped) situations a
	// packet can be in, summed over destinations; Channels and Dependencies count the
	// channel dependency graph the verdict is about.
	States, Channels, Dependencies int
	// Escape is true when the routing offers escape channels: the verdict is then
	// Duato's, on the escape subnetwork (packets that take it stay on it, or, for a
	// routing that lets them return to adaptive channels, on its extended graph).
	Escape bool
	// Rings is the number of bubble-protected rings the graph was contracted by (0
	// without bubble flow control).
	Rings int
	// CutThrough: the verdict assumes virtual cut-through switching (CheckOptions), and
	// the escape graph of a routing that lets packets return holds direct dependencies
	// only.
	CutThrough bool
	// DeadlockFree is the verdict: no problem and an acyclic graph.
	DeadlockFree bool
	// Cycle is one cycle of channels of the graph, when it has one.
	Cycle []Channel
	// Problem is the first route that breaks the rules, or "": a port that does not
	// exist or carries no link, a VC out of range, a packet delivered to the wrong PE,
	// a switch that offers nothing, or (with escape channels) a situation that offers
	// no escape.
	Problem string
}

// CycleString names the cycle as "s0 x+ vc0 -> s1 x+ vc0 -> ... -> s0 x+ vc0".
func (r *RoutingReport) CycleString() string {
	if len(r.Cycle) == 0 {
		return ""
	}
	parts := make([]string, 0, len(r.Cycle)+1)
	for _, c := range r.Cycle {
		parts = append(parts, c.Name)
	}
	return strings.Join(append(parts, r.Cycle[0].Name), " -> ")
}

// CheckRouting checks any routing function on its network without simulating: it
// follows every candidate of every route from every PE to every PE (once per
// destination when the routing says its routes ignore the source, once per destination
// and source class when it says they depend on the source only through its class,
// SourceClass: TSDOR's source card; once per salt 0…n−1 when it says those salts cover
// every route it takes, SaltClasses), checks each
// candidate, and builds the channel dependency graph: an edge from the channel a
// packet holds to each channel the routing lets it request next.
//
// Without escape channels the routing is deadlock-free when that graph is acyclic
// (Dally and Seitz; for adaptive routing a sufficient condition). When the routing
// marks escape candidates (Duato's method: routing.Escape, routing.Duato), the verdict
// is about the escape subnetwork: every situation must offer an escape candidate, a
// packet on the escape channels must be offered only escape channels, and the graph of
// dependencies between escape channels must be acyclic. A routing whose Sticky method
// says packets may return from the escape to adaptive channels (adaptive:return) is
// held to Duato's extended graph instead: it also has an edge from the last escape
// channel a packet held to every escape channel it may request after adaptive hops
// (indirect dependencies), which a packet spread over several buffers under wormhole
// switching creates; CheckRoutingWith with CutThrough leaves them out.
//
// Under bubble flow control (a routing with a Ring method and the bubble scheme: DOR,
// DORT, and Duato's escape), each ring's channels are one node of the graph, as in
// CheckCDG: every dependency into a ring from outside it (from injection, another ring
// or an adaptive channel) must carry the bubble condition, and the contracted graph
// must be acyclic.
func CheckRouting(ctx context.Context, net *topology.Network, rt routing.Func) (*RoutingReport, error) {
	return CheckRoutingWith(ctx, net, rt, CheckOptions{})
}

// CheckOptions say what the network's switching guarantees beyond what CheckRouting
// assumes (nothing: its verdicts hold under wormhole switching too).
type CheckOptions struct {
	// CutThrough: virtual cut-through switching, a packet advancing only into a buffer
	// with room for all of it (the engine's vct switching, which bubble flow control
	// requires). A blocked packet then sits whole in one buffer, so a packet that
	// leaves an escape channel for adaptive ones releases it: there are no indirect
	// dependencies, and for a routing whose packets may return from the escape to the
	// adaptive channels Duato's condition for cut-through networks (Duato, IEEE TPDS
	// 7(8), 1996) is held to the escape channels' direct dependencies, those of
	// packets that hold an escape channel and request another, from every situation
	// the routing can put a packet in. Sticky routings get the same graph either way.
	CutThrough bool
}

// CheckRoutingWith is CheckRouting under what opts say of the switching.
func CheckRoutingWith(ctx context.Context, net *topology.Network, rt routing.Func, opts CheckOptions) (*RoutingReport, error) {
	rep := &RoutingReport{Routing: rt.Name(), CutThrough: opts.CutThrough}
	maxVC := 1
	for _, k := range []topology.PortKind{topology.External, topology.Internal, topology.Terminal} {
		maxVC = max(maxVC, rt.VCs(k))
	}
	nch := net.TotalPorts() * maxVC
	if int64(nch)*2 > 1<<31 {
		return nil, fmt.Errorf("checking %s on %s: %d channels are too many", rt.Name(), net, nch)
	}
	si, _ := rt.(interface{ SourceIndependent() bool })
	perDest := si != nil && si.SourceIndependent()
	// The sources in the order they are explored, and where each class starts: a
	// situation met again from another source of the same class (or any source, per
	// destination) leads on exactly as before, so its exploration stops there.
	sources := make([]int, net.Terminals())
	newClass := make([]bool, net.Terminals())
	for i := range sources {
		sources[i] = i
		newClass[i] = !perDest || i == 0
	}
	if sc, ok := rt.(interface{ SourceClass(src int) int }); ok && !perDest {
		slices.SortStableFunc(sources, func(a, b int) int { return sc.SourceClass(a) - sc.SourceClass(b) })
		for i, src := range sources {
			newClass[i] = i == 0 || sc.SourceClass(src) != sc.SourceClass(sources[i-1])
		}
	}
	chanOf := func(s, p, vc int) int { return net.PortID(s, p)*maxVC + vc }
	// A routing whose routes read the packet's salt (Valiant's intermediate, a trunk)
	// and says which salts cover them all (SaltClasses) is followed under each.
	salts := 1
	if sc, ok := rt.(interface{ SaltClasses() int }); ok && sc.SaltClasses() > 1 {
		salts = sc.SaltClasses()
	}

	c := &checker{net: net, rt: rt, rep: rep, maxVC: maxVC, chanOf: chanOf, cutThrough: opts.CutThrough,
		seen: make([]uint32, 2*nch), escapeCh: make([]bool, nch), sticky: true,
		edges: newEdgeSet(nch), escEdges: newEdgeSet(nch)}
	if st, ok := rt.(interface{ Sticky() bool }); ok && !st.Sticky() {
		c.sticky = false
	}
	if rf, ok := rt.(interface{ Ring(s, p, vc int) int64 }); ok {
		if sc, ok := rt.(interface{ Scheme() routing.Scheme }); ok && sc.Scheme() == routing.SchemeBubble {
			c.ring = rf.Ring
			c.ringOf = make([]int64, nch)
			for i := range c.ringOf {
				c.ringOf[i] = -2 // not computed yet
			}
		}
	}
	for _, k := range []topology.PortKind{topology.External, topology.Internal, topology.Terminal} {
		c.vcs[k] = rt.VCs(k)
	}
	for dst := 0; dst < net.Terminals() && rep.Problem == ""; dst++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("checking %s on %s: %w", rt.Name(), net, err)
		}
		for salt := range salts {
			for i, src := range sources {
				if rep.Problem != "" {
					break
				}
				if newClass[i] { // sources[0] always: each salt explores afresh
					c.stamp++
				}
				if src != dst {
					c.explore(src, dst, uint32(salt))
				}
			}
		}
	}
	if rep.Problem != "" {
		return rep, nil
	}
	if rep.Escape && c.noEscape != "" {
		rep.Problem = c.noEscape
		return rep, nil
	}
	if c.unprotected != "" {
		rep.Problem = c.unprotected
		return rep, nil
	}
	// The graph: over escape channels only when the routing has them (from the last
	// escape channel held, which for sticky routings is the channel held).
	edges := c.edges.list()
	if rep.Escape {
		edges = c.escEdges.list()
		if c.cutThrough { // between escape channels only, however the packet got there
			edges = slices.DeleteFunc(edges, func(e uint64) bool { return !c.escapeCh[int(e>>32)] })
		}
	}
	used := make([]bool, nch)
	for _, e := range edges {
		a, b := int(e>>32), int(e&0xffffffff)
		used[a], used[b] = true, true
		rep.Dependencies++
	}
	// Nodes: a channel, or (bubble flow control) a whole ring.
	node := make([]int, nch)
	members := [][]int{}
	rings := map[int64]int{}
	for ch, u := range used {
		if !u {
			continue
		}
		rep.Channels++
		if r := c.ringOfCh(ch); r >= 0 {
			g, ok := rings[r]
			if !ok {
				g = len(members)
				rings[r] = g
				members = append(members, []int{ch})
			}
			node[ch] = g
			continue
		}
		node[ch] = len(members)
		members = append(members, []int{ch})
	}
	rep.Rings = len(rings)
	adj := make([][]int, len(members))
	for _, e := range edges {
		a, b := node[int(e>>32)], node[int(e&0xffffffff)]
		if a != b {
			adj[a] = append(adj[a], b)
		}
	}
	if cycle := findCycle(adj); cycle != nil {
		for _, g := range cycle {
			ch := members[g][0]
			gp, vc := ch/maxVC, ch%maxVC
			s, p := c.portOf(gp)
			rep.Cycle = append(rep.Cycle, Channel{Switch: s, Port: p, VC: vc, Name: channelName(net, s, p, vc)})
		}
		return rep, nil
	}
	rep.DeadlockFree = true
	return rep, nil
}

// RequireDeadlockFree is CheckRouting as a gate before a run: nil when the routing is
// deadlock-free, else one line that says why, naming the cycle.
func RequireDeadlockFree(ctx context.Context, net *topology.Network, rt routing.Func) error {
	return RequireDeadlockFreeWith(ctx, net, rt, CheckOptions{})
}

// RequireDeadlockFreeWith is RequireDeadlockFree under what opts say of the switching.
func RequireDeadlockFreeWith(ctx context.Context, net *topology.Network, rt routing.Func, opts CheckOptions) error {
	rep, err := CheckRoutingWith(ctx, net, rt, opts)
	if err != nil {
		return err
	}
	switch {
	case rep.DeadlockFree:
		return nil
	case rep.Problem != "":
		return fmt.Errorf("routing %s on %s: %s", rt.Name(), net, rep.Problem)
	case rep.Escape:
		return fmt.Errorf("routing %s on %s can deadlock: its escape channels' dependencies close the cycle %s", rt.Name(), net, rep.CycleString())
	}
	return fmt.Errorf("routing %s on %s can deadlock: its channel dependencies close the cycle %s; add an escape VC (deadlock scheme escape) or break the cycle", rt.Name(), net, rep.CycleString())
}

// checker explores the situations of packets for one destination at a time.
type checker struct {
	net      *topology.Network
	rt       routing.Func
	rep      *RoutingReport
	maxVC    int
	vcs      [3]int
	chanOf   func(s, p, vc int) int
	stamp    uint32
	seen     []uint32 // (channel*2 + escaped) -> stamp of the exploration that saw it
	escapeCh []bool   // channels some escape candidate uses
	edges    edgeSet  // channel held -> channel requested
	escEdges edgeSet  // last escape channel held -> escape channel requested
	noEscape string   // the first situation without an escape candidate
	cands    []routing.Candidate
	stack    []situation
	ports    []int32 // global port -> switch, built on first use
	// sticky: packets on escape channels stay on them (else seenLast keys situations
	// by the last escape channel too).
	sticky   bool
	seenLast stampedSet
	// cutThrough: a packet's last escape channel is the one it holds, or none once it
	// has left it (CheckOptions.CutThrough).
	cutThrough bool
	// Bubble flow control: the ring of each channel (-1 none, -2 not computed yet),
	// and the first dependency into a ring without the bubble condition.
	ring        func(s, p, vc int) int64
	ringOf      []int64
	unprotected string
}

// situation is a packet at switch s that came in by port in on VC vc (from channel
// ch of the upstream switch, or -1 from its NIC); last is the last escape channel it
// held (-1 none).
type situation struct {
	s, in, vc, ch, last int32
	escaped             bool
}

// ringOfCh is the bubble ring of channel ch, or -1.
func (c *checker) ringOfCh(ch int) int64 {
	if c.ring == nil {
		return -1
	}
	if c.ringOf[ch] == -2 {
		g, vc := ch/c.maxVC, ch%c.maxVC
		s, p := c.portOf(g)
		c.ringOf[ch] = c.ring(s, p, vc)
	}
	return c.ringOf[ch]
}

func (c *checker) portOf(g int) (s, p int) {
	if c.ports == nil {
		c.ports = make([]int32, c.net.TotalPorts())
		for s := 0; s < c.net.Switches(); s++ {
			for p := 0; p < c.net.Ports(s); p++ {
				c.ports[c.net.PortID(s, p)] = int32(s)
			}
		}
	}
	s = int(c.ports[g])
	return s, g - c.net.PortID(s, 0)
}

func (c *checker) fail(format string, args ...any) {
	if c.rep.Problem == "" {
		c.rep.Problem = fmt.Sprintf(format, args...)
	}
}

// explore follows every route of a packet from src to dst.
func (c *checker) explore(src, dst int, salt uint32) {
	net := c.net
	at := net.Attachment(src)
	c.stack = append(c.stack[:0], situation{s: at.Switch, in: int32(at.Port), vc: 0, ch: -1, last: -1})
	for len(c.stack) > 0 && c.rep.Problem == "" {
		st := c.stack[len(c.stack)-1]
		c.stack = c.stack[:len(c.stack)-1]
		s := int(st.s)
		c.rep.States++
		c.cands = c.rt.Route(s, int(st.in), int(st.vc), routing.Head{Src: int32(src), Dst: int32(dst), Escaped: st.escaped, Salt: salt}, c.cands[:0])
		if len(c.cands) == 0 {
			c.fail("at switch %d, a packet for PE %d is offered no port", s, dst)
			return
		}
		offersEscape := false
		for _, cand := range c.cands {
			p := int(cand.Port)
			if p < 0 || p >= net.Ports(s) {
				c.fail("at switch %d, a packet for PE %d is offered port %d, which does not exist", s, dst, p)
				return
			}
			port := net.Port(s, p)
			if port.Kind == topology.Terminal {
				if int(port.Terminal) != dst {
					c.fail("at switch %d, a packet for PE %d is delivered to PE %d", s, dst, port.Terminal)
				}
				offersEscape = true // delivery needs no escape
				continue
			}
			if !port.Connected() {
				c.fail("at switch %d, a packet for PE %d is offered port %s, which sends to no switch", s, dst, net.PortName(s, p))
				return
			}
			downKind := net.Port(int(port.Peer), int(port.PeerPort)).Kind
			if int(cand.VC) < 0 || int(cand.VC) >= c.vcs[downKind] {
				c.fail("at switch %d, a packet for PE %d is offered VC %d of port %s, which has %d", s, dst, cand.VC, net.PortName(s, p), c.vcs[downKind])
				return
			}
			if c.sticky && st.escaped && !cand.Escape {
				c.fail("at switch %d, a packet on the escape channels (for PE %d) is offered %s vc%d, which is not one", s, dst, net.PortName(s, p), cand.VC)
				return
			}
			ch := c.chanOf(s, p, int(cand.VC))
			next := situation{s: port.Peer, in: int32(port.PeerPort), vc: int32(cand.VC), ch: int32(ch), last: st.last, escaped: st.escaped || cand.Escape}
			if c.cutThrough && !cand.Escape {
				next.last = -1 // the escape channel held is released whole
			}
			if cand.Escape {
				c.rep.Escape, offersEscape = true, true
				c.escapeCh[ch] = true
				switch {
				case c.cutThrough && st.ch >= 0:
					// Direct (and direct cross) dependencies: from the channel held,
					// kept below when it is an escape channel.
					c.escEdges.add(int(st.ch), ch)
				case !c.cutThrough && st.last >= 0:
					c.escEdges.add(int(st.last), ch)
				}
				next.last = int32(ch)
			}
			if st.ch >= 0 {
				c.edges.add(int(st.ch), ch)
			}
			if r := c.ringOfCh(ch); r >= 0 && !cand.Bubble && (st.ch < 0 || c.ringOfCh(int(st.ch)) != r) && c.unprotected == "" {
				from := "injection"
				if st.ch >= 0 {
					g, vc := int(st.ch)/c.maxVC, int(st.ch)%c.maxVC
					fs, fp := c.portOf(g)
					from = channelName(net, fs, fp, vc)
				}
				c.unprotected = fmt.Sprintf("a packet for PE %d enters the bubble ring of %s from %s without the bubble condition", dst, channelName(net, s, p, int(cand.VC)), from)
			}
			if !c.visit(next) {
				continue
			}
			c.stack = append(c.stack, next)
		}
		if !offersEscape && c.noEscape == "" {
			c.noEscape = fmt.Sprintf("at switch %d, a packet for PE %d is offered no escape channel", s, dst)
		}
	}
}

// edgeSet is a set of dependencies between channels, each channel's own out-list. The
// same dependency is met again and again, by every source and destination whose
// routes use it (hundreds of millions of times for adaptive routing on a 512-PE 5DT
// torus, where the distinct ones are some thousands, a few per channel): a scan of
// the channel's short list keeps one copy, where a list of them all took gigabytes.
type edgeSet struct {
	out [][]int32 // channel -> the channels it depends on, in the order first met
}

func newEdgeSet(channels int) edgeSet { return edgeSet{out: make([][]int32, channels)} }

// add adds the dependency of channel a on channel b.
func (e *edgeSet) add(a, b int) {
	if slices.Contains(e.out[a], int32(b)) {
		return
	}
	e.out[a] = append(e.out[a], int32(b))
}

// list is the dependencies as channel pairs a<<32 | b, sorted.
func (e *edgeSet) list() []uint64 {
	var edges []uint64
	for a, bs := range e.out {
		for _, b := range bs {
			edges = append(edges, uint64(a)<<32|uint64(b))
		}
	}
	slices.Sort(edges)
	return edges
}

// stampedSet is a set of keys per stamp (one exploration): a key is in it when its
// slot holds the current stamp, so a new exploration starts empty at no cost. Open
// addressing with linear probing; it doubles when half full. A Go map keyed by
// (channel, last escape channel) kept every pair ever seen and spent half the check
// on its lookups.
type stampedSet struct {
	keys   []uint64
	stamps []uint32
	stamp  uint32 // the stamp n counts
	n      int    // keys with the current stamp
}

// insert adds key under stamp and reports whether it was new.
func (t *stampedSet) insert(key uint64, stamp uint32) bool {
	if stamp != t.stamp {
		t.stamp, t.n = stamp, 0
	}
	if 2*(t.n+1) > len(t.keys) {
		t.grow()
	}
	mask := uint64(len(t.keys) - 1)
	for i := mix(key) & mask; ; i = (i + 1) & mask {
		switch {
		case t.stamps[i] != stamp:
			t.keys[i], t.stamps[i] = key, stamp
			t.n++
			return true
		case t.keys[i] == key:
			return false
		}
	}
}

// grow doubles the table (1,024 slots at first), keeping the current stamp's keys.
func (t *stampedSet) grow() {
	keys, stamps := t.keys, t.stamps
	size := max(1024, 2*len(keys))
	t.keys, t.stamps = make([]uint64, size), make([]uint32, size)
	// Stamp 0 is never current (explorations count from 1), so fresh slots are empty.
	mask := uint64(size - 1)
	for j, k := range keys {
		if stamps[j] != t.stamp {
			continue
		}
		i := mix(k) & mask
		for t.stamps[i] == t.stamp {
			i = (i + 1) & mask
		}
		t.keys[i], t.stamps[i] = k, t.stamp
	}
}

// mix spreads a key's bits over the table (the 64-bit finaliser of MurmurHash3).
func mix(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}

// visit marks a situation seen in the current exploration and reports whether it is
// new: by (channel, escaped) for sticky routings, by (channel, last escape channel)
// otherwise.
func (c *checker) visit(st situation) bool {
	if !c.sticky {
		return c.seenLast.insert(uint64(uint32(st.ch))<<32|uint64(uint32(st.last)), c.stamp)
	}
	key := 2 * st.ch
	if st.escaped {
		key++
	}
	if c.seen[key] == c.stamp {
		return false
	}
	c.seen[key] = c.stamp
	return true
}
