package workload

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"testing"
)

// build expands one collective over p tasks.
func build(t testing.TB, c Collective, p int) *Workload {
	t.Helper()
	b, err := NewBuilder(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AppendTo(b); err != nil {
		t.Fatalf("%s:%s over %d: %v", c.Op, c.Algorithm, p, err)
	}
	w, err := b.Build(c.Op)
	if err != nil {
		t.Fatalf("%s:%s over %d: %v", c.Op, c.Algorithm, p, err)
	}
	return w
}

// ceilLog2 is ⌈log₂ p⌉.
func ceilLog2(p int) int { return bits.Len(uint(p - 1)) }

// maxPopcount is the largest number of set bits among 0 … p−1: the height of
// Open MPI's binomial trees over p ranks.
func maxPopcount(p int) int {
	m := 0
	for v := range p {
		m = max(m, bits.OnesCount(uint(v)))
	}
	return m
}

// edges lists every message as "src>dst:bytes", in message order.
func edges(w *Workload) []string {
	var out []string
	for m := range w.Messages() {
		s, d, b := w.Message(m)
		out = append(out, fmt.Sprintf("%d>%d:%d", s, d, b))
	}
	return out
}

// Message counts, total bytes and one-port rounds of every algorithm, against the
// algorithms' closed forms, over powers of two and other sizes.
func TestCollectiveCounts(t *testing.T) {
	const b = 100
	for _, p := range []int{2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 31, 32, 33, 64, 100, 128} {
		lg, pow := ceilLog2(p), p&(p-1) == 0
		pp := 1 << (bits.Len(uint(p)) - 1) // largest power of two ≤ p
		extra := p - pp
		pairRounds := 0
		if extra > 0 {
			pairRounds = 2
		}
		// Chain: the P−1 ranks in F chains; the root reaches chain i in round i+1.
		chainRounds := 0
		{
			f := min(DefaultChains, p-1)
			long, mark := (p-1+f-1)/f, (p-1)%f
			if mark == 0 {
				mark = f
			}
			for i := range f {
				l := long
				if i >= mark {
					l = long - 1
				}
				chainRounds = max(chainRounds, i+l)
			}
		}
		neighbor := []int{p * (p - 1), p - 1} // messages, rounds: the ring's over odd p
		if p%2 == 0 {
			neighbor = []int{p * p / 2, p / 2}
		}
		bruckBlocks := int64(0) // an all-to-all block i travels once per set bit of i
		for i := 1; i < p; i++ {
			bruckBlocks += int64(bits.OnesCount(uint(i)))
		}
		gatherBytes := int64(0) // every rank but the root sends its subtree: sum of subtree sizes
		for v := 1; v < p; v++ {
			gatherBytes += int64(min(v&-v, p-v)) * b
		}
		cases := []struct {
			op, alg         string
			messages, round int
			bytes           int64
		}{
			{"bcast", "binomial", p - 1, lg, int64(p-1) * b},
			{"bcast", "pipeline", p - 1, p - 1, int64(p-1) * b},
			{"bcast", "chain", p - 1, chainRounds, int64(p-1) * b},
			{"reduce", "binomial", p - 1, maxPopcount(p), int64(p-1) * b},
			{"allgather", "ring", p * (p - 1), p - 1, int64(p*(p-1)) * b},
			{"allgather", "bruck", p * lg, lg, int64(p*(p-1)) * b},
			{"allgather", "linear", 2 * (p - 1), maxPopcount(p) + lg, gatherBytes + int64(p-1)*int64(p)*b},
			{"alltoall", "pairwise", p * (p - 1), p - 1, int64(p*(p-1)) * b},
			{"alltoall", "linear", p * (p - 1), p - 1, int64(p*(p-1)) * b},
			{"allgather", "neighbor", neighbor[0], neighbor[1], int64(p*(p-1)) * b},
			{"alltoall", "bruck", p * lg, lg, int64(p) * bruckBlocks * b},
			{"allreduce", "recursive_doubling", pp*ceilLog2(pp) + 2*extra, ceilLog2(pp) + pairRounds, int64(pp*ceilLog2(pp)+2*extra) * b},
			{"allreduce", "nonoverlapping", 2 * (p - 1), maxPopcount(p) + lg, int64(2*(p-1)) * b},
			{"gather", "binomial", p - 1, maxPopcount(p), gatherBytes},
			{"scatter", "binomial", p - 1, lg, gatherBytes},
		}
		if pow { // recursive doubling proper; otherwise Open MPI runs Bruck, tested above
			cases = append(cases, struct {
				op, alg         string
				messages, round int
				bytes           int64
			}{"allgather", "recursive_doubling", p * lg, lg, int64(p*(p-1)) * b})
		}
		for _, c := range cases {
			w := build(t, Collective{Op: c.op, Algorithm: c.alg, Bytes: b}, p)
			if w.Messages() != c.messages || w.Rounds() != c.round || w.Bytes() != c.bytes {
				t.Errorf("%s:%s over %d tasks: %d messages, %d rounds, %d bytes; want %d, %d, %d",
					c.op, c.alg, p, w.Messages(), w.Rounds(), w.Bytes(), c.messages, c.round, c.bytes)
			}
		}
	}
}

// The binomial broadcast is Open MPI's bmtree: the parent of virtual rank v is v
// without its highest bit, and a rank serves its children nearest first. The 5DT
// paper's Graph500 figure shows exactly this: 0 → 1, 2, 4, …, 64; 1 → 3, 5, 9, 17, …;
// 2 → 6, 10, 18, ….
func TestBinomialBroadcastTree(t *testing.T) {
	const p = 128
	w := build(t, Collective{Op: "bcast", Algorithm: "binomial", Bytes: 8}, p)
	children := map[int][]int{}
	for m := range w.Messages() {
		s, d, _ := w.Message(m)
		if hb := 1 << (bits.Len(uint(d)) - 1); s != d^hb {
			t.Errorf("message %d>%d: the parent of %d is %d", s, d, d, d^hb)
		}
		children[s] = append(children[s], d)
	}
	for src, want := range map[int][]int{
		0:  {1, 2, 4, 8, 16, 32, 64},
		1:  {3, 5, 9, 17, 33, 65},
		2:  {6, 10, 18, 34, 66},
		3:  {7, 11, 19, 35, 67},
		64: nil, 96: nil, 33: {97},
	} {
		if !slices.Equal(children[src], want) {
			t.Errorf("task %d sends to %v, want %v (in this order)", src, children[src], want)
		}
	}
	// A root other than 0 rotates the tree: virtual rank v is task (v + root) mod P.
	r := build(t, Collective{Op: "bcast", Algorithm: "binomial", Bytes: 8, Root: 5}, 12)
	for m := range r.Messages() {
		s, d, _ := r.Message(m)
		vs, vd := (s-5+12)%12, (d-5+12)%12
		if hb := 1 << (bits.Len(uint(vd)) - 1); vs != vd^hb {
			t.Errorf("root 5: message %d>%d is virtual %d>%d", s, d, vs, vd)
		}
	}
}

// Reduce, gather and scatter use Open MPI's in-order binomial tree: the parent of v
// is v without its lowest bit. Gather sends each subtree's blocks up, scatter down
// (farthest child first), min(lowbit(v), P−v) blocks for the subtree of v.
func TestInOrderBinomialTrees(t *testing.T) {
	const p, b = 11, 10
	lowParent := func(v int) int { return v &^ (v & -v) }
	sub := func(v int) int64 { return int64(min(v&-v, p-v)) * b }
	var want []string
	for v := 1; v < p; v++ {
		want = append(want, fmt.Sprintf("%d>%d:%d", v, lowParent(v), b))
	}
	got := edges(build(t, Collective{Op: "reduce", Algorithm: "binomial", Bytes: b}, p))
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("reduce over %d: %v, want %v", p, got, want)
	}
	got = edges(build(t, Collective{Op: "gather", Algorithm: "binomial", Bytes: b}, p))
	want = want[:0]
	for v := 1; v < p; v++ {
		want = append(want, fmt.Sprintf("%d>%d:%d", v, lowParent(v), sub(v)))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("gather over %d: %v, want %v", p, got, want)
	}
	// Scatter: the root sends its children 8, 4, 2, 1 in this order (the largest
	// subtree first), with 3, 4, 2 and 1 blocks.
	sc := build(t, Collective{Op: "scatter", Algorithm: "binomial", Bytes: b}, p)
	var root []string
	for _, e := range edges(sc) {
		if e[0] == '0' && e[1] == '>' {
			root = append(root, e)
		}
	}
	if want := []string{"0>8:30", "0>4:40", "0>2:20", "0>1:10"}; !slices.Equal(root, want) {
		t.Errorf("scatter over 11: the root sends %v, want %v", root, want)
	}
}

