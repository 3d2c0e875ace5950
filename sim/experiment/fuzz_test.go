package experiment

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
	"gopkg.in/yaml.v3"
)

// FuzzParseSpec: any input gives a valid spec or a one-line *SpecError, never a
// panic; a valid spec written back as YAML reads back as the same spec.
func FuzzParseSpec(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.yaml")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"topologies: [twin:4x4x4/D]\nloads: [0.1]\n",
		"topologies: torus:4x4\nloads: {auto: {from: 0.1, step: 0.2, refine: 2}}\nseeds: 2\n",
		"topologies: [torus:4x4, mesh:4x4]\ndeadlock: [vc, bubble]\nloads: 0.2\nengine: {warmup: 0, measure: 10}\n",
		"topologies: &a [torus:4x4]\ntraffic: *a\nloads: [0.1]\n",
		"a: [\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(err error) {
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("%T is not a *SpecError: %v", err, err)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error of more than one line: %q", err)
			}
		}
		s, err := decodeSpec("fuzz.yaml", data)
		if err != nil {
			check(err)
			return
		}
		if tooBig(s) {
			return // validation builds every curve's engine: keep the fuzzer's memory small
		}
		s, err = ParseSpec("fuzz.yaml", data)
		if err != nil {
			check(err)
			return
		}
		y, err := yaml.Marshal(s)
		if err != nil {
			t.Fatalf("marshal a valid spec: %v", err)
		}
		back, err := ParseSpec("back.yaml", y)
		if err != nil {
			t.Fatalf("a valid spec written back does not read: %v\n%s", err, y)
		}
		if back.Hash() != s.Hash() {
			t.Fatalf("round trip changed the spec:\n%s", y)
		}
	})
}

// tooBig tells whether validating s would build large engines.
func tooBig(s Spec) bool {
	s = s.withDefaults()
	curves := len(s.Topologies) * max(len(s.Routing), 1) * len(s.Deadlock) * len(s.Tie) * len(s.Traffic) * len(s.Sizes)
	if curves > 16 || s.Engine.PortFlits > 4096 {
		return true
	}
	for _, b := range []struct{ v, f int }{{s.Engine.Terminal.VCs, s.Engine.Terminal.Flits}, {s.Engine.External.VCs, s.Engine.External.Flits}, {s.Engine.Internal.VCs, s.Engine.Internal.Flits}} {
		if b.v*b.f > 4096 {
			return true
		}
	}
	for _, t := range s.Topologies {
		spec, err := topology.Parse(t)
		if err != nil {
			continue
		}
		n := max(spec.PEs, 1)
		for _, k := range spec.Radix {
			n *= k
			if n > 4096 {
				return true
			}
		}
	}
	return false
}
