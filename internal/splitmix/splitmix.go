package splitmix

// golden is SplitMix64's increment, 2^64 divided by the golden ratio.
const golden = 0x9e3779b97f4a7c15

// Hash is SplitMix64's output for state x: its increment added, then its finaliser.
// Equal inputs give equal outputs and nearby inputs give unrelated ones, so a value
// hashed from a packet's identity is a draw that no other draw of the run moves.
func Hash(x uint64) uint64 {
	x += golden
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// Next advances the generator state x and returns its next value.
func Next(x *uint64) uint64 {
	z := Hash(*x)
	*x += golden
	return z
}

// Stream is the starting state of stream i of a family of generators seeded with seed:
// streams of one seed start far apart.
func Stream(seed uint64, i int) uint64 { return seed ^ uint64(i+1)*golden }

// Nth is value k (from 0) of the generator started at state seed, without running it:
// what a counter-based draw needs.
func Nth(seed, k uint64) uint64 { return Hash(seed + k*golden) }
