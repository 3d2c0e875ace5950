package notebooks

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/twintorus/twintorus/internal/testwait"
	"github.com/twintorus/twintorus/kernel"
	"github.com/twintorus/twintorus/kernel/browsertest"
)

// maxNotebookBytes is the size limit of a committed, executed notebook: the ECharts
// bundle a notebook's first chart carries (1.1 MB) and about 140 KB a chart (its
// static PNG twice: the output for viewers without JavaScript, the fallback inside the
// chart's HTML), so that 5dt-vs-3d's twelve panels of the EXTOLL paper's Figs. 7-9
// and the nDT paper's Fig. 6 fit (2.4 MB).
const maxNotebookBytes = 3 << 20

// libraryMarker occurs once in each copy of the embedded ECharts script (plots.Library).
const libraryMarker = "window.twintorusCharts = [];"

// chartMarker occurs once in each interactive chart's element (plots.Chart.Fragment).
const chartMarker = `class="twintorus-chart"`

type cell struct {
	ID       string `json:"id"`
	Metadata struct {
		// Twintorus.Charts is the number of interactive charts the cell shows: the
		// tests hold every notebook, as committed, exported and live, to it.
		// QuickCharts, when set, is the number it shows in quick mode (QUICK=1), where
		// some cells draw fewer networks; the live test's Run All runs quick mode.
		// Drawings, when set, is the number of static pictures (PNG images: network
		// drawings, Explore's picture) the cell shows, as committed and live; Explore
		// marks a cell whose controls (kernel.Explore) the live test moves after Run All.
		Twintorus struct {
			Charts      int  `json:"charts"`
			QuickCharts *int `json:"quick_charts"`
			Drawings    int  `json:"drawings"`
			Explore     bool `json:"explore"`
		} `json:"twintorus"`
		// Scrolled false stops classic Jupyter from folding a tall output (several
		// figures, a long table) into a scroll box, which hides figures and cuts
		// them; nbformat's default, "auto", folds anything over 100 lines.
		Scrolled *bool `json:"scrolled"`
	} `json:"metadata"`
	Type           string          `json:"cell_type"`
	Source         json.RawMessage `json:"source"`
	ExecutionCount *int            `json:"execution_count"`
	Outputs        []struct {
		Type  string                     `json:"output_type"`
		Name  string                     `json:"name"`
		Text  []string                   `json:"text"`
		Data  map[string]json.RawMessage `json:"data"`
		Ename string                     `json:"ename"`
	} `json:"outputs"`
}

type notebook struct {
	Cells    []cell `json:"cells"`
	Metadata struct {
		Kernelspec struct {
			Name string `json:"name"`
		} `json:"kernelspec"`
	} `json:"metadata"`
}

