package topology

import (
	"fmt"
	"strconv"
	"strings"
)

// Family names a kind of network in a spec string.
type Family string

// The families this version builds.
const (
	FamilyTorus Family = "torus"
	FamilyMesh  Family = "mesh"
	FamilyTwin  Family = "twin"
)

// Limits on what a spec may ask for.
const (
	MaxDims         = 8       // dimensions of a torus or mesh
	MaxRadix        = 1 << 16 // nodes along one dimension
	MaxSwitches     = 1 << 24 // switches in one network
	MaxPEsPerSwitch = 64
)

// Grammar is the topology spec grammar, for help texts and error messages.
const Grammar = `torus:K0xK1x...[@C]   torus, C PEs per switch (default 1), e.g. torus:16x8, torus:8x8x8@2
mesh:K0xK1x...[@C]    mesh, e.g. mesh:8x8
twin:K0xK1x...[/CFG]  nDT twin torus (n >= 2), two PEs per node; CFG is a letter A-J (n = 3),
                      cbest (the default), or Card0's n ports, e.g. twin:4x4x4/D,
                      twin:4x4x2x4x4/cbest, twin:4x4x4/x+,y+,x-, twin:4x4x4x4/d0+,d0-,d1+,d1-`

const accepted = "accepted: torus:16x8, torus:8x8x8@2, mesh:8x8, twin:4x4x4/D, twin:4x4x2x4x4/cbest, twin:4x4x4/x+,y+,x-"

// Spec names a network. Its String form is the topology spec string; Parse reads it
// back, and Parse(s.String()) equals s for every valid s.
type Spec struct {
	Family Family
	Radix  []int
	// PEs is the number of PEs per switch of a torus or mesh (1 when zero).
	PEs int
	// Config is a twin torus's port configuration in canonical form: a letter "A".."J",
	// "cbest", or Card0's ports in port order, e.g. "x+,x-,y+".
	Config string
}

// String prints the spec in canonical form.
func (s Spec) String() string {
	var b strings.Builder
	b.WriteString(string(s.Family))
	b.WriteByte(':')
	for i, k := range s.Radix {
		if i > 0 {
			b.WriteByte('x')
		}
		b.WriteString(strconv.Itoa(k))
	}
	if s.PEs > 1 {
		b.WriteByte('@')
		b.WriteString(strconv.Itoa(s.PEs))
	}
	if s.Family == FamilyTwin {
		b.WriteByte('/')
		b.WriteString(s.Config)
	}
	return b.String()
}

// Equal reports whether two specs name the same network.
func (s Spec) Equal(o Spec) bool { return s.String() == o.String() }

// Shape is the spec without its configuration: "twin:4x4x4" for "twin:4x4x4/D".
func (s Spec) Shape() string {
	t := s
	t.Config = ""
	str := t.String()
	return strings.TrimSuffix(str, "/")
}

// TwinConfig resolves the configuration of a twin spec to Card0's port set.
func (s Spec) TwinConfig() (Config, error) {
	if s.Family != FamilyTwin {
		return 0, fmt.Errorf("%s is not a twin torus", s.Family)
	}
	n := len(s.Radix)
	switch {
	case s.Config == "cbest":
		return CBest(s.Radix), nil
	case len(s.Config) == 1:
		if n != 3 {
			return 0, fmt.Errorf("configuration letters A-J name 3DT configurations; this twin torus has %d dimensions: use cbest or Card0's ports such as %s", n, CBest(s.Radix).Ports(n))
		}
		return Letter(s.Config[0])
	default:
		return ParsePorts(s.Config, n)
	}
}

// Parse reads a topology spec string; see Grammar. Errors say what is wrong and what is
// accepted, in one line.
func Parse(str string) (Spec, error) {
	s, err := parse(strings.TrimSpace(str))
	if err != nil {
		return Spec{}, fmt.Errorf("topology %q: %w", str, err)
	}
	return s, nil
}

// MustParse is Parse for specs known to be valid (tests and examples); it panics on error.
func MustParse(str string) Spec {
	s, err := Parse(str)
	if err != nil {
		panic(err)
	}
	return s
}

