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

// Dragonflies and twin tori are priced too: a balanced dragonfly:h has g = 2h²+1
// groups of a = 2h routers of radix a−1+h+p = 4h−1 (p = h), g·a(a−1)/2 local cables in
// its cabinets, g(g−1)/2 global ones between them and a local cable per PE; a twin
// torus has a cable per external link (the internal link is on the board) and a card
// per switch with its external ports and the PE's.
func TestCostDragonflyTwin(t *testing.T) {
	prices, err := KNSPrices()
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []int{1, 2, 3, 4} {
		a, g := 2*h, 2*h*h+1
		net := topology.MustNew("dragonfly:" + strconv.Itoa(h))
		r, err := analysis.Cost(net, prices)
		if err != nil {
			t.Fatal(err)
		}
		pes := g * a * h
		local, global := g*a*(a-1)/2, g*(g-1)/2
		if r.Local != local+pes || r.Global != global || r.Near != 0 || r.Links != local+global+pes || r.ByPorts[4*h-1] != g*a {
			t.Errorf("dragonfly:%d: local %d, global %d, cables %d, switches by ports %v; want %d, %d, %d, %d of %d ports",
				h, r.Local, r.Global, r.Links, r.ByPorts, local+pes, global, local+global+pes, g*a, 4*h-1)
		}
	}
	for _, c := range []struct {
		spec            string
		cards, extPorts int
	}{{"twin:4x4x4", 128, 3}, {"twin:8x8x8", 1024, 3}, {"twin:4x4x4x4x2", 1024, 5}} {
		net := topology.MustNew(c.spec)
		r, err := analysis.Cost(net, prices)
		if err != nil {
			t.Fatal(err)
		}
		if cables := c.cards*c.extPorts/2 + c.cards; r.Links != cables || r.Global != 0 || r.ByPorts[c.extPorts+1] != c.cards {
			t.Errorf("%s: %d cables (%d local, %d near), switches by ports %v; want %d cables, %d cards of %d ports",
				c.spec, r.Links, r.Local, r.Near, r.ByPorts, cables, c.cards, c.extPorts+1)
		}
	}
}
