package topology

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unsafe"
)

// FamilySlimFly is the Slim Fly (Besta and Hoefler, SC 2014): the McKay–Miller–Širáň
// graph of a prime power q = 4w + δ, δ ∈ {−1, 0, 1}, a diameter-2 graph of 2q² routers
// of network radix k' = (3q − δ)/2, with p PEs per router.
const FamilySlimFly Family = "slimfly"

// MaxSlimFlyQ bounds q (2q² routers; q = 181 is 65,522 routers of radix 271).
const MaxSlimFlyQ = 181

// SlimFly is the layout of a slimfly network. Routers are (sub, a, b) with sub 0 or 1
// and a, b elements of GF(q) (numbered 0…q−1 as the field numbers them): router
// (0, x, y) has id x·q + y, router (1, m, c) id q² + m·q + c. Router (0,x,y) joins
// (0,x,y') when y − y' ∈ X, router (1,m,c) joins (1,m,c') when c − c' ∈ X', and
// (0,x,y) joins (1,m,c) when y = m·x + c ([SF] §2.1). A router's ports are its
// neighbours in its own subgraph (ascending b), then its q neighbours in the other
// (ascending m for sub 0, ascending x for sub 1), then its P terminal ports.
type SlimFly struct {
	Q, Delta, P int
	F           *GF
	X, XP       []int // generator sets X and X' (field elements, ascending)
}

// NetworkRadix is k' = (3q − δ)/2.
func (l SlimFly) NetworkRadix() int { return (3*l.Q - l.Delta) / 2 }

// Routers is 2q².
func (l SlimFly) Routers() int { return 2 * l.Q * l.Q }

// Rack is the rack of router s under [SF] §4's layout: rack i holds the 2q routers
// (0, i, ·) and (1, i, ·), so a router's own-subgraph links and its link to the router
// of the other subgraph with the same first coordinate stay inside it.
func (l SlimFly) Rack(s int) int { return s % (l.Q * l.Q) / l.Q }

// DefaultSlimFlyPEs is [SF] §3.1's concentration p = ⌈k'/2⌉, which balances the
// routers' PE ports against their network ports for uniform traffic.
func DefaultSlimFlyPEs(q, delta int) int { return ((3*q-delta)/2 + 1) / 2 }

// slimflyDelta is δ of q = 4w + δ, or an error for q ≡ 2 (mod 4).
func slimflyDelta(q int) (int, error) {
	switch q % 4 {
	case 0:
		return 0, nil
	case 1:
		return 1, nil
	case 3:
		return -1, nil
	}
	return 0, fmt.Errorf("q = %d is 2 mod 4: the MMS construction needs q = 4w + δ with δ in {−1, 0, 1}", q)
}

// NewSlimFlyLayout builds GF(q) and the generator sets of the Slim Fly of q with p
// PEs per router (0: the default).
func NewSlimFlyLayout(q, p int) (SlimFly, error) {
	delta, err := slimflyDelta(q)
	if err != nil {
		return SlimFly{}, err
	}
	f, err := NewGF(q)
	if err != nil {
		return SlimFly{}, err
	}
	if p == 0 {
		p = DefaultSlimFlyPEs(q, delta)
	}
	l := SlimFly{Q: q, Delta: delta, P: p, F: f}
	xi := f.Primitive()
	pow := func(e int) int { return f.Pow(xi, e) }
	w := (q - delta) / 4
	switch delta {
	case 1: // X = {1, ξ², …, ξ^(q−3)}, X' = {ξ, ξ³, …, ξ^(q−2)}
		for e := 0; e <= q-3; e += 2 {
			l.X = append(l.X, pow(e))
			l.XP = append(l.XP, pow(e+1))
		}
	case -1: // X = {1, ξ², …, ξ^(2w−2)} ∪ {ξ^(2w−1), ξ^(2w+1), …, ξ^(4w−3)}; X' = {ξ, ξ³, …, ξ^(2w−1)} ∪ {ξ^(2w), ξ^(2w+2), …, ξ^(4w−2)}
		for e := 0; e <= 2*w-2; e += 2 {
			l.X = append(l.X, pow(e))
		}
		for e := 2*w - 1; e <= 4*w-3; e += 2 {
			l.X = append(l.X, pow(e))
		}
		for e := 1; e <= 2*w-1; e += 2 {
			l.XP = append(l.XP, pow(e))
		}
		for e := 2 * w; e <= 4*w-2; e += 2 {
			l.XP = append(l.XP, pow(e))
		}
	case 0: // X = {1, ξ², …, ξ^(q−2)}, X' = {ξ, ξ³, …, ξ^(q−1)}
		for e := 0; e <= q-2; e += 2 {
			l.X = append(l.X, pow(e))
			l.XP = append(l.XP, pow(e+1))
		}
	}
	slices.Sort(l.X)
	slices.Sort(l.XP)
	for _, set := range [][]int{l.X, l.XP} {
		for _, g := range set {
			if !slices.Contains(set, f.Neg(g)) {
				return SlimFly{}, fmt.Errorf("slimfly q = %d: generator set %v is not closed under negation (internal error)", q, set)
			}
		}
		if len(set) != (q-delta)/2 || len(slices.Compact(slices.Clone(set))) != len(set) {
			return SlimFly{}, fmt.Errorf("slimfly q = %d: generator set %v does not have (q−δ)/2 distinct elements (internal error)", q, set)
		}
	}
	return l, nil
}

