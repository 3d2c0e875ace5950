package analysis

import (
	"context"
	"fmt"
	"math/big"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/twintorus/twintorus/sim/topology"
)

// DistanceStats are the PE-to-PE distance statistics of a network, in switch-to-switch
// hops (see the package documentation for the conventions).
type DistanceStats struct {
	PEs      int
	Diameter int // largest distance between two PEs
	// Histogram[d] is the number of ordered pairs of distinct PEs at distance d.
	// Index 0 counts distinct PEs on the same switch; the N self pairs are not in it.
	Histogram []int64
	// AvgDistance is the mean over the N·(N−1) ordered pairs of distinct PEs.
	AvgDistance float64
	// AvgDistanceInclSelf is the same sum divided by N², the self pairs at distance 0.
	AvgDistanceInclSelf float64
	// Sources is the number of BFS runs it took: one per symmetry class, one per
	// switch with PEs for the all-sources computation, none for a mesh (MeshDistances).
	Sources int
}

// Pairs is the number of ordered pairs of distinct PEs, N·(N−1).
func (d *DistanceStats) Pairs() int64 { return int64(d.PEs) * int64(d.PEs-1) }

// Sum is the total distance over all ordered pairs of PEs, exact.
func (d *DistanceStats) Sum() *big.Int {
	sum, term := new(big.Int), new(big.Int)
	for h, c := range d.Histogram {
		sum.Add(sum, term.Mul(big.NewInt(int64(h)), big.NewInt(c)))
	}
	return sum
}

// MaxAllSourcesWork bounds the all-sources computation that Distances falls back on
// for a network with no symmetry it can use: switches × ports visited, about a
// minute on two cores.
const MaxAllSourcesWork = 1 << 34

// Distances computes the distance statistics exactly: for a mesh from its dimensions
// (MeshDistances), else with one BFS per symmetry class of net.Classes(), or with a
// BFS from every switch when the network reports no symmetry (refused above
// MaxAllSourcesWork). The classes run in parallel; the result does not depend on the
// number of cores.
func Distances(ctx context.Context, net *topology.Network) (*DistanceStats, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("distances of %s: %w", net, err)
	}
	if net.Spec().Family == topology.FamilyMesh {
		return MeshDistances(net)
	}
	classes := net.Classes()
	if classes == nil {
		sources := len(peSwitches(net))
		if work := float64(sources) * float64(net.TotalPorts()); work > MaxAllSourcesWork {
			return nil, fmt.Errorf("distances of %s: it has no symmetry to use, and a BFS from each of its %d switches with PEs would visit %.3g ports, more than the limit of %.3g (about a minute): analyse a smaller network", net, sources, work, float64(MaxAllSourcesWork))
		}
		return DistancesAllSources(ctx, net)
	}
	return distances(ctx, net, classes)
}

// MeshDistances computes the distance statistics of a mesh from its dimensions, in
// time linear in its diameter and size of the histogram rather than quadratic in its
// switches. In a mesh the hop distance between switches x and y is the sum over the
// dimensions of |x_d − y_d|, so the ordered switch pairs at distance h are the
// convolution over the dimensions of one dimension's counts: a dimension of k
// switches has k pairs at distance 0 and 2(k−j) at distance j, 0 < j < k. Every switch
// has the same number p of PEs, so p² PE pairs lie behind each switch pair, less the
// N self pairs at distance 0. TestMeshDistancesEqualBFS checks it against BFS.
func MeshDistances(net *topology.Network) (*DistanceStats, error) {
	if net.Spec().Family != topology.FamilyMesh || net.SwitchesPerNode() != 1 {
		return nil, fmt.Errorf("distances of %s: not a mesh", net)
	}
	pes := int64(net.TerminalsPerSwitch())
	if pes*int64(net.Switches()) != int64(net.Terminals()) {
		return nil, fmt.Errorf("distances of %s: switches do not all have %d PEs", net, pes)
	}
	hist := []int64{1}
	for _, k := range net.Radices() {
		dim := make([]int64, k)
		dim[0] = int64(k)
		for j := 1; j < k; j++ {
			dim[j] = 2 * int64(k-j)
		}
		conv := make([]int64, len(hist)+k-1)
		for a, x := range hist {
			if x == 0 {
				continue
			}
			for b, y := range dim {
				conv[a+b] += x * y // at most switches² ≤ 2^48: no overflow
			}
		}
		hist = conv
	}
	st := &DistanceStats{PEs: net.Terminals()}
	st.Histogram = make([]int64, len(hist))
	for h, c := range hist {
		st.Histogram[h] = c * pes * pes // at most PEs² ≤ 2^60
	}
	st.Histogram[0] -= int64(st.PEs) // a PE is not paired with itself
	st.finish()
	return st, nil
}

