package engine

// genItem is the next cycle at which PE pe generates a message.
type genItem struct {
	at int64
	pe int32
}

// genHeap is a min-heap on (at, pe): ties go to the lower PE, so runs are deterministic.
type genHeap []genItem

func (h genHeap) less(i, j int) bool {
	return h[i].at < h[j].at || h[i].at == h[j].at && h[i].pe < h[j].pe
}

func (h *genHeap) push(it genItem) {
	*h = append(*h, it)
	a := *h
	for i := len(a) - 1; i > 0; {
		p := (i - 1) / 2
		if !a.less(i, p) {
			break
		}
		a[i], a[p] = a[p], a[i]
		i = p
	}
}

// pop removes the minimum.
func (h *genHeap) pop() {
	a := *h
	last := len(a) - 1
	a[0] = a[last]
	*h = a[:last]
	h.down()
}

// down restores the heap after its top changed.
func (h genHeap) down() {
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h) && h.less(l, m) {
			m = l
		}
		if r < len(h) && h.less(r, m) {
			m = r
		}
		if m == i {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
