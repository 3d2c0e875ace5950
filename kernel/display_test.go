package kernel

import (
	"bytes"
	"strings"
	"sync"
	"testing"
)

// recorder is a Notebook that keeps what it was asked to show.
type recorder struct {
	mu      sync.Mutex // progress bars may be updated from several goroutines
	html    []string
	updates []update
	pngs    int
	svgs    []string
	charts  []chartOut
}

type chartOut struct {
	html string
	png  []byte
}

func (r *recorder) DisplayChart(html string, png []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.charts = append(r.charts, chartOut{html, png})
}

type update struct{ id, html string }

func (r *recorder) DisplayHTML(html string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.html = append(r.html, html)
}

func (r *recorder) UpdateHTML(id, html string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.updates = append(r.updates, update{id, html})
}

func (r *recorder) DisplayPNG(png []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pngs++
}

func (r *recorder) DisplaySVG(svg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.svgs = append(r.svgs, svg)
}

func TestTableHTMLEscapesAndPads(t *testing.T) {
	got := TableHTML([]string{"spec", "<b>switches</b>"}, [][]string{
		{"twin:4x4x4/D", "128"},
		{"a&b"},             // short row: padded
		{"x", "y", "extra"}, // long row: widens the table
	})
	want := `<table class="twintorus-table"><thead><tr><th>spec</th><th>&lt;b&gt;switches&lt;/b&gt;</th><th></th></tr></thead>` +
		`<tbody><tr><td>twin:4x4x4/D</td><td>128</td><td></td></tr>` +
		`<tr><td>a&amp;b</td><td></td><td></td></tr>` +
		`<tr><td>x</td><td>y</td><td>extra</td></tr></tbody></table>`
	if got != want {
		t.Errorf("TableHTML:\n got %s\nwant %s", got, want)
	}
}

func TestTableHTMLEmpty(t *testing.T) {
	if got, want := TableHTML(nil, nil), `<table class="twintorus-table"><tbody></tbody></table>`; got != want {
		t.Errorf("TableHTML(nil, nil) = %s, want %s", got, want)
	}
}

func TestTableText(t *testing.T) {
	got := TableText([]string{"spec", "switches"}, [][]string{Row("twin:4x4x4/D", 128), Row("τ", 8)})
	want := "" +
		"spec          switches\n" +
		"------------  --------\n" +
		"twin:4x4x4/D  128\n" +
		"τ             8\n"
	if got != want {
		t.Errorf("TableText:\n%s\nwant:\n%s", got, want)
	}
	if got := TableText(nil, nil); got != "" {
		t.Errorf("TableText(nil, nil) = %q, want empty", got)
	}
}

func TestScreenInNotebook(t *testing.T) {
	rec := &recorder{}
	var text bytes.Buffer
	s := &Screen{Notebook: rec, Text: &text}
	s.HTML("<p>hi</p>")
	s.PNG([]byte{0x89, 'P', 'N', 'G'})
	s.PNG(nil) // nothing to show
	s.SVG("<svg/>")
	s.Table([]string{"a"}, [][]string{{"1"}})
	if len(rec.html) != 2 || rec.html[0] != "<p>hi</p>" || !strings.HasPrefix(rec.html[1], "<table") {
		t.Errorf("html shown = %q", rec.html)
	}
	if rec.pngs != 1 || len(rec.svgs) != 1 {
		t.Errorf("pngs = %d, svgs = %d; want 1, 1", rec.pngs, len(rec.svgs))
	}
	if text.Len() != 0 {
		t.Errorf("text output in a notebook: %q", text.String())
	}
}

func TestScreenOutsideNotebook(t *testing.T) {
	var text bytes.Buffer
	s := &Screen{Text: &text}
	s.HTML("<p>hi</p>")
	s.PNG([]byte{1})
	s.SVG("<svg/>")
	s.Table([]string{"a", "b"}, [][]string{{"1", "2"}})
	if got, want := text.String(), "a  b\n-  -\n1  2\n"; got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
	// A screen with nowhere to write drops everything without failing.
	(&Screen{}).Table([]string{"a"}, nil)
	(&Screen{}).Progress("x").Update(1, 2)
}
