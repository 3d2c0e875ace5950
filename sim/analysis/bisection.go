package analysis

import (
	"fmt"
	"math"
	"sort"

	"github.com/twintorus/twintorus/sim/topology"
)

// MaxSpectralSwitches bounds the networks whose bisection Bisection bounds from the
// Laplacian's spectrum: a dense eigendecomposition of n×n, O(n³) per sweep.
const MaxSpectralSwitches = 400

// BisectionReport is what is known of a network's bisection: the fewest links
// between two halves of its switches (⌊n/2⌋ and ⌈n/2⌉). Links count each
// bidirectional link once, a trunk of K parallel links K times.
type BisectionReport struct {
	// Formula is the family's closed form (FamilyDef.Bisection), 0 when it has none,
	// with Source saying where it comes from.
	Formula int64
	Source  string
	// Lower and Upper bound the bisection when the spectrum was computed (Spectral):
	// Lower is ⌈λ₂·n/4⌉ (λ₂ the Laplacian's second smallest eigenvalue, Fiedler; the
	// bound of Donath and Hoffman), Upper the links cut by halving the switches at the
	// median of the eigenvector of λ₂ and improving that halving by swaps (refineCut).
	Spectral     bool
	Lambda2      float64
	Lower, Upper int64
}

// Bisection reports a network's bisection: the family's formula when it has one, and
// spectral bounds on networks of at most MaxSpectralSwitches switches that all carry
// the same number of PEs (so that halving the switches halves the PEs). With both,
// Lower ≤ Formula checks the formula, and Lower = Formula proves it the minimum.
func Bisection(net *topology.Network) (*BisectionReport, error) {
	rep := &BisectionReport{}
	if f, ok := topology.LookupFamily(string(net.Spec().Family)); ok && f.Bisection != nil {
		if links, src, ok := f.Bisection(net.Spec()); ok {
			rep.Formula, rep.Source = links, src
		}
	}
	n := net.Switches()
	if n < 2 || n > MaxSpectralSwitches {
		return rep, nil
	}
	per := -1
	for s := 0; s < n; s++ {
		c := 0
		for p := 0; p < net.Ports(s); p++ {
			if net.Port(s, p).Kind == topology.Terminal {
				c++
			}
		}
		if per >= 0 && c != per {
			return rep, nil // halving the switches would not halve the PEs
		}
		per = c
	}
	lap := make([]float64, n*n)
	for i := 0; i < net.Links(); i++ {
		l := net.Link(i)
		a, b := int(l.A), int(l.B)
		if a == b {
			continue
		}
		lap[a*n+b]--
		lap[b*n+a]--
		lap[a*n+a]++
		lap[b*n+b]++
	}
	vals, vecs, err := jacobiEigen(lap, n)
	if err != nil {
		return nil, fmt.Errorf("bisection of %s: %w", net, err)
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return vals[order[a]] < vals[order[b]] })
	k := order[1]
	rep.Spectral, rep.Lambda2 = true, vals[k]
	rep.Lower = int64(math.Ceil(vals[k]*float64(n)/4 - 1e-9))
	// The Fiedler cut: the n/2 switches with the smallest entries of the eigenvector.
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return vecs[idx[a]*n+k] < vecs[idx[b]*n+k] })
	side := make([]bool, n)
	for _, s := range idx[:n/2] {
		side[s] = true
	}
	rep.Upper = refineCut(net, side)
	return rep, nil
}

// refineCut improves a halving by swaps, one switch of each side at a time, while a
// swap cuts fewer links (the best switch of each side by its gain, links to the other
// side less links to its own), and returns the links the halving cuts.
func refineCut(net *topology.Network, side []bool) int64 {
	n := net.Switches()
	w := make([]int32, n*n) // links between two switches
	for i := 0; i < net.Links(); i++ {
		if l := net.Link(i); l.A != l.B {
			w[int(l.A)*n+int(l.B)]++
			w[int(l.B)*n+int(l.A)]++
		}
	}
	gain := func(v int) int32 {
		g := int32(0)
		for u := 0; u < n; u++ {
			if side[u] != side[v] {
				g += w[v*n+u]
			} else {
				g -= w[v*n+u]
			}
		}
		return g
	}
	g := make([]int32, n)
	for range n * n { // each swap cuts fewer links: at most as many swaps as links
		for v := range g {
			g[v] = gain(v)
		}
		bestA, bestB, best := -1, -1, int32(0)
		for a := 0; a < n; a++ {
			if !side[a] {
				continue
			}
			for b := 0; b < n; b++ {
				if !side[b] {
					if d := g[a] + g[b] - 2*w[a*n+b]; d > best {
						bestA, bestB, best = a, b, d
					}
				}
			}
		}
		if bestA < 0 {
			break
		}
		side[bestA], side[bestB] = false, true
	}
	cut := int64(0)
	for i := 0; i < net.Links(); i++ {
		if l := net.Link(i); side[l.A] != side[l.B] {
			cut++
		}
	}
	return cut
}

// jacobiEigen returns the eigenvalues of the symmetric n×n matrix a (row-major,
// overwritten) and its eigenvectors as the columns of v (v[i*n+k] is entry i of
// vector k), by cyclic Jacobi rotations until the off-diagonal part vanishes.
func jacobiEigen(a []float64, n int) ([]float64, []float64, error) {
	v := make([]float64, n*n)
	for i := 0; i < n; i++ {
		v[i*n+i] = 1
	}
	norm := 0.0
	for _, x := range a {
		norm += x * x
	}
	for sweep := 0; sweep < 100; sweep++ {
		off := 0.0
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				off += a[i*n+j] * a[i*n+j]
			}
		}
		if off <= 1e-22*norm {
			vals := make([]float64, n)
			for i := range vals {
				vals[i] = a[i*n+i]
			}
			return vals, v, nil
		}
		for p := 0; p < n; p++ {
			for q := p + 1; q < n; q++ {
				apq := a[p*n+q]
				if math.Abs(apq) < 1e-300 {
					continue
				}
				theta := (a[q*n+q] - a[p*n+p]) / (2 * apq)
				t := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for k := 0; k < n; k++ { // columns p and q
					akp, akq := a[k*n+p], a[k*n+q]
					a[k*n+p], a[k*n+q] = c*akp-s*akq, s*akp+c*akq
				}
				for k := 0; k < n; k++ { // rows p and q
					apk, aqk := a[p*n+k], a[q*n+k]
					a[p*n+k], a[q*n+k] = c*apk-s*aqk, s*apk+c*aqk
				}
				for k := 0; k < n; k++ {
					vkp, vkq := v[k*n+p], v[k*n+q]
					v[k*n+p], v[k*n+q] = c*vkp-s*vkq, s*vkp+c*vkq
				}
			}
		}
	}
	return nil, nil, fmt.Errorf("the Jacobi eigenvalue iteration did not converge in 100 sweeps")
}
