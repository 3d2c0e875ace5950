package experiment

import (
	"bytes"
	"encoding/csv"
	"math"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/engine"
)

// withVerdicts sets the stationarity verdicts of synthetic records, load by load and
// replication by replication: 's' stationary, 'n' not, '?' unchecked (nil).
func withVerdicts(recs []Record, verdicts ...string) []Record {
	i := 0
	for _, v := range verdicts {
		for _, c := range v {
			switch c {
			case 's', 'n':
				recs[i].Result.Stationarity = &engine.Stationarity{Stationary: c == 's', Windows: 1, Batches: []float64{1, 1, 1, 1}}
			}
			i++
		}
	}
	return recs
}

// Summaries count the replications not stationary and not checked; a point is not
// stationary when one replication is not, unknown when none failed but some were not
// checked; the saturation throughput and the saturation load leave the points that
// are not stationary out, whatever they read.
func TestSummaryStationarity(t *testing.T) {
	f, T := false, true
	recs := withVerdicts(synthetic([]float64{0.1, 0.2, 0.3, 0.4, 0.5},
		[][]float64{{0.1, 0.1}, {0.2, 0.2}, {0.26, 0.27}, {0.31, 0.30}, {0.25, 0.25}},
		[][]bool{{f, f}, {f, f}, {f, f}, {T, T}, {T, T}}),
		"ss", "s?", "??", "sn", "ss")
	sums := Summarize(recs, "accepted", "stationary")
	want := []struct {
		nonStationary, unchecked int
		steady                   Steadiness
		share                    float64 // the stationary metric's mean
	}{{0, 0, Steady, 1}, {0, 1, SteadyUnknown, 1}, {0, 2, SteadyUnknown, math.NaN()}, {1, 0, NotSteady, 0.5}, {0, 0, Steady, 1}}
	for i, s := range sums {
		w := want[i]
		e := s.Estimates["stationary"]
		if s.NonStationary != w.nonStationary || s.Unchecked != w.unchecked || s.Steadiness() != w.steady || !(e.Mean == w.share || math.IsNaN(w.share) && math.IsNaN(e.Mean)) {
			t.Errorf("load %g: %d not stationary, %d unchecked, %v, stationary share %v; want %d, %d, %v, %v",
				s.Load, s.NonStationary, s.Unchecked, s.Steadiness(), e.Mean, w.nonStationary, w.unchecked, w.steady, w.share)
		}
	}
	// Load 0.4 reads the highest throughput and is the first saturated load, but
	// drifts: the throughput is 0.3's, the saturation load 0.5's, in (0.3, 0.5].
	sat := SaturationsOf(sums)[0]
	if sat.PeakLoad != 0.3 || !near(sat.Throughput.Mean, 0.265) || sat.Load != 0.5 || sat.Below != 0.3 || sat.NotSteady != 1 {
		t.Errorf("saturation %+v; want peak at 0.3 (0.265), saturation load 0.5 above 0.3, one load left out", sat)
	}
	// Without the drifting replication the point counts again.
	all := SaturationsOf(Summarize(withVerdicts(recs, "ss", "s?", "??", "ss"), "accepted"))[0]
	if all.PeakLoad != 0.4 || all.Load != 0.4 || all.NotSteady != 0 {
		t.Errorf("saturation %+v; want peak and saturation at 0.4", all)
	}
}

