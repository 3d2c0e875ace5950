package workload

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Application proxies: generators that stand in for the papers' VEF traces (captured
// on the GALGO cluster, not distributable), following the traffic character that
// [EXT] §4.2.2 describes for each application (its Fig. 10).
// They are proxies: they reproduce who talks to whom, in what causal order and with
// what message sizes, not the applications' exact counts. Every parameter is a spec
// parameter; a proxy is deterministic for its parameters (seed included).

// paramDef is one parameter of a proxy.
type paramDef struct {
	key      string
	size     bool // a size in bytes with a unit, else a count
	def      int64
	min, max int64
	only     []int64 // when set, the accepted values
	doc      string
}

// proxyDef is one application proxy.
type proxyDef struct {
	name   string
	doc    string
	params []paramDef
	gen    func(b *Builder, v func(string) int64) error
	// ops counts the operations gen makes over p tasks (ptrans: at most), from the
	// parameters alone, so that a proxy too large is refused before it is generated.
	ops func(p int, v func(string) int64) int64
}

// tasksParam is every proxy's first parameter: 0 takes the run's tasks.
var tasksParam = paramDef{key: "tasks", def: 0, min: 1, max: MaxTasks, doc: "tasks"}

var proxies = []proxyDef{
	{name: "graph500", doc: "level-synchronous BFS: per level an allgather (binomial gather into task 0, then a binomial broadcast of all blocks) and an allreduce (reduce + broadcast)",
		params: []paramDef{tasksParam,
			{key: "levels", def: 8, min: 1, max: 1 << 16, doc: "BFS levels per search"},
			{key: "searches", def: 1, min: 1, max: 1 << 16, doc: "BFS searches (Graph500 runs 64 roots)"},
			{key: "block", size: true, def: 256, min: 0, max: MaxMessageBytes, doc: "each task's frontier block in the allgather"},
			{key: "flag", size: true, def: 8, min: 0, max: MaxMessageBytes, doc: "the allreduce's buffer"},
			{key: "compute", def: 0, min: 0, max: MaxCompute, doc: "cycles of computation per level"},
		}, gen: graph500, ops: graph500Ops},
	{name: "randomaccess", doc: "HPCC RandomAccess: per iteration every task sends update buckets to uniformly random other tasks, then receives those sent to it",
		params: []paramDef{tasksParam,
			{key: "iterations", def: 8, min: 1, max: 1 << 20, doc: "iterations"},
			{key: "messages", def: 4, min: 1, max: 1 << 20, doc: "messages per task per iteration"},
			{key: "bytes", size: true, def: 256, min: 0, max: MaxMessageBytes, doc: "bytes per message"},
			{key: "compute", def: 0, min: 0, max: MaxCompute, doc: "cycles of computation per iteration"},
			{key: "seed", def: 1, min: 0, max: 1<<63 - 1, doc: "seed of the destinations"},
		}, gen: randomAccess, ops: randomAccessOps},
	{name: "namd", doc: "NAMD-like molecular dynamics: tasks on a periodic 3D grid exchange with their grid neighbours every step",
		params: []paramDef{tasksParam,
			{key: "iterations", def: 8, min: 1, max: 1 << 20, doc: "time steps"},
			{key: "bytes", size: true, def: 2048, min: 0, max: MaxMessageBytes, doc: "bytes per neighbour per step"},
			{key: "stencil", def: 6, min: 6, max: 26, only: []int64{6, 26}, doc: "neighbours: 6 (faces) or 26 (faces, edges, corners)"},
			{key: "compute", def: 0, min: 0, max: MaxCompute, doc: "cycles of computation per step"},
		}, gen: namd, ops: namdOps},
	{name: "ptrans", doc: "HPCC PTRANS: transpose of a block-cyclic matrix over a p×q process grid",
		params: []paramDef{tasksParam,
			{key: "iterations", def: 5, min: 1, max: 1 << 20, doc: "transposes (HPCC runs 5)"},
			{key: "blocks", def: 0, min: 1, max: 1 << 16, doc: "blocks per matrix side"},
			{key: "block", size: true, def: 4096, min: 0, max: MaxMessageBytes, doc: "bytes per block"},
		}, gen: ptrans, ops: ptransOps},
}

// ProxyNames lists the application proxies.
func ProxyNames() []string {
	var out []string
	for _, p := range proxies {
		out = append(out, p.name)
	}
	return out
}

func findProxy(name string) (proxyDef, bool) {
	for _, p := range proxies {
		if p.name == name {
			return p, true
		}
	}
	return proxyDef{}, false
}