// DistancesAllSources computes the distance statistics with a BFS from every switch
// that has PEs, on all cores. It needs no symmetry and serves as the reference for
// Distances.
func DistancesAllSources(ctx context.Context, net *topology.Network) (*DistanceStats, error) {
	var all []topology.Class
	for _, s := range peSwitches(net) {
		all = append(all, topology.Class{Rep: s, Count: 1})
	}
	return distances(ctx, net, all)
}

// peSwitches lists the switches that have PEs, in id order: distances run between PEs,
// so only these start a BFS (a fat-tree's or a KNS network's other switches need none).
func peSwitches(net *topology.Network) []int {
	has := make([]bool, net.Switches())
	for t := 0; t < net.Terminals(); t++ {
		has[net.Attachment(t).Switch] = true
	}
	var out []int
	for s, h := range has {
		if h {
			out = append(out, s)
		}
	}
	return out
}

// Hops fills dist with the hop distance from switch src to every switch (-1 when
// unreachable), reusing dist and queue when they are long enough, and returns both.
func Hops(net *topology.Network, src int, dist, queue []int32) ([]int32, []int32) {
	n := net.Switches()
	if cap(dist) < n {
		dist = make([]int32, n)
	}
	if cap(queue) < n {
		queue = make([]int32, n)
	}
	dist, queue = dist[:n], queue[:n]
	for i := range dist {
		dist[i] = -1
	}
	dist[src] = 0
	queue[0] = int32(src)
	head, tail := 0, 1
	for head < tail {
		s := int(queue[head])
		head++
		next := dist[s] + 1
		for p := net.Ports(s) - 1; p >= 0; p-- {
			t := net.Port(s, p).Peer
			if t >= 0 && dist[t] < 0 {
				dist[t] = next
				queue[tail] = t
				tail++
			}
		}
	}
	return dist, queue
}

func distances(ctx context.Context, net *topology.Network, sources []topology.Class) (*DistanceStats, error) {
	nsw := net.Switches()
	pes := make([]int32, nsw) // PEs per switch
	for t := 0; t < net.Terminals(); t++ {
		pes[net.Attachment(t).Switch]++
	}
	workers := min(runtime.GOMAXPROCS(0), len(sources))
	hists := make([][]int64, workers)
	var next atomic.Int64
	var firstErr error
	var errOnce sync.Once
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var dist, queue []int32
			var local []int64 // this source's histogram, weighted by destination PEs
			for {
				i := int(next.Add(1) - 1)
				if i >= len(sources) {
					return
				}
				if ctx.Err() != nil {
					errOnce.Do(func() { firstErr = ctx.Err() })
					return
				}
				src, weight := sources[i].Rep, int64(sources[i].Count)*int64(pes[sources[i].Rep])
				if weight == 0 {
					continue
				}
				dist, queue = Hops(net, src, dist, queue)
				local = local[:0]
				for t, d := range dist {
					if pes[t] == 0 {
						continue
					}
					if d < 0 {
						errOnce.Do(func() {
							firstErr = fmt.Errorf("%s is disconnected: no path from switch %d to switch %d", net, src, t)
						})
						return
					}
					for int(d) >= len(local) {
						local = append(local, 0)
					}
					local[d] += int64(pes[t])
				}
				local[0]-- // a PE is not paired with itself
				h := hists[w]
				for d, c := range local {
					if d >= len(h) {
						h = append(h, 0)
					}
					h[d] += weight * c
				}
				hists[w] = h
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, fmt.Errorf("distances of %s: %w", net, firstErr)
	}
	st := &DistanceStats{PEs: net.Terminals(), Sources: len(sources)}
	for _, h := range hists {
		for d, c := range h {
			if d >= len(st.Histogram) {
				st.Histogram = append(st.Histogram, 0)
			}
			st.Histogram[d] += c
		}
	}
	st.finish()
	return st, nil
}

// finish trims the histogram to the diameter and computes the averages, exactly.
func (st *DistanceStats) finish() {
	st.Diameter = 0
	for d := len(st.Histogram) - 1; d >= 0; d-- {
		if st.Histogram[d] > 0 {
			st.Diameter = d
			break
		}
	}
	st.Histogram = st.Histogram[:st.Diameter+1]
	if st.PEs > 1 {
		sum := new(big.Rat).SetInt(st.Sum())
		st.AvgDistance, _ = new(big.Rat).Quo(sum, new(big.Rat).SetInt64(st.Pairs())).Float64()
		n := big.NewInt(int64(st.PEs))
		st.AvgDistanceInclSelf, _ = new(big.Rat).Quo(sum, new(big.Rat).SetInt(n.Mul(n, n))).Float64()
	}
}
