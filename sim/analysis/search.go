package analysis

import (
	"fmt"
	"slices"
	"sort"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// Ranked is one port configuration of an nDT shape with its internal-link transit count.
type Ranked struct {
	Rank     int             // 1 for the best; configurations with equal counts share a rank
	Config   topology.Config // canonical form (d0+ on Card0)
	Name     string          // letter A–J for n = 3, else Card0's ports
	Spec     string          // e.g. twin:4x4x4/D
	Crossing int64           // transit paths per node that cross the internal link
	CBest    bool            // the configuration is topology.CBest(radix)
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
	return RankVariants(variants, tie)
}

// RankVariants ranks the configurations a family's Variants lists (`twintorus
// configs`), best first, equal values sharing a rank and keeping the given order. The
// criterion is the papers': transit paths per node that cross an nDT node's internal
// link under DOR. Every variant must be a port configuration of one twin-torus shape;
// a family whose variants need another criterion adds it here.
func RankVariants(variants []topology.Spec, tie routing.Tie) ([]Ranked, *Transit, error) {
	if len(variants) == 0 {
		return nil, nil, fmt.Errorf("no configurations to rank")
	}
	radix := variants[0].Radix
	n := len(radix)
	t, err := TransitClosedForm(radix, tie)
	if err != nil {
		return nil, nil, fmt.Errorf("ranking configurations of %v: %w", radix, err)
	}
	cbest := topology.CBest(radix).Canonical(n)
	out := make([]Ranked, len(variants))
	for i, v := range variants {
		if !slices.Equal(v.Radix, radix) {
			return nil, nil, fmt.Errorf("configurations %s and %s have different shapes", variants[0], v)
		}
		c, err := v.TwinConfig()
		if err != nil {
			return nil, nil, fmt.Errorf("ranking %s by internal-link crossings: %w", v, err)
		}
		c = c.Canonical(n)
		spec, err := topology.Parse(v.String())
		if err != nil {
			return nil, nil, fmt.Errorf("configuration %s: %w", v, err)
		}
		out[i] = Ranked{Config: c, Name: c.Name(n), Spec: spec.String(), Crossing: t.Crossing(c), CBest: c == cbest}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Crossing < out[b].Crossing })
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && out[i].Crossing == out[i-1].Crossing {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out, t, nil
}
