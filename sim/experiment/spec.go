package experiment

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/internal/sysmem"
	"github.com/twintorus/twintorus/sim/engine"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/traffic"
	"github.com/twintorus/twintorus/sim/workload"
)

// Limits that keep a typo from expanding into a sweep nobody meant.
const (
	MaxSeeds = 10000   // replications per point
	MaxJobs  = 1 << 24 // simulations in one spec with fixed loads
	MaxLoads = 10000   // loads on the fixed axis
	// MaxSpecBytes bounds a spec file, and MaxSpecItems its commas and lines (what
	// bounds the items of its lists), both checked before the YAML is parsed: the
	// parser keeps a node of about 400 bytes per item, and a spec of two million
	// loads took 917 MB and 19 s before MaxLoads refused it. The largest spec of
	// datasets/ is 2 kB; 10,000 loads or topologies fit many times over.
	MaxSpecBytes = 1 << 20
	MaxSpecItems = 100000
)

// Spec is an experiment as data: axes that expand into curves (topologies × routing ×
// deadlock schemes × tie rules × traffic patterns × message sizes), shared engine
// parameters, the load axis, the replications and the metrics to summarise. Read one
// with ParseSpec or ReadSpec, or start from NewSpec. See the package documentation for
// the YAML form.
type Spec struct {
	// Name labels the experiment (Slurm job names, reports); it does not change results.
	Name       string   `yaml:"name,omitempty" json:"name,omitempty"`
	Topologies []string `yaml:"topologies" json:"topologies"`
	// Routing lists routing names (dor, dort, adaptive, ...); empty means the family's
	// default.
	Routing []string `yaml:"routing,omitempty" json:"routing,omitempty"`
	// Selection lists selection functions (routing.ParseSelection) for the routings
	// that offer several candidates; empty means each routing's default. Routings
	// that offer one (DOR, DORT) make one curve whatever this lists.
	Selection []string `yaml:"selection,omitempty" json:"selection,omitempty"`
	Deadlock  []string `yaml:"deadlock" json:"deadlock"` // vc, bubble, none
	// Tie lists tie rules (plus, minus, mirror); empty means each routing's own
	// (mirror for tsdor, plus otherwise). A point names the rule its routing applies
	// (routing.ResolveTie): on a network without twin cards mirror is plus, and rules
	// that resolve alike make one curve.
	Tie     []string `yaml:"tie" json:"tie"`
	Traffic []string `yaml:"traffic" json:"traffic"` // traffic.Grammar patterns
	Sizes   []string `yaml:"sizes" json:"sizes"`     // traffic.SizesGrammar
	// Preset names a switch preset (engine.Presets: cswitch, kns) whose parameters the
	// engine block starts from instead of engine.Defaults(), and whose deadlock scheme
	// the spec takes when it names none, on each curve whose routing is deadlock-free
	// under it (PresetScheme; the others keep their routing's own). It is applied when
	// the spec is read; Engine then holds every parameter.
	Preset string `yaml:"switch,omitempty" json:"switch,omitempty"`
	// Workload, when set, makes the spec closed-loop: each curve runs one of these
	// workloads (workload.Grammar) to its end instead of traffic and sizes at loads;
	// there is then no traffic, sizes or loads axis. Mapping places the tasks
	// (workload.ParseMapping; default linear), FlitBytes cuts messages into flits (0:
	// 16 bytes) and LocalCycles is the cost of a message between tasks of one PE.
	Workload    []string `yaml:"workload,omitempty" json:"workload,omitempty"`
	Mapping     []string `yaml:"mapping,omitempty" json:"mapping,omitempty"`
	FlitBytes   int      `yaml:"flit_bytes,omitempty" json:"flit_bytes,omitempty"`
	LocalCycles int64    `yaml:"local_cycles,omitempty" json:"local_cycles,omitempty"`
	// Engine holds the engine parameters shared by every point. Its Load and Seed are
	// ignored: the load axis and Seed/Seeds set them.
	Engine engine.Params `yaml:"engine" json:"engine"`
	Loads  Loads         `yaml:"loads" json:"loads"`
	// PastSaturation, when above 0, stops each curve of a fixed load list that many
	// loads after its first saturated one: the loads must then ascend, and the curve
	// runs them in order. A curve deep in saturation costs the most and says the
	// least; 0 runs every load.
	PastSaturation int `yaml:"past_saturation,omitempty" json:"past_saturation,omitempty"`
	// Seeds is the number of replications per point (the most, under a precision
	// target); replication r runs with engine seed Seed+r, so every point of a spec
	// shares the same seeds.
	Seeds int    `yaml:"seeds" json:"seeds"`
	Seed  uint64 `yaml:"seed" json:"seed"`
	// Precision, when set, lets a point stop short of Seeds replications once its
	// estimate is precise enough (see Precision); nil, the default, runs Seeds
	// replications everywhere, as the papers do. It is a pointer so that specs
	// without it keep their hash.
	Precision *Precision `yaml:"precision,omitempty" json:"precision,omitempty"`
	Metrics   []string   `yaml:"metrics" json:"metrics"` // summarised with mean and 95 % CI

	src *source // where the spec was read from, for error positions; nil for Go values
	// presetScheme: the spec names no deadlock scheme and Deadlock is its preset's,
	// which each curve takes only where its routing is deadlock-free under it
	// (PresetScheme). Saved specs leave the key out, so that they read back the same.
	presetScheme bool
	// presetVOQ: the spec's preset has virtual output queues and its file does not
	// set voq: each curve takes them where its routing gives one port per hop
	// (PresetVOQ). Saved specs leave the key out, so that they read back the same.
	presetVOQ bool
}

