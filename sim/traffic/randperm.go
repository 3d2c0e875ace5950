package traffic

import (
	"fmt"
	"math/rand/v2"
	"strconv"
)

// randPerm is a random permutation without fixed points, drawn once from its own seed
// (the spec's, not the run's): every replication and every network of the same PE count
// sees the same permutation, as BookSim2's randperm does with its perm_seed. It is the
// permutation for networks whose PE count is not a power of two (a dragonfly's 1,056, a
// Slim Fly's 1,134), which bit reversal and shuffle refuse.
type randPerm struct {
	seed uint64
	to   []int32 // to[src] = dst ≠ src
}

// MaxPermSeed bounds randperm's seed so that it prints and parses back the same.
const MaxPermSeed = 1<<63 - 1

func newRandPerm(arg string, hasArg bool, l layout) (Pattern, error) {
	seed := uint64(1)
	if hasArg {
		s, err := strconv.ParseUint(arg, 10, 64)
		if err != nil || s > MaxPermSeed {
			return nil, fmt.Errorf("bad permutation seed %q: accepted is a whole number from 0 to %d, e.g. randperm:7 (default 1)", arg, uint64(MaxPermSeed))
		}
		seed = s
	}
	return &randPerm{seed: seed, to: derangement(l.n, seed)}, nil
}

// derangement draws a permutation of 0..n−1 with no fixed point, uniformly among them:
// Fisher–Yates shuffles until one has none (a shuffle has none with probability about
// 1/e, so about 2.7 shuffles on average). n ≥ 2, which the layout guarantees.
func derangement(n int, seed uint64) []int32 {
	rng := rand.New(rand.NewPCG(seed, 0x72616e647065726d)) // "randperm"
	to := make([]int32, n)
	for {
		for i := range to {
			to[i] = int32(i)
		}
		rng.Shuffle(n, func(i, j int) { to[i], to[j] = to[j], to[i] })
		fixed := false
		for i, d := range to {
			if int(d) == i {
				fixed = true
				break
			}
		}
		if !fixed {
			return to
		}
	}
}

func (p *randPerm) Name() string {
	if p.seed == 1 {
		return "randperm"
	}
	return "randperm:" + strconv.FormatUint(p.seed, 10)
}
func (p *randPerm) String() string { return p.Name() }

func (p *randPerm) Dest(src int, _ *rand.Rand) int { return int(p.to[src]) }