// Ring, pairwise, linear, recursive doubling and Bruck: who sends to whom in which
// step, and how much.
func TestExchangePeers(t *testing.T) {
	const p, b = 6, 10
	check := func(name string, w *Workload, want func(r, k int) (dst int, bytes int64)) {
		t.Helper()
		for r := range p {
			k := 0
			for _, op := range w.Program(r) {
				if op.Kind != Send {
					continue
				}
				d, n := want(r, k)
				if int(op.Peer) != d || op.N != n {
					t.Errorf("%s: send %d of task %d goes to %d with %d bytes, want %d with %d", name, k, r, op.Peer, op.N, d, n)
				}
				k++
			}
		}
	}
	check("ring", build(t, Collective{Op: "allgather", Algorithm: "ring", Bytes: b}, p),
		func(r, k int) (int, int64) { return (r + 1) % p, b })
	check("pairwise", build(t, Collective{Op: "alltoall", Algorithm: "pairwise", Bytes: b}, p),
		func(r, k int) (int, int64) { return (r + k + 1) % p, b })
	check("linear", build(t, Collective{Op: "alltoall", Algorithm: "linear", Bytes: b}, p),
		func(r, k int) (int, int64) { return (r - k - 1 + p) % p, b }) // Open MPI posts them in reverse
	// Bruck over 6: distances 1, 2, 4 with 1, 2 and min(4, 6−4) = 2 blocks, to r − d.
	check("bruck", build(t, Collective{Op: "allgather", Algorithm: "bruck", Bytes: b}, p),
		func(r, k int) (int, int64) { d := 1 << k; return (r - d + p) % p, []int64{1, 2, 2}[k] * b })
	check("recursive doubling", build(t, Collective{Op: "allgather", Algorithm: "recursive_doubling", Bytes: b}, 8),
		func(r, k int) (int, int64) { return r ^ 1<<k, int64(1<<k) * b })
	// Neighbour exchange over 6: an even rank swaps one block with r+1, then two
	// blocks with r−1, r+1, …; an odd rank starts with r−1.
	check("neighbor", build(t, Collective{Op: "allgather", Algorithm: "neighbor", Bytes: b}, p),
		func(r, k int) (int, int64) {
			n := min(k, 1) + 1
			if (r+k)%2 == 0 {
				return (r + 1) % p, int64(n) * b
			}
			return (r - 1 + p) % p, int64(n) * b
		})
	// Bruck all-to-all over 6: distances 1, 2, 4 carry the blocks {1,3,5}, {2,3}, {4,5}, to r + d.
	check("bruck all-to-all", build(t, Collective{Op: "alltoall", Algorithm: "bruck", Bytes: b}, p),
		func(r, k int) (int, int64) { d := 1 << k; return (r + d) % p, []int64{3, 2, 2}[k] * b })
	// Linear: every send before any receive; pairwise: a receive between sends.
	for _, op := range build(t, Collective{Op: "alltoall", Algorithm: "linear", Bytes: b}, p).Program(0)[:p-1] {
		if op.Kind != Send {
			t.Fatalf("linear all-to-all: task 0 receives before it has sent everything")
		}
	}
	if prog := build(t, Collective{Op: "alltoall", Algorithm: "pairwise", Bytes: b}, p).Program(0); prog[1].Kind != Recv {
		t.Errorf("pairwise all-to-all: step 1 must wait for its receive, program %v", prog[:3])
	}
}

