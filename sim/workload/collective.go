package workload

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// Collective is one MPI collective over all the tasks of a workload, expanded into
// point-to-point messages with one of Open MPI's coll/base algorithms, named as Open
// MPI names it. Bytes is the buffer of a broadcast, reduce or allreduce, and the block
// each task contributes to an allgather or gather, receives from a scatter, or sends
// to every other task in an all-to-all (MPI's count times the type size).
//
// Sends are eager and non-blocking; a receive waits for the whole message. Open MPI's
// waits on its own sends complete at once under this model, so they add nothing.
// Reductions cost no compute cycles: the network is what is measured.
type Collective struct {
	Op        string // bcast, reduce, allgather, alltoall, allreduce, gather, scatter
	Algorithm string // Open MPI's name in lower case, see Algorithms
	Bytes     int64
	Root      int   // bcast, reduce, gather, scatter
	Segment   int64 // bcast and reduce: segments of this many bytes, pipelined; 0 = one message
	Chains    int   // bcast chain: the number of chains (Open MPI's chain fanout, default 4)
}

// collectiveAlg expands one algorithm.
type collectiveAlg struct {
	name   string
	params []string // the parameters it takes besides the size
	gen    func(c Collective, b *Builder)
}

// collectives are the operations and their algorithms, in the order of the grammar.
var collectives = []struct {
	op   string
	algs []collectiveAlg
}{
	{"bcast", []collectiveAlg{
		{"binomial", []string{"root", "seg"}, bcastBinomial},
		{"chain", []string{"root", "seg", "chains"}, bcastChain},
		{"pipeline", []string{"root", "seg"}, bcastPipeline},
	}},
	{"reduce", []collectiveAlg{{"binomial", []string{"root", "seg"}, reduceBinomial}}},
	{"allgather", []collectiveAlg{
		{"ring", nil, allgatherRing},
		{"recursive_doubling", nil, allgatherRecursiveDoubling},
		{"bruck", nil, allgatherBruck},
		{"linear", nil, allgatherLinear},
		{"neighbor", nil, allgatherNeighborExchange},
	}},
	{"alltoall", []collectiveAlg{
		{"pairwise", nil, alltoallPairwise},
		{"linear", nil, alltoallLinear},
		{"bruck", nil, alltoallBruck},
	}},
	{"allreduce", []collectiveAlg{
		{"recursive_doubling", nil, allreduceRecursiveDoubling},
		{"nonoverlapping", nil, allreduceNonoverlapping},
	}},
	{"gather", []collectiveAlg{{"binomial", []string{"root"}, gatherBinomial}}},
	{"scatter", []collectiveAlg{{"binomial", []string{"root"}, scatterBinomial}}},
}

// algorithmAliases are other names of algorithms: Open MPI's "reduce + broadcast"
// allreduce is its "nonoverlapping" one, its neighbour-exchange allgather has the
// function name neighborexchange, and its Bruck all-to-all the forced-algorithm name
// modified_bruck.
var algorithmAliases = map[string]string{"reduce_bcast": "nonoverlapping", "neighbor_exchange": "neighbor", "modified_bruck": "bruck"}

// DefaultChains is Open MPI's default chain fanout (coll_tuned_bcast_algorithm_chain_fanout).
const DefaultChains = 4

// Algorithms lists every collective operation with its algorithms, "op:alg" in the
// grammar's order.
func Algorithms() []string {
	var out []string
	for _, c := range collectives {
		for _, a := range c.algs {
			out = append(out, c.op+":"+a.name)
		}
	}
	return out
}

// lookup finds the algorithm of a collective, or says what is accepted.
func (c Collective) lookup() (collectiveAlg, error) {
	var ops []string
	for _, e := range collectives {
		ops = append(ops, e.op)
		if e.op != c.Op {
			continue
		}
		alg := c.Algorithm
		if a, ok := algorithmAliases[alg]; ok {
			alg = a
		}
		var names []string
		for _, a := range e.algs {
			if a.name == alg {
				return a, nil
			}
			names = append(names, a.name)
		}
		return collectiveAlg{}, fmt.Errorf("unknown %s algorithm %q: accepted are %s", c.Op, c.Algorithm, strings.Join(names, ", "))
	}
	return collectiveAlg{}, fmt.Errorf("unknown operation %q: accepted are %s", c.Op, strings.Join(ops, ", "))
}

