package nb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/twintorus/twintorus/sim/experiment"
)

// DefaultSeeds is the number of replications per point a sweep runs unless Seeds says
// otherwise: the fewest that give a confidence interval with some width to it (the
// papers' figures use 30; the stored results do).
const DefaultSeeds = 3

// DefaultKnees is how many times a sweep bisects each curve's knee unless Knees says
// otherwise (experiment.RefineKnees): twice halves the interval to a quarter of a grid
// step, enough for the bend to show on a figure.
const DefaultKnees = 2

// pastSaturation is how many loads of the default grid a curve runs after its first
// saturated one: enough to show what the network keeps past saturation, without the
// costly points deep in it.
const pastSaturation = 2

// DefaultLoads is the load grid a sweep runs unless Loads says otherwise: 0.05 to 1
// flits/cycle/PE in steps of 0.05, each curve stopped two loads after its first
// saturated one. The grid reaches past the saturation of every network, since a PE
// injects at most 1 flit/cycle; the stop keeps the cost of the points past it low.
func DefaultLoads() []float64 {
	loads := make([]float64, 20)
	for i := range loads {
		loads[i] = float64(i+1) / 20
	}
	return loads
}

// DefaultStore is the results store of a sweep unless Store says otherwise:
// twintorus-sweeps in the temporary directory. Records are named by the content hash of
// their point and seed (experiment.Point.Key), so one store serves every sweep: a
// re-run finds its records and simulates nothing, and sweeps that share points share
// them.
func DefaultStore() string { return filepath.Join(os.TempDir(), "twintorus-sweeps") }

// An Option sets one thing about a sweep: an axis of its spec, its windows and
// replications, or where and how it runs. Later options override earlier ones. A
// slice of options is a sweep as data, which several cells can run:
//
//	var tour = []nb.Option{nb.Nets("twin:4x4x4/D", "torus:16x8"), nb.Seeds(5)}
//	res := nb.Sweep(tour...)
type Option struct {
	set func(*sweep) error
}

// sweep is a sweep's spec and how it runs, as the options left them.
type sweep struct {
	spec    experiment.Spec
	grid    bool // no Loads option: the default grid, with its stop past saturation
	knees   int
	store   string
	workers int
}

// listOption is an option that sets one of the spec's lists of names (networks, patterns,
// schemes, routings), refusing an empty list with an example of a full one.
func listOption(option, what, example string, field func(*sweep) *[]string, values []string) Option {
	return Option{func(s *sweep) error {
		if len(values) == 0 {
			return fmt.Errorf("%s: no %s, e.g. %s", option, what, example)
		}
		*field(s) = values
		return nil
	}}
}

// Nets names the networks to sweep, as topology spec strings (twintorus families
// lists them): twin:4x4x4/D, torus:16x8, mesh:8x8, ... Each is a curve (or one per
// value of the other axes).
func Nets(specs ...string) Option {
	return listOption("nb.Nets", "networks; name at least one", `nb.Nets("twin:4x4x4/D", "torus:16x8")`, func(s *sweep) *[]string { return &s.spec.Topologies }, specs)
}

// Traffic names the traffic patterns (traffic.Grammar: uniform, bitrev, complement,
// tornado, hotspot:F, ...); the default is uniform. Each is a curve per network.
func Traffic(patterns ...string) Option {
	return listOption("nb.Traffic", "patterns; name at least one", `nb.Traffic("uniform", "bitrev")`, func(s *sweep) *[]string { return &s.spec.Traffic }, patterns)
}

// Loads lists the offered loads in flits/cycle/PE, every one of which each curve runs
// (then each knee is bisected, see Knees). Without it a sweep runs DefaultLoads.
func Loads(loads ...float64) Option {
	return Option{func(s *sweep) error {
		if len(loads) == 0 {
			return errors.New("nb.Loads: no loads; list offered loads in flits/cycle/PE, e.g. nb.Loads(0.1, 0.2, 0.3)")
		}
		s.spec.Loads, s.grid = experiment.Fixed(loads...), false
		return nil
	}}
}

// Seeds sets the replications per point (DefaultSeeds without it): replication r runs
// with seed 1+r, the same on every point, so curves share their random numbers.
func Seeds(n int) Option {
	return Option{func(s *sweep) error {
		if n < 1 {
			return fmt.Errorf("nb.Seeds(%d): a point needs 1 replication or more (3 give a confidence interval; the papers ran 30)", n)
		}
		s.spec.Seeds = n
		return nil
	}}
}

