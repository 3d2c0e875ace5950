package kernel

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/twintorus/twintorus/plots"
)

func testPlot() plots.LinePlot {
	s, _ := plots.XY("D bubble", []float64{0.1, 0.2, 0.3}, []float64{20, 22, 30})
	return plots.LinePlot{Options: plots.Options{Title: "t", XLabel: "x", YLabel: "y"}, Series: []plots.Series{s}}
}

// mustPanic runs f and returns what it panicked with.
func mustPanic(t *testing.T, f func()) (v any) {
	t.Helper()
	defer func() { v = recover() }()
	f()
	t.Fatal("no panic")
	return nil
}

func TestShow(t *testing.T) {
	rec := &recorder{}
	first := true
	s := &Screen{Notebook: rec, Library: func() bool { f := first; first = false; return f }}
	s.Show(testPlot(), nil)
	s.Show(testPlot(), nil)
	if len(rec.charts) != 2 {
		t.Fatalf("%d charts shown, want 2", len(rec.charts))
	}
	for i, c := range rec.charts {
		if !bytes.HasPrefix(c.png, []byte("\x89PNG")) {
			t.Errorf("chart %d: no PNG beside the HTML", i)
		}
		if !strings.Contains(c.html, `class="twintorus-chart"`) || !strings.Contains(c.html, `class="twintorus-fallback"`) {
			t.Errorf("chart %d: no chart element with its static fallback", i)
		}
		if got, want := strings.Count(c.html, "window.twintorusCharts = [];"), 1-i; got != want {
			t.Errorf("chart %d carries the ECharts script %d times, want %d", i, got, want)
		}
	}
	s.ShowFigure(testPlot(), nil)
	if rec.pngs != 1 || len(rec.charts) != 2 {
		t.Errorf("ShowFigure: %d PNGs, %d charts", rec.pngs, len(rec.charts))
	}
}

func TestShowFailsTheCellOnError(t *testing.T) {
	s := &Screen{Notebook: &recorder{}, Library: func() bool { return true }}
	v := mustPanic(t, func() { s.Show(testPlot(), errors.New("figures: no summaries to plot")) })
	if err, ok := v.(error); !ok || err.Error() != "kernel.Show: figures: no summaries to plot" {
		t.Errorf("panicked with %v", v)
	}
	v = mustPanic(t, func() { s.Show(plots.LinePlot{}, nil) })
	if !strings.Contains(fmt.Sprint(v), "kernel.Show: plots:") {
		t.Errorf("an empty plot panicked with %v", v)
	}
	mustPanic(t, func() { (&Screen{}).ShowFigure(nil, errors.New("x")) })
	// Outside a notebook a good plot shows nothing and does not fail.
	(&Screen{}).Show(testPlot(), nil)
}

// TestFirstChartPerKernel: the default screen puts the ECharts script in the first
// chart of a kernel only, whatever cell program shows it.
func TestFirstChartPerKernel(t *testing.T) {
	t.Setenv("GONB_TMP_DIR", t.TempDir())
	s := &Screen{}
	if !s.firstChart() || s.firstChart() || (&Screen{}).firstChart() {
		t.Error("want true once, then false for this kernel")
	}
	t.Setenv("GONB_TMP_DIR", t.TempDir()) // a restarted kernel
	if !s.firstChart() {
		t.Error("a new kernel's first chart must carry the script")
	}
	t.Setenv("GONB_TMP_DIR", "")
	if !s.firstChart() || !s.firstChart() {
		t.Error("without a kernel id every chart must carry the script")
	}
}

// TestWaitRead: a display waits until the reader of stdout has taken what was
// written, and no longer.
func TestWaitRead(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if _, err := w.WriteString("a line before the table\n"); err != nil {
		t.Fatal(err)
	}
	if n, ok := unread(w); !ok || n != 24 {
		t.Fatalf("unread = %d, %v; want 24, true", n, ok)
	}
	read := make(chan time.Time, 1)
	go func() {
		time.Sleep(50 * time.Millisecond)
		buf := make([]byte, 64)
		_, _ = r.Read(buf)
		read <- time.Now()
	}()
	waitRead(w, 5*time.Second)
	done := time.Now()
	if at := <-read; done.Before(at) {
		t.Errorf("waitRead returned %v before the reader read", at.Sub(done))
	}
	f, err := os.CreateTemp(t.TempDir(), "f")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, ok := unread(f); ok {
		t.Error("unread on a regular file claims to know")
	}
	start := time.Now()
	waitRead(f, 5*time.Second)
	if time.Since(start) > time.Second {
		t.Error("waitRead waited on a regular file")
	}
}

// TestShowReportsLayoutProblems: a static figure whose text breaks the rules of a
// printed figure (here a title too wide to break, so clipped) is shown with one line
// per problem on the status stream; a good figure gets none.
func TestShowReportsLayoutProblems(t *testing.T) {
	var status bytes.Buffer
	s := &Screen{Notebook: &recorder{}, Status: &status, Library: func() bool { return true }}
	s.Show(testPlot(), nil)
	if status.Len() != 0 {
		t.Errorf("a good figure reported: %s", status.String())
	}
	wide := testPlot()
	wide.Title = strings.Repeat("Unbreakable", 12)
	s.ShowFigure(wide, nil)
	if got := status.String(); !strings.HasPrefix(got, LayoutWarning+" ") || !strings.Contains(got, "clipped") || strings.Count(got, "\n") < 1 {
		t.Errorf("a clipped title reported as %q", got)
	}
}
