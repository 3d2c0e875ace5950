package booksim

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/sim/engine"
	"github.com/twintorus/twintorus/sim/topology"
)

// Mapped is a BookSim2 configuration in our model: one open-loop point.
type Mapped struct {
	Topology string // a topology spec, e.g. torus:8x8
	Routing  string // a routing name (routing.Routings)
	Deadlock string // vc, bubble, escape or none
	Tie      string // the tie rule at distance k/2 (routing.ParseTie), "" for the routing's own
	Traffic  string // a traffic.Grammar pattern
	Sizes    string // message sizes in packets: always "1" (BookSim2 injects packets)
	// Load is the offered load in flits/cycle/PE: BookSim2's injection_rate in
	// packets/cycle/node times packet_size, or as it is with injection_rate_uses_flits.
	Load float64
	Seed uint64
	// Engine is engine.Defaults() with what the configuration sets: wormhole switching,
	// packet size, buffers, router delay, link latencies, allocator, warm-up and
	// measurement window; its Load and Seed are Load and Seed.
	Engine engine.Params
	// Notes say where our model differs from BookSim2's at these settings, one
	// sentence each; empty when we know of no difference beyond the router itself.
	Notes []string
}

// MapFile reads a configuration file and maps it (ReadFile, Map).
func MapFile(path string) (Mapped, error) {
	c, err := ReadFile(path)
	if err != nil {
		return Mapped{}, err
	}
	return Map(c)
}

// errKey is an error about key, at the line of its last assignment (none when it has
// its default).
func (c *Config) errKey(key, format string, args ...any) error {
	return &Error{File: c.File, Line: c.Line(key), Key: key, Err: fmt.Errorf(format, args...)}
}

// Map turns a configuration into our model (see the package documentation). Every
// key it cannot map is an error naming it, with what we would need.
func Map(c *Config) (Mapped, error) {
	m := Mapped{Sizes: "1", Engine: engine.Defaults()}
	top := c.Str("topology")
	if err := c.checkKeys(top); err != nil {
		return Mapped{}, err
	}
	if err := c.mapTopology(&m, top); err != nil {
		return Mapped{}, err
	}
	if err := c.mapRouting(&m, top); err != nil {
		return Mapped{}, err
	}
	if err := c.mapRouter(&m); err != nil {
		return Mapped{}, err
	}
	// BookSim2's routing functions return a range of VCs, ours name one VC, their
	// class: the engine reads it as BookSim2's range (engine.Params.ClassVCs). Our
	// adaptive routing names each VC it may take, so it keeps them as they are.
	m.Engine.ClassVCs = m.Routing != "adaptive"
	// dim_order_torus picks the dateline partition where a packet turns into a
	// dimension and keeps it along the ring.
	m.Engine.KeepRingClass = m.Engine.ClassVCs && m.Deadlock == "vc"
	// Its VC allocator: one iteration of iSLIP between input and output VCs.
	m.Engine.VCISLIP = m.Engine.ClassVCs && c.Str("vc_allocator") == "islip"
	if err := c.mapTraffic(&m, top); err != nil {
		return Mapped{}, err
	}
	if err := c.mapRun(&m); err != nil {
		return Mapped{}, err
	}
	if _, err := topology.Parse(m.Topology); err != nil {
		return Mapped{}, c.errKey("topology", "%s maps to %s, which we refuse: %w", top, m.Topology, err)
	}
	return m, nil
}

// checkKeys refuses every key given a value we do not model, in file order; the
// error names the first and counts the others.
func (c *Config) checkKeys(top string) error {
	var bad []string
	var first error
	for _, key := range c.order {
		def, _ := lookupKey(key)
		if def.role != defaultOnly || c.atDefault(def) {
			continue
		}
		if first == nil {
			first = c.errKey(key, "= %s: we model only BookSim2's default %s; we would need %s", c.text(key), defText(def), def.note)
		}
		bad = append(bad, key)
	}
	if first == nil {
		return nil
	}
	if len(bad) > 1 {
		return fmt.Errorf("%w (also refused: %s)", first, strings.Join(bad[1:], ", "))
	}
	return first
}

