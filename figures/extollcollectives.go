package figures

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/routing"
)

// The EXTOLL paper's Tables 2–3 on the EXTOLL card (datasets/workloads/
// extoll-collectives-*.yaml): four collectives of 16 and 512 bytes on the 3D tori (DOR)
// and the 5DT tori (TSDOR) of 256, 512 and 1,024 PEs, each message one packet of its
// real length. Per cell our and the paper's 3D and 5DT values and the 5DT's reduction.
// The AllGather rows read the algorithm CollectiveOptions names (the specs hold several).

// ExtollCollectiveSpecs are the specs of the experiment: one per family (its routing)
// and message size (its packet length).
var ExtollCollectiveSpecs = []string{"extoll-collectives-3d-16b", "extoll-collectives-5dt-16b", "extoll-collectives-3d-512b", "extoll-collectives-5dt-512b"}

// extollNetworks are the paper's Table 1 pairs: PEs, 3D torus, 5DT torus.
var extollNetworks = []struct {
	pes         int
	torus, twin string
}{{256, "torus:8x8x4", "twin:4x4x2x2x2/cbest"}, {512, "torus:8x8x8", "twin:4x4x2x4x2/cbest"}, {1024, "torus:16x8x8", "twin:4x4x2x4x4/cbest"}}

// extollOps are the tables' rows and our workloads: Open MPI's default algorithm for
// each operation and size (docs/traces.md), and for AllGather (workload "") the
// algorithm CollectiveOptions.AllGather names.
var extollOps = []struct {
	op, size string
	bytes    int64
	workload string
}{
	{"broadcast", "16B", 16, "bcast:binomial:16B"}, {"broadcast", "512B", 512, "bcast:binomial:512B"},
	{"reduce", "16B", 16, "reduce:binomial:16B"}, {"reduce", "512B", 512, "reduce:binomial:512B"},
	{"allgather", "16B", 16, ""}, {"allgather", "512B", 512, ""},
	{"all2all", "16B", 16, "alltoall:bruck:16B"}, {"all2all", "512B", 512, "alltoall:linear:512B"},
}

// CollectiveCell is one (operation, size, PEs) cell of the EXTOLL paper's Tables 2
// (average cell network latency) and 3 (execution time): the paper's 3D and 5DT values
// and ours. Reductions are (3D − 5DT)/3D in percent: positive when the 5DT is faster.
type CollectiveCell struct {
	Op, Size, Workload string
	PEs                int
	Paper3DLatency     float64 // cycles, Table 2
	Paper5DTLatency    float64
	Paper3DExec        float64 // cycles, Table 3
	Paper5DTExec       float64
	Ours3DLatency      float64 // latency_network_flit_mean
	Ours5DTLatency     float64
	Ours3DExec         float64 // execution_cycles
	Ours5DTExec        float64
}

// PaperLatencyGain and the others are the 5DT's reductions in percent.
func (c CollectiveCell) PaperLatencyGain() float64 {
	return reduction(c.Paper3DLatency, c.Paper5DTLatency)
}

// OursLatencyGain is our 5DT latency reduction in percent.
func (c CollectiveCell) OursLatencyGain() float64 {
	return reduction(c.Ours3DLatency, c.Ours5DTLatency)
}

// PaperExecGain is the paper's 5DT execution-time reduction in percent.
func (c CollectiveCell) PaperExecGain() float64 { return reduction(c.Paper3DExec, c.Paper5DTExec) }

// OursExecGain is our 5DT execution-time reduction in percent.
func (c CollectiveCell) OursExecGain() float64 { return reduction(c.Ours3DExec, c.Ours5DTExec) }

// ExtollCollectives reads the experiment in mode (Quick: the 256-PE networks, as
// QuickClosedLoopSpec keeps them) and pairs every cell we have with the paper's, with
// the default options (the AllGather of DefaultAllGather).
func ExtollCollectives(ctx context.Context, mode Mode, progress func(done, total int)) ([]CollectiveCell, *ClosedLoopGroup, error) {
	return ExtollCollectivesWith(ctx, mode, CollectiveOptions{}, progress)
}

// ExtollCollectivesWith is ExtollCollectives reading the cells opts names.
func ExtollCollectivesWith(ctx context.Context, mode Mode, opts CollectiveOptions, progress func(done, total int)) ([]CollectiveCell, *ClosedLoopGroup, error) {
	if _, err := opts.allGather(); err != nil {
		return nil, nil, err
	}
	g, err := loadClosedLoopGroup(ctx, ExtollCollectiveSpecs, mode, progress, nil, nil)
	if err != nil {
		return nil, nil, err
	}
	cells, err := extollCollectiveCells(g, opts)
	return cells, g, err
}

