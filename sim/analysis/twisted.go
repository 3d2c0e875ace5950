package analysis

import (
	"context"
	"fmt"
	"math/big"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// TwistedReport is the exact analysis of a twisted-tori network's minimal routing
// records ([TT] §3–5). Averages divide by N (self included, as
// the paper does) unless the name says otherwise; ties between minimal records are
// split evenly, as the paper's bounds assume.
type TwistedReport struct {
	Network string
	Nodes   int
	// Diameter and AvgDistance are the BFS distances (AvgDistance includes the source
	// at distance 0); Omega[d] is the number of nodes at distance d from a node.
	Diameter    int
	AvgDistance float64
	Omega       []int64
	// Minimal: Algorithm 1's records are shortest paths for every pair (checked
	// against BFS from every node when AllPairs, from node 0 otherwise; every twisted
	// torus is vertex-transitive).
	Minimal  bool
	AllPairs bool
	// PerDim[i] is the average distance travelled in dimension i (ties split evenly),
	// LU = Σ PerDim / (dims · max PerDim), Proposition 1.
	PerDim []float64
	LU     float64
	// Bound is the uniform-traffic throughput bound 2/max PerDim phits/cycle/node (in
	// exact form BoundRat): the busiest channels, one per direction and dimension and
	// node, carry PerDim/2 per unit of injection. It equals the paper's EB_B bound
	// (4/a, 6/a, 48/(7a)) up to the paper's rounding of the averages.
	Bound    float64
	BoundRat *big.Rat
}

// TwistedCutReport is the bisection of the paper's EB_B argument (Section 5): nodes with
// x < a against x ≥ a.
type TwistedCutReport struct {
	// Links is the number of links crossing the cut (4a in the RTT: a internal, a
	// wrap-around, 2a twisted).
	Links int
	// CrossRoutes is the number of crossings from the low half to the high half over
	// all ordered pairs' routes (dimension order on each minimal record, records of a
	// pair sharing its weight equally), and Internal the number of ordered pairs inside
	// one half whose minimal route leaves it (weighted likewise): the paper's P per half
	// is Internal/2. Bound = Links · N / CrossRoutes phits/cycle/node is the bound
	// the cut gives under uniform traffic (N destinations per node, self included).
	CrossRoutes float64
	Internal    float64
	Bound       float64
}

// TwistedAnalysis computes the exact analysis of a twisted-tori network: distances by
// BFS, the candidate-translate records of every destination from node 0 with all
// their ties, per-dimension averages, LU, the channel-load bound and the EB_B cut. It
// checks minimality from every node when allPairs (N² records), else from node 0.
func TwistedAnalysis(ctx context.Context, net *topology.Network, allPairs bool) (*TwistedReport, error) {
	kind, a, err := net.Spec().TwistedParams()
	if err != nil {
		return nil, fmt.Errorf("twisted analysis: %w", err)
	}
	geo := routing.NewTwistedGeometry(kind, a)
	n := net.Switches()
	dims := kind.Dims()
	rep := &TwistedReport{Network: net.String(), Nodes: n, Minimal: true, AllPairs: allPairs, PerDim: make([]float64, dims)}
	dist, queue := Hops(net, 0, nil, nil)
	for _, d := range dist {
		for int(d) >= len(rep.Omega) {
			rep.Omega = append(rep.Omega, 0)
		}
		rep.Omega[d]++
	}
	rep.Diameter = len(rep.Omega) - 1
	sum := int64(0)
	for d, c := range rep.Omega {
		sum += int64(d) * c
	}
	rep.AvgDistance = float64(sum) / float64(n)

	// Per-dimension sums as exact rationals: each destination's minimal records share
	// its weight equally. Channel loads: load[d][dir] per node.
	perDim := make([]*big.Rat, dims)
	load := make([][2]*big.Rat, dims)
	for i := range perDim {
		perDim[i] = new(big.Rat)
		load[i] = [2]*big.Rat{new(big.Rat), new(big.Rat)}
	}
	var buf []routing.Vec
	for dst := 0; dst < n; dst++ {
		buf = minimalRecords(geo, 0, dst, buf[:0])
		if buf[0].L1() != int(dist[dst]) {
			rep.Minimal = false
		}
		w := big.NewRat(1, int64(len(buf)))
		for _, r := range buf {
			for i := 0; i < dims; i++ {
				v := new(big.Rat).Mul(w, big.NewRat(int64(abs(r[i])), 1))
				perDim[i].Add(perDim[i], v)
				dir := 0
				if r[i] < 0 {
					dir = 1
				}
				load[i][dir].Add(load[i][dir], v)
			}
		}
	}
	if allPairs {
		for src := 1; src < n && rep.Minimal; src++ {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("twisted analysis of %s: %w", net, err)
			}
			dist, queue = Hops(net, src, dist, queue)
			for dst := 0; dst < n; dst++ {
				if geo.Record(src, dst).L1() != int(dist[dst]) {
					rep.Minimal = false
					break
				}
			}
		}
	}
	nr := big.NewRat(int64(n), 1)
	maxDim, total, maxLoad := new(big.Rat), new(big.Rat), new(big.Rat)
	for i := range perDim {
		avg := new(big.Rat).Quo(perDim[i], nr)
		rep.PerDim[i], _ = avg.Float64()
		total.Add(total, avg)
		if avg.Cmp(maxDim) > 0 {
			maxDim = avg
		}
		for _, l := range load[i] {
			if l.Cmp(maxLoad) > 0 {
				maxLoad = l
			}
		}
	}
	lu := new(big.Rat).Quo(total, new(big.Rat).Mul(big.NewRat(int64(dims), 1), maxDim))
	rep.LU, _ = lu.Float64()
	// Injection λ per node spread uniformly over all N destinations (self included,
	// as the paper counts): a channel of the busiest class carries λ·maxLoad/N.
	rep.BoundRat = new(big.Rat).Quo(nr, maxLoad)
	rep.Bound, _ = rep.BoundRat.Float64()
	return rep, nil
}

