package figures

import (
	"bytes"
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// Below saturation every delivered flit crosses, on average, its routing records' hops
// in each dimension, and each node has two channels per dimension: the utilisation of
// dimension d is accepted · k̄_d / 2, with k̄_d the average of |record_d| over all
// ordered pairs, enumerated here (8×4 RT: 2·32/31 in X, 32/31 in Y; in the 8×4 RTT the
// records' tie-breaks leave X and Y a little unequal, 1.24 and 1.38 hops).
func TestDimensionUseMatchesDistances(t *testing.T) {
	for _, spec := range []string{"twisted:rt:4", "twisted:rtt:4"} {
		net := topology.MustNew(spec)
		kind, a, err := net.Spec().TwistedParams()
		if err != nil {
			t.Fatal(err)
		}
		g := routing.NewTwistedGeometry(kind, a)
		var k [2]float64
		for s := 0; s < g.Nodes(); s++ {
			for d := 0; d < g.Nodes(); d++ {
				if s != d {
					r := g.Record(s, d)
					k[0] += math.Abs(float64(r[0]))
					k[1] += math.Abs(float64(r[1]))
				}
			}
		}
		pairs := float64(g.Nodes() * (g.Nodes() - 1))
		c := struct {
			spec   string
			kx, ky float64
		}{spec, k[0] / pairs, k[1] / pairs}
		if spec == "twisted:rt:4" && (math.Abs(c.kx-64.0/31) > 1e-12 || math.Abs(c.ky-32.0/31) > 1e-12) {
			t.Fatalf("8×4 RT records: %.4f and %.4f hops per dimension, want 64/31 and 32/31", c.kx, c.ky)
		}
		p := experiment.NewPoint(c.spec, 0.2)
		p.Routing = "twisted-dor"
		p.Channels = true
		p.Warmup, p.Measure = 1000, 40000
		r, err := p.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		u, err := LinkUseOf(net, p, r)
		if err != nil {
			t.Fatal(err)
		}
		for d, k := range []float64{c.kx, c.ky} {
			if want := r.Accepted * k / 2; math.Abs(u.Dims[d]-want) > 0.03*want {
				t.Errorf("%s dimension %d: utilisation %.4f, want accepted·k̄/2 = %.4f", c.spec, d, u.Dims[d], want)
			}
		}
	}
	if _, err := DimensionUse(topology.MustNew("twisted:rt:4"), []float64{1}); err == nil {
		t.Error("a result without channel counters was accepted")
	}
}

func TestLinkUseCSVAndSaturation(t *testing.T) {
	rows := []LinkUse{
		{Topology: "twisted:pt:16", Selection: "first", Traffic: "uniform", Load: 0.26, Seed: 2, Accepted: 0.24, Saturated: true, Dims: []float64{0.95, 0.5, 0.5}},
		{Topology: "twisted:pt:16", Selection: "first", Traffic: "uniform", Load: 0.24, Seed: 1, Accepted: 0.235, Saturated: false, Dims: []float64{0.93, 0.47, 0.47}},
		{Topology: "twisted:pt:16", Selection: "first", Traffic: "uniform", Load: 0.26, Seed: 1, Accepted: 0.24, Saturated: true, Dims: []float64{0.97, 0.5, 0.5}},
		{Topology: "twisted:rt:16", Selection: "first", Traffic: "uniform", Load: 0.25, Seed: 1, Accepted: 0.24, Saturated: true, Dims: []float64{0.96, 0.48}},
	}
	var buf bytes.Buffer
	if err := WriteLinkUseCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	back, err := ReadLinkUseCSV(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 4 || back[0].Load != 0.24 || !reflect.DeepEqual(back[3], rows[3]) {
		t.Fatalf("round trip: %+v", back)
	}
	load, acc, dims, err := LinkUseAtSaturation(back, "twisted:pt:16", "uniform")
	if err != nil {
		t.Fatal(err)
	}
	if load != 0.26 || acc.N != 2 || math.Abs(dims[0].Mean-0.96) > 1e-12 || len(dims) != 3 {
		t.Errorf("at saturation: load %v, accepted %+v, dims %+v", load, acc, dims)
	}
	if _, _, _, err := LinkUseAtSaturation(back, "twisted:rtt:16", "uniform"); err == nil {
		t.Error("no runs: no error")
	}
	if _, err := ReadLinkUseCSV(bytes.NewReader([]byte("a,b\n"))); err == nil {
		t.Error("a wrong header was accepted")
	}
}

// A quick run of an experiment too large to run quickly is the shrunk spec's: here the
// 8,192-node PT of twisted-table1-3d-pt as the 128-node one.
func TestLoadResultsShrunk(t *testing.T) {
	r, err := LoadResultsShrunk(context.Background(), "twisted-table1-3d-pt", Quick, nil, func(q experiment.Spec) experiment.Spec {
		q.Topologies, q.Loads = []string{"twisted:pt:4"}, experiment.Fixed(0.5)
		return q
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Spec.Topologies, []string{"twisted:pt:4"}) || r.Mode != Quick || r.Spec.Seeds != 2 {
		t.Fatalf("quick spec: %v, %v, %d seeds", r.Spec.Topologies, r.Mode, r.Spec.Seeds)
	}
	if len(r.Saturations) != 1 || len(r.Summaries()) == 0 || r.Summaries()[0].Point.Topology != "twisted:pt:4" {
		t.Fatalf("quick results: %d curves, %d summaries", len(r.Saturations), len(r.Summaries()))
	}
}