// ExtollCellsOf pairs the cells opts names in results already loaded (a group from
// ExtollCollectivesWith, read again under other options) with the paper's.
func ExtollCellsOf(src Summarized, opts CollectiveOptions) ([]CollectiveCell, error) {
	if _, err := opts.allGather(); err != nil {
		return nil, err
	}
	return extollCollectiveCells(src, opts)
}

// findCollective is the summary of workload on topo among src's: on a twin torus the
// run with tie rule tie, or with its routing's own rule when tie is "" (ownTie). Two
// summaries that fit are an error: a table cell cannot choose between them.
func findCollective(src Summarized, topo, workload, tie string) (experiment.Summary, bool, error) {
	var found []experiment.Summary
	for _, s := range src.Summaries() {
		if s.Point.Topology != topo || s.Point.Workload != workload {
			continue
		}
		if want := tie; strings.HasPrefix(topo, "twin:") {
			if want == "" {
				want = ownTie(s.Point.Routing)
			}
			if s.Point.Tie != want {
				continue
			}
		}
		found = append(found, s)
	}
	switch len(found) {
	case 0:
		return experiment.Summary{}, false, nil
	case 1:
		return found[0], true, nil
	}
	return experiment.Summary{}, false, fmt.Errorf("figures: %d runs of %s on %s (curves %s and %s)", len(found), workload, topo, found[0].Curve, found[1].Curve)
}

// ownTie is a routing's own tie rule on twin tori, the one a spec that names none runs:
// mirror for TSDOR, plus for DOR and DORT (routing.RoutingDef.Tie; docs/model.md, "Ties").
func ownTie(name string) string {
	def, _, _ := routing.LookupRouting(name)
	if def.Tie == routing.TieDefault {
		return routing.TiePlus.String()
	}
	return def.Tie.String()
}

