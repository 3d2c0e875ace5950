package nb_test

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/datasets/claims"
	"github.com/twintorus/twintorus/figures"
	"github.com/twintorus/twintorus/kernel"
	"github.com/twintorus/twintorus/nb"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/routing"
)

// setMode sets the environment figures.ModeFromEnv reads: "quick", "recompute" or ""
// for the stored runs.
func setMode(t *testing.T, mode string) {
	t.Setenv("QUICK", map[bool]string{true: "1"}[mode == "quick"])
	t.Setenv("RECOMPUTE", map[bool]string{true: "1"}[mode == "recompute"])
}

// TestResultsReadTheStoredRuns: in the default mode Results is figures.LoadJoined of
// the stored runs, point for point (ResultsShrunk and ClosedLoop too, the shrink
// unused); in quick mode FullResults and StoredResults still read those, where Results
// would run a quick version.
func TestResultsReadTheStoredRuns(t *testing.T) {
	t.Setenv("TWINTORUS_STORE", t.TempDir()) // where a recomputation would write
	names := []string{"3dt-vs-2d", "3dt-vs-2d-deep"}
	want, err := figures.LoadJoined(context.Background(), figures.Stored, nil, names...)
	if err != nil {
		t.Fatal(err)
	}
	wantText := summaryText(want.Summaries())
	if len(want.Summaries()) == 0 {
		t.Fatal("no stored summaries of 3dt-vs-2d")
	}

	setMode(t, "")
	if nb.Mode() != figures.Stored || nb.Quick() {
		t.Errorf("no QUICK or RECOMPUTE: mode %v, quick %v; want stored", nb.Mode(), nb.Quick())
	}
	if got := nb.Results(names...); summaryText(got.Summaries()) != wantText || got.Mode != figures.Stored {
		t.Errorf("nb.Results in the default mode (%v) differs from the stored runs", got.Mode)
	}

	flat, err := figures.LoadResults(context.Background(), "twisted-table1", figures.Stored, nil)
	if err != nil {
		t.Fatal(err)
	}
	shrunk := nb.ResultsShrunk("twisted-table1", func(q experiment.Spec) experiment.Spec {
		t.Error("nb.ResultsShrunk shrank a spec outside quick mode")
		return q
	})
	if summaryText(shrunk.Summaries()) != summaryText(flat.Summaries()) || len(flat.Summaries()) == 0 {
		t.Errorf("nb.ResultsShrunk in the default mode differs from the stored runs")
	}

	closed, err := figures.LoadClosedLoop(context.Background(), "collectives", figures.Stored, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := nb.ClosedLoop("collectives"); summaryText(got.Summaries()) != summaryText(closed.Summaries()) || len(closed.Summaries()) == 0 {
		t.Errorf("nb.ClosedLoop in the default mode differs from the stored runs (%d summaries)", len(closed.Summaries()))
	}

	setMode(t, "quick")
	if nb.Mode() != figures.Quick || !nb.Quick() {
		t.Errorf("QUICK=1: mode %v, quick %v; want quick", nb.Mode(), nb.Quick())
	}
	for fn, load := range map[string]func(...string) *figures.Results{"FullResults": nb.FullResults, "StoredResults": nb.StoredResults} {
		if got := load(names...); summaryText(got.Summaries()) != wantText || got.Mode != figures.Stored {
			t.Errorf("nb.%s in quick mode (%v) differs from the stored runs", fn, got.Mode)
		}
	}
	setMode(t, "recompute")
	if nb.Mode() != figures.Recompute {
		t.Errorf("RECOMPUTE=1: mode %v; want recompute", nb.Mode())
	}

	msg := panicText(t, func() { nb.Results("3dt-vs-2e") })
	if !strings.Contains(msg, "nb.Results: ") || !strings.Contains(msg, "3dt-vs-2e") {
		t.Errorf("unknown experiment: panic %q; want nb.Results and the name", msg)
	}
}

// stdout runs f and returns what it printed (a table, outside a notebook).
func stdout(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stdout
	os.Stdout = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	defer func() { os.Stdout = saved }()
	f()
	w.Close()
	return <-done
}

// TestClaimsIsTheRegistrysTable: Claims prints the registry's table of a notebook's
// claims, and with papers only theirs.
func TestClaimsIsTheRegistrysTable(t *testing.T) {
	table := func(keep claims.Filter) string {
		h, rows, err := claims.Table(context.Background(), keep)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) == 0 {
			t.Fatal("no claims: the test needs a notebook with some")
		}
		return stdout(t, func() { kernel.Table(h, rows) })
	}
	all := table(claims.Notebook("5dt-vs-3d"))
	ext := table(func(c *claims.Claim) bool { return claims.Notebook("5dt-vs-3d")(c) && claims.Paper("ext")(c) })
	if all == ext {
		t.Fatal("5dt-vs-3d shows only [EXT]'s claims: the test needs a notebook with claims of two papers")
	}
	if got := stdout(t, func() { nb.Claims("5dt-vs-3d") }); got != all {
		t.Errorf("nb.Claims(5dt-vs-3d) printed\n%s\nwant\n%s", got, all)
	}
	if got := stdout(t, func() { nb.Claims("5dt-vs-3d", "ext") }); got != ext {
		t.Errorf("nb.Claims(5dt-vs-3d, ext) printed\n%s\nwant\n%s", got, ext)
	}
}

// TestLoadedRunsInTheNotebooksMode: a loader sees the notebook's mode; its results
// come back, its error panics.
func TestLoadedRunsInTheNotebooksMode(t *testing.T) {
	setMode(t, "quick")
	loader := func(ctx context.Context, m figures.Mode, progress func(done, total int)) (figures.Mode, int, error) {
		progress(1, 1)
		return m, 7, nil
	}
	if m, n := nb.Loaded(loader); m != figures.Quick || n != 7 {
		t.Errorf("nb.Loaded: %v, %d; want quick, 7", m, n)
	}
	failing := func(context.Context, figures.Mode, func(done, total int)) (int, int, error) {
		return 0, 0, errors.New("the loader's error")
	}
	if msg := panicText(t, func() { nb.Loaded(failing) }); !strings.Contains(msg, "nb.Loaded: the loader's error") {
		t.Errorf("failing loader: panic %q", msg)
	}
}

// TestChannelLoadOf: DOR given by hand loads the channels as ChannelLoad does, 288
// routes on the busiest channel of the 16×8 torus (TestAnalysisAgainstClosedForm).
func TestChannelLoadOf(t *testing.T) {
	net := nb.Net("torus:16x8")
	if got, want := nb.ChannelLoadOf(routing.NewDOR(net, routing.TiePlus)), nb.ChannelLoad(net); got.MaxRoutes != want.MaxRoutes || got.Bound != want.Bound || got.AvgHops != want.AvgHops {
		t.Errorf("ChannelLoadOf(DOR) %d routes, bound %v, %v hops; ChannelLoad %d, %v, %v", got.MaxRoutes, got.Bound, got.AvgHops, want.MaxRoutes, want.Bound, want.AvgHops)
	}
	if got := nb.ChannelLoadOf(routing.NewDOR(net, routing.TiePlus)); got.MaxRoutes != 288 {
		t.Errorf("torus:16x8 DOR: busiest channel %d routes; want 288 (TestAnalysisAgainstClosedForm)", got.MaxRoutes)
	}
}
