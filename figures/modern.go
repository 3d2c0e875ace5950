package figures

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/twintorus/twintorus/plots"
	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/topology"
)

// The comparison of today's topologies with the twin tori (modern-topologies.ipynb,
// issue 42): the 3D and 5D twin tori, a 3D torus, a fat-tree, a dragonfly, a HyperX and
// a Slim Fly at about 1,024 and about 16,384 PEs, each under its own routing, in five
// experiments per scale (one per family and routing, since a spec's axes are a
// product): modern-1k-tori, -ktree, -dragonfly, -hyperx, -slimfly and the same with
// 16k.

// ModernNetwork is one network of the comparison: its spec, its name in the tables,
// and the network of the same family and routing that a quick run simulates instead
// (about 100 PEs).
type ModernNetwork struct {
	Spec, Name, Quick string
}

// ModernNetworks are the comparison's networks at about 1,024 PEs (scale "1k") or
// about 16,384 (scale "16k"; the Slim Fly's nearest is q = 23, 19,044 PEs), in the
// order of its tables and charts.
func ModernNetworks(scale string) ([]ModernNetwork, error) {
	switch scale {
	case "1k":
		return []ModernNetwork{
			{"twin:8x8x8", "3DT 8×8×8", "twin:4x4x4"}, {"twin:4x4x4x4x2", "5DT 4×4×4×4×2", "twin:4x2x2x2x2"},
			{"torus:16x8x8", "3D torus 16×8×8", "torus:8x4x4"}, {"ktree:4,5", "fat-tree 4-ary 5-tree", "ktree:4,3"},
			{"dragonfly:4", "dragonfly a=8, p=h=4", "dragonfly:2"}, {"hyperx:8x8x4@4", "HyperX 8×8×4, T=4", "hyperx:4x4x2@4"},
			{"slimfly:9", "Slim Fly q=9", "slimfly:4"},
		}, nil
	case "16k":
		return []ModernNetwork{
			{"twin:32x16x16", "3DT 32×16×16", "twin:4x4x4"}, {"twin:8x8x8x4x4", "5DT 8×8×8×4×4", "twin:4x2x2x2x2"},
			{"torus:32x32x16", "3D torus 32×32×16", "torus:8x4x4"}, {"ktree:4,7", "fat-tree 4-ary 7-tree", "ktree:4,3"},
			{"dragonfly:8", "dragonfly a=16, p=h=8", "dragonfly:2"}, {"hyperx:16x16x16@4", "HyperX 16×16×16, T=4", "hyperx:4x4x2@4"},
			{"slimfly:23", "Slim Fly q=23", "slimfly:4"},
		}, nil
	}
	return nil, fmt.Errorf("figures: no comparison at scale %q: accepted are 1k and 16k", scale)
}

// modernFamilies are the suffixes of a scale's five experiments.
func modernFamilies() []string { return []string{"tori", "ktree", "dragonfly", "hyperx", "slimfly"} }

// modernShrink is a quick run's spec: each network's Quick stand-in (nets), at offered
// loads 0.15 and 0.5 when loads.
func modernShrink(nets []ModernNetwork, loads bool) func(experiment.Spec) experiment.Spec {
	quick := map[string]string{}
	for _, n := range nets {
		quick[n.Spec] = n.Quick
	}
	return func(q experiment.Spec) experiment.Spec {
		var topos []string
		for _, t := range q.Topologies {
			topos = append(topos, quick[strings.TrimSuffix(t, "/cbest")])
		}
		q.Topologies = topos
		if loads {
			q.Loads = experiment.Fixed(0.15, 0.5)
		}
		return q
	}
}

// Table is a table for kernel.Table: its column headers and its rows.
type Table struct {
	Headers []string
	Rows    [][]string
}

