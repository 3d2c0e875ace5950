package topology

import "fmt"

// torusFamily is the k-ary n-cube with any radix per dimension: every node one switch
// with C PEs, its d+ port linked to the d- port of the next node around each ring.
func torusFamily() FamilyDef {
	return FamilyDef{
		Name:     FamilyTorus,
		Summary:  "torus, C PEs per switch (default 1)",
		Syntax:   "torus:K0xK1x...[@C]",
		Examples: []string{"torus:16x8", "torus:8x8x8@2"},
		Parse:    func(body string) (Spec, error) { return parseGridPEs(FamilyTorus, body) },
		Format:   formatGridPEs,
		Size:     gridSize,
		Build: func(s Spec) (*Network, error) {
			return gridNet(s, max(s.PEs, 1), 0, false, false)
		},
		Routing: "dor",
	}
}

// Torus builds a torus with the given radices and PEs per switch.
func Torus(radix []int, pes int) (*Network, error) {
	return fromSpec(Spec{Family: FamilyTorus, Radix: radix, PEs: pes})
}

// parseGridPEs reads SHAPE[@C], the body of a torus or mesh spec.
func parseGridPEs(fam Family, body string) (Spec, error) {
	shape, pes, hasPEs, _, hasCfg := splitShape(body)
	radix, err := parseShape(shape)
	if err != nil {
		return Spec{}, err
	}
	if hasCfg {
		return Spec{}, fmt.Errorf("only twin tori take a configuration after '/'; a %s is just %s:SHAPE[@PES]", fam, fam)
	}
	c, err := parsePEs(pes, hasPEs)
	if err != nil {
		return Spec{}, err
	}
	if err := checkSize(radix, 1); err != nil {
		return Spec{}, err
	}
	return Spec{Family: fam, Radix: radix, PEs: c}, nil
}

// formatGridPEs prints SHAPE[@C].
func formatGridPEs(s Spec) string {
	if s.PEs > 1 {
		return fmt.Sprintf("%s@%d", formatShape(s.Radix), s.PEs)
	}
	return formatShape(s.Radix)
}
