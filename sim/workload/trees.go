package workload

// The communication trees of Open MPI's coll/base component (coll_base_topo.c), on
// virtual ranks v = (rank − root) mod P so that the root is 0. Children are listed in
// the order Open MPI serves them.

// nextPow2Above is the least power of two strictly greater than v (1 for v = 0).
func nextPow2Above(v int) int {
	p := 1
	for p <= v {
		p <<= 1
	}
	return p
}

// bmtree is Open MPI's binomial tree (build_bmtree, used by the binomial broadcast):
// v's children are v + 2^i for every 2^i > v with v + 2^i < P, nearest first; its parent
// is v without its highest bit. Over 8 ranks: 0 → 1, 2, 4; 1 → 3, 5; 2 → 6; 3 → 7.
func bmtree(v, p int) (parent int, children []int) {
	mask := nextPow2Above(v)
	parent = -1
	if v > 0 {
		parent = v ^ mask>>1
	}
	for ; mask < p; mask <<= 1 {
		c := v ^ mask
		if c >= p {
			break
		}
		children = append(children, c)
	}
	return parent, children
}

// inOrderBmtree is Open MPI's in-order binomial tree (build_in_order_bmtree, used by
// the binomial reduce, gather and scatter): v's children are v + 2^i for every 2^i
// below v's lowest set bit (all 2^i < P for the root) with v + 2^i < P, nearest first;
// its parent is v without its lowest bit. Over 8 ranks: 0 → 1, 2, 4; 2 → 3; 4 → 5, 6; 6 → 7.
func inOrderBmtree(v, p int) (parent int, children []int) {
	parent = -1
	for mask := 1; mask < p; mask <<= 1 {
		r := v ^ mask
		if r < v {
			parent = r
			break
		}
		if r < p {
			children = append(children, r)
		}
	}
	return parent, children
}

// chain is Open MPI's chain tree (build_chain): the P−1 other ranks in consecutive
// order split into `fanout` chains, the first (P−1) mod fanout of them one rank
// longer; the root sends to every chain's head and each rank to the next in its chain.
// fanout 1 is the pipeline (0 → 1 → 2 → …).
func chain(v, p, fanout int) (parent int, children []int) {
	fanout = min(max(fanout, 1), p-1)
	if p == 1 {
		return -1, nil
	}
	long := (p - 1) / fanout // chain length
	mark := fanout + 1       // chains before mark are one rank longer
	if (p-1)%fanout != 0 {
		long++
		mark = (p - 1) % fanout
	}
	if v == 0 {
		head := 1
		for i := range fanout {
			children = append(children, head)
			if head += long; i+1 > mark {
				head--
			}
		}
		return -1, children
	}
	var head, length int
	if v-1 < mark*long {
		head, length = 1+(v-1)/long*long, long
	} else {
		col := mark + (v-1-mark*long)/(long-1)
		head, length = mark*long+1+(col-mark)*(long-1), long-1
	}
	parent = v - 1
	if v == head {
		parent = 0
	}
	if v != head+length-1 && v+1 < p {
		children = []int{v + 1}
	}
	return parent, children
}
