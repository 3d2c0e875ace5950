package topology

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"unsafe"
)

// The k-ary n-tree (a fat-tree) and its T-switch version (thesis, paper 1: "Formalization
// and configuration methodology for high-radix combined switches"; [CS] §4–5).
const (
	FamilyKTree   Family = "ktree"
	FamilyFatTree Family = "fattree" // another name for ktree: fattree:K,N prints as ktree:K,N
)

// Limits of the ktree family.
const (
	// MaxTSwitchArity is the largest arity k of a T-switch: its 2k ports fit a bit mask.
	MaxTSwitchArity = 32
	// MaxJoiningPorts is the most ports r that may join a T-switch's two chips.
	MaxJoiningPorts = 64
	// MaxVariantArity is the largest arity whose T-switch configurations `configs`
	// enumerates (C(16,8)/2 = 6,435 for k = 8).
	MaxVariantArity = 8
)

// TConfig is the configuration of a T-switch (Def. 8–10): the set C^α of its ports
// 0…2k−1 that chip α holds, as a bit mask (bit l for port l); chip β holds the rest.
// Ports 0…k−1 face down (terminals, the previous stage), k…2k−1 up.
type TConfig uint64

// Has reports whether port l is on chip α.
func (c TConfig) Has(l int) bool { return c>>uint(l)&1 == 1 }

// Ports lists α's ports in increasing order.
func (c TConfig) Ports() []int {
	var out []int
	for m := uint64(c); m != 0; m &= m - 1 {
		out = append(out, bits.TrailingZeros64(m))
	}
	return out
}

// String prints α's ports joined by commas, e.g. "0,1,4,5".
func (c TConfig) String() string {
	ps := c.Ports()
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = strconv.Itoa(p)
	}
	return strings.Join(parts, ",")
}

// Canonical is the same T-switch with chips named so that port 0 is on α.
func (c TConfig) Canonical(k int) TConfig {
	if !c.Has(0) {
		return ^c & TConfig(allPorts(2*k))
	}
	return c
}

func allPorts(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(n) - 1
}

// PairedConfig is the paper's optimal Type-A configuration S^A (Prop. 20), the one
// twintorus uses by default: down ports 0…k/2−1 and their up partners k…k+k/2−1 on
// α. Every configuration that keeps each down port l with its up port l+k (S_b) and
// splits the down ports evenly is optimal too.
func PairedConfig(k int) TConfig {
	half := allPorts(k / 2)
	return TConfig(half | half<<uint(k))
}

// DownConfig puts all down ports on α and all up ports on β: the Type-B optimum S^B
// of the last stage (Prop. 21), and at the other stages the "bad" configuration
// (p = k) of the paper's B-BMIN.
func DownConfig(k int) TConfig { return TConfig(allPorts(k)) }

// SplitConfig keeps p = k/2 but splits every pair: down ports 0…k/2−1 with up ports
// k+k/2…2k−1 on α. It is optimal for forward and turnaround connections (S^A_ft,
// Prop. 14) but makes every backward connection cross.
func SplitConfig(k int) TConfig {
	half := allPorts(k / 2)
	return TConfig(half | half<<uint(k+k/2))
}

// The named T-switch configurations.
const (
	CfgCSwitch = "cswitch" // S^A at stages 0…n−2, S^B at the last: the paper's optimum (O-BMIN)
	CfgBad     = "bad"     // all down ports on α, all up ports on β, at every stage (B-BMIN)
	CfgSplit   = "split"   // p = k/2 with every down/up pair split, at every stage
)

