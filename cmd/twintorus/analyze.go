package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/twintorus/twintorus/figures"
	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

func init() { commands = append(commands, newAnalyzeCmd) }

// loadBudget is the number of route hops above which analyze skips the channel-load
// bound unless --load asks for it (about a second on one core).
const loadBudget = 2e7

type analyzeReport struct {
	Topology            string       `json:"topology"`
	Switches            int          `json:"switches"`
	Terminals           int          `json:"terminals"`
	Links               int          `json:"links"`
	Diameter            int          `json:"diameter"`
	AvgDistance         float64      `json:"avg_distance"`
	AvgDistanceInclSelf float64      `json:"avg_distance_incl_self"`
	Load                *loadReport  `json:"load,omitempty"`
	LoadBound           *float64     `json:"load_bound,omitempty"`
	AvgDORHops          *float64     `json:"avg_dor_hops,omitempty"`
	Paths               *pathsReport `json:"paths,omitempty"`
	// TSDOR is TSDOR's load and hops on twin tori it fits (the EXTOLL paper's routing).
	TSDOR *loadReport `json:"tsdor,omitempty"`
	// Equivalents are the tori the papers pair a twin torus with: same cards, same PEs.
	Equivalents []equivalentReport `json:"equivalents,omitempty"`
	// Bisection is the family's formula and, on networks small enough, spectral bounds.
	Bisection *bisectionReport `json:"bisection,omitempty"`
	// Cost is the KNS paper's cost model, for the families its placement rules cover.
	Cost *costReport `json:"cost,omitempty"`
}

type bisectionReport struct {
	Formula       int64   `json:"formula,omitempty"`
	FormulaSource string  `json:"formula_source,omitempty"`
	Lambda2       float64 `json:"lambda2,omitempty"`
	Lower         int64   `json:"lower,omitempty"`
	Upper         int64   `json:"upper,omitempty"`
}

type costReport struct {
	TotalUSD    float64        `json:"total_usd"`
	SwitchesUSD float64        `json:"switches_usd"`
	NICsUSD     float64        `json:"nics_usd"`
	CablesUSD   float64        `json:"cables_usd"`
	Cables      int            `json:"cables"`
	Local       int            `json:"cables_local"`
	Global      int            `json:"cables_global"`
	Near        int            `json:"cables_near"`
	ByPorts     map[string]int `json:"switches_by_ports"`
}

type equivalentReport struct {
	Kind      string `json:"kind"`
	Topology  string `json:"topology"`
	CardPorts int    `json:"card_ports"`
	Source    string `json:"source"`
}

type loadReport struct {
	Routing         string  `json:"routing"` // dor (DORT on twin tori) on grids, else min
	Tie             string  `json:"tie"`
	Bound           float64 `json:"bound"`
	ChannelBound    float64 `json:"channel_bound"`
	MaxRoutes       int64   `json:"max_routes"`
	MaxInternal     int64   `json:"max_routes_internal"`
	MaxExternal     int64   `json:"max_routes_external"`
	AvgHops         float64 `json:"avg_hops"`
	AvgExternalHops float64 `json:"avg_external_hops"`
	AvgInternalHops float64 `json:"avg_internal_hops"`
	MaxHops         int     `json:"max_hops"`
}

type pathsReport struct {
	Configuration    string    `json:"configuration"`
	Tie              string    `json:"tie"`
	Transit          int64     `json:"transit"`
	CrossingInternal int64     `json:"crossing_internal"`
	CrossingShare    float64   `json:"crossing_share"`
	Ports            []string  `json:"ports"`
	R                [][]int64 `json:"r"`
}

