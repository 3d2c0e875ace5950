package topology

import (
	"fmt"
	"strconv"
	"strings"
	"unsafe"
)

// FamilyKNS is the k-ary n-direct s-indirect hybrid family (Peñaranda et al., J.
// Supercomputing 2016; [KNS] §3).
const FamilyKNS Family = "kns"

// The indirect subnets of a KNS network.
const (
	SubnetCrossbar = "crossbar" // one switch of KH ports per line (s_h = 1)
	SubnetFatTree  = "fattree"  // a k_i-ary s_h-tree per line (a BMIN)
	SubnetRUFT     = "ruft"     // RUFT, a unidirectional MIN per line (a UMIN)
)

// KNS is the layout of a network of the kns family. Routers are the grid's switches,
// ⟨r_{n−1}…r_0⟩ with node index r_0 + KH·(r_1 + …), P PEs each (PE id = slot + P·router).
// Along dimension d the KH routers of a line (all coordinates but r_d equal; line p
// numbers the other coordinates in order) are joined by one subnet: a crossbar whose
// port j is router r_d = j's; or a MIN of SH stages of PerStage switches of arity KI
// (KH = KI^SH), whose stage-0 switch c takes routers c·KI…c·KI+KI−1 on its ports
// 0…KI−1. In a fat-tree, up port KI+j of switch (e, c) links to down port c_e of
// switch (e+1, c with digit e set to j) (the k-ary n-tree's wiring); in a RUFT every
// link is one-way, output KI+j of (e, c) feeds input c_e of (e+1, c with digit e set to
// j), and output KI+j of a last-stage switch c feeds router j·KI^(SH−1) + c over a link
// SH standard links long (the paper's 8 cycles per stage).
//
// Switch ids: routers first, then subnet switch c of stage e of the subnet of line p
// of dimension d at Routers + ((d·Lines + p)·SH + e)·PerStage + c. A router's ports:
// per dimension one port (two under RUFT: out, then in), then its P terminal ports.
type KNS struct {
	KH, NH, SH, P int
	Subnet        string
	KI            int // arity of the subnet's switches (KH for a crossbar)
	Routers       int // KH^NH
	Lines         int // lines per dimension, KH^(NH−1)
	PerStage      int // subnet switches per stage, KH/KI
	powH, powI    []int
}

// Switches is the number of switches, routers included.
func (l *KNS) Switches() int { return l.Routers + l.SubnetSwitches() }

// SubnetSwitches is the number of switches in all subnets (the paper's "switches").
func (l *KNS) SubnetSwitches() int { return l.NH * l.Lines * l.SH * l.PerStage }

// Terminals is the number of PEs, P·KH^NH.
func (l *KNS) Terminals() int { return l.P * l.Routers }

// Digit is coordinate d of router r.
func (l *KNS) Digit(r, d int) int { return r / l.powH[d] % l.KH }

// Line is the line of router r along dimension d.
func (l *KNS) Line(r, d int) int { return r%l.powH[d] + r/l.powH[d+1]*l.powH[d] }

// Router is the router at position t of line p along dimension d.
func (l *KNS) Router(d, p, t int) int {
	return p%l.powH[d] + t*l.powH[d] + p/l.powH[d]*l.powH[d+1]
}

// SubnetSwitch is the id of switch c of stage e of the subnet of line p of dimension d.
func (l *KNS) SubnetSwitch(d, p, e, c int) int {
	return l.Routers + ((d*l.Lines+p)*l.SH+e)*l.PerStage + c
}

// LocateSubnet is the inverse of SubnetSwitch for a switch that is no router.
func (l *KNS) LocateSubnet(sw int) (d, p, e, c int) {
	i := sw - l.Routers
	c, i = i%l.PerStage, i/l.PerStage
	e, i = i%l.SH, i/l.SH
	return i / l.Lines, i % l.Lines, e, c
}

// RouterOut is the router's port into its dimension-d subnet; RouterIn the port
// through which the subnet delivers (the same port unless the subnet is a RUFT).
func (l *KNS) RouterOut(d int) int {
	if l.Subnet == SubnetRUFT {
		return 2 * d
	}
	return d
}

// RouterIn is the router's port on which its dimension-d subnet delivers.
func (l *KNS) RouterIn(d int) int {
	if l.Subnet == SubnetRUFT {
		return 2*d + 1
	}
	return d
}

// KIPow is KI^i.
func (l *KNS) KIPow(i int) int { return l.powI[i] }

// KNS is the layout of a kns spec.
func (s Spec) KNS() (*KNS, error) {
	if s.Family != FamilyKNS || len(s.Radix) != 3 {
		return nil, fmt.Errorf("%s is not a KNS network", s)
	}
	l := &KNS{KH: s.Radix[0], NH: s.Radix[1], SH: s.Radix[2], P: max(s.PEs, 1), Subnet: s.Config}
	if l.SH == 1 {
		l.Subnet = SubnetCrossbar
	}
	l.KI = subnetArity(l.KH, l.SH)
	l.powH = powers(l.KH, l.NH+1)
	l.powI = powers(l.KI, l.SH+1)
	l.Routers = l.powH[l.NH]
	l.Lines = l.powH[l.NH-1]
	l.PerStage = l.KH / l.KI
	return l, nil
}