// KTree is the layout of a network of the ktree family: which switch is where and
// which port is which, for routings and analyses. T-switch ⟨s, o⟩ (stage s from 0 at
// the terminals, position o = o_{n−2}…o_0 in base k) is one switch, or two chips α and
// β joined by R internal links. Switch ids: (s·k^(n−1) + o)·Chips + chip.
//
// A chip's ports: its T-switch ports in increasing order (down ports 0…k−1, up ports
// k…2k−1), then its R internal ports. Terminal h = h_{n−1}…h_0 hangs on down port h_0
// of ⟨0, h_{n−1}…h_1⟩ (PE id h); up port k+j of ⟨s, o⟩ links to down port o_s of
// ⟨s+1, o with digit s set to j⟩. Last-stage switches have only down ports.
type KTree struct {
	K, N  int
	Chips int // 1, or 2 for T-switches
	R     int // internal links per T-switch (0 with one chip)
	// Config is the configuration's name: "" (single chips), cswitch, bad, split, or
	// α's ports (TConfig.String).
	Config   string
	TypeA    TConfig // α's ports at stages 0…n−2
	TypeB    TConfig // α's ports at the last stage (only down ports matter)
	PerStage int     // T-switches per stage, k^(n−1)
	pow      []int   // k^i for i = 0…n
	// local[t][chip][l] is the index of T-port l on chip (or -1 when the port is on the
	// other chip); tport[t][chip][q] is the T-port of local port q (-1: an internal
	// port). t = 0 for stages 0…n−2, 1 for the last stage.
	local [2][2][]int16
	tport [2][2][]int16
}

// Pow is k^i.
func (l *KTree) Pow(i int) int { return l.pow[i] }

// Terminals is k^n.
func (l *KTree) Terminals() int { return l.pow[l.N] }

// Switches is the number of switches (chips): n·k^(n−1)·Chips.
func (l *KTree) Switches() int { return l.N * l.PerStage * l.Chips }

// Switch is the id of chip `chip` of T-switch ⟨s, o⟩.
func (l *KTree) Switch(s, o, chip int) int { return (s*l.PerStage+o)*l.Chips + chip }

// Locate is the inverse of Switch.
func (l *KTree) Locate(sw int) (s, o, chip int) {
	chip = sw % l.Chips
	t := sw / l.Chips
	return t / l.PerStage, t % l.PerStage, chip
}

func (l *KTree) stageType(s int) int {
	if s == l.N-1 {
		return 1
	}
	return 0
}

// TPorts is the number of T-switch ports at stage s: 2k, or k at the last stage.
func (l *KTree) TPorts(s int) int {
	if s == l.N-1 {
		return l.K
	}
	return 2 * l.K
}

// Where is the chip holding T-port tp of a stage-s T-switch and its index there.
func (l *KTree) Where(s, tp int) (chip, local int) {
	t := l.stageType(s)
	if q := l.local[t][0][tp]; q >= 0 {
		return 0, int(q)
	}
	return 1, int(l.local[t][1][tp])
}

// TPort is the T-switch port of local port q on chip `chip` at stage s, or -1 when q
// is an internal port.
func (l *KTree) TPort(s, chip, q int) int { return int(l.tport[l.stageType(s)][chip][q]) }

// ChipPorts is the number of ports of a chip at stage s, internal ports included.
func (l *KTree) ChipPorts(s, chip int) int { return len(l.tport[l.stageType(s)][chip]) }

// InternalPort is the local index of chip `chip`'s i-th internal port at stage s.
func (l *KTree) InternalPort(s, chip, i int) int { return l.ChipPorts(s, chip) - l.R + i }

// Digit is digit i of x in base k.
func (l *KTree) Digit(x, i int) int { return x / l.pow[i] % l.K }

// Below reports whether terminal h lies below T-switch ⟨s, o⟩: o's digits s…n−2 are
// h's digits s+1…n−1.
func (l *KTree) Below(s, o, h int) bool { return o/l.pow[s] == h/l.pow[s+1] }

// Up is T-switch ⟨s+1, ·⟩ and its down port reached from up port k+j of ⟨s, o⟩.
func (l *KTree) Up(s, o, j int) (o2, down int) {
	d := l.Digit(o, s)
	return o + (j-d)*l.pow[s], d
}

