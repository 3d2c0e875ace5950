package figures

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/datasets"
	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/topology"
)

// KNSPrices are the KNS paper's list prices (its Tables 5–7, rows kns-t5-*, kns-t6-*
// and kns-t7-* of datasets/reference/kns.csv) as the cost model takes them: every
// listed switch, single- and dual-port NICs, and the cables of its placement rules
// (§5.3): 2 m copper inside a cabinet, 10 m fiber between cabinets, 5 m copper
// between a torus' neighbouring cabinets.
func KNSPrices() (analysis.Prices, error) {
	refs, err := datasets.References("kns")
	if err != nil {
		return analysis.Prices{}, err
	}
	var p analysis.Prices
	get := func(id string) float64 {
		r, ok := datasets.Find(refs, id)
		if !ok && err == nil {
			err = fmt.Errorf("kns.csv has no row %s", id)
		}
		return r.Value
	}
	for _, r := range refs {
		if ports, ok := strings.CutPrefix(r.ID, "kns-t5-switch-"); ok {
			n, perr := strconv.Atoi(ports)
			if perr != nil {
				return p, fmt.Errorf("kns.csv row %s: %w", r.ID, perr)
			}
			p.Switches = append(p.Switches, analysis.SwitchPrice{Ports: n, Price: r.Value})
		}
	}
	p.NIC1, p.NIC2 = get("kns-t7-nic-single"), get("kns-t7-nic-dual")
	p.Local, p.Global, p.Near = get("kns-t6-copper-2m"), get("kns-t6-fiber-10m"), get("kns-t6-copper-5m")
	if err == nil && len(p.Switches) == 0 {
		err = fmt.Errorf("kns.csv lists no switch prices")
	}
	return p, err
}

// CostRow is one network of a throughput-per-dollar table.
type CostRow struct {
	Topology     string
	Cost         *analysis.CostReport
	Throughput   float64 // flits/cycle/node
	PerDollar    float64 // throughput / total cost
	Paper        float64 // the paper's total cost in M$, 0 when it gives none
	PaperPerCost float64 // the paper's throughput per cost, in 1e-9/$
}

// CostTable prices each topology with the paper's prices and divides the given
// throughput (ours, measured, or the paper's) by its cost; the paper's Table 8 values
// come beside it where it has them.
func CostTable(topologies []string, throughput []float64) ([]CostRow, error) {
	prices, err := KNSPrices()
	if err != nil {
		return nil, err
	}
	refs, err := datasets.References("kns")
	if err != nil {
		return nil, err
	}
	var out []CostRow
	for i, spec := range topologies {
		net, err := topology.New(spec)
		if err != nil {
			return nil, err
		}
		c, err := analysis.Cost(net, prices)
		if err != nil {
			return nil, err
		}
		row := CostRow{Topology: net.String(), Cost: c, Throughput: throughput[i], PerDollar: throughput[i] / c.Total}
		for _, r := range datasets.Filter(refs, func(r datasets.Reference) bool { return r.Topology == net.String() && r.Where == "Table 8" }) {
			if strings.HasSuffix(r.ID, "-per-cost") {
				row.PaperPerCost = r.Value
			} else {
				row.Paper = r.Value
			}
		}
		out = append(out, row)
	}
	return out, nil
}

// CostTableRows lays a cost table out for kernel.Table.
func CostTableRows(rows []CostRow) (headers []string, cells [][]string) {
	headers = []string{"topology", "switches", "cables", "cost (M$)", "paper (M$)", "throughput", "per $ (1e-9)", "paper per $ (1e-9)"}
	for _, r := range rows {
		paper, paperPer := "—", "—"
		if r.Paper > 0 {
			paper = fmt.Sprintf("%g", r.Paper)
			paperPer = fmt.Sprintf("%.2f", r.PaperPerCost)
		}
		cells = append(cells, []string{r.Topology, strconv.Itoa(r.Cost.Switches + r.Cost.Routers), strconv.Itoa(r.Cost.Links),
			fmt.Sprintf("%.1f", r.Cost.Total/1e6), paper, fmt.Sprintf("%.3f", r.Throughput), fmt.Sprintf("%.2f", 1e9*r.PerDollar), paperPer})
	}
	return headers, cells
}