// Loads is the load axis: a fixed list of offered loads, or an automatic search for
// the saturation point. Exactly one of Values and Auto is set.
type Loads struct {
	Values []float64
	Auto   *AutoSearch
}

// AutoSearch finds a curve's saturation load: it runs From, From+Step, From+2·Step, ...
// up to Max until a load saturates, then bisects Refine times between the last load
// that did not saturate (0 if none) and the first that did. A load saturates when at
// least half of its replications report Result.Saturated. Search loads are rounded to
// 1e-6 so that they print and hash the same everywhere.
type AutoSearch struct {
	From   float64 `yaml:"from" json:"from"`
	Step   float64 `yaml:"step" json:"step"`
	Max    float64 `yaml:"max" json:"max"`
	Refine int     `yaml:"refine" json:"refine"`
}

// Precision is a precision target for replications: a point first runs MinSeeds
// replications (seeds Seed to Seed+MinSeeds−1), then, in rounds of MinSeeds more,
// keeps adding replications until the 95 % confidence half-width of Metric (Student's
// t, as Estimated) is at most Relative·|mean| or Absolute, or until Seeds. The
// decision at a round's end depends only on the point's own replications so far,
// never on timing or on other points, so a sweep makes the same simulations whatever
// its worker count and however often it is resumed. Replications where the metric is
// NaN do not count: a point judged on fewer than MinSeeds values goes on to Seeds.
type Precision struct {
	// Metric is the metric judged; default accepted (open loop) or execution_cycles
	// (closed loop).
	Metric string `yaml:"metric,omitempty" json:"metric,omitempty"`
	// Relative is the target half-width as a fraction of |mean|, e.g. 0.01; Absolute
	// the target half-width in the metric's unit. Exactly one is set.
	Relative float64 `yaml:"relative,omitempty" json:"relative,omitempty"`
	Absolute float64 `yaml:"absolute,omitempty" json:"absolute,omitempty"`
	// MinSeeds is the fewest replications of any point and the size of each later
	// batch; default 5 (or Seeds, when fewer), from 2 to Seeds.
	MinSeeds int `yaml:"min_seeds,omitempty" json:"min_seeds,omitempty"`
}

// DefaultMinSeeds is the replications every point runs under a precision target
// when min_seeds is not given: few enough to save most of 30 seeds at points that are
// precise at once, enough for Student's t to give a usable interval (t(0.975, 4) is
// 2.78, against 12.7 with 2).
const DefaultMinSeeds = 5

// Met reports whether an estimate meets the target: at least MinSeeds replications
// with a value, and a 95 % half-width at most the target. A NaN half-width (fewer
// than two values) never meets it.
func (p Precision) Met(e Estimate) bool {
	if e.N < p.MinSeeds || e.N < 2 {
		return false
	}
	target := p.Absolute
	if p.Relative > 0 {
		target = p.Relative * math.Abs(e.Mean)
	}
	return e.HalfWidth() <= target
}

