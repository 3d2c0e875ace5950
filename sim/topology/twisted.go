package topology

import (
	"fmt"
	"strconv"
	"strings"
)

// FamilyTwisted is the twisted tori of Cámara et al. (IEEE TPDS 2010) and the
// standard tori they are compared with.
const FamilyTwisted Family = "twisted"

// TwistedKind is one network of the twisted-tori family, all of side parameter a:
// the rectangular torus RT (2a×a), the rectangular twisted torus RTT (2a×a, a twist of
// a on the Y wrap-around), the prismatic torus PT (2a×a×a), the prismatic twisted
// torus PTT (a stack of RTTs joined by Z rings) and the prismatic doubly twisted torus
// PDTT (a twist of a on both the Y and the Z wrap-around).
type TwistedKind string

// The twisted-tori kinds, as spec strings spell them.
const (
	KindRT   TwistedKind = "rt"
	KindRTT  TwistedKind = "rtt"
	KindPT   TwistedKind = "pt"
	KindPTT  TwistedKind = "ptt"
	KindPDTT TwistedKind = "pdtt"
)

// TwistedKinds lists the kinds in the order the paper introduces them.
func TwistedKinds() []TwistedKind { return []TwistedKind{KindRT, KindRTT, KindPT, KindPTT, KindPDTT} }

// Dims is 2 for RT and RTT, 3 for PT, PTT and PDTT.
func (k TwistedKind) Dims() int {
	if k == KindRT || k == KindRTT {
		return 2
	}
	return 3
}

// Twists reports which wrap-arounds carry a twist of a in X: Y (RTT, PTT, PDTT) and
// Z (PDTT).
func (k TwistedKind) Twists() (y, z bool) {
	return k == KindRTT || k == KindPTT || k == KindPDTT, k == KindPDTT
}

// Shape is the radix of every dimension: 2a×a or 2a×a×a.
func (k TwistedKind) Shape(a int) []int {
	if k.Dims() == 2 {
		return []int{2 * a, a}
	}
	return []int{2 * a, a, a}
}

// Upper is the kind as the paper writes it, e.g. "PDTT".
func (k TwistedKind) Upper() string { return strings.ToUpper(string(k)) }

// MaxTwistedA bounds a: the largest network (2a³ nodes) stays within MaxSwitches.
const MaxTwistedA = 203

func twistedFamily() FamilyDef {
	return FamilyDef{
		Name:    FamilyTwisted,
		Summary: "twisted tori (Camara et al., TPDS 2010) of side a: rt, rtt (2a x a), pt, ptt, pdtt (2a x a x a)",
		Syntax:  "twisted:KIND:A",
		Help: []string{"KIND: rt, rtt, pt, ptt or pdtt; A: a >= 2 (or the shape, 2a x a [x a])",
			"node id x + 2a*y + 2a^2*z, one PE per node"},
		Examples:    []string{"twisted:rtt:16", "twisted:pdtt:32", "twisted:rt:4", "twisted:pt:4", "twisted:ptt:4"},
		Parse:       parseTwisted,
		Format:      func(s Spec) string { return s.Config + ":" + strconv.Itoa(s.Radix[0]) },
		Size:        twistedSize,
		Build:       buildTwisted,
		Routing:     "twisted-adaptive",
		LoadRouting: "twisted-dor",
	}
}

// Twisted builds a network of the twisted-tori family.
func Twisted(kind TwistedKind, a int) (*Network, error) {
	return fromSpec(Spec{Family: FamilyTwisted, Config: string(kind), Radix: []int{a}})
}

// TwistedParams are the kind and side a of a twisted-tori spec.
func (s Spec) TwistedParams() (TwistedKind, int, error) {
	if s.Family != FamilyTwisted || len(s.Radix) != 1 {
		return "", 0, fmt.Errorf("%s is not a twisted torus", s)
	}
	return TwistedKind(s.Config), s.Radix[0], nil
}

