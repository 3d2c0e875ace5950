package plots

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twintorus/twintorus/kernel/browsertest"
)

// requireJS stands in for Jupyter classic's RequireJS: a UMD bundle that
// saw it would hand ECharts to define() instead of window.echarts.
const requireJS = `<script type="text/javascript">
window.define = function () { throw new Error("anonymous define() called"); };
window.define.amd = {};
</script>
`

// notebookInsert shows html as notebooks show outputs: through innerHTML,
// which does not run scripts, then by recreating each script element, as
// JupyterLab does for trusted outputs.
func notebookInsert(t *testing.T, html string) string {
	t.Helper()
	js, err := json.Marshal(html) // escapes <, > and & as \u00XX
	if err != nil {
		t.Fatal(err)
	}
	return `<div id="output"></div>
<script type="text/javascript">
(function () {
  var out = document.getElementById("output");
  out.innerHTML = ` + string(js) + `;
  out.querySelectorAll("script").forEach(function (old) {
    var s = document.createElement("script");
    s.text = old.text;
    old.replaceWith(s);
  });
})();
</script>
`
}

// TestChartsInChromium draws the charts in headless Chromium with the
// network blocked: as exported HTML (library after some charts, repeated
// charts, RequireJS present) and as notebook outputs inserted later.
func TestChartsInChromium(t *testing.T) {
	browsertest.Require(t)
	made := madeGoldenCharts(t)
	page := "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n" + requireJS +
		made["latency"].Fragment() + made["latency"].Fragment() + Library() +
		made["accepted"].HTML() + made["bars"].HTML() +
		notebookInsert(t, made["heatmap"].HTML()) + "</body></html>\n"
	path := filepath.Join(t.TempDir(), "charts.html")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := browsertest.Load(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := p.Close(); err != nil {
			t.Error(err)
		}
	}()

	// Every chart div has an ECharts instance that painted a canvas.
	drawn, err := browsertest.Eval[[]string](p, `Array.from(document.querySelectorAll(".twintorus-chart")).map(function (el) {
	  var c = el.querySelector("canvas"), inst = window.echarts && echarts.getInstanceByDom(el);
	  return el.id + " " + (inst ? "instance" : "none") + " " + (c ? c.width + "x" + c.height : "no-canvas");
	})`)
	if err != nil {
		t.Fatal(err)
	}
	if len(drawn) != 5 {
		t.Errorf("found %d chart divs, want 5: %q", len(drawn), drawn)
	}
	for _, d := range drawn {
		if !strings.Contains(d, " instance ") || strings.HasSuffix(d, "no-canvas") || strings.HasSuffix(d, " 0x0") {
			t.Errorf("chart not drawn: %s", d)
		}
	}
	if errs := p.Errors(); len(errs) != 0 {
		t.Errorf("page errors: %q", errs)
	}
	if off := p.Offsite(); len(off) != 0 {
		t.Errorf("network requests: %+v", off)
	}
	if dir := os.Getenv("PLOTS_FAILED_DIR"); dir != "" { // to look at the result
		if png, err := p.Screenshot(); err == nil {
			_ = os.WriteFile(filepath.Join(dir, "chromium.png"), png, 0o644)
		}
	}
}
