package experiment

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/engine"
	"gopkg.in/yaml.v3"
)

// bookSimSpec parses a spec as if it were a file beside package booksim's copies of
// BookSim2's example configurations, so that booksim: torus88 names one.
func bookSimSpec(text string) (Spec, error) {
	return ParseSpec(filepath.Join("..", "booksim", "testdata", "spec.yaml"), []byte(text))
}

// booksim: fills the spec from BookSim2's torus88, and the spec's own keys win.
func TestSpecBookSim(t *testing.T) {
	s, err := bookSimSpec("booksim: torus88\nloads: [0.05, 0.1]\nseeds: 2\nengine: {measure: 500}\n")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Topologies, []string{"torus:8x8"}) || !slices.Equal(s.Routing, []string{"dor"}) ||
		!slices.Equal(s.Deadlock, []string{"vc"}) || !slices.Equal(s.Tie, []string{"random"}) || !slices.Equal(s.Traffic, []string{"uniform+self"}) ||
		!slices.Equal(s.Sizes, []string{"1"}) || !slices.Equal(s.Loads.Values, []float64{0.05, 0.1}) || s.Seeds != 2 || s.Seed != 0 {
		t.Errorf("spec %+v", s)
	}
	e := s.Engine
	b := engine.Buffer{VCs: 2, Flits: 8}
	if e.Switching != engine.Wormhole || e.PacketFlits != 1 || e.RoutingDelay != 4 || e.LinkLatency != 2 || e.TerminalLatency != 1 ||
		e.External != b || e.Terminal != b || e.Warmup != 3000 || e.Measure != 500 {
		t.Errorf("engine %+v", e)
	}
	// Without loads: the file's injection rate.
	s, err = bookSimSpec("booksim: torus88\n")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Loads.Values, []float64{0.15}) || e.Measure == s.Engine.Measure {
		t.Errorf("loads %v, measure %d", s.Loads.Values, s.Engine.Measure)
	}
	// Written out, the spec reads back the same, without the file.
	data, err := yaml.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "booksim") {
		t.Errorf("saved spec names the file:\n%s", data)
	}
	back, err := ParseSpec("saved.yaml", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if back.Hash() != s.Hash() {
		t.Errorf("saved spec hashes %s, read %s\n%s", back.Hash(), s.Hash(), data)
	}
}

// Errors name the spec's line and the booksim key, with the configuration's own error.
func TestSpecBookSimErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"booksim: mesh88_lat\n", "spec.yaml:1: booksim: " + filepath.Join("..", "booksim", "testdata", "mesh88_lat") + ":42: wait_for_tail_credit"},
		{"booksim: missing.cfg\n", "spec.yaml:1: booksim: read BookSim2 configuration"},
		{"switch: kns\nbooksim: torus88\n", "spec.yaml:1: switch: a switch preset does not apply with booksim"},
		{"booksim: torus88\nbooksim: torus88\n", "spec.yaml:2: booksim: given twice"},
		{"booksim: [a, b]\n", "spec.yaml:1: booksim: want the path"},
		{"booksim: torus88\nloads: [2.0]\n", "loads"},
		{"bookssim: torus88\n", "accepted are"},
	} {
		_, err := bookSimSpec(tc.text)
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one line containing %q", tc.text, err, tc.want)
		}
	}
	if _, err := bookSimSpec("bookssim: torus88\n"); err == nil || !strings.Contains(err.Error(), "booksim") {
		t.Errorf("the unknown-key error does not list booksim: %v", err)
	}
}