func powers(k, n int) []int {
	p := make([]int, n)
	p[0] = 1
	for i := 1; i < n; i++ {
		p[i] = p[i-1] * k
	}
	return p
}

// subnetArity is the integer KI >= 2 with KI^SH = KH, or 0 when there is none.
func subnetArity(kh, sh int) int {
	for ki := 2; ki <= kh; ki++ {
		v := 1
		for i := 0; i < sh && v <= kh; i++ {
			v *= ki
		}
		switch {
		case v == kh:
			return ki
		case v > kh:
			return 0 // larger arities overshoot too
		}
	}
	return 0
}

func knsFamily() FamilyDef {
	return FamilyDef{
		Name:    FamilyKNS,
		Summary: "k-ary n-direct s-indirect hybrid: KH^NH routers, each line of a dimension joined by a subnet",
		Syntax:  "kns:KH,NH,SH[,SUBNET][@P]",
		Help: []string{
			"SH = 1: a crossbar of KH ports; SH > 1: a MIN of arity KH^(1/SH)",
			"SUBNET: fattree (the default) or ruft; P: PEs per router (default 1)",
		},
		Examples: []string{"kns:16,2,1", "kns:16,2,2,fattree", "kns:16,2,4,ruft", "kns:4,3,1@2"},
		Parse:    parseKNS,
		Format:   formatKNS,
		Size:     knsSize,
		Build:    buildKNS,
		Routing:  "hybrid-dor",
	}
}

func parseKNS(body string) (Spec, error) {
	params, pes, hasPEs := strings.Cut(body, "@")
	parts := strings.Split(params, ",")
	subnet := ""
	if len(parts) == 4 {
		subnet = strings.ToLower(strings.TrimSpace(parts[3]))
		parts = parts[:3]
	}
	nums, err := parseInts(strings.Join(parts, ","), "KH,NH,SH[,SUBNET]", 3)
	if err != nil {
		return Spec{}, fmt.Errorf("kns: %w", err)
	}
	kh, nh, sh := nums[0], nums[1], nums[2]
	switch {
	case kh < 2 || kh > MaxPortsPerSwitch-MaxPEsPerSwitch:
		return Spec{}, fmt.Errorf("%d routers per dimension: accepted are 2 to %d", kh, MaxPortsPerSwitch-MaxPEsPerSwitch)
	case nh < 1 || nh > MaxGridDims:
		return Spec{}, fmt.Errorf("%d dimensions: accepted are 1 to %d", nh, MaxGridDims)
	case sh < 1 || sh > 16:
		return Spec{}, fmt.Errorf("%d subnet stages: accepted are 1 to 16", sh)
	case sh > 1 && subnetArity(kh, sh) == 0:
		return Spec{}, fmt.Errorf("%d stages cannot join %d routers: the subnet's arity KH^(1/SH) must be a whole number (e.g. 16 routers: 2 or 4 stages)", sh, kh)
	}
	c, err := parsePEs(pes, hasPEs)
	if err != nil {
		return Spec{}, err
	}
	switch {
	case sh == 1 && subnet != "" && subnet != SubnetCrossbar:
		return Spec{}, fmt.Errorf("a 1-stage subnet is a crossbar of %d ports; drop %q, or give SH > 1", kh, ","+subnet)
	case sh == 1:
		subnet = ""
	case subnet == "":
		subnet = SubnetFatTree
	case subnet != SubnetFatTree && subnet != SubnetRUFT:
		return Spec{}, fmt.Errorf("subnet %q: accepted are fattree and ruft", subnet)
	}
	s := Spec{Family: FamilyKNS, Radix: []int{kh, nh, sh}, PEs: c, Config: subnet}
	if z := knsSize(s); z.Switches > MaxSwitches || z.Terminals > MaxSwitches*MaxPEsPerSwitch {
		return Spec{}, fmt.Errorf("%d switches and %d PEs: accepted networks have at most %d switches", z.Switches, z.Terminals, MaxSwitches)
	}
	return s, nil
}

func formatKNS(s Spec) string {
	out := fmt.Sprintf("%d,%d,%d", s.Radix[0], s.Radix[1], s.Radix[2])
	if s.Config != "" {
		out += "," + s.Config
	}
	if s.PEs > 1 {
		out += "@" + strconv.Itoa(s.PEs)
	}
	return out
}

