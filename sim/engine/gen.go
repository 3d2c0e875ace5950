package engine

import (
	"math"

	"github.com/twintorus/twintorus/internal/cycleheap"
)

// genCalendar holds the next generation cycle of every PE: a wheel of slots for the near
// future and a heap for gaps beyond it (rare). Taking the PEs due at a cycle costs O(1)
// per PE instead of a heap operation.
//
// It is sized from the generation probability p per PE per cycle: about 8/p slots, so
// that a geometric gap outruns the wheel with probability e^-8, each with room for
// twice the expected arrivals, carved from one array: no allocation after New.
type genCalendar struct {
	slots [][]int32 // slot t&mask: the PEs due at cycle t, for t < now + len(slots)
	mask  int64
	far   cycleheap.Heap // PEs due beyond the wheel
	count int            // PEs in slots
}

func (c *genCalendar) init(pes int, p float64) {
	n := 64
	for n < 1<<16 && float64(n) < 8/math.Max(p, 1e-9) {
		n *= 2
	}
	room := int(2*float64(pes)*math.Min(p, 1)) + 8
	backing := make([]int32, n*room)
	c.slots = make([][]int32, n)
	for i := range c.slots {
		c.slots[i] = backing[i*room : i*room : (i+1)*room]
	}
	c.mask = int64(n - 1)
	c.far = make(cycleheap.Heap, 0, 64)
}

// add schedules PE pe at cycle at, seen from cycle now.
func (c *genCalendar) add(pe int32, at, now int64) {
	if at-now > c.mask {
		c.far.Push(cycleheap.Item{At: at, ID: pe})
		return
	}
	c.slots[at&c.mask] = append(c.slots[at&c.mask], pe)
	c.count++
}

// due returns the PEs due at cycle now (valid until the next call) after moving the
// far ones that came within reach.
func (c *genCalendar) due(now int64) []int32 {
	for len(c.far) > 0 && c.far.Min().At-now <= c.mask {
		it := c.far.Min()
		c.far.Pop()
		c.slots[it.At&c.mask] = append(c.slots[it.At&c.mask], it.ID)
		c.count++
	}
	s := c.slots[now&c.mask]
	c.slots[now&c.mask] = s[:0]
	c.count -= len(s)
	return s
}

// next is the earliest cycle at or after now at which some PE is due, or -1 if none.
func (c *genCalendar) next(now int64) int64 {
	if c.count > 0 {
		for t := now; t <= now+c.mask; t++ {
			if len(c.slots[t&c.mask]) > 0 {
				return t
			}
		}
	}
	if len(c.far) > 0 {
		return c.far.Min().At
	}
	return -1
}
