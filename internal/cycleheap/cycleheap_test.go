package cycleheap

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Items come out in (At, ID) order whatever the order they went in.
func TestOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var h Heap
	var want []Item
	for range 1000 {
		it := Item{At: rng.Int64N(50), ID: rng.Int32N(20)}
		h.Push(it)
		want = append(want, it)
	}
	slices.SortStableFunc(want, func(a, b Item) int {
		if a.At != b.At {
			return int(a.At - b.At)
		}
		return int(a.ID - b.ID)
	})
	for i := range want {
		if got := h.Min(); got != want[i] {
			t.Fatalf("item %d: %+v, want %+v", i, got, want[i])
		}
		h.Pop()
	}
	if len(h) != 0 {
		t.Fatalf("%d items left", len(h))
	}
}
