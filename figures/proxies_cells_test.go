package figures_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/figures"
	"github.com/twintorus/twintorus/kernel"
	"github.com/twintorus/twintorus/sim/experiment"
)

// The code cells of 5dt-vs-3d-workloads.ipynb, run as the notebook runs them in full
// mode (from the stored results), each as one function whose body is the cell's.

func cellExtollCollectives() error {
	// One load of the runs, read four ways: the AllGather as basic linear (the tables'
	// default) or as Open MPI picks it, on TSDOR's own tie rule (mirror) or with every
	// tie + (as these cells ran before issue 38).
	_, g, err := figures.ExtollCollectives(context.Background(), figures.ModeFromEnv(), nil)
	if err != nil {
		return err
	}
	fmt.Println(strings.Join(g.About, "\n"))
	for i, r := range []struct {
		title string
		opts  figures.CollectiveOptions
	}{
		{"AllGather basic linear, TSDOR ties mirror (the tables' defaults)", figures.CollectiveOptions{}},
		{"AllGather as Open MPI picks it (recursive doubling at 16 B, neighbour exchange at 512 B), ties mirror", figures.CollectiveOptions{AllGather: figures.OpenMPIAllGather}},
		{"AllGather basic linear, every tie +", figures.CollectiveOptions{Tie: "plus"}},
		{"AllGather as Open MPI picks it, every tie + (the readings of the verdicts before issue 38)", figures.CollectiveOptions{AllGather: figures.OpenMPIAllGather, Tie: "plus"}},
	} {
		cells, err := figures.ExtollCellsOf(g, r.opts)
		if err != nil {
			return err
		}
		fmt.Println(r.title)
		if i < 2 {
			kernel.Table(figures.CollectiveCellsTable(cells))
		}
		kernel.Table(figures.ClaimsTable(figures.CollectiveClaims(cells)))
	}
	return nil
}

// cellNDTTables is the nDT paper's Tables 2–3, both AllGather readings.
func cellNDTTables() error {
	mode := figures.ModeFromEnv()
	cells, g, err := figures.NDTCollectives(context.Background(), mode, figures.CollectiveOptions{}, nil)
	if err != nil {
		return err
	}
	fmt.Println(strings.Join(g.About, "\n"))
	if mode == figures.Quick {
		fmt.Println("quick run: the 256-PE networks stand in for the 1K column; the verdicts below are not the stored runs'")
	}
	fmt.Println("AllGather basic linear (the tables' default), DORT's own ties (plus):")
	kernel.Table(figures.NDTCellsTable(cells))
	open, err := figures.NDTCellsOf(g, mode, figures.CollectiveOptions{AllGather: figures.OpenMPIAllGather})
	if err != nil {
		return err
	}
	var rows []figures.NDTCell // the other rows are the same cells as above
	for _, c := range open {
		if c.Op == "allgather" {
			rows = append(rows, c)
		}
	}
	fmt.Println("AllGather as Open MPI picks it (neighbour exchange), the only rows that differ:")
	kernel.Table(figures.NDTCellsTable(rows))
	return nil
}

// cellNDTClaims checks the paper's readings of its tables under both AllGathers.
func cellNDTClaims() error {
	mode := figures.ModeFromEnv()
	_, g, err := figures.NDTCollectives(context.Background(), mode, figures.CollectiveOptions{}, nil)
	if err != nil {
		return err
	}
	for _, r := range []struct {
		title string
		opts  figures.CollectiveOptions
	}{
		{"AllGather basic linear:", figures.CollectiveOptions{}},
		{"AllGather as Open MPI picks it (neighbour exchange):", figures.CollectiveOptions{AllGather: figures.OpenMPIAllGather}},
	} {
		cells, err := figures.NDTCellsOf(g, mode, r.opts)
		if err != nil {
			return err
		}
		fmt.Println(r.title)
		kernel.Table(figures.ClaimsTable(figures.NDTCollectiveClaims(cells)))
	}
	return nil
}