// met reports whether the replications of one point, by replication, meet the target.
func (p Precision) met(records []Record) bool {
	m, ok := metricByName(p.Metric)
	if !ok {
		return false // refused by validation; running every seed is the safe side
	}
	v := make([]float64, len(records))
	for i := range records {
		v[i] = m.get(records[i].Result)
	}
	return p.Met(Estimated(v))
}

// DefaultAuto is the search an empty `auto:` block asks for.
func DefaultAuto() AutoSearch { return AutoSearch{From: 0.05, Step: 0.05, Max: 1, Refine: 3} }

// Fixed is a fixed load axis.
func Fixed(loads ...float64) Loads { return Loads{Values: loads} }

// Auto is a saturation search.
func Auto(a AutoSearch) Loads { return Loads{Auto: &a} }

// NewSpec is a spec over the given topologies with the model's defaults
// (docs/model.md): default routing, bubble flow control, each routing's own tie rule,
// uniform traffic, one-packet messages, engine.Defaults(), one replication with seed 1,
// and DefaultMetrics. Set Loads before using it.
func NewSpec(topologies ...string) Spec {
	return Spec{
		Topologies: topologies,
		Deadlock:   []string{"bubble"},
		Traffic:    []string{"uniform"},
		Sizes:      []string{"1"},
		Engine:     engine.Defaults(),
		Seeds:      1,
		Seed:       1,
		Metrics:    DefaultMetrics(),
	}
}

// withDefaults fills the axes left empty and clears what the spec does not own.
func (s Spec) withDefaults() Spec {
	d := NewSpec()
	if len(s.Deadlock) == 0 {
		s.Deadlock = d.Deadlock
	}
	if s.closed() {
		// A closed-loop spec has no traffic, sizes or loads; its own default metrics
		// replace the open-loop ones unless the spec names some.
		s.Traffic, s.Sizes, s.Loads, s.PastSaturation = nil, nil, Loads{}, 0
		if len(s.Mapping) == 0 {
			s.Mapping = []string{workload.Linear}
		}
		if len(s.Metrics) == 0 || slices.Equal(s.Metrics, d.Metrics) && !s.has("metrics") {
			s.Metrics = DefaultClosedMetrics()
		}
		s.Engine.Warmup, s.Engine.Measure = 0, 0
		s.Engine = s.Engine.StationaryOff() // run to the end: no window to check
	}
	if s.Engine.StationaryBatches == 0 {
		// The check off: its tolerance and windows mean nothing, and are cleared so
		// that the points are those of the model before the check (their keys too).
		s.Engine = s.Engine.StationaryOff()
	}
	if len(s.Traffic) == 0 && !s.closed() {
		s.Traffic = d.Traffic
	}
	if len(s.Sizes) == 0 && !s.closed() {
		s.Sizes = d.Sizes
	}
	if len(s.Metrics) == 0 {
		s.Metrics = d.Metrics
	}
	if s.Precision != nil {
		// A copy: the caller's spec keeps what it said.
		p := *s.Precision
		if p.Metric == "" {
			p.Metric = string(Accepted)
			if s.closed() {
				p.Metric = string(ExecutionCycles)
			}
		}
		if p.MinSeeds == 0 {
			p.MinSeeds = min(DefaultMinSeeds, s.Seeds)
		}
		s.Precision = &p
	}
	s.Engine.Load, s.Engine.Seed = 0, 0
	return s
}

// closed reports whether the spec is closed-loop (it has a workload axis).
func (s Spec) closed() bool { return len(s.Workload) > 0 }

// Hash is the content hash of the spec, defaults filled in: 64 hex digits. Records
// carry it as provenance; record keys do not depend on it (two specs that share a
// point share its records).
func (s Spec) Hash() string {
	s = s.withDefaults()
	if s.presetScheme {
		// The preset's scheme curve by curve is not the same spec as a file's own
		// deadlock: [none]: it hashes as no deadlock axis (null).
		s.Deadlock = nil
	}
	b, err := json.Marshal(s)
	if err != nil {
		// A Spec holds strings, numbers and engine.Params, which always marshal; only
		// a non-finite load could fail, and hashing it is harmless.
		b = fmt.Appendf(nil, "%#v", s)
	}
	sum := sha256.Sum256(append([]byte("twintorus-spec\n"), b...))
	return hex.EncodeToString(sum[:])
}

