package topology

// FamilyTCC is the torus-connected cycles TCC(n, k) of Bossard and Kaneko (2015), the
// network the TCT paper compares with: the same meta torus, with a 2n-node cycle as
// the cluster. The paper does not restate its port layout; we put the −α
// port on cycle node 2α and the +α port on node 2α+1, so that passing through a
// cluster along dimension α is one hop, as in a TCT.
const FamilyTCC Family = "tcc"

func tccFamily() FamilyDef {
	return FamilyDef{
		Name:     FamilyTCC,
		Summary:  "torus-connected cycles TCC(n,k): the TCT with 2n-node cycles as clusters",
		Syntax:   "tcc:N,K",
		Help:     []string{"N: 1 to 32, K >= 2; cycle node 2a carries dimension a's - port, 2a+1 its + port"},
		Examples: []string{"tcc:2,5"},
		Parse:    func(body string) (Spec, error) { return parseClusterTorus(FamilyTCC, body) },
		Format:   formatClusterTorus,
		Size:     clusterTorusSize,
		Build: func(s Spec) (*Network, error) {
			n, k := s.Radix[0], s.Radix[1]
			return clusterTorus(s, n, k, CycleAdjacency(n), func(i, j int) string {
				if j == (i+1)%(2*n) {
					return "cw"
				}
				return "ccw"
			})
		},
		Routing:     "tct",
		LoadRouting: "tct",
	}
}

// CycleAdjacency lists the neighbours of each node of a cycle of 2n nodes, ascending
// (one neighbour for n = 1: a cycle of two nodes is one link).
func CycleAdjacency(n int) [][]int {
	size := 2 * n
	adj := make([][]int, size)
	for i := range adj {
		a, b := (i+size-1)%size, (i+1)%size
		switch {
		case a == b:
			adj[i] = []int{a}
		case a < b:
			adj[i] = []int{a, b}
		default:
			adj[i] = []int{b, a}
		}
	}
	return adj
}