// Deadlock names the deadlock schemes (bubble, vc, escape, none); the default is
// bubble flow control. Each is a curve per network.
func Deadlock(schemes ...string) Option {
	return listOption("nb.Deadlock", "schemes; name at least one of vc, bubble, escape and none", `nb.Deadlock("bubble", "vc")`, func(s *sweep) *[]string { return &s.spec.Deadlock }, schemes)
}

// Routing names the routings (dor, dort, adaptive, ..., as `twintorus help routing`
// lists them); the default is each network family's own (DORT on twin tori, DOR on
// tori and meshes). Each is a curve per network.
func Routing(names ...string) Option {
	return listOption("nb.Routing", "routings; name at least one", `nb.Routing("dor", "adaptive")`, func(s *sweep) *[]string { return &s.spec.Routing }, names)
}

// Window sets the cycles each simulation warms up and then measures (the model's 5000
// and 20000 without it). Short windows make a sweep quick and its intervals wide.
func Window(warmup, measure int64) Option {
	return Option{func(s *sweep) error {
		s.spec.Engine.Warmup, s.spec.Engine.Measure = warmup, measure
		return nil
	}}
}

// Knees sets how many times each curve's knee, the interval between its highest load
// that did not saturate and its first that did, is bisected after the loads have run
// (DefaultKnees without it; 0 runs the loads alone).
func Knees(steps int) Option {
	return Option{func(s *sweep) error {
		if steps < 0 {
			return fmt.Errorf("nb.Knees(%d): want 0 bisections or more", steps)
		}
		s.knees = steps
		return nil
	}}
}

// Store sets the results store directory (DefaultStore without it).
func Store(dir string) Option {
	return Option{func(s *sweep) error {
		if dir == "" {
			return errors.New("nb.Store: empty directory; name one, or leave the option out for the default store in the temporary directory")
		}
		s.store = dir
		return nil
	}}
}

// Workers sets how many simulations run at once (one per CPU without it). Results do
// not depend on it.
func Workers(n int) Option {
	return Option{func(s *sweep) error {
		if n < 0 {
			return fmt.Errorf("nb.Workers(%d): want 1 or more, or 0 for one per CPU", n)
		}
		s.workers = n
		return nil
	}}
}

// newSweep applies opts to the defaults and checks the spec they make.
func newSweep(opts []Option) (sweep, error) {
	s := sweep{spec: experiment.NewSpec(), grid: true, knees: DefaultKnees, store: DefaultStore()}
	s.spec.Seeds = DefaultSeeds
	for _, o := range opts {
		if o.set == nil {
			return s, errors.New("a zero nb.Option; make options with nb.Nets, nb.Loads, nb.Seeds, ...")
		}
		if err := o.set(&s); err != nil {
			return s, err
		}
	}
	if len(s.spec.Topologies) == 0 {
		return s, errors.New(`no networks to sweep; name them with nb.Nets, e.g. nb.Sweep(nb.Nets("twin:4x4x4/D", "torus:16x8"))`)
	}
	if s.grid {
		s.spec.Loads, s.spec.PastSaturation = experiment.Fixed(DefaultLoads()...), pastSaturation
	}
	if err := s.spec.Validate(); err != nil {
		return s, err
	}
	return s, nil
}

// Spec is the experiment spec Sweep runs with these options, for a cell that wants to
// print it or hand it to the library (experiment.Run, the command line's YAML).
// It panics on bad options, with what is accepted.
func Spec(opts ...Option) experiment.Spec {
	s, err := newSweep(opts)
	if err != nil {
		panic(fmt.Errorf("nb.Spec: %w", err))
	}
	return s.spec
}

// Sweep runs a sweep and returns its results, for Latency, Throughput, Saturation and
// the figures package. Without options other than Nets it runs every network under
// uniform traffic with bubble flow control and the model's engine parameters, over
// DefaultLoads with DefaultSeeds replications, and bisects each knee DefaultKnees
// times: experiment.RefineKnees on Spec(opts...). Records go to DefaultStore, so
// running the cell again simulates nothing. In a notebook a progress bar shows while
// simulations run (none when everything is stored).
//
// It panics on bad options, naming the bad value and what is accepted, and when a
// simulation fails.
func Sweep(opts ...Option) *experiment.Results {
	s, err := newSweep(opts)
	if err != nil {
		panic(fmt.Errorf("nb.Sweep: %w", err))
	}
	update, finish := bar(strings.Join(s.spec.Topologies, ", "))
	res, err := experiment.RefineKnees(context.Background(), s.spec,
		experiment.Options{Out: s.store, Workers: s.workers, Progress: update}, s.knees)
	finish()
	if err != nil {
		panic(fmt.Errorf("nb.Sweep: %w", err))
	}
	return res
}