func knsSize(s Spec) Size {
	kh, nh, sh, p := int64(s.Radix[0]), int64(s.Radix[1]), int64(s.Radix[2]), int64(max(s.PEs, 1))
	routers := int64(1)
	for range nh {
		if routers *= kh; routers > 1<<40 {
			return Size{Switches: routers, Terminals: routers}
		}
	}
	ki := int64(kh)
	if sh > 1 {
		ki = int64(subnetArity(int(kh), int(sh)))
	}
	lines := routers / kh
	perStage := kh / ki
	subnet := nh * lines * sh * perStage
	z := Size{Switches: routers + subnet, Terminals: routers * p}
	z.TerminalPorts = z.Terminals
	routerPorts := nh
	links := routers * nh
	switch {
	case sh == 1:
		z.External = routers*nh + subnet*kh
	case s.Config == SubnetRUFT:
		routerPorts = 2 * nh
		z.External = routers*routerPorts + subnet*2*ki
		links = 2*routers*nh + nh*lines*(sh-1)*kh
	default:
		z.External = routers*nh + nh*lines*((sh-1)*perStage*2*ki+perStage*ki)
		links = routers*nh + nh*lines*(sh-1)*kh
	}
	z.Bytes = (z.Switches+1)*int64(unsafe.Sizeof(int32(0))) + z.Ports()*int64(unsafe.Sizeof(Port{})) +
		z.Terminals*int64(unsafe.Sizeof(Attachment{})) + links*int64(unsafe.Sizeof(Link{}))*5/4 +
		routers*nh*int64(unsafe.Sizeof(uint16(0))) + z.Switches
	return z
}

func buildKNS(s Spec) (*Network, error) {
	l, err := s.KNS()
	if err != nil {
		return nil, err
	}
	z := knsSize(s)
	radix := make([]int, l.NH)
	for d := range radix {
		radix[d] = l.KH
	}
	b := NewBuilder(s.String())
	b.Grid(radix, 1)
	b.grow(int(z.Ports()), int(z.External))
	b.pes = make([]int32, 0, z.Terminals)
	ruft := l.Subnet == SubnetRUFT
	dimLabel := make([]string, l.NH)
	for d := range dimLabel {
		dimLabel[d] = "dim" + strconv.Itoa(d)
	}
	for r := 0; r < l.Routers; r++ {
		b.SetClass(r, "router")
		for d := 0; d < l.NH; d++ {
			b.AddPort(r, LabelRole(dimLabel[d]))
			if ruft {
				b.AddPort(r, LabelRole(dimLabel[d]+" in"))
			}
		}
		for range l.P {
			b.AttachPE(r)
		}
	}
	var classes []string
	for e := 0; e < l.SH; e++ {
		switch l.Subnet {
		case SubnetCrossbar:
			classes = append(classes, "crossbar")
		default:
			classes = append(classes, l.Subnet+" stage "+strconv.Itoa(e))
		}
	}
	port := func(i int) string { return "p" + strconv.Itoa(i) }
	for d := 0; d < l.NH; d++ {
		for p := 0; p < l.Lines; p++ {
			for e := 0; e < l.SH; e++ {
				for c := 0; c < l.PerStage; c++ {
					sw := b.AddSwitch("")
					b.SetClass(sw, classes[e])
					n := 2 * l.KI // fat-tree and RUFT switches
					switch {
					case l.Subnet == SubnetCrossbar:
						n = l.KH
					case l.Subnet == SubnetFatTree && e == l.SH-1:
						n = l.KI // the top stage has only down ports
					}
					for q := 0; q < n; q++ {
						b.AddPort(sw, LabelRole(port(q)))
					}
				}
			}
		}
	}
	digit := func(c, e int) int { return c / l.powI[e] % l.KI }
	for d := 0; d < l.NH; d++ {
		for p := 0; p < l.Lines; p++ {
			for t := 0; t < l.KH; t++ { // router t of the line to its stage-0 switch
				r := PortRef{l.Router(d, p, t), l.RouterOut(d)}
				sw := PortRef{l.SubnetSwitch(d, p, 0, t/l.KI), t % l.KI}
				if ruft {
					b.ConnectOneWay(r, sw)
				} else {
					b.Connect(r, sw)
				}
			}
			for e := 0; e+1 < l.SH; e++ {
				for c := 0; c < l.PerStage; c++ {
					ce := digit(c, e)
					for j := 0; j < l.KI; j++ {
						up := PortRef{l.SubnetSwitch(d, p, e, c), l.KI + j}
						next := PortRef{l.SubnetSwitch(d, p, e+1, c+(j-ce)*l.powI[e]), ce}
						if ruft {
							b.ConnectOneWay(up, next)
						} else {
							b.Connect(up, next)
						}
					}
				}
			}
			if ruft { // the last stage returns to the routers
				for c := 0; c < l.PerStage; c++ {
					for j := 0; j < l.KI; j++ {
						out := PortRef{l.SubnetSwitch(d, p, l.SH-1, c), l.KI + j}
						b.ConnectOneWay(out, PortRef{l.Router(d, p, j*l.powI[l.SH-1]+c), l.RouterIn(d)})
						if l.SH > 1 {
							b.SetLength(out, l.SH)
						}
					}
				}
			}
		}
	}
	net, err := b.Build()
	if err != nil {
		return nil, err
	}
	net.spec, net.routing = s, "hybrid-dor"
	// Every router is alike, and so is every switch of a stage (translation along each
	// dimension, exchange of dimensions, digit permutations inside the subnets).
	net.classes = []Class{{Rep: 0, Count: l.Routers}}
	for e := 0; e < l.SH; e++ {
		net.classes = append(net.classes, Class{Rep: l.SubnetSwitch(0, 0, e, 0), Count: l.NH * l.Lines * l.PerStage})
	}
	return net, nil
}
