package experiment

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"
)

func TestSummaryCSVRoundTrip(t *testing.T) {
	spec, err := ParseSpec("t.yaml", []byte(`
topologies: [torus:4x4, twin:3x3x3/D]
engine: {warmup: 200, measure: 1000}
loads: [0.05, 0.3, 1.0]
seeds: 3
metrics: [accepted, latency_network_mean, hops]
`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), spec, Options{Workers: 2, Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	metrics := []string{"accepted", "latency_network_mean", "hops"}
	sums := res.Summaries(metrics...)
	if err := WriteSummaryCSV(&buf, sums, metrics); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSummaryCSV(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(sums) {
		t.Fatalf("%d summaries back, %d written", len(back), len(sums))
	}
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	for i, s := range sums {
		b := back[i]
		if b.Curve != s.Curve || b.CurveKey != s.CurveKey || b.Load != s.Load || b.N != s.N || b.Saturated != s.Saturated || b.Point.Topology != s.Point.Topology || b.Point.Deadlock != s.Point.Deadlock {
			t.Fatalf("summary %d: %+v, wrote %+v", i, b, s)
		}
		for _, m := range metrics {
			x, y := s.Estimates[m], b.Estimates[m]
			if !same(x.Mean, y.Mean) || !same(x.SD, y.SD) || !same(x.Low, y.Low) || !same(x.High, y.High) {
				t.Fatalf("summary %d %s: %+v back, wrote %+v", i, m, y, x)
			}
		}
	}
	for _, bad := range []string{"", "a,b\n", "curve,curve_key,topology,routing,deadlock,tie,traffic,sizes,load,n,saturated,x_mean\n",
		"curve,curve_key,topology,routing,deadlock,tie,traffic,sizes,load,n,saturated\nc,k,t,r,d,t,u,1,zero,3,0\n"} {
		if _, err := ReadSummaryCSV(strings.NewReader(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

// Summary files keep the selection of adaptive curves; files written before it read too.
func TestSummaryCSVSelection(t *testing.T) {
	sums, err := ReadSummaryCSV(strings.NewReader("curve,curve_key,topology,routing,selection,deadlock,tie,traffic,sizes,load,n,saturated,accepted_mean,accepted_sd,accepted_low,accepted_high\n" +
		"c,k,twin:4x4x4/cbest,adaptive,3prio,vc,plus,uniform,1,0.5,2,1,0.4,0.01,0.3,0.5\n"))
	if err != nil || len(sums) != 1 || sums[0].Point.Selection != "3prio" || sums[0].Point.Deadlock != "vc" || sums[0].Estimates["accepted"].Mean != 0.4 {
		t.Fatalf("%+v %v", sums, err)
	}
	var b strings.Builder
	if err := WriteSummaryCSV(&b, sums, []string{"accepted"}); err != nil {
		t.Fatal(err)
	}
	if back, err := ReadSummaryCSV(strings.NewReader(b.String())); err != nil || back[0].Point != sums[0].Point {
		t.Errorf("round trip: %+v %v", back, err)
	}
	// Written before the selection column: open-loop, and closed-loop with workload and mapping.
	old, err := ReadSummaryCSV(strings.NewReader("curve,curve_key,topology,routing,deadlock,tie,traffic,sizes,load,n,saturated,accepted_mean,accepted_sd,accepted_low,accepted_high\n" +
		"c,k,torus:4x4,dor,vc,plus,uniform,1,0.5,2,1,0.4,0.01,0.3,0.5\n"))
	if err != nil || len(old) != 1 || old[0].Point.Selection != "" || old[0].Point.Deadlock != "vc" || old[0].Point.Sizes != "1" || old[0].Load != 0.5 || old[0].N != 2 {
		t.Errorf("open-loop file without selection: %+v %v", old, err)
	}
	closed, err := ReadSummaryCSV(strings.NewReader("curve,curve_key,topology,routing,deadlock,tie,traffic,sizes,workload,mapping,load,n,saturated,execution_cycles_mean,execution_cycles_sd,execution_cycles_low,execution_cycles_high\n" +
		"c,k,torus:4x4,dor,bubble,plus,,,alltoall:linear:16B,random,0,3,0,900,1,899,901\n"))
	if err != nil || len(closed) != 1 || closed[0].Point.Workload != "alltoall:linear:16B" || closed[0].Point.Mapping != "random" || closed[0].Point.Deadlock != "bubble" ||
		closed[0].Estimates["execution_cycles"].Mean != 900 {
		t.Errorf("closed-loop file without selection: %+v %v", closed, err)
	}
	// With both: the closed-loop columns after the selection.
	sums[0].Point.Workload, sums[0].Point.Mapping = "bcast:binomial:16B", "linear"
	b.Reset()
	if err := WriteSummaryCSV(&b, sums, []string{"accepted"}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "curve,curve_key,topology,routing,selection,deadlock,tie,traffic,sizes,workload,mapping,load,") {
		t.Errorf("closed-loop adaptive header: %.120s", b.String())
	}
	if back, err := ReadSummaryCSV(strings.NewReader(b.String())); err != nil || back[0].Point != sums[0].Point {
		t.Errorf("closed-loop round trip: %+v %v", back, err)
	}
}
