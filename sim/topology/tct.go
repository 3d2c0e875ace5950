package topology

import (
	"fmt"
	"strconv"
	"unsafe"
)

// FamilyTCT is Bossard's torus-connected toroids TCT(n, k) (Computers 2023): k^n
// n-toroids on an n-dimensional k-ary torus, every node with one external link.
const FamilyTCT Family = "tct"

func tctFamily() FamilyDef {
	return FamilyDef{
		Name:    FamilyTCT,
		Summary: "torus-connected toroids TCT(n,k) (Bossard 2023): k^n n-toroids, 2n*k^n nodes",
		Syntax:  "tct:N,K",
		Help: []string{"N: 1 to 32, K >= 2; node 2n*m + i: meta node m = u0 + k*u1 + ...,",
			"toroid node i = 2a+y, which carries dimension a's link (+ when y = 1)"},
		Examples: []string{"tct:3,5", "tct:4,3"},
		Parse:    func(body string) (Spec, error) { return parseClusterTorus(FamilyTCT, body) },
		Format:   formatClusterTorus,
		Size:     func(s Spec) Size { return clusterTorusSize(s) },
		Build: func(s Spec) (*Network, error) {
			n, k := s.Radix[0], s.Radix[1]
			return clusterTorus(s, n, k, ToroidAdjacency(n), toroidLabel(n))
		},
		Routing:     "tct",
		LoadRouting: "tct",
	}
}

// TCT builds the torus-connected toroids TCT(n, k).
func TCT(n, k int) (*Network, error) {
	return fromSpec(Spec{Family: FamilyTCT, Radix: []int{n, k}})
}

// ClusterTorusParams are n and k of a TCT or TCC spec (k = 1 for a toroid alone).
func (s Spec) ClusterTorusParams() (n, k int, err error) {
	switch {
	case s.Family == FamilyToroid && len(s.Radix) == 1:
		return s.Radix[0], 1, nil
	case (s.Family == FamilyTCT || s.Family == FamilyTCC) && len(s.Radix) == 2:
		return s.Radix[0], s.Radix[1], nil
	}
	return 0, 0, fmt.Errorf("%s is not a torus of clusters (tct, tcc or toroid)", s)
}

func parseClusterTorus(fam Family, body string) (Spec, error) {
	want := fmt.Sprintf("%s:N,K with N from 1 to %d and K >= 2, at most %d nodes (2N*K^N), e.g. %s:3,5", fam, MaxToroidN, MaxSwitches, fam)
	v, err := parseInts(body, want, 2)
	if err != nil {
		return Spec{}, err
	}
	n, k := v[0], v[1]
	if n < 1 || n > MaxToroidN || k < 2 {
		return Spec{}, fmt.Errorf("n = %d, k = %d: write %s", n, k, want)
	}
	nodes := int64(2 * n)
	for range n {
		if nodes *= int64(k); nodes > MaxSwitches {
			return Spec{}, fmt.Errorf("%s(%d,%d) has more than %d nodes: write %s", fam, n, k, MaxSwitches, want)
		}
	}
	return Spec{Family: fam, Radix: []int{n, k}}, nil
}

func formatClusterTorus(s Spec) string {
	return strconv.Itoa(s.Radix[0]) + "," + strconv.Itoa(s.Radix[1])
}

func clusterTorusSize(s Spec) Size {
	n, k, _ := s.ClusterTorusParams()
	metas := int64(1)
	for range n {
		metas *= int64(k)
	}
	ports := int64(0)
	adj := ToroidAdjacency(n)
	if s.Family == FamilyTCC {
		adj = CycleAdjacency(n)
	}
	for _, a := range adj {
		ports += int64(len(a))
	}
	return clusterSize(int64(2*n)*metas, metas, ports*metas)
}

// clusterSize is the size of a network of switches with one PE each, metas clusters
// with one external port per switch when metas > 1, and clusterPorts ports inside the
// clusters in all.
func clusterSize(switches, metas, clusterPorts int64) Size {
	ext := clusterPorts
	if metas > 1 {
		ext += switches
	}
	z := Size{Switches: switches, Terminals: switches, TerminalPorts: switches, External: ext}
	z.Bytes = (switches+1)*int64(unsafe.Sizeof(int32(0))) + z.Ports()*int64(unsafe.Sizeof(Port{})) +
		switches*int64(unsafe.Sizeof(Attachment{})) + ext/2*int64(unsafe.Sizeof(Link{}))*5/4
	return z
}

// clusterTorus builds k^n copies of a cluster of 2n nodes (switches 2n·meta + i, meta
// index u_0 + k·u_1 + …), one PE per switch. Cluster node 2α + y carries dimension α's
// external link: node 2α+1 of meta m joins node 2α of meta m + e_α ([TCT] §3.1,
// Definition 3: the partner flips y). Port order on a switch: its cluster ports
// (neighbours ascending, labelled by label), its external port ("d<α>+" or "d<α>-",
// when k > 1), its PE. With k = 1 it is the cluster alone.
func clusterTorus(s Spec, n, k int, adj [][]int, label func(i, j int) string) (*Network, error) {
	size := 2 * n
	metas := 1
	for range n {
		metas *= k
	}
	b := NewBuilder(s.String())
	for range size * metas {
		b.AddSwitch("")
	}
	clusterPort := make([][]int, size) // clusterPort[i][j]: port of i towards adj[i][j]
	portTo := make([]map[int]int, size)
	for i := range adj {
		portTo[i] = map[int]int{}
		for j, nb := range adj[i] {
			portTo[i][nb] = j
		}
		clusterPort[i] = make([]int, len(adj[i]))
	}
	for m := 0; m < metas; m++ {
		for i := range size {
			sw := m*size + i
			for _, nb := range adj[i] {
				b.AddPort(sw, LabelRole(label(i, nb)))
			}
			if k > 1 {
				b.AddPort(sw, LabelRole(DimPortName(i/2, 2*(i%2)-1, 4)))
			}
			b.AttachPE(sw)
		}
	}
	stride := make([]int, n)
	st := 1
	for a := range n {
		stride[a] = st
		st *= k
	}
	for m := 0; m < metas; m++ {
		for i := range size {
			for j, nb := range adj[i] {
				if nb > i {
					b.Connect(PortRef{m*size + i, j}, PortRef{m*size + nb, portTo[nb][i]})
				}
			}
		}
		if k == 1 {
			continue
		}
		for a := range n {
			u := m / stride[a] % k
			next := m + stride[a]
			if u == k-1 {
				next -= k * stride[a]
			}
			plus, minus := 2*a+1, 2*a // + port on node 2α+1, its partner is node 2α of the next meta
			b.Connect(PortRef{m*size + plus, len(adj[plus])}, PortRef{next*size + minus, len(adj[minus])})
		}
	}
	net, err := b.buildFamily(s)
	if err != nil {
		return nil, err
	}
	if k > 1 { // meta translations are automorphisms: one class per cluster node
		for i := range size {
			net.classes = append(net.classes, Class{Rep: i, Count: metas})
		}
		net.metaRadix, net.metaPEs = make([]int, n), size
		for a := range n {
			net.metaRadix[a] = k
		}
	}
	return net, nil
}
