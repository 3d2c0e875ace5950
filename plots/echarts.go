package plots

import (
	_ "embed"
	"strings"
)

// EChartsVersion is the version of the embedded ECharts script
// (assets/README.md says where it comes from).
const EChartsVersion = "5.6.0"

//go:embed assets/echarts.min.js
var echartsJS string

// Library returns a <script> element that defines window.echarts from the
// embedded copy, unless the page already has it, then draws the charts
// whose scripts ran before it. Put it once before (or after) any number of
// [Chart.Fragment]s; [Chart.HTML] and [Page] include it for you.
//
// The script is about 1 MB. Notebooks run HTML outputs' scripts in the
// page itself (Jupyter classic and exported HTML through jQuery or the
// parser, JupyterLab for trusted outputs), so one copy serves every chart
// on the page.
func Library() string {
	var b strings.Builder
	b.Grow(len(echartsJS) + 1024)
	b.WriteString(`<script type="text/javascript">
(function () {
  if (!window.echarts) {
    // The bundle is UMD. Hiding AMD and CommonJS loaders (Jupyter classic
    // has RequireJS, whose define would swallow the module) makes it
    // define window.echarts.
    (function (define, module, exports) {
`)
	b.WriteString(echartsJS)
	b.WriteString(`
    }).call(window);
  }
  // ECharts takes a line's height to be the width of "国"; a browser without CJK
  // fonts measures it at a third of the font size, which runs the lines of a text
  // together and puts labels off their places. A CJK glyph is one em wide: so it is
  // measured here, whatever fonts the reader has (also for an ECharts an older output
  // loaded; it keeps what it measured before).
  var probe = !window.twintorusMeasure && document.createElement && document.createElement("canvas");
  var ctx = probe && probe.getContext && probe.getContext("2d");
  if (ctx && window.echarts && window.echarts.setPlatformAPI) {
    window.twintorusMeasure = true;
    window.echarts.setPlatformAPI({measureText: function (text, font) {
      ctx.font = font || "12px sans-serif";
      if (text === "\u56fd") {
        var px = /([0-9.]+)px/.exec(ctx.font);
        return {width: px ? +px[1] : 12};
      }
      return ctx.measureText(text);
    }});
  }
  var waiting = window.twintorusCharts || [];
  window.twintorusCharts = [];
  for (var i = 0; i < waiting.length; i++) { waiting[i](); }
})();
</script>
`)
	return b.String()
}
