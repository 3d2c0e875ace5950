package claims

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/experiment"
)

// fake is a Source of hand-made curves, bounds and CSV rows.
type fake struct {
	curves []*Curve
	bounds map[string]float64 // topology -> bound
	csv    map[string][][]string
}

func (f *fake) Curves(ctx context.Context, names []string) ([]*Curve, error) {
	if slices.Contains(names, "missing") {
		return nil, fmt.Errorf("no experiment %q", "missing")
	}
	return f.curves, nil
}

func (f *fake) Load(ctx context.Context, topo, routing, tie string) (*analysis.ChannelLoad, error) {
	b, ok := f.bounds[topo]
	if !ok {
		return nil, fmt.Errorf("no bound for %s", topo)
	}
	return &analysis.ChannelLoad{Bound: b, AvgHops: 10 * b}, nil
}

func (f *fake) CSV(file string) ([][]string, error) {
	rows, ok := f.csv[file]
	if !ok {
		return nil, fmt.Errorf("no file %s", file)
	}
	return rows, nil
}

// curve makes a curve of accepted traffic and latency at loads; saturated[i] marks
// the loads where every replication saturated. low/high are mean ∓ ci.
func curve(topo, deadlock string, loads, accepted, latency []float64, saturated []bool, ci float64) *Curve {
	c := &Curve{Name: topo + " " + deadlock, Experiment: "synthetic", Fields: map[string]string{"topology": topo, "deadlock": deadlock, "traffic": "uniform"}}
	for i, l := range loads {
		s := experiment.Summary{Curve: c.Name, CurveKey: c.Name, Load: l, N: 10, Estimates: map[string]experiment.Estimate{
			"accepted":             {Mean: accepted[i], Low: accepted[i] - ci, High: accepted[i] + ci, N: 10},
			"latency_network_mean": {Mean: latency[i], Low: latency[i] - 1, High: latency[i] + 1, N: 10},
		}}
		if saturated[i] {
			s.Saturated = 10
		}
		c.Sums = append(c.Sums, s)
	}
	c.Saturation = experiment.SaturationsOf(c.Sums)[0]
	return c
}

// synthetic: three networks. a saturates at 0.4 (peak 0.40), b at 0.3 (peak 0.30), c
// with a wide interval near b. Latencies rise with the load.
func synthetic() *fake {
	loads := []float64{0.1, 0.2, 0.3, 0.4, 0.5}
	return &fake{
		curves: []*Curve{
			curve("torus:4x4", "bubble", loads, []float64{0.1, 0.2, 0.3, 0.40, 0.38}, []float64{10, 11, 12, 20, 90}, []bool{false, false, false, false, true}, 0.002),
			curve("torus:8x8", "bubble", loads, []float64{0.1, 0.2, 0.30, 0.28, 0.27}, []float64{20, 22, 30, 80, 99}, []bool{false, false, false, true, true}, 0.002),
			curve("torus:8x4", "bubble", loads, []float64{0.1, 0.2, 0.299, 0.29, 0.29}, []float64{15, 16, 25, 70, 95}, []bool{false, false, false, true, true}, 0.01),
			curve("torus:4x4", "vc", loads, []float64{0.1, 0.2, 0.3, 0.35, 0.2}, []float64{10, 11, 12, 25, 99}, []bool{false, false, false, false, true}, 0.002),
		},
		bounds: map[string]float64{"torus:4x4": 0.5, "torus:8x8": 0.25},
		csv:    map[string][][]string{"w.csv": {{"network", "accepted"}, {"a", "0.5"}, {"a", "0.4"}, {"b", "0.3"}}},
	}
}

// eval parses one claim (YAML of a claims list item) and evaluates it on src.
func eval(t *testing.T, src Source, claim string) Result {
	t.Helper()
	f, err := Parse("test.yaml", []byte("paper: \"[TR]\"\nclaims:\n"+indent(claim)))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	r, err := EvaluateClaim(context.Background(), src, f.Claims[0])
	if err != nil {
		t.Fatalf("evaluate: %v", err)
	}
	return r
}

