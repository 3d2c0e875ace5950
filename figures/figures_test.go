package figures

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/datasets"
	"github.com/twintorus/twintorus/plots"
	"github.com/twintorus/twintorus/sim/experiment"
)

func TestQuickSpec(t *testing.T) {
	_, b, err := datasets.Experiment("3dt-configurations")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := experiment.ParseSpec("x.yaml", b)
	if err != nil {
		t.Fatal(err)
	}
	q := QuickSpec(spec)
	v := q.Loads.Values
	if q.Seeds != 2 || q.Engine.Warmup != 300 || q.Engine.Measure != QuickMeasure || q.Engine.StationaryBatches != 0 || len(v) < 5 || len(v) >= len(spec.Loads.Values) || v[len(v)-1] != spec.Loads.Values[len(spec.Loads.Values)-1] {
		t.Errorf("quick spec: %d seeds, %d cycles, loads %v", q.Seeds, q.Engine.Measure, v)
	}
	if spec.Seeds != 30 || len(spec.Loads.Values) != 15 {
		t.Error("QuickSpec changed the full spec")
	}
	// A curve stops one load after its first saturated one, unless the spec says otherwise.
	if spec.PastSaturation != 0 || q.PastSaturation != 1 {
		t.Errorf("past_saturation %d, quick %d: want 0 and 1", spec.PastSaturation, q.PastSaturation)
	}
	spec.PastSaturation = 3
	if q := QuickSpec(spec); q.PastSaturation != 3 {
		t.Errorf("quick past_saturation %d: the spec's 3 should stand", q.PastSaturation)
	}
}