// Layout of a ktree spec.
func (s Spec) KTree() (*KTree, error) {
	if s.Family != FamilyKTree || len(s.Radix) < 2 {
		return nil, fmt.Errorf("%s is not a k-ary n-tree", s)
	}
	k, n := s.Radix[0], s.Radix[1]
	l := &KTree{K: k, N: n, Chips: 1, pow: make([]int, n+1)}
	l.pow[0] = 1
	for i := 1; i <= n; i++ {
		l.pow[i] = l.pow[i-1] * k
	}
	l.PerStage = l.pow[n-1]
	if s.Config == "" {
		l.TypeA, l.TypeB = TConfig(allPorts(2*k)), TConfig(allPorts(k))
	} else {
		l.Chips, l.R, l.Config = 2, s.Radix[2], s.Config
		switch s.Config {
		case CfgCSwitch:
			l.TypeA, l.TypeB = PairedConfig(k), DownConfig(k)
		case CfgBad:
			l.TypeA, l.TypeB = DownConfig(k), DownConfig(k)
		case CfgSplit:
			l.TypeA, l.TypeB = SplitConfig(k), SplitConfig(k)
		default:
			c, err := ParseTConfig(s.Config, k)
			if err != nil {
				return nil, err
			}
			l.TypeA, l.TypeB = c, c
		}
	}
	for t, c := range []TConfig{l.TypeA, l.TypeB} {
		np := 2 * k
		if t == 1 {
			np = k
		}
		for chip := 0; chip < l.Chips; chip++ {
			l.local[t][chip] = make([]int16, np)
			for tp := 0; tp < np; tp++ {
				l.local[t][chip][tp] = -1
				if c.Has(tp) == (chip == 0) {
					l.local[t][chip][tp] = int16(len(l.tport[t][chip]))
					l.tport[t][chip] = append(l.tport[t][chip], int16(tp))
				}
			}
			for range l.R {
				l.tport[t][chip] = append(l.tport[t][chip], -1)
			}
		}
	}
	return l, nil
}

// ParseTConfig reads α's ports of a k×k T-switch, e.g. "0,1,4,5" for k = 4: k distinct
// ports from 0 to 2k−1, in any order.
func ParseTConfig(s string, k int) (TConfig, error) {
	var c TConfig
	parts := strings.Split(s, ",")
	for _, p := range parts {
		l, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || l < 0 || l >= 2*k {
			return 0, fmt.Errorf("T-switch port %q: accepted are ports 0 to %d (0 to %d face down, %d to %d up)", strings.TrimSpace(p), 2*k-1, k-1, k, 2*k-1)
		}
		if c.Has(l) {
			return 0, fmt.Errorf("T-switch port %d is listed twice in %q", l, s)
		}
		c |= 1 << uint(l)
	}
	if len(parts) != k {
		return 0, fmt.Errorf("%q lists %d ports; chip α of a %dx%d T-switch holds %d of its %d ports, e.g. %s", s, len(parts), k, k, k, 2*k, PairedConfig(k))
	}
	return c, nil
}

func ktreeFamily() FamilyDef {
	return FamilyDef{
		Name:    FamilyKTree,
		Summary: "k-ary n-tree (fat-tree) of 2k-port switches, k^n PEs; /CFG builds T-switches of two chips",
		Syntax:  "ktree:K,N[/CFG[:R]]",
		Help: []string{
			"CFG: cswitch (the optimum: S^A, S^B at the last stage), bad (all down ports on chip α), split, or α's ports, e.g. 0,1,4,5",
			"R: ports joining the two chips (default 1)",
		},
		Examples: []string{"ktree:4,3", "ktree:4,3/cswitch", "ktree:8,2/bad:4", "ktree:4,2/0,1,4,5:2"},
		Parse:    func(body string) (Spec, error) { return parseKTree(FamilyKTree, body) },
		Format:   formatKTree,
		Size:     ktreeSize,
		Build:    buildKTree,
		Routing:  "destro",
		Variants: ktreeVariants,
	}
}

// fattreeFamily reads fattree:K,N as ktree:K,N.
func fattreeFamily() FamilyDef {
	return FamilyDef{
		Name:    FamilyFatTree,
		Summary: "another name for ktree (prints as ktree)",
		Syntax:  "fattree:K,N[/CFG[:R]]",
		Parse:   func(body string) (Spec, error) { return parseKTree(FamilyFatTree, body) },
		Format:  formatKTree,
		Size:    ktreeSize,
		Build:   buildKTree,
		Routing: "destro",
	}
}

