package nb_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/nb"
	"github.com/twintorus/twintorus/sim/engine"
	"github.com/twintorus/twintorus/sim/experiment"
)

// small is a sweep of two 64-PE networks, short windows, three loads across the
// torus's saturation and one knee bisection: a few seconds of one core.
func small(store string) []nb.Option {
	return []nb.Option{nb.Nets("twin:4x4x2/D", "torus:8x8"), nb.Loads(0.2, 0.5, 0.8),
		nb.Window(500, 2000), nb.Seeds(2), nb.Knees(1), nb.Workers(1), nb.Store(store)}
}

// smallYAML is the same sweep written as the library's spec file.
const smallYAML = `
topologies: [twin:4x4x2/D, torus:8x8]
deadlock: bubble
traffic: uniform
engine: {warmup: 500, measure: 2000}
loads: [0.2, 0.5, 0.8]
seeds: 2
`

// summaryText prints what summaries say, every float at full precision (%v prints
// the shortest decimal that reads back as the same bits; NaN, which reflect.DeepEqual
// would call unequal to itself, prints alike), and each point by its key: a point
// read from the store and one just run differ in how many threads ran it (not part
// of the point's key, and of no effect on its result).
func summaryText(sums []experiment.Summary) string {
	var b strings.Builder
	for _, s := range sums {
		fmt.Fprintf(&b, "%s %s load %v: n %d saturated %d deadlocked %d non-stationary %d unchecked %d %v\n",
			s.Curve, s.Point.Key(), s.Load, s.N, s.Saturated, s.Deadlocked, s.NonStationary, s.Unchecked, s.Estimates)
	}
	return b.String()
}

// TestSweepIsTheLibrarysSweep runs the compact sweep and the long form (ParseSpec,
// RefineKnees) into separate stores: the same records and summaries, bit for bit.
// Running the compact sweep again resumes from its store and simulates nothing.
func TestSweepIsTheLibrarysSweep(t *testing.T) {
	store := t.TempDir()
	res := nb.Sweep(small(store)...)
	if res.Simulated == 0 || res.Stored != 0 {
		t.Fatalf("first sweep into an empty store: simulated %d, found %d stored; want all simulated", res.Simulated, res.Stored)
	}
	if want := 2 * 3 * 2; res.Simulated <= want {
		t.Errorf("simulated %d; want the %d of the loads and the knees' bisections beyond", res.Simulated, want)
	}

	spec, err := experiment.ParseSpec("small.yaml", []byte(smallYAML))
	if err != nil {
		t.Fatal(err)
	}
	long, err := experiment.RefineKnees(context.Background(), spec, experiment.Options{Out: t.TempDir(), Workers: 1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if long.Simulated != res.Simulated || len(long.Records) != len(res.Records) {
		t.Errorf("long form: %d simulated, %d records; compact: %d, %d", long.Simulated, len(long.Records), res.Simulated, len(res.Records))
	}
	for i := range min(len(long.Records), len(res.Records)) {
		if long.Records[i].Key != res.Records[i].Key {
			t.Errorf("record %d: key %s (long form) and %s (compact)", i, long.Records[i].Key, res.Records[i].Key)
		}
	}
	if got, want := summaryText(res.Summaries()), summaryText(long.Summaries()); got != want {
		t.Errorf("summaries differ\ncompact:\n%s\nlong form:\n%s", got, want)
	}

	again := nb.Sweep(small(store)...)
	if again.Simulated != 0 || again.Stored != res.Simulated {
		t.Errorf("re-run: simulated %d, found %d stored; want 0 and %d", again.Simulated, again.Stored, res.Simulated)
	}
	if got, want := summaryText(again.Summaries()), summaryText(res.Summaries()); got != want {
		t.Errorf("re-run's summaries differ from the first run's\nre-run:\n%s\nfirst:\n%s", got, want)
	}
}

// panicText runs f and returns what it panicked with, or fails the test.
func panicText(t *testing.T, f func()) (msg string) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil {
			t.Errorf("no panic")
			return
		}
		if _, ok := r.(error); !ok {
			t.Errorf("panicked with %T %v; want an error", r, r)
		}
		msg = fmt.Sprint(r)
	}()
	f()
	return ""
}

