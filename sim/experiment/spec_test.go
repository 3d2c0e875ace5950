package experiment

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/engine"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"gopkg.in/yaml.v3"
)

func TestParseSpecAcceptance(t *testing.T) {
	s, err := ReadSpec("testdata/acceptance.yaml")
	if err != nil {
		t.Fatal(err)
	}
	curves, err := s.Curves()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(namesOf(curves), "; "), "twin:4x4x4/A bubble uniform; twin:4x4x4/D bubble uniform"; got != want {
		t.Errorf("curves %q, want %q", got, want)
	}
	want := engine.Defaults()
	want.Warmup, want.Measure, want.Seed = 500, 2000, 0
	if s.Engine != want {
		t.Errorf("engine parameters %+v, want %+v", s.Engine, want)
	}
	if len(s.Loads.Values) != 12 || s.Loads.Values[11] != 0.6 || s.Loads.Auto != nil || s.Seeds != 5 || s.Seed != 1 {
		t.Errorf("loads %v, seeds %d from %d", s.Loads, s.Seeds, s.Seed)
	}
	jobs := s.jobs(curves)
	if len(jobs) != 120 {
		t.Fatalf("%d simulations, want 2 curves × 12 loads × 5 seeds = 120", len(jobs))
	}
	// Canonical order: curve, load, replication; seed = 1 + replication.
	j := jobs[5*12+3]
	if j.curve != 1 || j.point.Load != 0.05 || j.rep != 3 || j.point.Seed != 4 || j.point.Topology != "twin:4x4x4/D" ||
		j.point.Routing != "dort" || j.point.Deadlock != "bubble" || j.point.Traffic != "uniform" || j.point.Sizes != "1" {
		t.Errorf("job 63 is %+v", j)
	}
	keys := map[string]bool{}
	for _, j := range jobs {
		keys[j.key] = true
	}
	if len(keys) != len(jobs) {
		t.Errorf("%d distinct keys for %d simulations", len(keys), len(jobs))
	}
}