// text decodes nbformat's multiline text: a string, or a list of lines.
func textOf(raw json.RawMessage) string {
	var lines []string
	if json.Unmarshal(raw, &lines) == nil {
		return strings.Join(lines, "")
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

func committed(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob("*.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 3 {
		t.Fatalf("found notebooks %v; want at least the tutorial and the two figure notebooks", paths)
	}
	return paths
}

// TestCommittedNotebooksAreExecuted checks what a reader sees on opening a notebook
// without running it: every code cell ran, in order, without an error, shows the
// interactive charts its metadata declares, and the file stays small enough to
// review.
func TestCommittedNotebooksAreExecuted(t *testing.T) {
	for _, path := range committed(t) {
		t.Run(path, func(t *testing.T) {
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(raw) > maxNotebookBytes {
				t.Errorf("%s is %d bytes; the limit is %d", path, len(raw), maxNotebookBytes)
			}
			var nb notebook
			if err := json.Unmarshal(raw, &nb); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if nb.Metadata.Kernelspec.Name != "twintorus" {
				t.Errorf("kernelspec %q; want twintorus", nb.Metadata.Kernelspec.Name)
			}
			declared := 0
			for _, c := range nb.Cells {
				declared += c.Metadata.Twintorus.Charts
			}
			if n, want := strings.Count(string(raw), libraryMarker), min(declared, 1); n != want {
				t.Errorf("the ECharts script is embedded %d times; want %d (%d charts declared)", n, want, declared)
			}
			last, code := 0, 0
			for _, c := range nb.Cells {
				if c.Type != "code" {
					continue
				}
				code++
				if c.Metadata.Scrolled == nil || *c.Metadata.Scrolled {
					t.Errorf("cell %s: metadata scrolled is not false: Jupyter may fold its output into a scroll box", c.ID)
				}
				if c.ExecutionCount == nil {
					t.Errorf("cell %s was not executed", c.ID)
					continue
				}
				if *c.ExecutionCount <= last {
					t.Errorf("cell %s has execution count %d after %d: executed out of order", c.ID, *c.ExecutionCount, last)
				}
				last = *c.ExecutionCount
				charts, pngs := 0, 0
				for _, o := range c.Outputs {
					text := strings.Join(o.Text, "")
					if o.Type == "error" || (o.Name == "stderr" && strings.Contains(text, "exit status")) {
						t.Errorf("cell %s failed: %s%s", c.ID, o.Ename, text)
					}
					charts += strings.Count(textOf(o.Data["text/html"]), chartMarker)
					if _, ok := o.Data["image/png"]; ok && textOf(o.Data["text/html"]) == "" {
						pngs++
					}
				}
				if charts != c.Metadata.Twintorus.Charts {
					t.Errorf("cell %s shows %d interactive charts; its metadata declares %d", c.ID, charts, c.Metadata.Twintorus.Charts)
				}
				if d := c.Metadata.Twintorus.Drawings; d > 0 && pngs != d {
					t.Errorf("cell %s shows %d static pictures; its metadata declares %d", c.ID, pngs, d)
				}
			}
			if code == 0 {
				t.Errorf("no code cells")
			}
		})
	}
}

// TestNotebooksRenderOffline exports each notebook to HTML with Debian's nbconvert
// and loads it in headless Chromium: every interactive chart must draw, from the
// script embedded in the page, with no request leaving the machine. One nbconvert
// converts them all and one browser loads them one after the other.
func TestNotebooksRenderOffline(t *testing.T) {
	browsertest.Require(t)
	const jupyter = "/usr/bin/jupyter"
	if _, err := os.Stat(jupyter); err != nil {
		if os.Getenv(browsertest.RequiredEnv) == "1" {
			t.Fatalf("Debian's Jupyter is not installed (%s): run scripts/setup.sh", jupyter)
		}
		t.Skipf("Debian's Jupyter is not installed (%s): run scripts/setup.sh", jupyter)
	}
	// One nbconvert for them all: Jupyter's start-up is most of one conversion.
	paths := committed(t)
	dir := t.TempDir()
	cmd := exec.Command(jupyter, append([]string{"nbconvert", "--to", "html", "--output-dir", dir}, paths...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nbconvert: %v\n%s", err, out)
	}
	// One browser for them all, too.
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(5*time.Minute))
	defer cancel()
	var page *browsertest.Page
	defer func() {
		if page != nil {
			if err := page.Close(); err != nil {
				t.Error(err)
			}
		}
	}()
	for _, path := range paths {
		t.Run(path, func(t *testing.T) {
			want := 0
			for _, n := range declaredCharts(t, path) {
				want += n
			}
			html := filepath.Join(dir, strings.TrimSuffix(path, ".ipynb")+".html")
			var err error
			if page == nil {
				page, err = browsertest.Load(ctx, html)
			} else {
				err = page.Goto(html)
			}
			if err != nil {
				t.Fatal(err)
			}
			n, err := drawnCharts(page)
			if err != nil {
				t.Fatal(err)
			}
			if n != want {
				t.Errorf("%d charts drawn; the notebook's cells declare %d", n, want)
			}
			if off := page.Offsite(); len(off) != 0 {
				t.Errorf("network requests: %+v", off)
			}
			if errs := page.Errors(); len(errs) != 0 {
				t.Errorf("page errors: %q", errs)
			}
		})
	}
}

// drawnCharts waits until every twintorus chart on the page holds an ECharts
// instance with a drawn canvas and at least one series, and returns their number.
func drawnCharts(page *browsertest.Page) (int, error) {
	const probe = `(function () {
	  var all = document.querySelectorAll(".twintorus-chart"), ok = 0, bad = [];
	  for (var i = 0; i < all.length; i++) {
	    var el = all[i], inst = window.echarts && echarts.getInstanceByDom(el);
	    var canvas = el.querySelector("canvas");
	    if (inst && canvas && canvas.width > 0 && inst.getOption().series.length > 0) { ok++; } else { bad.push(el.id); }
	  }
	  return {total: all.length, drawn: ok, missing: bad};
	})()`
	type state struct {
		Total, Drawn int
		Missing      []string
	}
	var s state
	for deadline := time.Now().Add(testwait.Scale(5 * time.Second)); ; time.Sleep(100 * time.Millisecond) {
		var err error
		if s, err = browsertest.Eval[state](page, probe); err != nil {
			return 0, err
		}
		if s.Drawn == s.Total {
			return s.Total, nil
		}
		if time.Now().After(deadline) {
			break
		}
	}
	return 0, fmt.Errorf("%d of %d charts did not draw: %v", s.Total-s.Drawn, s.Total, s.Missing)
}

// TestDrawnChartsSeesABlankChart shows the render check is not blind: a chart
// container whose script never ran is reported, by id.
func TestDrawnChartsSeesABlankChart(t *testing.T) {
	browsertest.Require(t)
	page := `<!doctype html><div id="blank-chart" class="twintorus-chart" style="width:200px;height:100px"></div>`
	path := filepath.Join(t.TempDir(), "blank.html")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(time.Minute))
	defer cancel()
	p, err := browsertest.Load(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := drawnCharts(p); err == nil || !strings.Contains(err.Error(), "1 of 1 charts did not draw: [blank-chart]") {
		t.Errorf("drawnCharts on a blank chart: %v", err)
	}
}

// listStart is a line CommonMark reads as the start of a list even inside a
// paragraph: a bullet, or an ordered item numbered 1.
var listStart = regexp.MustCompile(`^ {0,3}([-+*]|1[.)])( |$)`)

// TestMarkdownLineBreaksAreNotLists: a paragraph's line that happens to begin with
// "1)" or "- " starts a list in the rendered notebook (the workloads notebook's
// "… instead of\n1) but …" rendered as a list item). Every such line must follow a
// blank line, a heading or another list line, i.e. be meant as a list.
func TestMarkdownLineBreaksAreNotLists(t *testing.T) {
	for _, path := range committed(t) {
		nb := readNotebook(t, path)
		for _, c := range nb.Cells {
			if c.Type != "markdown" {
				continue
			}
			lines := strings.Split(textOf(c.Source), "\n")
			inList, fenced := false, false
			for i, l := range lines {
				if strings.HasPrefix(strings.TrimSpace(l), "```") {
					fenced = !fenced
				}
				if fenced {
					continue
				}
				item := listStart.MatchString(l) || regexp.MustCompile(`^ {0,3}\d+[.)] `).MatchString(l)
				switch {
				case strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#"):
					inList = false
				case item && i > 0 && !inList && listStart.MatchString(l) && strings.TrimSpace(lines[i-1]) != "" && !strings.HasPrefix(lines[i-1], "#") && !strings.HasPrefix(lines[i-1], "|"):
					t.Errorf("%s, cell %s, line %d %q continues a paragraph but renders as a list item", path, c.ID, i+1, l)
				}
				if item {
					inList = true
				}
			}
		}
	}
}

// TestStaticFiguresLaidOut: no committed output carries kernel.Show's line under a
// static figure whose text is clipped, overlaps or is over-precise
// (kernel.LayoutWarning, from plots.Figure.Problems): every static figure a notebook
// shows, as opened, is held to the rules its interactive chart is held to in the
// browser. The live test checks the same after Run All.
func TestStaticFiguresLaidOut(t *testing.T) {
	figures := 0
	for _, path := range committed(t) {
		nb := readNotebook(t, path)
		for _, c := range nb.Cells {
			for _, o := range c.Outputs {
				if _, ok := o.Data["image/png"]; ok {
					figures++
				}
				for _, l := range o.Text {
					if strings.HasPrefix(l, kernel.LayoutWarning) {
						t.Errorf("%s, cell %s: %s", path, c.ID, strings.TrimSpace(l))
					}
				}
			}
		}
	}
	if figures == 0 {
		t.Fatal("no static figure in the committed notebooks: nothing was checked")
	}
	t.Logf("%d static figures shown by the notebooks", figures)
}