// text is a key's value as the file last wrote it.
func (c *Config) text(key string) string {
	best := Value{}
	for _, v := range c.values[key] {
		if v.Line >= best.Line {
			best = v
		}
	}
	return best.Text
}

// defText is a key's default as a configuration would write it.
func defText(def keyDef) string {
	switch {
	case def.kinds&KindInt != 0:
		return strconv.Itoa(def.defInt)
	case def.kinds&KindFloat != 0:
		return strconv.FormatFloat(def.defFloat, 'f', -1, 64)
	case def.defStr == "":
		return "(empty)"
	}
	return def.defStr
}

// atDefault reports whether a key has its default as BookSim2 reads it: a list of one
// value counts as that value.
func (c *Config) atDefault(def keyDef) bool {
	for kind, v := range c.values[def.name] {
		switch kind {
		case KindInt:
			if v.Int != def.defInt {
				return false
			}
		case KindFloat:
			if v.Float != def.defFloat {
				return false
			}
		case KindStr:
			if v.Text == def.defStr {
				continue
			}
			if def.defStr != "" || def.kinds == KindStr {
				return false
			}
			toks, ok := Tokenize(v.Text)
			if !ok || len(toks) != 1 {
				return false
			}
			if def.kinds&KindInt != 0 {
				if n, err := strconv.Atoi(toks[0]); err != nil || n != def.defInt {
					return false
				}
			} else if f, err := strconv.ParseFloat(toks[0], 64); err != nil || f != def.defFloat {
				return false
			}
		}
	}
	return true
}

// one is the single element of a key's list form, or "" when it has none. BookSim2
// gives list elements to traffic classes in turn; with one class a list must hold
// one value (BookSim2 would use the first and drop the rest).
func (c *Config) one(key string) (string, bool, error) {
	v, ok := c.values[key][KindStr]
	if !ok || v.Text == "" {
		return "", false, nil
	}
	toks, balanced := Tokenize(v.Text)
	switch {
	case !balanced:
		return "", false, c.errKey(key, "= %s: braces do not balance", v.Text)
	case len(toks) != 1:
		return "", false, c.errKey(key, "= %s: a list gives one value per traffic class; with one class give one value", v.Text)
	}
	return toks[0], true, nil
}

// intOf is an integer key as BookSim2 reads it: its list form when given, else the
// integer.
func (c *Config) intOf(key string) (int, error) {
	s, ok, err := c.one(key)
	if err != nil || !ok {
		return c.Int(key), err
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, c.errKey(key, "= %s: want an integer", c.text(key))
	}
	return n, nil
}

// floatOf is a real key as BookSim2 reads it: its list form when given, else the real.
func (c *Config) floatOf(key string) (float64, error) {
	s, ok, err := c.one(key)
	if err != nil || !ok {
		return c.Float(key), err
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, c.errKey(key, "= %s: want a number", c.text(key))
	}
	return f, nil
}

// Limits on the k-ary n-cube sizes we accept before the topology parser sees them.
const (
	maxK = 1 << 16
	maxN = 16
)