func TestParseSpecDefaults(t *testing.T) {
	s, err := ParseSpec("min.yaml", []byte("topologies: torus:4x4\nloads: 0.2\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := NewSpec("torus:4x4")
	want.Loads = Fixed(0.2)
	if s.Hash() != want.Hash() {
		t.Errorf("minimal spec %+v differs from NewSpec %+v", s, want)
	}
	// One value and a list of one are the same.
	l, err := ParseSpec("list.yaml", []byte("topologies: [torus:4x4]\nloads: [0.2]\ndeadlock: [bubble]\nsizes: [1]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if l.Hash() != s.Hash() {
		t.Errorf("lists of one differ from scalars:\n%+v\n%+v", l, s)
	}
}

// TestParseSpecErrors holds every kind of malformed spec to its exact one-line
// message: file, line, key, what is wrong.
func TestParseSpecErrors(t *testing.T) {
	base := "topologies: [twin:4x4x4/D]\nloads: [0.1]\n"
	_, unknownFamily := topology.Parse("ring:8") // its wording lists the registry's families
	cases := []specErrorCase{
		{"", "bad.yaml: empty spec: give at least topologies and loads"},
		{"- a\n", "bad.yaml:1: a spec is a mapping of keys (name, topologies, routing, selection, deadlock, tie, traffic, sizes, switch, workload, mapping, flit_bytes, local_cycles, engine, loads, past_saturation, seeds, seed, precision, metrics, booksim), not a list"},
		{base + "foo: 1\n", "bad.yaml:3: foo: unknown key in the spec; accepted are name, topologies, routing, selection, deadlock, tie, traffic, sizes, switch, workload, mapping, flit_bytes, local_cycles, engine, loads, past_saturation, seeds, seed, precision, metrics, booksim"},
		{base + "seeds: five\n", `bad.yaml:3: seeds: want an integer, got "five"`},
		{base + "seed: -1\n", `bad.yaml:3: seed: want a whole number 0 or more, got "-1"`},
		{base + "name: [a]\n", "bad.yaml:3: name: want a string, got a list"},
		{"topologies:\n  - twin:4x4x4/D\n  - ring:8\nloads: [0.1]\n", "bad.yaml:3: topologies[1]: " + unknownFamily.Error()},
		{"topologies:\n  - twin:4x4x4/D\n  - {a: 1}\nloads: [0.1]\n", "bad.yaml:3: topologies[1]: want a string, got a mapping"},
		{"topologies: [twin:4x4x4/D, twin:4x4x4/d]\nloads: [0.1]\n", "bad.yaml:1: topologies[1]: twin:4x4x4/D is listed twice (as topologies[0])"},
		{"topologies: []\nloads: [0.1]\n", "bad.yaml:1: topologies: empty list: give at least one value, or leave the key out"},
		{"loads: [0.1]\n", "bad.yaml:1: topologies: no topologies: list at least one, e.g. [twin:4x4x4/D]"},
		{"topologies: [twin:4x4x4/D]\nloads: []\n", "bad.yaml:2: loads: empty load axis: list offered loads in flits/cycle/PE, e.g. [0.1, 0.2, 0.3], or search with {auto: {from: 0.05, step: 0.05}}"},
		{"topologies: [twin:4x4x4/D]\n", "bad.yaml:1: loads: empty load axis: list offered loads in flits/cycle/PE, e.g. [0.1, 0.2, 0.3], or search with {auto: {from: 0.05, step: 0.05}}"},
		{"topologies: [twin:4x4x4/D]\nloads:\n", "bad.yaml:2: loads: empty load axis: list offered loads in flits/cycle/PE, e.g. [0.1, 0.2, 0.3], or search with {auto: {from: 0.05, step: 0.05}}"},
		{"topologies: [twin:4x4x4/D]\nloads:\n  - 0.1\n  - -0.2\n", "bad.yaml:4: loads[1]: offered load -0.2: accepted is a finite number above 0 flits/cycle/PE"},
		{"topologies: [twin:4x4x4/D]\nloads: [0.1, abc]\n", `bad.yaml:2: loads[1]: want a load in flits/cycle/PE (a number), got "abc"`},
		{"topologies: [twin:4x4x4/D]\nloads: [0.1, 0.1]\n", "bad.yaml:2: loads[1]: load 0.1 is listed twice"},
		{"topologies: [twin:4x4x4/D]\nloads: [0.1, 5]\n", "bad.yaml:2: loads[1]: with sizes 1: offered load 5 flits/cycle/PE needs 1.25 messages per cycle per PE, but at most 1 is possible with messages of 1 packets x 4 flits (mean 4 flits); accepted loads are 0 to 4"},
		{"topologies: [twin:4x4x4/D]\nloads: {range: 1}\n", "bad.yaml:2: loads: a mapping here holds one key, auto: e.g. {auto: {from: 0.05, step: 0.05, max: 1, refine: 3}}"},
		{"topologies: [twin:4x4x4/D]\nloads:\n  auto:\n    from: 0.1\n    stp: 2\n", "bad.yaml:5: loads.auto.stp: unknown key in loads.auto; accepted are from, step, max, refine"},
		{"topologies: [twin:4x4x4/D]\nloads: {auto: {step: 0}}\n", "bad.yaml:2: loads.auto.step: step 0: accepted is a number above 0"},
		{"topologies: [twin:4x4x4/D]\nloads: {auto: {from: 0.5, max: 0.2}}\n", "bad.yaml:2: loads.auto.max: largest load 0.2: accepted is a finite number at least from (0.5)"},
		{"topologies: [twin:4x4x4/D]\nloads: [0.2, 0.1]\npast_saturation: 2\n", "bad.yaml:2: loads: with past_saturation the loads must ascend"},
		{"topologies: [twin:4x4x4/D]\nloads: [0.1]\npast_saturation: -1\n", "bad.yaml:3: past_saturation: -1 loads past saturation: accepted are 0 (run every load) to 10000"},
		{"topologies: [twin:4x4x4/D]\nloads: {auto: {}}\npast_saturation: 1\n", "bad.yaml:3: past_saturation: applies to a list of loads, not to an automatic search (which stops at saturation)"},
		{base + "topologies: [torus:4x4]\n", "bad.yaml:3: topologies: given twice"},
		{base + "seeds: 0\n", "bad.yaml:3: seeds: 0 replications: accepted are 1 to 10000"},
		{base + "engine:\n  load: 0.3\n", "bad.yaml:4: engine.load: not allowed here: the offered load comes from loads: at the top level"},
		{base + "engine:\n  seed: 3\n", "bad.yaml:4: engine.seed: not allowed here: the seed comes from seed: and seeds: at the top level"},
		{base + "engine:\n  warmpu: 3\n", "bad.yaml:4: engine.warmpu: unknown key in engine; accepted are switching, packet_flits, packet_lengths, link_latency, internal_latency, routing_delay, terminal_buffer, external_buffer, internal_buffer, port_flits, terminal_latency, output_flits, voq, buffer_split, allocator, warmup, measure, watchdog, saturation_tolerance, stationary_batches, stationary_tolerance, stationary_windows, transit_priority, crossbar_per_vc, consume_all, reserve_output_vcs, class_vcs, front_delay, keep_ring_class, vc_islip, switch_islip, switch_after_vc, crossbar_delay, eject_vcs, channels, channel_frames, threads"},
		{base + "engine:\n  measure: [1, 2]\n", "bad.yaml:4: engine.measure: want an integer, got a list"},
		{base + "engine:\n  measure: 2.5\n", `bad.yaml:4: engine.measure: want an integer, got "2.5"`},
		{base + "engine:\n  channels: maybe\n", `bad.yaml:4: engine.channels: want true or false, got "maybe"`},
		{base + "engine:\n  external_buffer: 4y32\n", `bad.yaml:4: engine.external_buffer: bad buffer "4y32": write VCSxFLITS with 1-64 VCs of 1-65536 flits, e.g. 4x32`},
		{base + "engine:\n  switching: wormhole\n", "bad.yaml:3: engine: twin:4x4x4/D bubble uniform: bubble flow control needs virtual cut-through switching, not wormhole"},
		{base + "engine:\n  measure: 0\n", "bad.yaml:3: engine: twin:4x4x4/D bubble uniform: warm-up 5000 and measurement 0 cycles: warm-up must be at least 0 and measurement at least 1"},
		{base + "engine:\n  saturation_tolerance: .nan\n", "bad.yaml:4: engine.saturation_tolerance: saturation tolerance NaN: accepted is a number from 0 to 1, below 1 (default 0.02)"},
		{base + "engine:\n  saturation_tolerance: -.inf\n", "bad.yaml:4: engine.saturation_tolerance: saturation tolerance -Inf: accepted is a number from 0 to 1, below 1 (default 0.02)"},
		{base + "engine:\n  saturation_tolerance: 1\n", "bad.yaml:4: engine.saturation_tolerance: saturation tolerance 1: accepted is a number from 0 to 1, below 1 (default 0.02)"},
		{base + "metrics: [accepted, speed]\n", `bad.yaml:3: metrics[1]: unknown metric "speed": accepted are ` + strings.Join(MetricNames(), ", ")},
		{base + "deadlock: [bubble, vcs, vc]\n", "bad.yaml:3: deadlock[2]: vc is listed twice"},
		{base + "deadlock: magic\n", `bad.yaml:3: deadlock[0]: unknown deadlock scheme "magic": accepted are vc, bubble, escape and none`},
		{base + "tie: left\n", `bad.yaml:3: tie[0]: unknown tie rule "left": accepted are plus, minus, mirror and random (or nothing: the routing's own, mirror for tsdor, plus otherwise)`},
		{base + "sizes: 70%x1,20%x3\n", `bad.yaml:3: sizes[0]: message sizes "70%x1,20%x3": the percentages sum to 90%; they must sum to 100%`},
		{base + "traffic: [uniform, transpose]\n", `bad.yaml:3: traffic[1]: on twin:4x4x4/D: traffic pattern "transpose": transpose needs a square number of PEs (m·m); twin:4x4x4/D has 128`},
		{"topologies: [torus:4x4]\nrouting: dort\nloads: [0.1]\n", "bad.yaml:2: routing[0]: routing dort does not fit torus:4x4: it is for twin tori; use dor"},
		{base + "routing: [dort, DORT]\n", "bad.yaml:3: routing[1]: twin:4x4x4/D bubble uniform is the same curve as twin:4x4x4/D bubble uniform"},
		{base + "---\nname: x\n", "bad.yaml:3: a second YAML document: a spec file holds one"},
		{"topologies: [twin:4x4x4/D\nloads: [0.1]\n", "bad.yaml:1: YAML syntax: did not find expected ',' or ']'"},
		{"topologies: twin\n\tloads: 1\n", "bad.yaml:2: YAML syntax: found a tab character that violates indentation"},
	}
	checkSpecErrors(t, cases)
}

// specErrorCase is a spec file as "bad.yaml" and the one-line error it must give.
type specErrorCase struct{ spec, want string }

// checkSpecErrors parses each case's spec and wants exactly its error, a *SpecError
// on one line.
func checkSpecErrors(t *testing.T, cases []specErrorCase) {
	t.Helper()
	for _, c := range cases {
		_, err := ParseSpec("bad.yaml", []byte(c.spec))
		var se *SpecError
		switch {
		case err == nil:
			t.Errorf("%q: no error, want %s", c.spec, c.want)
		case err.Error() != c.want:
			t.Errorf("%q:\n got %s\nwant %s", c.spec, err, c.want)
		case !errors.As(err, &se):
			t.Errorf("%q: %T is not a *SpecError", c.spec, err)
		case strings.Contains(err.Error(), "\n"):
			t.Errorf("%q: error has more than one line", c.spec)
		}
	}
}

func TestSpecGoValueErrors(t *testing.T) {
	s := NewSpec("twin:4x4x4/D")
	if err := s.Validate(); err == nil || err.Error() != "spec: loads: empty load axis: list offered loads in flits/cycle/PE, e.g. [0.1, 0.2, 0.3], or search with {auto: {from: 0.05, step: 0.05}}" {
		t.Errorf("no loads: %v", err)
	}
	s.Loads = Fixed(0.1)
	s.Seeds = 0
	if err := s.Validate(); err == nil || err.Error() != "spec: seeds: 0 replications: accepted are 1 to 10000" {
		t.Errorf("no seeds: %v", err)
	}
	s.Seeds = 2
	s.Loads = Loads{Values: []float64{0.1}, Auto: &AutoSearch{From: 0.1, Step: 0.1, Max: 1}}
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "choose one") {
		t.Errorf("both load axes: %v", err)
	}
	s.Loads = Fixed(0.1)
	if err := s.Validate(); err != nil {
		t.Errorf("valid spec: %v", err)
	}
}

// TestSpecRoundTrip: a spec written as YAML (as the store and Slurm tasks keep it) or
// JSON (as records carry it) reads back as the same spec.
func TestSpecRoundTrip(t *testing.T) {
	for _, file := range []string{"testdata/acceptance.yaml", "testdata/auto.yaml", "testdata/example.yaml"} {
		s, err := ReadSpec(file)
		if err != nil {
			t.Fatal(err)
		}
		y, err := yaml.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseSpec("out.yaml", y)
		if err != nil {
			t.Fatalf("%s: reading its YAML back: %v\n%s", file, err, y)
		}
		if back.Hash() != s.Hash() {
			t.Errorf("%s: YAML round trip changed the spec:\n%s", file, y)
		}
		j, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var fromJSON Spec
		if err := json.Unmarshal(j, &fromJSON); err != nil {
			t.Fatal(err)
		}
		if fromJSON.Hash() != s.Hash() || !reflect.DeepEqual(fromJSON.Loads, s.Loads) {
			t.Errorf("%s: JSON round trip changed the spec:\n%s", file, j)
		}
	}
}

// TestCurvesCanonical: equal simulations written differently get one canonical point
// and one key.
func TestCurvesCanonical(t *testing.T) {
	a := NewSpec("TWIN:4x4x4/d")
	a.Deadlock, a.Tie, a.Traffic, a.Sizes, a.Routing = []string{"BUBBLE"}, []string{"+"}, []string{" uniform"}, []string{"100%x1"}, []string{"DORT"}
	a.Loads = Fixed(0.3)
	b := NewSpec("twin:4x4x4/D")
	b.Loads = Fixed(0.3)
	ca, err := a.Curves()
	if err != nil {
		t.Fatal(err)
	}
	cb, err := b.Curves()
	if err != nil {
		t.Fatal(err)
	}
	if ca[0].Point != cb[0].Point || ca[0].Key != cb[0].Key || a.jobs(ca)[0].key != b.jobs(cb)[0].key {
		t.Errorf("same simulation, different points:\n%+v\n%+v", ca[0].Point, cb[0].Point)
	}
}

// TestKeyGolden pins the key of one point: a change here silently orphans every
// stored result, so it must be deliberate (bump ModelVersion instead when results
// change). The key is model version 2's, of the point without the stationarity
// check, as the stored results ran; the same point with the check's defaults has a
// key of its own, pinned too.
func TestKeyGolden(t *testing.T) {
	p := NewPoint("twin:4x4x4/D", 0.3)
	p.Routing, p.Tie, p.Sizes = "dort", "plus", "1" // as a spec names them
	checked := p
	p.Params = p.Params.StationaryOff()
	if got, want := p.Key(), "0a270cd3a282c35a68d0aa7680bdd012a9027bafd55fa6c13a235051910af3cb"; got != want {
		t.Errorf("key %s, want %s; canonical form:\n%s", got, want, p.canonicalJSON())
	}
	if got, want := checked.Key(), "785496d7b571d425f59b1e250e01e86a055f81cda409d64dca68660a52f5bf96"; got != want {
		t.Errorf("key with the stationarity check %s, want %s; canonical form:\n%s", got, want, checked.canonicalJSON())
	}
	seen := map[string]string{p.Key(): "base"}
	for what, change := range map[string]func(*Point){
		"load":        func(p *Point) { p.Load = 0.31 },
		"seed":        func(p *Point) { p.Seed = 2 },
		"seed 2^63":   func(p *Point) { p.Seed = 1<<63 + 1 },
		"seed 2^63+2": func(p *Point) { p.Seed = 1<<63 + 2 },
		"channels":    func(p *Point) { p.Channels = true },
		"buffer":      func(p *Point) { p.External = engine.Buffer{VCs: 2, Flits: 64} },
		"topology":    func(p *Point) { p.Topology = "twin:4x4x4/A" },
		"warmup 0":    func(p *Point) { p.Warmup = 0 },
		"checked":     func(p *Point) { p.Params = checked.Params },
		"tolerance":   func(p *Point) { p.Params = checked.Params; p.StationaryTolerance = 0.05 },
		"windows":     func(p *Point) { p.Params = checked.Params; p.StationaryWindows = 1 },
		"batches":     func(p *Point) { p.Params = checked.Params; p.StationaryBatches = 20 },
	} {
		q := p
		change(&q)
		if other, dup := seen[q.Key()]; dup {
			t.Errorf("changing %s gives the key of %s", what, other)
		}
		seen[q.Key()] = what
	}
}

// A spec's switch preset never turns deadlock avoidance off (issue 39): without a
// deadlock key, each curve takes the preset's scheme only where its routing is
// deadlock-free under it, else its routing's own; the spec still reads back from a
// store the same, and a deadlock key of the file's own is taken as written.
func TestSpecPresetKeepsDeadlockAvoidance(t *testing.T) {
	text := "switch: kns\ntopologies: [torus:4x4, mesh:4x4, \"kns:4,2,1\"]\nloads: [0.1]\nengine: {warmup: 10, measure: 10}\n"
	s, err := ParseSpec("kns.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	schemes := func(s Spec) string {
		t.Helper()
		curves, err := s.Curves()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range curves {
			out = append(out, c.Point.Topology+" "+c.Point.Deadlock)
		}
		return strings.Join(out, ", ")
	}
	want := "torus:4x4 bubble, mesh:4x4 none, kns:4,2,1 none"
	if got := schemes(s); got != want {
		t.Errorf("curves %s, want %s", got, want)
	}
	store, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	path, err := store.SaveSpec(s)
	if err != nil {
		t.Fatal(err)
	}
	if saved := readString(t, path); strings.Contains(saved, "deadlock") {
		t.Errorf("the saved spec names the preset's scheme as its own:\n%s", saved)
	}
	back, err := store.Spec(s.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if got := schemes(back); got != want {
		t.Errorf("read back from the store: curves %s, want %s", got, want)
	}
	own, err := ParseSpec("kns.yaml", []byte(text+"deadlock: [none]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := schemes(own); got != "torus:4x4 none, mesh:4x4 none, kns:4,2,1 none" || own.Hash() == s.Hash() {
		t.Errorf("deadlock: [none] in the file: curves %s", got)
	}
	// DOR on a mesh declares itself deadlock-free without a scheme; the channel
	// dependency graph agrees.
	net := topology.MustNew("mesh:4x3x3")
	rt, err := routing.New("dor", net, routing.SchemeNone, routing.TiePlus)
	if err != nil || !declaredFree(rt) {
		t.Fatalf("dor/none on a mesh: %v, declared free %v", err, declaredFree(rt))
	}
	if err := analysis.RequireDeadlockFree(context.Background(), net, rt); err != nil {
		t.Error(err)
	}
}
