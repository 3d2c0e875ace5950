package topology

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unsafe"
)

// FamilyDragonfly is the dragonfly (Kim, Dally, Scott and Abts, ISCA 2008 [DF]): g
// groups of a routers, the routers of a group joined all to all by local links, each
// router with p PEs and h global links to other groups.
const FamilyDragonfly Family = "dragonfly"

// The global-link arrangements of the dragonfly family (Spec.Config).
const (
	// ArrConsecutive is the default, the arrangement read as the dragonfly paper's:
	// the a·h global ports of a group, router by router (port o = r·h + k for port k of
	// router r), lead to the other groups in increasing order of their numbers,
	// skipping the group itself, and around again when there are fewer than a·h other
	// groups. BookSim2's dragonfly, from the paper's authors' group, wires its groups
	// so: in the paper's 72-PE example (g = 9, a = 4, h = 2) router 0 of group 0 links
	// to groups 1 and 2, router 1 to groups 3 and 4, and so on.
	ArrConsecutive = "consecutive"
	// ArrRelative numbers the other groups from the group itself instead: port o of
	// group G leads to group G + 1 + (o mod (g−1)) (mod g), so every group sees the
	// same pattern of offsets (a circulant arrangement). Port o's link arrives at port
	// o' = o − j + (g − 2 − j) of its peer group, j = o mod (g−1).
	ArrRelative = "relative"
)

// Dragonfly is the layout of a dragonfly network. Switch (router) ids are
// group·A + r. A router's ports: its A−1 local ports, to the other routers of its
// group in increasing order of r, then its H global ports, then its P terminal ports
// (PE id = slot + P·switch). Global port k of router r is its group's global port
// o = r·H + k; M = A·H/(G−1) global links join every pair of groups.
type Dragonfly struct {
	A, P, H, G int
	Arr        string // ArrConsecutive or ArrRelative
}

// M is the number of global links between every pair of groups.
func (l Dragonfly) M() int { return l.A * l.H / (l.G - 1) }

// Switch is the id of router r of group grp.
func (l Dragonfly) Switch(grp, r int) int { return grp*l.A + r }

// LocalPort is the port of router r towards router to (to != r) of its group.
func (l Dragonfly) LocalPort(r, to int) int {
	if to > r {
		return to - 1
	}
	return to
}

// GlobalPort is the port of global link o of a group on the router that holds it
// (router o / H).
func (l Dragonfly) GlobalPort(o int) int { return l.A - 1 + o%l.H }

// Target is the group that global link o of group grp leads to.
func (l Dragonfly) Target(grp, o int) int {
	j := o % (l.G - 1)
	if l.Arr == ArrRelative {
		return (grp + 1 + j) % l.G
	}
	if j >= grp {
		j++
	}
	return j
}

// Link is the global link (o of group grp) that is the k-th (0 ≤ k < M) of those
// joining group grp to group to (to != grp): the inverse of Target.
func (l Dragonfly) Link(grp, to, k int) int {
	var j int
	if l.Arr == ArrRelative {
		j = (to - grp - 1 + 2*l.G) % l.G
	} else {
		j = to
		if to > grp {
			j--
		}
	}
	return k*(l.G-1) + j
}

// Peer is the global link of group Target(grp, o) at the other end of link o.
func (l Dragonfly) Peer(grp, o int) int {
	return l.Link(l.Target(grp, o), grp, o/(l.G-1))
}

// Dragonfly is the layout of a dragonfly spec.
func (s Spec) Dragonfly() (Dragonfly, error) {
	if s.Family != FamilyDragonfly || len(s.Radix) != 4 {
		return Dragonfly{}, fmt.Errorf("%s is not a dragonfly", s)
	}
	arr := s.Config
	if arr == "" {
		arr = ArrConsecutive
	}
	return Dragonfly{A: s.Radix[0], P: s.Radix[1], H: s.Radix[2], G: s.Radix[3], Arr: arr}, nil
}