// SlimFly is the layout of a slimfly spec.
func (s Spec) SlimFly() (SlimFly, error) {
	if s.Family != FamilySlimFly || len(s.Radix) != 1 {
		return SlimFly{}, fmt.Errorf("%s is not a Slim Fly", s)
	}
	return NewSlimFlyLayout(s.Radix[0], s.PEs)
}

func slimflyFamily() FamilyDef {
	return FamilyDef{
		Name:     FamilySlimFly,
		Summary:  "Slim Fly (Besta and Hoefler 2014): the diameter-2 MMS graph of a prime power q = 4w+δ, 2q² routers of network radix (3q−δ)/2",
		Syntax:   "slimfly:Q[@P]",
		Help:     []string{"P PEs per router (default the paper's ⌈k'/2⌉); q a prime or a prime power, not 2 mod 4"},
		Examples: []string{"slimfly:5", "slimfly:7@4", "slimfly:9"},
		Parse:    parseSlimFly,
		Format: func(s Spec) string {
			out := strconv.Itoa(s.Radix[0])
			if d, err := slimflyDelta(s.Radix[0]); err == nil && s.PEs != DefaultSlimFlyPEs(s.Radix[0], d) {
				out += "@" + strconv.Itoa(s.PEs)
			}
			return out
		},
		Size:    slimflySize,
		Build:   buildSlimFly,
		Routing: "sfmin",
	}
}

func parseSlimFly(body string) (Spec, error) {
	qs, pes, hasPEs := strings.Cut(body, "@")
	q, err := strconv.Atoi(strings.TrimSpace(qs))
	if err != nil || q < 3 || q > MaxSlimFlyQ {
		return Spec{}, fmt.Errorf("slimfly: bad q %q: accepted is a prime or prime power from 3 to %d, not 2 mod 4 (e.g. 5, 7, 9, 11, 13)", qs, MaxSlimFlyQ)
	}
	delta, err := slimflyDelta(q)
	if err != nil {
		return Spec{}, fmt.Errorf("slimfly: %w", err)
	}
	if _, _, ok := primePower(q); !ok {
		return Spec{}, fmt.Errorf("slimfly: q = %d is not a prime power; GF(q) exists only for prime powers (e.g. 5, 7, 8, 9, 11, 13)", q)
	}
	p := DefaultSlimFlyPEs(q, delta)
	if hasPEs {
		if p, err = parsePEs(pes, true); err != nil {
			return Spec{}, fmt.Errorf("slimfly: %w", err)
		}
	}
	return Spec{Family: FamilySlimFly, Radix: []int{q}, PEs: p}, nil
}

func slimflySize(s Spec) Size {
	q, p := int64(s.Radix[0]), int64(max(s.PEs, 1))
	delta, _ := slimflyDelta(int(q))
	sw := 2 * q * q
	z := Size{Switches: sw, Terminals: sw * p, External: sw * (3*q - int64(delta)) / 2}
	z.TerminalPorts = z.Terminals
	z.Bytes = (sw+1)*int64(unsafe.Sizeof(int32(0))) + z.Ports()*int64(unsafe.Sizeof(Port{})) +
		z.Terminals*int64(unsafe.Sizeof(Attachment{})) + z.External/2*int64(unsafe.Sizeof(Link{}))*5/4
	return z
}

