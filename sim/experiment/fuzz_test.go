package experiment

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
	"gopkg.in/yaml.v3"
)

// FuzzParseSpec: any input gives a valid spec or a one-line *SpecError, never a
// panic; a valid spec written back as YAML reads back as the same spec.
func FuzzParseSpec(f *testing.F) {
	// The checked-in experiments and the test specs: real specs to mutate.
	files, _ := filepath.Glob("../../datasets/experiments/*.yaml")
	more, _ := filepath.Glob("testdata/*.yaml")
	if len(files) == 0 || len(more) == 0 {
		f.Fatal("no seed specs in ../../datasets/experiments or testdata")
	}
	for _, file := range append(files, more...) {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"topologies: [twin:4x4x4/D]\nloads: [0.1]\n",
		"topologies: torus:4x4\nloads: {auto: {from: 0.1, step: 0.2, refine: 2}}\nseeds: 2\n",
		"topologies: [torus:4x4, mesh:4x4]\ndeadlock: [vc, bubble]\nloads: 0.2\nengine: {warmup: 0, measure: 10}\n",
		"topologies: &a [torus:4x4]\ntraffic: *a\nloads: [0.1]\n",
		"topologies: torus:4x4\nloads: [0.1, 0.2]\nseeds: 30\nprecision: {metric: accepted, relative: 0.01, min_seeds: 5}\n",
		"topologies: torus:4x4\nloads: {auto: {}}\nseeds: 8\nprecision:\n  absolute: 0.002\n",
		"topologies: torus:4x4\nworkload: bcast:binomial:16B\nmapping: random\nseeds: 6\nprecision: {relative: 0.05, min_seeds: 3}\n",
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
		if err := s.withDefaults().checkScalars(); err != nil {
			check(err)
			return
		}
		if len(s.Topologies) == 0 {
			return // refused by validation, never stored
		}
		// What a store keeps of a spec reads back as the same spec, however large: the
		// experiments of datasets/ are seeds, and 3dt-vs-2d's past_saturation was once lost.
		y, err := yaml.Marshal(s)
		if err != nil {
			t.Fatalf("marshal a decoded spec: %v", err)
		}
		if back, err := decodeSpec("back.yaml", y); err != nil || back.Hash() != s.Hash() {
			t.Fatalf("a spec written back does not read back the same (%v):\n%s", err, y)
		}
		if tooBig(s) {
			return // validation builds every curve's engine: keep the fuzzer's memory small
		}
		s, err = ParseSpec("fuzz.yaml", data)
		if err != nil {
			check(err)
			return
		}
		// The valid spec written back reads back as the same spec. Validating it again
		// is not needed: validation reads nothing the hash leaves out, so a spec that
		// hashes the same validates the same, and a second validation (every network and
		// routing built again) was half of each execution's time.
		y, err = yaml.Marshal(s)
		if err != nil {
			t.Fatalf("marshal a valid spec: %v", err)
		}
		back, err := decodeSpec("back.yaml", y)
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
	curves := len(s.Topologies) * max(len(s.Routing), 1) * len(s.Deadlock) * max(len(s.Tie), 1) * len(s.Traffic) * len(s.Sizes)
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
		// The family's own count first: a twisted torus's spec holds its side a, not
		// its shape (twisted:pdtt:32 has 65,536 switches).
		if z, ok := spec.Size(); ok && (z.Switches > 4096 || z.Terminals > 4096) {
			return true
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

// FuzzUnmarshalRecord: any bytes give a record or a one-line error, never a panic; a
// record that reads writes back (in the current format) to a file that reads as the
// same record.
func FuzzUnmarshalRecord(f *testing.F) {
	files, _ := filepath.Glob("testdata/store-v1/records/*/*.json")
	if len(files) == 0 {
		f.Fatal("no seed records in testdata/store-v1")
	}
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
			if r, err := UnmarshalRecord(b); err == nil {
				if v2, err := r.Marshal(); err == nil {
					f.Add(v2)
				}
			}
		}
	}
	f.Add([]byte(`{"format":"twintorus-record/2","sha256":"00","record":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := UnmarshalRecord(data)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error of more than one line: %q", err)
			}
			return
		}
		again, err := r.Marshal()
		if err != nil {
			return // e.g. a v1 record without a spec hash: it reads, but is not written
		}
		back, err := UnmarshalRecord(again)
		if err != nil {
			t.Fatalf("a record written back does not read: %v\n%s", err, again)
		}
		if back.Key != r.Key || back.Point != r.Point || back.SpecHash != r.SpecHash || resultJSON(t, back.Result) != resultJSON(t, r.Result) {
			t.Fatalf("round trip changed the record:\n%s\n%s", data, again)
		}
	})
}

// FuzzParseShard: a shard reads back from how it prints; anything else is a one-line
// error.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/1", "3/8", " 1/2 ", "2/2", "-1/4", "1/0", "a/b", "1/", "/", "0/9999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := ParseShard(s)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error of more than one line: %q", err)
			}
			return
		}
		if sh.Index < 0 || sh.Index >= sh.Count {
			t.Fatalf("%q gave shard %+v", s, sh)
		}
		back, err := ParseShard(sh.String())
		if err != nil || back != sh {
			t.Fatalf("%q prints as %q, which reads as %+v, %v", s, sh.String(), back, err)
		}
	})
}

// FuzzReadSummaryCSV: any bytes give summaries or an error, never a panic.
func FuzzReadSummaryCSV(f *testing.F) {
	if b, err := os.ReadFile("testdata/store-v1-summary.csv"); err == nil {
		f.Add(b)
	}
	f.Add([]byte("curve,curve_key,topology,routing,deadlock,tie,traffic,sizes,load,n,saturated\nc,k,t,r,d,x,u,1,0.5,2,1\n"))
	f.Add([]byte("curve,curve_key,topology,routing,selection,deadlock,tie,traffic,sizes,load,n,saturated,accepted_mean,accepted_sd,accepted_low,accepted_high\nc,k,t,adaptive,3prio,vc,plus,u,1,0.5,2,1,0.4,0.01,0.3,0.5\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sums, err := ReadSummaryCSV(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, s := range sums {
			if s.Point.Load != s.Load && !math.IsNaN(s.Load) {
				t.Fatalf("load %v, point load %v", s.Load, s.Point.Load)
			}
		}
	})
}

// FuzzSlurmScript: whatever the results store path and an sbatch option hold, the job
// script either is refused with a one-line error or has its eleven lines, with sbatch
// reading every #SBATCH option back exactly and bash reading the paths back exactly.
func FuzzSlurmScript(f *testing.F) {
	for _, s := range []string{"results", "a b", `it's "x" $(touch p)`, "`id`", "100%a", "# c", "a\nb", `back\slash`, "packjob", "--output=x", "é"} {
		f.Add(s, "--comment="+s)
	}
	f.Fuzz(func(t *testing.T, out, option string) {
		j := SlurmJob{Binary: "/opt/twin torus", Spec: "/" + out + "/specs/x.yaml", Out: "/" + out, Tasks: 3, Name: "f", Options: []string{option}}
		script, err := j.Script()
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error of more than one line: %q", err)
			}
			return
		}
		lines := strings.Split(strings.TrimSuffix(script, "\n"), "\n")
		if len(lines) != 11 || lines[9] != "set -eu" || !strings.HasPrefix(lines[10], "exec ") {
			t.Fatalf("the script has %d lines:\n%s", len(lines), script)
		}
		for _, l := range lines[:9] {
			if !strings.HasPrefix(l, "#") {
				t.Fatalf("line %q is not a comment or directive:\n%s", l, script)
			}
		}
		logs := strings.ReplaceAll(filepath.Join(j.Out, "slurm", "logs"), "%", "%%") + "/%A_%a.out"
		want := []string{"--job-name=f", "--array=0-2", "--cpus-per-task=1", "--output=" + logs, option}
		if got := directives(script); !slices.Equal(got, want) {
			t.Fatalf("sbatch reads %q, want %q:\n%s", got, want, script)
		}
		words := bashWords(lines[10])
		if len(words) < 6 || words[1] != j.Binary || words[3] != j.Spec || words[5] != j.Out {
			t.Fatalf("bash reads %q:\n%s", words, script)
		}
	})
}
