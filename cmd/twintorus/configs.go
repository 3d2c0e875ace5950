package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/topology"
)

func init() { commands = append(commands, newConfigsCmd) }

type configsReport struct {
	Topology string `json:"topology"` // the shape, e.g. twin:4x4x4
	Tie      string `json:"tie,omitempty"`
	// Criterion says what crossing_internal counts.
	Criterion string `json:"criterion"`
	// Transit is the transit paths per node of a twin torus, the same for every
	// configuration (absent for T-switches, whose totals are per configuration).
	Transit        int64          `json:"transit,omitempty"`
	Configurations []configReport `json:"configurations"`
}

type configReport struct {
	Rank             int      `json:"rank"`
	Name             string   `json:"name"`
	Spec             string   `json:"spec"`
	CrossingInternal *int64   `json:"crossing_internal,omitempty"`
	CrossingShare    *float64 `json:"crossing_share,omitempty"`
	CBest            bool     `json:"cbest"`
	Optimal          bool     `json:"optimal"`
	// Dragonflies: the busiest channel's routes under Valiant routing at the worst
	// group shift, the routes of one source PE, their ratio (the channel's load per unit
	// of injection), the worst shift and the busiest channel's routes at every shift.
	BusiestRoutes *int64   `json:"busiest_routes,omitempty"`
	SourceRoutes  int64    `json:"source_routes,omitempty"`
	Load          *float64 `json:"load,omitempty"`
	WorstShift    int      `json:"worst_shift,omitempty"`
	ByShift       []int64  `json:"by_shift,omitempty"`
	// T-switches: the busiest Type-A stage, the routes through a T-switch there, and
	// the internal-link uses at every Type-A stage.
	Stage   *int    `json:"stage,omitempty"`
	Routes  int64   `json:"routes,omitempty"`
	ByStage []int64 `json:"by_stage,omitempty"`
}

func newConfigsCmd() *cobra.Command {
	var asJSON bool
	var tieName string
	cmd := &cobra.Command{
		Use:   "configs TOPOLOGY",
		Short: "Rank every configuration of an nDT shape or a T-switch by internal-link crossings, a dragonfly's arrangements by Valiant's load",
		Long: `configs lists every port configuration of a twin torus's shape (½·C(2n,n) of them: 10 for
3DT, 126 for 5DT, 1716 for 7DT), ranked by the number of node-level DOR transit paths per node
that cross the internal link, best first. Equal counts share a rank. Each line gives the
configuration's canonical name (a letter A-J for 3DT, else Card0's ports) and its spec string.
Only the shape of TOPOLOGY matters: twin:4x4x4 and twin:4x4x4/A give the same list.

For a k-ary n-tree (ktree:K,N, any configuration) it lists every configuration of a Type-A
T-switch (chip α holding port 0: C(2k,k)/2 of them, 35 for k = 4), ranked by the routes through
the T-switch that cross between its two chips under DESTRO and uniform traffic, at its busiest
Type-A stage (crossing_internal; by_stage gives every stage). The optimum, k^(n+1)/2 (128 for
ktree:4,3), is reached exactly by the configurations that keep each down port with its up port.

For a dragonfly (dragonfly:..., any arrangement) it lists the global-link arrangements of its
size (consecutive, the paper's, and relative), ranked by the busiest channel under Valiant
routing at the worst group shift K (groupshift:K: every PE of group i sends to group i+K, for
every K from 1 to G-1): its routes, the routes of one source PE, their ratio (the channel's
load per unit of injection), the worst K and the injection rate at which Valiant routing
saturates there. Minimal routing loads a group shift's one link with all a·p PEs of a group
under any arrangement, so it does not rank them. Every route is followed, so the time grows as
h^9 for a balanced dragonfly: under a second for dragonfly:4, minutes for dragonfly:8.`,
		Example: "  twintorus configs twin:4x4x4\n  twintorus configs twin:5x5x5x5x5 --json\n  twintorus configs ktree:4,3/cswitch\n  twintorus configs dragonfly:4",
		Args:    oneTopology("configs", "twin:4x4x4"),
		RunE: func(cmd *cobra.Command, args []string) error {
			tie, err := parseTie(tieName)
			if err != nil {
				return err
			}
			spec, err := topology.Parse(args[0])
			if err != nil {
				return err
			}
			fam, _ := topology.LookupFamily(string(spec.Family))
			if fam.Variants == nil {
				return fmt.Errorf("configs has no variants for this family: %s is of family %s; it ranks the configurations of %s", spec, spec.Family, familiesWithVariants(spec))
			}
			variants, err := fam.Variants(spec)
			if err != nil {
				return err
			}
			ranking, err := analysis.RankVariants(variants, tie)
			if err != nil {
				return err
			}
			rep := configsReport{Topology: spec.Shape(), Criterion: ranking.Criterion, Transit: ranking.Total}
			if spec.Family == topology.FamilyTwin {
				rep.Tie = ranking.Transit.Tie.String()
			}
			for _, r := range ranking.Ranked {
				c := configReport{Rank: r.Rank, Name: r.Name, Spec: r.Spec, CBest: r.CBest, Optimal: r.Optimal}
				share := float64(r.Crossing) / float64(max(r.Total, 1))
				switch {
				case spec.Family == topology.FamilyDragonfly:
					c.BusiestRoutes, c.SourceRoutes, c.Load, c.WorstShift, c.ByShift = &r.Crossing, r.Total, &share, r.Stage, r.ByStage
				case r.Stage >= 0:
					c.CrossingInternal, c.CrossingShare = &r.Crossing, &share
					c.Stage, c.Routes, c.ByStage = &r.Stage, r.Total, r.ByStage
				default:
					c.CrossingInternal, c.CrossingShare = &r.Crossing, &share
				}
				rep.Configurations = append(rep.Configurations, c)
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), rep)
			}
			return printConfigs(cmd.OutOrStdout(), &rep)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of text")
	cmd.Flags().StringVar(&tieName, "tie", "plus", "DOR direction at distance k/2 in even rings: plus (the papers') or minus (mirror, whose ties depend on the source PE, has no node-level count)")
	return cmd
}

