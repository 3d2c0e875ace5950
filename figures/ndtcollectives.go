package figures

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/twintorus/twintorus/sim/experiment"
)

// The nDT paper's Tables 2 (average flit network latency) and 3 (execution time)
// (datasets/workloads/ndt-collectives-{1k,2k,4k}.yaml): Broadcast, Reduce, AllGather and
// All2All of 128 and 512 bytes on the 3D torus (DOR) and the 5DT torus (DORT) of 1,024,
// 2,048 and 4,096 PEs, the nDT paper's switch. Per cell the paper's 3D and 5DT values
// and its printed reduction, and ours.

// NDTCollectiveSpecs are the experiment's specs: one per size, with DORT's own tie rule
// (plus), and the 1K and 2K 5DT tori again with DORT's ties mirrored, for comparison.
var NDTCollectiveSpecs = []string{"ndt-collectives-1k", "ndt-collectives-2k", "ndt-collectives-4k", "ndt-collectives-mirror"}

// NDTNetwork is one of the nDT paper's network sizes and the tori that stand for it
// (the paper gives no radices: 1K and 2K as [EXT] Table 1 and [AR] Table 2, 4K ours).
type NDTNetwork struct {
	Spec, Label string
	PEs         int
	Torus, Twin string
}

var ndtNetworks = []NDTNetwork{
	{"ndt-collectives-1k", "1k", 1024, "torus:16x8x8", "twin:4x4x2x4x4/cbest"},
	{"ndt-collectives-2k", "2k", 2048, "torus:16x16x8", "twin:4x4x4x4x4/cbest"},
	{"ndt-collectives-4k", "4k", 4096, "torus:16x16x16", "twin:8x4x4x4x4/cbest"},
}

// quickNDT is what a quick run measures instead: the 1K spec on the 256-PE networks,
// compared with the paper's 1K column.
var quickNDT = NDTNetwork{"ndt-collectives-1k", "256 (quick)", 256, "torus:8x8x4", "twin:4x4x2x2x2/cbest"}

// ndtOps are the paper's rows and our workloads: Open MPI's default algorithm for each
// operation and size (docs/traces.md), and for AllGather (workload "") the algorithm
// CollectiveOptions.AllGather names.
var ndtOps = []struct {
	op, name, size string
	bytes          int64
	workload       string
}{
	{"bcast", "Broadcast", "128", 128, "bcast:binomial:128B"}, {"bcast", "Broadcast", "512", 512, "bcast:binomial:512B"},
	{"reduce", "Reduce", "128", 128, "reduce:binomial:128B"}, {"reduce", "Reduce", "512", 512, "reduce:binomial:512B"},
	{"allgather", "AllGather", "128", 128, ""}, {"allgather", "AllGather", "512", 512, ""},
	{"all2all", "All2All", "128", 128, "alltoall:bruck:128B"}, {"all2all", "All2All", "512", 512, "alltoall:linear:512B"},
}

// NDTCell is one cell of the nDT paper's Table 2 ("t2", flit network latency) or Table
// 3 ("t3", execution time): the paper's values and ours (Measured false where we have
// no run). Net is the paper's size; Ran the networks we ran for it (the 256-PE ones in
// a quick run).
type NDTCell struct {
	Table, Op, Name, Size, Workload string
	Net, Ran                        NDTNetwork
	Paper3D, Paper5DT, PaperGain    float64
	Ours3D, Ours5DT                 float64
	Measured                        bool
}

// OursGain is our 5DT's reduction against the 3D torus in percent (positive: faster).
func (c NDTCell) OursGain() float64 { return reduction(c.Ours3D, c.Ours5DT) }

// NDTCollectives reads the experiment in mode and pairs every cell with the paper's:
// the stored runs (all three sizes), or in Quick mode the 1K spec on the 256-PE
// networks standing for the 1K column (DORT's own ties only). opts chooses the
// AllGather algorithm and the 5DT's tie rule (mirror: the 1K and 2K columns).
func NDTCollectives(ctx context.Context, mode Mode, opts CollectiveOptions, progress func(done, total int)) ([]NDTCell, *ClosedLoopGroup, error) {
	if _, err := opts.allGather(); err != nil {
		return nil, nil, err
	}
	g, err := loadClosedLoopGroup(ctx, NDTCollectiveSpecs, mode, progress, func(name string) bool { return name == quickNDT.Spec },
		func(q experiment.Spec) experiment.Spec {
			q.Topologies = []string{quickNDT.Torus, quickNDT.Twin}
			return q
		})
	if err != nil {
		return nil, nil, err
	}
	cells, err := ndtCollectiveCells(g, mode == Quick, opts)
	return cells, g, err
}