// check says what is wrong with the collective over p tasks, if anything.
func (c Collective) check(p int) error {
	a, err := c.lookup()
	if err != nil {
		return err
	}
	switch {
	case c.Bytes < 0 || c.Bytes > MaxMessageBytes:
		return fmt.Errorf("%s of %d bytes: accepted are 0B to 1GiB", c.Op, c.Bytes)
	case a.name == "linear" && c.Op == "allgather" && c.Bytes*int64(p) > MaxMessageBytes:
		return fmt.Errorf("allgather:linear broadcasts all %d blocks of %d bytes in one message: over 1GiB", p, c.Bytes)
	case c.Root < 0 || c.Root >= p:
		return fmt.Errorf("root %d: accepted are tasks 0 to %d", c.Root, p-1)
	case c.Root != 0 && !slices.Contains(a.params, "root"):
		return fmt.Errorf("%s:%s has no root", c.Op, a.name)
	case c.Segment < 0:
		return fmt.Errorf("segment of %d bytes: accepted are 0 (none) or more", c.Segment)
	case c.Segment != 0 && !slices.Contains(a.params, "seg"):
		return fmt.Errorf("%s:%s is not segmented", c.Op, a.name)
	case c.Chains != 0 && !slices.Contains(a.params, "chains"):
		return fmt.Errorf("%s:%s has no chains", c.Op, a.name)
	case c.Chains < 0 || c.Chains > MaxTasks:
		return fmt.Errorf("%d chains: accepted are 1 or more", c.Chains)
	}
	if segs := c.segments(); segs > int64(MaxOps) {
		return fmt.Errorf("%d segments of %d bytes: accepted are at most %d", segs, c.Segment, MaxOps)
	}
	// The messages, not only the segments: a broadcast of 1 MiB in 1-byte segments
	// over 64 tasks is 66 million messages, and took 5.7 GB before the builder's
	// count of operations refused it.
	if m := c.messages(p); m > MaxOps/2 {
		return fmt.Errorf("%s:%s over %d tasks sends %d messages, %d operations: accepted are at most %d operations over all tasks (about %d bytes each)", c.Op, a.name, p, m, 2*m, MaxOps, OpBytes)
	}
	return nil
}

// messages is the number of messages the collective sends over p tasks, each a send
// and a receive, counted as each algorithm below sends them (the tests hold it to
// what they build), so that a collective is bounded before it is expanded.
func (c Collective) messages(p int) int64 {
	if p <= 1 {
		return 0
	}
	a, _ := c.lookup()
	n := int64(p)
	steps := int64(bits.Len(uint(p - 1))) // distances 1, 2, 4, … below p
	switch c.Op + ":" + a.name {
	case "bcast:binomial", "bcast:chain", "bcast:pipeline", "reduce:binomial":
		return (n - 1) * c.segments() // every task but the root hears of each segment once
	case "gather:binomial", "scatter:binomial":
		return n - 1
	case "allgather:linear", "allreduce:nonoverlapping":
		return 2 * (n - 1) * c.segments()
	case "allgather:ring", "alltoall:pairwise", "alltoall:linear":
		return n * (n - 1)
	case "allgather:recursive_doubling", "allgather:bruck", "alltoall:bruck":
		return n * steps
	case "allgather:neighbor":
		if p%2 != 0 {
			return n * (n - 1) // the ring
		}
		return n * (n / 2)
	case "allreduce:recursive_doubling":
		pow := int64(1) << (bits.Len(uint(p)) - 1)
		return 2*(n-pow) + pow*int64(bits.Len(uint(pow))-1)
	}
	// An algorithm without its count: every one sends at most P·(P−1) messages per
	// segment.
	return n * (n - 1) * c.segments()
}

// segments is the number of segments of the message.
func (c Collective) segments() int64 {
	if c.Segment <= 0 || c.Segment >= c.Bytes {
		return 1
	}
	return (c.Bytes + c.Segment - 1) / c.Segment
}

// segment is the size of segment s (Open MPI's last segment takes the remainder).
func (c Collective) segment(s int64) int64 {
	n := c.segments()
	if n == 1 {
		return c.Bytes
	}
	if s == n-1 {
		return c.Bytes - (n-1)*c.Segment
	}
	return c.Segment
}

// AppendTo appends the collective to the programs of every task of b, after what
// they already hold: a workload can be a sequence of collectives.
func (c Collective) AppendTo(b *Builder) error {
	p := b.Tasks()
	if err := c.check(p); err != nil {
		return err
	}
	if p > 1 {
		a, _ := c.lookup()
		a.gen(c, b)
	}
	return b.err
}

// rankOf is the task of virtual rank v under root r.
func rankOf(v, root, p int) int { return (v + root) % p }

// treeBcast is Open MPI's generic tree broadcast (bcast_intra_generic): per segment,
// a rank receives it from its parent and sends it to each child in order.
func treeBcast(c Collective, b *Builder, tree func(v, p int) (int, []int)) {
	p := b.Tasks()
	for v := range p {
		t := rankOf(v, c.Root, p)
		parent, children := tree(v, p)
		for s := range c.segments() {
			if parent >= 0 {
				b.Recv(t, rankOf(parent, c.Root, p))
			}
			for _, ch := range children {
				b.Send(t, rankOf(ch, c.Root, p), c.segment(s))
			}
		}
	}
}