// Allreduce by recursive doubling over 6 = 4 + 2 tasks: ranks 0 and 2 hand their
// buffer to 1 and 3 and get the result back; 1, 3, 4, 5 (new ranks 0–3) exchange at
// distances 1 and 2.
func TestAllreduceRecursiveDoublingNonPowerOfTwo(t *testing.T) {
	w := build(t, Collective{Op: "allreduce", Algorithm: "recursive_doubling", Bytes: 8}, 6)
	got := edges(w)
	want := []string{"0>1:8", "1>3:8", "1>4:8", "1>0:8", "2>3:8", "3>1:8", "3>5:8", "3>2:8", "4>5:8", "4>1:8", "5>4:8", "5>3:8"}
	if !slices.Equal(got, want) {
		t.Errorf("allreduce over 6: %v\nwant %v", got, want)
	}
}

// Open MPI's chain with 4 chains over 10 ranks: the 9 others split into chains of
// 3, 2, 2, 2: 0 → 1 → 2 → 3, 0 → 4 → 5, 0 → 6 → 7, 0 → 8 → 9.
func TestChainBroadcast(t *testing.T) {
	got := edges(build(t, Collective{Op: "bcast", Algorithm: "chain", Bytes: 8}, 10))
	want := []string{"0>1:8", "0>4:8", "0>6:8", "0>8:8", "1>2:8", "2>3:8", "4>5:8", "6>7:8", "8>9:8"}
	if !slices.Equal(got, want) {
		t.Errorf("chain over 10: %v, want %v", got, want)
	}
	// With (P−1) a multiple of the chains: 0 → 1 → 2, 0 → 3 → 4, 0 → 5 → 6, 0 → 7 → 8.
	got = edges(build(t, Collective{Op: "bcast", Algorithm: "chain", Bytes: 8}, 9))
	want = []string{"0>1:8", "0>3:8", "0>5:8", "0>7:8", "1>2:8", "3>4:8", "5>6:8", "7>8:8"}
	if !slices.Equal(got, want) {
		t.Errorf("chain over 9: %v, want %v", got, want)
	}
}

