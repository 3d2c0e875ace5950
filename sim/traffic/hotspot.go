package traffic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Placement is where a share of hot PEs (hotspot:F@P%) lies among the PE ids. The
// papers that use hot spots ([KNS] §5.1: "a small subset of the processing nodes (5% of
// nodes in this case)") do not place them, and the choice decides how many hot PEs share
// a switch: the lowest 13 ids of 256 put four hot PEs on each of the first routers of a
// flattened butterfly with four PEs per router, and all 13 on one leaf switch of a
// 16-ary 2-tree.
type Placement uint8

const (
	// PlaceSpread spaces the hot PEs evenly over the ids, PE ⌊i·N/H⌋ for i = 0..H−1:
	// with PEs numbered switch by switch it puts at most one hot PE on a switch as long
	// as the spacing N/H is at least the PEs per switch. The default.
	PlaceSpread Placement = iota
	// PlaceLowest takes the H lowest ids: clustered ([TT]'s hot region, "the first 12.5
	// percent of the network ... the lowest rows", is this one).
	PlaceLowest
	// PlaceRandom draws H distinct ids from the run's seed (see Seeded).
	PlaceRandom
)

var placementNames = [...]string{PlaceSpread: "spread", PlaceLowest: "lowest", PlaceRandom: "random"}

func (p Placement) String() string { return placementNames[p] }

// parsePlacement reads "spread", "lowest" or "random".
func parsePlacement(s string) (Placement, error) {
	for i, name := range placementNames {
		if strings.EqualFold(strings.TrimSpace(s), name) {
			return Placement(i), nil
		}
	}
	return 0, fmt.Errorf("bad hot PE placement %q: accepted are spread (evenly spaced ids, the default), lowest (the lowest ids) and random (drawn from the run's seed), e.g. hotspot:0.1@5%%/spread", s)
}

// hotspot sends a fraction of the messages to a set of hot PEs and the rest uniformly.
type hotspot struct {
	n     int
	frac  float64 // probability that a message is aimed at the hot set
	hot   []int32 // hot PEs, sorted
	pct   float64 // the hot set as a percentage of the PEs, or 0 for an explicit list
	place Placement
}

// unseededHotspot is the seed a random placement draws from until the engine seeds it
// (Seeded): the engine's default seed.
const unseededHotspot = 1

