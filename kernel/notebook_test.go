package kernel_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/kernel/jupytertest"
)

// notebookEnv sets up a private Jupyter with the kernel of this checkout (package
// jupytertest: the user's own kernelspec is left alone, and GOPROXY=off proves cells
// build offline), and returns the environment for the notebook harness, in quick mode.
func notebookEnv(t *testing.T) (env []string, root string) {
	t.Helper()
	e := jupytertest.Setup(t)
	return append(e.Vars, "QUICK=1"), e.Root
}

// runNotebooks runs scripts/run-notebooks.sh and returns its combined output.
func runNotebooks(t *testing.T, env []string, root string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(filepath.Join(root, "scripts", "run-notebooks.sh"), args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

type notebook struct {
	Cells []struct {
		ID      string   `json:"id"`
		Type    string   `json:"cell_type"`
		Outputs []output `json:"outputs"`
	} `json:"cells"`
}

type output struct {
	Type  string         `json:"output_type"`
	Text  multiline      `json:"text"`
	Data  map[string]any `json:"data"`
	Ename string         `json:"ename"`
}

// multiline is nbformat's text: a string, or a list of lines.
type multiline string

func (m *multiline) UnmarshalJSON(b []byte) error {
	var lines []string
	if err := json.Unmarshal(b, &lines); err == nil {
		*m = multiline(strings.Join(lines, ""))
		return nil
	}
	var s string
	err := json.Unmarshal(b, &s)
	*m = multiline(s)
	return err
}

// data is one MIME type's content of an output, as text.
func (o output) data(mime string) string {
	switch v := o.Data[mime].(type) {
	case string:
		return v
	case []any:
		var b strings.Builder
		for _, l := range v {
			b.WriteString(fmt.Sprint(l))
		}
		return b.String()
	}
	return ""
}

// cell returns a cell's outputs by id.
func (nb notebook) cell(id string) []output {
	for _, c := range nb.Cells {
		if c.ID == id {
			return c.Outputs
		}
	}
	return nil
}

// outputs returns each code cell's outputs as one string, by cell id.
func (nb notebook) outputs() map[string]string {
	m := map[string]string{}
	for _, c := range nb.Cells {
		var b strings.Builder
		for _, o := range c.Outputs {
			b.WriteString("[" + o.Type + "]" + o.Ename + "\n")
			b.WriteString(string(o.Text))
			for mime := range o.Data {
				b.WriteString(o.data(mime))
			}
		}
		m[c.ID] = b.String()
	}
	return m
}

func TestSmokeNotebook(t *testing.T) {
	env, root := notebookEnv(t)
	out := t.TempDir()
	log, err := runNotebooks(t, env, root, "--out", out, filepath.Join("testdata", "smoke.ipynb"))
	if err != nil {
		t.Fatalf("run-notebooks: %v\n%s", err, log)
	}
	raw, err := os.ReadFile(filepath.Join(out, "smoke.ipynb"))
	if err != nil {
		t.Fatalf("executed notebook: %v\n%s", err, log)
	}
	var nb notebook
	if err := json.Unmarshal(raw, &nb); err != nil {
		t.Fatalf("executed notebook: %v", err)
	}
	got := nb.outputs()
	for id, wants := range map[string][]string{
		"topology": {"twin:4x4x4/D has 128 switches", "QUICK=1 notebook=true"},
		"table": {
			`<table class="twintorus-table"><thead><tr><th>spec</th><th>switches</th><th>links</th></tr></thead>`,
			"<td>twin:4x4x4/D</td><td>128</td><td>256</td>",
			"<svg",
		},
		// The bar was updated in place and finally replaced by its summary.
		"progress": {`class="twintorus-progress-done"`, "smoke sweep: 40 done in"},
	} {
		for _, want := range wants {
			if !strings.Contains(got[id], want) {
				t.Errorf("cell %q output lacks %q; it is:\n%s", id, want, got[id])
			}
		}
		if strings.Contains(got[id], "[error]") {
			t.Errorf("cell %q has an error output:\n%s", id, got[id])
		}
	}
	if strings.Count(got["progress"], "[display_data]") != 1 {
		t.Errorf("progress cell should hold one display (the updated bar):\n%s", got["progress"])
	}
	// Lines printed between tables stay between them.
	var order []string
	for _, o := range nb.cell("order") {
		if o.Type == "stream" {
			order = append(order, strings.TrimSpace(string(o.Text)))
		} else {
			order = append(order, "table "+strings.TrimSuffix(strings.TrimPrefix(o.data("text/html"),
				`<table class="twintorus-table"><thead><tr><th>table</th></tr></thead><tbody><tr><td>`), "</td></tr></tbody></table>"))
		}
	}
	var want []string
	for i := 0; i < 20; i++ {
		want = append(want, fmt.Sprintf("line %d", i), fmt.Sprintf("table %d", i))
	}
	if strings.Join(order, "|") != strings.Join(want, "|") {
		t.Errorf("outputs out of program order:\n got %q\nwant %q", order, want)
	}
	// The chart shown as the program exits arrives whole, with the ECharts script (the
	// kernel's first chart) and its static figure for front ends without scripts.
	chart := nb.cell("chart")
	if len(chart) != 1 {
		t.Fatalf("chart cell has %d outputs, want 1", len(chart))
	}
	html := chart[0].data("text/html")
	if !strings.Contains(html, "window.twintorusCharts = [];") || !strings.Contains(html, `class="twintorus-chart"`) ||
		!strings.HasSuffix(strings.TrimSpace(html), "</script>") || !strings.HasPrefix(chart[0].data("image/png"), "iVBORw0KGgo") {
		t.Errorf("chart output incomplete: %d bytes of HTML ending %q, PNG %q...", len(html), html[max(0, len(html)-80):], chart[0].data("image/png")[:min(12, len(chart[0].data("image/png")))])
	}
}

// TestRunNotebooksFailsOnCellError checks both ways a cell fails: gonb rejects code
// that does not compile, and a cell program panics (which gonb v0.11.1 reports only
// as "exit status 2" on stderr: the relay turns it into the cell's error).
func TestRunNotebooksFailsOnCellError(t *testing.T) {
	env, root := notebookEnv(t)
	for name, c := range map[string]struct{ source, want, ename string }{
		"panic":   {`["%%\n", "panic(\"cell failed on purpose\")\n"]`, "panic: cell failed on purpose (exit status 2)", "CellFailed"},
		"exit":    {`["%%\n", "fmt.Fprintln(os.Stderr, \"no results here\")\n", "os.Exit(3)\n"]`, "no results here (exit status 3)", "CellFailed"},
		"compile": {`["%%\n", "x := undefinedName\n"]`, "undefined: undefinedName", "Error"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			nb := `{"cells": [{"cell_type": "code", "execution_count": null, "id": "bad", "metadata": {}, "outputs": [],
			  "source": ` + c.source + `}],
			 "metadata": {"kernelspec": {"display_name": "Go (twintorus)", "language": "go", "name": "twintorus"}},
			 "nbformat": 4, "nbformat_minor": 5}`
			path := filepath.Join(dir, name+".ipynb")
			if err := os.WriteFile(path, []byte(nb), 0o644); err != nil {
				t.Fatal(err)
			}
			log, err := runNotebooks(t, env, root, "--out", filepath.Join(dir, "out"), path)
			if err == nil {
				t.Fatalf("run-notebooks succeeded on a failing cell:\n%s", log)
			}
			if !strings.Contains(log, "FAILED "+path) || !strings.Contains(log, c.want) || !strings.Contains(log, c.ename) {
				t.Errorf("log does not name the failure (%q):\n%s", c.want, log)
			}
		})
	}
}
