package topology

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// specNeighbours is the toroid's explicit neighbour functions n1…n5 as [TCT] §2.2 writes
// them (rebuilt from the garbled text and checked against Definition 2 for n = 1..15), an
// independent reading of the definition, on coordinates.
func specNeighbours(n int, u [3]int) [][3]int {
	ux, uy, uz := u[0], u[1], u[2]
	mod := func(v, m int) int { return ((v % m) + m) % m }
	out := [][3]int{{ux, mod(uy+1, 2), uz}} // n1: Y
	if n%2 == 0 {
		if n >= 4 {
			out = append(out, [3]int{ux, uy, mod(uz+1, n/2)}, [3]int{ux, uy, mod(uz-1, n/2)})
		}
		if n >= 2 {
			out = append(out, [3]int{mod(ux+1, 2), uy, uz})
		}
	} else if n >= 3 {
		h := (n - 1) / 2
		switch {
		case ux == 0 || (0 < uz && uz < (n-3)/2):
			out = append(out, [3]int{ux, uy, mod(uz+1, (n+1)/2)}, [3]int{ux, uy, mod(uz-1, (n+1)/2)})
		case ux == 1 && uz == 0:
			out = append(out, [3]int{0, uy, h}, [3]int{1, uy, mod(uz+1, h)})
		case ux == 1 && uz == (n-3)/2:
			out = append(out, [3]int{0, uy, h}, [3]int{1, uy, mod(uz-1, h)})
		}
		if uz < h {
			out = append(out, [3]int{mod(ux+1, 2), uy, uz})
		} else {
			out = append(out, [3]int{1, uy, uz - 1}, [3]int{1, uy, 0})
		}
	}
	// Drop self-loops and duplicates (the test takes the union over both ends).
	var clean [][3]int
	for _, v := range out {
		if v != u && !slices.Contains(clean, v) {
			clean = append(clean, v)
		}
	}
	return clean
}

// Definition 2 as ToroidEdge reads it gives the same graph as the paper's explicit
// neighbour functions, for n = 1..15; node 2α+y sits where Fig. 5's port map puts
// dimension α, and every node exists once.
func TestToroidMatchesExplicitNeighbours(t *testing.T) {
	for n := 1; n <= 15; n++ {
		pos := map[[3]int]int{}
		for i := 0; i < 2*n; i++ {
			x, y, z := ToroidCoord(n, i)
			c := [3]int{x, y, z}
			if _, dup := pos[c]; dup {
				t.Fatalf("n=%d: two nodes at %v", n, c)
			}
			pos[c] = i
			// α(u) = u_x(n−1) + u_z(−1)^{u_x} ([TCT] Fig. 5).
			sign := 1
			if x == 1 {
				sign = -1
			}
			if alpha := x*(n-1) + z*sign; alpha != i/2 {
				t.Fatalf("n=%d: node %d at %v serves dimension %d, the port map says %d", n, i, c, i/2, alpha)
			}
		}
		adj := ToroidAdjacency(n)
		edges := map[[2]int]bool{}
		for i := 0; i < 2*n; i++ {
			x, y, z := ToroidCoord(n, i)
			for _, v := range specNeighbours(n, [3]int{x, y, z}) {
				j, ok := pos[v]
				if !ok {
					t.Fatalf("n=%d: the explicit neighbour %v of %v does not exist", n, v, [3]int{x, y, z})
				}
				edges[[2]int{min(i, j), max(i, j)}] = true
			}
		}
		count := 0
		for i, nb := range adj {
			for _, j := range nb {
				if !edges[[2]int{min(i, j), max(i, j)}] {
					t.Errorf("n=%d: edge %d-%d is not in the explicit neighbour functions", n, i, j)
				}
				count++
			}
		}
		if count != 2*len(edges) {
			t.Errorf("n=%d: %d edges from Definition 2, %d from the neighbour functions", n, count/2, len(edges))
		}
	}
}

// Property 1: d(u) = 3 when n = 4; 5 for the contracted node of odd n ≥ 5; min(n, 4)
// otherwise.
func TestToroidDegrees(t *testing.T) {
	for n := 1; n <= 12; n++ {
		net := MustNew(fmt.Sprintf("toroid:%d", n))
		for i := 0; i < 2*n; i++ {
			_, _, z := ToroidCoord(n, i)
			want := min(n, 4)
			switch {
			case n == 4:
				want = 3
			case n%2 == 1 && n >= 5 && z == (n-1)/2:
				want = 5
			}
			if got := net.Ports(i) - 1; got != want {
				t.Errorf("toroid:%d node %d: degree %d, Property 1 says %d", n, i, got, want)
			}
		}
	}
}

