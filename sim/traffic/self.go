package traffic

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
)

// SelfSuffix turns on messages from a PE to itself: PATTERN+self.
const SelfSuffix = "+self"

// withSelf is a pattern whose PEs also send to themselves, as BookSim2's patterns do:
// uniform draws among all N PEs, the source included, and a permutation's fixed points
// send to themselves instead of staying silent. The engine sends such a message into
// the source's switch and back out of its terminal port (Self reports it).
type withSelf struct {
	inner Pattern
	n     int
}

// Self reports whether p's PEs send to themselves (a PATTERN+self spec): the engine
// sends a message whose destination is its source only then.
func Self(p Pattern) bool {
	_, ok := p.(*withSelf)
	return ok
}

// addSelf wraps p, which must be uniform or a permutation.
func addSelf(p Pattern, n int) (Pattern, error) {
	switch p.(type) {
	case uniform, *idPerm, *coordPerm, *renumbered:
		return &withSelf{inner: p, n: n}, nil
	}
	return nil, errors.New("+self applies to uniform and the permutations (bitrev, shuffle, butterfly, complement, transpose, tornado, neighbor)")
}

func (s *withSelf) Name() string   { return s.inner.Name() + SelfSuffix }
func (s *withSelf) String() string { return fmt.Sprint(s.inner) + SelfSuffix }
func (s *withSelf) silent() int    { return 0 }

func (s *withSelf) Dest(src int, rng *rand.Rand) int {
	if _, ok := s.inner.(uniform); ok {
		return rng.IntN(s.n)
	}
	if d := s.inner.Dest(src, rng); d >= 0 {
		return d
	}
	return src // a fixed point
}

// cutSelf splits a spec's +self suffix off.
func cutSelf(spec string) (string, bool, error) {
	base, ok := strings.CutSuffix(strings.ToLower(spec), SelfSuffix)
	if !ok {
		return spec, false, nil
	}
	if strings.Contains(base, "+") {
		return "", false, fmt.Errorf("%q: one +self at most, at the end", spec)
	}
	return strings.TrimSpace(spec[:len(base)]), true, nil
}