func TestQuickRunAndCurves(t *testing.T) {
	spec, err := experiment.ParseSpec("t.yaml", []byte(`
topologies: [twin:3x3x3/A, twin:3x3x3/D, torus:9x6]
deadlock: [bubble, vc]
traffic: uniform
sizes: "1"
loads: [0.05, 0.1, 0.2, 0.3, 0.5, 0.7]
seeds: 30
metrics: [accepted, latency_network_mean, hops, saturated]
`))
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	r, err := resultsOf(context.Background(), "test", spec, nil, Quick, func(done, total int) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if calls == 0 || r.Spec.Seeds != 2 || len(r.Saturations) != 6 || !strings.Contains(r.About(), "quick run, 2 replications") ||
		!strings.Contains(r.About(), fmt.Sprintf("knees bisected %d times", QuickKneeSteps)) {
		t.Fatalf("progress calls %d, spec %+v, saturations %d, about %q", calls, r.Spec.Loads, len(r.Saturations), r.About())
	}
	series, err := Curves(r.Summaries(), experiment.Accepted, experiment.LatencyNetworkMean, CurveOptions{
		Keep:        func(s experiment.Summary) bool { return s.Point.Deadlock == "bubble" },
		Unsaturated: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(series) != 3 || series[0].Name != "A bubble" || series[2].Name != "2D 9x6 bubble" {
		t.Fatalf("series: %d, names %q %q", len(series), series[0].Name, series[len(series)-1].Name)
	}
	for _, s := range series {
		for i, p := range s.Points {
			if p.XLow > p.X || p.XHigh < p.X || p.YLow > p.Y || p.YHigh < p.Y || math.IsNaN(p.YLow) {
				t.Errorf("%s point %d: intervals do not hold the means: %+v", s.Name, i, p)
			}
			if i > 0 && p.X <= s.Points[i-1].X {
				t.Errorf("%s: accepted traffic not increasing below saturation: %v", s.Name, s.Points)
			}
		}
	}
	if _, err := (plots.LinePlot{Series: series}).Figure(); err != nil {
		t.Errorf("the plots package refuses the curves: %v", err)
	}
	sa, ok := r.Saturation("twin:3x3x3/D", "bubble")
	if !ok || math.IsNaN(sa.Throughput.Mean) || sa.Throughput.Mean < 0.2 {
		t.Errorf("saturation of D: %+v %v", sa, ok)
	}
	// The quick spec's loads, and the knee's bisection points between them.
	if l := r.Loads("twin:3x3x3/D", "vc"); len(l) != len(r.Spec.Loads.Values)+QuickKneeSteps || l[0] >= l[1] {
		t.Errorf("loads %v (spec %v)", l, r.Spec.Loads.Values)
	}
	common := r.CommonUnsaturated("bubble", "twin:3x3x3/A", "twin:3x3x3/D", "torus:9x6")
	if e := r.At("twin:3x3x3/A", "bubble", common, experiment.LatencyNetworkMean); math.IsNaN(e.Mean) || e.Mean < 10 {
		t.Errorf("latency of A at %g: %+v", common, e)
	}
	// Scheme "" takes the curve of either scheme the spec ran.
	bubble, vc := r.At("twin:3x3x3/A", "bubble", common, experiment.Accepted), r.At("twin:3x3x3/A", "vc", common, experiment.Accepted)
	if e := r.At("twin:3x3x3/A", "", common, experiment.Accepted); math.IsNaN(e.Mean) || e.Mean != bubble.Mean && e.Mean != vc.Mean {
		t.Errorf("scheme \"\" (any): %+v, want bubble's %g or vc's %g", e, bubble.Mean, vc.Mean)
	}
	if e := r.At("twin:3x3x3/A", "bubble", 0.123, experiment.Accepted); !math.IsNaN(e.Mean) {
		t.Errorf("a load that was not run: %+v", e)
	}
	if _, err := Curves(r.Summaries(), experiment.Accepted, "no_such_metric", CurveOptions{}); err == nil || !strings.Contains(err.Error(), "latency_network_mean") {
		t.Errorf("unknown metric: %v", err)
	}
	if _, err := Curves(nil, Load, experiment.Accepted, CurveOptions{}); err == nil {
		t.Error("no summaries accepted")
	}

	// The one-call figures.
	lat, err := Latency(r, Deadlock("bubble"), Title("bubble"))
	if err != nil || len(lat.Series) != 3 || lat.Series[0].Name != "A" || lat.Title != "bubble" || lat.XLabel != AcceptedLabel || lat.YLabel != LatencyLabel {
		t.Errorf("Latency: %d series, first %q, title %q, axes %q/%q, %v", len(lat.Series), lat.Series[0].Name, lat.Title, lat.XLabel, lat.YLabel, err)
	}
	for i, s := range lat.Series {
		if len(s.Points) != len(series[i].Points) {
			t.Errorf("Latency %s: %d points, Curves gave %d", s.Name, len(s.Points), len(series[i].Points))
		}
	}
	all, err := Latency(r, Topologies("twin:3x3x3/D"), Saturated(), LatencyCap(0))
	if err != nil || len(all.Series) != 2 || all.Series[1].Name != "3DT 3x3x3 D VCs" || len(all.Series[1].Points) != len(r.Loads("twin:3x3x3/D", "vc")) {
		t.Errorf("Latency of D, saturated points kept: %+v, %v", all.Series, err)
	}
	th, err := Throughput(r, Topologies("torus:9x6"), Deadlock("vc"))
	if err != nil || !th.Diagonal || len(th.Series) != 1 || th.Series[0].Name != "2D 9x6" || th.XLabel != OfferedLabel {
		t.Errorf("Throughput: %+v, %v", th, err)
	}
	if _, err := Latency(r, Topologies("mesh:4x4")); err == nil {
		t.Error("Latency of a network not in the results: no error")
	}
	if _, err := (plots.LinePlot{Series: lat.Series}).Chart(plots.ChartWidth, plots.ChartHeight); err != nil {
		t.Error(err)
	}
	h, rows := SaturationTable(r)
	if len(h) != 6 || len(rows) != 6 || rows[2][0] != "D" || rows[2][1] != "54" || rows[2][2] != "bubble" || !strings.Contains(rows[2][3], " ± ") {
		t.Errorf("SaturationTable: %q %q", h, rows)
	}
	mean, lo, hi, n := r.Plateau("twin:3x3x3/D", "vc", 0.5)
	if n < 2 || !(lo <= mean && mean <= hi) || r.Last("twin:3x3x3/D", "vc", experiment.Accepted).Mean != r.At("twin:3x3x3/D", "vc", 0.7, experiment.Accepted).Mean {
		t.Errorf("Plateau from 0.5: %g in [%g, %g] over %d loads", mean, lo, hi, n)
	}
}

func TestLabelsAndStyle(t *testing.T) {
	for spec, want := range map[string]string{"twin:4x4x4/D": "D", "torus:16x8": "2D 16x8", "torus:8x8x8": "3D 8x8x8",
		"twin:4x4x2x4x4/cbest": "5DT 4x4x2x4x4 cbest", "mesh:4x4": "mesh:4x4", "bad": "bad"} {
		if got := Network(spec); got != want {
			t.Errorf("Network(%q) = %q, want %q", spec, got, want)
		}
	}
	for spec, want := range map[string]string{"twin:4x4x2/D": "3DT 4x4x2", "twin:4x4x4/x+,x-,y+": "3DT 4x4x4", "torus:32x32": "2D 32x32", "mesh:4x4": "mesh:4x4"} {
		if got := Shape(spec); got != want {
			t.Errorf("Shape(%q) = %q, want %q", spec, got, want)
		}
	}
	if Scheme("vc") != "VCs" || Scheme("bubble") != "bubble" {
		t.Error("Scheme")
	}
	c1, d1 := Style(experiment.Point{Topology: "twin:4x4x4/A", Deadlock: "bubble"})
	c2, d2 := Style(experiment.Point{Topology: "twin:4x4x4/D", Deadlock: "bubble"})
	c3, d3 := Style(experiment.Point{Topology: "torus:16x8", Deadlock: "bubble"})
	if c1 == c2 || d1 != plots.Dashed || d2 != plots.Solid || c3 != plots.Black || d3 != plots.Solid {
		t.Errorf("styles: A %v/%v, D %v/%v, torus %v/%v", c1, d1, c2, d2, c3, d3)
	}
	seen := map[[2]int]string{}
	for _, l := range "ABCDEFGHIJ" {
		c, d := Style(experiment.Point{Topology: "twin:4x4x4/" + string(l), Deadlock: "bubble"})
		if o, ok := seen[[2]int{int(c), int(d)}]; ok {
			t.Errorf("%c and %s share colour and line", l, o)
		}
		seen[[2]int{int(c), int(d)}] = string(l)
	}
}

func TestClaims(t *testing.T) {
	r, err := datasets.Lookup("tr-7.3-bubble-128-throughput")
	if err != nil {
		t.Fatal(err)
	}
	if got := PaperValue(r); got != "10–23 %" {
		t.Errorf("PaperValue = %q", got)
	}
	if got := Source(r); !strings.HasPrefix(got, "[TR] §7.3.3 (Fig. 16), seed 002 line ") {
		t.Errorf("Source = %q", got)
	}
	if Verdict(15, 10, 23) != "yes" || Verdict(30, 10, 23) != "no" || Percent(1.234) != "+23 %" || Percent(0.8) != "-20 %" {
		t.Error("Verdict/Percent")
	}
	h, rows := ClaimsTable([]Claim{{"D beats the rest", "10–23 %", "+15 %", "yes", "[TR]"}})
	if len(h) != 5 || len(rows) != 1 || rows[0][3] != "yes" {
		t.Error("ClaimsTable")
	}
}

// TestJoin: a second experiment's loads extend the first's curves; a load both have
// keeps the first's point; saturations are those of the joined curves.
func TestJoin(t *testing.T) {
	pt := func(key string, load, accepted float64, saturated int) experiment.Summary {
		return experiment.Summary{Curve: key, CurveKey: key, Point: experiment.Point{Topology: "torus:8x8", Deadlock: "vc"}, Load: load, N: 2, Saturated: saturated,
			Estimates: map[string]experiment.Estimate{"accepted": {N: 2, Mean: accepted}}}
	}
	a := &Results{Name: "a", sums: []experiment.Summary{pt("k", 0.2, 0.2, 0), pt("k", 0.4, 0.35, 2), pt("other", 0.2, 0.2, 0)}}
	b := &Results{Name: "b", sums: []experiment.Summary{pt("k", 0.4, 0.99, 2), pt("k", 0.3, 0.3, 0), pt("k", 0.8, 0.2, 2)}}
	j := a.Join(b)
	var got []string
	for _, s := range j.Summaries() {
		got = append(got, fmt.Sprintf("%s@%g=%g", s.CurveKey, s.Load, s.Estimates["accepted"].Mean))
	}
	if want := "k@0.2=0.2 k@0.3=0.3 k@0.4=0.35 k@0.8=0.2 other@0.2=0.2"; strings.Join(got, " ") != want {
		t.Errorf("joined: %s\nwant:   %s", strings.Join(got, " "), want)
	}
	if len(j.Saturations) != 2 || j.Saturations[0].Load != 0.4 || j.Saturations[0].Below != 0.3 || j.Saturations[0].Throughput.Mean != 0.35 || j.Name != "a + b" {
		t.Errorf("saturations %+v", j.Saturations)
	}
}

// TestDefaultNames: curves are named by configuration while letters tell them apart,
// by kind and size when they do not.
func TestDefaultNames(t *testing.T) {
	pt := func(topo, scheme string) experiment.Summary {
		return experiment.Summary{CurveKey: topo + scheme, Point: experiment.Point{Topology: topo, Deadlock: scheme}, Load: 0.1, N: 1,
			Estimates: map[string]experiment.Estimate{"accepted": {N: 1, Mean: 0.1}, "latency_network_mean": {N: 1, Mean: 20}}}
	}
	r := &Results{sums: []experiment.Summary{pt("twin:4x4x4/A", "bubble"), pt("twin:4x4x4/D", "bubble"), pt("twin:8x8x8/D", "vc"), pt("torus:32x32", "vc")}}
	for _, c := range []struct {
		opts []Option
		want string
	}{
		{[]Option{Topologies("twin:4x4x4/A", "twin:4x4x4/D")}, "A|D"},
		{[]Option{Topologies("twin:4x4x4/D", "twin:8x8x8/D")}, "3DT 4x4x4 D bubble|3DT 8x8x8 D VCs"},
		{[]Option{Deadlock("vc")}, "3DT 8x8x8 D|2D 32x32"}, // a lone letter would not say which twin torus
	} {
		p, err := Latency(r, c.opts...)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range p.Series {
			names = append(names, s.Name)
		}
		if got := strings.Join(names, "|"); got != c.want {
			t.Errorf("names %q, want %q", got, c.want)
		}
	}
}

// TestAboutPrecision: under a precision target a point runs from min_seeds to seeds
// replications, and About says so instead of giving seeds as every point's count.
func TestAboutPrecision(t *testing.T) {
	spec, err := experiment.ParseSpec("p.yaml", []byte("topologies: [torus:4x4]\nloads: [0.1]\nseeds: 30\nprecision: {relative: 0.02}\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := &Results{Name: "p", Mode: Recompute, Spec: spec}
	if got, want := r.About(), "5 to 30 replications per point (until accepted is precise enough)"; !strings.Contains(got, want) {
		t.Errorf("About = %q, want it to say %q", got, want)
	}
	spec.Precision = nil
	if got := (&Results{Name: "p", Mode: Recompute, Spec: spec}).About(); !strings.Contains(got, ", 30 replications per point,") {
		t.Errorf("without a target About = %q", got)
	}
}

// TestStationarityShown: a point whose window was not stationary is drawn hollow,
// with the legend's HollowLabel, and no lookup rests on it (At is NaN there, Last and
// Plateau skip it, the saturation throughput leaves it out); points without a verdict
// (stored runs made before the check) are drawn as before, with UncheckedNote.
func TestStationarityShown(t *testing.T) {
	pt := func(load, accepted float64, nonStationary, unchecked int) experiment.Summary {
		return experiment.Summary{Curve: "k", CurveKey: "k", Point: experiment.Point{Topology: "torus:8x8", Deadlock: "vc"}, Load: load, N: 2,
			NonStationary: nonStationary, Unchecked: unchecked,
			Estimates: map[string]experiment.Estimate{"accepted": {N: 2, Mean: accepted}, "latency_network_mean": {N: 2, Mean: 10 * accepted}}}
	}
	sums := []experiment.Summary{pt(0.2, 0.2, 0, 0), pt(0.4, 0.38, 0, 0), pt(0.6, 0.45, 1, 0), pt(0.8, 0.41, 0, 0)}
	r := &Results{sums: sums, Saturations: experiment.SaturationsOf(sums)}
	p, err := Throughput(r)
	if err != nil {
		t.Fatal(err)
	}
	var hollow []bool
	for _, q := range p.Series[0].Points {
		hollow = append(hollow, q.Hollow)
	}
	if !slices.Equal(hollow, []bool{false, false, true, false}) || p.HollowLabel != HollowLabel || len(p.Notes) != 0 {
		t.Errorf("hollow %v, label %q, notes %q", hollow, p.HollowLabel, p.Notes)
	}
	if e := r.At("torus:8x8", "vc", 0.6, experiment.Accepted); !math.IsNaN(e.Mean) {
		t.Errorf("At the drifting point: %v, want NaN", e.Mean)
	}
	if sat := r.Saturations[0]; sat.PeakLoad != 0.8 || sat.Throughput.Mean != 0.41 || sat.NotSteady != 1 {
		t.Errorf("saturation %+v: want 0.41 at 0.8, the drifting 0.45 left out", sat)
	}
	if mean, lo, hi, n := r.Plateau("torus:8x8", "vc", 0.4); n != 2 || lo != 0.38 || hi != 0.41 || math.Abs(mean-0.395) > 1e-12 {
		t.Errorf("plateau %v [%v, %v] over %d loads, want 0.395 [0.38, 0.41] over 2", mean, lo, hi, n)
	}
	r.sums[3].NonStationary = 2
	if e, at := r.LastAt("torus:8x8", "vc", experiment.Accepted); at != 0.4 || e.Mean != 0.38 {
		t.Errorf("last stationary load %v (%v), want 0.4 (0.38)", at, e.Mean)
	}
	r.sums[1].Unchecked = 2
	p, err = Latency(r)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Notes, []string{UncheckedNote}) {
		t.Errorf("notes %q, want the unchecked note", p.Notes)
	}
}

// TestNothingToPlotSaysWhy: a figure without curves says whether the results were
// empty, the filter kept nothing (naming the networks there are), or every kept point
// was past saturation.
func TestNothingToPlotSaysWhy(t *testing.T) {
	pt := func(topo string, saturated int) experiment.Summary {
		return experiment.Summary{CurveKey: topo, Point: experiment.Point{Topology: topo, Deadlock: "bubble"}, Load: 0.9, N: 2, Saturated: saturated,
			Estimates: map[string]experiment.Estimate{"accepted": {N: 2, Mean: 0.4}, "latency_network_mean": {N: 2, Mean: 900}}}
	}
	r := &Results{sums: []experiment.Summary{pt("torus:8x8", 2), pt("mesh:8x8", 2)}}
	for _, c := range []struct {
		src  Summarized
		opts []Option
		want string
	}{
		{&Results{}, nil, "the results hold none"},
		{r, []Option{Topologies("twin:4x4x4/D")}, "the filter kept none of the 2 summaries (networks: torus:8x8, mesh:8x8)"},
		{r, nil, "each of the 2 kept is past saturation"},
	} {
		_, err := Latency(c.src, c.opts...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v; want it to say %q", err, c.want)
		}
	}
	if _, err := Latency(r, Saturated()); err != nil {
		t.Errorf("with Saturated the points past saturation draw: %v", err)
	}
}

// TestSaturationTableUnsaturated: a curve that no load saturated has no saturation
// throughput; the table gives its highest accepted traffic as a lower bound and says so.
func TestSaturationTableUnsaturated(t *testing.T) {
	pt := func(key string, load, accepted float64, saturated int) experiment.Summary {
		return experiment.Summary{Curve: key, CurveKey: key, Point: experiment.Point{Topology: key, Deadlock: "bubble"}, Load: load, N: 2, Saturated: saturated,
			Estimates: map[string]experiment.Estimate{"accepted": {N: 2, Mean: accepted}}}
	}
	sums := []experiment.Summary{pt("torus:8x8", 0.2, 0.2, 0), pt("torus:8x8", 0.4, 0.4, 0), pt("mesh:8x8", 0.2, 0.2, 0), pt("mesh:8x8", 0.4, 0.3, 2)}
	r := &Results{sums: sums, Saturations: experiment.SaturationsOf(sums)}
	_, rows := SaturationTable(r)
	got := map[string]string{}
	for _, row := range rows {
		got[row[0]] = row[3]
	}
	if !strings.HasPrefix(got["2D 8x8"], "not reached: ≥ 0.400") {
		t.Errorf("unsaturated torus: %q; want a lower bound that says so", got["2D 8x8"])
	}
	if strings.Contains(got["mesh:8x8"], "not reached") || !strings.HasPrefix(got["mesh:8x8"], "0.300") {
		t.Errorf("saturated mesh: %q; want its saturation throughput 0.300", got["mesh:8x8"])
	}
}

// TestLatencyCap: a latency figure's curves stop at their first point above twenty
// times the zero-load latency (the largest lowest-load latency of its curves), the
// legend says how many points that leaves out, and LatencyCap(0) draws them all.
func TestLatencyCap(t *testing.T) {
	pt := func(topo string, load, lat float64) experiment.Summary {
		return experiment.Summary{CurveKey: topo, Point: experiment.Point{Topology: topo, Deadlock: "bubble"}, Load: load, N: 1,
			Estimates: map[string]experiment.Estimate{"accepted": {N: 1, Mean: load}, "latency_network_mean": {N: 1, Mean: lat}}}
	}
	// Zero-load latencies 20 and 30: the cut is at 600 cycles, the torus's 590 stays,
	// the twin's 610 goes and so does its 200 after it (a curve is not drawn past a gap).
	r := &Results{sums: []experiment.Summary{
		pt("twin:4x4x4/D", 0.1, 20), pt("twin:4x4x4/D", 0.2, 100), pt("twin:4x4x4/D", 0.3, 610), pt("twin:4x4x4/D", 0.4, 200),
		pt("torus:16x8", 0.1, 30), pt("torus:16x8", 0.2, 590), pt("torus:16x8", 0.3, 3000),
	}}
	p, err := Latency(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Series) != 2 || len(p.Series[0].Points) != 2 || len(p.Series[1].Points) != 2 {
		t.Fatalf("series %+v", p.Series)
	}
	want := "curves stop at 20× the zero-load latency (600 cycles): 3 points above not drawn"
	if !slices.Contains(p.Notes, want) {
		t.Errorf("notes %q, want %q", p.Notes, want)
	}
	all, err := Plot(r, experiment.Accepted, experiment.LatencyNetworkMean, LatencyCap(0))
	if err != nil || len(all.Series[0].Points) != 4 || len(all.Series[1].Points) != 3 || len(all.Notes) != 0 {
		t.Errorf("LatencyCap(0): %+v %q, %v", all.Series, all.Notes, err)
	}
	// Throughput is not a latency figure: nothing cut.
	th, err := Throughput(r)
	if err != nil || len(th.Series[1].Points) != 3 || len(th.Notes) != 0 {
		t.Errorf("Throughput: %+v %q, %v", th.Series, th.Notes, err)
	}
}

// TestDefaultStyleDistinct: configurations keep their own colours, but two networks
// that Style would draw alike (two tori, configuration D at two sizes) take the
// palette in curve order.
func TestDefaultStyleDistinct(t *testing.T) {
	pt := func(topo string) experiment.Summary {
		return experiment.Summary{CurveKey: topo, Point: experiment.Point{Topology: topo, Deadlock: "bubble"}, Load: 0.1, N: 1,
			Estimates: map[string]experiment.Estimate{"accepted": {N: 1, Mean: 0.1}, "latency_network_mean": {N: 1, Mean: 20}}}
	}
	look := func(topos ...string) []plots.Color {
		var sums []experiment.Summary
		for _, s := range topos {
			sums = append(sums, pt(s))
		}
		p, err := Latency(&Results{sums: sums})
		if err != nil {
			t.Fatal(err)
		}
		var cs []plots.Color
		for _, s := range p.Series {
			cs = append(cs, s.Color)
		}
		return cs
	}
	if got := look("twin:4x4x4/A", "twin:4x4x4/D", "torus:16x8"); !slices.Equal(got, []plots.Color{plots.Vermillion, plots.Blue, plots.Black}) {
		t.Errorf("configurations and a torus: %v", got)
	}
	if got := look("twin:4x4x4/D", "torus:16x8", "twin:8x8x8/D", "torus:32x32"); !slices.Equal(got, []plots.Color{plots.Blue, plots.Vermillion, plots.Green, plots.Purple}) {
		t.Errorf("two sizes: %v", got)
	}
}
