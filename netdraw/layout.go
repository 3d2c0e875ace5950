package netdraw

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/plots"
	"github.com/twintorus/twintorus/sim/topology"
)

// Layout is where a network's switches and channels go in the plane. Positions are
// in units of the distance between neighbouring switches.
type Layout struct {
	Net *topology.Network
	// Kind says how the network was laid out: "grid" (tori, meshes, twin tori and
	// every network with coordinates: a plane per panel), "levels" (trees and KNS
	// hybrids, by stage), "groups" (networks that declare groups of switches, the
	// dragonfly: a circle of groups) or "general" (a force-directed layout of the graph).
	Kind string
	// Pos is each switch's position.
	Pos []plots.Pos
	// Paths is the path of the channel that leaves each port, by global port id
	// (topology.Network.PortID); nil for ports that send to no switch (terminal
	// ports, a mesh's open boundary).
	Paths [][]plots.Pos
	// Notes name the panels or levels.
	Notes []plots.NetworkNote
	// Radius is the switches' dots' radius.
	Radius float64
}

// Channels is the number of channels the layout draws: one per port that sends to a
// switch.
func (l *Layout) Channels() int {
	n := 0
	for _, p := range l.Paths {
		if p != nil {
			n++
		}
	}
	return n
}

// Lay lays a network out by what it is: networks with coordinates (tori, meshes, twin
// tori, twisted tori, Tofu, flattened butterflies) on their grid, a plane per panel;
// k-ary n-trees (with T-switches) and KNS hybrids by level; networks with groups of
// switches (dragonflies) as a circle of groups; any other network (files, anynet,
// TCT, toroids, Slim Fly) by a force-directed layout of its graph.
func Lay(net *topology.Network) (*Layout, error) {
	if net == nil {
		return nil, fmt.Errorf("netdraw: no network")
	}
	spec := net.Spec()
	switch {
	case spec.Family == topology.FamilyKNS:
		return layKNS(net)
	case spec.Family == topology.FamilyKTree || spec.Family == topology.FamilyFatTree:
		return layKTree(net)
	case net.Dims() > 0 && allOnGrid(net):
		return layGrid(net), nil
	case net.Groups() > 0:
		return layGroups(net), nil
	default:
		return layGeneral(net)
	}
}

func allOnGrid(net *topology.Network) bool {
	for s := 0; s < net.Switches(); s++ {
		if !net.OnGrid(s) {
			return false
		}
	}
	return true
}

// newLayout allocates a layout's arrays.
func newLayout(net *topology.Network, kind string) *Layout {
	return &Layout{Net: net, Kind: kind, Pos: make([]plots.Pos, net.Switches()),
		Paths: make([][]plots.Pos, net.TotalPorts()), Radius: 0.12}
}

// channels visits every port that sends to a switch.
func channels(net *topology.Network, visit func(s, p int, pt topology.Port)) {
	for s := 0; s < net.Switches(); s++ {
		for p := 0; p < net.Ports(s); p++ {
			if pt := net.Port(s, p); pt.Kind != topology.Terminal && pt.Connected() {
				visit(s, p, pt)
			}
		}
	}
}

// straightPaths draws every channel that has no path yet as a line between its
// switches; parallel channels between the same two switches (a T-switch's joining
// links, a ring of two) bow apart so that each shows.
func (l *Layout) straightPaths() {
	net := l.Net
	count := map[[2]int32]int{}
	channels(net, func(s, p int, pt topology.Port) {
		if l.Paths[net.PortID(s, p)] == nil {
			count[[2]int32{int32(s), pt.Peer}]++
		}
	})
	seen := map[[2]int32]int{}
	channels(net, func(s, p int, pt topology.Port) {
		g := net.PortID(s, p)
		if l.Paths[g] != nil {
			return
		}
		k := [2]int32{int32(s), pt.Peer}
		m, j := count[k], seen[k]
		seen[k]++
		a, b := l.Pos[s], l.Pos[pt.Peer]
		if m == 1 {
			l.Paths[g] = []plots.Pos{a, b}
			return
		}
		l.Paths[g] = arc(a, b, 0.5*(float64(j)-float64(m-1)/2)/float64(m))
	})
}

// arc is a path from a to b that bows by bulge times their distance to the right of
// the direction a → b (a quadratic Bézier curve, 9 points).
func arc(a, b plots.Pos, bulge float64) []plots.Pos {
	dx, dy := b.X-a.X, b.Y-a.Y
	cx, cy := (a.X+b.X)/2+dy*bulge, (a.Y+b.Y)/2-dx*bulge
	pts := make([]plots.Pos, 9)
	for i := range pts {
		t := float64(i) / 8
		u := 1 - t
		pts[i] = plots.Pos{X: u*u*a.X + 2*u*t*cx + t*t*b.X, Y: u*u*a.Y + 2*u*t*cy + t*t*b.Y}
	}
	return pts
}

