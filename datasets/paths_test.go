package datasets

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// An independent brute-force count of the transit paths through a node of an
// n-D k-ary twin torus under DOR (dimension 0 first, shortest direction, ties
// at distance k/2 in the + direction), to check the papers' path formulas.

// cardOf tells which card (0 or 1) holds the port of dimension dim,
// direction plus.
type cardOf func(dim int, plus bool) int

// reportConfigs are the report's Table 1: the ports of Card0 (the rest are
// on Card1). Dimensions X, Y, Z are 0, 1, 2.
var reportConfigs = map[string]string{
	"A": "X+ Y+ Z+", "B": "X+ Y+ Z-", "C": "X+ Y+ Y-", "D": "X+ Y+ X-", "E": "X+ Y- Z+",
	"F": "X+ Y- Z-", "G": "X+ Y- X-", "H": "X+ Z+ Z-", "I": "X+ Z+ X-", "J": "X+ Z- X-",
}

func configCards(label string) cardOf {
	card0 := strings.Fields(reportConfigs[label])
	return func(dim int, plus bool) int {
		port := fmt.Sprintf("%c%c", "XYZ"[dim], map[bool]byte{true: '+', false: '-'}[plus])
		for _, p := range card0 {
			if p == port {
				return 0
			}
		}
		return 1
	}
}

// cbestCards is the nDT paper's CBest: Card0 holds both ports of the lower
// half of the dimensions (and d_m^- for odd n, m = (n-1)/2).
func cbestCards(n int) cardOf {
	return func(dim int, plus bool) int {
		if n%2 == 1 && dim == (n-1)/2 {
			if plus {
				return 1
			}
			return 0
		}
		if dim < n/2 {
			return 0
		}
		return 1
	}
}

// transitPaths returns, per node, the transit paths (source and destination
// differ from the node) and those among them that enter and leave on
// different cards. By symmetry it walks the paths from one source only.
func transitPaths(n, k int, card cardOf) (crossing, transit int) {
	total := 1
	for range n {
		total *= k
	}
	for off := 1; off < total; off++ {
		inDim, inPlus, started := 0, false, false
		rest := off
		for dim := range n {
			diff := rest % k
			rest /= k
			if diff == 0 {
				continue
			}
			plus, steps := diff <= k/2, diff
			if !plus {
				steps = k - diff
			}
			for range steps {
				if started {
					transit++
					if card(inDim, inPlus) != card(dim, plus) {
						crossing++
					}
				}
				// Moving in + enters the next node through its - port.
				inDim, inPlus, started = dim, !plus, true
			}
		}
	}
	return crossing, transit
}

func TestBruteForceSmallCases(t *testing.T) {
	// [TR] Tables 7–8 and [nDT] §3.3.2 (Proposition 3.4), against independent enumerations.
	for _, c := range []struct {
		n, k           int
		cards          cardOf
		cross, transit int
	}{
		{3, 4, configCards("A"), 93, 129},
		{3, 4, configCards("D"), 49, 129},
		{3, 2, configCards("E"), 1, 5},
		{3, 5, configCards("B"), 238, 326},
		{5, 5, cbestCards(5), 4226, 15626},
		{4, 5, cbestCards(4), 576, 2376},
	} {
		cross, transit := transitPaths(c.n, c.k, c.cards)
		if cross != c.cross || transit != c.transit {
			t.Errorf("n=%d k=%d: %d of %d transit paths cross, want %d of %d", c.n, c.k, cross, transit, c.cross, c.transit)
		}
	}
}

// TestReportTable1 checks reportConfigs against the report's Table 1.
func TestReportTable1(t *testing.T) {
	lines := seeds(t)("002_f32b538ef0624f9d.txt")
	port := regexp.MustCompile(`([XYZ])\^([+-])`)
	found := 0
	for _, l := range lines[173:183] { // lines 174-183
		f := strings.Split(l, "\t")
		if len(f) != 3 {
			t.Fatalf("report Table 1 row %q: want 3 tab-separated fields", l)
		}
		var got []string
		for _, m := range port.FindAllStringSubmatch(f[1], -1) {
			got = append(got, m[1]+m[2])
		}
		if want := reportConfigs[f[0]]; strings.Join(got, " ") != want {
			t.Errorf("configuration %s: Card0 %v in the report, %q here", f[0], got, want)
		}
		found++
	}
	if found != 10 {
		t.Errorf("%d configurations in the report's Table 1, want 10", found)
	}
}