// NDTCellsOf pairs the cells opts names in results already loaded in mode (a group
// from NDTCollectives, read again under other options) with the paper's.
func NDTCellsOf(src Summarized, mode Mode, opts CollectiveOptions) ([]NDTCell, error) {
	if _, err := opts.allGather(); err != nil {
		return nil, err
	}
	return ndtCollectiveCells(src, mode == Quick, opts)
}

func ndtCollectiveCells(src Summarized, quick bool, opts CollectiveOptions) ([]NDTCell, error) {
	var out []NDTCell
	for _, t := range []struct {
		id     string
		metric experiment.MetricName
	}{{"t2", experiment.LatencyNetworkFlitMean}, {"t3", experiment.ExecutionCycles}} {
		for _, o := range ndtOps {
			for _, n := range ndtNetworks {
				ran := n
				if quick {
					if n.Spec != quickNDT.Spec {
						continue
					}
					ran = quickNDT
				}
				w := o.workload
				if w == "" {
					var err error
					if w, err = AllGatherWorkload(opts.AllGather, o.bytes, n.PEs); err != nil {
						return nil, err
					}
				}
				id := fmt.Sprintf("ndt-%s-%s%s-", t.id, o.op, o.size)
				c := NDTCell{Table: t.id, Op: o.op, Name: o.name, Size: o.size, Workload: w, Net: n, Ran: ran}
				for _, v := range []struct {
					dst *float64
					id  string
				}{{&c.Paper3D, id + "3d-" + n.Label}, {&c.Paper5DT, id + "5dt-" + n.Label}, {&c.PaperGain, id + "red-" + n.Label}} {
					x, err := paperValue(v.id)
					if err != nil {
						return nil, err
					}
					*v.dst = x
				}
				a, ok1, err := findCollective(src, ran.Torus, w, "")
				if err != nil {
					return nil, err
				}
				b, ok2, err := findCollective(src, ran.Twin, w, opts.Tie)
				if err != nil {
					return nil, err
				}
				if ok1 && ok2 {
					c.Ours3D, c.Ours5DT, c.Measured = a.Estimates[string(t.metric)].Mean, b.Estimates[string(t.metric)].Mean, true
				}
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// NDTCellsTable lays the cells out for kernel.Table: per cell the paper's values and
// gain beside ours, whether the signs agree and whether the 5DT is faster (the paper:
// in every cell).
func NDTCellsTable(cells []NDTCell) (headers []string, rows [][]string) {
	headers = []string{"Table", "collective", "algorithm", "size", "PEs", "paper 3D / 5DT (cycles)", "paper gain %", "ours 3D / 5DT (cycles)", "our gain %", "sign agrees", "5DT faster"}
	for _, c := range cells {
		table := map[string]string{"t2": "2 latency", "t3": "3 execution"}[c.Table]
		alg := strings.Split(c.Workload, ":")[1]
		paper := fmt.Sprintf("%.4g / %.4g", c.Paper3D, c.Paper5DT)
		pes := fmt.Sprint(c.Ran.PEs)
		if !c.Measured {
			rows = append(rows, []string{table, c.Name, alg, c.Size + " B", pes, paper, fmt.Sprintf("%+.2f", c.PaperGain), "not run", "–", "–", "–"})
			continue
		}
		g := c.OursGain()
		rows = append(rows, []string{table, c.Name, alg, c.Size + " B", pes, paper, fmt.Sprintf("%+.2f", c.PaperGain),
			fmt.Sprintf("%.4g / %.4g", c.Ours3D, c.Ours5DT), fmt.Sprintf("%+.2f", g), holdsIf(sameSignOf(g, c.PaperGain)), holdsIf(g > 0)})
	}
	return headers, rows
}

func holdsIf(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// sameSignOf reports whether two gains point the same way (both positive, both
// negative or both zero).
func sameSignOf(a, b float64) bool {
	sign := func(x float64) int {
		switch {
		case x > 0:
			return 1
		case x < 0:
			return -1
		}
		return 0
	}
	return sign(a) == sign(b)
}

// NDTCollectiveClaims checks the nDT paper's claims about its Tables 2–3 ([nDT] §5.4)
// over the measured cells: F11 (the 5DT below the 3D torus in every cell, per table);
// the latency gains of Broadcast and AllGather growing with size; All2All's
// execution-time gain the largest at each size; AllGather taking far longer than
// All2All (the paper: 4–7 times, 3D).
func NDTCollectiveClaims(cells []NDTCell) []Claim {
	pick := func(keep func(NDTCell) bool) []NDTCell {
		var out []NDTCell
		for _, c := range cells {
			if c.Measured && keep(c) {
				out = append(out, c)
			}
		}
		return out
	}
	var claims []Claim
	for _, t := range []struct{ id, what string }{{"t2", "flit network latency"}, {"t3", "execution time"}} {
		cs := pick(func(c NDTCell) bool { return c.Table == t.id })
		var slower []string
		for _, c := range cs {
			if c.OursGain() <= 0 {
				slower = append(slower, fmt.Sprintf("%s %s B %s", c.Name, c.Size, c.Ran.Label))
			}
		}
		holds := "yes"
		switch {
		case len(cs) == 0:
			holds = "not run"
		case len(slower) == len(cs):
			holds = "no"
		case len(slower) > 0:
			holds = fmt.Sprintf("no (%d of %d)", len(cs)-len(slower), len(cs))
		case len(cs) < 24:
			holds = fmt.Sprintf("yes in the %d cells run", len(cs))
		}
		ours := fmt.Sprintf("5DT faster in %d of %d cells", len(cs)-len(slower), len(cs))
		if len(slower) > 0 {
			ours += "; slower or equal: " + strings.Join(slower, ", ")
		}
		claims = append(claims, Claim{Statement: "F11 5DT below 3D in " + t.what + ", every cell", Paper: "24 of 24",
			Ours: ours, Holds: holds, Source: "[nDT] §5.4, Tables 2–3"})
	}
	gains := func(cs []NDTCell) string {
		var s []string
		for _, c := range cs {
			s = append(s, fmt.Sprintf("%s %+.1f (%+.1f)", c.Ran.Label, c.OursGain(), c.PaperGain))
		}
		return strings.Join(s, ", ")
	}
	for _, op := range []string{"bcast", "allgather"} {
		for _, size := range []string{"128", "512"} {
			cs := pick(func(c NDTCell) bool { return c.Table == "t2" && c.Op == op && c.Size == size })
			if len(cs) < 2 {
				continue
			}
			grows := true
			for i := 1; i < len(cs); i++ {
				grows = grows && cs[i].OursGain() > cs[i-1].OursGain()
			}
			alg := ""
			if op == "allgather" {
				alg = " (" + strings.Split(cs[0].Workload, ":")[1] + ")"
			}
			claims = append(claims, Claim{Statement: fmt.Sprintf("%s %s B%s: latency gain grows with size", cs[0].Name, size, alg),
				Paper: "1–3 % at 1K to 40–45 % at 4K", Ours: gains(cs), Holds: holdsIf(grows), Source: "[nDT] §5.4, Table 2"})
		}
	}
	var labels []string
	for _, c := range pick(func(NDTCell) bool { return true }) {
		if !slices.Contains(labels, c.Ran.Label) {
			labels = append(labels, c.Ran.Label)
		}
	}
	for _, label := range labels {
		cs := pick(func(c NDTCell) bool { return c.Table == "t3" && c.Ran.Label == label })
		if len(cs) < 8 {
			continue
		}
		best := cs[0]
		for _, c := range cs {
			if c.OursGain() > best.OursGain() {
				best = c
			}
		}
		claims = append(claims, Claim{Statement: "largest execution-time gain: All2All, " + label,
			Paper: "All2All 128 B", Ours: fmt.Sprintf("%s %s B (%+.1f %%)", best.Name, best.Size, best.OursGain()),
			Holds: holdsIf(best.Op == "all2all"), Source: "[nDT] §5.4, Table 3"})
	}
	for _, size := range []string{"128", "512"} {
		ag := pick(func(c NDTCell) bool { return c.Table == "t3" && c.Op == "allgather" && c.Size == size })
		aa := pick(func(c NDTCell) bool { return c.Table == "t3" && c.Op == "all2all" && c.Size == size })
		var s []string
		longer := true
		for _, g := range ag {
			for _, a := range aa {
				if a.Ran.Label == g.Ran.Label {
					s = append(s, fmt.Sprintf("%s %.2f× (paper %.1f×)", g.Ran.Label, g.Ours3D/a.Ours3D, g.Paper3D/a.Paper3D))
					longer = longer && g.Ours3D > 2*a.Ours3D
				}
			}
		}
		if len(s) == 0 {
			continue
		}
		claims = append(claims, Claim{Statement: fmt.Sprintf("AllGather (%s) ≫ All2All in execution time, %s B, 3D", strings.Split(ag[0].Workload, ":")[1], size),
			Paper: "4–7×", Ours: strings.Join(s, ", "), Holds: holdsIf(longer), Source: "[nDT] §5.4, Table 3"})
	}
	return claims
}