func parse(str string) (Spec, error) {
	fam, rest, ok := strings.Cut(str, ":")
	if !ok {
		return Spec{}, fmt.Errorf("no family; write FAMILY:SHAPE, %s", accepted)
	}
	var s Spec
	switch Family(strings.ToLower(strings.TrimSpace(fam))) {
	case FamilyTorus:
		s.Family = FamilyTorus
	case FamilyMesh:
		s.Family = FamilyMesh
	case FamilyTwin:
		s.Family = FamilyTwin
	default:
		return Spec{}, fmt.Errorf("unknown family %q; the families are torus, mesh and twin (%s)", fam, accepted)
	}
	shape, cfg, hasCfg := strings.Cut(rest, "/")
	shape, pes, hasPEs := strings.Cut(shape, "@")
	radix, err := parseShape(strings.TrimSpace(shape))
	if err != nil {
		return Spec{}, err
	}
	s.Radix = radix
	if s.Family == FamilyTwin {
		if hasPEs {
			return Spec{}, fmt.Errorf("a twin torus always has two PEs per node, one per card; drop %q", "@"+pes)
		}
		if len(radix) < 2 || len(radix) > MaxTwinDims {
			return Spec{}, fmt.Errorf("a twin torus has 2 to %d dimensions, not %d", MaxTwinDims, len(radix))
		}
		if err := checkSize(radix, 2); err != nil {
			return Spec{}, err
		}
		name := "cbest"
		if hasCfg {
			name = strings.TrimSpace(cfg)
		}
		if s.Config, err = canonicalConfigName(name, radix); err != nil {
			return Spec{}, err
		}
		return s, nil
	}
	if hasCfg {
		return Spec{}, fmt.Errorf("only twin tori take a configuration after '/'; a %s is just %s:SHAPE[@PES]", s.Family, s.Family)
	}
	s.PEs = 1
	if hasPEs {
		c, err := strconv.Atoi(strings.TrimSpace(pes))
		if err != nil || c < 1 || c > MaxPEsPerSwitch {
			return Spec{}, fmt.Errorf("bad PEs per switch %q after '@': accepted is an integer from 1 to %d", pes, MaxPEsPerSwitch)
		}
		s.PEs = c
	}
	if err := checkSize(radix, 1); err != nil {
		return Spec{}, err
	}
	return s, nil
}

func parseShape(shape string) ([]int, error) {
	if shape == "" {
		return nil, fmt.Errorf("no shape; give the radix of each dimension joined by 'x', e.g. 16x8 or 4x4x4")
	}
	parts := strings.Split(strings.ToLower(shape), "x")
	if len(parts) > MaxDims {
		return nil, fmt.Errorf("%d dimensions; accepted are 1 to %d", len(parts), MaxDims)
	}
	radix := make([]int, len(parts))
	for i, p := range parts {
		k, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return nil, fmt.Errorf("bad radix %q in shape %q: accepted are integers from 2 to %d joined by 'x'", p, shape, MaxRadix)
		}
		if k < 2 || k > MaxRadix {
			return nil, fmt.Errorf("radix %d in dimension %d: accepted are 2 to %d nodes per dimension", k, i, MaxRadix)
		}
		radix[i] = k
	}
	return radix, nil
}

func checkSize(radix []int, perNode int) error {
	n := perNode
	for _, k := range radix {
		n *= k
		if n > MaxSwitches {
			return fmt.Errorf("more than %d switches; accepted networks have at most that many", MaxSwitches)
		}
	}
	return nil
}

func canonicalConfigName(name string, radix []int) (string, error) {
	n := len(radix)
	switch {
	case strings.EqualFold(name, "cbest"):
		return "cbest", nil
	case len(name) == 1 && name[0] != '+' && name[0] != '-':
		if n != 3 {
			return "", fmt.Errorf("configuration letter %q names a 3DT configuration, but this twin torus has %d dimensions; accepted: cbest or Card0's %d ports such as %s", name, n, n, CBest(radix).Ports(n))
		}
		if _, err := Letter(name[0]); err != nil {
			return "", err
		}
		return strings.ToUpper(name), nil
	case name == "":
		return "", fmt.Errorf("empty configuration after '/'; accepted: a letter A-J (3D only), cbest, or Card0's ports such as %s", CBest(radix).Ports(n))
	}
	c, err := ParsePorts(name, n)
	if err != nil {
		return "", err
	}
	return c.Ports(n), nil
}
