package topology

import (
	"fmt"
	"strings"
)

// twinFamily is the nDT twin torus: every node two cards (switches) of n+1 ports
// joined by an internal link, Card0 holding the n external ports its configuration
// names, one PE per card.
func twinFamily() FamilyDef {
	return FamilyDef{
		Name:    FamilyTwin,
		Summary: "nDT twin torus (n >= 2), two PEs per node",
		Syntax:  "twin:K0xK1x...[/CFG]",
		Help:    []string{"CFG: a letter A-J (n = 3), cbest (the default), or Card0's n ports"},
		Examples: []string{"twin:4x4x4/D", "twin:4x4x2x4x4/cbest", "twin:4x4x4/x+,x-,y+",
			"twin:4x4x4x4/d0+,d0-,d1+,d1-"},
		Parse:  parseTwin,
		Format: func(s Spec) string { return formatShape(s.Radix) + "/" + s.Config },
		Size:   gridSize,
		Build: func(s Spec) (*Network, error) {
			c, err := s.TwinConfig()
			if err != nil {
				return nil, err
			}
			return gridNet(s, 1, c, true, false)
		},
		Routing: "dort",
		Variants: func(s Spec) ([]Spec, error) {
			cs, err := Configurations(len(s.Radix))
			if err != nil {
				return nil, err
			}
			out := make([]Spec, len(cs))
			for i, c := range cs {
				out[i] = Spec{Family: FamilyTwin, Radix: append([]int(nil), s.Radix...), Config: c.Name(len(s.Radix))}
			}
			return out, nil
		},
	}
}

// Twin builds an nDT twin torus with Card0 holding the ports in c.
func Twin(radix []int, c Config) (*Network, error) {
	return fromSpec(Spec{Family: FamilyTwin, Radix: radix, Config: c.Ports(len(radix))})
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

func parseTwin(body string) (Spec, error) {
	shape, pes, hasPEs, cfg, hasCfg := splitShape(body)
	radix, err := parseShape(shape)
	if err != nil {
		return Spec{}, err
	}
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
	s := Spec{Family: FamilyTwin, Radix: radix}
	if s.Config, err = canonicalConfigName(name, radix); err != nil {
		return Spec{}, err
	}
	return s, nil
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
