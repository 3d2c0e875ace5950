package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// RLengths is the exact distribution of Algorithm R's route lengths in a TCT, TCC or
// toroid network over all ordered pairs of nodes, the pairs of a node with itself
// included (length 0), as the TCT paper's random pairs may be.
type RLengths struct {
	Pairs     int64
	Histogram []int64 // Histogram[h]: ordered pairs whose route has h hops
	Max       int     // the longest route
	Avg       float64 // over all Pairs
}

// RLengthDistribution computes the distribution of Algorithm R's route lengths exactly,
// without enumerating pairs: a route is the cluster path from the source to the first
// dimension's exit, 2h−1 hops per dimension travelled h meta hops (h external links and
// one hop through each intermediate cluster), the cluster paths between one
// dimension's arrival node and the next one's exit, and the cluster path from the last
// arrival node to the destination. Dimension by dimension, the distribution over the
// node where the route stands is convolved with each meta displacement's cost (k
// choices per dimension, one of them staying put). The cost is O(n·k·(2n)²·L) for
// routes of at most L hops: TCT(8,5), 6,250,000 nodes, in milliseconds.
// TestRLengthsMatchRoutes holds it to the routing's own routes on every pair.
func RLengthDistribution(g *routing.ClusterTorus) *RLengths {
	size, n, k := 2*g.N(), g.N(), g.K()
	// dist[state][h]: pairs (source, meta displacement so far) standing at cluster
	// node state after h hops, for the dimensions done so far; every cluster node of
	// every one of the k^n meta nodes is a source.
	metas := int64(g.Nodes() / size)
	dist := make([][]int64, size)
	for i := range dist {
		dist[i] = []int64{metas} // the source itself, 0 hops
	}
	for a := 0; a < n; a++ {
		next := make([][]int64, size)
		add := func(state, shift int, from []int64) {
			need := shift + len(from)
			for len(next[state]) < need {
				next[state] = append(next[state], 0)
			}
			for h, c := range from {
				next[state][h+shift] += c
			}
		}
		for state, hist := range dist {
			if len(hist) == 0 {
				continue
			}
			add(state, 0, hist) // δ = 0: the dimension is not travelled
			for delta := 1; delta < k; delta++ {
				h, exit := delta, 2*a+1
				if 2*delta > k {
					h, exit = k-delta, 2*a
				}
				add(exit^1, g.ClusterDistance(state, exit)+2*h-1, hist)
			}
		}
		dist = next
	}
	r := &RLengths{}
	for state, hist := range dist {
		for dst := 0; dst < size; dst++ {
			d := g.ClusterDistance(state, dst)
			for h, c := range hist {
				for len(r.Histogram) <= h+d {
					r.Histogram = append(r.Histogram, 0)
				}
				r.Histogram[h+d] += c
			}
		}
	}
	var sum float64
	for h, c := range r.Histogram {
		r.Pairs += c
		sum += float64(h) * float64(c)
		if c > 0 {
			r.Max = h
		}
	}
	r.Avg = sum / float64(r.Pairs)
	return r
}

// RBound is Theorem 2's bound on Algorithm R's route length in TCT(n, k):
// 2n⌊k/2⌋ + 2τ(n) + n − 2, τ(n) the toroid's diameter (Theorem 1).
func RBound(n, k int) int { return 2*n*(k/2) + 2*ToroidDiameter(n) + n - 2 }

// ToroidDiameter is Theorem 1's diameter of the n-toroid: 1 for n = 1, ⌊n/4⌋ + 2 for
// even n, ⌊(n−1)/4⌋ + 2 for odd n ≥ 3 (TestToroidDiameters holds it to BFS).
func ToroidDiameter(n int) int {
	switch {
	case n == 1:
		return 1
	case n%2 == 0:
		return n/4 + 2
	}
	return (n-1)/4 + 2
}

// TofuBound is Lemma 1's bound on the route length in the Tofu-like network of side k,
// 3⌊k/2⌋ + 3 (TestTofuDiameter holds it to BFS).
func TofuBound(k int) int { return 3*(k/2) + 3 }

// RSample is the TCT paper's experiment (Section 3.2, Fig. 6): Algorithm R on pairs of
// nodes drawn uniformly at random (the paper draws 1,000), their longest and mean
// route and the standard deviation.
type RSample struct {
	Pairs    int
	Max      int
	Avg, Std float64
}

// SampleR draws pairs random (source, destination) pairs, each node uniform (a pair
// may repeat a node, as the paper's may), with a PCG seeded by seed, and routes each
// with Algorithm R.
func SampleR(g *routing.ClusterTorus, pairs int, seed uint64) RSample {
	rng := rand.New(rand.NewPCG(seed, 0x7c7))
	nodes := g.Nodes()
	s := RSample{Pairs: pairs}
	var sum, sq float64
	for range pairs {
		h := g.Length(rng.IntN(nodes), rng.IntN(nodes))
		s.Max = max(s.Max, h)
		sum += float64(h)
		sq += float64(h) * float64(h)
	}
	s.Avg = sum / float64(pairs)
	s.Std = math.Sqrt(math.Max(0, sq/float64(pairs)-s.Avg*s.Avg))
	return s
}

// SampleMaxQuantile is the q-quantile of the longest route among pairs random pairs,
// from the exact distribution: P(max ≤ m) = F(m)^pairs.
func (r *RLengths) SampleMaxQuantile(pairs int, q float64) int {
	var cum int64
	for h, c := range r.Histogram {
		cum += c
		if math.Pow(float64(cum)/float64(r.Pairs), float64(pairs)) >= q {
			return h
		}
	}
	return r.Max
}

// SampleMaxProb is the probability that the longest of pairs random routes is exactly m.
func (r *RLengths) SampleMaxProb(pairs, m int) float64 {
	var below, upto int64
	for h, c := range r.Histogram {
		if h < m {
			below += c
		}
		if h <= m {
			upto += c
		}
	}
	p := float64(pairs)
	return math.Pow(float64(upto)/float64(r.Pairs), p) - math.Pow(float64(below)/float64(r.Pairs), p)
}

// MetaBisection counts the links of a TCT, TCC or Tofu network that cross the cut
// splitting the meta torus in two along its last dimension (meta coordinate below
// ⌈k/2⌉ against the rest; Tofu: X below ⌈k/2⌉): 2k^(n−1) for the TCT (Table 3), 24k²
// for the Tofu.
func MetaBisection(net *topology.Network) (int, error) {
	var side func(s int) bool
	switch fam := net.Spec().Family; fam {
	case topology.FamilyTCT, topology.FamilyTCC:
		n, k, _ := net.Spec().ClusterTorusParams()
		stride := 1
		for range n - 1 {
			stride *= k
		}
		side = func(s int) bool { return s/(2*n)/stride%k < (k+1)/2 }
	case topology.FamilyTofu:
		k := net.Spec().Radix[0]
		side = func(s int) bool { return net.Digit(net.Node(s), 0) < (k+1)/2 }
	default:
		return 0, fmt.Errorf("meta bisection of %s: not a tct, tcc or tofu network", net)
	}
	cut := 0
	for i := 0; i < net.Links(); i++ {
		l := net.Link(i)
		if side(int(l.A)) != side(int(l.B)) {
			cut++
		}
	}
	return cut, nil
}
