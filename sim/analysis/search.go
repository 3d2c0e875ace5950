package analysis

import (
	"fmt"
	"slices"
	"sort"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// Ranked is one configuration of a family's Variants with its internal-link count: an
// nDT shape's port configuration (transit paths per node crossing the internal link)
// or a Type-A T-switch's (routes through it crossing between its chips).
type Ranked struct {
	Rank     int             // 1 for the best; configurations with equal counts share a rank
	Config   topology.Config // twin tori: canonical form (d0+ on Card0)
	Name     string          // letter A–J for n = 3, else Card0's ports; T-switches: bad, split or α's ports
	Spec     string          // e.g. twin:4x4x4/D, ktree:4,3/0,1,4,5
	Crossing int64           // the count the ranking orders by
	// Total is the number of routes Crossing is out of: transit paths per node, or the
	// routes through a T-switch at its busiest Type-A stage (Stage).
	Total int64
	Stage int // T-switches: the Type-A stage whose count is Crossing; dragonflies: the group shift K; -1 for twin tori
	// ByStage lists a T-switch's internal-link uses at every Type-A stage, a dragonfly's
	// busiest channel's routes at every group shift K = 1..G−1 (nil for twin tori).
	ByStage []int64
	CBest   bool // the family's default configuration: topology.CBest, ktree's cswitch (S^A), the dragonfly's consecutive arrangement
	Optimal bool // the least count of all
}

// Ranking is what RankVariants found.
type Ranking struct {
	Ranked []Ranked
	// Criterion says what Crossing counts.
	Criterion string
	// Total is the routes every count is out of when it is the same for all (transit
	// paths per node), else 0.
	Total int64
	// Transit is the nDT transit matrix the ranking of a twin torus used.
	Transit *Transit
}

// RankConfigurations rates every configuration of the nDT shape (topology.Configurations)
// by the number of transit paths per node that cross the internal link under DOR with
// the given tie, best first; equal counts keep the canonical order. It also returns the
// transit matrix the ranking used (from the closed form, which the tests check against
// enumeration).
func RankConfigurations(radix []int, tie routing.Tie) ([]Ranked, *Transit, error) {
	twin, _ := topology.LookupFamily(string(topology.FamilyTwin))
	variants, err := twin.Variants(topology.Spec{Family: topology.FamilyTwin, Radix: radix})
	if err != nil {
		return nil, nil, fmt.Errorf("ranking configurations of %v: %w", radix, err)
	}
	r, err := RankVariants(variants, tie)
	if err != nil {
		return nil, nil, err
	}
	return r.Ranked, r.Transit, nil
}

// RankVariants ranks the configurations a family's Variants lists (`twintorus
// configs`), best first, equal values sharing a rank and keeping the given order. The
// criterion is the papers', by family: for twin tori the transit paths per node that
// cross an nDT node's internal link under DOR with the given tie; for T-switches of a
// k-ary n-tree (ktree) the routes that cross between the two chips of a Type-A
// T-switch under DESTRO and uniform traffic, at its busiest Type-A stage (the stage
// whose internal links carry the most; the optimum, k^(n+1)/2, is the same at every
// stage); for a dragonfly's global-link arrangements the routes on the busiest channel
// under Valiant routing at the worst group shift (rankDragonfly). Every variant must
// belong to one shape of one family.
func RankVariants(variants []topology.Spec, tie routing.Tie) (*Ranking, error) {
	if len(variants) == 0 {
		return nil, fmt.Errorf("no configurations to rank")
	}
	switch variants[0].Family {
	case topology.FamilyTwin:
		return rankTwin(variants, tie)
	case topology.FamilyKTree:
		return rankKTree(variants)
	case topology.FamilyDragonfly:
		return rankDragonfly(variants)
	}
	return nil, fmt.Errorf("ranking configurations of %s: the family has no criterion (accepted: twin, ktree, dragonfly)", variants[0].Family)
}

func rankTwin(variants []topology.Spec, tie routing.Tie) (*Ranking, error) {
	radix := variants[0].Radix
	n := len(radix)
	t, err := TransitClosedForm(radix, tie)
	if err != nil {
		return nil, fmt.Errorf("ranking configurations of %v: %w", radix, err)
	}
	cbest := topology.CBest(radix).Canonical(n)
	out := make([]Ranked, len(variants))
	for i, v := range variants {
		if v.Family != topology.FamilyTwin || !slices.Equal(v.Radix, radix) {
			return nil, fmt.Errorf("configurations %s and %s have different shapes", variants[0], v)
		}
		c, err := v.TwinConfig()
		if err != nil {
			return nil, fmt.Errorf("ranking %s by internal-link crossings: %w", v, err)
		}
		c = c.Canonical(n)
		spec, err := topology.Parse(v.String())
		if err != nil {
			return nil, fmt.Errorf("configuration %s: %w", v, err)
		}
		out[i] = Ranked{Config: c, Name: c.Name(n), Spec: spec.String(), Crossing: t.Crossing(c), Total: t.Total(), Stage: -1, CBest: c == cbest}
	}
	assignRanks(out)
	return &Ranking{Ranked: out, Total: t.Total(), Transit: t,
		Criterion: "transit paths per node that cross the internal link (DOR, ties " + t.Tie.String() + ")"}, nil
}

func rankKTree(variants []topology.Spec) (*Ranking, error) {
	first := variants[0]
	if len(first.Radix) < 2 {
		return nil, fmt.Errorf("ranking %s: not a k-ary n-tree", first)
	}
	k, n := first.Radix[0], first.Radix[1]
	all, err := RankTSwitch(k, n)
	if err != nil {
		return nil, err
	}
	byConfig := make(map[topology.TConfig]TSwitchRank, len(all))
	for _, r := range all {
		byConfig[r.Config] = r
	}
	def := topology.PairedConfig(k)
	out := make([]Ranked, len(variants))
	for i, v := range variants {
		if v.Family != topology.FamilyKTree || len(v.Radix) < 2 || v.Radix[0] != k || v.Radix[1] != n {
			return nil, fmt.Errorf("configurations %s and %s have different shapes", first, v)
		}
		l, err := v.KTree()
		if err != nil {
			return nil, err
		}
		if l.Chips != 2 {
			return nil, fmt.Errorf("ranking %s: it has single-chip switches; give a T-switch configuration such as %s", v, topology.PairedConfig(k))
		}
		r, ok := byConfig[l.TypeA.Canonical(k)]
		if !ok {
			return nil, fmt.Errorf("ranking %s: no such configuration", v)
		}
		out[i] = Ranked{Name: r.Name, Spec: v.String(), Crossing: r.Worst, Total: r.Total, Stage: r.WorstStage,
			ByStage: r.Uses, CBest: r.Config == def}
	}
	assignRanks(out)
	return &Ranking{Ranked: out, Criterion: "routes through a Type-A T-switch that cross between its chips, at its busiest stage (DESTRO, uniform)"}, nil
}

// assignRanks sorts by Crossing, stably, and numbers the ranks, equal counts sharing one.
func assignRanks(out []Ranked) {
	sort.SliceStable(out, func(a, b int) bool { return out[a].Crossing < out[b].Crossing })
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && out[i].Crossing == out[i-1].Crossing {
			out[i].Rank = out[i-1].Rank
		}
		out[i].Optimal = out[i].Crossing == out[0].Crossing
	}
}