// TCT(n,k): order 2n·kⁿ, one external link per node (k ≥ 2) joining node 2α+1 of meta m
// to node 2α of m + e_α, degree ≤ 6 (Property 2: the toroid degree plus one), and the
// meta graph a k-ary n-torus with one link per direction (k > 2).
func TestTCTStructure(t *testing.T) {
	for _, nk := range [][2]int{{1, 3}, {2, 4}, {3, 5}, {4, 3}, {5, 2}, {6, 2}, {7, 2}} {
		n, k := nk[0], nk[1]
		net, err := TCT(n, k)
		if err != nil {
			t.Fatal(err)
		}
		metas := 1
		for range n {
			metas *= k
		}
		if net.Switches() != 2*n*metas {
			t.Fatalf("TCT(%d,%d): %d nodes, want 2n·k^n = %d", n, k, net.Switches(), 2*n*metas)
		}
		tor := MustNew(fmt.Sprintf("toroid:%d", n))
		maxDeg := 0
		for s := 0; s < net.Switches(); s++ {
			m, i := s/(2*n), s%(2*n)
			ext := 0
			for p := 0; p < net.Ports(s); p++ {
				port := net.Port(s, p)
				if port.Kind == Terminal {
					continue
				}
				if peerMeta := int(port.Peer) / (2 * n); peerMeta == m {
					continue
				}
				ext++
				alpha, plus := i/2, i%2 == 1
				step := 1
				for range alpha {
					step *= k
				}
				u := m / step % k
				want := m + step*(((u+1)%k)-u)
				wantNode := 2 * alpha
				if !plus {
					want, wantNode = m+step*(((u-1+k)%k)-u), 2*alpha+1
				}
				if int(port.Peer) != want*2*n+wantNode || net.PortName(s, p) != DimPortName(alpha, 2*(i%2)-1, 4) {
					t.Fatalf("TCT(%d,%d): node %d's external port %s reaches %d", n, k, s, net.PortName(s, p), port.Peer)
				}
			}
			deg := net.Ports(s) - 1
			maxDeg = max(maxDeg, deg)
			if ext != 1 || deg != tor.Ports(i)-1+1 {
				t.Fatalf("TCT(%d,%d): node %d has %d external links and degree %d (toroid degree %d)", n, k, s, ext, deg, tor.Ports(i)-1)
			}
		}
		if maxDeg > 6 {
			t.Errorf("TCT(%d,%d): maximum degree %d > 6", n, k, maxDeg)
		}
	}
	// Property 2 ([TCT] §3.1) worked out: n = 4 is 4-regular, n even ≥ 6 5-regular, odd
	// n ≥ 5 has degrees 5 and 6.
	for n, want := range map[int][]int{1: {2}, 2: {3}, 3: {4}, 4: {4}, 5: {5, 6}, 6: {5}, 7: {5, 6}, 8: {5}} {
		net := MustNew(fmt.Sprintf("tct:%d,2", n))
		var degs []int
		for s := 0; s < 2*n; s++ {
			if d := net.Ports(s) - 1; !slices.Contains(degs, d) {
				degs = append(degs, d)
			}
		}
		slices.Sort(degs)
		if !slices.Equal(degs, want) {
			t.Errorf("TCT(%d,2): degrees %v, want %v", n, degs, want)
		}
	}
}

func TestClusterSpecs(t *testing.T) {
	for in, want := range map[string]string{"tct:3,5": "tct:3,5", "TCT: 4 , 3": "tct:4,3", "toroid:12": "toroid:12", "tcc:3,5": "tcc:3,5", "tofu:3": "tofu:3"} {
		s, err := Parse(in)
		if err != nil || s.String() != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", in, s, err, want)
		}
	}
	for _, in := range []string{"tct:3", "tct:0,5", "tct:3,1", "tct:9,9", "tct:3,x", "toroid:0", "toroid:33", "toroid:3,4", "tcc:,", "tofu:1", "tofu:200"} {
		_, err := Parse(in)
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), ":") {
			t.Errorf("Parse(%q): %v; want a one-line error saying what is accepted", in, err)
		}
	}
}

// TCC: every cluster a cycle of 2n nodes (degree 2, plus the external link); Tofu:
// 12k³ nodes of degree 10 (4 inside the group, 6 between groups).
func TestTCCAndTofu(t *testing.T) {
	tcc := MustNew("tcc:3,4")
	for s := 0; s < tcc.Switches(); s++ {
		if tcc.Ports(s) != 4 {
			t.Fatalf("tcc:3,4 switch %d has %d ports, want 2 cycle + 1 external + 1 PE", s, tcc.Ports(s))
		}
	}
	tofu := MustNew("tofu:3")
	if tofu.Switches() != 12*27 {
		t.Fatalf("tofu:3 has %d nodes", tofu.Switches())
	}
	for s := 0; s < tofu.Switches(); s++ {
		deg := 0
		for p := 0; p < tofu.Ports(s); p++ {
			if tofu.Port(s, p).Connected() {
				deg++
			}
		}
		if deg != 10 {
			t.Fatalf("tofu:3 node %d has degree %d, want 10", s, deg)
		}
	}
}
