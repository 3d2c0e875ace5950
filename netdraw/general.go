package netdraw

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/twintorus/twintorus/plots"
	"github.com/twintorus/twintorus/sim/topology"
)

// The general layout: pivot MDS (Brandes and Pich, "Eigensolver methods for
// progressive multidimensional scaling of large data", 2006) places the switches
// so that their distances in the plane follow their hop distances, from BFS distances
// to a few pivots only; a short force-directed pass (Fruchterman–Reingold forces,
// repulsion only between near switches) then pulls apart switches that the two
// dimensions kept drew on one spot (a ring's symmetric halves, a torus saved as a
// file). Deterministic: pivots by farthest-first from switch 0, ties to the lowest id.
const (
	mdsPivots   = 50
	forceRounds = 60
	forceReach  = 2.0 // repulsion acts within this many link lengths
	// forcePeers bounds the switches that push one switch in a round: where the
	// scaling packed many on little room (a 3D torus), the nearest cells' first ones
	// suffice to spread them, and the pass stays linear.
	forcePeers = 48
)

// layGeneral lays out any network by its graph (links as undirected edges).
func layGeneral(net *topology.Network) (*Layout, error) {
	l := newLayout(net, "general")
	n := net.Switches()
	adj := adjacency(net)
	pos := pivotMDS(adj)
	if pos == nil {
		return nil, fmt.Errorf("netdraw: %s: the general layout found no spread of its switches", net)
	}
	scaleToLinks(pos, adj)
	relax(pos, adj)
	scaleToLinks(pos, adj)
	for s := 0; s < n; s++ {
		l.Pos[s] = pos[s]
	}
	l.Radius = 0.08
	l.straightPaths()
	return l, nil
}

// adjacency lists each switch's neighbours (either direction of any link), sorted.
func adjacency(net *topology.Network) [][]int32 {
	adj := make([][]int32, net.Switches())
	seen := map[[2]int32]bool{}
	for i := 0; i < net.Links(); i++ {
		k := net.Link(i)
		a, b := min(k.A, k.B), max(k.A, k.B)
		if a == b || seen[[2]int32{a, b}] {
			continue
		}
		seen[[2]int32{a, b}] = true
		adj[a] = append(adj[a], b)
		adj[b] = append(adj[b], a)
	}
	for _, a := range adj {
		sort.Slice(a, func(i, j int) bool { return a[i] < a[j] })
	}
	return adj
}

// bfs fills dist with the hop distances from src (-1: unreached).
func bfs(adj [][]int32, src int, dist []int32, queue []int32) {
	for i := range dist {
		dist[i] = -1
	}
	dist[src] = 0
	queue = append(queue[:0], int32(src))
	for h := 0; h < len(queue); h++ {
		u := queue[h]
		for _, v := range adj[u] {
			if dist[v] < 0 {
				dist[v] = dist[u] + 1
				queue = append(queue, v)
			}
		}
	}
}

// pivotMDS places the switches by classical scaling of their distances to k pivots.
func pivotMDS(adj [][]int32) []plots.Pos {
	n := len(adj)
	pos := make([]plots.Pos, n)
	if n == 1 {
		return pos
	}
	k := min(n, mdsPivots)
	d := mat.NewDense(n, k, nil)
	dist, queue := make([]int32, n), make([]int32, 0, n)
	nearest := make([]int32, n) // distance to the nearest pivot so far
	for i := range nearest {
		nearest[i] = math.MaxInt32
	}
	pivot := 0
	for j := 0; j < k; j++ {
		bfs(adj, pivot, dist, queue)
		next, far := 0, int32(-1)
		for i, x := range dist {
			if x < 0 {
				x = int32(n) // another component: far
			}
			d.Set(i, j, float64(x)*float64(x))
			nearest[i] = min(nearest[i], x)
			if nearest[i] > far {
				next, far = i, nearest[i]
			}
		}
		pivot = next
	}
	// Double centring of the squared distances.
	rowMean, colMean, all := make([]float64, n), make([]float64, k), 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			v := d.At(i, j)
			rowMean[i] += v / float64(k)
			colMean[j] += v / float64(n)
			all += v / float64(n*k)
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			d.Set(i, j, -0.5*(d.At(i, j)-rowMean[i]-colMean[j]+all))
		}
	}
	var ctc mat.SymDense
	ctc.SymOuterK(1, d.T())
	var eig mat.EigenSym
	if !eig.Factorize(&ctc, true) {
		return nil
	}
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	// Eigenvalues come in ascending order: the last two columns span the plane. A
	// quarter of the next two is added: symmetric networks have equal eigenvalues, and
	// two eigenvectors of one ring would put every switch of a line on one spot (a
	// torus saved as a file), which the force pass would then take long to pull apart.
	dims := min(k, 4)
	var xy mat.Dense
	xy.Mul(d, vecs.Slice(0, k, k-dims, k))
	spread := 0.0
	for i := 0; i < n; i++ {
		pos[i] = plots.Pos{X: xy.At(i, dims-1), Y: xy.At(i, dims-2)}
		if dims == 4 {
			pos[i].X += 0.25 * xy.At(i, 1)
			pos[i].Y += 0.25 * xy.At(i, 0)
		}
		spread += math.Abs(pos[i].X) + math.Abs(pos[i].Y)
	}
	if !(spread > 0) || math.IsNaN(spread) {
		return nil
	}
	return pos
}