// mapTopology maps topology, k, n, c (and network_file, use_noc_latency's link
// latencies) onto a topology spec.
func (c *Config) mapTopology(m *Mapped, top string) error {
	k, n, conc := c.Int("k"), c.Int("n"), c.Int("c")
	if top != "flatfly" && c.Int("xr") != 1 {
		return c.errKey("xr", "= %d: BookSim2 reads xr here only as the node radix of tornado, neighbor and badperm_yarc traffic (k·xr per digit); we model only xr = 1", c.Int("xr"))
	}
	if top != "anynet" && c.Str("network_file") != "" {
		return c.errKey("network_file", "= %s: read only by topology = anynet", c.Str("network_file"))
	}
	cube := func() error {
		switch {
		case k < 2 || k > maxK:
			return c.errKey("k", "= %d: a %s needs k from 2 to %d routers per dimension", k, top, maxK)
		case n < 1 || n > maxN:
			return c.errKey("n", "= %d: a %s needs n from 1 to %d dimensions", n, top, maxN)
		}
		return nil
	}
	switch top {
	case "torus", "mesh":
		if err := cube(); err != nil {
			return err
		}
		if conc != 1 {
			return c.errKey("c", "= %d: BookSim2's %s (kncube.cpp) ignores c and attaches one node per router; give c = 1 (concentrated meshes are topology = cmesh)", conc, top)
		}
		dims := make([]string, n)
		for i := range dims {
			dims[i] = strconv.Itoa(k)
		}
		m.Topology = top + ":" + strings.Join(dims, "x")
		// BookSim2's kncube.cpp: with use_noc_latency (the default) a torus link takes 2
		// cycles ("torus channel is longer due to wrap around") and a mesh link 1; the
		// injection and ejection channels always 1.
		m.Engine.LinkLatency, m.Engine.TerminalLatency = 1, 1
		if top == "torus" && c.Int("use_noc_latency") == 1 {
			m.Engine.LinkLatency = 2
		}
	case "fattree":
		if err := cube(); err != nil {
			return err
		}
		// fattree.cpp: k^n nodes, n levels of k^(n-1) routers of 2k ports, every
		// channel 1 cycle: our k-ary n-tree.
		m.Topology = fmt.Sprintf("ktree:%d,%d", k, n)
		m.Engine.LinkLatency, m.Engine.TerminalLatency = 1, 1
	case "flatfly":
		if err := cube(); err != nil {
			return err
		}
		if conc < 1 {
			return c.errKey("c", "= %d: a flattened butterfly needs c >= 1 nodes per router", conc)
		}
		if c.Int("use_noc_latency") == 1 {
			return c.errKey("use_noc_latency", "= 1 (the default) on flatfly: BookSim2 gives every channel a latency from its on-chip length (x, y, xr, yr placement); we would need those per-link latencies; give use_noc_latency = 0 for 1-cycle channels")
		}
		m.Topology = fmt.Sprintf("flatfly:%d,%d", k, n)
		if conc != 1 {
			m.Topology += fmt.Sprintf("@%d", conc)
		}
		m.Engine.LinkLatency, m.Engine.TerminalLatency = 1, 1
	case "anynet":
		file := c.Str("network_file")
		if file == "" {
			return c.errKey("network_file", "topology = anynet needs network_file, BookSim2's anynet file of routers, nodes and links")
		}
		if !filepath.IsAbs(file) {
			// BookSim2 opens it from its working directory; we open it beside the
			// configuration, so that the pair works from anywhere.
			file = filepath.Join(filepath.Dir(c.File), file)
		}
		m.Topology = "anynet:" + file
		m.Engine.LinkLatency, m.Engine.TerminalLatency = 1, 1
		m.Notes = append(m.Notes, "anynet: network_file is read beside the configuration file; BookSim2 reads it from its working directory")
	case "cmesh":
		return c.errKey("topology", "= cmesh: BookSim2's concentrated mesh has express channels and its own routings; we would need its port layout (our mesh:KxK@C concentrates without them)")
	case "dragonflynew":
		// dragonfly.cpp: p = k PEs per router, a = 2p routers per group all joined, h = p
		// global ports per router, g = a·h + 1 groups, every channel 1 cycle; global port
		// o = r·p + i of group G leads to group o if o < G, else o + 1: our balanced
		// dragonfly with its consecutive arrangement (the mapping test compares them link
		// by link). With n > 1 its groups are p^n routers, which no paper we model builds.
		if n != 1 {
			return c.errKey("n", "= %d on dragonflynew: BookSim2 then makes groups of k^n routers; we map n = 1, the balanced dragonfly (a = 2k routers per group, k global ports per router)", n)
		}
		if k < 1 || k > 16 {
			return c.errKey("k", "= %d on dragonflynew: k is the PEs and global ports per router, from 1 to 16 (k = 16: 33,824 routers)", k)
		}
		if conc != 1 {
			return c.errKey("c", "= %d: BookSim2's dragonflynew ignores c and attaches k nodes per router; give c = 1", conc)
		}
		// Its channels are not 1 cycle: dragonfly.cpp defines DRAGON_LATENCY, which
		// gives every local channel (and its credits) 10 cycles and every global one
		// 100. Mapped onto 1-cycle links the two would disagree by a factor of ten in
		// latency and far more in throughput (8-flit VCs over a 200-cycle round trip).
		return c.errKey("topology", "= dragonflynew: BookSim2 builds it with 10-cycle local and 100-cycle global channels (DRAGON_LATENCY in dragonfly.cpp); we would need per-link latencies in our dragonfly (dragonfly:%d has the same routers and wiring)", k)
	case "fly", "qtree", "tree4":
		return c.errKey("topology", "= %s: we have no equivalent family; we would need BookSim2's %s network", top, top)
	default:
		return c.errKey("topology", "= %s: BookSim2 has no such topology (it refuses it too); accepted are torus, mesh, fattree, flatfly, dragonflynew and anynet", top)
	}
	return nil
}

