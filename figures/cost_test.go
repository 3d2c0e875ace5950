package figures

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/datasets"
	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/topology"
)

// Table 4's switches, routers and links, counted from the built 64K-node networks (the
// sizes from the families' Size, without building, in short mode), equal the paper's,
// except the FT 16-ary 4-tree's printed 262,114 links, a typo for 262,144 (= N·n).
func TestKNSTable4Counts(t *testing.T) {
	refs := datasets.MustReferences("kns")
	rows := datasets.Filter(refs, func(r datasets.Reference) bool { return r.Where == "Table 4" && r.Kind == datasets.KindExact })
	if len(rows) != 37 { // 15 networks: switches and links, and routers of the 7 KNS
		t.Fatalf("%d count rows in Table 4", len(rows))
	}
	built := map[string]*analysis.Inventory{}
	for _, r := range rows {
		spec := topology.MustParse(r.Topology)
		z, _ := spec.Size()
		inv, ok := built[r.Topology]
		if !ok && !testing.Short() {
			net, err := topology.Build(spec)
			if err != nil {
				t.Fatal(err)
			}
			if inv, err = analysis.Count(net); err != nil {
				t.Fatal(err)
			}
			built[r.Topology] = inv
		}
		var got float64
		switch {
		case strings.HasSuffix(r.ID, "-switches") && inv != nil:
			got = float64(inv.Switches)
		case strings.HasSuffix(r.ID, "-routers") && inv != nil:
			got = float64(inv.Routers)
		case strings.HasSuffix(r.ID, "-links") && inv != nil:
			got = float64(inv.Links)
		case strings.HasSuffix(r.ID, "-switches"), strings.HasSuffix(r.ID, "-routers"):
			got = float64(z.Switches) // short mode: all switches, routers included
			if spec.Family == topology.FamilyKNS {
				l, _ := spec.KNS()
				if strings.HasSuffix(r.ID, "-switches") {
					got = float64(l.SubnetSwitches())
				} else {
					got = float64(l.Routers)
				}
			}
		default:
			continue
		}
		want := r.Value
		if r.ID == "kns-t4-ft16-links" {
			want = 262144 // printed 262,114
		}
		if got != want {
			t.Errorf("%s (%s): %v, the paper %v", r.ID, r.Topology, got, r.Value)
		}
	}
}

// Table 8's costs follow from the paper's prices and placement rules within half a
// million dollars, except the FB 4-ary 7-cube (the rules give $386.5 M, not $371 M).
func TestKNSTable8Costs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 64K-node networks")
	}
	refs := datasets.MustReferences("kns")
	var specs []string
	var thr []float64
	for _, r := range refs {
		if r.Where == "Table 8" && strings.HasSuffix(r.ID, "-cost") && !strings.HasSuffix(r.ID, "-per-cost") {
			specs = append(specs, r.Topology)
			thr = append(thr, datasets.Filter(refs, func(x datasets.Reference) bool {
				return x.Topology == r.Topology && strings.HasSuffix(x.ID, "-throughput")
			})[0].Value)
		}
	}
	rows, err := CostTable(specs, thr)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 8 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, r := range rows {
		got := r.Cost.Total / 1e6
		switch r.Topology {
		case "flatfly:4,7@4":
			if math.Abs(got-386.5) > 0.1 {
				t.Errorf("%s: %.1f M$, the rules give 386.5", r.Topology, got)
			}
		default:
			if math.Abs(got-r.Paper) > 0.5 {
				t.Errorf("%s: %.2f M$, the paper %v", r.Topology, got, r.Paper)
			}
			if math.Abs(1e9*r.PerDollar-r.PaperPerCost) > 0.006 {
				t.Errorf("%s: %.3f e-9 per $, the paper %v", r.Topology, 1e9*r.PerDollar, r.PaperPerCost)
			}
		}
	}
}

// The cost model's placement extended to HyperX and Slim Fly: a HyperX costs what the
// flattened butterfly it equals costs, trunking multiplies its cables; a Slim Fly's
// routers are priced by their T + k' ports, and its cables split by racks ([SF] §4:
// rack i holds routers (0,i,·) and (1,i,·)) as the closed forms say: q²((q−δ)/2 + 1)
// network links inside racks (each router's own-subgraph links and one link to the
// other subgraph) and q²(q − 1) between them, plus a local cable per PE.
func TestCostHyperXSlimFly(t *testing.T) {
	prices, err := KNSPrices()
	if err != nil {
		t.Fatal(err)
	}
	hx, err := analysis.Cost(topology.MustNew("hyperx:4x4x4@4"), prices)
	if err != nil {
		t.Fatal(err)
	}
	fb, err := analysis.Cost(topology.MustNew("flatfly:4,3@4"), prices)
	if err != nil {
		t.Fatal(err)
	}
	if hx.Total != fb.Total || hx.Local != fb.Local || hx.Global != fb.Global {
		t.Errorf("hyperx:4x4x4@4 costs %+v, flatfly:4,3@4 %+v", hx, fb)
	}
	tr, err := analysis.Cost(topology.MustNew("hyperx:4x4x4@4/2"), prices)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Links-256 != 2*(hx.Links-256) || tr.ByPorts[4+2*9] != 64 {
		t.Errorf("trunked: %d cables, switches by ports %v; untrunked %d cables", tr.Links, tr.ByPorts, hx.Links)
	}
	for _, c := range []struct{ q, delta, p int }{{5, 1, 4}, {7, -1, 6}, {9, 1, 7}} {
		net := topology.MustNew("slimfly:" + strconv.Itoa(c.q))
		r, err := analysis.Cost(net, prices)
		if err != nil {
			t.Fatal(err)
		}
		q, pes := c.q, net.Terminals()
		local, global := q*q*((q-c.delta)/2+1), q*q*(q-1)
		radix := (3*q - c.delta) / 2
		if r.Local != local+pes || r.Global != global || r.Links != q*q*radix+pes || r.ByPorts[radix+c.p] != 2*q*q {
			t.Errorf("slimfly:%d: local %d, global %d, cables %d, switches by ports %v; want %d, %d, %d, %d of %d ports",
				q, r.Local, r.Global, r.Links, r.ByPorts, local+pes, global, q*q*radix+pes, 2*q*q, radix+c.p)
		}
		t.Logf("slimfly:%d: %.3f M$ (%d switches, %d cables)", q, r.Total/1e6, r.Switches, r.Links)
	}
}
