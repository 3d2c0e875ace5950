package topology

import (
	"fmt"
	"strings"
)

// Family names a kind of network in a spec string (see Families).
type Family string

// The families of the first wave, by name.
const (
	FamilyTorus Family = "torus"
	FamilyMesh  Family = "mesh"
	FamilyTwin  Family = "twin"
)

// Limits on what a spec may ask for.
const (
	MaxDims         = 8       // dimensions of a torus or mesh
	MaxGridDims     = 24      // dimensions of any grid (a Builder's, KNS routers, flattened butterflies)
	MaxRadix        = 1 << 16 // nodes along one dimension
	MaxSwitches     = 1 << 24 // switches in one network
	MaxPEsPerSwitch = 64
)

// Spec names a network. Its String form is the topology spec string; Parse reads it
// back, and Parse(s.String()) equals s for every valid s. What the fields mean is the
// family's business (see Families); the first wave uses them as documented here.
type Spec struct {
	Family Family
	// Radix is the shape of a torus, mesh or twin torus (nodes per dimension), and the
	// integer parameters of families whose spec is not a shape.
	Radix []int
	// PEs is the number of PEs per switch of a torus or mesh (1 when zero).
	PEs int
	// Config is a twin torus's port configuration in canonical form: a letter "A".."J",
	// "cbest", or Card0's ports in port order, e.g. "x+,x-,y+". Other families may name
	// a variant here.
	Config string
	// Path is the file of the families that read one (file:, anynet:).
	Path string
}

// String prints the spec in canonical form.
func (s Spec) String() string {
	f, ok := LookupFamily(string(s.Family))
	if !ok {
		return string(s.Family) + ":"
	}
	return string(f.Name) + ":" + f.Format(s)
}

// Equal reports whether two specs name the same network.
func (s Spec) Equal(o Spec) bool { return s.String() == o.String() }

// Shape is the spec without its configuration: "twin:4x4x4" for "twin:4x4x4/D".
func (s Spec) Shape() string {
	t := s
	t.Config = ""
	return strings.TrimSuffix(t.String(), "/")
}

// Parse reads a topology spec string, FAMILY:BODY (see Grammar); a bare path ending in
// ".json" is short for file:PATH. Errors say what is wrong and what is accepted, in
// one line.
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
	if strings.ContainsAny(str, "\n\r") {
		return Spec{}, fmt.Errorf("a spec is one line; %s", accepted())
	}
	name, body, ok := strings.Cut(str, ":")
	if !ok {
		if !strings.HasSuffix(strings.ToLower(str), ".json") {
			return Spec{}, fmt.Errorf("no family; write FAMILY:SHAPE, %s", accepted())
		}
		name, body = string(FamilyFile), str
	}
	f, ok := LookupFamily(name)
	if !ok {
		return Spec{}, fmt.Errorf("unknown family %q; the families are %s (%s)", name, FamilyNames(), accepted())
	}
	return f.Parse(body)
}

// Build makes the network a spec names.
func Build(s Spec) (*Network, error) {
	f, ok := LookupFamily(string(s.Family))
	if !ok {
		return nil, fmt.Errorf("unknown family %q; the families are %s", s.Family, FamilyNames())
	}
	return f.Build(s)
}

// New parses a spec string and builds its network.
func New(spec string) (*Network, error) {
	s, err := Parse(spec)
	if err != nil {
		return nil, err
	}
	return Build(s)
}

// MustNew is New for specs known to be valid (tests and examples); it panics on error.
func MustNew(spec string) *Network {
	n, err := New(spec)
	if err != nil {
		panic(err)
	}
	return n
}

// fromSpec validates a programmatic spec through the same path as a parsed one.
func fromSpec(s Spec) (*Network, error) {
	p, err := Parse(s.String())
	if err != nil {
		return nil, err
	}
	return Build(p)
}