func newAnalyzeCmd() *cobra.Command {
	var paths, asJSON, forceLoad bool
	var tieName, anynet string
	cmd := &cobra.Command{
		Use:   "analyze TOPOLOGY",
		Short: "Exact analysis: size, diameter, average distance, channel-load bound, DOR transit paths",
		Long: `analyze prints a network's size and its exact PE-to-PE distances: diameter and average
distance in switch-to-switch hops (an nDT internal link is a hop, PE links are not), averaged
over ordered pairs of distinct PEs and, as the thesis does, over all N² pairs with the self pairs
at distance 0. It also prints the uniform-traffic throughput bound of DOR (DORT on twin tori, and TSDOR where it fits),
(N−1)/(routes on the busiest channel) flits/cycle/PE capped at 1, and the average route
length, when that takes about a second or less (--load forces it). Each routing sends ties
(distance k/2 in an even ring) by its own rule, plus for DOR and DORT and mirror for TSDOR
(PE0's ties +, PE1's −), unless --tie names one for all. For a twin torus it lists
the tori the papers compare it with: the mD torus of the same cards and the nD torus of
2n-port cards, with the same PEs.

With --paths (twin tori only) it prints the node-level DOR transit paths per node, how many of
them cross the internal link under the network's configuration, and the matrix R of transit
paths per (input port, output port), with ties plus or minus (one route per pair of nodes,
where mirror has two).

With --anynet FILE it writes the network in BookSim2's anynet format instead (router ids are
our switch ids, node ids our PE ids; docs/booksim.md, "Exporting a network to BookSim2").

TOPOLOGY is a spec string:
` + topology.Grammar(),
		Example: "  twintorus analyze twin:4x4x4/D --paths\n  twintorus analyze torus:16x8 --json\n  twintorus analyze twin:4x4x4/A --anynet twin.anynet",
		Args:    oneTopology("analyze", "twin:4x4x4/D"),
		RunE: func(cmd *cobra.Command, args []string) error {
			tie, err := parseTie(tieName)
			if err != nil {
				return err
			}
			net, err := topology.New(args[0])
			if err != nil {
				return err
			}
			if anynet != "" {
				return writeAnynet(cmd, net, anynet)
			}
			if paths && !net.IsTwin() {
				return fmt.Errorf("--paths counts DOR transit paths of nDT twin tori, and %s is not one; give a twin torus such as %s", net, twinLike(net))
			}
			rep, err := analyze(cmd, net, tie, paths, forceLoad)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), rep)
			}
			return printAnalyze(cmd.OutOrStdout(), rep)
		},
	}
	cmd.Flags().BoolVar(&paths, "paths", false, "count DOR transit paths per node and internal-link crossings (twin tori)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of text")
	cmd.Flags().BoolVar(&forceLoad, "load", false, "compute the channel-load bound even on large networks")
	cmd.Flags().StringVar(&tieName, "tie", "", "tie rule at distance k/2 in even rings: plus, minus or mirror (PE0's ties +, PE1's -); default each routing's own: plus for DOR, DORT and --paths, mirror for TSDOR")
	cmd.Flags().StringVar(&anynet, "anynet", "", "write the network to this file in BookSim2's anynet format (network_file) instead of analysing it")
	return cmd
}