func parseTwisted(body string) (Spec, error) {
	const want = "write twisted:KIND:A with KIND rt, rtt, pt, ptt or pdtt and a from 2 to 203 (e.g. twisted:rtt:16), or the shape 2a x a [x a] (twisted:rtt:32x16)"
	kindStr, aStr, ok := strings.Cut(body, ":")
	kind := TwistedKind(strings.ToLower(strings.TrimSpace(kindStr)))
	valid := false
	for _, k := range TwistedKinds() {
		valid = valid || k == kind
	}
	if !ok || !valid {
		return Spec{}, fmt.Errorf("bad twisted torus %q: %s", body, want)
	}
	aStr = strings.ToLower(strings.TrimSpace(aStr))
	var a int
	if strings.Contains(aStr, "x") {
		radix, err := parseShape(aStr)
		if err != nil {
			return Spec{}, fmt.Errorf("%w; %s", err, want)
		}
		a = radix[len(radix)-1]
		shape := kind.Shape(a)
		if formatShape(radix) != formatShape(shape) {
			return Spec{}, fmt.Errorf("shape %s is not a %s shape (2a x a%s); %s", aStr, kind.Upper(), map[bool]string{true: " x a", false: ""}[kind.Dims() == 3], want)
		}
	} else {
		n, err := strconv.Atoi(aStr)
		if err != nil {
			return Spec{}, fmt.Errorf("bad a %q: %s", aStr, want)
		}
		a = n
	}
	if a < 2 || a > MaxTwistedA || (kind.Dims() == 2 && 2*a*a > MaxSwitches) {
		return Spec{}, fmt.Errorf("a = %d: %s", a, want)
	}
	return Spec{Family: FamilyTwisted, Config: string(kind), Radix: []int{a}}, nil
}

func twistedSize(s Spec) Size {
	kind, a, _ := s.TwistedParams()
	shape := kind.Shape(a)
	g := gridSize(Spec{Family: FamilyTorus, Radix: shape, PEs: 1})
	return g
}

// TwistedNext is the node one step from node o along dimension d in direction dir
// (±1) in a twisted-tori network of side a: the torus neighbour, except that leaving
// through a twisted wrap-around link (Y in RTT, PTT and PDTT; Z in PDTT) also moves a
// in X ([TT] §3.3, Definitions 5, 8 and 10). Node ids are x + 2a·y + 2a²·z.
func TwistedNext(kind TwistedKind, a, o, d, dir int) int {
	shape := kind.Shape(a)
	c := []int{o % (2 * a), o / (2 * a) % a, 0}
	if len(shape) == 3 {
		c[2] = o / (2 * a * a)
	}
	twistY, twistZ := kind.Twists()
	twisted := d == 1 && twistY || d == 2 && twistZ
	next := c[d] + dir
	if next < 0 || next >= shape[d] {
		next = (next + shape[d]) % shape[d]
		if twisted {
			c[0] = (c[0] + a) % (2 * a)
		}
	}
	c[d] = next
	return c[0] + 2*a*c[1] + 2*a*a*c[2]
}

// buildTwisted lays out the 2a×a[×a] grid with ports d0+, d0−, d1+, … and one PE per
// node, and links every node's d+ port to the d− port of TwistedNext.
func buildTwisted(s Spec) (*Network, error) {
	kind, a, err := s.TwistedParams()
	if err != nil {
		return nil, err
	}
	shape := kind.Shape(a)
	dims := len(shape)
	b := NewBuilder(s.String())
	b.Grid(shape, 1)
	nodes := b.gridSw
	b.grow(nodes*(2*dims+1), nodes*dims)
	b.pes = make([]int32, 0, nodes)
	for o := 0; o < nodes; o++ {
		for d := 0; d < dims; d++ {
			b.AddPort(o, DimRole(d, +1))
			b.AddPort(o, DimRole(d, -1))
		}
		b.AttachPE(o)
	}
	for o := 0; o < nodes; o++ {
		for d := 0; d < dims; d++ {
			b.Connect(PortRef{o, 2 * d}, PortRef{TwistedNext(kind, a, o, d, +1), 2*d + 1})
		}
	}
	net, err := b.buildFamily(s)
	if err != nil {
		return nil, err
	}
	// Every twisted torus is vertex-transitive (a quotient Z^n/L of the lattice), so
	// node 0 stands for every node in distance statistics. Only RT and PT are
	// translation-symmetric in the coordinates' own sense (what DOR analyses assume).
	net.classes = []Class{{Rep: 0, Count: nodes}}
	twistY, _ := kind.Twists()
	net.translational = !twistY
	return net, nil
}
