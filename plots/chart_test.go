package plots

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// madeGoldenCharts renders every golden chart, by name.
func madeGoldenCharts(t *testing.T) map[string]*Chart {
	t.Helper()
	made := map[string]*Chart{}
	for name, mk := range goldenCharts() {
		c, err := mk()
		if err != nil {
			t.Fatal(err)
		}
		made[name] = c
	}
	return made
}

func goldenCharts() map[string]func() (*Chart, error) {
	return map[string]func() (*Chart, error){
		"latency": func() (*Chart, error) {
			return LinePlot{
				Options: Options{Title: "Network latency, 4×4×4", XLabel: "accepted traffic (flits/cycle/node)", YLabel: "latency (cycles)"},
				Series:  latencyCurves(),
			}.Chart(ChartWidth, ChartHeight)
		},
		"accepted": func() (*Chart, error) {
			return LinePlot{
				Options:  Options{Title: "Accepted traffic", XLabel: "offered load", YLabel: "accepted", Legend: LegendInside},
				Series:   acceptedCurves()[:3],
				Diagonal: true,
			}.Chart(ChartWidth, ChartHeight)
		},
		"hollow": func() (*Chart, error) {
			return LinePlot{
				Options:     Options{Title: "Flagged points", XLabel: "offered load", YLabel: "accepted"},
				Series:      hollowCurves(),
				Diagonal:    true,
				HollowLabel: "hollow: not stationary",
				Notes:       []string{"a note without a mark"},
			}.Chart(ChartWidth, ChartHeight)
		},
		"bars":    func() (*Chart, error) { return pathCounts().Chart(ChartWidth, ChartHeight) },
		"heatmap": func() (*Chart, error) { return utilisation().Chart(ChartWidth, ChartHeight) },
	}
}

func TestChartGolden(t *testing.T) {
	for name, mk := range goldenCharts() {
		t.Run(name, func(t *testing.T) {
			c, err := mk()
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, name+".html", []byte(c.Fragment()))
		})
	}
}