// graph500: per search and level, computation, then an allgather as Open MPI's
// basic_linear (a binomial gather of every task's block into task 0, then a binomial
// broadcast of all P blocks from task 0: the diagonal lines and the heavy traffic at
// task 0 of Fig. 10a), then an allreduce as reduce + broadcast.
func graph500(b *Builder, v func(string) int64) error {
	p := int64(b.Tasks())
	if v("block")*p > MaxMessageBytes {
		return fmt.Errorf("graph500: %d tasks × %s blocks make a broadcast over 1GiB", p, FormatSize(v("block")))
	}
	for range v("searches") {
		for range v("levels") {
			for t := range b.Tasks() {
				b.Compute(t, v("compute"))
			}
			steps := []Collective{
				{Op: "allgather", Algorithm: "linear", Bytes: v("block")},
				{Op: "allreduce", Algorithm: "nonoverlapping", Bytes: v("flag")},
			}
			for _, c := range steps {
				if err := c.AppendTo(b); err != nil {
					return err
				}
			}
		}
	}
	return b.err
}

// computeOps is the compute operations of a step over p tasks: one each, or none
// when the step computes nothing.
func computeOps(p int, v func(string) int64) int64 {
	if v("compute") == 0 {
		return 0
	}
	return int64(p)
}

// graph500Ops: per level, the computation, the allgather (a gather and a broadcast,
// P−1 messages each) and the allreduce (a reduce and a broadcast, as many).
func graph500Ops(p int, v func(string) int64) int64 {
	return sat(v("searches"), v("levels"), computeOps(p, v)+8*int64(p-1))
}

// sat is the product of counts, held at MaxInt64 where it would overflow: the
// parameters' ranges let a product pass 2^63, and it is only compared with MaxOps.
func sat(factors ...int64) int64 {
	out := int64(1)
	for _, f := range factors {
		if f != 0 && out > math.MaxInt64/f {
			return math.MaxInt64
		}
		out *= f
	}
	return out
}

// randomAccess: per iteration every task sends `messages` messages to destinations
// drawn uniformly among the other tasks, then receives the messages sent to it in
// that iteration, by source and in order.
func randomAccess(b *Builder, v func(string) int64) error {
	p := b.Tasks()
	if p < 2 {
		return fmt.Errorf("randomaccess needs at least 2 tasks")
	}
	rng := rand.New(rand.NewPCG(uint64(v("seed")), 0x72616e646f6d6163)) // "randomac"
	dests := make([]int, p*int(v("messages")))
	incoming := make([][]int, p)
	for range v("iterations") {
		for t := range p {
			b.Compute(t, v("compute"))
		}
		for i := range dests {
			t := i / int(v("messages"))
			d := rng.IntN(p - 1)
			if d >= t {
				d++
			}
			dests[i] = d
		}
		for i := range incoming {
			incoming[i] = incoming[i][:0]
		}
		for i, d := range dests {
			t := i / int(v("messages"))
			b.Send(t, d, v("bytes"))
			incoming[d] = append(incoming[d], t)
		}
		for d, srcs := range incoming {
			slices.Sort(srcs)
			for _, s := range srcs {
				b.Recv(d, s)
			}
		}
	}
	return b.err
}

// randomAccessOps: per iteration, the computation, then every task's messages, each
// a send and a receive.
func randomAccessOps(p int, v func(string) int64) int64 {
	return sat(v("iterations"), computeOps(p, v)+sat(2, int64(p), v("messages")))
}

// grid3 factors n into three near-equal factors, largest first.
func grid3(n int) [3]int {
	best := [3]int{n, 1, 1}
	for a := 1; a*a*a <= n; a++ {
		if n%a != 0 {
			continue
		}
		m := n / a
		for c := a; c*c <= m; c++ {
			if m%c == 0 {
				g := [3]int{m / c, c, a}
				if g[0]-g[2] < best[0]-best[2] {
					best = g
				}
			}
		}
	}
	return best
}

// namd: tasks t = x + X·(y + Y·z) on the periodic grid X×Y×Z (grid3); per step,
// computation, then every task sends to each distinct grid neighbour (6 faces, or all
// 26 around it) and receives from each.
func namd(b *Builder, v func(string) int64) error {
	st := v("stencil")
	if st != 6 && st != 26 {
		return fmt.Errorf("namd stencil %d: accepted are 6 and 26", st)
	}
	p := b.Tasks()
	g := grid3(p)
	neighbours := make([][]int, p)
	for t := range p {
		neighbours[t] = namdNeighbours(g, st, t)
	}
	for range v("iterations") {
		for t := range p {
			b.Compute(t, v("compute"))
			for _, n := range neighbours[t] {
				b.Send(t, n, v("bytes"))
			}
			for _, n := range neighbours[t] {
				b.Recv(t, n)
			}
		}
	}
	return b.err
}