// scaleToLinks scales positions so that links are one unit long on average.
func scaleToLinks(pos []plots.Pos, adj [][]int32) {
	sum, m := 0.0, 0
	for a, ns := range adj {
		for _, b := range ns {
			sum += math.Hypot(pos[a].X-pos[b].X, pos[a].Y-pos[b].Y)
			m++
		}
	}
	if m == 0 || !(sum > 0) {
		return
	}
	f := float64(m) / sum
	for i := range pos {
		pos[i].X *= f
		pos[i].Y *= f
	}
}

// relax runs Fruchterman–Reingold forces (links pull as d², switches within
// forceReach push as 1/d) with a falling cap on each move; near switches are found
// through a grid of forceReach-sized cells. Switches on one spot push apart along a
// direction fixed by their ids.
func relax(pos []plots.Pos, adj [][]int32) {
	n := len(pos)
	force := make([]plots.Pos, n)
	type cell struct{ x, y int }
	order := make([]int32, n)
	cells := make([]cell, n)
	for round := 0; round < forceRounds; round++ {
		for i := range force {
			force[i] = plots.Pos{}
		}
		for i := range pos {
			order[i] = int32(i)
			cells[i] = cell{int(math.Floor(pos[i].X / forceReach)), int(math.Floor(pos[i].Y / forceReach))}
		}
		less := func(a, b cell) bool { return a.x < b.x || a.x == b.x && a.y < b.y }
		sort.Slice(order, func(a, b int) bool {
			ca, cb := cells[order[a]], cells[order[b]]
			return less(ca, cb) || ca == cb && order[a] < order[b]
		})
		find := func(c cell) int {
			return sort.Search(n, func(i int) bool { return !less(cells[order[i]], c) })
		}
		for i := range pos {
			ci := cells[i]
			peers := 0
			for _, off := range [9][2]int{{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}, {-1, -1}, {-1, 1}, {1, -1}, {1, 1}} {
				c := cell{ci.x + off[0], ci.y + off[1]}
				for h := find(c); h < n && cells[order[h]] == c && peers < forcePeers; h++ {
					j := int(order[h])
					if j == i {
						continue
					}
					vx, vy := pos[i].X-pos[j].X, pos[i].Y-pos[j].Y
					d2 := vx*vx + vy*vy
					if d2 == 0 {
						// One spot: apart along a direction of the pair's ids.
						a := float64(i*7919+j*104729) * 0.618
						vx, vy, d2 = math.Cos(a)*1e-3, math.Sin(a)*1e-3, 1e-6
					}
					if d2 < forceReach*forceReach {
						force[i].X += vx / d2
						force[i].Y += vy / d2
						peers++
					}
				}
			}
			for _, j := range adj[i] {
				vx, vy := pos[j].X-pos[i].X, pos[j].Y-pos[i].Y
				d := math.Hypot(vx, vy)
				force[i].X += vx * d
				force[i].Y += vy * d
			}
		}
		limit := 0.5 * (1 - float64(round)/forceRounds)
		for i := range pos {
			f := math.Hypot(force[i].X, force[i].Y)
			if f > limit {
				force[i].X *= limit / f
				force[i].Y *= limit / f
			}
			pos[i].X += force[i].X
			pos[i].Y += force[i].Y
		}
	}
}
