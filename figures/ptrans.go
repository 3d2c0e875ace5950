package figures

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/twintorus/twintorus/plots"
	"github.com/twintorus/twintorus/sim/experiment"
)

// The nDT paper's Fig. 7 (datasets/workloads/ndt-ptrans.yaml): the PTRANS proxy on the
// 3D, 5DT and 5D tori of 1,024, 2,048 and 4,096 PEs, random one-task-per-PE mappings,
// execution time and network flit latency normalised to the 3D torus.

// PTRANSSpecs are the experiment's specs, one per size (each with its replications).
var PTRANSSpecs = []string{"ndt-ptrans-1k", "ndt-ptrans-2k", "ndt-ptrans-4k"}

// PTRANSQuickNetworks are what a quick run simulates instead: the 256-PE 3D, 5DT and 5D
// tori (the 5D by topology.Equivalents' rule).
var PTRANSQuickNetworks = []string{"torus:8x8x4", "twin:4x4x2x2x2/cbest", "torus:4x4x4x2x2"}

// PTRANSRow is one network of Fig. 7: its mean execution time and flit latency over the
// replications (with 95 % intervals) and both normalised to the 3D torus of its PEs.
type PTRANSRow struct {
	PEs              int
	Family, Topology string // "3D torus", "5DT torus", "5D torus"
	Exec, Latency    experiment.Estimate
	ExecNorm         float64 // Exec.Mean / the 3D torus's
	LatencyNorm      float64
	PaperExecNorm    float64 // the paper's (5DT only; NaN elsewhere)
	PaperLatencyNorm float64
}

// PTRANS reads the experiment in mode (Quick: the 1K spec on PTRANSQuickNetworks, two
// replications).
func PTRANS(ctx context.Context, mode Mode, progress func(done, total int)) ([]PTRANSRow, *ClosedLoopGroup, error) {
	g, err := loadClosedLoopGroup(ctx, PTRANSSpecs, mode, progress, func(name string) bool { return name == PTRANSSpecs[0] }, func(q experiment.Spec) experiment.Spec {
		q.Topologies = PTRANSQuickNetworks
		return q
	})
	if err != nil {
		return nil, nil, err
	}
	rows, err := ptransRows(g)
	return rows, g, err
}

// ptransPaper are the paper's 5DT reductions against the 3D torus (%), by PEs: execution
// time and flit latency (NaN: not stated).
var ptransPaper = map[int][2]string{1024: {"ndt-fig7-exec-1k", "ndt-fig7-latency-1k"}, 2048: {"ndt-fig7-exec-2k", ""}, 4096: {"ndt-fig7-exec-4k", "ndt-fig7-latency-4k"}}

func ptransRows(src Summarized) ([]PTRANSRow, error) {
	var rows []PTRANSRow
	for _, s := range src.Summaries() {
		pes, err := PEs(s.Point.Topology)
		if err != nil {
			return nil, err
		}
		rows = append(rows, PTRANSRow{PEs: pes, Family: Family(s.Point.Topology), Topology: s.Point.Topology,
			Exec: s.Estimates[string(experiment.ExecutionCycles)], Latency: s.Estimates[string(experiment.LatencyNetworkFlitMean)],
			PaperExecNorm: math.NaN(), PaperLatencyNorm: math.NaN()})
	}
	order := map[string]int{"3D torus": 0, "5DT torus": 1, "5D torus": 2}
	slices.SortStableFunc(rows, func(a, b PTRANSRow) int {
		if a.PEs != b.PEs {
			return a.PEs - b.PEs
		}
		return order[a.Family] - order[b.Family]
	})
	for i := range rows {
		j := slices.IndexFunc(rows, func(r PTRANSRow) bool { return r.PEs == rows[i].PEs && r.Family == "3D torus" })
		if j < 0 {
			return nil, fmt.Errorf("figures: PTRANS at %d PEs has no 3D torus to normalise to", rows[i].PEs)
		}
		rows[i].ExecNorm = rows[i].Exec.Mean / rows[j].Exec.Mean
		rows[i].LatencyNorm = rows[i].Latency.Mean / rows[j].Latency.Mean
		if ids, ok := ptransPaper[rows[i].PEs]; ok && rows[i].Family == "5DT torus" {
			for k, dst := range []*float64{&rows[i].PaperExecNorm, &rows[i].PaperLatencyNorm} {
				if ids[k] == "" {
					continue
				}
				v, err := paperValue(ids[k])
				if err != nil {
					return nil, err
				}
				*dst = 1 - v/100
			}
		}
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("figures: no PTRANS results")
	}
	return rows, nil
}