func parseKTree(fam Family, body string) (Spec, error) {
	params, cfg, hasCfg := strings.Cut(body, "/")
	nums, err := parseInts(params, "K,N", 2)
	if err != nil {
		return Spec{}, fmt.Errorf("%s: %w", fam, err)
	}
	k, n := nums[0], nums[1]
	switch {
	case k < 2 || k > MaxPortsPerSwitch/2:
		return Spec{}, fmt.Errorf("arity %d: accepted are 2 to %d", k, MaxPortsPerSwitch/2)
	case n < 1 || n > 64:
		return Spec{}, fmt.Errorf("%d stages: accepted are 1 to 64", n)
	}
	terms := 1
	for range n {
		if terms *= k; terms > MaxSwitches {
			return Spec{}, fmt.Errorf("%d^%d terminals: accepted networks have at most %d", k, n, MaxSwitches)
		}
	}
	s := Spec{Family: FamilyKTree, Radix: []int{k, n}}
	if !hasCfg {
		return s, nil
	}
	if k > MaxTSwitchArity {
		return Spec{}, fmt.Errorf("T-switches of arity %d: accepted are arities 2 to %d", k, MaxTSwitchArity)
	}
	cfg, rs, hasR := strings.Cut(strings.TrimSpace(cfg), ":")
	r := 1
	if hasR {
		if r, err = strconv.Atoi(strings.TrimSpace(rs)); err != nil || r < 1 || r > MaxJoiningPorts {
			return Spec{}, fmt.Errorf("joining ports %q after ':': accepted is an integer from 1 to %d", rs, MaxJoiningPorts)
		}
	}
	name := strings.ToLower(strings.TrimSpace(cfg))
	switch name {
	case CfgCSwitch, "optimal", CfgSplit:
		if k%2 != 0 {
			return Spec{}, fmt.Errorf("configuration %s splits the %d down ports evenly, so k must be even; give chip α's ports instead, e.g. %s", name, k, DownConfig(k))
		}
		if name == "optimal" {
			name = CfgCSwitch
		}
	case CfgBad:
	case "":
		return Spec{}, fmt.Errorf("empty configuration after '/'; accepted: cswitch, bad, split, or chip α's %d ports such as %s", k, DownConfig(k))
	default:
		c, err := ParseTConfig(name, k)
		if err != nil {
			return Spec{}, err
		}
		name = tconfigName(c.Canonical(k), k)
	}
	s.Radix = append(s.Radix, r)
	s.Config = name
	if _, err := checkKTreeSize(s); err != nil {
		return Spec{}, err
	}
	return s, nil
}

// tconfigName is the canonical name of an explicit configuration (α holds port 0): a
// named one when it is the same at every stage (bad, split), else its ports.
func tconfigName(c TConfig, k int) string {
	switch {
	case c == DownConfig(k):
		return CfgBad
	case k%2 == 0 && c == SplitConfig(k):
		return CfgSplit
	}
	return c.String()
}

// parseInts reads n comma-separated integers named by what ("K,N").
func parseInts(s, what string, n int) ([]int, error) {
	parts := strings.Split(s, ",")
	if len(parts) != n {
		return nil, fmt.Errorf("want %s, got %q (in a YAML flow list [a, b], quote a spec that has commas: \"kns:16,2,1\")", what, s)
	}
	out := make([]int, n)
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return nil, fmt.Errorf("bad number %q in %q: want %s", strings.TrimSpace(p), s, what)
		}
		out[i] = v
	}
	return out, nil
}

func formatKTree(s Spec) string {
	out := fmt.Sprintf("%d,%d", s.Radix[0], s.Radix[1])
	if s.Config != "" {
		out += "/" + s.Config
		if s.Radix[2] > 1 {
			out += ":" + strconv.Itoa(s.Radix[2])
		}
	}
	return out
}

// checkKTreeSize refuses a tree with more switches than a network may have.
func checkKTreeSize(s Spec) (int64, error) {
	z := ktreeSize(s)
	if z.Switches > MaxSwitches {
		return 0, fmt.Errorf("%d switches: accepted networks have at most %d", z.Switches, MaxSwitches)
	}
	return z.Switches, nil
}

