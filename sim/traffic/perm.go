package traffic

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// idKind is a permutation of PE ids.
type idKind uint8

const (
	bitrev idKind = iota
	shuffle
	butterfly
	complement
	transpose
)

func (k idKind) String() string {
	switch k {
	case bitrev:
		return "bitrev"
	case shuffle:
		return "shuffle"
	case butterfly:
		return "butterfly"
	case complement:
		return "complement"
	}
	return "transpose"
}

// idPerm is a permutation computed from the PE id alone.
type idPerm struct {
	kind    idKind
	n       int // PEs
	b       int // bits of an id (N = 2^b), bit permutations only
	m       int // side of the square (N = m²), transpose only
	silentN int
}

func newBitPerm(kind idKind, l layout) (Pattern, error) {
	if bits.OnesCount(uint(l.n)) != 1 {
		return nil, fmt.Errorf("%s permutes the bits of PE ids and needs a power-of-two number of PEs; %s has %d (complement, transpose, tornado and neighbor do not need one)", kind, l.spec, l.n)
	}
	return finishIDPerm(&idPerm{kind: kind, n: l.n, b: bits.TrailingZeros(uint(l.n))}), nil
}

func newBitrev(l layout) (Pattern, error)    { return newBitPerm(bitrev, l) }
func newShuffle(l layout) (Pattern, error)   { return newBitPerm(shuffle, l) }
func newButterfly(l layout) (Pattern, error) { return newBitPerm(butterfly, l) }

func newComplement(l layout) (Pattern, error) {
	return finishIDPerm(&idPerm{kind: complement, n: l.n}), nil
}

func newTranspose(l layout) (Pattern, error) {
	m := int(math.Sqrt(float64(l.n)))
	for m*m > l.n {
		m--
	}
	for (m+1)*(m+1) <= l.n {
		m++
	}
	if m*m != l.n {
		return nil, fmt.Errorf("transpose needs a square number of PEs (m·m); %s has %d", l.spec, l.n)
	}
	return finishIDPerm(&idPerm{kind: transpose, n: l.n, m: m}), nil
}

func finishIDPerm(p *idPerm) *idPerm {
	p.silentN = countFixed(p.n, p.apply)
	return p
}

func (p *idPerm) Name() string   { return p.kind.String() }
func (p *idPerm) String() string { return p.Name() }
func (p *idPerm) silent() int    { return p.silentN }

func (p *idPerm) Dest(src int, _ *rand.Rand) int {
	if d := p.apply(src); d != src {
		return d
	}
	return -1
}

func (p *idPerm) apply(s int) int {
	switch p.kind {
	case bitrev:
		return int(bits.Reverse64(uint64(s)) >> (64 - p.b))
	case shuffle:
		return (s<<1 | s>>(p.b-1)) & (p.n - 1)
	case butterfly:
		hi, lo := s>>(p.b-1)&1, s&1
		return s&^(1<<(p.b-1)|1) | lo<<(p.b-1) | hi
	case complement:
		return p.n - 1 - s
	default: // transpose
		return s%p.m*p.m + s/p.m
	}
}

// coordPerm moves every node coordinate by a fixed shift and keeps the PE's slot.
type coordPerm struct {
	name    string
	perNode int
	radix   []int
	shift   []int // added to coordinate i, modulo radix[i]
	silentN int
}

func newTornado(l layout) (Pattern, error) {
	if err := l.grid("tornado"); err != nil {
		return nil, err
	}
	shift := make([]int, len(l.radix))
	for i, k := range l.radix {
		shift[i] = (k+1)/2 - 1 // ⌈k/2⌉ − 1: the longest minimal distance that is not a tie
	}
	return newCoordPerm("tornado", l, shift), nil
}

func newNeighbor(l layout) (Pattern, error) {
	if err := l.grid("neighbor"); err != nil {
		return nil, err
	}
	shift := make([]int, len(l.radix))
	for i := range shift {
		shift[i] = 1
	}
	return newCoordPerm("neighbor", l, shift), nil
}

// newShift is the dimension-aligned shift "shift[:D[+S]]": node coordinate D moves by
// S (default dimension 0 by 1), the other coordinates and the PE's slot stay. On a
// HyperX every switch then sends all its PEs' traffic to one switch of its line in
// dimension D, which one direct link (K under trunking) joins: [HX]'s adversarial
// case for dimension-order routing.
func newShift(arg string, l layout) (Pattern, error) {
	if err := l.grid("shift"); err != nil {
		return nil, err
	}
	d, by := 0, 1
	if arg != "" {
		ds, ss, hasS := strings.Cut(arg, "+")
		var err error
		if d, err = strconv.Atoi(strings.TrimSpace(ds)); err != nil || d < 0 || d >= len(l.radix) {
			return nil, fmt.Errorf("shift: bad dimension %q: accepted is 0 to %d (the network has %d dimensions), e.g. shift:1 or shift:0+2", ds, len(l.radix)-1, len(l.radix))
		}
		if hasS {
			if by, err = strconv.Atoi(strings.TrimSpace(ss)); err != nil || by < 1 || by >= l.radix[d] {
				return nil, fmt.Errorf("shift: bad offset %q: accepted is 1 to %d (dimension %d has %d nodes)", ss, l.radix[d]-1, d, l.radix[d])
			}
		}
	}
	shift := make([]int, len(l.radix))
	shift[d] = by
	name := "shift"
	switch {
	case by != 1:
		name += fmt.Sprintf(":%d+%d", d, by)
	case d != 0:
		name += ":" + strconv.Itoa(d)
	}
	return newCoordPerm(name, l, shift), nil
}