func dragonflyFamily() FamilyDef {
	return FamilyDef{
		Name:    FamilyDragonfly,
		Summary: "dragonfly (Kim et al. 2008): G groups of A routers joined all to all, P PEs and H global links per router",
		Syntax:  "dragonfly:A,P,H[,G][/ARR]",
		Help: []string{
			"G groups (default and most A*H+1; G-1 must divide A*H: as many links join every two groups)",
			"dragonfly:H is the balanced one, A=2H, P=H, G=A*H+1",
			"ARR: global links consecutive (the paper's, default) or relative",
		},
		Examples: []string{"dragonfly:2", "dragonfly:4,2,2,5/relative", "dragonfly:4"},
		Parse:    parseDragonfly,
		Format:   formatDragonfly,
		Size:     dragonflySize,
		Build:    buildDragonfly,
		Routing:  "dfmin",
		// configs ranks the global-link arrangements of the spec's size.
		Variants: func(s Spec) ([]Spec, error) {
			var out []Spec
			for _, arr := range []string{ArrConsecutive, ArrRelative} {
				out = append(out, Spec{Family: FamilyDragonfly, Radix: append([]int(nil), s.Radix...), Config: arr})
			}
			return out, nil
		},
		// The minimal routes' channel loads, not the shortest paths' (two global hops
		// are sometimes shorter than local-global-local).
		LoadRouting: "dfmin",
	}
}

// dragonflyAccepted is what the family's spec strings may say, for error messages.
const dragonflyAccepted = "accepted: dragonfly:H (balanced), dragonfly:A,P,H or dragonfly:A,P,H,G, then optionally /consecutive or /relative"

func parseDragonfly(body string) (Spec, error) {
	params, arr, hasArr := strings.Cut(body, "/")
	parts := strings.Split(params, ",")
	nums := make([]int, len(parts))
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return Spec{}, fmt.Errorf("dragonfly: bad number %q in %q; %s", strings.TrimSpace(p), params, dragonflyAccepted)
		}
		nums[i] = v
	}
	var a, p, h, g int
	switch len(nums) {
	case 1:
		h = nums[0]
		a, p = 2*h, h
	case 3, 4:
		a, p, h = nums[0], nums[1], nums[2]
	default:
		return Spec{}, fmt.Errorf("dragonfly: %d numbers in %q; %s", len(nums), params, dragonflyAccepted)
	}
	switch {
	case a < 1 || a > MaxPortsPerSwitch:
		return Spec{}, fmt.Errorf("dragonfly: %d routers per group: accepted are 1 to %d", a, MaxPortsPerSwitch)
	case p < 1 || p > MaxPEsPerSwitch:
		return Spec{}, fmt.Errorf("dragonfly: %d PEs per router: accepted are 1 to %d", p, MaxPEsPerSwitch)
	case h < 1 || h > MaxPortsPerSwitch:
		return Spec{}, fmt.Errorf("dragonfly: %d global links per router: accepted are 1 to %d", h, MaxPortsPerSwitch)
	case int64(a)-1+int64(h)+int64(p) > MaxPortsPerSwitch:
		return Spec{}, fmt.Errorf("dragonfly: routers of %d ports (a-1+h+p): accepted are at most %d", int64(a)-1+int64(h)+int64(p), MaxPortsPerSwitch)
	}
	ah := int64(a) * int64(h)
	g64 := ah + 1
	if len(nums) == 4 {
		g64 = int64(nums[3])
		if g64 < 2 || g64 > ah+1 {
			return Spec{}, fmt.Errorf("dragonfly: %d groups: accepted are 2 to a*h+1 = %d", g64, ah+1)
		}
		if ah%(g64-1) != 0 {
			return Spec{}, fmt.Errorf("dragonfly: %d groups: g-1 must divide a*h = %d, so that as many global links join every two groups; accepted are g = d+1 for the divisors d of %d", g64, ah, ah)
		}
	}
	if int64(a)*g64 > MaxSwitches {
		return Spec{}, fmt.Errorf("dragonfly: %d routers: accepted networks have at most %d switches", int64(a)*g64, MaxSwitches)
	}
	if ports := int64(a) * g64 * (int64(a) - 1 + int64(h) + int64(p)); ports > math.MaxInt32 {
		return Spec{}, fmt.Errorf("dragonfly: %d ports in all: accepted networks have at most %d (port ids are 32-bit)", ports, math.MaxInt32)
	}
	g = int(g64)
	cfg := ""
	if hasArr {
		switch strings.ToLower(strings.TrimSpace(arr)) {
		case ArrConsecutive, "":
		case ArrRelative:
			cfg = ArrRelative
		default:
			return Spec{}, fmt.Errorf("dragonfly: global-link arrangement %q: accepted are %s (the paper's, default) and %s", arr, ArrConsecutive, ArrRelative)
		}
	}
	return Spec{Family: FamilyDragonfly, Radix: []int{a, p, h, g}, Config: cfg}, nil
}