func ktreeSize(s Spec) Size {
	k, n := int64(s.Radix[0]), int64(s.Radix[1])
	chips, r := int64(1), int64(0)
	if s.Config != "" {
		chips, r = 2, int64(s.Radix[2])
	}
	per := int64(1)
	for range n - 1 {
		per *= k
	}
	tsw := n * per
	z := Size{Switches: tsw * chips, Terminals: per * k}
	z.TerminalPorts = z.Terminals
	z.External = (n-1)*per*2*k + per*k - z.Terminals
	z.Internal = tsw * 2 * r
	links := (n-1)*per*k + tsw*r
	z.Bytes = (z.Switches+1)*int64(unsafe.Sizeof(int32(0))) + z.Ports()*int64(unsafe.Sizeof(Port{})) +
		z.Terminals*int64(unsafe.Sizeof(Attachment{})) + links*int64(unsafe.Sizeof(Link{}))*5/4 + z.Switches
	return z
}

func buildKTree(s Spec) (*Network, error) {
	l, err := s.KTree()
	if err != nil {
		return nil, err
	}
	z := ktreeSize(s)
	b := NewBuilder(s.String())
	b.grow(int(z.Ports()), int(z.External/2+z.Internal/2))
	b.pes = make([]int32, 0, z.Terminals)
	k, n := l.K, l.N
	down := make([]string, 2*k)
	for i := range down {
		if i < k {
			down[i] = "down" + strconv.Itoa(i)
		} else {
			down[i] = "up" + strconv.Itoa(i-k)
		}
	}
	for st := 0; st < n; st++ {
		class := "stage " + strconv.Itoa(st)
		for o := 0; o < l.PerStage; o++ {
			for chip := 0; chip < l.Chips; chip++ {
				sw := b.AddSwitch("")
				b.SetClass(sw, class)
				for q := 0; q < l.ChipPorts(st, chip); q++ {
					tp := l.TPort(st, chip, q)
					switch {
					case tp < 0:
						b.AddPort(sw, Role{Internal: true, Label: "join"})
					case st == 0 && tp < k:
						b.attach(sw, o*k+tp)
					default:
						b.AddPort(sw, LabelRole(down[tp]))
					}
				}
			}
		}
	}
	ref := func(st, o, tp int) PortRef {
		chip, q := l.Where(st, tp)
		return PortRef{l.Switch(st, o, chip), q}
	}
	for st := 0; st+1 < n; st++ {
		for o := 0; o < l.PerStage; o++ {
			for j := 0; j < k; j++ {
				o2, d := l.Up(st, o, j)
				b.Connect(ref(st, o, k+j), ref(st+1, o2, d))
			}
		}
	}
	for st := 0; st < n && l.Chips == 2; st++ {
		for o := 0; o < l.PerStage; o++ {
			for i := 0; i < l.R; i++ {
				b.Connect(PortRef{l.Switch(st, o, 0), l.InternalPort(st, 0, i)}, PortRef{l.Switch(st, o, 1), l.InternalPort(st, 1, i)})
			}
		}
	}
	net, err := b.Build()
	if err != nil {
		return nil, err
	}
	net.spec, net.routing = s, "destro"
	if l.Chips == 1 { // every switch of a stage is alike (digit permutations)
		for st := 0; st < n; st++ {
			net.classes = append(net.classes, Class{Rep: l.Switch(st, 0, 0), Count: l.PerStage})
		}
	}
	return net, nil
}

// ktreeVariants lists every configuration of a Type-A T-switch of the spec's arity
// (α holding port 0: C(2k,k)/2 of them), as explicit configurations with the spec's
// joining ports, for `twintorus configs`.
func ktreeVariants(s Spec) ([]Spec, error) {
	k := s.Radix[0]
	switch {
	case k > MaxVariantArity:
		return nil, fmt.Errorf("configs enumerates T-switches of arity 2 to %d (C(2k,k)/2 configurations), not %d", MaxVariantArity, k)
	case s.Radix[1] < 2:
		return nil, fmt.Errorf("a 1-stage tree has no Type-A switches to configure; give N >= 2")
	}
	r := 1
	if len(s.Radix) > 2 {
		r = s.Radix[2]
	}
	var out []Spec
	full := allPorts(2 * k)
	for m := uint64(1); m <= full; m += 2 { // α holds port 0: odd masks
		if bits.OnesCount64(m) != k {
			continue
		}
		out = append(out, Spec{Family: FamilyKTree, Radix: []int{k, s.Radix[1], r}, Config: tconfigName(TConfig(m), k)})
	}
	return out, nil
}