// cellAllGatherEvidence is the load each AllGather offers and how the paper's grows.
func cellAllGatherEvidence() error {
	loads, err := figures.StoredCollectiveLoads()
	if err != nil {
		return err
	}
	var ndt, ext []figures.CollectiveLoad
	for _, r := range loads {
		switch {
		case r.PacketFlits == 4 && (r.PEs == 1024 || r.PEs == 4096):
			ndt = append(ndt, r)
		case r.PacketFlits == 1 && r.PEs == 1024:
			ext = append(ext, r)
		}
	}
	fmt.Println("The nDT paper's networks, 128-byte blocks (1K and 4K PEs; 512-byte blocks load every channel 4 times as much):")
	kernel.Table(figures.CollectiveLoadsTable(ndt))
	fmt.Println("The EXTOLL paper's 1,024-PE networks, 16-byte blocks (TSDOR with mirror ties on the 5DT):")
	kernel.Table(figures.CollectiveLoadsTable(ext))
	mode := figures.ModeFromEnv()
	_, g, err := figures.NDTCollectives(context.Background(), mode, figures.CollectiveOptions{}, nil)
	if err != nil {
		return err
	}
	sim := map[string][]figures.NDTCell{}
	for _, a := range []string{"linear", "neighbor"} {
		if sim[a], err = figures.NDTCellsOf(g, mode, figures.CollectiveOptions{AllGather: a}); err != nil {
			return err
		}
	}
	fmt.Println("The AllGather's execution time from 1K to 2K to 4K PEs (128 B): the paper's, our step estimates, our runs:")
	kernel.Table(figures.AllGatherGrowth(loads, sim))
	return nil
}

// cellNDTMirror compares DORT's own ties (plus) with mirrored ones on the 1K and 2K 5DT.
func cellNDTMirror() error {
	mode := figures.ModeFromEnv()
	_, g, err := figures.NDTCollectives(context.Background(), mode, figures.CollectiveOptions{}, nil)
	if err != nil {
		return err
	}
	plus, err := figures.NDTCellsOf(g, mode, figures.CollectiveOptions{})
	if err != nil {
		return err
	}
	mirror, err := figures.NDTCellsOf(g, mode, figures.CollectiveOptions{Tie: "mirror"})
	if err != nil {
		return err
	}
	var rows [][]string
	for i, m := range mirror {
		if !m.Measured {
			continue
		}
		p := plus[i]
		rows = append(rows, []string{map[string]string{"t2": "2 latency", "t3": "3 execution"}[m.Table], m.Name, strings.Split(m.Workload, ":")[1], m.Size + " B", m.Ran.Label,
			fmt.Sprintf("%.4g", p.Ours5DT), fmt.Sprintf("%.4g", m.Ours5DT), fmt.Sprintf("%+.1f", p.OursGain()), fmt.Sprintf("%+.1f", m.OursGain()), fmt.Sprintf("%+.2f", m.PaperGain)})
	}
	if len(rows) == 0 {
		fmt.Println("no run with mirrored ties in this mode (they are stored runs of the 1K and 2K 5DT tori)")
		return nil
	}
	kernel.Table([]string{"Table", "collective", "algorithm", "size", "PEs", "5DT, ties plus", "5DT, ties mirror", "gain % (plus)", "gain % (mirror)", "paper gain %"}, rows)
	return nil
}

func cellPTRANS() error {
	rows, g, err := figures.PTRANS(context.Background(), figures.ModeFromEnv(), nil)
	if err != nil {
		return err
	}
	fmt.Println(strings.Join(g.About, "\n"))
	kernel.Table(figures.PTRANSTable(rows))
	kernel.Show(figures.PTRANSBars(rows, false))
	kernel.Show(figures.PTRANSBars(rows, true))
	kernel.Table(figures.ClaimsTable(figures.PTRANSClaims(rows)))
	return nil
}

func cellApps() error {
	rows, g, err := figures.Apps(context.Background(), figures.ModeFromEnv(), nil)
	if err != nil {
		return err
	}
	fmt.Println(strings.Join(g.About, "\n"))
	kernel.Table(figures.AppTable(rows))
	kernel.Table(figures.ClaimsTable(figures.AppClaims(rows)))
	// The Det. 5DT bars again with every tie + (the rule of the first runs, before issue 38).
	plus, err := figures.AppRowsOf(g, "plus")
	if err != nil {
		return err
	}
	fmt.Println("Det. 5DT with every tie + (the first runs' rule):")
	kernel.Table(figures.ClaimsTable(figures.AppClaims(plus)))
	return nil
}