func newCoordPerm(name string, l layout, shift []int) *coordPerm {
	p := &coordPerm{name: name, perNode: l.perNode, radix: l.radix, shift: shift}
	p.silentN = countFixed(l.n, p.apply)
	return p
}

func (p *coordPerm) Name() string   { return p.name }
func (p *coordPerm) String() string { return p.name }
func (p *coordPerm) silent() int    { return p.silentN }

func (p *coordPerm) Dest(src int, _ *rand.Rand) int {
	if d := p.apply(src); d != src {
		return d
	}
	return -1
}

func (p *coordPerm) apply(s int) int {
	node, slot := s/p.perNode, s%p.perNode
	dst, stride := 0, 1
	for i, k := range p.radix {
		dst += (node%k + p.shift[i]) % k * stride
		node /= k
		stride *= k
	}
	return slot + p.perNode*dst
}

// countFixed is the number of PEs that f maps to themselves.
func countFixed(n int, f func(int) int) int {
	c := 0
	for s := range n {
		if f(s) == s {
			c++
		}
	}
	return c
}

// renumbered is an id permutation applied to ids that number the nodes with their
// coordinates in another order: PE s has id fwd[s], and the message goes to the PE
// whose id is the permutation of fwd[s]. Permutations act on PE ids, so how ids are
// laid over the network is part of the pattern; [TT] §6.2 does not state its layout.
type renumbered struct {
	perm     *idPerm
	order    string  // the coordinates from the fastest-varying, e.g. "yx"
	fwd, inv []int32 // PE -> id and id -> PE
	silentN  int
}

// coordLetters name a grid's coordinates in a numbering order; a grid of more
// dimensions names them by index (coordDigits), which smaller ones accept too.
const coordLetters, coordDigits = "xyz", "0123456789"

// newRenumbered applies perm to the ids of l's PEs numbered slot + P·(c_o0 +
// K_o0·(c_o1 + ...)), the coordinates taken in order (a word of coordLetters or
// coordDigits, the first varying fastest). The natural order ("xy", "xyz", "012...")
// returns perm itself.
func newRenumbered(perm *idPerm, order string, l layout) (Pattern, error) {
	if err := l.grid(perm.kind.String() + "/" + order); err != nil {
		return nil, err
	}
	dims := len(l.radix)
	if dims > len(coordDigits) {
		return nil, fmt.Errorf("numbering order %q: orders name at most %d coordinates, and %s has %d dimensions", order, len(coordDigits), l.spec, dims)
	}
	names := coordDigits[:dims]
	if dims <= len(coordLetters) {
		names = coordLetters[:dims]
	}
	axes := make([]int, 0, dims)
	for _, r := range order {
		d := strings.IndexRune(names, r)
		if d < 0 {
			d = strings.IndexRune(coordDigits[:dims], r)
		}
		if d < 0 || slices.Contains(axes, d) {
			break
		}
		axes = append(axes, d)
	}
	if len(axes) != dims || len(order) != dims {
		return nil, fmt.Errorf("bad numbering order %q: write the %d coordinates of %s from the fastest-varying, each once, e.g. %s (the default, id = %c + K·(%c...)) or %s", order, dims, l.spec, names, names[0], names[1%dims], reverse(names))
	}
	canon := make([]byte, dims)
	for i, d := range axes {
		canon[i] = names[d]
	}
	if order = string(canon); order == names {
		return perm, nil
	}
	r := &renumbered{perm: perm, order: order, fwd: make([]int32, l.n), inv: make([]int32, l.n)}
	coord := make([]int, dims)
	for s := range l.n {
		node, slot := s/l.perNode, s%l.perNode
		for d, k := range l.radix {
			coord[d], node = node%k, node/k
		}
		id, stride := 0, 1
		for _, d := range axes {
			id += coord[d] * stride
			stride *= l.radix[d]
		}
		id = slot + l.perNode*id
		r.fwd[s], r.inv[id] = int32(id), int32(s)
	}
	r.silentN = countFixed(l.n, r.apply)
	return r, nil
}

func reverse(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}

func (r *renumbered) Name() string   { return r.perm.Name() + "/" + r.order }
func (r *renumbered) String() string { return r.Name() }
func (r *renumbered) silent() int    { return r.silentN }

func (r *renumbered) apply(s int) int { return int(r.inv[r.perm.apply(int(r.fwd[s]))]) }

func (r *renumbered) Dest(src int, _ *rand.Rand) int {
	if d := r.apply(src); d != src {
		return d
	}
	return -1
}