// ModernStructure is the table of what the comparison's networks are made of and
// cost, at both scales: PEs, switches, switches by ports (PEs included), diameter and
// average distance between PEs, cables, and the price under the KNS paper's cost model
// (KNSPrices, analysis.Cost), in total and per PE.
func ModernStructure(ctx context.Context) (Table, error) {
	t := Table{Headers: []string{"network", "spec", "PEs", "switches", "switches × ports", "diameter",
		"average distance", "cables", "cost (M$)", "cost per PE ($)"}}
	prices, err := KNSPrices()
	if err != nil {
		return t, err
	}
	for _, scale := range []string{"1k", "16k"} {
		nets, _ := ModernNetworks(scale)
		for _, n := range nets {
			net, err := topology.New(n.Spec)
			if err != nil {
				return t, err
			}
			d, err := analysis.Distances(ctx, net)
			if err != nil {
				return t, err
			}
			c, err := analysis.Cost(net, prices)
			if err != nil {
				return t, err
			}
			var ports []string
			for _, p := range slices.Sorted(maps.Keys(c.ByPorts)) {
				ports = append(ports, fmt.Sprintf("%d×%d", c.ByPorts[p], p))
			}
			t.Rows = append(t.Rows, []string{n.Name, n.Spec, fmt.Sprint(net.Terminals()), fmt.Sprint(net.Switches()),
				strings.Join(ports, " "), fmt.Sprint(d.Diameter), fmt.Sprintf("%.2f", d.AvgDistance), fmt.Sprint(c.Links),
				fmt.Sprintf("%.2f", c.Total/1e6), fmt.Sprintf("%.0f", c.Total/float64(net.Terminals()))})
		}
	}
	return t, nil
}

// Modern1K is the open-loop comparison at about 1,024 PEs: the five modern-1k-*
// experiments joined, with their saturation table (ModernSaturations). A quick run
// simulates each network's Quick stand-in at offered loads 0.15 and 0.5.
func Modern1K(ctx context.Context, mode Mode, progress func(done, total int)) (*Results, Table, error) {
	return loadModern(ctx, "1k", mode, progress)
}

// Modern16K is the comparison at about 16,384 PEs (the modern-16k-* experiments).
// Its simulations take hours on two cores, so a quick run reads the stored full runs,
// as the default mode does (the quick stand-ins of Modern1K are the same families and
// routings); Recompute reruns them.
func Modern16K(ctx context.Context, mode Mode, progress func(done, total int)) (*Results, Table, error) {
	return loadModern(ctx, "16k", mode, progress)
}

func loadModern(ctx context.Context, scale string, mode Mode, progress func(done, total int)) (*Results, Table, error) {
	res, err := joinModern(ctx, scale, "", mode, progress, LoadResultsShrunk)
	if err != nil {
		return nil, Table{}, err
	}
	t, err := ModernSaturations(res)
	return res, t, err
}

// joinModern loads a scale's five experiments (modern-SCALE-KIND-FAMILY) with load
// (LoadResultsShrunk or LoadClosedLoopShrunk) and joins them. A quick run simulates each
// network's Quick stand-in (open loop, KIND "": at offered loads 0.15 and 0.5) at 1k
// and reads the stored runs at 16k, whose simulations take hours.
func joinModern(ctx context.Context, scale, kind string, mode Mode, progress func(done, total int),
	load func(context.Context, string, Mode, func(done, total int), func(experiment.Spec) experiment.Spec) (*Results, error)) (*Results, error) {
	nets, err := ModernNetworks(scale)
	if err != nil {
		return nil, err
	}
	if scale == "16k" && mode == Quick {
		mode = Stored
	}
	shrink := modernShrink(nets, kind == "")
	var res *Results
	for _, family := range modernFamilies() {
		r, err := load(ctx, "modern-"+scale+"-"+kind+family, mode, progress, shrink)
		if err != nil {
			return nil, err
		}
		if res == nil {
			res = r
		} else {
			res = res.Join(r)
		}
	}
	return res, nil
}

