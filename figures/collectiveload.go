package figures

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/datasets"
	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/workload"
)

// The load each collective algorithm offers the networks of the papers' tables, counted
// route by route (analysis.LoadOfWorkload), without simulating: which algorithms
// saturate the network (its busiest channel carries more flits than the busiest NIC)
// and how their bounds grow with the network. The papers name no AllGather algorithm;
// this is part of the evidence for the one the tables read (docs/model.md).

// CollectiveLoadFile is the stored table of collective loads (datasets/results),
// written by tools/collload.
const CollectiveLoadFile = "collective-loads.csv"

// CollectiveLoad is one row: a workload on a network under a deterministic routing,
// tasks placed linearly (task i on PE i), messages cut into packets of PacketFlits
// flits of 16 bytes.
type CollectiveLoad struct {
	Topology, Routing, Tie, Workload string
	PEs, PacketFlits                 int
	analysis.WorkloadLoad
}

// CollectiveLoadOf computes the row of workload spec w on topology topo with routing
// rt ("dor" for DOR and DORT, "tsdor") and tie rule tie ("" for the routing's own); the
// row names the rule the routing applies (mirror is plus on a torus).
func CollectiveLoadOf(ctx context.Context, topo, rt, tie, w string, packetFlits int) (CollectiveLoad, error) {
	row := CollectiveLoad{Topology: topo, Routing: rt, Tie: tie, Workload: w, PacketFlits: packetFlits}
	net, err := topology.New(topo)
	if err != nil {
		return row, err
	}
	t, err := experiment.ParseTie(tie)
	if err != nil {
		return row, err
	}
	var r routing.Pather
	switch rt {
	case "dor":
		r = routing.NewDOR(net, t)
	case "tsdor":
		if !net.IsTwin() {
			return row, fmt.Errorf("collective load: tsdor routes twin tori, not %s", topo)
		}
		r = routing.NewTSDOR(net, t)
	default:
		return row, fmt.Errorf("collective load: routing %q: accepted are dor (DORT on twin tori) and tsdor", rt)
	}
	spec, err := workload.ParseSpec(w)
	if err != nil {
		return row, err
	}
	wl, err := spec.Build(net.Terminals())
	if err != nil {
		return row, err
	}
	place, err := workload.Mapping{Kind: workload.Linear}.Place(wl.Tasks(), net.Terminals(), 1)
	if err != nil {
		return row, err
	}
	l, err := analysis.LoadOfWorkload(ctx, r, wl, place, workload.RunConfig{PacketFlits: packetFlits})
	if err != nil {
		return row, err
	}
	row.PEs = net.Terminals()
	name := rt
	if rt == "dor" && net.IsTwin() {
		name = "dort"
	}
	row.Tie = routing.ResolveTie(name, net, t).String()
	row.WorkloadLoad = *l
	return row, nil
}

var collectiveLoadHeader = []string{"topology", "routing", "tie", "workload", "pes", "packet_flits", "messages", "flits",
	"flit_hops", "internal_flit_hops", "nic_bound", "channel_bound", "max_internal", "max_external", "channels",
	"steps", "step_bound", "network_steps"}

