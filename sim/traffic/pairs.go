package traffic

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// pairs is a fixed set of flows: each listed source sends every message to its
// destination (or to one of its destinations, uniformly), and every other PE sends
// nothing. It reproduces small scenarios such as the deadlock examples of the 3DT
// papers, PE by PE.
type pairs struct {
	dests   [][]int32 // per PE: its destinations, or none
	flows   int
	silentN int
}

func newPairs(arg string, l layout) (Pattern, error) {
	p := &pairs{dests: make([][]int32, l.n)}
	if strings.TrimSpace(arg) == "" {
		return nil, errors.New("pairs needs at least one flow SRC>DST, e.g. pairs:1>42,43>0 or pairs:1>42|44")
	}
	for _, f := range strings.Split(arg, ",") {
		a, b, ok := strings.Cut(strings.TrimSpace(f), ">")
		src, err := strconv.Atoi(strings.TrimSpace(a))
		if !ok || err != nil || b == "" {
			return nil, fmt.Errorf("bad flow %q: write SRC>DST or SRC>DST1|DST2 with PE ids, e.g. 1>42", f)
		}
		if src < 0 || src >= l.n {
			return nil, fmt.Errorf("flow %q names a PE outside 0..%d", f, l.n-1)
		}
		if p.dests[src] != nil {
			return nil, fmt.Errorf("PE %d has two flows; list several destinations as %d>D1|D2", src, src)
		}
		for _, ds := range strings.Split(b, "|") {
			dst, err := strconv.Atoi(strings.TrimSpace(ds))
			switch {
			case err != nil:
				return nil, fmt.Errorf("bad flow %q: write SRC>DST or SRC>DST1|DST2 with PE ids, e.g. 1>42", f)
			case dst < 0 || dst >= l.n:
				return nil, fmt.Errorf("flow %q names a PE outside 0..%d", f, l.n-1)
			case dst == src:
				return nil, fmt.Errorf("flow %q sends a PE to itself", f)
			}
			p.dests[src] = append(p.dests[src], int32(dst))
		}
		p.flows++
	}
	p.silentN = l.n - p.flows
	return p, nil
}

// Name lists the flows by source.
func (p *pairs) Name() string {
	var fl []string
	for s, ds := range p.dests {
		if len(ds) == 0 {
			continue
		}
		var d []string
		for _, x := range ds {
			d = append(d, strconv.Itoa(int(x)))
		}
		fl = append(fl, strconv.Itoa(s)+">"+strings.Join(d, "|"))
	}
	return "pairs:" + strings.Join(fl, ",")
}

func (p *pairs) String() string { return p.Name() }
func (p *pairs) silent() int    { return p.silentN }

// Dest is the source's destination (one of them, uniformly), or -1 for PEs without a
// flow.
func (p *pairs) Dest(src int, rng *rand.Rand) int {
	switch ds := p.dests[src]; len(ds) {
	case 0:
		return -1
	case 1:
		return int(ds[0])
	default:
		return int(ds[rng.IntN(len(ds))])
	}
}