// ModernSaturations is the table of every curve's saturation throughput (±, the
// load it was reached at), its latency at the lowest load (the zero-load latency's
// estimate) and the saturation throughput per million dollars of network: the
// throughput times the PEs, over the network's price (KNSPrices). That last column is
// the comparison at equal cost: what a fixed budget buys, if a network bought with
// twice the money carried twice the traffic.
func ModernSaturations(res *Results) (Table, error) {
	t := Table{Headers: []string{"traffic", "network", "PEs", "routing", "latency at the lowest load (cycles)",
		"saturation throughput (flits/cycle/PE)", "at load", "flits/cycle per M$"}}
	prices, err := KNSPrices()
	if err != nil {
		return t, err
	}
	points := map[string]experiment.Point{}
	lowest := map[string]experiment.Summary{}
	for _, s := range res.Summaries() {
		points[s.CurveKey] = s.Point
		if l, ok := lowest[s.CurveKey]; !ok || s.Load < l.Load {
			lowest[s.CurveKey] = s
		}
	}
	costs := map[string]float64{}
	for _, sat := range res.Saturations {
		p := points[sat.CurveKey]
		net, err := topology.New(p.Topology)
		if err != nil {
			return t, err
		}
		cost, ok := costs[p.Topology]
		if !ok {
			c, err := analysis.Cost(net, prices)
			if err != nil {
				return t, err
			}
			cost, costs[p.Topology] = c.Total, c.Total
		}
		perM := sat.Throughput
		scale := float64(net.Terminals()) / (cost / 1e6)
		perM.Mean, perM.Low, perM.High = perM.Mean*scale, perM.Low*scale, perM.High*scale
		throughput := PlusMinus(sat.Throughput, 3)
		if sat.NotSteady > 0 {
			throughput += fmt.Sprintf(" (%d load(s) not stationary left out)", sat.NotSteady)
		}
		t.Rows = append(t.Rows, []string{p.Traffic, ModernName(p.Topology), fmt.Sprint(net.Terminals()), ModernRouting(p),
			PlusMinus(lowest[sat.CurveKey].Estimates[string(experiment.LatencyNetworkMean)], 1),
			throughput, fmt.Sprintf("%.2f", sat.PeakLoad), PlusMinus(perM, 0)})
	}
	return t, nil
}

// ModernName names a network of the comparison: "3DT 8×8×8", "5DT 4×4×4×4×2", "3D
// torus 16×8×8", "fat-tree 4-ary 5-tree", else its spec (dragonfly:4, hyperx:8x8x4@4,
// slimfly:9: the structure table says what they are).
func ModernName(spec string) string {
	s, err := topology.Parse(spec)
	if err != nil {
		return spec
	}
	shape := strings.ReplaceAll(strings.SplitN(s.Shape(), ":", 2)[1], "x", "×")
	switch s.Family {
	case topology.FamilyTwin:
		return fmt.Sprintf("%dDT %s", len(s.Radix), shape)
	case topology.FamilyTorus:
		return fmt.Sprintf("%dD torus %s", len(s.Radix), shape)
	case topology.FamilyKTree:
		if s.Config == "" && len(s.Radix) == 2 {
			return fmt.Sprintf("fat-tree %d-ary %d-tree", s.Radix[0], s.Radix[1])
		}
	}
	return spec
}

// ModernRouting names a curve's routing as the papers do: DORT, DOR, DESTRO, UGAL-L
// (the dragonfly's dfugal-l and the Slim Fly's sfugal), DAL, else its registry name.
func ModernRouting(p experiment.Point) string {
	switch p.Routing {
	case "dfugal-l", "sfugal":
		return "UGAL-L"
	case "dfugal-g":
		return "UGAL-G"
	case "":
		return "default"
	}
	return strings.ToUpper(p.Routing)
}

// ModernPatterns are the comparison's traffic patterns that res has curves of, one
// chart each, in this order: uniform, the two permutations every network takes
// (complement, randperm), bit reversal (power-of-two PE counts, at 1,024 PEs only) and
// "adversarial", each family's own (tornado on tori and twin tori, groupshift on the
// dragonfly, the dimension-0 shift on the HyperX).
func ModernPatterns(res *Results) []string {
	have := map[string]bool{}
	for _, s := range res.Summaries() {
		have[modernPattern(s.Point.Traffic)] = true
	}
	var out []string
	for _, p := range []string{"uniform", "complement", "randperm", "bitrev", "adversarial"} {
		if have[p] {
			out = append(out, p)
		}
	}
	return out
}

// modernPattern is the chart a traffic pattern is drawn in.
func modernPattern(traffic string) string {
	switch traffic {
	case "tornado", "groupshift", "shift":
		return "adversarial"
	}
	return traffic
}

