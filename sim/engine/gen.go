package engine

// genCalendar holds the next generation cycle of every PE: a wheel of genSlots buckets
// for the near future and a heap for gaps beyond it (rare, at very low loads). Taking
// the PEs due at a cycle costs O(1) per PE instead of a heap operation.
type genCalendar struct {
	slots [][]int32 // slot t&genMask: the PEs due at cycle t, for t < horizon
	far   genHeap   // PEs due at or after the horizon
	count int       // PEs in slots
}

const genSlots = 1 << 12
const genMask = genSlots - 1

func (c *genCalendar) init() { c.slots = make([][]int32, genSlots) }

// add schedules PE pe at cycle at, seen from cycle now.
func (c *genCalendar) add(pe int32, at, now int64) {
	if at-now >= genSlots {
		c.far.push(genItem{at: at, pe: pe})
		return
	}
	c.slots[at&genMask] = append(c.slots[at&genMask], pe)
	c.count++
}

// due returns the PEs due at cycle now (valid until the next call) after moving the
// far ones that came within reach.
func (c *genCalendar) due(now int64) []int32 {
	for len(c.far) > 0 && c.far[0].at-now < genSlots {
		it := c.far[0]
		c.far.pop()
		c.slots[it.at&genMask] = append(c.slots[it.at&genMask], it.pe)
		c.count++
	}
	s := c.slots[now&genMask]
	c.slots[now&genMask] = s[:0]
	c.count -= len(s)
	return s
}

// next is the earliest cycle at or after now at which some PE is due, or -1 if none.
func (c *genCalendar) next(now int64) int64 {
	if c.count > 0 {
		for t := now; t < now+genSlots; t++ {
			if len(c.slots[t&genMask]) > 0 {
				return t
			}
		}
	}
	if len(c.far) > 0 {
		return c.far[0].at
	}
	return -1
}