// routeDef is a BookSim2 routing function (its name routing_function_topology in
// routefunc.cpp and the networks' registrations) and ours.
type routeDef struct {
	routing, deadlock string
	note              string // how ours differs; "" when only the router does
}

// meshVCs is how dimension order on a mesh takes its VCs in both.
const meshVCs = "dor: both let a packet take any free VC of a port (with vc_allocator = separable_input_first ours the lowest-numbered, BookSim2 by its allocator's pointers)"

// bookSimRoutings are BookSim2's routing functions by their full name, with ours or
// why not. A refusal has routing "" and says what we would need.
func bookSimRoutings() map[string]routeDef {
	return map[string]routeDef{
		"dim_order_mesh":  {"dor", "none", meshVCs},
		"dor_mesh":        {"dor", "none", meshVCs},
		"dim_order_torus": {"dor", "vc", "dor: both split a port's VCs into two dateline classes, let a packet take any free VC of its class (with vc_allocator = separable_input_first ours the lowest-numbered) and keep the class chosen where it turns into a dimension along that ring; BookSim2 labels the two classes the other way round"},
		"min_adapt_mesh":  {"adaptive", "vc", "adaptive: both escape by dimension order on VC 0 and route minimally on the others; BookSim2 prefers the adaptive VCs by priority, ours by its selection function (ref)"},
		"min_anynet":      {"min", "none", "min: both route on a shortest-path table, one port per destination; BookSim2 breaks ties between equal paths by its search order, ours takes the lowest port"},
		"ran_min_flatfly": {"fbdor", "none", "fbdor: both correct the lowest differing dimension first (BookSim2's ran_min, whatever its comment says, is not random: flatfly_outport) and let a packet take any free VC of a port (with vc_allocator = separable_input_first ours the lowest-numbered)"},

		"min_adapt_torus":       {note: "minimal adaptive routing with two dateline escape VCs (0, 1) and a single adaptive VC (VC 3; VC 2 unused); ours on tori escapes by dimension order and routes adaptively on every other VC"},
		"dim_order_ni_mesh":     {note: "dimension order with a VC chosen by the destination (no injection VC sharing)"},
		"dim_order_pni_mesh":    {note: "dimension order with VCs partitioned by the destination"},
		"dim_order_ni_torus":    {note: "dimension order with a VC chosen by the destination"},
		"dim_order_bal_torus":   {note: "dimension order with Cray's balanced two-dateline VC partition"},
		"romm_mesh":             {note: "ROMM (randomised minimal) routing"},
		"romm_ni_mesh":          {note: "ROMM (randomised minimal) routing"},
		"planar_adapt_mesh":     {note: "planar-adaptive routing"},
		"valiant_mesh":          {note: "Valiant's randomised routing"},
		"valiant_torus":         {note: "Valiant's randomised routing"},
		"valiant_ni_torus":      {note: "Valiant's randomised routing"},
		"chaos_mesh":            {note: "the chaos router's routing"},
		"chaos_torus":           {note: "the chaos router's routing"},
		"xy_yx_mesh":            {note: "XY-YX routing (a packet takes XY or YX at random)"},
		"adaptive_xy_yx_mesh":   {note: "adaptive XY-YX routing"},
		"nca_fattree":           {"nca", "none", "nca: both climb to the nearest common ancestor by uniformly random up ports and descend by the destination's digits; BookSim2 draws each up port from its generator when the head is routed, ours from the packet's own salt hashed with the stage (the same distribution, other draws)"},
		"anca_fattree":          {note: "adaptive nearest-common-ancestor routing (ours, destro, takes up ports by the destination's digits)"},
		"adaptive_xyyx_flatfly": {note: "adaptive XY-YX routing on the flattened butterfly"},
		"xyyx_flatfly":          {note: "XY-YX routing on the flattened butterfly"},
		"valiant_flatfly":       {note: "Valiant's randomised routing on the flattened butterfly"},
		"ugal_flatfly":          {note: "UGAL on the flattened butterfly"},
		"ugal_pni_flatfly":      {note: "UGAL on the flattened butterfly"},
		"ugal_xyyx_flatfly":     {note: "UGAL on the flattened butterfly"},
		"min_dragonflynew":      {"dfmin", "none", "dfmin: both route local, global, local, on VC 0 before the global hop and VC 1 after it (with num_vcs > 2 BookSim2 leaves the other VCs unused, ours shares them between the two classes)"},
		"ugal_dragonflynew":     {note: "BookSim2's UGAL, which draws an intermediate router (ours, dfugal-l, an intermediate group), weighs the queues 1 and 2 rather than by hop counts, and biases towards minimal by 30 flits"},
	}
}