// Curve is one line of a load sweep: a point with every axis fixed but the load.
type Curve struct {
	Index int    // position in the spec's expansion order
	Name  string // label, e.g. "twin:4x4x4/D bubble uniform"
	// Key identifies the curve's point without load and seed (16 hex digits); curves
	// of different specs with equal keys are the same curve.
	Key   string
	Point Point // canonical; Load and Seed are zero
}

// job is one simulation of a sweep: a curve at one load with one seed.
type job struct {
	curve int
	rep   int
	point Point // canonical, Load and Seed set
	key   string
}

// Validate checks the spec as ParseSpec does: every axis value, every combination,
// every engine parameter and the load axis, without running anything.
func (s Spec) Validate() error {
	_, err := s.Curves()
	return err
}

// Curves validates the spec and expands its axes into curves, in expansion order:
// topologies, then routing, deadlock, selection, tie, traffic and sizes, the last
// varying fastest.
func (s Spec) Curves() ([]Curve, error) {
	if s.closed() && (s.Loads.Values != nil || s.Loads.Auto != nil || s.PastSaturation != 0) {
		key := "loads"
		if s.PastSaturation != 0 {
			key = "past_saturation"
		}
		return nil, s.errAt(key, errClosedOnly)
	}
	s = s.withDefaults()
	if err := s.checkScalars(); err != nil {
		return nil, err
	}
	if len(s.Topologies) == 0 {
		return nil, s.errAt("topologies", errors.New("no topologies: list at least one, e.g. [twin:4x4x4/D]"))
	}
	// Topologies are parsed and sized here, and built one at a time below: a spec of
	// 16,000 tori once built and kept every network until its last curve was checked.
	// The machine's memory, read once: reading it for every point (a file and the
	// cgroup's) was a tenth of validating a spec.
	limit := int64(sysmem.Limit())
	if limit == 0 {
		limit = -1 // unknown: no limit, as engine.CheckSize takes it
	}
	specs := make([]topology.Spec, len(s.Topologies))
	seenTopo := make(map[string]int, len(s.Topologies))
	for i, t := range s.Topologies {
		spec, err := s.topology(t, limit)
		if err != nil {
			return nil, s.errAt(item("topologies", i), err)
		}
		if j, dup := seenTopo[spec.String()]; dup {
			return nil, s.errAt(item("topologies", i), fmt.Errorf("%s is listed twice (as topologies[%d])", spec, j))
		}
		seenTopo[spec.String()] = i
		specs[i] = spec
	}
	schemes := make([]routing.Scheme, len(s.Deadlock))
	for i, d := range s.Deadlock {
		v, err := routing.ParseScheme(d)
		if err != nil {
			return nil, s.errAt(item("deadlock", i), err)
		}
		if slices.Contains(schemes[:i], v) {
			return nil, s.errAt(item("deadlock", i), fmt.Errorf("%s is listed twice", v))
		}
		schemes[i] = v
	}
	ties := make([]routing.Tie, len(s.Tie))
	if len(ties) == 0 {
		ties = []routing.Tie{routing.TieDefault}
	}
	for i, x := range s.Tie {
		v, err := ParseTie(x)
		if err != nil {
			return nil, s.errAt(item("tie", i), err)
		}
		if slices.Contains(ties[:i], v) {
			return nil, s.errAt(item("tie", i), fmt.Errorf("%q is listed twice", x))
		}
		ties[i] = v
	}
	sizes := make([]string, len(s.Sizes))
	for i, z := range s.Sizes {
		v, err := traffic.ParseSizes(z)
		if err != nil {
			return nil, s.errAt(item("sizes", i), err)
		}
		if slices.Contains(sizes[:i], v.String()) {
			return nil, s.errAt(item("sizes", i), fmt.Errorf("%s is listed twice", v))
		}
		sizes[i] = v.String()
		// The largest load must be one the NICs can generate with these sizes.
		if _, err := traffic.NewInjection(s.maxLoad(), v, max(s.Engine.MeanPacketFlits(), 1)); err != nil {
			return nil, s.errAt(s.maxLoadKey(), fmt.Errorf("with sizes %s: %w", v, err))
		}
	}
	routes := s.Routing
	if len(routes) == 0 {
		routes = []string{""}
	}
	for i, r := range s.Routing {
		if strings.TrimSpace(r) == "" {
			return nil, s.errAt(item("routing", i), errors.New("empty routing name: accepted are dor and dort, or leave routing out for the family's default"))
		}
	}

	var loops []closedAxis
	if s.closed() {
		var err error
		if loops, err = s.closedAxes(); err != nil {
			return nil, err
		}
	}
	var curves []Curve
	seen := map[string]int{}
	for ti, spec := range specs {
		net, err := topology.Build(spec)
		if err != nil {
			return nil, s.errAt(item("topologies", ti), err)
		}
		patterns := make([]string, len(s.Traffic))
		for i, tr := range s.Traffic {
			pat, err := traffic.ParsePattern(tr, net)
			if err != nil {
				return nil, s.errAt(item("traffic", i), fmt.Errorf("on %s: %w", net, err))
			}
			if slices.Contains(patterns[:i], pat.Name()) {
				return nil, s.errAt(item("traffic", i), fmt.Errorf("%s is listed twice", pat.Name()))
			}
			patterns[i] = pat.Name()
		}
		for ri, r := range routes {
			name := routing.Canonical(r)
			if name == "" {
				name = routing.Default(net)
			}
			schemes := schemes
			if s.presetScheme {
				pre, err := engine.LookupPreset(s.Preset)
				if err != nil {
					return nil, s.errAt("switch", err)
				}
				scheme, err := PresetScheme(pre, net, name)
				if err != nil {
					return nil, s.errAt(item("routing", ri), err)
				}
				schemes = []routing.Scheme{scheme}
			}
			// The tie rules this routing applies on this network, each once.
			var rules []routing.Tie
			for _, x := range ties {
				if r := routing.ResolveTie(name, net, x); !slices.Contains(rules, r) {
					rules = append(rules, r)
				}
			}
			rts := make([]routing.Func, len(schemes))
			for i, scheme := range schemes {
				rt, err := routing.New(name, net, scheme, routing.TiePlus)
				if err != nil {
					return nil, s.errAt(item("routing", ri), err)
				}
				rts[i] = rt
			}
			for di, scheme := range schemes {
				selections, err := s.selections(rts[di])
				if err != nil {
					return nil, err
				}
				for _, sel := range selections {
					for _, rule := range rules {
						// The traffic axes (open loop) or the workload axes (closed loop), with
						// the key to blame when the point does not build.
						type variant struct {
							p     Point
							where string
						}
						var variants []variant
						for _, pat := range patterns {
							for _, sz := range sizes {
								variants = append(variants, variant{Point{Traffic: pat, Sizes: sz}, item("deadlock", di)})
							}
						}
						for i, c := range loops {
							variants = append(variants, variant{Point{Workload: c.workload, Mapping: c.mapping, TraceSHA256: c.trace,
								FlitBytes: s.FlitBytes, LocalCycles: s.LocalCycles}, item("workload", i/len(s.Mapping))})
						}
						// The points of one routing, scheme and tie share their routing:
						// it is built once (a twisted torus's or a large KNS's takes seconds).
						var rt routing.Func
						for _, v := range variants {
							p := v.p
							p.Topology, p.Routing, p.Selection, p.Deadlock, p.Tie, p.Params = net.String(), name, sel, scheme.String(), rule.String(), s.Engine
							if s.presetVOQ && routing.Selects(rts[di]) {
								p.VOQ = false // PresetVOQ
							}
							key := p.Key()
							if j, dup := seen[key]; dup {
								return nil, s.errAt(item("routing", ri), fmt.Errorf("%s is the same curve as %s", curveName(p), curves[j].Name))
							}
							err := p.checkBuilt(net, &rt, limit)
							if err != nil {
								where := "engine"
								if !s.has(where) || p.ClosedLoop() {
									where = v.where
								}
								msg := strings.TrimPrefix(err.Error(), "engine: ")
								return nil, s.errAt(where, fmt.Errorf("%s: %s", curveName(p), msg))
							}
							seen[key] = len(curves)
							curves = append(curves, Curve{Index: len(curves), Name: curveName(p), Key: key[:16], Point: p})
						}
					}
				}
			}
		}
	}
	if s.Loads.Auto == nil && len(curves)*len(s.loadValues())*s.Seeds > MaxJobs {
		return nil, s.errAt("loads", fmt.Errorf("%d curves × %d loads × %d seeds is more than %d simulations", len(curves), len(s.loadValues()), s.Seeds, MaxJobs))
	}
	return curves, nil
}