func buildSlimFly(s Spec) (*Network, error) {
	l, err := s.SlimFly()
	if err != nil {
		return nil, err
	}
	q, f := l.Q, l.F
	z := slimflySize(s)
	b := NewBuilder(s.String())
	b.grow(int(z.Ports()), int(z.External/2))
	b.pes = make([]int32, 0, z.Terminals)
	id := func(sub, a, c int) int { return sub*q*q + a*q + c }
	// The neighbours of every router, in port order.
	nbr := make([][]int, l.Routers())
	for sub := 0; sub < 2; sub++ {
		gens := l.X
		if sub == 1 {
			gens = l.XP
		}
		for a := 0; a < q; a++ {
			for c := 0; c < q; c++ {
				r := id(sub, a, c)
				b.AddSwitch("")
				b.SetClass(r, "subgraph "+strconv.Itoa(sub))
				var own []int
				for _, g := range gens {
					own = append(own, f.Add(c, g)) // c' with c' − c = g, i.e. c − c' ∈ −X = X
				}
				slices.Sort(own)
				for _, c2 := range own {
					nbr[r] = append(nbr[r], id(sub, a, c2))
				}
				for o := 0; o < q; o++ {
					if sub == 0 { // (0,x=a,y=c) — (1,m=o,c'=y−m·x)
						nbr[r] = append(nbr[r], id(1, o, f.Sub(c, f.Mul(o, a))))
					} else { // (1,m=a,c) — (0,x=o,y=m·x+c)
						nbr[r] = append(nbr[r], id(0, o, f.Add(f.Mul(a, o), c)))
					}
				}
			}
		}
	}
	portOf := func(r, peer int) int { return slices.Index(nbr[r], peer) }
	for r := range nbr {
		for _, peer := range nbr[r] {
			sub, a := peer/(q*q), peer%(q*q)/q
			b.AddPort(r, LabelRole(fmt.Sprintf("s%d,%d,%d", sub, a, peer%q)))
		}
		for range l.P {
			b.AttachPE(r)
		}
	}
	for r := range nbr {
		for p, peer := range nbr[r] {
			if peer > r {
				pp := portOf(peer, r)
				if pp < 0 {
					return nil, fmt.Errorf("slimfly q = %d: router %d lists %d as a neighbour but not conversely (internal error)", q, r, peer)
				}
				b.Connect(PortRef{r, p}, PortRef{peer, pp})
			}
		}
	}
	net, err := b.Build()
	if err != nil {
		return nil, err
	}
	net.spec, net.routing = s, "sfmin"
	return net, nil
}

// GF is the finite field of q = p^m elements, numbered 0…q−1 by the base-p digits of
// their coefficients (element Σ a_i t^i is Σ a_i p^i), with the tables of its
// operations: for the prime fields the integers mod p, for prime powers polynomials
// over GF(p) modulo the lowest monic irreducible polynomial of degree m (any one gives
// the same field up to isomorphism, and the MMS graph up to isomorphism).
type GF struct {
	Q, P, M  int
	add, mul []int // q×q tables
}