// TestBadInputPanicsWithWhatIsAccepted: every bad value is named in the panic, with
// what is accepted, and nothing runs (the store stays empty).
func TestBadInputPanicsWithWhatIsAccepted(t *testing.T) {
	store := t.TempDir()
	net := nb.Nets("twin:4x4x2/D")
	cases := []struct {
		name string
		f    func()
		want []string
	}{
		{"topology", func() { nb.Sweep(nb.Nets("twin:4x4x2/D", "twn:4x4x4/D"), nb.Store(store)) },
			[]string{"nb.Sweep: ", `"twn:4x4x4/D"`, "unknown family", "torus:16x8", "twin:4x4x4/D"}},
		// The tutorial's "When a cell fails" quotes this message.
		{"configuration", func() { nb.Sweep(nb.Nets("twin:4x4x4/Q"), nb.Store(store)) },
			[]string{"nb.Sweep: ", `"twin:4x4x4/Q"`, "unknown configuration letter 'Q': the 3DT letters are A to J"}},
		{"traffic", func() { nb.Sweep(net, nb.Traffic("unifrm"), nb.Store(store)) },
			[]string{"nb.Sweep: ", `"unifrm"`, "accepted: uniform", "bitrev"}},
		{"deadlock", func() { nb.Sweep(net, nb.Deadlock("bubbl"), nb.Store(store)) },
			[]string{"nb.Sweep: ", `"bubbl"`, "vc, bubble, escape and none"}},
		{"routing", func() { nb.Sweep(net, nb.Routing("dorr"), nb.Store(store)) },
			[]string{"nb.Sweep: ", `"dorr"`, "accepted are dor"}},
		{"no networks", func() { nb.Sweep(nb.Loads(0.1), nb.Store(store)) },
			[]string{"nb.Sweep: no networks", "nb.Nets("}},
		{"empty Nets", func() { nb.Sweep(nb.Nets(), nb.Store(store)) },
			[]string{"nb.Sweep: nb.Nets: no networks"}},
		{"no loads", func() { nb.Sweep(net, nb.Loads(), nb.Store(store)) },
			[]string{"nb.Loads: no loads", "flits/cycle/PE", "nb.Loads(0.1"}},
		{"negative load", func() { nb.Sweep(net, nb.Loads(0.1, -0.2), nb.Store(store)) },
			[]string{"nb.Sweep: ", "-0.2"}},
		{"seeds", func() { nb.Sweep(net, nb.Seeds(0), nb.Store(store)) },
			[]string{"nb.Seeds(0)", "1 replication or more"}},
		{"knees", func() { nb.Sweep(net, nb.Knees(-1), nb.Store(store)) },
			[]string{"nb.Knees(-1)", "0 bisections or more"}},
		{"window", func() { nb.Sweep(net, nb.Window(100, 0), nb.Store(store)) },
			[]string{"nb.Sweep: ", "measure"}},
		{"store", func() { nb.Sweep(net, nb.Store("")) },
			[]string{"nb.Store: empty directory"}},
		{"zero option", func() { nb.Sweep(net, nb.Option{}, nb.Store(store)) },
			[]string{"zero nb.Option"}},
		{"spec", func() { nb.Spec(net, nb.Traffic("unifrm")) },
			[]string{"nb.Spec: ", `"unifrm"`, "accepted: uniform"}},
		{"Net", func() { nb.Net("twin:4x4x4/Q") },
			[]string{"nb.Net: ", `"twin:4x4x4/Q"`, "'Q'", "A to J"}},
		{"Run", func() {
			p := nb.Point("twin:4x4x2/D", 0.1)
			p.Traffic = "unifrm"
			nb.Run(p)
		}, []string{"nb.Run: ", `"unifrm"`, "accepted: uniform"}},
		{"ChannelLoad", func() { nb.ChannelLoad(nb.Net("fattree:4,2")) },
			[]string{"nb.ChannelLoad: ", "ktree:4,2", "dor, dort", "analysis.Load"}},
		{"Show", func() { nb.Show(nb.Latency(&experiment.Results{})) },
			[]string{"kernel.Show: ", "figures: no summaries to plot"}},
		{"Must", func() { nb.Must(0, fmt.Errorf("the error")) }, []string{"the error"}},
		{"Check", func() { nb.Check(fmt.Errorf("the error")) }, []string{"the error"}},
		{"Must2", func() { nb.Must2(0, "", fmt.Errorf("the error")) }, []string{"the error"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := panicText(t, c.f)
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("panic %q does not say %q", msg, w)
				}
			}
		})
	}
	if entries, err := os.ReadDir(store); err != nil || len(entries) != 0 {
		t.Errorf("bad sweeps wrote to the store: %v %v", entries, err)
	}
}

