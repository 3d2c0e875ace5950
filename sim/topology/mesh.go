package topology

// meshFamily is the torus without wrap-around links. Boundary switches keep their
// unlinked ports (left Unconnected), so every switch numbers its ports alike.
func meshFamily() FamilyDef {
	return FamilyDef{
		Name:     FamilyMesh,
		Summary:  "mesh",
		Syntax:   "mesh:K0xK1x...[@C]",
		Examples: []string{"mesh:8x8"},
		Parse:    func(body string) (Spec, error) { return parseGridPEs(FamilyMesh, body) },
		Format:   formatGridPEs,
		Size:     gridSize,
		Build: func(s Spec) (*Network, error) {
			return gridNet(s, max(s.PEs, 1), 0, false, true)
		},
		Routing: "dor",
	}
}

// Mesh builds a mesh with the given radices and PEs per switch.
func Mesh(radix []int, pes int) (*Network, error) {
	return fromSpec(Spec{Family: FamilyMesh, Radix: radix, PEs: pes})
}