func bcastBinomial(c Collective, b *Builder) { treeBcast(c, b, bmtree) }

func bcastPipeline(c Collective, b *Builder) {
	treeBcast(c, b, func(v, p int) (int, []int) { return chain(v, p, 1) })
}

func bcastChain(c Collective, b *Builder) {
	f := c.Chains
	if f == 0 {
		f = DefaultChains
	}
	treeBcast(c, b, func(v, p int) (int, []int) { return chain(v, p, f) })
}

// reduceBinomial is Open MPI's binomial reduce (reduce_intra_binomial: the generic
// reduce on the in-order binomial tree): per segment, a rank receives it from each
// child in order, then sends the reduced segment to its parent.
func reduceBinomial(c Collective, b *Builder) {
	p := b.Tasks()
	for v := range p {
		t := rankOf(v, c.Root, p)
		parent, children := inOrderBmtree(v, p)
		for s := range c.segments() {
			for _, ch := range children {
				b.Recv(t, rankOf(ch, c.Root, p))
			}
			if parent >= 0 {
				b.Send(t, rankOf(parent, c.Root, p), c.segment(s))
			}
		}
	}
}

// allgatherRing: in step i = 0 … P−2, rank r sends a block to r+1 and receives one
// from r−1 (allgather_intra_ring).
func allgatherRing(c Collective, b *Builder) {
	p := b.Tasks()
	for r := range p {
		for range p - 1 {
			b.Send(r, (r+1)%p, c.Bytes)
			b.Recv(r, (r-1+p)%p)
		}
	}
}

// allgatherRecursiveDoubling: at distance d = 1, 2, 4, …, rank r exchanges the d
// blocks it holds with r XOR d (allgather_intra_recursivedoubling). Open MPI runs
// Bruck instead when P is not a power of two, and so does this.
func allgatherRecursiveDoubling(c Collective, b *Builder) {
	p := b.Tasks()
	if p&(p-1) != 0 {
		allgatherBruck(c, b)
		return
	}
	for r := range p {
		for d := 1; d < p; d <<= 1 {
			b.Send(r, r^d, int64(d)*c.Bytes)
			b.Recv(r, r^d)
		}
	}
}

// allgatherBruck is Open MPI's Bruck allgather with radix 2 (allgather_intra_k_bruck):
// at distance d = 1, 2, 4, … < P, rank r sends its first min(d, P−d) blocks (d while
// d ≤ P/2) to r−d and receives as many from r+d.
func allgatherBruck(c Collective, b *Builder) {
	p := b.Tasks()
	for r := range p {
		for d := 1; d < p; d *= 2 {
			blocks := d
			if d > p/2 {
				blocks = min(d, p-d)
			}
			b.Send(r, (r-d+p)%p, int64(blocks)*c.Bytes)
			b.Recv(r, (r+d)%p)
		}
	}
}

// allgatherLinear is Open MPI's basic_linear allgather (allgather_intra_basic_linear):
// a gather of every block into rank 0, then a broadcast of all P blocks from it (both
// binomial here, as the tuned component picks for these sizes).
func allgatherLinear(c Collective, b *Builder) {
	p := int64(b.Tasks())
	gatherBinomial(Collective{Op: "gather", Algorithm: "binomial", Bytes: c.Bytes}, b)
	bcastBinomial(Collective{Op: "bcast", Algorithm: "binomial", Bytes: c.Bytes * p}, b)
}

// allgatherNeighborExchange is Open MPI's neighbour-exchange allgather
// (allgather_intra_neighborexchange), its default for P even and P blocks of 50,000
// bytes or more: an even rank's neighbours are r+1 and r−1, an odd rank's r−1 and
// r+1; in step 0 a rank swaps its own block with its first neighbour, in steps
// i = 1 … P/2−1 the two blocks it received last with neighbour i mod 2. Over an odd
// number of tasks Open MPI runs the ring instead, and so does this.
func allgatherNeighborExchange(c Collective, b *Builder) {
	p := b.Tasks()
	if p%2 != 0 {
		allgatherRing(c, b)
		return
	}
	for r := range p {
		nb := [2]int{(r + 1) % p, (r - 1 + p) % p}
		if r%2 != 0 {
			nb[0], nb[1] = nb[1], nb[0]
		}
		b.Send(r, nb[0], c.Bytes)
		b.Recv(r, nb[0])
		for i := 1; i < p/2; i++ {
			b.Send(r, nb[i%2], 2*c.Bytes)
			b.Recv(r, nb[i%2])
		}
	}
}