// namdNeighbours lists the distinct grid neighbours of task t on the periodic grid g
// (6 faces, or all 26 around it), in increasing order.
func namdNeighbours(g [3]int, stencil int64, t int) []int {
	var out []int
	x, y, z := t%g[0], t/g[0]%g[1], t/(g[0]*g[1])
	for dz := -1; dz <= 1; dz++ {
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				if n := abs(dx) + abs(dy) + abs(dz); n != 1 && (stencil != 26 || n == 0) {
					continue
				}
				nx, ny, nz := (x+dx+g[0])%g[0], (y+dy+g[1])%g[1], (z+dz+g[2])%g[2]
				if n := nx + g[0]*(ny+g[1]*nz); n != t && !slices.Contains(out, n) {
					out = append(out, n)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// namdOps: per step, the computation, then a send to and a receive from each
// neighbour. The grid is periodic, so every task has as many neighbours as task 0.
func namdOps(p int, v func(string) int64) int64 {
	k := int64(len(namdNeighbours(grid3(p), v("stencil"), 0)))
	return sat(v("iterations"), computeOps(p, v)+sat(2, int64(p), k))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// grid2 factors n into p×q with p ≤ q and p as large as possible.
func grid2(n int) (p, q int) {
	p = 1
	for a := 1; a*a <= n; a++ {
		if n%a == 0 {
			p = a
		}
	}
	return p, n / p
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// ptrans: an nb×nb matrix of blocks, block (I, J) on task (I mod p)·q + (J mod q) of the
// p×q grid (grid2), block-cyclic as in HPCC. Transposing, the owner of (I, J) needs
// block (J, I): per iteration every task sends each other task one message with all
// the blocks it owns that the other needs, by increasing destination, then receives
// from each of its partners.
func ptrans(b *Builder, v func(string) int64) error {
	n := b.Tasks()
	p, q := grid2(n)
	nb := int(v("blocks"))
	if nb == 0 {
		nb = p / gcd(p, q) * q
	}
	// Rows (and columns) fall in classes by (index mod p, index mod q); blocks move
	// between the owners of whole classes, so count the classes, not the nb² blocks.
	type class struct{ modP, modQ int }
	var classes []class
	size := map[class]int64{}
	for i := range nb {
		c := class{i % p, i % q}
		if size[c] == 0 {
			classes = append(classes, c)
		}
		size[c]++
	}
	// count[s][d]: blocks task s sends task d (s ≠ d). Block (I, J) is on task
	// (I mod p)·q + (J mod q) and goes to the owner of (J, I).
	count := make([]map[int]int64, n)
	for _, ci := range classes {
		for _, cj := range classes {
			s, d := cj.modP*q+ci.modQ, ci.modP*q+cj.modQ // block (I in ci, J in cj) from the owner of (J, I)
			if s == d {
				continue
			}
			if count[s] == nil {
				count[s] = map[int]int64{}
			}
			count[s][d] += size[ci] * size[cj]
		}
	}
	if v("block") > 0 {
		for s := range count {
			for _, c := range count[s] {
				if c > MaxMessageBytes/v("block") {
					return fmt.Errorf("ptrans: %d blocks of %s in one message: over 1GiB", c, FormatSize(v("block")))
				}
			}
		}
	}
	from := make([][]int, n)
	for s := range count {
		for d := range count[s] {
			from[d] = append(from[d], s)
		}
	}
	for d := range from {
		slices.Sort(from[d])
	}
	for range v("iterations") {
		for s := range n {
			dsts := make([]int, 0, len(count[s]))
			for d := range count[s] {
				dsts = append(dsts, d)
			}
			slices.Sort(dsts)
			for _, d := range dsts {
				b.Send(s, d, count[s][d]*v("block"))
			}
			for _, src := range from[s] {
				b.Recv(s, src)
			}
		}
	}
	return b.err
}

// ptransOps bounds ptrans's operations: per iteration a send and a receive for each
// pair of tasks that exchange blocks, at most P·(P−1) pairs and at most one per pair
// of the classes of rows (a row's index mod p and mod q: lcm(p, q) of them at most).
func ptransOps(n int, v func(string) int64) int64 {
	p, q := grid2(n)
	lcm := int64(p / gcd(p, q) * q)
	nb := v("blocks")
	if nb == 0 {
		nb = lcm
	}
	classes := min(nb, lcm)
	return sat(v("iterations"), 2, min(int64(n)*int64(n-1), sat(classes, classes)))
}

// ProxyHelp describes every application proxy and its parameters with their
// defaults, for help texts and docs.
func ProxyHelp() string {
	var b []byte
	for _, p := range proxies {
		b = fmt.Appendf(b, "%s: %s\n", p.name, p.doc)
		for _, d := range p.params {
			def := "the run's PEs × tasks per PE"
			switch {
			case p.name == "ptrans" && d.key == "blocks":
				def = "lcm(p, q)"
			case d.key != "tasks":
				def = formatParam(d, d.def)
			}
			b = fmt.Appendf(b, "    %-11s %s (default %s)\n", d.key+"=", d.doc, def)
		}
	}
	return string(b)
}
