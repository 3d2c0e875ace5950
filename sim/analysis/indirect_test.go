package analysis

import (
	"context"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// checkDefault runs CheckRouting on a spec's network with its family's routing.
func checkDefault(t *testing.T, spec string) *RoutingReport {
	t.Helper()
	net := topology.MustNew(spec)
	rt, err := routing.New(routing.Default(net), net, routing.SchemeNone, routing.TiePlus)
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	rep, err := CheckRouting(context.Background(), net, rt)
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	return rep
}

// The routings of the indirect and hybrid families deliver every packet to its PE and
// have acyclic channel dependency graphs on one VC (two on T-switch internal links
// whose descending connections cross): the acceptance networks and more.
func TestIndirectRoutingsDeadlockFree(t *testing.T) {
	specs := []string{
		"ktree:4,3/cswitch", "ktree:4,3", "ktree:2,4", "ktree:8,2",
		"ktree:4,3/bad", "ktree:4,3/split", "ktree:4,3/cswitch:2", "ktree:8,2/cswitch:3", "ktree:4,2/0,2,5,7:2",
		"kns:8,2,1", "kns:16,2,2,fattree", "kns:16,2,2,ruft", "kns:8,2,3,ruft", "kns:8,2,3,fattree", "kns:4,3,1@2", "kns:4,2,2,ruft@3",
		"flatfly:4,2", "flatfly:4,3@2", "flatfly:3,2@3",
	}
	if testing.Short() {
		specs = specs[:3]
	}
	for _, spec := range specs {
		rep := checkDefault(t, spec)
		if !rep.DeadlockFree || rep.Problem != "" || rep.Dependencies == 0 {
			t.Errorf("%s: deadlock-free %v, problem %q, cycle %s, %d dependencies", spec, rep.DeadlockFree, rep.Problem, rep.CycleString(), rep.Dependencies)
		}
	}
}

// Every configuration of a 4x4 T-switch routes deadlock-free under DESTRO. Those whose
// internal links carry descending connections one way together with ascending or
// turnaround ones get a second internal-link VC; most of them need it: with one, a
// chain up the tree, across a turnaround and down again closes a cycle through an
// internal link (split among them).
func TestDESTROEveryConfiguration(t *testing.T) {
	if testing.Short() {
		t.Skip("35 networks")
	}
	f, _ := topology.LookupFamily("ktree")
	vs, err := f.Variants(topology.MustParse("ktree:4,3/cswitch"))
	if err != nil || len(vs) != 35 {
		t.Fatalf("variants: %d, %v", len(vs), err)
	}
	twoVCs, cyclic := 0, 0
	for _, v := range vs {
		rep := checkDefault(t, v.String())
		if !rep.DeadlockFree {
			t.Errorf("%s: %q %s", v, rep.Problem, rep.CycleString())
		}
		net := topology.MustNew(v.String())
		d, _ := routing.NewDESTRO(net)
		if d.VCs(topology.Internal) == 1 {
			continue
		}
		twoVCs++
		// The same routes on one VC: a table of DESTRO's ports.
		one, err := routing.NewTable(net, "destro/1vc", func(s, dsw int) []int {
			for pe := 0; pe < net.Terminals(); pe++ {
				if int(net.Attachment(pe).Switch) == dsw {
					c := d.Route(s, 0, 0, routing.Head{Dst: int32(pe)}, nil)[0]
					return []int{int(c.Port)}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		rep, err = CheckRouting(context.Background(), net, one)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.DeadlockFree {
			cyclic++
		}
		if v.Config == topology.CfgSplit && rep.DeadlockFree {
			t.Errorf("%s on one VC: no cycle", v)
		}
	}
	t.Logf("%d of 35 configurations get two internal VCs; on one, %d of them have a cycle", twoVCs, cyclic)
	if twoVCs == 0 || cyclic < twoVCs/2 {
		t.Errorf("%d configurations with two VCs, %d cyclic on one", twoVCs, cyclic)
	}
}

// Diameters by BFS equal the formulas: 2n_h (KNS with crossbars), 2·s_h·n_h (fat-tree
// subnets), (s_h+1)·n_h (RUFT subnets: up through every stage and back), 2(n−1) for a
// k-ary n-tree (switch-to-switch hops; the papers' 2n counts the two PE links too) and
// n for a flattened butterfly. The symmetry classes the families declare give the
// same statistics as a BFS from every switch.
func TestIndirectDiameters(t *testing.T) {
	cases := []struct {
		spec string
		want int
	}{
		{"kns:16,2,1", 4}, {"kns:8,3,1", 6}, {"kns:4,3,1@2", 6},
		{"kns:16,2,2,fattree", 8}, {"kns:16,2,4,fattree", 16}, {"kns:8,2,3,fattree", 12},
		{"kns:16,2,2,ruft", 6}, {"kns:16,2,4,ruft", 10}, {"kns:8,3,3,ruft", 12},
		{"ktree:4,3", 4}, {"ktree:2,6", 10}, {"ktree:8,2", 2}, {"ktree:4,1", 0},
		{"flatfly:4,3@4", 3}, {"flatfly:16,2", 2}, {"flatfly:2,6", 6},
	}
	if !testing.Short() {
		cases = append(cases, []struct {
			spec string
			want int
		}{{"kns:256,2,1", 4}, {"kns:256,2,2,fattree", 8}, {"kns:256,2,2,ruft", 6}, {"kns:256,2,8,ruft", 18}}...)
	}
	for _, c := range cases {
		net := topology.MustNew(c.spec)
		d, err := Distances(context.Background(), net)
		if err != nil {
			t.Fatal(err)
		}
		if d.Diameter != c.want {
			t.Errorf("%s: diameter %d, the formula %d", c.spec, d.Diameter, c.want)
		}
		if net.Switches() > 5000 {
			continue
		}
		all, err := DistancesAllSources(context.Background(), net)
		if err != nil {
			t.Fatal(err)
		}
		if all.Diameter != d.Diameter || all.Sum().Cmp(d.Sum()) != 0 {
			t.Errorf("%s: by classes %d / %v, from every switch %d / %v", c.spec, d.Diameter, d.Sum(), all.Diameter, all.Sum())
		}
	}
}