// mapRouting maps routing_function for the topology.
func (c *Config) mapRouting(m *Mapped, top string) error {
	rf := c.Str("routing_function")
	if rf == "none" {
		return c.errKey("routing_function", "not given: BookSim2's default none names no routing function and BookSim2 refuses it; accepted here: %s", acceptedRoutings(top))
	}
	full := rf + "_" + top
	def, ok := bookSimRoutings()[full]
	if !ok {
		return c.errKey("routing_function", "= %s: BookSim2 has no routing function %s (it refuses it too); accepted here: %s", rf, full, acceptedRoutings(top))
	}
	if def.routing == "" {
		return c.errKey("routing_function", "= %s (BookSim2's %s): we would need %s; accepted here: %s", rf, full, def.note, acceptedRoutings(top))
	}
	vcs := c.Int("num_vcs")
	if def.deadlock == "vc" && vcs < 2 {
		return c.errKey("num_vcs", "= %d: BookSim2's %s needs at least 2 VCs (two dateline classes, or an escape VC and an adaptive one)", vcs, full)
	}
	m.Routing, m.Deadlock = def.routing, def.deadlock
	if def.note != "" {
		m.Notes = append(m.Notes, def.note)
	}
	if full == "dim_order_torus" && c.Int("k")%2 == 0 {
		// routefunc.cpp, dor_next_torus: at distance k/2 a packet turning into a ring
		// draws its direction with RandomInt(1); ours draws it from the packet's salt.
		m.Tie = "random"
	}
	return nil
}

