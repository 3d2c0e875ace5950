package figures

import (
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/experiment"
)

// The AllGather option names the workload of each cell: the default (basic linear), an
// explicit algorithm, or Open MPI's size-dependent choice, whose thresholds are those
// of coll_tuned_decision_fixed.c (50,000 bytes over all blocks; P a power of two; P even).
func TestAllGatherWorkload(t *testing.T) {
	for _, c := range []struct {
		alg   string
		bytes int64
		p     int
		want  string
	}{
		{"", 512, 256, "allgather:linear:512B"},
		{"linear", 16, 256, "allgather:linear:16B"},
		{"ring", 128, 1024, "allgather:ring:128B"},
		{"neighbor_exchange", 128, 1024, "allgather:neighbor:128B"}, // Open MPI's other name
		{"openmpi", 16, 256, "allgather:recursive_doubling:16B"},    // 4,096 bytes, 2^8 tasks
		{"openmpi", 16, 3072, "allgather:bruck:16B"},                // 49,152 bytes, not a power of two
		{"openmpi", 16, 4096, "allgather:neighbor:16B"},             // 65,536 bytes
		{"openmpi", 512, 256, "allgather:neighbor:512B"},
		{"OpenMPI", 128, 1024, "allgather:neighbor:128B"},
		{"openmpi", 512, 101, "allgather:ring:512B"}, // odd P
	} {
		got, err := AllGatherWorkload(c.alg, c.bytes, c.p)
		if err != nil || got != c.want {
			t.Errorf("AllGatherWorkload(%q, %d, %d) = %q, %v; want %q", c.alg, c.bytes, c.p, got, err, c.want)
		}
	}
	_, err := AllGatherWorkload("binomial", 16, 256)
	if err == nil || !strings.Contains(err.Error(), "accepted are openmpi, ring, recursive_doubling, bruck, linear, neighbor") {
		t.Errorf("unknown algorithm: %v", err)
	}
}

// The nDT cells read the AllGather the options name and the 5DT runs of the tie rule
// they name; two runs of one cell that the options do not tell apart are an error.
func TestNDTCollectiveCells(t *testing.T) {
	lat, exe := experiment.LatencyNetworkFlitMean, experiment.ExecutionCycles
	twin := func(w, tie string, l, e float64) experiment.Summary {
		s := summaryOf("twin:4x4x2x4x4/cbest", "dort", w, "linear", map[experiment.MetricName]float64{lat: l, exe: e})
		s.Point.Tie, s.Curve = tie, s.Curve+" "+tie
		return s
	}
	sums := summaries{
		summaryOf("torus:16x8x8", "dor", "allgather:linear:128B", "linear", map[experiment.MetricName]float64{lat: 100, exe: 1000}),
		twin("allgather:linear:128B", "plus", 90, 950),
		summaryOf("torus:16x8x8", "dor", "allgather:neighbor:128B", "linear", map[experiment.MetricName]float64{lat: 5, exe: 100}),
		twin("allgather:neighbor:128B", "plus", 10, 150),
		twin("allgather:neighbor:128B", "minus", 8, 120),
	}
	find := func(cells []NDTCell, table string) NDTCell {
		for _, c := range cells {
			if c.Table == table && c.Op == "allgather" && c.Size == "128" && c.Net.Label == "1k" {
				return c
			}
		}
		t.Fatalf("no AllGather 128 B cell at 1K in table %s", table)
		return NDTCell{}
	}
	cells, err := ndtCollectiveCells(sums, false, CollectiveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 2*8*3 {
		t.Errorf("%d cells, want 48 (measured or not)", len(cells))
	}
	c := find(cells, "t3")
	// Table 3, AllGather 128 B at 1K: 1,023,599 cycles on the 3D torus, 1,019,123 on the 5DT, 0.44 %.
	if !c.Measured || c.Workload != "allgather:linear:128B" || c.Ours3D != 1000 || c.Ours5DT != 950 || c.OursGain() != 5 ||
		c.Paper3D != 1023599 || c.Paper5DT != 1019123 || c.PaperGain != 0.44 {
		t.Errorf("linear cell %+v", c)
	}
	if l := find(cells, "t2"); l.Ours3D != 100 || l.Paper3D != 854.867 {
		t.Errorf("latency cell %+v", l)
	}
	measured := 0
	for _, c := range cells {
		if c.Measured {
			measured++
		}
	}
	if measured != 2 {
		t.Errorf("%d cells measured, want the two AllGather 128 B cells at 1K", measured)
	}
	if ownTie("tsdor") != "mirror" || ownTie("dort") != "plus" || ownTie("dor") != "plus" {
		t.Errorf("own tie rules: tsdor %q, dort %q, dor %q; want mirror, plus, plus", ownTie("tsdor"), ownTie("dort"), ownTie("dor"))
	}
	// DORT's own rule is plus.
	cells, err = ndtCollectiveCells(sums, false, CollectiveOptions{AllGather: "openmpi"})
	if err != nil {
		t.Fatal(err)
	}
	if c := find(cells, "t3"); c.Workload != "allgather:neighbor:128B" || c.Ours5DT != 150 {
		t.Errorf("neighbour exchange, DORT's own ties: %+v", c)
	}
	dup := append(summaries{twin("allgather:neighbor:128B", "plus", 11, 160)}, sums...)
	if _, err := ndtCollectiveCells(dup, false, CollectiveOptions{AllGather: "openmpi"}); err == nil || !strings.Contains(err.Error(), "2 runs of allgather:neighbor:128B") {
		t.Errorf("two runs of one cell: %v", err)
	}
	cells, err = ndtCollectiveCells(sums, false, CollectiveOptions{AllGather: "openmpi", Tie: "minus"})
	if err != nil {
		t.Fatal(err)
	}
	if c := find(cells, "t3"); c.Workload != "allgather:neighbor:128B" || c.Ours5DT != 120 || c.OursGain() != -20 {
		t.Errorf("neighbour exchange, minus ties: %+v", c)
	}
	claims := NDTCollectiveClaims(cells)
	if claims[1].Statement != "F11 5DT below 3D in execution time, every cell" || claims[1].Holds != "no" || !strings.Contains(claims[1].Ours, "AllGather 128 B 1k") {
		t.Errorf("F11 claim %+v", claims[1])
	}
	h, rows := NDTCellsTable(cells)
	if len(rows) != 48 || len(rows[0]) != len(h) {
		t.Errorf("table: %d rows of %d columns, header %d", len(rows), len(rows[0]), len(h))
	}
	if _, err := ndtCollectiveCells(sums, false, CollectiveOptions{AllGather: "tree"}); err == nil {
		t.Error("unknown algorithm accepted")
	}
}