// stub is a short path from a in direction angle (radians), length long.
func stub(a plots.Pos, angle, length float64) []plots.Pos {
	return []plots.Pos{a, {X: a.X + length*math.Cos(angle), Y: a.Y + length*math.Sin(angle)}}
}

// Grid layout constants, in units of the distance between neighbouring nodes.
const (
	panelGap   = 1.6  // between panels: room for the stubs and the panel's name
	wrapStub   = 0.36 // a wraparound link's stub, leaving the edge
	dimStub    = 0.3  // a link along a dimension past the panel's plane
	cardOffset = 0.17 // a twin torus' cards, either side of their node's place
)

// layGrid lays out a network whose switches all have coordinates: dimensions 0 and
// 1 span a panel, every combination of the other coordinates is a panel of its own
// (small multiples), panels in rows. A link between neighbours of a panel is a line;
// a wraparound link (or a twisted one) is a stub leaving the panel's edge outward, a
// link along a dimension past the plane a short stub at that dimension's angle, and a
// link joining a whole line (a flattened butterfly's) an arc over the line. The two
// switches of a twin torus' node sit either side of the node's place, their internal
// link between them.
func layGrid(net *topology.Network) *Layout {
	l := newLayout(net, "grid")
	radix := net.Radices()
	k0, k1 := radix[0], 1
	if len(radix) > 1 {
		k1 = radix[1]
	}
	panels := 1
	for _, k := range radix[min(2, len(radix)):] {
		panels *= k
	}
	w, h := float64(k0-1)+panelGap, float64(k1-1)+panelGap
	cols := 1
	if panels > 1 {
		// As near a 4:3 picture as whole panels allow.
		cols = max(1, min(panels, int(math.Round(math.Sqrt(float64(panels)*4/3*h/w)))))
	}
	twin := net.IsTwin()
	l.Radius = 0.09
	if twin {
		l.Radius = 0.08
	} else if net.SwitchesPerNode() > 1 {
		l.Radius = 0.06
	}
	panelOf := func(node int) (px, py int) {
		p, mul := 0, 1
		for d := 2; d < len(radix); d++ {
			p += net.Digit(node, d) * mul
			mul *= radix[d]
		}
		return p % cols, p / cols
	}
	per := net.SwitchesPerNode()
	for s := 0; s < net.Switches(); s++ {
		node := net.Node(s)
		px, py := panelOf(node)
		x := float64(net.Digit(node, 0)) + float64(px)*w
		y := -float64(py) * h
		if len(radix) > 1 {
			y += float64(net.Digit(node, 1))
		}
		if per > 1 {
			// Cards on a diagonal through the node's place.
			c := float64(net.Card(s)) - float64(per-1)/2
			x += 2 * cardOffset * c / float64(per-1)
			y -= 2 * cardOffset * c / float64(per-1)
		}
		l.Pos[s] = plots.Pos{X: x, Y: y}
	}
	if panels > 1 {
		for p := 0; p < panels; p++ {
			coords, rest := make([]string, 0, len(radix)-2), p
			for d := 2; d < len(radix); d++ {
				coords = append(coords, strconv.Itoa(rest%radix[d]))
				rest /= radix[d]
			}
			name := "z = " + coords[0]
			if len(coords) > 1 {
				name = "(" + strings.Join(coords, ",") + ")"
			}
			px, py := p%cols, p/cols
			l.Notes = append(l.Notes, plots.NetworkNote{X: float64(px)*w + float64(k0-1)/2, Y: -float64(py)*h + float64(k1-1) + 0.62, Text: name})
		}
	}
	fan := map[[2]int32]int{} // stubs already drawn from a switch along a dimension and direction
	channels(net, func(s, p int, pt topology.Port) {
		g := net.PortID(s, p)
		t := int(pt.Peer)
		if pt.Kind == topology.Internal || net.Node(s) == net.Node(t) {
			return // a straight line between the cards
		}
		a, b := net.Node(s), net.Node(t)
		d, delta, dims := -1, 0, 0
		for i := range radix {
			if di := net.Digit(b, i) - net.Digit(a, i); di != 0 {
				d, delta, dims = i, di, dims+1
			}
		}
		dir := int(pt.Dir)
		if pt.Dim >= 0 {
			d = int(pt.Dim)
		} else if dir == 0 {
			dir = 1
			if delta < 0 {
				dir = -1
			}
		}
		switch {
		case dims == 1 && d < 2 && delta == dir:
			return // neighbours in the panel's plane: a straight line
		case dims == 1 && d < 2 && pt.Dim < 0:
			// A link across a whole line (flattened butterfly): an arc over it,
			// higher the farther it goes.
			l.Paths[g] = arc(l.Pos[s], l.Pos[t], 0.12+0.04*math.Abs(float64(delta)))
		case d < 2:
			// A wraparound (or twisted) link: a stub leaving the edge outward.
			angle := 0.0
			if d == 1 {
				angle = math.Pi / 2
			}
			if dir < 0 {
				angle += math.Pi
			}
			l.Paths[g] = stub(l.Pos[s], angle, wrapStub)
		default:
			// Past the plane: dimension 2 up and right (+) or down and left (−),
			// dimension 3 up and left, the next ones between; several links along
			// one dimension (a flattened butterfly's) fan out.
			angle := math.Pi/4 + float64(d-2)*math.Pi/2
			if d >= 4 {
				angle = math.Pi/8 + float64(d-4)*math.Pi/2
			}
			if dir < 0 {
				angle += math.Pi
			}
			key := [2]int32{int32(s), int32(2*d + (dir+1)/2)}
			angle += 0.22 * float64(fan[key])
			fan[key]++
			l.Paths[g] = stub(l.Pos[s], angle, dimStub)
		}
	})
	l.straightPaths()
	return l
}