// acceptedRoutings lists the routing functions we map on a topology.
func acceptedRoutings(top string) string {
	var names []string
	for full, def := range bookSimRoutings() {
		if rf, ok := strings.CutSuffix(full, "_"+top); ok && def.routing != "" {
			names = append(names, rf)
		}
	}
	if len(names) == 0 {
		return "none on " + top
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// mapRouter maps the router: buffers, pipeline delays, allocators.
func (c *Config) mapRouter(m *Mapped) error {
	e := &m.Engine
	// BookSim2's input-queued router passes flits on as credits allow, a packet
	// holding its VC: wormhole switching with VC flow control.
	e.Switching = engine.Wormhole
	vcs, flits := c.Int("num_vcs"), c.Int("vc_buf_size")
	if vcs < 1 || vcs > engine.MaxVCs {
		return c.errKey("num_vcs", "= %d: accepted are 1 to %d VCs", vcs, engine.MaxVCs)
	}
	if flits < 1 || flits > engine.MaxVCFlits {
		return c.errKey("vc_buf_size", "= %d: accepted are 1 to %d flits per VC", flits, engine.MaxVCFlits)
	}
	b := engine.Buffer{VCs: vcs, Flits: flits}
	e.Terminal, e.External, e.Internal = b, b, b
	// The pipeline, cycle by cycle (docs/booksim.md "BookSim2's router, cycle by
	// cycle"). Our engine moves a flit in the cycle BookSim2's switch allocation
	// grants it (the flit leaves its VC and its credit is sent). A BookSim2 channel of
	// latency L hands a flit or credit to the receiving router L+1 cycles after it was
	// sent (the router reads its inputs in the next cycle), and a flit is sent after
	// its switch traversal stage: so a flit reaches the next router crossbar + L + 1
	// cycles after its grant, the credit L + 1 cycles after it (our links one cycle
	// longer than BookSim2's channels, and CrossbarDelay). A head that arrives is
	// routed and allocated a VC routing + VC allocation - 1 cycles later (our
	// RoutingDelay) and crosses switch allocation cycles after that (SwitchAfterVC);
	// after a tail leaves its VC, the next head there is routed from the next cycle
	// on (FrontDelay = routing + VC allocation).
	delays := map[string]int{}
	for _, key := range []string{"routing_delay", "vc_alloc_delay", "sw_alloc_delay", "st_prepare_delay", "st_final_delay"} {
		d := c.Int(key)
		if d < 0 || d > 1000 {
			return c.errKey(key, "= %d: accepted are 0 to 1000 cycles", d)
		}
		delays[key] = d
	}
	rt, va, sa := delays["routing_delay"], delays["vc_alloc_delay"], delays["sw_alloc_delay"]
	if va < 1 || sa < 1 {
		return c.errKey("vc_alloc_delay", "= %d with sw_alloc_delay = %d: we model VC and switch allocation stages of at least one cycle each (BookSim2's non-speculative router)", va, sa)
	}
	e.RoutingDelay = max(rt+va-1, 0)
	e.SwitchAfterVC = sa
	e.CrossbarDelay = delays["st_prepare_delay"] + delays["st_final_delay"]
	e.FrontDelay = rt + va
	e.LinkLatency++
	e.TerminalLatency++
	// BookSim2's ejection channel has num_vcs VCs and the PE drains it every cycle.
	e.EjectVCs = vcs
	m.Notes = append(m.Notes, fmt.Sprintf("router: BookSim2's pipeline (routing %d, VC allocation %d, switch allocation %d, switch traversal %d+%d cycles) is, in ours, a head's VC allocation %d cycles after its arrival and its switch traversal %d after that, the next head of a VC allocated %d cycles after the tail before it left, and channels one cycle longer than BookSim2's (its routers read their inputs the cycle after a channel delivers)", rt, va, sa, delays["st_prepare_delay"], delays["st_final_delay"], e.RoutingDelay, e.SwitchAfterVC, e.FrontDelay))
	switch h := c.Int("hold_switch_for_packet"); h {
	case 0:
		m.Notes = append(m.Notes, "switch: both interleave the flits of packets on different VCs at an output port, ejection ports included (up to num_vcs packets)")
	case 1:
		m.Notes = append(m.Notes, "switch: BookSim2 (hold_switch_for_packet = 1) keeps an output port for one packet, head to tail; ours interleaves the flits of packets on different VCs (as hold_switch_for_packet = 0)")
	default:
		return c.errKey("hold_switch_for_packet", "= %d: accepted are 0 and 1", h)
	}
	iters := c.Int("alloc_iters")
	switch va := c.Str("vc_allocator"); va {
	case "islip", "separable_input_first":
	default:
		return c.errKey("vc_allocator", "= %s: we have no VC allocator of that kind; accepted are islip and separable_input_first (ours gives a free output VC to one head at a time)", va)
	}
	switch sa := c.Str("sw_allocator"); sa {
	case "islip":
		// Our iSLIP (Allocator) is modelled for virtual cut-through; under wormhole the
		// engine has BookSim2's one-iteration iSLIP between ports (SwitchISLIP).
		if iters != 1 {
			return c.errKey("alloc_iters", "= %d with sw_allocator = islip: we model BookSim2's wormhole iSLIP with one iteration (switch_islip); we would need several", iters)
		}
		e.Allocator = engine.Allocator{}
		e.SwitchISLIP = true
	case "separable_input_first":
		if iters != 1 {
			return c.errKey("alloc_iters", "= %d with sw_allocator = separable_input_first: a separable allocator makes one pass; we model alloc_iters = 1", iters)
		}
		// Input first, then output, both round-robin: our rr2.
		e.Allocator = engine.Allocator{}
	default:
		return c.errKey("sw_allocator", "= %s: accepted are islip (one iteration) and separable_input_first, both our rr2; we would need BookSim2's %s allocator", sa, sa)
	}
	return nil
}

// mapTraffic maps traffic, injection_process, injection_rate and packet_size.
func (c *Config) mapTraffic(m *Mapped, top string) error {
	size, err := c.intOf("packet_size")
	if err != nil {
		return err
	}
	if size < 1 || size > 4096 {
		return c.errKey("packet_size", "= %d: accepted are 1 to 4096 flits", size)
	}
	m.Engine.PacketFlits = size
	if p := c.Str("injection_process"); p != "bernoulli" {
		if strings.HasPrefix(p, "on_off") {
			return c.errKey("injection_process", "= %s: we would need an on/off (Markov-modulated) injection process; ours is Bernoulli", p)
		}
		return c.errKey("injection_process", "= %s: BookSim2 has bernoulli and on_off; we model bernoulli", p)
	}
	rate, err := c.floatOf("injection_rate")
	if err != nil {
		return err
	}
	load := rate * float64(size)
	if c.Int("injection_rate_uses_flits") != 0 {
		load = rate
		rate /= float64(size)
	}
	// injection.cpp refuses a packet rate outside [0, 1].
	if !(rate >= 0 && rate <= 1) {
		return c.errKey("injection_rate", "= %s is %g packets/cycle/node: BookSim2's injection processes take 0 to 1", c.text("injection_rate"), rate)
	}
	m.Load = load
	m.Engine.Load = load

	pat := c.Str("traffic")
	toks, ok := Tokenize(pat)
	if !ok || len(toks) != 1 {
		return c.errKey("traffic", "= %s: a list gives one pattern per traffic class; with one class give one pattern", pat)
	}
	name, params, _ := strings.Cut(toks[0], "(")
	params = strings.TrimSuffix(params, ")")
	switch name {
	case "uniform", "bitcomp", "transpose", "bitrev", "shuffle", "tornado", "neighbor":
		if params != "" {
			return c.errKey("traffic", "= %s: we map %s without parameters (it takes k, n and xr from the network)", pat, name)
		}
	}
	if top == "flatfly" && name != "uniform" {
		return c.errKey("traffic", "= %s on flatfly: BookSim2 renumbers the flattened butterfly's nodes by their placement (flatfly_transformation); we would need that numbering for any pattern but uniform", pat)
	}
	switch name {
	case "uniform":
		// traffic.cpp: RandomInt(nodes - 1) draws the source itself too: +self.
		m.Traffic = "uniform+self"
	case "bitcomp":
		m.Traffic = "complement+self"
	case "transpose", "bitrev", "shuffle":
		// A node the permutation maps to itself sends to itself in BookSim2: +self.
		m.Traffic = name + "+self"
	case "tornado", "neighbor":
		if top != "torus" && top != "mesh" {
			return c.errKey("traffic", "= %s on %s: BookSim2 moves the digits of node ids in base k; we map it on torus and mesh, where they are the coordinates", name, top)
		}
		m.Traffic = name + "+self"
	case "hotspot":
		hot, err := c.hotspot(pat, params)
		if err != nil {
			return err
		}
		m.Traffic = "hotspot:1@" + hot
		m.Notes = append(m.Notes, "hotspot: BookSim2 sends every packet to a hot node, a hot node to itself too; ours sends a hot node's packets to another hot node, or uniformly when it is the only one")
	case "randperm":
		return c.errKey("traffic", "= %s: we would need BookSim2's random permutation, drawn by its own generator from perm_seed", pat)
	case "background", "diagonal", "asymmetric", "taper64", "bad_dragon", "badperm_yarc":
		return c.errKey("traffic", "= %s: we have no equivalent pattern; we would need BookSim2's %s", pat, name)
	default:
		return c.errKey("traffic", "= %s: BookSim2 has no such pattern (it refuses it too); accepted are uniform, bitcomp, transpose, bitrev, shuffle, tornado, neighbor and hotspot({NODES})", pat)
	}
	return nil
}

// hotspot maps hotspot({h0,h1,...}[,{r0,r1,...}]) with equal rates.
func (c *Config) hotspot(pat, params string) (string, error) {
	args, ok := Tokenize("{" + params + "}")
	if params == "" || !ok || len(args) == 0 {
		return "", c.errKey("traffic", "= %s: BookSim2 draws an unnamed hot spot from its own generator; name the hot nodes, e.g. hotspot({0,63})", pat)
	}
	nodes, ok := Tokenize(args[0])
	if !ok || len(nodes) == 0 || len(args) > 2 {
		return "", c.errKey("traffic", "= %s: write hotspot({NODES}) or hotspot({NODES},{RATES})", pat)
	}
	var ids []string
	for _, s := range nodes {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return "", c.errKey("traffic", "= %s: hot node %q: want a node id >= 0 (BookSim2's -1, a random node, is drawn by its own generator)", pat, s)
		}
		ids = append(ids, strconv.Itoa(n))
	}
	if len(args) == 2 {
		rates, ok := Tokenize(args[1])
		if !ok || len(rates) == 0 {
			return "", c.errKey("traffic", "= %s: bad rates", pat)
		}
		for _, r := range rates {
			if r != rates[0] {
				return "", c.errKey("traffic", "= %s: unequal hot-spot rates; we would need weighted hot spots (ours share the traffic equally)", pat)
			}
		}
	}
	return strings.Join(ids, ","), nil
}

// mapRun maps the warm-up, the measurement window and the seed.
//
// BookSim2 (sim_type = latency, trafficmanager.cpp _SingleSim) warms up for
// warmup_periods periods of sample_period cycles, then measures period after period
// until three in a row change latency and accepted traffic by less than
// stopping_thres, or max_samples periods in all have run. A stationary run converges
// in its first three measured periods; that is our window: 3 × sample_period cycles
// (fewer when max_samples leaves fewer), checked by our own stationarity test.
func (c *Config) mapRun(m *Mapped) error {
	wp, sp, ms := c.Int("warmup_periods"), c.Int("sample_period"), c.Int("max_samples")
	switch {
	case wp == 0:
		return c.errKey("warmup_periods", "= 0: BookSim2 then warms up until latency and throughput settle (warmup_thres); we would need that test; give a number of periods")
	case wp < 0:
		return c.errKey("warmup_periods", "= %d: accepted are 1 or more periods", wp)
	case sp < 1:
		return c.errKey("sample_period", "= %d: accepted are 1 or more cycles", sp)
	case ms <= wp:
		return c.errKey("max_samples", "= %d with warmup_periods = %d: BookSim2 would measure no period; accepted is max_samples > warmup_periods", ms, wp)
	}
	measured := min(3, ms-wp)
	m.Engine.Warmup = int64(wp) * int64(sp)
	m.Engine.Measure = int64(measured) * int64(sp)
	if c.Given("seed") {
		if v, ok := c.values["seed"][KindStr]; ok && v.Text != "" {
			if v.Text == "time" {
				return c.errKey("seed", "= time: a seed from the clock makes the run unrepeatable; give a number")
			}
			return c.errKey("seed", "= %s: BookSim2 reads a named seed only as time, and ignores any other; give a number", v.Text)
		}
	}
	seed := c.Int("seed")
	if seed < 0 {
		return c.errKey("seed", "= %d: accepted are seeds >= 0", seed)
	}
	m.Seed = uint64(seed)
	m.Engine.Seed = m.Seed
	m.Notes = append(m.Notes, "seed: ours draws from its own generator, so the same seed gives other draws than BookSim2's")
	return nil
}
