package kernel

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"html"
	"io"
	"math"
	"sync"
	"time"
)

const (
	// notebookInterval keeps a bar to four redraws a second: each redraw is a
	// message through gonb to the browser, and a sweep may report thousands of points.
	notebookInterval = 250 * time.Millisecond
	// textInterval is slower because each text update is a new line in a log.
	textInterval = 2 * time.Second
)

// Progress is a progress bar for a long run. In a notebook it is an HTML bar updated in
// place (a transient display id); outside one it prints a throttled status line.
// Update has the func(done, total int) shape of a runner's progress callback, and is
// safe to call from several goroutines. Finish replaces the bar with a one-line summary.
type Progress struct {
	screen   *Screen
	label    string
	id       string
	interval time.Duration
	now      func() time.Time

	mu       sync.Mutex
	start    time.Time
	drawn    bool      // whether the bar has been drawn at all
	shown    time.Time // when the bar was last drawn
	done     int
	total    int
	finished bool
}

// NewProgress returns a progress bar labelled label on the default screen.
func NewProgress(label string) *Progress { return Default().Progress(label) }

// Progress returns a progress bar labelled label on this screen. Its clock starts now.
func (s *Screen) Progress(label string) *Progress {
	interval := textInterval
	if s.Notebook != nil {
		interval = notebookInterval
	}
	return newProgress(s, label, interval, time.Now)
}

func newProgress(s *Screen, label string, interval time.Duration, now func() time.Time) *Progress {
	return &Progress{
		screen:   s,
		label:    label,
		id:       "twintorus-progress-" + randomID(),
		interval: interval,
		now:      now,
		start:    now(),
	}
}

// randomID names a display block; collisions would merge two bars, so it is random
// rather than a counter that restarts with every cell process.
func randomID() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return fmt.Sprint(time.Now().UnixNano())
	}
	return hex.EncodeToString(b[:])
}

// Update records that done of total items are complete and redraws the bar if the
// last redraw is older than the throttle interval, or if the run is complete.
// Negative counts are taken as zero; calls after Finish are ignored.
func (p *Progress) Update(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.done, p.total = max(done, 0), max(total, 0)
	now := p.now()
	complete := p.total > 0 && p.done >= p.total
	if p.drawn && now.Sub(p.shown) < p.interval && !complete {
		return
	}
	p.drawn, p.shown = true, now
	st := p.stateAt(now)
	if p.screen.Notebook != nil {
		p.screen.Notebook.UpdateHTML(p.id, ProgressHTML(st))
	} else if p.screen.Status != nil {
		_, _ = io.WriteString(p.screen.Status, st.Line()+"\n")
	}
}

// Finish replaces the bar with a one-line summary. Only the first call has an effect.
func (p *Progress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.finished = true
	st := p.stateAt(p.now())
	if p.screen.Notebook != nil {
		p.screen.Notebook.UpdateHTML(p.id, SummaryHTML(st))
	} else if p.screen.Status != nil {
		_, _ = io.WriteString(p.screen.Status, st.Summary()+"\n")
	}
}

func (p *Progress) stateAt(now time.Time) ProgressState {
	return ProgressState{Label: p.label, Done: p.done, Total: p.total, Elapsed: now.Sub(p.start)}
}

// ProgressState is one snapshot of a run, from which the bar and summary are drawn.
type ProgressState struct {
	Label       string
	Done, Total int
	Elapsed     time.Duration
}

// Fraction is the completed share in [0, 1]; 0 when the total is unknown.
func (s ProgressState) Fraction() float64 {
	if s.Total <= 0 {
		return 0
	}
	return math.Min(float64(max(s.Done, 0))/float64(s.Total), 1)
}

// Rate is items completed per second; 0 before any time has passed.
func (s ProgressState) Rate() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Done) / s.Elapsed.Seconds()
}

// ETA estimates the time left at the average rate so far; ok is false when the rate
// or the total is unknown.
func (s ProgressState) ETA() (eta time.Duration, ok bool) {
	r := s.Rate()
	if r <= 0 || s.Total <= 0 {
		return 0, false
	}
	left := max(s.Total-s.Done, 0)
	return time.Duration(float64(left) / r * float64(time.Second)), true
}

// Line is the status as one line of text: "label  30/80  37%  12.3/s  ETA 4s".
func (s ProgressState) Line() string {
	if s.Label == "" {
		return s.status()
	}
	return s.Label + "  " + s.status()
}

// status is Line without the label.
func (s ProgressState) status() string {
	var line string
	if s.Total > 0 {
		line = fmt.Sprintf("%d/%d  %d%%", s.Done, s.Total, int(s.Fraction()*100))
	} else {
		line = fmt.Sprintf("%d done", s.Done)
	}
	if r := s.Rate(); r > 0 {
		line += "  " + formatRate(r)
	}
	if eta, ok := s.ETA(); ok && s.Done < s.Total {
		line += "  ETA " + formatDuration(eta)
	}
	return line
}

// Summary is the one-line report shown when the run finishes or stops.
func (s ProgressState) Summary() string {
	prefix := ""
	if s.Label != "" {
		prefix = s.Label + ": "
	}
	switch {
	case s.Total > 0 && s.Done < s.Total:
		return fmt.Sprintf("%sstopped at %d/%d after %s", prefix, s.Done, s.Total, formatDuration(s.Elapsed))
	case s.Rate() > 0:
		return fmt.Sprintf("%s%d done in %s (%s)", prefix, s.Done, formatDuration(s.Elapsed), formatRate(s.Rate()))
	default:
		return fmt.Sprintf("%s%d done in %s", prefix, s.Done, formatDuration(s.Elapsed))
	}
}

// ProgressHTML draws the bar: label, a filled track, and the status text.
func ProgressHTML(s ProgressState) string {
	pct := s.Fraction() * 100
	return fmt.Sprintf(`<div class="twintorus-progress" style="display:flex;align-items:center;gap:0.6em;font-family:monospace;font-size:90%%">`+
		`<span>%s</span>`+
		`<div style="flex:0 0 20em;height:0.9em;background:#e6e6e6;border-radius:3px;overflow:hidden">`+
		`<div style="width:%.1f%%;height:100%%;background:#3b7dd8"></div></div>`+
		`<span>%s</span></div>`,
		html.EscapeString(s.Label), pct, html.EscapeString(s.status()))
}

// SummaryHTML draws the finished run as one line.
func SummaryHTML(s ProgressState) string {
	return `<div class="twintorus-progress-done" style="font-family:monospace;font-size:90%">` +
		html.EscapeString(s.Summary()) + `</div>`
}

func formatRate(r float64) string {
	if r >= 1 {
		return fmt.Sprintf("%.3g/s", r)
	}
	return fmt.Sprintf("%.3g/min", r*60)
}

// formatDuration prints durations the way a person reads a clock: 850ms, 4.2s, 3m05s, 2h03m.
func formatDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < 10*time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	default:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
}