// layKTree lays a k-ary n-tree out by stage, stage 0 (the PEs' switches) at the
// bottom, T-switches in order of position, a T-switch's two chips side by side.
func layKTree(net *topology.Network) (*Layout, error) {
	kt, err := net.Spec().KTree()
	if err != nil {
		return nil, fmt.Errorf("netdraw: %w", err)
	}
	l := newLayout(net, "levels")
	slot := 1.0
	if kt.Chips > 1 {
		slot = 1.6
	}
	const levelGap = 2.5
	for sw := 0; sw < net.Switches(); sw++ {
		s, o, chip := kt.Locate(sw)
		x := float64(o) * slot
		if kt.Chips > 1 {
			x += (float64(chip) - 0.5) * 0.7
		}
		l.Pos[sw] = plots.Pos{X: x, Y: float64(s) * levelGap}
	}
	for s := 0; s < kt.N; s++ {
		l.Notes = append(l.Notes, plots.NetworkNote{X: -slot, Y: float64(s) * levelGap, Text: "stage " + strconv.Itoa(s), Right: true})
	}
	l.straightPaths()
	return l, nil
}

// layKNS lays a KNS hybrid out by level: its routers in a row, in order (so those of
// a dimension-0 line are together), the subnets of even dimensions above them and
// of odd dimensions below, stage by stage away from the routers; a subnet switch sits
// over the mean place of the switches it links to on the level nearer the routers.
func layKNS(net *topology.Network) (*Layout, error) {
	kl, err := net.Spec().KNS()
	if err != nil {
		return nil, fmt.Errorf("netdraw: %w", err)
	}
	l := newLayout(net, "levels")
	const levelGap = 4.0
	for r := 0; r < kl.Routers; r++ {
		l.Pos[r] = plots.Pos{X: float64(r), Y: 0}
	}
	l.Notes = append(l.Notes, plots.NetworkNote{X: -2, Y: 0, Text: "routers", Right: true})
	level := func(d, e int) float64 {
		lv := float64((d/2)*kl.SH + e + 1)
		if d%2 == 1 {
			lv = -lv
		}
		return lv * levelGap
	}
	for d := 0; d < kl.NH; d++ {
		for e := 0; e < kl.SH; e++ {
			var row []int
			bary := map[int]float64{}
			for p := 0; p < kl.Lines; p++ {
				for c := 0; c < kl.PerStage; c++ {
					sw := kl.SubnetSwitch(d, p, e, c)
					row = append(row, sw)
					bary[sw] = nearerMean(net, l, sw, d, e, kl)
				}
			}
			// Spread evenly under the routers' row, in the order of the places
			// they link to: a dimension-0 subnet over its own line's routers, the
			// others across the row.
			sort.SliceStable(row, func(i, j int) bool { return bary[row[i]] < bary[row[j]] })
			step := float64(kl.Routers) / float64(len(row))
			for i, sw := range row {
				l.Pos[sw] = plots.Pos{X: (float64(i)+0.5)*step - 0.5, Y: level(d, e)}
			}
			name := "dim " + strconv.Itoa(d)
			if kl.SH > 1 {
				name += ", stage " + strconv.Itoa(e)
			}
			l.Notes = append(l.Notes, plots.NetworkNote{X: -2, Y: level(d, e), Text: name, Right: true})
		}
	}
	l.straightPaths()
	return l, nil
}

// nearerMean is the mean x of the switches sw links to on the level nearer the
// routers (stage e−1 of its subnet, or the routers for stage 0), laid out already.
func nearerMean(net *topology.Network, l *Layout, sw, d, e int, kl *topology.KNS) float64 {
	sum, n := 0.0, 0
	for p := 0; p < net.Ports(sw); p++ {
		for _, t := range []int32{net.Port(sw, p).Peer, net.Port(sw, p).From} {
			if t < 0 {
				continue
			}
			near := int(t) < kl.Routers && e == 0
			if int(t) >= kl.Routers {
				td, _, te, _ := kl.LocateSubnet(int(t))
				near = td == d && te == e-1
			}
			if near {
				sum += l.Pos[t].X
				n++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}