func formatDragonfly(s Spec) string {
	a, p, h, g := s.Radix[0], s.Radix[1], s.Radix[2], s.Radix[3]
	var out string
	switch {
	case a == 2*h && p == h && g == a*h+1:
		out = strconv.Itoa(h)
	case g == a*h+1:
		out = fmt.Sprintf("%d,%d,%d", a, p, h)
	default:
		out = fmt.Sprintf("%d,%d,%d,%d", a, p, h, g)
	}
	if s.Config != "" {
		out += "/" + s.Config
	}
	return out
}

func dragonflySize(s Spec) Size {
	a, p, h, g := int64(s.Radix[0]), int64(s.Radix[1]), int64(s.Radix[2]), int64(s.Radix[3])
	sw := a * g
	z := Size{Switches: sw, Terminals: sw * p, External: sw * (a - 1 + h)}
	z.TerminalPorts = z.Terminals
	links := z.External / 2
	z.Bytes = (sw+1)*int64(unsafe.Sizeof(int32(0))) + z.Ports()*int64(unsafe.Sizeof(Port{})) +
		z.Terminals*int64(unsafe.Sizeof(Attachment{})) + links*int64(unsafe.Sizeof(Link{}))*5/4 +
		sw*int64(unsafe.Sizeof(int32(0))) // groups
	return z
}

func buildDragonfly(s Spec) (*Network, error) {
	l, err := s.Dragonfly()
	if err != nil {
		return nil, err
	}
	z := dragonflySize(s)
	b := NewBuilder(s.String())
	b.grow(int(z.Ports()), int(z.External/2))
	b.pes = make([]int32, 0, z.Terminals)
	for range l.A * l.G {
		b.AddSwitch("")
	}
	local := make([]string, l.A)
	for r := range local {
		local[r] = "r" + strconv.Itoa(r)
	}
	global := make([]string, l.G)
	for x := range global {
		global[x] = "g" + strconv.Itoa(x)
	}
	for grp := 0; grp < l.G; grp++ {
		for r := 0; r < l.A; r++ {
			sw := l.Switch(grp, r)
			for to := 0; to < l.A; to++ {
				if to != r {
					b.AddPort(sw, LabelRole(local[to]))
				}
			}
			for k := 0; k < l.H; k++ {
				b.AddPort(sw, LabelRole(global[l.Target(grp, r*l.H+k)]))
			}
			for range l.P {
				b.AttachPE(sw)
			}
		}
	}
	for grp := 0; grp < l.G; grp++ {
		for r := 0; r < l.A; r++ {
			for to := r + 1; to < l.A; to++ {
				b.Connect(PortRef{l.Switch(grp, r), l.LocalPort(r, to)}, PortRef{l.Switch(grp, to), l.LocalPort(to, r)})
			}
		}
		for o := 0; o < l.A*l.H; o++ {
			x, q := l.Target(grp, o), l.Peer(grp, o)
			if x < grp || x == grp && q <= o {
				continue // made from the other end
			}
			b.Connect(PortRef{l.Switch(grp, o/l.H), l.GlobalPort(o)}, PortRef{l.Switch(x, q/l.H), l.GlobalPort(q)})
		}
	}
	net, err := b.buildFamily(s)
	if err != nil {
		return nil, err
	}
	net.groups = make([]int32, l.A*l.G)
	for sw := range net.groups {
		net.groups[sw] = int32(sw / l.A)
	}
	net.ngroups = l.G
	if l.Arr == ArrRelative {
		// Adding a constant to every group number maps the relative arrangement onto
		// itself, and a group's routers differ only by which offsets they hold.
		net.classes = make([]Class, l.A)
		for r := range net.classes {
			net.classes[r] = Class{Rep: r, Count: l.G}
		}
	}
	return net, nil
}
