package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxISLIPIterations bounds iSLIP's iterations: a switch of P ports never needs more
// than P (each iteration matches at least one pair or stops), and no switch here has
// more than a few hundred ports.
const MaxISLIPIterations = 64

// Allocator is a switch's allocator: which head packets cross the crossbar in a cycle.
// The zero value is the papers' two-stage round-robin ("rr2"): every input port picks
// one of its VCs whose head can advance, round-robin over its VCs, then every output
// port grants one of the inputs that picked it, round-robin over inputs. ISLIP is
// McKeown's iSLIP (IEEE/ACM ToN 7(2), 1999) with Iterations iterations ("islip:N"):
// every input port requests every output that one of its VCs' heads can advance to;
// every unmatched output grants the requesting unmatched input next in its
// round-robin order from its grant pointer; every input accepts the granting output
// next in its order from its accept pointer, and the VC that goes is the next, from
// the input's VC pointer, of its VCs whose head wants that output. Pointers move one
// beyond the matched partner only on an acceptance in the first iteration; later
// iterations only add matches among the ports still free. The EXTOLL switch
// arbitrates with iSLIP ([EXT] §2.1).
type Allocator struct {
	ISLIP      bool
	Iterations int // iSLIP's iterations, 1 to MaxISLIPIterations
}

// The allocators as the command line and specs name them.
const (
	AllocatorRR2   = "rr2"
	AllocatorISLIP = "islip"
)

func (a Allocator) String() string {
	if !a.ISLIP {
		return AllocatorRR2
	}
	return fmt.Sprintf("%s:%d", AllocatorISLIP, a.Iterations)
}

// MarshalText writes "islip:N", or "" for the default two-stage round-robin (so that
// records of runs with the default keep their keys).
func (a Allocator) MarshalText() ([]byte, error) {
	if a == (Allocator{}) {
		return nil, nil
	}
	return []byte(a.String()), nil
}

// UnmarshalText reads what ParseAllocator reads, and "" for the default.
func (a *Allocator) UnmarshalText(b []byte) error {
	v, err := ParseAllocator(string(b))
	*a = v
	return err
}

// ParseAllocator reads "rr2" (or "", the default), "islip" (one iteration) or
// "islip:N" with 1 to MaxISLIPIterations iterations.
func ParseAllocator(s string) (Allocator, error) {
	name, arg, hasArg := strings.Cut(strings.ToLower(strings.TrimSpace(s)), ":")
	switch {
	case name == "" && !hasArg, name == AllocatorRR2 && !hasArg:
		return Allocator{}, nil
	case name == AllocatorISLIP && !hasArg:
		return Allocator{ISLIP: true, Iterations: 1}, nil
	case name == AllocatorISLIP:
		n, err := strconv.Atoi(strings.TrimSpace(arg))
		if err != nil || n < 1 || n > MaxISLIPIterations {
			return Allocator{}, fmt.Errorf("allocator %q: iSLIP takes 1 to %d iterations, e.g. islip:2", s, MaxISLIPIterations)
		}
		return Allocator{ISLIP: true, Iterations: n}, nil
	}
	return Allocator{}, fmt.Errorf("unknown allocator %q: accepted are rr2 (two-stage round-robin, the default) and islip[:ITERATIONS]", s)
}

// validate checks an allocator set by hand rather than parsed.
func (a Allocator) validate(sw Switching) error {
	switch {
	case !a.ISLIP && a.Iterations != 0:
		return fmt.Errorf("allocator rr2 takes no iterations (%d given); for iSLIP write islip:%d", a.Iterations, a.Iterations)
	case a.ISLIP && (a.Iterations < 1 || a.Iterations > MaxISLIPIterations):
		return fmt.Errorf("iSLIP with %d iterations: accepted are 1 to %d", a.Iterations, MaxISLIPIterations)
	case a.ISLIP && sw != CutThrough:
		return fmt.Errorf("the iSLIP allocator is modelled for virtual cut-through switching, not %s: use rr2", sw)
	}
	return nil
}