// PTRANSTable lays the rows out for kernel.Table.
func PTRANSTable(rows []PTRANSRow) (headers []string, out [][]string) {
	headers = []string{"PEs", "network", "topology", "execution (cycles)", "normalised", "paper", "flit latency (cycles)", "normalised", "paper"}
	norm := func(x float64) string {
		if math.IsNaN(x) {
			return "–"
		}
		return fmt.Sprintf("%.2f", x)
	}
	for _, r := range rows {
		out = append(out, []string{fmt.Sprint(r.PEs), r.Family, r.Topology, PlusMinus(r.Exec, 0), norm(r.ExecNorm), norm(r.PaperExecNorm),
			PlusMinus(r.Latency, 1), norm(r.LatencyNorm), norm(r.PaperLatencyNorm)})
	}
	return headers, out
}

// PTRANSBars is Fig. 7's left (latency false: execution time) or right panel (flit
// latency): per PE count the 3D, 5DT and 5D bars normalised to the 3D torus, and the
// paper's 5DT value as a marker.
func PTRANSBars(rows []PTRANSRow, latency bool) (plots.BarPlot, error) {
	var cats []string
	groups := []plots.BarGroup{{Name: "3D torus"}, {Name: "5DT torus"}, {Name: "5D torus"}, {Name: "paper 5DT", Marker: true}}
	for _, r := range rows {
		c := fmt.Sprintf("%d PEs", r.PEs)
		if len(cats) == 0 || cats[len(cats)-1] != c {
			cats = append(cats, c)
			for i := range groups {
				groups[i].Values = append(groups[i].Values, math.NaN())
			}
		}
		v, p := r.ExecNorm, r.PaperExecNorm
		if latency {
			v, p = r.LatencyNorm, r.PaperLatencyNorm
		}
		last := len(cats) - 1
		switch r.Family {
		case "3D torus":
			groups[0].Values[last] = v
		case "5DT torus":
			groups[1].Values[last] = v
			groups[3].Values[last] = p
		case "5D torus":
			groups[2].Values[last] = v
		}
	}
	if len(cats) == 0 {
		return plots.BarPlot{}, fmt.Errorf("figures: no PTRANS results to draw")
	}
	for _, g := range groups[:3] {
		for i, v := range g.Values {
			if math.IsNaN(v) {
				return plots.BarPlot{}, fmt.Errorf("figures: PTRANS has no %s at %s", g.Name, cats[i])
			}
		}
	}
	what := "execution time"
	if latency {
		what = "network flit latency"
	}
	return plots.BarPlot{Options: plots.Options{Title: "PTRANS: " + what + " normalised to the 3D torus", YLabel: what + " / 3D torus's"},
		Categories: cats, Groups: groups}, nil
}

// PTRANSClaims sets the paper's 5DT reductions (Fig. 7: execution time −25/−34/−22 %
// at 1K/2K/4K, flit latency −19 % at 1K and −38 % at 4K) beside ours: "yes" within 5
// points, "partly" when ours has the same sign, "no" otherwise.
func PTRANSClaims(rows []PTRANSRow) []Claim {
	var claims []Claim
	for _, r := range rows {
		if r.Family != "5DT torus" {
			continue
		}
		for _, c := range []struct {
			what        string
			norm, paper float64
		}{{"execution time", r.ExecNorm, r.PaperExecNorm}, {"network flit latency", r.LatencyNorm, r.PaperLatencyNorm}} {
			if math.IsNaN(c.paper) {
				continue
			}
			ours, paper := 100*(1-c.norm), 100*(1-c.paper)
			holds := "no"
			switch {
			case math.Abs(ours-paper) <= 5:
				holds = "yes"
			case (ours > 0) == (paper > 0):
				holds = "partly"
			}
			claims = append(claims, Claim{Statement: fmt.Sprintf("PTRANS, %d PEs: 5DT %s lower than 3D", r.PEs, c.what),
				Paper: fmt.Sprintf("%+.0f %%", -paper), Ours: fmt.Sprintf("%+.1f %%", -ours), Holds: holds, Source: "[nDT] §5.5, Fig. 7"})
		}
	}
	return claims
}