func indent(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		if i == 0 {
			lines[i] = "  - " + l
		} else {
			lines[i] = "    " + l
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

const head = `id: x
claim: synthetic
data: [synthetic]
`

func TestWithin(t *testing.T) {
	src := synthetic()
	let := head + `let:
  a: {sat: {topology: torus:4x4, deadlock: bubble}}
  b: {sat: {topology: torus:8x8, deadlock: bubble}}
  g: {change: [a, b]}
  both: {sat: {topology: "torus:{4x4,8x8}", deadlock: bubble}}
`
	for _, c := range []struct {
		expect string
		want   Verdict
	}{
		{"{of: g, within: [0.30, 0.35], unit: \"%\"}", Holds},        // +33 %
		{"{of: g, within: [0.40, 0.50], unit: \"%\"}", DoesNotHold},  // outside
		{"{of: g, within: 0.30, tol: 0.04}", Holds},                  // tolerance
		{"{of: g, within: 0.30, tol: 0.02}", DoesNotHold},            // too tight
		{"{of: g, within: 0.30, rel_tol: 0.12}", Holds},              // relative tolerance
		{"{of: g, within: [0.6, 0.9], partly: sign}", Partly},        // same sign, not the size
		{"{of: g, within: [-0.9, -0.6], partly: sign}", DoesNotHold}, // opposite sign
		{"{of: both, within: [0.35, 0.45]}", Partly},                 // one of two
		{"{of: both, within: [0.35, 0.45], partly: never}", DoesNotHold},
		{"{of: both, within: [0.31, 0.35], partly: overlap}", Partly}, // the range spans it
		{"{of: both, within: [0.5, .inf]}", DoesNotHold},
		{"{of: g, sign: +}", Holds},
		{"{of: g, sign: \"-\"}", DoesNotHold},
	} {
		r := eval(t, src, let+"expect: "+c.expect)
		if r.Verdict != c.want {
			t.Errorf("%s: %s (%s), want %s", c.expect, r.Verdict, r.Ours, c.want)
		}
	}
}

func TestOrder(t *testing.T) {
	src := synthetic()
	let := head + `let:
  a: {sat: {topology: torus:4x4, deadlock: bubble, name: A}}
  b: {sat: {topology: torus:8x8, deadlock: bubble, name: B}}
  c: {sat: {topology: torus:8x4, deadlock: bubble, name: C}}
`
	for _, c := range []struct {
		order string
		want  Verdict
	}{
		{"a > b", Holds},
		{"b > a", DoesNotHold}, // reversed beyond the intervals
		{"c > b", Partly},      // 0.299 < 0.300, intervals overlap: noise
		{"c >= b", Holds},      // >= accepts noise
		{"a > c > b", Partly},
		{"a < b", DoesNotHold},
		{"b < 0.5", Holds},
	} {
		r := eval(t, src, let+"expect: {order: \""+c.order+"\"}")
		if r.Verdict != c.want {
			t.Errorf("%s: %s (%s), want %s", c.order, r.Verdict, r.Ours, c.want)
		}
	}
	r := eval(t, src, let+`paper: x
expect: {order: "a > b"}`)
	if r.Ours != "A 0.400 > B 0.300" {
		t.Errorf("order text %q", r.Ours)
	}
}

func TestAboveAndMatch(t *testing.T) {
	src := synthetic()
	let := head + `let:
  big: {sat: {topology: torus:4x4, deadlock: bubble}}
  small: {sat: {topology: "torus:{8x8,8x4}", deadlock: bubble}}
  mixed: {sat: {topology: "torus:{4x4,8x4}", deadlock: bubble}}
  ours: {sat: {topology: "torus:{4x4,8x8}", deadlock: bubble}}
  near: {times: [ours, 1.04]}
  far: {times: [ours, 1.5]}
  neg: {times: [ours, -1]}
  one: {concat: [near, neg]}
`
	for _, c := range []struct {
		expect string
		want   Verdict
	}{
		{"{above: [big, small]}", Holds},
		{"{above: [small, big]}", DoesNotHold},
		{"{above: [mixed, small]}", Partly},
		{"{match: [ours, near], rel_tol: 0.05}", Holds},
		{"{match: [ours, far], rel_tol: 0.05}", Partly}, // same sign, not the size
		{"{match: [ours, neg], tol: 0.05}", DoesNotHold},
	} {
		r := eval(t, src, let+"paper: x\nexpect: "+c.expect)
		if r.Verdict != c.want {
			t.Errorf("%s: %s (%s; %v), want %s", c.expect, r.Verdict, r.Ours, r.Notes, c.want)
		}
	}
	f, err := Parse("t.yaml", []byte("paper: x\nclaims:\n"+indent(let+"paper: x\nexpect: {match: [ours, one], tol: 0.05}")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := EvaluateClaim(context.Background(), src, f.Claims[0]); err == nil {
		t.Error("match of 2 values against 4 evaluated")
	}
}

// A "%" read both ways: the reading that fits decides, and both are shown.
func TestReadings(t *testing.T) {
	src := synthetic()
	let := head + `let:
  a: {sat: {topology: torus:4x4, deadlock: bubble}}
  b: {sat: {topology: torus:8x8, deadlock: bubble}}
  rel: {change: [a, b]}
  pp: {diff: [a, b]}
paper: x
`
	for _, c := range []struct {
		within string
		want   Verdict
		fits   string
	}{
		{"0.10", Holds, "the percentage-points reading fits"}, // +0.10 points, +33 % relative
		{"0.33", Holds, "the relative reading fits"},
		{"0.6", DoesNotHold, "neither reading fits"},
	} {
		r := eval(t, src, let+"expect: {readings: {relative: rel, points: pp}, within: "+c.within+", tol: 0.01, unit: \"%\"}")
		if r.Verdict != c.want || len(r.Notes) != 1 || !strings.HasPrefix(r.Notes[0], c.fits) ||
			!strings.Contains(r.Notes[0], "relative +33 %") || !strings.Contains(r.Notes[0], "points +10.0 pp") {
			t.Errorf("within %s: %s, notes %q; want %s, %q with both readings", c.within, r.Verdict, r.Notes, c.want, c.fits)
		}
	}
}

// Loads: lowest, highest, peak, unsaturated (pairwise with with), common.
func TestLoads(t *testing.T) {
	src := synthetic()
	r := eval(t, src, head+`let:
  lo: {at: {topology: torus:8x8, deadlock: bubble, metric: latency_network_mean, load: lowest}}
  hi: {at: {topology: torus:8x8, deadlock: bubble, metric: accepted, load: highest}}
  pk: {at: {topology: torus:4x4, deadlock: bubble, metric: latency_network_mean, load: peak}}
  fixed: {at: {topology: torus:4x4, deadlock: bubble, metric: accepted, load: 0.2}}
  anchor: {sat: {topology: torus:8x8, deadlock: bubble}}
  un: {at: {topology: torus:4x4, deadlock: bubble, metric: latency_network_mean, load: unsaturated, with: [anchor]}}
  own: {at: {topology: torus:4x4, deadlock: bubble, metric: latency_network_mean, load: unsaturated}}
  pairs: {at: {topology: "torus:{4x4,8x8}", deadlock: bubble, metric: latency_network_mean, load: unsaturated, with: [anchor]}}
  b2: {sat: {topology: [torus:4x4, torus:8x4], deadlock: bubble}}
  pairwise: {at: {topology: "torus:{4x4,8x8}", deadlock: bubble, metric: latency_network_mean, load: unsaturated, with: [b2]}}
  pl: {plateau: {topology: torus:4x4, deadlock: vc, from: 0.4}}
paper: x
ours: "{lo:load} {lo:0} {hi:2} {pk:0} {fixed:1} {un:load} {own:load} {pairs:each load} {pairwise:each load} {pl:3}"
expect: {of: lo, sign: +}`)
	// un: highest load where neither 4x4 nor 8x8 saturated, 0.3; own: 4x4 alone, 0.4;
	// pairs: one set of three curves (anchor has one), 0.3 both; pairwise: 4x4 with
	// 4x4 (0.4) and 8x8 with 8x4 (0.3); plateau of 0.35 and 0.2.
	want := "0.1 20 0.27 20 0.2 0.3 0.4 4x4 0.3, 8x8 0.3 4x4 0.4, 8x8 0.3 0.275"
	if r.Ours != want {
		t.Errorf("loads: %q, want %q", r.Ours, want)
	}
}

func TestDiagnosis(t *testing.T) {
	src := synthetic()
	claim := head + `let:
  a: {sat: {topology: torus:4x4, deadlock: bubble}}
  bA: {bound: {topology: torus:4x4, routing: dor}}
  eff: {ratio: [a, bA]}
expect: {of: a, within: 0.9, tol: 0.01}
diagnosis:
  when: {of: bA, within: [0, 0.9]}
  text: "the bound is {bA:2}, {eff:pct} of it reached"
  test: {name: TestLoadBounds, file: sim/analysis/load_test.go}`
	r := eval(t, src, claim)
	if r.Verdict != DoesNotHold || !r.Established || !strings.Contains(r.VerdictText(), "the bound is 0.50, 80 % of it reached") ||
		!strings.Contains(r.Diagnosis, "(evidence: channel-load bound of torus:4x4 under dor (sim/analysis)") || !strings.Contains(r.Diagnosis, "TestLoadBounds") {
		t.Errorf("diagnosis that applies: %s; %q", r.Verdict, r.VerdictText())
	}
	r = eval(t, src, strings.Replace(claim, "within: [0, 0.9]", "within: [0, 0.4]", 1))
	if r.Established || r.Diagnosis != "" || r.VerdictText() != "does not hold (cause not established)" {
		t.Errorf("diagnosis whose check fails was shown: %q", r.VerdictText())
	}
	r = eval(t, src, strings.Replace(claim, "within: 0.9", "within: 0.4", 1))
	if r.Verdict != Holds || r.Diagnosis != "" {
		t.Errorf("a claim that holds got a diagnosis: %q", r.VerdictText())
	}
}

func TestChecksCombine(t *testing.T) {
	src := synthetic()
	let := head + `let:
  a: {sat: {topology: torus:4x4, deadlock: bubble}}
paper: x
checks:
`
	for _, c := range []struct {
		checks string
		want   Verdict
	}{
		{"  - {name: one, of: a, sign: +}\n  - {name: two, of: a, within: [0, 1]}", Holds},
		{"  - {name: one, of: a, sign: +}\n  - {name: two, of: a, within: [2, 3]}", Partly},
		{"  - {name: one, of: a, sign: \"-\"}\n  - {name: two, of: a, within: [2, 3]}", DoesNotHold},
		{"  - {name: one, of: a, sign: +}\n  - {name: two, test: {name: TestX, file: x_test.go, verdict: partly, note: n}}", Partly},
	} {
		r := eval(t, src, let+c.checks)
		if r.Verdict != c.want {
			t.Errorf("%s: %s, want %s", c.checks, r.Verdict, c.want)
		}
	}
}

func TestQuantities(t *testing.T) {
	src := synthetic()
	r := eval(t, src, head+`let:
  s: {sat: {topology: "torus:{4x4,8x8}", deadlock: bubble}}
  rev: {sat: {topology: "torus:{8x8,4x4}", deadlock: bubble}}
  byLabel: {ratio: [s, rev]}
  scaled: {times: [s, 2]}
  mx: {max: s}
  mn: {min: s}
  avg: {mean: s}
  w: {csv: {file: w.csv, column: accepted, where: {network: "{a,b}"}}}
  b: {hops: {topology: [torus:4x4, torus:8x8], routing: dor}}
  at: {offered: mx}
  red: {reduction: [mn, mx]}
  sum: {sum: [mn, 1]}
  both: {concat: [s, w]}
paper: x
ours: "{byLabel:each 2} | {scaled:list 2} | {mx:each 2} {mn:3} {avg:3} | {w:each 1} | {b:each 1} | {at:1} {red:pct} {sum:2} | {both:each 1}"
expect: {of: s, sign: +}`)
	want := "4x4 1.00, 8x8 1.00 | 0.80 / 0.60 | 4x4 0.40 0.300 0.350 | a 0.5, a 0.4, b 0.3 | 4x4 5.0, 8x8 2.5 | 0.4 25 % 1.30 | s 4x4 0.4, s 8x8 0.3, w a 0.5, w a 0.4, w b 0.3"
	if r.Ours != want {
		t.Errorf("quantities:\n%q\nwant\n%q", r.Ours, want)
	}
}

func TestSelectorErrors(t *testing.T) {
	src := synthetic()
	src.curves = append(src.curves, func() *Curve {
		c := curve("torus:4x4", "bubble", []float64{0.1}, []float64{0.1}, []float64{10}, []bool{false}, 0.01)
		c.Fields["traffic"] = "zipf:1"
		return c
	}())
	for _, c := range []struct{ sel, want string }{
		{"{topology: torus:4x4, deadlock: bubble}", "2 curves match; they differ in traffic: name one"},
		{"{topology: torus:9x9}", "no curve matches"},
		{"{topology: torus:4x4, colour: red}", `no point field "colour"`},
		{"{topology: torus:4x4, deadlock: vc, data: [missing]}", `no experiment "missing"`},
	} {
		f, err := Parse("t.yaml", []byte("paper: x\nclaims:\n"+indent(head+"let:\n  q: {sat: "+c.sel+"}\nexpect: {of: q, sign: +}")))
		if err != nil {
			t.Fatal(err)
		}
		_, err = EvaluateClaim(context.Background(), src, f.Claims[0])
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.sel, err, c.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"paper: x\nclaims:\n  - {id: a, claim: b}\n", "test.yaml:3: claim a: no expect or checks (or not_run)"},
		{"paper: x\nclaims:\n  - {id: a, claim: b, colour: red}\n", `test.yaml:3: unknown key "colour"`},
		{"paper: x\nclaims:\n  - {id: a, claim: b, not_run: why, expect: {of: q, sign: +}}\n", "not_run with quantities or checks"},
		{"paper: x\nclaims:\n  - {id: a b, claim: b, not_run: why}\n", "without spaces"},
		{"paper: x\nclaims:\n  - id: a\n    claim: b\n    let:\n      q: {plus: [1, 2]}\n    expect: {of: q, sign: +}\n", `unknown operation "plus"`},
		{"paper: x\nclaims:\n  - id: a\n    claim: b\n    let:\n      q: {at: {topology: t, metric: accepted, load: middle}}\n    expect: {of: q, sign: +}\n", `load "middle"`},
		{"paper: x\nclaims:\n  - id: a\n    claim: b\n    let:\n      q: {at: {topology: t, metric: accepted}}\n    expect: {of: q, sign: +}\n", "at needs metric and load"},
		{"paper: x\nclaims:\n  - id: a\n    claim: b\n    let:\n      q: {sat: {topology: \"t{a,b\"}}\n    expect: {of: q, sign: +}\n", "{ without }"},
		{"paper: x\nclaims:\n  - id: a\n    claim: b\n    let:\n      q: {ratio: [a]}\n    expect: {of: q, sign: +}\n", "ratio takes two operands"},
		{"paper: x\nclaims:\n  - id: a\n    claim: b\n    checks:\n      - {of: q, sign: +}\n      - {of: q, sign: +}\n", "each needs a name"},
		{"paper: x\nclaims:\n  - {id: a, claim: b, expect: {order: \"a >> b\"}}\n", `relation ">>"`},
		{"paper: x\nclaims:\n  - {id: a, claim: b, expect: {of: q, within: [2, 1]}}\n", "low above high"},
		{"paper: x\nclaims:\n  - {id: a, claim: b, expect: {test: {name: T, file: f, verdict: partly}}}\n", "goes with a note"},
		{"paper: x\nclaims:\n  - {id: a, claim: b, expect: {of: q, sign: +}, diagnosis: {text: t}}\n", `missing key "when"`},
		{"claims: []\n", `missing key "paper"`},
	} {
		_, err := Parse("test.yaml", []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.yaml, err, c.want)
		}
	}
	fsys := os.DirFS(t.TempDir())
	if reg, err := loadFS(fsys); err != nil || len(reg.Files) != 0 {
		t.Errorf("empty registry: %v", err)
	}
}

func TestFormat(t *testing.T) {
	v := Value{Items: []Item{{Label: "a", Mean: -0.123, Low: -0.13, High: -0.11}, {Label: "b", Mean: 0.456}}}
	for _, c := range []struct{ spec, want string }{
		{"%", "−12 to +46 %"},
		{"pct", "−12 to 46 %"},
		{"each %1", "a −12.3 %, b +45.6 %"},
		{"list 2", "−0.12 / 0.46"},
		{"pp", "−12.3 to +45.6 pp"},
	} {
		if got := format(v, c.spec); got != c.want {
			t.Errorf("format %q: %q, want %q", c.spec, got, c.want)
		}
	}
	one := Value{Items: []Item{{Mean: 0.4123, Low: 0.41, High: 0.4146}}}
	for _, c := range []struct{ spec, want string }{
		{"", "0.412"}, {"x", "0.41×"}, {"±3", "0.412 ± 0.002"}, {"int", "0"}, {"%", "+41 %"}, {"pct1", "41.2 %"},
	} {
		if got := format(one, c.spec); got != c.want {
			t.Errorf("format %q: %q, want %q", c.spec, got, c.want)
		}
	}
	if got := formatNumber(1234567, "int"); got != "1,234,567" {
		t.Errorf("int: %q", got)
	}
	if got := formatRange(0.1, math.Inf(1), "%"); got != "≥ +10 %" {
		t.Errorf("open range: %q", got)
	}
}

// The stored results, evaluated once for the tests that read them all (a minute of CPU).
var (
	storedOnce sync.Once
	stored     []Result
	storedErr  error
	registry   *Registry
)

func evaluateStored(t *testing.T) []Result {
	t.Helper()
	if testing.Short() {
		t.Skip("evaluates every claim on the stored runs")
	}
	storedOnce.Do(func() {
		registry, storedErr = Load()
		if storedErr == nil {
			stored, storedErr = Evaluate(context.Background(), NewStored(), registry, nil)
		}
	})
	if storedErr != nil {
		t.Fatal(storedErr)
	}
	return stored
}

// Every claim of the registry evaluates on the stored runs, and what it cites exists:
// its reference rows (Evaluate looks them up), the notebooks it names, the Go tests it
// rests on.
func TestRegistryEvaluates(t *testing.T) {
	res := evaluateStored(t)
	if len(res) < 60 {
		t.Errorf("%d claims in the registry", len(res))
	}
	root := filepath.Join("..", "..")
	testFuncs := map[string]string{}
	for _, r := range res {
		c := r.Claim
		for _, nb := range c.Notebooks {
			if _, err := os.Stat(filepath.Join(root, "notebooks", nb+".ipynb")); err != nil {
				t.Errorf("%s:%d: claim %s names notebook %s: %v", c.File, c.Line, c.ID, nb, err)
			}
		}
		var tests [][2]string
		for _, ch := range c.Checks {
			if ch.Kind == "test" {
				tests = append(tests, [2]string{ch.TestName, ch.TestFile})
			}
		}
		for _, d := range c.Diagnoses {
			if d.TestName != "" {
				tests = append(tests, [2]string{d.TestName, d.TestFile})
			}
		}
		for _, tf := range tests {
			src, ok := testFuncs[tf[1]]
			if !ok {
				b, err := os.ReadFile(filepath.Join(root, tf[1]))
				if err != nil {
					t.Errorf("%s:%d: claim %s: %v", c.File, c.Line, c.ID, err)
					continue
				}
				src = string(b)
				testFuncs[tf[1]] = src
			}
			if !regexp.MustCompile(`(?m)^func ` + regexp.QuoteMeta(tf[0]) + `\(t \*testing\.T\)`).MatchString(src) {
				t.Errorf("%s:%d: claim %s: no func %s(t *testing.T) in %s", c.File, c.Line, c.ID, tf[0], tf[1])
			}
		}
		if r.Paper == "" || r.Ours == "" {
			t.Errorf("%s:%d: claim %s: empty paper or ours: %q, %q", c.File, c.Line, c.ID, r.Paper, r.Ours)
		}
		if strings.Contains(r.Ours+r.VerdictText(), "NaN") || strings.Contains(r.Ours+r.VerdictText(), "—") {
			t.Errorf("%s:%d: claim %s shows a missing value: %q, %q", c.File, c.Line, c.ID, r.Ours, r.VerdictText())
		}
	}
}

// README.md's comparison table is the registry's.
func TestREADMEIsCurrent(t *testing.T) {
	res := evaluateStored(t)
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := READMETable(string(b))
	if err != nil {
		t.Fatal(err)
	}
	if want := README(res); got != want {
		t.Errorf("README.md's claims table differs from the registry's; regenerate it with\n\tgo run ./tools/claims -write README.md\n%s", firstDiff(got, want))
	}
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("first difference, line %d of the table:\nREADME.md: %s\nregistry:  %s", i+1, a, b)
		}
	}
	return ""
}

