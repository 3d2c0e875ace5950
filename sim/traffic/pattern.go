package traffic

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/sim/topology"
)

// Pattern chooses the destination of each message. The engine calls Dest once per
// generated message; no pattern allocates there. A Pattern is immutable and safe for
// concurrent use (the rng is the caller's).
type Pattern interface {
	// Name is the canonical pattern spec: ParsePattern(p.Name(), net) rebuilds p.
	Name() string
	// Dest is the destination PE of a message from PE src (0 ≤ src < N), or −1 when
	// src sends nothing (a fixed point of a permutation).
	Dest(src int, rng *rand.Rand) int
}

// Grammar is the pattern spec grammar, for help texts and error messages.
const Grammar = `uniform          destination uniform among the other N-1 PEs
zipf[:S]         offset r = (dst-src) mod N with P(r) ~ r^-S, r in 1..N-1; 0 <= S <= 10, default 1
zipf:S/global    P(dst) ~ (dst+1)^-S over dst != src (PE 0 most popular)
bitrev           reverse the bits of the PE id (N a power of two)
shuffle          rotate the PE id's bits left by one (N a power of two)
butterfly        swap the highest and lowest bit of the PE id (N a power of two)
complement       N-1-src (bitwise complement when N is a power of two)
transpose        r*m+c -> c*m+r for N = m*m PEs
PERM/ORDER       any of the five above on ids that number the nodes with their coordinates
                 in ORDER, the first varying fastest: bitrev/yx reverses the bits of
                 y + K_y*x (default xy, xyz: id = x + K_x*(y + K_y*z), the PE numbering;
                 with more than 3 dimensions name them by index, e.g. 43210)
randperm[:S]     a random permutation without fixed points, drawn from seed S (default 1),
                 the same in every run and replication: a permutation for any N
tornado[:SHAPE]  every node coordinate + ceil(k/2)-1 mod k; the PE keeps its card/slot;
                 with SHAPE (e.g. 64x64) the coordinates of PE id = c0 + K0*(c1 + ...) instead
neighbor[:SHAPE] every node coordinate + 1 mod k (also: neighbour); SHAPE as for tornado
shift[:D[+S]]    node coordinate D (default 0) + S (default 1) mod k, the others kept: the
                 dimension-aligned shift, HyperX's adversarial pattern
hotspot:F[@HOT]  fraction F (0..1 or 0%..100%) of messages to the hot PEs, the rest uniform;
                 HOT = PE ids and ranges, e.g. 0,17,32-47 (default 0), or a share of the
                 PEs, e.g. 12.5%, placed by /PLACE: hotspot:0.2@5%/lowest
  /PLACE         spread (default: ids i*N/H, evenly spaced), lowest (the H lowest ids) or
                 random (H ids drawn from the run's seed)
pairs:S>D,...    fixed flows: PE S sends every message to PE D (S>D1|D2: to one of them,
                 uniformly); unlisted PEs send nothing
groupshift[:K][/same]  every PE of group i to a random PE of group i+K mod G (default
                 K=1: the dragonfly paper's ADV), /same: the PE of the same index;
                 networks that declare groups (dragonfly)
PATTERN+self     uniform or a permutation whose PEs also send to themselves (BookSim2's):
                 uniform among all N PEs, fixed points to themselves, e.g. uniform+self`

const acceptedPatterns = "accepted: uniform, zipf:S[/global], bitrev, shuffle, butterfly, complement, transpose (each [/ORDER], e.g. bitrev/yx), randperm[:SEED], tornado[:SHAPE], neighbor[:SHAPE], shift[:D[+S]], hotspot:F[@HOT[/spread|lowest|random]], pairs:S>D[|D2],..., groupshift[:K][/same]"

// ParsePattern reads a pattern spec (see Grammar) for the PEs of net. Errors say what
// is wrong and what is accepted, in one line.
func ParsePattern(spec string, net *topology.Network) (Pattern, error) {
	base, self, err := cutSelf(strings.TrimSpace(spec))
	var p Pattern
	if err == nil {
		p, err = parsePattern(base, net)
	}
	if err == nil && self {
		p, err = addSelf(p, net.Terminals())
	}
	if err != nil {
		return nil, fmt.Errorf("traffic pattern %q: %w", spec, err)
	}
	return p, nil
}

