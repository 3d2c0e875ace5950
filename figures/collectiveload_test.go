package figures

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// The stored collective loads are what CollectiveLoadOf computes: every row of the
// 256-PE networks and the 1,024-PE AllGathers of the nDT paper's networks recomputed
// (the larger rows take minutes), and every case of CollectiveLoadCases stored once.
func TestStoredCollectiveLoads(t *testing.T) {
	rows, err := StoredCollectiveLoads()
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]CollectiveLoad{}
	for _, r := range rows {
		stored[r.Topology+" "+r.Routing+" "+r.Tie+" "+r.Workload] = r
	}
	if len(stored) != len(rows) {
		t.Errorf("%d rows, %d distinct", len(rows), len(stored))
	}
	cases := CollectiveLoadCases()
	if len(cases) != len(rows) {
		t.Errorf("%d stored rows, %d cases", len(rows), len(cases))
	}
	for _, c := range cases {
		r, ok := stored[c.Topology+" "+c.Routing+" "+c.Tie+" "+c.Workload]
		if !ok {
			t.Errorf("%s %s %s not stored", c.Topology, c.Routing, c.Workload)
			continue
		}
		if r.PEs > 256 && !(r.PEs == 1024 && c.PacketFlits == 4 && strings.HasPrefix(c.Workload, "allgather:")) {
			continue
		}
		got, err := CollectiveLoadOf(context.Background(), c.Topology, c.Routing, c.Tie, c.Workload, c.PacketFlits)
		if err != nil {
			t.Fatal(err)
		}
		if got != r {
			t.Errorf("%s %s %s: computed %+v, stored %+v", c.Topology, c.Routing, c.Workload, got, r)
		}
	}
	var buf bytes.Buffer
	if err := WriteCollectiveLoadCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	back, err := ReadCollectiveLoadCSV(&buf)
	if err != nil || len(back) != len(rows) || back[0] != rows[0] {
		t.Errorf("CSV round trip: %v, %d rows", err, len(back))
	}
	h, tab := CollectiveLoadsTable(rows)
	if len(tab) != len(rows) || len(tab[0]) != len(h) {
		t.Errorf("table: %d rows of %d columns, header of %d", len(tab), len(tab[0]), len(h))
	}
	// The growth table: the paper's 3D AllGather grows ×2.44 and ×2.36 (Table 3: 1,023,599,
	// 2,493,915 and 5,877,174 cycles), neighbour exchange's bound exactly ×2 (each NIC's
	// P−1 blocks), basic linear's root bound log₂P·P blocks: ×2.20 and ×2.18.
	cells, _, err := NDTCollectives(context.Background(), Stored, CollectiveOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, growth := AllGatherGrowth(rows, map[string][]NDTCell{"linear": cells})
	want := map[string][]string{"(paper's traces)": {"×2.44", "×2.36"}, "neighbor": {"×2.00", "×2.00"}, "linear bound (loads)": {"×2.20", "×2.18"}}
	for _, r := range growth {
		k := r[0]
		if k == "linear" {
			k += " " + r[1]
		}
		if w, ok := want[k]; ok && (r[2] != w[0] || r[3] != w[1]) {
			t.Errorf("growth of %s: %v, want %v", k, r[2:4], w)
		}
		delete(want, k)
	}
	if len(want) != 0 {
		t.Errorf("growth rows missing: %v", want)
	}
}

func TestCollectiveLoadOfErrors(t *testing.T) {
	for _, c := range []struct{ topo, routing, tie, workload, want string }{
		{"torus:4x4", "tsdor", "plus", "allgather:ring:16B", "tsdor routes twin tori"},
		{"torus:4x4", "adaptive", "plus", "allgather:ring:16B", "accepted are dor"},
		{"torus:4x4", "dor", "sideways", "allgather:ring:16B", "unknown tie rule"},
		{"torus:4x4", "dor", "plus", "allgather:tree:16B", "unknown allgather algorithm"},
	} {
		_, err := CollectiveLoadOf(context.Background(), c.topo, c.routing, c.tie, c.workload, 1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v", c, err)
		}
	}
}