// TestDefaults: a sweep named only by its networks runs what the package promises.
func TestDefaults(t *testing.T) {
	s := nb.Spec(nb.Nets("torus:8x8"))
	if s.Seeds != 3 {
		t.Errorf("seeds %d; want 3", s.Seeds)
	}
	if fmt.Sprint(s.Traffic, s.Deadlock, s.Routing) != "[uniform] [bubble] []" {
		t.Errorf("traffic %v, deadlock %v, routing %v; want uniform, bubble, the family's", s.Traffic, s.Deadlock, s.Routing)
	}
	loads := s.Loads.Values
	if len(loads) != 20 || loads[0] != 0.05 || loads[1] != 0.1 || loads[2] != 0.15 || loads[19] != 1 || s.PastSaturation != 2 {
		t.Errorf("loads %v, past saturation %d; want 0.05 to 1 in steps of 0.05, stopped 2 past saturation", loads, s.PastSaturation)
	}
	if d := engine.Defaults(); s.Engine.Warmup != d.Warmup || s.Engine.Measure != d.Measure || s.Engine.StationaryBatches != d.StationaryBatches {
		t.Errorf("engine %+v; want the model's defaults %+v", s.Engine, d)
	}
	// Loads of one's own run as listed, every one of them.
	s = nb.Spec(nb.Nets("torus:8x8"), nb.Loads(0.3, 0.1))
	if fmt.Sprint(s.Loads.Values) != "[0.3 0.1]" || s.PastSaturation != 0 {
		t.Errorf("loads %v, past saturation %d; want [0.3 0.1] and 0", s.Loads.Values, s.PastSaturation)
	}
	// Later options override earlier ones.
	s = nb.Spec(nb.Nets("torus:8x8"), nb.Seeds(5), nb.Nets("mesh:8x8"), nb.Seeds(2))
	if fmt.Sprint(s.Topologies, s.Seeds) != "[mesh:8x8] 2" {
		t.Errorf("topologies %v, seeds %d; want the later options' [mesh:8x8] 2", s.Topologies, s.Seeds)
	}
}

// TestAnalysisAgainstClosedForm checks Distances and ChannelLoad on the 2D torus
// 16×8 against closed forms. Distances: the diameter is 16/2 + 8/2; a ring of even k
// has mean distance k/4 over all destinations, itself included, so the mean over
// distinct PEs is (16/4 + 8/4)·N/(N−1). Channel load of DOR with ties in the +
// direction: the routes of a row's 16 sources at X offsets 1..8 cover 1+…+8 = 36 X+
// channels each per row of 16, so one X+ channel carries 36 routes to each of the 8
// destination rows, 288 in all; a Y+ channel 16·(1+…+4) = 160. Each PE sends to N−1
// = 127 others, so the busiest channel saturates at 127/288 flits/cycle/PE.
func TestAnalysisAgainstClosedForm(t *testing.T) {
	net := nb.Net("torus:16x8")
	d := nb.Distances(net)
	n := 128.0
	if d.PEs != 128 || d.Diameter != 12 || math.Abs(d.AvgDistance-6*n/(n-1)) > 1e-12 {
		t.Errorf("PEs %d, diameter %d, average distance %v; want 128, 12, %v", d.PEs, d.Diameter, d.AvgDistance, 6*n/(n-1))
	}
	l := nb.ChannelLoad(net)
	if l.MaxRoutes != 288 || math.Abs(l.Bound-127.0/288) > 1e-12 || math.Abs(l.AvgHops-d.AvgDistance) > 1e-12 {
		t.Errorf("max routes %d, bound %v, %v hops; want 288, %v, %v (DOR is minimal)", l.MaxRoutes, l.Bound, l.AvgHops, 127.0/288, d.AvgDistance)
	}
}

// TestRun: one point below saturation accepts what it is offered, and runs the same
// twice, bit for bit.
func TestRun(t *testing.T) {
	p := nb.Point("twin:4x4x2/D", 0.1)
	p.Warmup, p.Measure = 500, 2000
	a, b := nb.Run(p), nb.Run(p)
	if a.Saturated || math.Abs(a.Accepted-0.1) > 0.01 {
		t.Errorf("offered 0.1: accepted %v, saturated %v; want 0.1 ± 0.01, not saturated", a.Accepted, a.Saturated)
	}
	if math.Float64bits(a.Accepted) != math.Float64bits(b.Accepted) || a.FlitHops != b.FlitHops ||
		math.Float64bits(a.LatencyNetwork.Mean) != math.Float64bits(b.LatencyNetwork.Mean) {
		t.Errorf("two runs of one point differ: accepted %v and %v, latency %v and %v", a.Accepted, b.Accepted, a.LatencyNetwork.Mean, b.LatencyNetwork.Mean)
	}
}
