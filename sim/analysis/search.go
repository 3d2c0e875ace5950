package analysis

import (
	"fmt"
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
	n := len(radix)
	configs, err := topology.Configurations(n)
	if err != nil {
		return nil, nil, fmt.Errorf("ranking configurations of %v: %w", radix, err)
	}
	t, err := TransitClosedForm(radix, tie)
	if err != nil {
		return nil, nil, fmt.Errorf("ranking configurations of %v: %w", radix, err)
	}
	cbest := topology.CBest(radix).Canonical(n)
	out := make([]Ranked, len(configs))
	for i, c := range configs {
		name := c.Name(n)
		spec, err := topology.Parse(topology.Spec{Family: topology.FamilyTwin, Radix: radix, Config: name}.String())
		if err != nil {
			return nil, nil, fmt.Errorf("configuration %s: %w", name, err)
		}
		out[i] = Ranked{Config: c, Name: name, Spec: spec.String(), Crossing: t.Crossing(c), CBest: c == cbest}
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
