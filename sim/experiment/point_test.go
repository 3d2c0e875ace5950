package experiment

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestPointYAMLRoundTrip(t *testing.T) {
	p := NewPoint("twin:4x4x4/D", 0.3)
	p.Sizes = "70%x1,30%x3"
	p.External.VCs, p.External.Flits = 4, 32
	b, err := yaml.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var q Point
	if err := yaml.Unmarshal(b, &q); err != nil {
		t.Fatal(err)
	}
	if q != p {
		t.Fatalf("round trip changed the point:\n%s\n%+v\n%+v", b, p, q)
	}
	if !strings.Contains(string(b), "external_buffer: 4x32") || !strings.Contains(string(b), "switching: vct") {
		t.Fatalf("unexpected YAML:\n%s", b)
	}
}

func TestPointErrors(t *testing.T) {
	cases := map[string]func(*Point){
		"unknown family":            func(p *Point) { p.Topology = "ring:8" },
		"unknown deadlock":          func(p *Point) { p.Deadlock = "magic" },
		"dort does not fit":         func(p *Point) { p.Topology, p.Routing = "torus:4x4", "dort" },
		"unknown tie":               func(p *Point) { p.Tie = "left" },
		"at least 0":                func(p *Point) { p.Load = -0.1 },
		"room for two packets":      func(p *Point) { p.External.VCs, p.External.Flits = 1, 6 },
		"needs virtual cut-through": func(p *Point) { p.Switching = 1 },
	}
	for want, change := range cases {
		p := NewPoint("twin:4x4x4/D", 0.2)
		change(&p)
		_, err := p.Build()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v", want, err)
		}
	}
}

func TestPointRuns(t *testing.T) {
	p := NewPoint("torus:4x4", 0.2)
	p.Warmup, p.Measure = 200, 2000
	r, err := p.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r.Accepted < 0.18 || r.Accepted > 0.22 || r.Saturated || r.Deadlock != nil {
		t.Fatalf("torus:4x4 at 0.2: accepted %g saturated %v", r.Accepted, r.Saturated)
	}
}

// TestPointRefusesNaNTolerance: NaN passes every comparison, so a saturation tolerance
// of NaN used to be accepted by the engine (and then broke the record encoder); it is
// refused with the accepted range, as `twintorus run --saturation-tolerance NaN` is.
func TestPointRefusesNaNTolerance(t *testing.T) {
	for _, tol := range []float64{math.NaN(), math.Inf(1), -0.1, 1} {
		p := NewPoint("torus:4x4", 0.1)
		p.SaturationTolerance = tol
		if _, err := p.Build(); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("saturation tolerance %g: accepted are 0 to 1", tol)) {
			t.Errorf("tolerance %v: %v", tol, err)
		}
	}
}