func extollCollectiveCells(src Summarized, opts CollectiveOptions) ([]CollectiveCell, error) {
	var out []CollectiveCell
	for _, op := range extollOps {
		for _, n := range extollNetworks {
			w := op.workload
			if w == "" {
				var err error
				if w, err = AllGatherWorkload(opts.AllGather, op.bytes, n.pes); err != nil {
					return nil, err
				}
			}
			a, ok1, err := findCollective(src, n.torus, w, "")
			if err != nil {
				return nil, err
			}
			b, ok2, err := findCollective(src, n.twin, w, opts.Tie)
			if err != nil {
				return nil, err
			}
			if !ok1 || !ok2 {
				continue // a quick run has the smallest networks only
			}
			c := CollectiveCell{Op: op.op, Size: op.size, Workload: w, PEs: n.pes,
				Ours3DLatency: a.Estimates[string(experiment.LatencyNetworkFlitMean)].Mean, Ours5DTLatency: b.Estimates[string(experiment.LatencyNetworkFlitMean)].Mean,
				Ours3DExec: a.Estimates[string(experiment.ExecutionCycles)].Mean, Ours5DTExec: b.Estimates[string(experiment.ExecutionCycles)].Mean}
			id := func(table, net string) string {
				return fmt.Sprintf("5dt-%s-%s%s-%s-%d", table, op.op, strings.TrimSuffix(op.size, "B"), net, n.pes)
			}
			for _, v := range []struct {
				dst       *float64
				table, nt string
			}{{&c.Paper3DLatency, "t2", "3d"}, {&c.Paper5DTLatency, "t2", "5dt"}, {&c.Paper3DExec, "t3", "3d"}, {&c.Paper5DTExec, "t3", "5dt"}} {
				x, err := paperValue(id(v.table, v.nt))
				if err != nil {
					return nil, err
				}
				*v.dst = x
			}
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("figures: no collective has both a 3D and a 5DT run")
	}
	return out, nil
}

// CollectiveCellsTable lays the cells out for kernel.Table: per cell the paper's and
// our reductions of latency and execution time, and whether their signs agree.
func CollectiveCellsTable(cells []CollectiveCell) (headers []string, rows [][]string) {
	headers = []string{"operation", "algorithm", "size", "PEs", "latency 3D / 5DT (ours)", "latency gain paper", "ours", "sign",
		"execution 3D / 5DT (ours)", "execution gain paper", "ours", "sign"}
	for _, c := range cells {
		rows = append(rows, []string{c.Op, strings.Split(c.Workload, ":")[1], c.Size, fmt.Sprint(c.PEs),
			fmt.Sprintf("%.1f / %.1f", c.Ours3DLatency, c.Ours5DTLatency), fmt.Sprintf("%+.1f %%", c.PaperLatencyGain()), fmt.Sprintf("%+.1f %%", c.OursLatencyGain()), sameSign(c.PaperLatencyGain(), c.OursLatencyGain()),
			fmt.Sprintf("%.0f / %.0f", c.Ours3DExec, c.Ours5DTExec), fmt.Sprintf("%+.1f %%", c.PaperExecGain()), fmt.Sprintf("%+.1f %%", c.OursExecGain()), sameSign(c.PaperExecGain(), c.OursExecGain())})
	}
	return headers, rows
}

// sameSign says whether a paper's gain and ours point the same way.
func sameSign(paper, ours float64) string {
	if (paper > 0) == (ours > 0) {
		return "same"
	}
	return "DIFFERS"
}

// CollectiveClaims checks claims C1–C4 ([EXT] §4.2.1; docs/references.md) over the
// cells each names: the range of the paper's reductions (from its Tables 2–3) beside
// ours, "yes" when every cell's sign agrees and our range meets the paper's widened
// by 5 points, "partly" when the signs agree but the sizes do not, "no (sign)" when a
// sign differs.
func CollectiveClaims(cells []CollectiveCell) []Claim {
	var claims []Claim
	for _, c := range []struct {
		id, what string
		keep     func(CollectiveCell) bool
		exec     bool
	}{
		{"C1", "Reduce: 5DT latency lower", func(c CollectiveCell) bool { return c.Op == "reduce" }, false},
		{"C1", "Reduce: 5DT execution time lower", func(c CollectiveCell) bool { return c.Op == "reduce" }, true},
		{"C2", "All2All: 5DT latency lower", func(c CollectiveCell) bool { return c.Op == "all2all" }, false},
		{"C2", "All2All: 5DT execution time lower", func(c CollectiveCell) bool { return c.Op == "all2all" }, true},
		{"C3", "AllGather 512 B" + algorithmsOf(cells, "allgather", "512B") + ": 5DT latency lower", func(c CollectiveCell) bool { return c.Op == "allgather" && c.Size == "512B" }, false},
		{"C3", "AllGather 512 B" + algorithmsOf(cells, "allgather", "512B") + ": 5DT execution time lower", func(c CollectiveCell) bool { return c.Op == "allgather" && c.Size == "512B" }, true},
		{"C4", "Broadcast at 256 PEs: 5DT slower (latency)", func(c CollectiveCell) bool { return c.Op == "broadcast" && c.PEs == 256 }, false},
		{"C4", "Broadcast at 256 PEs: 5DT slower (execution)", func(c CollectiveCell) bool { return c.Op == "broadcast" && c.PEs == 256 }, true},
		{"C4", "Broadcast at 1,024 PEs: 5DT faster (execution)", func(c CollectiveCell) bool { return c.Op == "broadcast" && c.PEs == 1024 }, true},
	} {
		var paper, ours []float64
		for _, cell := range cells {
			if !c.keep(cell) {
				continue
			}
			if c.exec {
				paper, ours = append(paper, cell.PaperExecGain()), append(ours, cell.OursExecGain())
			} else {
				paper, ours = append(paper, cell.PaperLatencyGain()), append(ours, cell.OursLatencyGain())
			}
		}
		cl := Claim{Statement: c.id + " " + c.what, Source: "[EXT] §4.2.1, Tables 2–3"}
		if len(ours) == 0 {
			cl.Paper, cl.Ours, cl.Holds = "–", "not run", "–"
		} else {
			cl.Paper = gainRange(paper)
			cl.Ours = fmt.Sprintf("%s (%d cells)", gainRange(ours), len(ours))
			cl.Holds = rangeVerdict(paper, ours)
		}
		claims = append(claims, cl)
	}
	return claims
}

// algorithmsOf names the algorithms of the cells of one operation and size, " (linear)",
// for a claim's statement ("" when there is no such cell).
func algorithmsOf(cells []CollectiveCell, op, size string) string {
	var algs []string
	for _, c := range cells {
		if p := strings.Split(c.Workload, ":"); c.Op == op && c.Size == size && len(p) > 1 && !slices.Contains(algs, p[1]) {
			algs = append(algs, p[1])
		}
	}
	if len(algs) == 0 {
		return ""
	}
	return " (" + strings.Join(algs, ", ") + ")"
}

// gainRange formats a range of reductions, "12 to 30 %".
func gainRange(v []float64) string {
	lo, hi := minMax(v)
	if math.Round(lo) == math.Round(hi) {
		return fmt.Sprintf("%.0f %%", lo)
	}
	return fmt.Sprintf("%.0f to %.0f %%", lo, hi)
}

func minMax(v []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range v {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return lo, hi
}

// rangeVerdict compares paired reductions (paper[i] and ours[i] of one cell): "no
// (sign)" when a sign differs, "partly (smaller)" or "partly (larger)" when our range
// misses the paper's widened by 5 points, else "yes".
func rangeVerdict(paper, ours []float64) string {
	for i := range ours {
		if (paper[i] > 0) != (ours[i] > 0) {
			return "no (sign)"
		}
	}
	plo, phi := minMax(paper)
	lo, hi := minMax(ours)
	switch {
	case hi < plo-5:
		return "partly (smaller)"
	case lo > phi+5:
		return "partly (larger)"
	}
	return "yes"
}