// alltoallPairwise: in step s = 1 … P−1, rank r sends to r+s and receives from r−s,
// each step after the previous one's receive (alltoall_intra_pairwise).
func alltoallPairwise(c Collective, b *Builder) {
	p := b.Tasks()
	for r := range p {
		for s := 1; s < p; s++ {
			b.Send(r, (r+s)%p, c.Bytes)
			b.Recv(r, (r-s+p)%p)
		}
	}
}

// alltoallLinear: every rank posts all its sends at once, to r−1, r−2, … (Open MPI
// posts them in reverse order), then waits for the receives from r+1, r+2, …
// (alltoall_intra_basic_linear).
func alltoallLinear(c Collective, b *Builder) {
	p := b.Tasks()
	for r := range p {
		for i := 1; i < p; i++ {
			b.Send(r, (r-i+p)%p, c.Bytes)
		}
		for i := 1; i < p; i++ {
			b.Recv(r, (r+i)%p)
		}
	}
}

// alltoallBruck is Open MPI's (modified) Bruck all-to-all (alltoall_intra_bruck), its
// default for blocks under 200 bytes over more than 12 tasks: at distance d = 1, 2,
// 4, … < P, rank r sends to r+d, in one message, the blocks i = 1 … P−1 whose bit d
// is set, and receives as many from r−d.
func alltoallBruck(c Collective, b *Builder) {
	p := b.Tasks()
	for d := 1; d < p; d <<= 1 {
		blocks := int64(0)
		for i := 1; i < p; i++ {
			if i&d != 0 {
				blocks++
			}
		}
		for r := range p {
			b.Send(r, (r+d)%p, blocks*c.Bytes)
			b.Recv(r, (r-d+p)%p)
		}
	}
}

// allreduceRecursiveDoubling is Open MPI's allreduce_intra_recursivedoubling. With
// P' the largest power of two ≤ P and E = P − P' extra ranks: the even ranks below 2E
// first send their buffer to the next rank and drop out; the other ranks take new
// ranks (r/2 below 2E, r − E above) and exchange with new rank XOR d for
// d = 1, 2, …, P'/2; at the end the odd ranks below 2E send the result back.
func allreduceRecursiveDoubling(c Collective, b *Builder) {
	p := b.Tasks()
	pow := 1
	for pow*2 <= p {
		pow *= 2
	}
	extra := p - pow
	for r := range p {
		newRank := r - extra
		if r < 2*extra {
			if r%2 == 0 {
				b.Send(r, r+1, c.Bytes)
				b.Recv(r, r+1)
				continue
			}
			b.Recv(r, r-1)
			newRank = r / 2
		}
		for d := 1; d < pow; d <<= 1 {
			nr := newRank ^ d
			remote := nr + extra
			if nr < extra {
				remote = nr*2 + 1
			}
			b.Send(r, remote, c.Bytes)
			b.Recv(r, remote)
		}
		if r < 2*extra {
			b.Send(r, r-1, c.Bytes)
		}
	}
}

// allreduceNonoverlapping is Open MPI's "reduce + broadcast" allreduce
// (allreduce_intra_nonoverlapping): a reduce to rank 0, then a broadcast from it, both
// binomial here.
func allreduceNonoverlapping(c Collective, b *Builder) {
	c.Root = 0
	reduceBinomial(c, b)
	bcastBinomial(c, b)
}

// subtree is the number of ranks in the in-order binomial subtree of child ch of v.
func subtree(v, ch, p int) int { return min(ch-v, p-ch) }

// gatherBinomial is Open MPI's gather_intra_binomial on the in-order binomial tree: a
// rank receives from each child, in order, the blocks of the child's subtree, then
// sends its own block and all it received to its parent.
func gatherBinomial(c Collective, b *Builder) {
	p := b.Tasks()
	for v := range p {
		t := rankOf(v, c.Root, p)
		parent, children := inOrderBmtree(v, p)
		blocks := 1
		for _, ch := range children {
			b.Recv(t, rankOf(ch, c.Root, p))
			blocks += subtree(v, ch, p)
		}
		if parent >= 0 {
			b.Send(t, rankOf(parent, c.Root, p), int64(blocks)*c.Bytes)
		}
	}
}

// scatterBinomial is Open MPI's scatter_intra_binomial: a rank receives its subtree's
// blocks from its parent, then sends each child its subtree's blocks, farthest child
// (the largest subtree) first.
func scatterBinomial(c Collective, b *Builder) {
	p := b.Tasks()
	for v := range p {
		t := rankOf(v, c.Root, p)
		parent, children := inOrderBmtree(v, p)
		if parent >= 0 {
			b.Recv(t, rankOf(parent, c.Root, p))
		}
		for i := len(children) - 1; i >= 0; i-- {
			ch := children[i]
			b.Send(t, rankOf(ch, c.Root, p), int64(subtree(v, ch, p))*c.Bytes)
		}
	}
}