// minimalRecords appends every minimal record of the pair (src, dst): the candidates'
// minimal ones.
func minimalRecords(geo *routing.TwistedGeometry, src, dst int, out []routing.Vec) []routing.Vec {
	s, d := geo.Coord(src), geo.Coord(dst)
	return geo.Minimal(routing.Vec{d[0] - s[0], d[1] - s[1], d[2] - s[2]}, out)
}

// TwistedCut measures the EB_B cut (x < a against x ≥ a) of a twisted-tori network:
// its links, and every ordered pair's crossings along the dimension-order path of each
// of its minimal records, weighted by the records' share. It walks N² routes: meant for
// the 2D sizes and small 3D ones.
func TwistedCut(ctx context.Context, net *topology.Network) (*TwistedCutReport, error) {
	kind, a, err := net.Spec().TwistedParams()
	if err != nil {
		return nil, fmt.Errorf("twisted cut: %w", err)
	}
	geo := routing.NewTwistedGeometry(kind, a)
	rep := &TwistedCutReport{}
	n := net.Switches()
	high := func(s int) bool { return geo.Coord(s)[0] >= a }
	for i := 0; i < net.Links(); i++ {
		l := net.Link(i)
		if high(int(l.A)) != high(int(l.B)) {
			rep.Links++
		}
	}
	dims := net.Dims()
	var buf []routing.Vec
	var up, internal float64
	for src := 0; src < n; src++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("twisted cut of %s: %w", net, err)
		}
		for dst := 0; dst < n; dst++ {
			buf = minimalRecords(geo, src, dst, buf[:0])
			w := 1 / float64(len(buf))
			leaves := 0
			for _, r := range buf {
				cur, crossedUp, left := src, 0, false
				for d := 0; d < dims; d++ {
					dir := 1
					if r[d] < 0 {
						dir = -1
					}
					for h := 0; h < abs(r[d]); h++ {
						next := int(net.Port(cur, net.DimPort(cur, d, dir)).Peer)
						if !high(cur) && high(next) {
							crossedUp++
						}
						if high(next) != high(src) {
							left = true
						}
						cur = next
					}
				}
				if cur != dst {
					return nil, fmt.Errorf("twisted cut of %s: the record %v from %d ends at %d, not %d", net, r, src, cur, dst)
				}
				up += w * float64(crossedUp)
				if left {
					leaves++
				}
			}
			if high(src) == high(dst) {
				internal += float64(leaves) / float64(len(buf))
			}
		}
	}
	rep.CrossRoutes, rep.Internal = up, internal
	// Every cut link is bidirectional: the cut carries Links phits/cycle from the low
	// half to the high half.
	rep.Bound = float64(rep.Links) * float64(n) / up
	return rep, nil
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// ForcedTranslates derives, independently of Algorithm 1, the lattice translates a
// candidate-translate router of a twisted-tori network of side a needs: for every raw
// displacement Δ = d − s of two nodes' coordinates it finds every lattice vector t
// (within three basis steps) minimising |Δ + t|₁. Forced are the translates that are
// the only minimiser of some Δ: every sufficient candidate set contains them. All are
// those that minimise some Δ at all. Sufficient reports whether the forced ones alone
// reach a minimum for every Δ; then len(Forced) is the smallest number of candidates
// (7, 21, 23 for RTT, PTT, PDTT). Translates are in units of a.
func ForcedTranslates(kind topology.TwistedKind, a int) (forced, all []routing.Vec, sufficient bool) {
	dims := kind.Dims()
	ty, tz := kind.Twists()
	basis := []routing.Vec{{2, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	if ty {
		basis[1][0] = 1
	}
	if tz {
		basis[2][0] = 1
	}
	var lattice []routing.Vec
	r := 3
	for c0 := -r; c0 <= r; c0++ {
		for c1 := -r; c1 <= r; c1++ {
			for c2 := -r; c2 <= r; c2++ {
				if dims == 2 && c2 != 0 {
					continue
				}
				var v routing.Vec
				for i := range v {
					v[i] = (c0*basis[0][i] + c1*basis[1][i] + c2*basis[2][i]) * a
				}
				lattice = append(lattice, v)
			}
		}
	}
	shape := kind.Shape(a)
	lo := routing.Vec{-(shape[0] - 1), -(shape[1] - 1), 0}
	if dims == 3 {
		lo[2] = -(shape[2] - 1)
	}
	forcedSet, anySet := map[routing.Vec]bool{}, map[routing.Vec]bool{}
	var minimisers [][]routing.Vec
	for dx := lo[0]; dx <= -lo[0]; dx++ {
		for dy := lo[1]; dy <= -lo[1]; dy++ {
			for dz := lo[2]; dz <= -lo[2]; dz++ {
				best, arg := 1<<30, []routing.Vec(nil)
				for _, t := range lattice {
					l := abs(dx+t[0]) + abs(dy+t[1]) + abs(dz+t[2])
					if l < best {
						best, arg = l, arg[:0]
					}
					if l == best {
						arg = append(arg, routing.Vec{t[0] / a, t[1] / a, t[2] / a})
					}
				}
				for _, t := range arg {
					anySet[t] = true
				}
				if len(arg) == 1 {
					forcedSet[arg[0]] = true
				}
				minimisers = append(minimisers, arg)
			}
		}
	}
	sufficient = true
	for _, arg := range minimisers {
		hit := false
		for _, t := range arg {
			hit = hit || forcedSet[t]
		}
		sufficient = sufficient && hit
	}
	for t := range forcedSet {
		forced = append(forced, t)
	}
	for t := range anySet {
		all = append(all, t)
	}
	sortVecs(forced)
	sortVecs(all)
	return forced, all, sufficient
}

func sortVecs(vs []routing.Vec) {
	for i := 1; i < len(vs); i++ {
		for j := i; j > 0 && less(vs[j], vs[j-1]); j-- {
			vs[j], vs[j-1] = vs[j-1], vs[j]
		}
	}
}

func less(a, b routing.Vec) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// PermutationBound is the channel-load bound of a permutation on a twisted torus
// ([TT] §6.2's bit-complement, bit-reversal and perfect shuffle): every PE sends to
// its image along the minimal records of the pair, tied records sharing its weight
// equally (as the paper's bounds assume and ties=random draws), and the hops of each
// class of channels, one dimension in one direction, are spread over the N channels
// of the class as evenly as a fully adaptive router could. The busiest class then
// caps the injection rate at Bound = N / its hops, in phits/cycle/node; a class's
// hops cannot be spread more evenly than that, so no minimal routing with these tie
// shares does better.
type PermutationBound struct {
	// ClassHops[d][0] and [1] are the hops of all pairs in dimension d, + and −
	// (exact in ClassHopsRat).
	ClassHops    [][2]float64
	ClassHopsRat [][2]*big.Rat
	// Pairs is the number of PEs that send (those the permutation does not fix).
	Pairs    int
	Bound    float64
	BoundRat *big.Rat
}

// TwistedPermutationBound computes the PermutationBound of dest (a PE's image, or −1
// or itself when it sends nothing) on a twisted-tori network, whose PE t sits on
// switch t.
func TwistedPermutationBound(net *topology.Network, dest func(src int) int) (*PermutationBound, error) {
	kind, a, err := net.Spec().TwistedParams()
	if err != nil {
		return nil, fmt.Errorf("permutation bound: %w", err)
	}
	geo := routing.NewTwistedGeometry(kind, a)
	n, dims := net.Terminals(), kind.Dims()
	pb := &PermutationBound{ClassHops: make([][2]float64, dims), ClassHopsRat: make([][2]*big.Rat, dims)}
	for d := range dims {
		pb.ClassHopsRat[d] = [2]*big.Rat{new(big.Rat), new(big.Rat)}
	}
	var buf []routing.Vec
	for src := range n {
		dst := dest(src)
		if dst < 0 || dst == src {
			continue
		}
		if dst >= n {
			return nil, fmt.Errorf("permutation bound on %s: PE %d goes to %d, outside 0..%d", net, src, dst, n-1)
		}
		pb.Pairs++
		s, t := int(net.Attachment(src).Switch), int(net.Attachment(dst).Switch)
		buf = minimalRecords(geo, s, t, buf[:0])
		w := big.NewRat(1, int64(len(buf)))
		for _, r := range buf {
			for d := range dims {
				dir := 0
				if r[d] < 0 {
					dir = 1
				}
				pb.ClassHopsRat[d][dir].Add(pb.ClassHopsRat[d][dir], new(big.Rat).Mul(w, big.NewRat(int64(abs(r[d])), 1)))
			}
		}
	}
	busiest := new(big.Rat)
	for d := range dims {
		for dir, h := range pb.ClassHopsRat[d] {
			pb.ClassHops[d][dir], _ = h.Float64()
			if h.Cmp(busiest) > 0 {
				busiest = h
			}
		}
	}
	if busiest.Sign() == 0 {
		return nil, fmt.Errorf("permutation bound on %s: no PE sends", net)
	}
	pb.BoundRat = new(big.Rat).Quo(big.NewRat(int64(net.Switches()), 1), busiest)
	pb.Bound, _ = pb.BoundRat.Float64()
	return pb, nil
}
