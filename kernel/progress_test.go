package kernel

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is a hand-advanced clock for the throttling tests.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func newTestProgress(rec *recorder, clock *fakeClock) *Progress {
	return newProgress(&Screen{Notebook: rec}, "sweep", notebookInterval, clock.now)
}

func TestProgressThrottles(t *testing.T) {
	rec := &recorder{}
	clock := &fakeClock{t: time.Unix(1000, 0)}
	p := newTestProgress(rec, clock)

	p.Update(0, 100) // first call always draws
	for i := 1; i <= 9; i++ {
		clock.advance(20 * time.Millisecond) // 180ms in all: under the interval
		p.Update(i, 100)
	}
	if len(rec.updates) != 1 {
		t.Fatalf("after 9 quick updates: %d redraws, want 1", len(rec.updates))
	}
	clock.advance(100 * time.Millisecond) // 280ms since the first draw
	p.Update(10, 100)
	if len(rec.updates) != 2 {
		t.Fatalf("after the interval: %d redraws, want 2", len(rec.updates))
	}
	clock.advance(time.Millisecond)
	p.Update(100, 100) // completion always draws
	if len(rec.updates) != 3 || !strings.Contains(rec.updates[2].html, "100/100") {
		t.Fatalf("completion not drawn: %+v", rec.updates)
	}
	for _, u := range rec.updates {
		if u.id != p.id {
			t.Errorf("update to display %q, want the bar's id %q", u.id, p.id)
		}
	}

	p.Finish()
	p.Finish() // second call does nothing
	p.Update(5, 100)
	if len(rec.updates) != 4 {
		t.Fatalf("after Finish: %d redraws, want 4", len(rec.updates))
	}
	last := rec.updates[3]
	if last.id != p.id || !strings.Contains(last.html, "sweep: 100 done in") || strings.Contains(last.html, "twintorus-progress\"") {
		t.Errorf("summary = %+v", last)
	}
}

func TestProgressCallbackShape(t *testing.T) {
	var callback func(done, total int) = newTestProgress(&recorder{}, &fakeClock{}).Update
	callback(1, 2)
}

func TestProgressConcurrentUpdates(t *testing.T) {
	rec := &recorder{}
	p := newProgress(&Screen{Notebook: rec}, "par", notebookInterval, time.Now)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				p.Update(i, 1000)
			}
		}()
	}
	wg.Wait()
	p.Finish()
	if len(rec.updates) == 0 || len(rec.updates) > 10 {
		t.Errorf("%d redraws for 800 updates within one interval", len(rec.updates))
	}
}

func TestProgressText(t *testing.T) {
	var status bytes.Buffer
	clock := &fakeClock{t: time.Unix(0, 0)}
	p := newProgress(&Screen{Status: &status}, "sweep", textInterval, clock.now)
	clock.advance(time.Second)
	p.Update(10, 40)
	clock.advance(time.Second) // under textInterval: no line
	p.Update(20, 40)
	clock.advance(2 * time.Second)
	p.Update(30, 40)
	p.Finish()
	want := "" +
		"sweep  10/40  25%  10/s  ETA 3.0s\n" +
		"sweep  30/40  75%  7.5/s  ETA 1.3s\n" +
		"sweep: stopped at 30/40 after 4.0s\n"
	if got := status.String(); got != want {
		t.Errorf("status lines:\n%s\nwant:\n%s", got, want)
	}
}

func TestProgressBadInput(t *testing.T) {
	rec := &recorder{}
	p := newTestProgress(rec, &fakeClock{})
	p.Update(-5, -1) // no panic, drawn as 0 done
	p.Update(7, 0)   // unknown total
	p.Update(12, 10) // more than total: bar clamps to full
	if len(rec.updates) != 2 {
		t.Fatalf("%d redraws, want 2 (throttled middle call)", len(rec.updates))
	}
	if !strings.Contains(rec.updates[0].html, "0 done") || !strings.Contains(rec.updates[1].html, "width:100.0%") {
		t.Errorf("updates = %+v", rec.updates)
	}
}

func TestProgressStateText(t *testing.T) {
	cases := []struct {
		st            ProgressState
		line, summary string
	}{
		{ProgressState{"load 0.3", 0, 80, 0}, "load 0.3  0/80  0%", "load 0.3: stopped at 0/80 after 0ms"},
		{ProgressState{"", 30, 80, 2 * time.Second}, "30/80  37%  15/s  ETA 3.3s", "stopped at 30/80 after 2.0s"},
		{ProgressState{"big", 3, 10, 10 * time.Minute}, "big  3/10  30%  0.3/min  ETA 23m20s", "big: stopped at 3/10 after 10m00s"},
		{ProgressState{"all", 80, 80, 90 * time.Minute}, "all  80/80  100%  0.889/min", "all: 80 done in 1h30m (0.889/min)"},
		{ProgressState{"open", 5, 0, 20 * time.Second}, "open  5 done  15/min", "open: 5 done in 20s (15/min)"},
	}
	for _, c := range cases {
		if got := c.st.Line(); got != c.line {
			t.Errorf("%+v Line() = %q, want %q", c.st, got, c.line)
		}
		if got := c.st.Summary(); got != c.summary {
			t.Errorf("%+v Summary() = %q, want %q", c.st, got, c.summary)
		}
	}
}

func TestProgressHTML(t *testing.T) {
	got := ProgressHTML(ProgressState{Label: "<sweep>", Done: 1, Total: 4, Elapsed: time.Second})
	for _, want := range []string{"&lt;sweep&gt;", "width:25.0%", "1/4  25%  1/s  ETA 3.0s"} {
		if !strings.Contains(got, want) {
			t.Errorf("ProgressHTML missing %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "<sweep>") {
		t.Errorf("label not escaped: %s", got)
	}
}