// One cell per figure (Fig. 11 Graph500, 12 RandomAccess, 13 NAMD): its three panels.
func cellAppFigure(proxy string) error {
	rows, _, err := figures.Apps(context.Background(), figures.ModeFromEnv(), nil)
	if err != nil {
		return err
	}
	for _, m := range figures.AppMetrics {
		kernel.Show(figures.AppBars(rows, proxy, m))
	}
	return nil
}

func TestProposedCellsRun(t *testing.T) {
	t.Setenv("QUICK", "")
	t.Setenv("RECOMPUTE", "")
	for name, cell := range map[string]func() error{
		"extoll collectives": cellExtollCollectives, "ptrans": cellPTRANS, "apps": cellApps,
		"ndt tables": cellNDTTables, "ndt claims": cellNDTClaims, "allgather evidence": cellAllGatherEvidence, "ndt mirror": cellNDTMirror,
		"fig 11": func() error { return cellAppFigure("graph500") },
		"fig 12": func() error { return cellAppFigure("randomaccess") },
		"fig 13": func() error { return cellAppFigure("namd") },
	} {
		if err := cell(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// The stored EXTOLL collectives: all 24 cells under each reading (basic-linear
// AllGather, Open MPI's default; TSDOR's ties mirror and plus), with values checked
// against closed forms (message counts) and the runs' exact cycles.
func TestExtollCollectivesStored(t *testing.T) {
	cells, g, err := figures.ExtollCollectives(context.Background(), figures.Stored, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 24 {
		t.Fatalf("%d cells, want 24", len(cells))
	}
	for _, o := range []figures.CollectiveOptions{{AllGather: figures.OpenMPIAllGather}, {Tie: "plus"}, {AllGather: figures.OpenMPIAllGather, Tie: "plus"}} {
		other, err := figures.ExtollCellsOf(g, o)
		if err != nil || len(other) != 24 {
			t.Fatalf("%+v: %d cells, %v; want 24", o, len(other), err)
		}
	}
	msgs := map[string]float64{} // the 3D and the 5DT runs of a cell send the same messages
	for _, s := range g.Summaries() {
		pes, _ := figures.PEs(s.Point.Topology)
		k := fmt.Sprintf("%s %d", s.Point.Workload, pes)
		if m, ok := msgs[k]; ok && m != s.Estimates[string(experiment.Messages)].Mean {
			t.Errorf("%s: the 3D and 5DT runs send %v and %v messages", k, m, s.Estimates[string(experiment.Messages)].Mean)
		}
		msgs[k] = s.Estimates[string(experiment.Messages)].Mean
	}
	// Open MPI's algorithms: binomial trees P−1 messages, recursive doubling and Bruck
	// P·log₂P, neighbour exchange P·P/2, linear all-to-all P(P−1), basic-linear
	// AllGather 2(P−1) (a gather and a broadcast).
	for _, p := range []float64{256, 512, 1024} {
		log2 := map[float64]float64{256: 8, 512: 9, 1024: 10}[p]
		for w, want := range map[string]float64{"bcast:binomial:16B": p - 1, "reduce:binomial:512B": p - 1,
			"allgather:recursive_doubling:16B": p * log2, "alltoall:bruck:16B": p * log2, "allgather:linear:16B": 2 * (p - 1),
			"allgather:neighbor:512B": p * p / 2, "alltoall:linear:512B": p * (p - 1), "allgather:linear:512B": 2 * (p - 1)} {
			if got := msgs[fmt.Sprintf("%s %d", w, int(p))]; got != want {
				t.Errorf("%s at %d PEs: %v messages, want %v", w, int(p), got, want)
			}
		}
	}
	for _, c := range cells {
		if !(c.Ours3DExec > 0 && c.Ours5DTExec > 0 && c.Ours3DLatency > 0 && c.Paper3DExec > 0) {
			t.Errorf("cell %+v", c)
		}
	}
}

// ptransMessages counts PTRANS's messages per transpose by enumerating every block of
// the nb×nb block-cyclic matrix over the p×q grid (nb = lcm(p, q)): block (I, J) lives on
// task (I mod p)·q + (J mod q) and goes to the owner of (J, I); one message per pair of
// distinct tasks.
func ptransMessages(p, q int) int {
	nb := p
	for nb%q != 0 {
		nb += p
	}
	owner := func(i, j int) int { return (i%p)*q + j%q }
	pairs := map[[2]int]bool{}
	for i := range nb {
		for j := range nb {
			if s, d := owner(i, j), owner(j, i); s != d {
				pairs[[2]int{s, d}] = true
			}
		}
	}
	return len(pairs)
}

// The stored PTRANS runs: 9 networks × 5 mappings, message counts from an enumeration
// of the matrix's blocks, every 5DT and 5D normalised against its 3D torus.
func TestPTRANSStored(t *testing.T) {
	rows, g, err := figures.PTRANS(context.Background(), figures.Stored, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 9 {
		t.Fatalf("%d rows, want 9", len(rows))
	}
	grids := map[int][2]int{1024: {32, 32}, 2048: {32, 64}, 4096: {64, 64}}
	for _, s := range g.Summaries() {
		pes, _ := figures.PEs(s.Point.Topology)
		want := 5 * float64(ptransMessages(grids[pes][0], grids[pes][1]))
		if m := s.Estimates[string(experiment.Messages)]; m.Mean != want || m.N != 5 {
			t.Errorf("%s: %v messages over %d runs, want %v over 5", s.Point.Topology, m.Mean, m.N, want)
		}
	}
	for _, r := range rows {
		if r.Family == "3D torus" && (r.ExecNorm != 1 || r.LatencyNorm != 1) {
			t.Errorf("3D torus not its own reference: %+v", r)
		}
		if !(r.Exec.Low < r.Exec.Mean && r.Exec.Mean < r.Exec.High) {
			t.Errorf("%s: execution interval %+v", r.Topology, r.Exec)
		}
	}
	if len(figures.PTRANSClaims(rows)) != 5 {
		t.Error("PTRANS claims: want the paper's 5 values")
	}
}

// The stored application runs: 3 proxies × 18 bars, each over 2 random mappings.
func TestAppsStored(t *testing.T) {
	rows, _, err := figures.Apps(context.Background(), figures.Stored, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 54 {
		t.Fatalf("%d bars, want 54", len(rows))
	}
	cats := map[string]bool{}
	for _, r := range rows {
		cats[r.Category()] = true
		if r.Replications != 2 || r.DeadlockCount != 0 {
			t.Errorf("%s %s %s: %d runs, deadlocks %v", r.Proxy, r.Category(), r.Series, r.Replications, r.DeadlockCount)
		}
		for _, m := range figures.AppMetrics {
			if e := r.Metrics[m]; !(e.Mean > 0) {
				t.Errorf("%s %s %s: %s %v", r.Proxy, r.Category(), r.Series, m, e.Mean)
			}
		}
	}
	if len(cats) != 6 {
		t.Errorf("categories %v", cats)
	}
}

// Message counts of the proxies as the applications' figures run them: Graph500 4 levels
// of gather + broadcast + reduce + broadcast, 4(P−1) messages each; RandomAccess 8
// iterations of 16 per task; NAMD 4 steps to 6 distinct grid neighbours.
func TestAppsMessages(t *testing.T) {
	_, g, err := figures.Apps(context.Background(), figures.Stored, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range g.Summaries() {
		pes, _ := figures.PEs(s.Point.Topology)
		per := 1
		if _, n, ok := strings.Cut(s.Point.Mapping, "/"); ok {
			fmt.Sscan(n, &per)
		}
		p := float64(pes * per)
		want := map[string]float64{"graph500": 16 * (p - 1), "randomaccess": 8 * 16 * p, "namd": 4 * 6 * p}[strings.SplitN(s.Point.Workload, ":", 2)[0]]
		if got := s.Estimates[string(experiment.Messages)].Mean; got != want {
			t.Errorf("%s on %s, %s: %v messages, want %v", s.Point.Workload, s.Point.Topology, s.Point.Mapping, got, want)
		}
	}
}

// A quick PTRANS run simulates the 256-PE stand-ins: 3 networks, 2 mappings each.
func TestPTRANSQuick(t *testing.T) {
	rows, g, err := figures.PTRANS(context.Background(), figures.Quick, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[0].PEs != 256 || rows[1].Family != "5DT torus" || rows[2].Topology != "torus:4x4x4x2x2" {
		t.Fatalf("rows %+v", rows)
	}
	for _, s := range g.Summaries() {
		if m := s.Estimates[string(experiment.Messages)]; m.Mean != 5*float64(ptransMessages(16, 16)) || m.N != 2 {
			t.Errorf("%s: %+v messages", s.Point.Topology, m)
		}
	}
}