func printConfigs(w io.Writer, r *configsReport) error {
	if len(r.Configurations) > 0 && r.Configurations[0].BusiestRoutes != nil {
		return printArrangements(w, r)
	}
	if r.Transit > 0 {
		fmt.Fprintf(w, "%s: %d configurations, %d transit paths per node (DOR, ties: %s)\n",
			r.Topology, len(r.Configurations), r.Transit, r.Tie)
	} else {
		fmt.Fprintf(w, "%s: %d configurations of a Type-A T-switch; crossing_internal: %s\n", r.Topology, len(r.Configurations), r.Criterion)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "rank\tname\tcrossing_internal\tshare\tspec")
	for _, c := range r.Configurations {
		spec := c.Spec
		switch {
		case c.CBest && c.Stage != nil:
			spec += "  (cswitch's S^A)"
		case c.CBest:
			spec += "  (cbest)"
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%.1f %%\t%s\n", c.Rank, c.Name, *c.CrossingInternal, 100**c.CrossingShare, spec)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("writing the ranking: %w", err)
	}
	return nil
}

// printArrangements prints a dragonfly's global-link arrangements, ranked.
func printArrangements(w io.Writer, r *configsReport) error {
	fmt.Fprintf(w, "%s: %d global-link arrangements, ranked by the %s\n", r.Topology, len(r.Configurations), r.Criterion)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "rank\tname\tbusiest_routes\tsource_routes\tload\tworst_shift\tVAL saturates at\tspec")
	for _, c := range r.Configurations {
		spec := c.Spec
		if c.CBest {
			spec += "  (the paper's)"
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%.3f\t%d\t%.3f\t%s\n", c.Rank, c.Name, *c.BusiestRoutes, c.SourceRoutes, *c.Load, c.WorstShift, 1 / *c.Load, spec)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("writing the ranking: %w", err)
	}
	return nil
}

// familiesWithVariants names the families whose configurations configs can rank, each
// with an example: the twin torus of the asked torus's or mesh's shape when there is
// one (e.g. "twin (e.g. twin:4x4)" for mesh:4x4), else the family's own. Other
// families' parameters mean something else (a k-ary n-tree's are K,N; a file has
// none), so their shape is never borrowed: that once indexed an empty radix.
func familiesWithVariants(asked topology.Spec) string {
	var names []string
	for _, f := range topology.Families() {
		if f.Variants == nil {
			continue
		}
		ex := f.Examples[0]
		if s, err := topology.Parse(ex); err == nil {
			ex = s.Shape()
		}
		if f.Name == topology.FamilyTwin && (asked.Family == topology.FamilyTorus || asked.Family == topology.FamilyMesh) && len(asked.Radix) >= 2 {
			if s, err := topology.Parse(topology.Spec{Family: f.Name, Radix: asked.Radix}.Shape()); err == nil {
				ex = s.Shape()
			}
		}
		names = append(names, fmt.Sprintf("%s (e.g. %s)", f.Name, ex))
	}
	return strings.Join(names, " and ")
}