// writeAnynet writes net to path in BookSim2's anynet format and says what it wrote.
func writeAnynet(cmd *cobra.Command, net *topology.Network, path string) error {
	var buf bytes.Buffer
	if err := topology.WriteAnynet(&buf, net); err != nil {
		return fmt.Errorf("%s: %w", net, err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return err
	}
	_, err := fmt.Fprintf(cmd.OutOrStdout(), "wrote %s: %s in BookSim2's anynet format, %d routers (our switch ids), %d nodes (our PE ids), %d links\n",
		path, net, net.Switches(), net.Terminals(), net.Links())
	return err
}

func analyze(cmd *cobra.Command, net *topology.Network, tie routing.Tie, paths, forceLoad bool) (*analyzeReport, error) {
	ctx := cmd.Context()
	dist, err := analysis.Distances(ctx, net)
	if err != nil {
		return nil, err
	}
	rep := &analyzeReport{
		Topology: net.String(), Switches: net.Switches(), Terminals: net.Terminals(), Links: net.Links(),
		Diameter: dist.Diameter, AvgDistance: dist.AvgDistance, AvgDistanceInclSelf: dist.AvgDistanceInclSelf,
	}
	// Routing cost: the sources of one node (tori, twin tori) or all PEs (meshes), each
	// to every PE, over routes of about the average distance.
	sources := float64(net.Terminals())
	if net.Translational() {
		sources = float64(net.SwitchesPerNode() * net.TerminalsPerSwitch())
	}
	if forceLoad || sources*float64(net.Terminals())*(dist.AvgDistance+1) <= loadBudget {
		rt, name, err := loadRouting(net, tie)
		if err != nil {
			return nil, err
		}
		if rep.Load, err = channelLoad(cmd, rt, name, routing.ResolveTie(name, net, tie)); err != nil {
			return nil, err
		}
		rep.LoadBound, rep.AvgDORHops = &rep.Load.Bound, &rep.Load.AvgHops
		if routing.TSDORFits(net) == nil {
			ts := routing.NewTSDOR(net, tie)
			if rep.TSDOR, err = channelLoad(cmd, ts, "tsdor", ts.Tie()); err != nil {
				return nil, err
			}
		}
	}
	if net.IsTwin() {
		eq, err := topology.Equivalents(net.Spec())
		if err != nil {
			return nil, err
		}
		for _, e := range eq {
			rep.Equivalents = append(rep.Equivalents, equivalentReport{Kind: e.Kind, Topology: e.Spec.String(), CardPorts: e.CardPorts, Source: e.Source})
		}
	}
	b, err := analysis.Bisection(net)
	if err != nil {
		return nil, err
	}
	if b.Formula > 0 || b.Spectral {
		rep.Bisection = &bisectionReport{Formula: b.Formula, FormulaSource: b.Source, Lambda2: b.Lambda2, Lower: b.Lower, Upper: b.Upper}
	}
	if _, err := analysis.Count(net); err == nil {
		prices, err := figures.KNSPrices()
		if err != nil {
			return nil, err
		}
		c, err := analysis.Cost(net, prices)
		if err != nil {
			return nil, err
		}
		rep.Cost = &costReport{TotalUSD: c.Total, SwitchesUSD: c.SwitchCost, NICsUSD: c.NICCost, CablesUSD: c.CableCost,
			Cables: c.Links, Local: c.Local, Global: c.Global, Near: c.Near, ByPorts: map[string]int{}}
		for ports, n := range c.ByPorts {
			rep.Cost.ByPorts[strconv.Itoa(ports)] = n
		}
	}
	if paths {
		t, err := analysis.TransitClosedForm(net.Radices(), tie)
		if err != nil {
			return nil, fmt.Errorf("--paths: %w", err)
		}
		n := net.Dims()
		p := &pathsReport{Configuration: net.Config().Name(n), Tie: t.Tie.String(), Transit: t.Total(),
			CrossingInternal: t.Crossing(net.Config()), Ports: analysis.PortNames(n), R: t.R}
		if p.Transit > 0 {
			p.CrossingShare = float64(p.CrossingInternal) / float64(p.Transit)
		}
		rep.Paths = p
	}
	return rep, nil
}

// channelLoad is the uniform-traffic load report of a deterministic routing with its
// tie rule, resolved.
func channelLoad(cmd *cobra.Command, rt routing.Pather, name string, tie routing.Tie) (*loadReport, error) {
	l, err := analysis.Load(cmd.Context(), rt)
	if err != nil {
		return nil, err
	}
	return &loadReport{Routing: name, Tie: tie.String(), Bound: l.Bound, ChannelBound: l.ChannelBound, MaxRoutes: l.MaxRoutes,
		MaxInternal: l.MaxInternal, MaxExternal: l.MaxExternal, AvgHops: l.AvgHops,
		AvgExternalHops: l.AvgExternalHops, AvgInternalHops: l.AvgInternalHops, MaxHops: l.MaxHops}, nil
}

func printAnalyze(w io.Writer, r *analyzeReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "topology\t%s\n", r.Topology)
	fmt.Fprintf(tw, "switches\t%d\n", r.Switches)
	fmt.Fprintf(tw, "terminals (PEs)\t%d\n", r.Terminals)
	fmt.Fprintf(tw, "links\t%d\n", r.Links)
	fmt.Fprintf(tw, "diameter\t%d hops\n", r.Diameter)
	fmt.Fprintf(tw, "average distance\t%.4f hops over ordered pairs of distinct PEs\n", r.AvgDistance)
	fmt.Fprintf(tw, "average distance incl. self\t%.4f hops over all N² pairs, self at 0\n", r.AvgDistanceInclSelf)
	if r.Load == nil {
		fmt.Fprintf(tw, "load bound (uniform)\tskipped on a network this size; --load computes it\n")
	}
	for _, l := range []*loadReport{r.Load, r.TSDOR} {
		if l == nil {
			continue
		}
		name := strings.ToUpper(l.Routing)
		ties := ""
		if l.Routing == "dor" || l.Routing == "dort" || l.Routing == "tsdor" {
			ties = ", ties " + l.Tie
		}
		fmt.Fprintf(tw, "load bound (uniform, %s)\t%.4f flits/cycle/PE: %d routes on the busiest channel (internal %d, external %d)%s\n",
			name, l.Bound, l.MaxRoutes, l.MaxInternal, l.MaxExternal, ties)
		fmt.Fprintf(tw, "average %s hops\t%.4f (%.4f external + %.4f internal), at most %d\n",
			name, l.AvgHops, l.AvgExternalHops, l.AvgInternalHops, l.MaxHops)
	}
	if b := r.Bisection; b != nil {
		if b.Formula > 0 {
			fmt.Fprintf(tw, "bisection (formula)\t%d links (%s)\n", b.Formula, b.FormulaSource)
		}
		if b.Lower > 0 || b.Upper > 0 {
			fmt.Fprintf(tw, "bisection (spectral)\t%d to %d links: λ₂·n/4 with λ₂ = %.4f, and a cut found\n", b.Lower, b.Upper, b.Lambda2)
		}
	}
	if c := r.Cost; c != nil {
		ports := make([]int, 0, len(c.ByPorts))
		for k := range c.ByPorts {
			p, _ := strconv.Atoi(k)
			ports = append(ports, p)
		}
		sort.Ints(ports)
		var sw []string
		for _, p := range ports {
			sw = append(sw, fmt.Sprintf("%d of %d ports", c.ByPorts[strconv.Itoa(p)], p))
		}
		fmt.Fprintf(tw, "cost (KNS prices)\t$%.3f M: switches $%.3f M (%s), NICs $%.3f M, %d cables $%.3f M (%d local, %d global, %d near)\n",
			c.TotalUSD/1e6, c.SwitchesUSD/1e6, strings.Join(sw, ", "), c.NICsUSD/1e6, c.Cables, c.CablesUSD/1e6, c.Local, c.Global, c.Near)
	}
	for _, e := range r.Equivalents {
		fmt.Fprintf(tw, "same cards, same PEs (%s)\t%s, %d-port cards (%s)\n", e.Kind, e.Topology, e.CardPorts, e.Source)
	}
	if p := r.Paths; p != nil {
		fmt.Fprintf(tw, "transit paths per node\t%d (DOR, node level, ties: %s)\n", p.Transit, p.Tie)
		fmt.Fprintf(tw, "crossing internal link\t%d (%.1f %%) under configuration %s\n", p.CrossingInternal, 100*p.CrossingShare, p.Configuration)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	if p := r.Paths; p != nil {
		fmt.Fprintln(w, "\nR: transit paths per node by input port (rows) and output port (columns)")
		t := &analysis.Transit{R: p.R, Radix: make([]int, len(p.Ports)/2)}
		if _, err := io.WriteString(w, t.String()); err != nil {
			return fmt.Errorf("writing the report: %w", err)
		}
	}
	return nil
}

// loadRouting is the deterministic routing whose channel loads analyze reports: the
// family's own (FamilyDef.LoadRouting: dimension order on the twisted tori's records,
// Algorithm R on tori of clusters), else DOR (DORT) on networks it fits, else minimal
// routing with its lowest-port tie rule.
func loadRouting(net *topology.Network, tie routing.Tie) (routing.Pather, string, error) {
	if fam, ok := topology.LookupFamily(string(net.Spec().Family)); ok && fam.LoadRouting != "" {
		def, _, ok := routing.LookupRouting(fam.LoadRouting)
		if !ok {
			return nil, "", fmt.Errorf("family %s names load routing %q, which is not a routing", fam.Name, fam.LoadRouting)
		}
		f, err := def.New(net, routing.Options{Scheme: routing.SchemeNone, Tie: tie})
		if err != nil {
			return nil, "", fmt.Errorf("the %s load routing on %s: %w", def.Name, net, err)
		}
		p, ok := f.(routing.Pather)
		if !ok {
			return nil, "", fmt.Errorf("family %s names load routing %s, which does not list a route's hops", fam.Name, def.Name)
		}
		return p, def.Name, nil
	}
	for _, name := range []string{"dor", "dort"} {
		if def, _, _ := routing.LookupRouting(name); def.Fits(net) == nil {
			return routing.NewDOR(net, tie), name, nil
		}
	}
	r, err := routing.NewMinimal(net, false)
	return r, "min", err
}

// oneTopology checks that a command got exactly one TOPOLOGY argument.
func oneTopology(cmd, example string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		switch {
		case len(args) == 0:
			return fmt.Errorf("%s needs a TOPOLOGY argument, e.g. twintorus %s %s (families: %s; see twintorus help %s)", cmd, cmd, example, topology.FamilyNames(), cmd)
		case len(args) > 1:
			return fmt.Errorf("%s takes one TOPOLOGY argument, got %d: %s", cmd, len(args), strings.Join(args, " "))
		}
		return nil
	}
}

func parseTie(s string) (routing.Tie, error) {
	t, err := routing.ParseTie(s)
	if err != nil {
		return 0, fmt.Errorf("--tie: %w", err)
	}
	return t, nil
}

// twinLike is a twin torus of the network's shape, or twin:4x4x4/cbest.
func twinLike(net *topology.Network) string {
	if net.Dims() < 2 {
		return "twin:4x4x4/cbest"
	}
	return topology.Spec{Family: topology.FamilyTwin, Radix: net.Radices(), Config: "cbest"}.String()
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	return nil
}