// A README row's claim says where in the paper it stands and names no key it cannot
// cite; the files' papers are the keys of docs/references.md.
func TestRegistryFiles(t *testing.T) {
	reg, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range reg.Files {
		if !regexp.MustCompile(`^\[[A-Za-z]+\]$`).MatchString(f.Paper) {
			t.Errorf("%s: paper %q is not a key", f.Name, f.Paper)
		}
		if seen[f.Paper] {
			t.Errorf("%s: paper %s has two files", f.Name, f.Paper)
		}
		seen[f.Paper] = true
		for _, c := range f.Claims {
			if c.README != "" && !strings.Contains(c.README, "[") {
				t.Errorf("%s:%d: README text of %s cites no paper: %q", c.File, c.Line, c.ID, c.README)
			}
		}
	}
}

// A point whose windows were not stationary carries no verdict: a plateau leaves it
// out, a common load skips it, and a quantity read at it is an error that says why.
func TestNotStationary(t *testing.T) {
	src := synthetic()
	src.curves[3].Sums[4].NonStationary = 1 // torus:4x4 vc at 0.5
	src.curves[0].Sums[3].NonStationary = 2 // torus:4x4 bubble at 0.4
	r := eval(t, src, head+`let:
  pl: {plateau: {topology: torus:4x4, deadlock: vc, from: 0.4}}
  own: {at: {topology: torus:4x4, deadlock: bubble, metric: latency_network_mean, load: unsaturated}}
paper: x
ours: "{pl:3} {own:load}"
expect: {of: pl, sign: +}`)
	if want := "0.350 0.3"; r.Ours != want { // 4x4 vc's plateau is 0.4's alone; 4x4 bubble's 0.4 is skipped
		t.Errorf("plateau and common load %q, want %q", r.Ours, want)
	}
	f, err := Parse("test.yaml", []byte("paper: \"[TR]\"\nclaims:\n"+indent(head+`let:
  at: {at: {topology: torus:4x4, deadlock: vc, metric: accepted, load: 0.5}}
paper: x
ours: "{at:3}"
expect: {of: at, sign: +}`)))
	if err != nil {
		t.Fatal(err)
	}
	r, err = EvaluateClaim(context.Background(), src, f.Claims[0])
	if msg := fmt.Sprint(err, r.Ours, r.Diagnosis); !strings.Contains(msg, "not stationary") {
		t.Errorf("a quantity at a point not stationary: %v, %+v", err, r)
	}
}