// NewGF makes GF(q) for a prime power q up to MaxSlimFlyQ.
func NewGF(q int) (*GF, error) {
	p, m, ok := primePower(q)
	if !ok || q > MaxSlimFlyQ {
		return nil, fmt.Errorf("GF(%d): accepted are primes and prime powers up to %d", q, MaxSlimFlyQ)
	}
	g := &GF{Q: q, P: p, M: m, add: make([]int, q*q), mul: make([]int, q*q)}
	digits := func(v int) []int {
		d := make([]int, m)
		for i := range d {
			d[i], v = v%p, v/p
		}
		return d
	}
	value := func(d []int) int {
		v := 0
		for i := m - 1; i >= 0; i-- {
			v = v*p + d[i]
		}
		return v
	}
	// The lowest monic irreducible polynomial of degree m: t^m + Σ r_i t^i, r as a
	// number; irreducible when no polynomial of lower degree ≥ 1 divides it, which for
	// m ≤ 3 is having no root, and for m ≥ 4 is checked by trial division.
	var red []int // coefficients r_0…r_(m−1)
	if m > 1 {
		for r := 0; r < q; r++ {
			cand := append(digits(r), 1)
			if irreducible(cand, p) {
				red = digits(r)
				break
			}
		}
		if red == nil {
			return nil, fmt.Errorf("GF(%d): no irreducible polynomial of degree %d found (internal error)", q, m)
		}
	}
	for a := 0; a < q; a++ {
		da := digits(a)
		for b := 0; b < q; b++ {
			db := digits(b)
			sum := make([]int, m)
			for i := range sum {
				sum[i] = (da[i] + db[i]) % p
			}
			g.add[a*q+b] = value(sum)
			prod := make([]int, 2*m-1)
			for i := range da {
				for j := range db {
					prod[i+j] = (prod[i+j] + da[i]*db[j]) % p
				}
			}
			for k := 2*m - 2; k >= m; k-- { // t^m = −Σ r_i t^i
				c := prod[k]
				prod[k] = 0
				for i := 0; i < m; i++ {
					prod[k-m+i] = ((prod[k-m+i]-c*red[i])%p + p) % p
				}
			}
			g.mul[a*q+b] = value(prod[:m])
		}
	}
	return g, nil
}

// irreducible reports whether the monic polynomial c (coefficients c_0…c_n, c_n = 1)
// over GF(p) has no factor of degree 1 to n/2, by trial division by every monic one.
func irreducible(c []int, p int) bool {
	n := len(c) - 1
	for deg := 1; 2*deg <= n; deg++ {
		count := 1
		for range deg {
			count *= p
		}
		for r := 0; r < count; r++ {
			div := make([]int, deg+1)
			v := r
			for i := 0; i < deg; i++ {
				div[i], v = v%p, v/p
			}
			div[deg] = 1
			rem := slices.Clone(c)
			for k := n; k >= deg; k-- {
				f := rem[k]
				for i := 0; i <= deg; i++ {
					rem[k-deg+i] = ((rem[k-deg+i]-f*div[i])%p + p) % p
				}
			}
			zero := true
			for _, x := range rem[:deg] {
				zero = zero && x == 0
			}
			if zero {
				return false
			}
		}
	}
	return true
}

// primePower returns p and m with q = p^m, p prime, or ok false.
func primePower(q int) (p, m int, ok bool) {
	if q < 2 {
		return 0, 0, false
	}
	for p = 2; p*p <= q; p++ {
		if q%p == 0 {
			break
		}
	}
	if p*p > q {
		p = q
	}
	for v := q; v > 1; v /= p {
		if v%p != 0 {
			return 0, 0, false
		}
		m++
	}
	return p, m, true
}

// Add, Sub, Mul and Neg are the field's operations.
func (g *GF) Add(a, b int) int { return g.add[a*g.Q+b] }

// Mul is a·b.
func (g *GF) Mul(a, b int) int { return g.mul[a*g.Q+b] }

// Neg is −a.
func (g *GF) Neg(a int) int {
	for b := 0; b < g.Q; b++ {
		if g.add[a*g.Q+b] == 0 {
			return b
		}
	}
	panic("GF: no additive inverse") // a field has one
}

// Sub is a − b.
func (g *GF) Sub(a, b int) int { return g.Add(a, g.Neg(b)) }

// Pow is a^e (e ≥ 0).
func (g *GF) Pow(a, e int) int {
	r := 1
	for range e {
		r = g.Mul(r, a)
	}
	return r
}

// Order is the multiplicative order of a ≠ 0.
func (g *GF) Order(a int) int {
	r, n := a, 1
	for r != 1 {
		r, n = g.Mul(r, a), n+1
	}
	return n
}

// Primitive is the lowest-numbered primitive element ξ (of order q − 1).
func (g *GF) Primitive() int {
	for a := 1; a < g.Q; a++ {
		if g.Order(a) == g.Q-1 {
			return a
		}
	}
	panic("GF: no primitive element") // every finite field has one
}