func parsePattern(spec string, net *topology.Network) (Pattern, error) {
	if net == nil {
		return nil, errors.New("no network: the pattern needs the network whose PEs it addresses")
	}
	l, err := newLayout(net)
	if err != nil {
		return nil, err
	}
	name, arg, hasArg := strings.Cut(spec, ":")
	name = strings.ToLower(strings.TrimSpace(name))
	arg = strings.TrimSpace(arg)
	switch name {
	case "zipf":
		if !hasArg {
			arg = "1"
		}
		return newZipf(arg, l)
	case "pairs":
		return newPairs(arg, l)
	case "randperm":
		return newRandPerm(arg, hasArg, l)
	case "shift":
		return newShift(arg, l)
	case "groupshift", "groupshift/same":
		if name == "groupshift/same" { // no shift given: groupshift/same
			arg, hasArg = "/same", true
		}
		return newGroupShift(arg, hasArg, net)
	case "hotspot":
		if !hasArg || arg == "" {
			return nil, errors.New("hotspot needs the fraction of traffic to the hot PEs, e.g. hotspot:0.1, hotspot:0.25@12.5%, hotspot:0.2@5%/lowest or hotspot:0.1@0,5")
		}
		return newHotspot(arg, l)
	case "":
		return nil, fmt.Errorf("empty pattern; %s", acceptedPatterns)
	}
	name, order, hasOrder := strings.Cut(name, "/")
	name, order = strings.TrimSpace(name), strings.TrimSpace(order)
	build, ok := fixedPattern(name)
	if !ok {
		return nil, fmt.Errorf("unknown pattern %q; %s", name, acceptedPatterns)
	}
	if hasOrder {
		if hasArg {
			return nil, fmt.Errorf("%s takes no parameter; drop %q", name, ":"+arg)
		}
		p, err := build(l)
		if err != nil {
			return nil, err
		}
		perm, ok := p.(*idPerm)
		if !ok {
			return nil, fmt.Errorf("%s is not an id permutation, so it takes no numbering order; drop %q (orders apply to bitrev, shuffle, butterfly, complement and transpose)", name, "/"+order)
		}
		return newRenumbered(perm, order, l)
	}
	if hasArg && (name == "tornado" || name == "neighbor" || name == "neighbour") {
		if l, err = l.view(arg); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err) // err quotes the shape; the caller names the spec
		}
		p, err := build(l)
		if cp, ok := p.(*coordPerm); ok {
			cp.name += ":" + formatView(l.radix)
		}
		return p, err
	}
	if hasArg {
		return nil, fmt.Errorf("%s takes no parameter; drop %q", name, ":"+arg)
	}
	return build(l)
}

// view lays the PE ids out on a grid of the given shape, K0xK1x..., one PE per
// point, PE id = c_0 + K0·(c_1 + K1·(…)): tornado and neighbor then move PEs by these
// coordinates on any network (a fat-tree compared with a 2D KNS of the same PEs).
func (l layout) view(shape string) (layout, error) {
	parts := strings.Split(strings.ToLower(shape), "x")
	radix := make([]int, len(parts))
	prod := 1
	for i, p := range parts {
		k, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || k < 2 {
			return l, fmt.Errorf("bad shape %q: write the PE grid's sides joined by x, each at least 2, e.g. 64x64", shape)
		}
		radix[i] = k
		if prod *= k; prod > l.n {
			break
		}
	}
	if prod != l.n {
		return l, fmt.Errorf("a %q grid holds %d PEs, the network has %d", shape, prod, l.n)
	}
	l.radix, l.perNode, l.noGrid = radix, 1, nil
	return l, nil
}

func formatView(radix []int) string {
	parts := make([]string, len(radix))
	for i, k := range radix {
		parts[i] = strconv.Itoa(k)
	}
	return strings.Join(parts, "x")
}