// ModernThroughput is accepted against offered traffic under one of ModernPatterns,
// a curve per network, titled with the scale (e.g. "about 1,024 PEs").
func ModernThroughput(res *Results, pattern, scale string) (plots.LinePlot, error) {
	what := pattern + " traffic"
	if pattern == "adversarial" {
		what = "each family's adversarial traffic"
	}
	return Throughput(res, Only(func(s experiment.Summary) bool { return modernPattern(s.Point.Traffic) == pattern }),
		Saturated(), modernStyle(), modernNames(), Title(scale+", "+what+" (new results)"))
}

// ModernLatency is latency against accepted traffic under uniform traffic.
func ModernLatency(res *Results, scale string) (plots.LinePlot, error) {
	return Latency(res, Only(func(s experiment.Summary) bool { return s.Point.Traffic == "uniform" }),
		modernStyle(), modernNames(), Title(scale+", uniform traffic: latency against accepted traffic (new results)"))
}

func modernNames() Option {
	return Names(func(p experiment.Point) string { return ModernName(p.Topology) + " " + ModernRouting(p) })
}

// modernStyle draws the twin tori blue (3DT solid, 5DT dashed), the torus black, the
// fat-tree black dashed, the dragonfly vermillion, the HyperX green, the Slim Fly orange.
func modernStyle() Option {
	return Styles(func(p experiment.Point) (plots.Color, plots.Dash) {
		switch {
		case strings.HasPrefix(p.Topology, "twin:") && strings.Count(p.Topology, "x") == 2:
			return plots.Blue, plots.Solid
		case strings.HasPrefix(p.Topology, "twin:"):
			return plots.Blue, plots.Dashed
		case strings.HasPrefix(p.Topology, "torus:"):
			return plots.Black, plots.Solid
		case strings.HasPrefix(p.Topology, "ktree:"):
			return plots.Black, plots.Dashed
		case strings.HasPrefix(p.Topology, "dragonfly:"):
			return plots.Vermillion, plots.Solid
		case strings.HasPrefix(p.Topology, "hyperx:"):
			return plots.Green, plots.Solid
		}
		return plots.Orange, plots.Solid
	})
}

// ModernCollectives1K is the MPI collectives on the ~1,024-PE networks (the
// modern-1k-collectives-* workloads): execution time and network latency per packet,
// a row per collective and network; a quick run runs the Quick stand-ins.
func ModernCollectives1K(ctx context.Context, mode Mode, progress func(done, total int)) (*Results, Table, error) {
	return loadModernCollectives(ctx, "1k", mode, progress)
}

// ModernCollectives16K is ModernCollectives1K at about 16,384 PEs (a Broadcast and an
// AllReduce: the All2All's 268 million messages are out of two cores' reach); a quick
// run reads the stored runs.
func ModernCollectives16K(ctx context.Context, mode Mode, progress func(done, total int)) (*Results, Table, error) {
	return loadModernCollectives(ctx, "16k", mode, progress)
}

func loadModernCollectives(ctx context.Context, scale string, mode Mode, progress func(done, total int)) (*Results, Table, error) {
	t := Table{Headers: []string{"collective", "network", "PEs", "routing", "execution time (cycles)", "network latency per packet (cycles)"}}
	res, err := joinModern(ctx, scale, "collectives-", mode, progress, LoadClosedLoopShrunk)
	if err != nil {
		return nil, t, err
	}
	sums := slices.Clone(res.Summaries())
	slices.SortStableFunc(sums, func(a, b experiment.Summary) int { return strings.Compare(a.Point.Workload, b.Point.Workload) })
	for _, s := range sums {
		pes, err := PEs(s.Point.Topology)
		if err != nil {
			return nil, t, err
		}
		t.Rows = append(t.Rows, []string{s.Point.Workload, ModernName(s.Point.Topology), fmt.Sprint(pes), ModernRouting(s.Point),
			PlusMinus(s.Estimates[string(experiment.ExecutionCycles)], 0), PlusMinus(s.Estimates[string(experiment.LatencyNetworkMean)], 1)})
	}
	return res, t, nil
}