// WriteCollectiveLoadCSV writes rows in their order.
func WriteCollectiveLoadCSV(w io.Writer, rows []CollectiveLoad) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(collectiveLoadHeader); err != nil {
		return err
	}
	for _, r := range rows {
		rec := []string{r.Topology, r.Routing, r.Tie, r.Workload}
		for _, v := range []int64{int64(r.PEs), int64(r.PacketFlits), r.Messages, r.Flits, r.FlitHops, r.InternalFlitHops,
			r.NICBound, r.ChannelBound, r.MaxInternal, r.MaxExternal, int64(r.Channels), int64(r.Steps), r.StepBound, int64(r.NetworkSteps)} {
			rec = append(rec, strconv.FormatInt(v, 10))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadCollectiveLoadCSV reads what WriteCollectiveLoadCSV wrote.
func ReadCollectiveLoadCSV(r io.Reader) ([]CollectiveLoad, error) {
	recs, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("collective loads: %w", err)
	}
	if len(recs) == 0 || len(recs[0]) != len(collectiveLoadHeader) {
		return nil, fmt.Errorf("collective loads: want the header %v", collectiveLoadHeader)
	}
	var out []CollectiveLoad
	for i, rec := range recs[1:] {
		row := CollectiveLoad{Topology: rec[0], Routing: rec[1], Tie: rec[2], Workload: rec[3]}
		var v [14]int64
		for j := range v {
			if v[j], err = strconv.ParseInt(rec[4+j], 10, 64); err != nil {
				return nil, fmt.Errorf("collective loads: row %d, %s: %w", i+2, collectiveLoadHeader[4+j], err)
			}
		}
		row.PEs, row.PacketFlits = int(v[0]), int(v[1])
		row.Messages, row.Flits, row.FlitHops, row.InternalFlitHops = v[2], v[3], v[4], v[5]
		row.NICBound, row.ChannelBound, row.MaxInternal, row.MaxExternal = v[6], v[7], v[8], v[9]
		row.Channels, row.Steps, row.StepBound, row.NetworkSteps = int(v[10]), int(v[11]), v[12], int(v[13])
		out = append(out, row)
	}
	return out, nil
}

// StoredCollectiveLoads reads the stored table (CollectiveLoadFile).
func StoredCollectiveLoads() ([]CollectiveLoad, error) {
	b, err := datasets.Result(CollectiveLoadFile)
	if err != nil {
		return nil, err
	}
	return ReadCollectiveLoadCSV(bytes.NewReader(b))
}

// CollectiveLoadCase is a row of the stored table before it is computed.
type CollectiveLoadCase struct {
	Topology, Routing, Tie, Workload string
	PacketFlits                      int
}

// CollectiveLoadCases are the stored table's rows: the AllGather algorithms of Open MPI
// (and two all-to-alls for scale) on the nDT paper's networks (3D torus with DOR, 5DT
// with DORT; 128-byte blocks in 4-flit packets: 512-byte blocks load every channel
// exactly 4 times as much) and on the EXTOLL paper's (5DT with TSDOR; 16-byte blocks,
// one-cell packets: 512-byte blocks are 32 times the flits), with each routing's own tie
// rule, as the tables read them (mirror for TSDOR, plus for DOR and DORT).
func CollectiveLoadCases() []CollectiveLoadCase {
	var out []CollectiveLoadCase
	algs := []string{"ring", "neighbor", "recursive_doubling", "bruck", "linear"}
	add := func(torus, twin, twinRouting, size string, flits int) {
		for _, a := range append(algs, "alltoall:linear", "alltoall:bruck") {
			w := "allgather:" + a + ":" + size
			if a == "alltoall:linear" || a == "alltoall:bruck" {
				w = a + ":" + size
			}
			out = append(out, CollectiveLoadCase{torus, "dor", "plus", w, flits}, CollectiveLoadCase{twin, twinRouting, ownTie(twinRouting), w, flits})
		}
	}
	for _, n := range ndtNetworks {
		add(n.Torus, n.Twin, "dor", "128B", 4)
	}
	for _, n := range extollNetworks {
		add(n.torus, n.twin, "tsdor", "16B", 1)
	}
	return out
}

// CollectiveLoadsTable lays rows out for kernel.Table: per network and workload the
// bounds on its execution time (the busiest NIC's and the busiest channel's flits),
// which of the two limits it ("network" when a channel carries more than any NIC), the
// step estimate (steps not overlapping, each as long as its busiest channel or NIC)
// and the channels' mean utilisation over that estimate.
func CollectiveLoadsTable(rows []CollectiveLoad) (headers []string, out [][]string) {
	headers = []string{"network", "routing", "workload", "PEs", "NIC bound (flits)", "busiest channel (flits)", "limited by",
		"steps limited by the network", "step estimate (cycles)", "mean hops", "mean channel use over the estimate"}
	for _, r := range rows {
		limit := "NICs"
		if r.NetworkLimited() {
			limit = fmt.Sprintf("network (%.1f×)", float64(r.ChannelBound)/float64(r.NICBound))
		}
		rt := r.Routing
		if strings.HasPrefix(r.Topology, "twin:") && rt == "dor" {
			rt = "dort"
		}
		if r.Tie != "" && strings.HasPrefix(r.Topology, "twin:") {
			rt += " (" + r.Tie + " ties)"
		}
		out = append(out, []string{r.Topology, rt, r.Workload, fmt.Sprint(r.PEs), fmt.Sprint(r.NICBound), fmt.Sprint(r.ChannelBound), limit,
			fmt.Sprintf("%d of %d", r.NetworkSteps, r.Steps), fmt.Sprint(r.StepBound), fmt.Sprintf("%.2f", float64(r.FlitHops)/float64(r.Flits)),
			fmt.Sprintf("%.0f %%", 100*r.MeanUtilisation(float64(r.StepBound)))})
	}
	return headers, out
}

// AllGatherGrowth compares how the AllGather's execution time grows from the nDT
// paper's 1K to its 2K and 4K networks, per algorithm: the paper's Table 3 (3D and 5DT,
// 128 B), our estimates from loads (the step estimate; for basic linear its bound, the
// root's NIC), and our simulated times where cells (by algorithm, from NDTCollectives)
// hold them. Growth is the ratio of the next
// size's time to this one's; the 5DT gain is (3D − 5DT)/3D.
func AllGatherGrowth(loads []CollectiveLoad, cells map[string][]NDTCell) (headers []string, out [][]string) {
	headers = []string{"AllGather", "source", "3D 1K→2K", "3D 2K→4K", "5DT 1K→2K", "5DT 2K→4K", "5DT gain 1K / 2K / 4K"}
	ratios := func(v [3][2]float64) []string {
		f := func(a, b float64) string {
			if a > 0 && b > 0 {
				return fmt.Sprintf("×%.2f", b/a)
			}
			return "–"
		}
		var gains []string
		for _, x := range v {
			if x[0] > 0 && x[1] > 0 {
				gains = append(gains, fmt.Sprintf("%+.1f %%", reduction(x[0], x[1])))
			} else {
				gains = append(gains, "–")
			}
		}
		return []string{f(v[0][0], v[1][0]), f(v[1][0], v[2][0]), f(v[0][1], v[1][1]), f(v[1][1], v[2][1]), strings.Join(gains, " / ")}
	}
	// The paper's row, from any reading's cells (the paper's values do not depend on it).
	for _, cs := range cells {
		var v [3][2]float64
		for _, c := range cs {
			if i := slices.IndexFunc(ndtNetworks, func(n NDTNetwork) bool { return n.Label == c.Net.Label }); c.Table == "t3" && c.Op == "allgather" && c.Size == "128" && i >= 0 {
				v[i] = [2]float64{c.Paper3D, c.Paper5DT}
			}
		}
		out = append(out, append([]string{"(paper's traces)", "[nDT] Table 3, 128 B"}, ratios(v)...))
		break
	}
	var algs []string
	for _, r := range loads {
		if a := strings.Split(r.Workload, ":"); a[0] == "allgather" && a[2] == "128B" && !slices.Contains(algs, a[1]) {
			algs = append(algs, a[1])
		}
	}
	for _, a := range algs {
		// Basic linear's sends are not steps of the algorithm (a gather, then a broadcast
		// tree): its bound, the root's NIC, stands for it.
		source, of := "step estimate (loads)", func(r CollectiveLoad) float64 { return float64(r.StepBound) }
		if a == "linear" {
			source, of = "bound (loads)", func(r CollectiveLoad) float64 { return float64(r.Bound()) }
		}
		var v [3][2]float64
		for _, r := range loads {
			for i, n := range ndtNetworks {
				if r.Workload != "allgather:"+a+":128B" {
					continue
				}
				switch r.Topology {
				case n.Torus:
					v[i][0] = of(r)
				case n.Twin:
					v[i][1] = of(r)
				}
			}
		}
		out = append(out, append([]string{a, source}, ratios(v)...))
		if cs, ok := cells[a]; ok {
			var s [3][2]float64
			for _, c := range cs {
				if i := slices.IndexFunc(ndtNetworks, func(n NDTNetwork) bool { return n.Label == c.Ran.Label }); c.Measured && c.Table == "t3" && c.Op == "allgather" && c.Size == "128" && i >= 0 {
					s[i] = [2]float64{c.Ours3D, c.Ours5DT}
				}
			}
			out = append(out, append([]string{a, "simulated"}, ratios(s)...))
		}
	}
	return headers, out
}