// The summary table keeps the counts: written and read back; a table without the
// columns (made before the check) reads as every replication unchecked.
func TestSummaryCSVStationarity(t *testing.T) {
	f := false
	recs := withVerdicts(synthetic([]float64{0.1, 0.2}, [][]float64{{0.1, 0.1, 0.1}, {0.2, 0.19, 0.2}}, [][]bool{{f, f, f}, {f, f, f}}), "s?s", "nns")
	sums := Summarize(recs, "accepted")
	var b bytes.Buffer
	if err := WriteSummaryCSV(&b, sums, []string{"accepted"}); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSummaryCSV(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if back[0].Unchecked != 1 || back[0].NonStationary != 0 || back[1].NonStationary != 2 || back[1].Unchecked != 0 || back[1].Steadiness() != NotSteady {
		t.Errorf("read back %+v, %+v", back[0], back[1])
	}
	old := strings.ReplaceAll(b.String(), ",not_stationary,unchecked", "")
	var rows [][]string
	for _, r := range strings.Split(strings.TrimSpace(old), "\n")[1:] {
		f := strings.Split(r, ",")
		rows = append(rows, append(f[:12:12], f[14:]...)) // the counts after saturated
	}
	var o bytes.Buffer
	w := csv.NewWriter(&o)
	_ = w.Write(strings.Split(strings.SplitN(old, "\n", 2)[0], ","))
	_ = w.WriteAll(rows)
	back, err = ReadSummaryCSV(&o)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range back {
		if s.Unchecked != s.N || s.NonStationary != 0 || s.Steadiness() != SteadyUnknown {
			t.Errorf("old table at %g: %d unchecked of %d, %d not stationary; want all unchecked", s.Load, s.Unchecked, s.N, s.NonStationary)
		}
	}
	bad := strings.Replace(b.String(), ",0,0,1,", ",0,0,4,", 1)
	if _, err := ReadSummaryCSV(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "unchecked") {
		t.Errorf("more unchecked than replications: %v", err)
	}
}

// The records table says stationary true or false, or unknown for a run without the
// check, with the window it measured and its batches.
func TestRowStationarity(t *testing.T) {
	recs := synthetic([]float64{0.1}, [][]float64{{0.1, 0.1}}, [][]bool{{false, false}})
	recs[1].Result.Stationarity = &engine.Stationarity{Stationary: false, Windows: 4, WindowStart: 65000, Batches: []float64{0.5, 0.25}, Drift: -0.5, Noise: 0.125}
	a, b := RowOf(&recs[0]), RowOf(&recs[1])
	if a.Stationary != Unknown || a.Windows != 1 || a.WindowStart != recs[0].Point.Warmup || !math.IsNaN(a.StationaryDrift) || a.BatchAccepted != "" {
		t.Errorf("unchecked row %+v", a)
	}
	if b.Stationary != "false" || b.Windows != 4 || b.WindowStart != 65000 || b.StationaryDrift != -0.5 || b.StationaryNoise != 0.125 || b.BatchAccepted != "0.5 0.25" {
		t.Errorf("checked row %+v", b)
	}
}

// The check's keys in a spec: the defaults unless given; stationary_batches: 0 turns
// it off and clears the other two, so that the points (and their keys) are those of
// the model before the check, as stored results were run; closed-loop specs have no
// window to check. Bad values are refused with the key's line.
func TestSpecStationarity(t *testing.T) {
	base := "topologies: [torus:4x4]\nloads: [0.1]\n"
	on, err := ParseSpec("on.yaml", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	if e := on.Engine; e.StationaryBatches != 10 || e.StationaryTolerance != 0.02 || e.StationaryWindows != 4 {
		t.Errorf("defaults: %d batches, tolerance %g, %d windows", e.StationaryBatches, e.StationaryTolerance, e.StationaryWindows)
	}
	set, err := ParseSpec("set.yaml", []byte(base+"engine: {stationary_batches: 20, stationary_tolerance: 0.05, stationary_windows: 2}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if e := set.Engine; e.StationaryBatches != 20 || e.StationaryTolerance != 0.05 || e.StationaryWindows != 2 {
		t.Errorf("given: %d batches, tolerance %g, %d windows", e.StationaryBatches, e.StationaryTolerance, e.StationaryWindows)
	}
	off, err := ParseSpec("off.yaml", []byte(base+"engine: {stationary_batches: 0}\n"))
	if err != nil {
		t.Fatal(err)
	}
	curves, err := off.Curves()
	if err != nil {
		t.Fatal(err)
	}
	old := NewPoint("torus:4x4", 0)
	old.Params = old.Params.StationaryOff()
	old.Routing, old.Tie, old.Sizes, old.Load, old.Seed = "dor", "plus", "1", 0, 0
	if e := off.Engine; e != old.Params || curves[0].Point.Key() != old.Key() {
		t.Errorf("check off: %+v\nkey %s, want the point without the check's %s", e, curves[0].Point.Key(), old.Key())
	}
	closed, err := ParseSpec("closed.yaml", []byte("topologies: [torus:4x4]\nworkload: bcast:binomial:64B\n"))
	if err != nil {
		t.Fatal(err)
	}
	if e := closed.Engine; e.StationaryBatches != 0 || e.StationaryTolerance != 0 || e.StationaryWindows != 0 {
		t.Errorf("closed loop: %+v", e)
	}
	for text, want := range map[string]string{
		"engine: {stationary_batches: 2}\n":                        "off.yaml:3: engine: torus:4x4 bubble uniform: 2 stationary batches: accepted are 0 (no check) or 4 to 100",
		"engine: {stationary_tolerance: 1.5}\n":                    "stationary tolerance 1.5: accepted are 0 to 1",
		"engine: {stationary_windows: 0}\n":                        "0 stationary windows: accepted are 1 (check only)",
		"engine: {measure: 5, stationary_batches: 10}\n":           "a measurement window of 5 cycles cannot be cut into 10 stationary batches",
		"engine: {stationary_batches: 0, measure: 5}\n":            "",
		"engine: {stationary_batches: 4, warmup: 0, measure: 4}\n": "",
	} {
		_, err := ParseSpec("off.yaml", []byte(base+text))
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}