// TestChartsRunInNode runs the charts' scripts, with the embedded library
// loaded late and twice, in a fake page with RequireJS (see
// testdata/render.js). It needs node; the browser is not simulated beyond
// what ECharts' server-side renderer uses.
func TestChartsRunInNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil || testing.Short() {
		t.Skip("needs node and no -short")
	}
	made := madeGoldenCharts(t)
	// Scripts that run before the library wait for it; a repeated chart
	// gets a second div with the same id; HTML() repeats the library.
	page := made["latency"].Fragment() + made["latency"].Fragment() + Library() +
		made["accepted"].HTML() + made["bars"].HTML() + made["heatmap"].Fragment()
	path := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, filepath.Join("testdata", "render.js"), path).CombinedOutput()
	if err != nil {
		t.Fatalf("render.js: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// TestHTMLIsOffline checks that no output refers to the network.
func TestHTMLIsOffline(t *testing.T) {
	var charts []*Chart
	for _, mk := range goldenCharts() {
		c, err := mk()
		if err != nil {
			t.Fatal(err)
		}
		charts = append(charts, c)
		if f := c.Fragment(); strings.Contains(f, "http") || strings.Contains(f, "src=") {
			t.Errorf("fragment %s refers to a URL:\n%s", c.ID(), f)
		}
	}
	page := Page("all", charts...)
	remote := regexp.MustCompile(`(?i)<script[^>]*\bsrc\s*=|<link[^>]*href\s*=\s*["']?https?:|cdn|jsdelivr|unpkg|go-echarts\.github\.io|assets/`)
	if m := remote.FindString(page); m != "" {
		t.Errorf("page refers to a remote resource: %q", m)
	}
	if n := strings.Count(page, `(function (define, module, exports) {`); n != 1 {
		t.Errorf("page carries the library %d times, want 1", n)
	}
	// The bundle is inlined in a <script>: it must not end it early.
	for _, bad := range []string{"</script", "<!--"} {
		if strings.Contains(strings.ToLower(echartsJS), bad) {
			t.Errorf("embedded echarts.min.js contains %q", bad)
		}
	}
	if !strings.Contains(echartsJS, `version="`+EChartsVersion+`"`) {
		t.Errorf("embedded echarts.min.js is not version %s", EChartsVersion)
	}
}

// TestChartDeterministic renders each chart twice: ids and HTML must not
// change (go-echarts would draw a random id by itself).
func TestChartDeterministic(t *testing.T) {
	for name, mk := range goldenCharts() {
		a, errA := mk()
		b, errB := mk()
		if errA != nil || errB != nil {
			t.Fatal(errA, errB)
		}
		if a.Fragment() != b.Fragment() {
			t.Errorf("%s: two renders differ", name)
		}
	}
	other, err := LinePlot{Series: latencyCurves()[:1]}.Chart(ChartWidth, ChartHeight)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := goldenCharts()["latency"]()
	if other.ID() == c.ID() {
		t.Errorf("different charts share id %s", c.ID())
	}
}

// TestScriptSafe checks that names cannot close the chart's <script>.
func TestScriptSafe(t *testing.T) {
	c, err := LinePlot{
		Options: Options{Title: "</script><script>alert(1)</script><!--"},
		Series:  []Series{{Name: "</SCRIPT>", Points: []Point{{X: 1, Y: 2}}}, {Name: "__f__alert(1)__f__", Points: []Point{{X: 1, Y: 3}}}},
	}.Chart(ChartWidth, ChartHeight)
	if err != nil {
		t.Fatal(err)
	}
	f := strings.ToLower(c.Fragment())
	if n := strings.Count(f, "</script"); n != 1 {
		t.Errorf("fragment has %d </script, want 1 (its own)", n)
	}
	if strings.Contains(f, "<!--") {
		t.Errorf("fragment has <!--")
	}
	if !strings.Contains(f, `"name":"__f__alert(1)__f__"`) {
		t.Errorf("a name with go-echarts' function markers became code")
	}
}

// TestChartTitleClearsTheToolbox: a title that would run into the toolbox gets the
// chart's width less the toolbox's room on both sides, broken into lines there, and
// the plot moves down by the lines added; a short title keeps the grid where it was.
func TestChartTitleClearsTheToolbox(t *testing.T) {
	line := func(title string) string {
		c, err := LinePlot{Series: []Series{{Name: "a", Points: []Point{{X: 1, Y: 2}}}}, Options: Options{Title: title}}.Chart(ChartWidth, ChartHeight)
		if err != nil {
			t.Fatal(err)
		}
		return c.option
	}
	long := line("Configurations A–J of the 3DT 4×4×4: latency against accepted traffic under uniform traffic, bubble flow control")
	room := ChartWidth - 2*toolboxRoom(true)
	if !strings.Contains(long, `"overflow":"break"`) || !strings.Contains(long, `"width":`+strconv.Itoa(room)) {
		t.Errorf("the long title's text style has no width %d with overflow break:\n%s", room, long)
	}
	if !strings.Contains(long, `"top":"80"`) && !strings.Contains(long, `"top":"100"`) {
		t.Errorf("the grid did not move down for a title of several lines:\n%s", long)
	}
	if short := line("Uniform traffic"); !strings.Contains(short, `"top":"60"`) {
		t.Errorf("a one-line title moved the grid:\n%s", short)
	}
}

// TestYAxisNameClearsItsTicks: the all-to-all chart's y-axis name sat over its tick
// labels ("300,000"); the name's gap and the plot's left edge grow with the widest
// tick label, and small values keep the defaults.
func TestYAxisNameClearsItsTicks(t *testing.T) {
	for _, c := range []struct {
		values        []float64
		gap, gridLeft int
		why           string
	}{
		{[]float64{0.1, 0.72}, 50, 80, "fractions: the defaults"},
		{[]float64{120, 250}, 50, 80, "three digits: the defaults"},
		{[]float64{35000, 299876}, 67, 92, `"300,000": 7 characters`},
		{[]float64{-77.1, 33}, 50, 80, "a minus sign and two digits"},
		{[]float64{math.NaN(), 2e6}, 81, 106, `"2,000,000": 9 characters`},
	} {
		gap, left := yNameGap(c.values)
		if gap != c.gap || left != c.gridLeft {
			t.Errorf("%s: name gap %d, grid left %d; want %d, %d", c.why, gap, left, c.gap, c.gridLeft)
		}
	}
}