// selections are the canonical selection functions of the spec's selection axis for
// a routing: each resolved against the routing's default, or just "" for a routing
// that offers one candidate per hop.
func (s Spec) selections(rt routing.Func) ([]string, error) {
	if !routing.Selects(rt) {
		return []string{""}, nil
	}
	list := s.Selection
	if len(list) == 0 {
		list = []string{""}
	}
	out := make([]string, 0, len(list))
	for i, v := range list {
		sel, err := routing.ParseSelection(v)
		if err != nil {
			return nil, s.errAt(item("selection", i), err)
		}
		c := sel.Resolve(rt).String()
		if slices.Contains(out, c) {
			return nil, s.errAt(item("selection", i), fmt.Errorf("%s is listed twice for routing %s", c, rt.Name()))
		}
		out = append(out, c)
	}
	return out, nil
}

// topology parses a topology of the spec, and refuses it unbuilt when a run on it
// could not fit in the engine or this machine's memory whatever its scheme.
func (s Spec) topology(topo string, memoryLimit int64) (topology.Spec, error) {
	spec, err := topology.Parse(topo)
	if err != nil {
		return spec, err
	}
	// Other errors of the engine's parameters are reported with each curve.
	var size *engine.SizeError
	if err := engine.CheckSize(spec, Point{Workload: strings.Join(s.Workload, " "), Params: s.Engine}.engineParams(), routing.SchemeNone, memoryLimit); errors.As(err, &size) {
		return spec, size
	}
	return spec, nil
}