// Segmented broadcasts send every segment down the tree, the last taking the rest;
// the pipeline takes (P−1) + (S−1) rounds.
func TestSegments(t *testing.T) {
	for _, c := range []struct {
		alg                  string
		p                    int
		bytes, seg           int64
		messages, rounds     int
		lastSegment, segment int64
	}{
		{"pipeline", 8, 1000, 256, 7 * 4, 7 + 3, 232, 256},
		{"pipeline", 8, 1000, 2000, 7, 7, 1000, 1000},  // a segment past the size: one message
		{"binomial", 8, 1024, 512, 7 * 2, 6, 512, 512}, // the root sends 3 children 2 segments, one per round
	} {
		w := build(t, Collective{Op: "bcast", Algorithm: c.alg, Bytes: c.bytes, Segment: c.seg}, c.p)
		if w.Messages() != c.messages || w.Rounds() != c.rounds || w.Bytes() != int64(c.p-1)*c.bytes {
			t.Errorf("bcast:%s of %d in %d-byte segments over %d: %d messages, %d rounds, %d bytes; want %d, %d, %d",
				c.alg, c.bytes, c.seg, c.p, w.Messages(), w.Rounds(), w.Bytes(), c.messages, c.rounds, int64(c.p-1)*c.bytes)
		}
		if _, _, b := w.Message(0); b != c.segment {
			t.Errorf("bcast:%s: first segment %d bytes, want %d", c.alg, b, c.segment)
		}
		if _, _, b := w.Message(w.Messages() - 1); b != c.lastSegment {
			t.Errorf("bcast:%s: last segment %d bytes, want %d", c.alg, b, c.lastSegment)
		}
	}
	w := build(t, Collective{Op: "reduce", Algorithm: "binomial", Bytes: 1000, Segment: 300}, 4)
	if w.Messages() != 3*4 {
		t.Errorf("reduce in 4 segments over 4 tasks: %d messages, want 12", w.Messages())
	}
}

// A single task has nothing to send; bad collectives are refused with a reason.
func TestCollectiveEdges(t *testing.T) {
	for _, a := range Algorithms() {
		var c Collective
		c.Op, c.Algorithm, _ = strings.Cut(a, ":")
		if w := build(t, c, 1); w.Messages() != 0 || w.Rounds() != 0 {
			t.Errorf("%s over 1 task: %d messages", a, w.Messages())
		}
	}
	b, _ := NewBuilder(4)
	for _, c := range []Collective{
		{Op: "bcast", Algorithm: "ring"}, {Op: "scan", Algorithm: "linear"}, {Op: "bcast", Algorithm: "binomial", Root: 4},
		{Op: "allgather", Algorithm: "ring", Root: 1}, {Op: "alltoall", Algorithm: "pairwise", Segment: 8},
		{Op: "bcast", Algorithm: "binomial", Bytes: -1}, {Op: "bcast", Algorithm: "binomial", Chains: 2},
	} {
		if err := c.AppendTo(b); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}