// fixedPattern is the builder of a pattern without parameters, by spec name.
func fixedPattern(name string) (func(layout) (Pattern, error), bool) {
	switch name {
	case "uniform":
		return newUniform, true
	case "bitrev":
		return newBitrev, true
	case "shuffle":
		return newShuffle, true
	case "butterfly":
		return newButterfly, true
	case "complement":
		return newComplement, true
	case "transpose":
		return newTranspose, true
	case "tornado":
		return newTornado, true
	case "neighbor", "neighbour":
		return newNeighbor, true
	}
	return nil, false
}

// Seeded is p with what it draws once per run (the hot set of hotspot:F@P%/random)
// drawn from the run's seed, so that a run is determined by its spec and seed; the
// engine calls it when it is built. A pattern that draws nothing comes back as it is,
// and a random hot set outside the engine is the draw of seed 1, the engine's default.
func Seeded(p Pattern, seed uint64) Pattern {
	if s, ok := p.(interface{ seeded(uint64) Pattern }); ok {
		return s.seeded(seed)
	}
	return p
}

// Silent is the number of PEs that send nothing under p (fixed points of a
// permutation); the network is offered load·(N − Silent) flits per cycle.
func Silent(p Pattern) int {
	if s, ok := p.(interface{ silent() int }); ok {
		return s.silent()
	}
	return 0
}

// layout is what patterns need from the network: the PE count and, for the patterns
// that move PEs by node coordinates, the PEs per node and the radices.
type layout struct {
	spec    string
	n       int   // PEs
	perNode int   // PEs per node: 2 in a twin torus, c in a torus or mesh
	radix   []int // nodes along each dimension; nil when the network has no usable grid
	noGrid  error // why radix is nil
}

// newLayout checks that net has PEs to address and, when it has coordinates, that it
// numbers its PEs as the package documents, since every coordinate permutation
// depends on it. Networks without coordinates (from a Builder or a file) get every
// pattern that needs only PE ids.
func newLayout(net *topology.Network) (layout, error) {
	l := layout{spec: net.String(), n: net.Terminals()}
	if l.n < 2 {
		return layout{}, fmt.Errorf("network %s has %d PE; traffic needs at least 2", l.spec, l.n)
	}
	if net.Dims() == 0 {
		// A torus of clusters (TCT, TCC) states its meta torus; others have no grid.
		if radix, per := net.PatternGrid(); radix != nil {
			l.radix, l.perNode = radix, per
			return l, nil
		}
		l.noGrid = fmt.Errorf("network %s has no node coordinates", l.spec)
		return l, nil
	}
	// Switches off the grid (a KNS network's subnets) may exist; the PEs must hang on
	// the grid's switches, the same number on each node, numbered slot + P·node.
	if l.n%net.Nodes() != 0 || l.n/net.Nodes()%net.SwitchesPerNode() != 0 {
		l.noGrid = fmt.Errorf("network %s has %d PEs on %d nodes; coordinate patterns need them spread evenly over the nodes", l.spec, l.n, net.Nodes())
		return l, nil
	}
	l.perNode = l.n / net.Nodes()
	tps := l.perNode / net.SwitchesPerNode()
	for t := range l.n {
		s := int(net.Attachment(t).Switch)
		node, slot := t/l.perNode, t%l.perNode
		if !net.OnGrid(s) {
			l.noGrid = fmt.Errorf("network %s attaches PE %d to switch %d, which has no coordinates", l.spec, t, s)
			return l, nil
		}
		if net.Node(s) != node || net.Card(s) != slot/tps {
			l.noGrid = fmt.Errorf("network %s attaches PE %d to node %d card %d, but coordinate patterns number PEs as slot + P·node (PE %d would be node %d card %d)", l.spec, t, net.Node(s), net.Card(s), t, node, slot/tps)
			return l, nil
		}
	}
	l.radix = net.Radices()
	return l, nil
}

// grid is the layout of a pattern that moves PEs by node coordinates, or why the
// network has none.
func (l layout) grid(pattern string) error {
	if l.radix == nil {
		return fmt.Errorf("%s moves PEs by node coordinates: %w; patterns by PE id work (uniform, bitrev, complement, hotspot, pairs, ...)", pattern, l.noGrid)
	}
	return nil
}