// checkScalars checks what needs no network: seeds, metrics and the load axis.
func (s Spec) checkScalars() error {
	if s.Seeds < 1 || s.Seeds > MaxSeeds {
		return s.errAt("seeds", fmt.Errorf("%d replications: accepted are 1 to %d", s.Seeds, MaxSeeds))
	}
	if s.Seed > math.MaxUint64-uint64(s.Seeds) {
		return s.errAt("seed", fmt.Errorf("seed %d + %d replications overflows 64 bits", s.Seed, s.Seeds))
	}
	// NaN passes every comparison: a tolerance of NaN would make no run saturated.
	if t := s.Engine.SaturationTolerance; !(t >= 0 && t < 1) {
		return s.errAt("engine.saturation_tolerance", fmt.Errorf("saturation tolerance %v: accepted is a number from 0 to 1, below 1 (default 0.02)", t))
	}
	for i, m := range s.Metrics {
		if _, ok := metricByName(m); !ok {
			return s.errAt(item("metrics", i), fmt.Errorf("unknown metric %q: accepted are %s", m, strings.Join(MetricNames(), ", ")))
		}
		if slices.Contains(s.Metrics[:i], m) {
			return s.errAt(item("metrics", i), fmt.Errorf("%s is listed twice", m))
		}
	}
	if err := s.checkPrecision(); err != nil {
		return err
	}
	if s.closed() {
		return s.checkClosedScalars()
	}
	if len(s.Mapping) > 0 || s.FlitBytes != 0 || s.LocalCycles != 0 {
		key := "mapping"
		if len(s.Mapping) == 0 {
			key = "flit_bytes"
			if s.FlitBytes == 0 {
				key = "local_cycles"
			}
		}
		return s.errAt(key, errors.New("applies to closed-loop specs only: give a workload axis, e.g. workload: bcast:binomial:512B"))
	}
	l := s.Loads
	switch {
	case s.PastSaturation < 0 || s.PastSaturation > MaxLoads:
		return s.errAt("past_saturation", fmt.Errorf("%d loads past saturation: accepted are 0 (run every load) to %d", s.PastSaturation, MaxLoads))
	case s.PastSaturation > 0 && l.Auto != nil:
		return s.errAt("past_saturation", errors.New("applies to a list of loads, not to an automatic search (which stops at saturation)"))
	case s.PastSaturation > 0 && !slices.IsSorted(l.Values):
		return s.errAt("loads", errors.New("with past_saturation the loads must ascend"))
	}
	switch {
	case l.Auto != nil && l.Values != nil:
		return s.errAt("loads", errors.New("both a list of loads and an automatic search: choose one"))
	case l.Auto != nil:
		a := l.Auto
		switch {
		case !(a.From > 0) || math.IsInf(a.From, 0):
			return s.errAt("loads.auto.from", fmt.Errorf("first load %v: accepted is a number above 0", a.From))
		case !(a.Step > 0) || math.IsInf(a.Step, 0):
			return s.errAt("loads.auto.step", fmt.Errorf("step %v: accepted is a number above 0", a.Step))
		case !(a.Max >= a.From) || math.IsInf(a.Max, 0):
			return s.errAt("loads.auto.max", fmt.Errorf("largest load %v: accepted is a finite number at least from (%v)", a.Max, a.From))
		case a.Refine < 0 || a.Refine > 30:
			return s.errAt("loads.auto.refine", fmt.Errorf("%d bisection steps: accepted are 0 to 30", a.Refine))
		case (a.Max-a.From)/a.Step > MaxLoads:
			return s.errAt("loads.auto.step", fmt.Errorf("from %v to %v by %v is more than %d loads", a.From, a.Max, a.Step, MaxLoads))
		}
	case len(l.Values) == 0:
		return s.errAt("loads", errors.New("empty load axis: list offered loads in flits/cycle/PE, e.g. [0.1, 0.2, 0.3], or search with {auto: {from: 0.05, step: 0.05}}"))
	case len(l.Values) > MaxLoads:
		return s.errAt("loads", fmt.Errorf("%d loads: at most %d", len(l.Values), MaxLoads))
	default:
		for i, v := range l.Values {
			if !(v > 0) || math.IsInf(v, 0) {
				return s.errAt(item("loads", i), fmt.Errorf("offered load %v: accepted is a finite number above 0 flits/cycle/PE", v))
			}
			if slices.Contains(l.Values[:i], v) {
				return s.errAt(item("loads", i), fmt.Errorf("load %v is listed twice", v))
			}
		}
	}
	return nil
}