func newHotspot(arg string, l layout) (Pattern, error) {
	arg, ps, hasPlace := strings.Cut(arg, "/")
	fs, hs, hasHot := strings.Cut(arg, "@")
	fs, hs = strings.TrimSpace(fs), strings.TrimSpace(hs)
	frac, err := parseNumber(strings.TrimSuffix(fs, "%"))
	if err == nil && strings.HasSuffix(fs, "%") {
		frac /= 100
	}
	if err != nil || frac < 0 || frac > 1 {
		return nil, fmt.Errorf("bad hot-spot traffic fraction %q: accepted is a number from 0 to 1 or a percentage, e.g. hotspot:0.1 or hotspot:25%%", fs)
	}
	h := &hotspot{n: l.n, frac: frac}
	share := hasHot && strings.HasSuffix(hs, "%")
	if hasPlace {
		if !share {
			return nil, fmt.Errorf("placement %q applies to a share of the PEs (e.g. hotspot:0.1@5%%/spread); a list names its hot PEs itself", "/"+strings.TrimSpace(ps))
		}
		if h.place, err = parsePlacement(ps); err != nil {
			return nil, err
		}
	}
	switch {
	case !hasHot:
		h.hot = []int32{0}
	case share:
		h.pct, err = parseNumber(strings.TrimSuffix(hs, "%"))
		if err != nil || h.pct <= 0 || h.pct > 100 {
			return nil, fmt.Errorf("bad share of hot PEs %q: accepted is a percentage above 0 and at most 100, e.g. hotspot:0.25@12.5%%", hs)
		}
		count := min(l.n, max(1, int(math.Round(h.pct*float64(l.n)/100))))
		h.hot = placeHot(h.place, count, l.n, unseededHotspot)
	default:
		if h.hot, err = parsePEList(hs, l.n); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// placeHot is the sorted set of count hot PEs among n under a placement; seed is the
// random placement's.
func placeHot(place Placement, count, n int, seed uint64) []int32 {
	hot := make([]int32, count)
	switch place {
	case PlaceLowest:
		for i := range hot {
			hot[i] = int32(i)
		}
	case PlaceSpread:
		for i := range hot {
			hot[i] = int32(int64(i) * int64(n) / int64(count))
		}
	case PlaceRandom:
		// A partial Fisher–Yates shuffle of the ids, on a stream of its own
		// ("hotspots"), so the draw depends on the seed alone.
		rng := rand.New(rand.NewPCG(seed, 0x686f7473706f7473))
		ids := make([]int32, n)
		for i := range ids {
			ids[i] = int32(i)
		}
		for i := range count {
			j := i + rng.IntN(n-i)
			ids[i], ids[j] = ids[j], ids[i]
		}
		copy(hot, ids[:count])
		slices.Sort(hot)
	}
	return hot
}

// seeded is the pattern with its random hot set drawn from seed; other placements
// and explicit lists do not depend on the seed.
func (h *hotspot) seeded(seed uint64) Pattern {
	if h.pct == 0 || h.place != PlaceRandom {
		return h
	}
	c := *h
	c.hot = placeHot(h.place, len(h.hot), h.n, seed)
	return &c
}

// HotPEs is the hot set of a hot-spot pattern, sorted, and false for other patterns.
func HotPEs(p Pattern) ([]int, bool) {
	h, ok := p.(*hotspot)
	if !ok {
		return nil, false
	}
	out := make([]int, len(h.hot))
	for i, pe := range h.hot {
		out[i] = int(pe)
	}
	return out, true
}

// parsePEList reads "0,17,32-47": PE ids and inclusive ranges, each PE at most once.
func parsePEList(s string, n int) ([]int32, error) {
	var pes []int32
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		a, b, isRange := strings.Cut(item, "-")
		lo, err1 := strconv.Atoi(strings.TrimSpace(a))
		hi, err2 := lo, error(nil)
		if isRange {
			hi, err2 = strconv.Atoi(strings.TrimSpace(b))
		}
		if err1 != nil || err2 != nil || lo < 0 || hi < lo || hi >= n {
			return nil, fmt.Errorf("bad hot PE %q: accepted are PE ids from 0 to %d and ranges LO-HI joined by commas (e.g. 0,17,32-47), or a share of the PEs such as 12.5%%", item, n-1)
		}
		for pe := lo; pe <= hi; pe++ {
			pes = append(pes, int32(pe))
		}
	}
	slices.Sort(pes)
	for i := 1; i < len(pes); i++ {
		if pes[i] == pes[i-1] {
			return nil, fmt.Errorf("hot PE %d is listed twice in %q", pes[i], s)
		}
	}
	return pes, nil
}

func (h *hotspot) Name() string {
	var b strings.Builder
	b.WriteString("hotspot:")
	b.WriteString(strconv.FormatFloat(h.frac, 'g', -1, 64))
	switch {
	case h.pct > 0:
		b.WriteString("@" + strconv.FormatFloat(h.pct, 'g', -1, 64) + "%/" + h.place.String())
	case len(h.hot) == 1 && h.hot[0] == 0: // the default
	default:
		b.WriteByte('@')
		for i := 0; i < len(h.hot); {
			j := i // hot[i..j] is a run of consecutive ids
			for j+1 < len(h.hot) && h.hot[j+1] == h.hot[j]+1 {
				j++
			}
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(int(h.hot[i])))
			if j > i {
				b.WriteString("-" + strconv.Itoa(int(h.hot[j])))
			}
			i = j + 1
		}
	}
	return b.String()
}

func (h *hotspot) String() string { return h.Name() }

func (h *hotspot) Dest(src int, rng *rand.Rand) int {
	if rng.Float64() < h.frac {
		i, srcHot := slices.BinarySearch(h.hot, int32(src))
		m := len(h.hot)
		if srcHot {
			m--
		}
		if m > 0 { // else src is the only hot PE: it sends uniformly
			r := rng.IntN(m)
			if srcHot && r >= i {
				r++
			}
			return int(h.hot[r])
		}
	}
	return otherPE(h.n, src, rng)
}
