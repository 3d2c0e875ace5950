package traffic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// hotspot sends a fraction of the messages to a set of hot PEs and the rest uniformly.
type hotspot struct {
	n    int
	frac float64 // probability that a message is aimed at the hot set
	hot  []int32 // hot PEs, sorted
	pct  float64 // the hot set as a percentage of the PEs, or 0 for an explicit list
}

func newHotspot(arg string, l layout) (Pattern, error) {
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
	switch {
	case !hasHot:
		h.hot = []int32{0}
	case strings.HasSuffix(hs, "%"):
		h.pct, err = parseNumber(strings.TrimSuffix(hs, "%"))
		if err != nil || h.pct <= 0 || h.pct > 100 {
			return nil, fmt.Errorf("bad share of hot PEs %q: accepted is a percentage above 0 and at most 100, e.g. hotspot:0.25@12.5%%", hs)
		}
		count := max(1, int(math.Round(h.pct*float64(l.n)/100)))
		h.hot = make([]int32, min(count, l.n))
		for i := range h.hot {
			h.hot[i] = int32(i)
		}
	default:
		if h.hot, err = parsePEList(hs, l.n); err != nil {
			return nil, err
		}
	}
	return h, nil
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
		b.WriteString("@" + strconv.FormatFloat(h.pct, 'g', -1, 64) + "%")
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