// checkPrecision checks the precision target of a spec whose defaults are filled in.
func (s Spec) checkPrecision() error {
	p := s.Precision
	if p == nil {
		return nil
	}
	m, ok := metricByName(p.Metric)
	if !ok {
		return s.errAt("precision.metric", fmt.Errorf("unknown metric %q: accepted are %s", p.Metric, strings.Join(MetricNames(), ", ")))
	}
	// A closed-loop metric is NaN in every open-loop run: the target could never be
	// met, and every point would silently run every seed.
	if !s.closed() && math.IsNaN(m.get(&engine.Result{})) {
		return s.errAt("precision.metric", fmt.Errorf("%s is a closed-loop metric, NaN in every run of a spec without a workload axis: judge an open-loop one such as accepted", p.Metric))
	}
	fraction := func(key string, v float64, what string) error {
		if !(v > 0) || math.IsInf(v, 0) {
			return s.errAt("precision."+key, fmt.Errorf("%s %v: accepted is a finite number above 0 (%s)", key, v, what))
		}
		return nil
	}
	// A key given as 0 is a target of 0, refused as such, not a key left out.
	relative, absolute := p.Relative != 0 || s.has("precision.relative"), p.Absolute != 0 || s.has("precision.absolute")
	switch {
	case relative && absolute:
		return s.errAt("precision", errors.New("both relative and absolute: give one"))
	case relative:
		if err := fraction("relative", p.Relative, "the half-width as a fraction of |mean|, e.g. 0.01"); err != nil {
			return err
		}
	case absolute:
		if err := fraction("absolute", p.Absolute, "the half-width in the metric's unit, e.g. 0.002"); err != nil {
			return err
		}
	default:
		return s.errAt("precision", errors.New("no target: give relative (the 95 % CI half-width as a fraction of |mean|, e.g. 0.01) or absolute (in the metric's unit, e.g. 0.002)"))
	}
	if s.Seeds < 2 {
		return s.errAt("seeds", fmt.Errorf("%d replication with a precision target: accepted are 2 or more (the most a point runs)", s.Seeds))
	}
	if p.MinSeeds < 2 || p.MinSeeds > s.Seeds {
		return s.errAt("precision.min_seeds", fmt.Errorf("%d replications: accepted are 2 to seeds (%d)", p.MinSeeds, s.Seeds))
	}
	return nil
}

