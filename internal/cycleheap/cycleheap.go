// Package cycleheap is a min-heap of (cycle, id) pairs for simulations that take
// events in time order: ties go to the lower id, so the order, and every result that
// depends on it, is deterministic. The engine keeps its far-future generation times in
// one, the closed-loop workloads their tasks' wake-ups.
package cycleheap

// Item is an id due at a cycle.
type Item struct {
	At int64
	ID int32
}

// Heap is a min-heap on (At, ID). The zero Heap is empty and ready to use; push and
// pop allocate nothing once it has grown.
type Heap []Item

func (h Heap) less(i, j int) bool {
	return h[i].At < h[j].At || h[i].At == h[j].At && h[i].ID < h[j].ID
}

// Push adds an item.
func (h *Heap) Push(it Item) {
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

// Min is the first item; the heap must not be empty.
func (h Heap) Min() Item { return h[0] }

// Pop removes the first item; the heap must not be empty.
func (h *Heap) Pop() {
	a := *h
	last := len(a) - 1
	a[0] = a[last]
	a = a[:last]
	*h = a
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(a) && a.less(l, m) {
			m = l
		}
		if r < len(a) && a.less(r, m) {
			m = r
		}
		if m == i {
			return
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
}