// batches are the replication counts at which a point's precision is judged: min,
// 2·min, ... and Seeds. Without a target, one batch of Seeds.
func (s Spec) batches() []int {
	if s.Precision == nil {
		return []int{s.Seeds}
	}
	var out []int
	for n := s.Precision.MinSeeds; ; n += s.Precision.MinSeeds {
		if n >= s.Seeds {
			return append(out, s.Seeds)
		}
		out = append(out, n)
	}
}

func (s Spec) maxLoad() float64 {
	if s.Loads.Auto != nil {
		return s.Loads.Auto.Max
	}
	return slices.Max(s.Loads.Values)
}

func (s Spec) maxLoadKey() string {
	if s.Loads.Auto != nil {
		return "loads.auto.max"
	}
	return item("loads", slices.Index(s.Loads.Values, s.maxLoad()))
}

// jobs expands curves at fixed loads into simulations, in canonical order: curve,
// then load as listed, then replication.
func (s Spec) jobs(curves []Curve) []job {
	var jobs []job
	for _, c := range curves {
		for _, load := range s.loadValues() {
			jobs = append(jobs, s.jobsAt(c, load)...)
		}
	}
	return jobs
}

// loadValues is the fixed load axis; a closed-loop spec runs each curve once, at no load.
func (s Spec) loadValues() []float64 {
	if s.closed() {
		return []float64{0}
	}
	return s.Loads.Values
}

// jobsAt is the replications of one curve at one load.
func (s Spec) jobsAt(c Curve, load float64) []job { return s.repsAt(c, load, 0, s.Seeds) }

// repsAt is replications from to to−1 of one curve at one load.
func (s Spec) repsAt(c Curve, load float64, from, to int) []job {
	jobs := make([]job, 0, to-from)
	for r := from; r < to; r++ {
		p := c.Point
		p.Load, p.Seed = load, s.Seed+uint64(r)
		jobs = append(jobs, job{curve: c.Index, rep: r, point: p, key: p.Key()})
	}
	return jobs
}

// curveName labels a curve by what usually varies: topology, deadlock scheme and
// traffic, then sizes, tie rule and routing when they are not the defaults.
func curveName(p Point) string {
	parts := []string{p.Topology, p.Deadlock, p.Traffic}
	if p.ClosedLoop() {
		parts[2] = p.Workload
		if p.Mapping != workload.Linear {
			parts = append(parts, "mapping "+p.Mapping)
		}
	} else if p.Sizes != "1" {
		parts = append(parts, "sizes "+p.Sizes)
	}
	if p.Tie != "plus" && p.Tie != "" { // "": the routing's own
		parts = append(parts, "tie "+p.Tie)
	}
	if def := defaultRouting(p.Topology); p.Routing != def && def != "" {
		parts = append(parts, p.Routing)
	}
	if p.Selection != "" {
		parts = append(parts, p.Selection)
	}
	return strings.Join(parts, " ")
}

// defaultRouting is the routing a topology spec's family names (routing.Default
// without building the network), or "" when it names none.
func defaultRouting(topo string) string {
	spec, err := topology.Parse(topo)
	if err != nil {
		return ""
	}
	f, _ := topology.LookupFamily(string(spec.Family))
	return f.Routing
}

func item(key string, i int) string { return key + "[" + strconv.Itoa(i) + "]" }

// sequential reports whether each curve's loads run one after another, the next
// depending on what the last showed: an automatic search, or past_saturation.
func (s Spec) sequential() bool { return s.Loads.Auto != nil || s.PastSaturation > 0 }

// planned reports whether the spec's simulations are known before it runs: not under
// a load walk (sequential) nor a precision target, where results decide.
func (s Spec) planned() bool { return !s.sequential() && s.Precision == nil }
