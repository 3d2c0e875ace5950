package experiment

import (
	"context"
	"fmt"
	"strings"

	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/engine"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/traffic"
)

// Point is one simulation, as data: everything that determines its result. The same
// Point and seed give the same result, bit for bit.
type Point struct {
	Topology string `yaml:"topology" json:"topology"`
	// Routing is a routing.Routings name (dor, dort, min, adaptive, updown,
	// table:PATH); empty picks the network's default (routing.Default).
	Routing string `yaml:"routing" json:"routing"`
	// Selection is the selection function of a routing that offers several candidates
	// (routing.ParseSelection: rr, nointernal, 2prio, 3prio, ref, first, random, with
	// options); empty picks the routing's default (3prio for adaptive on twin tori).
	Selection string `yaml:"selection,omitempty" json:"selection,omitempty"`
	Deadlock  string `yaml:"deadlock" json:"deadlock"` // vc, bubble, escape or none
	// Tie is the tie rule at distance k/2 in even rings (routing.ParseTie): plus,
	// minus or mirror; empty is the routing's own, mirror for tsdor and plus for the
	// others. A spec's points name it resolved (routing.ResolveTie).
	Tie     string `yaml:"tie" json:"tie"`
	Traffic string `yaml:"traffic" json:"traffic"` // a traffic.Grammar pattern
	Sizes   string `yaml:"sizes" json:"sizes"`     // message sizes in packets (traffic.SizesGrammar); empty: 1
	// Workload, when set, is a closed-loop workload (workload.Grammar) run to its end
	// instead of Traffic and Sizes at a Load; see ClosedLoop.
	Workload string `yaml:"workload,omitempty" json:"workload,omitempty"`
	// Mapping places the workload's tasks on PEs (workload.ParseMapping: linear or
	// random, with tasks per PE as in random/2); empty is linear, one task per PE.
	Mapping string `yaml:"mapping,omitempty" json:"mapping,omitempty"`
	// FlitBytes is the bytes per flit that cut a workload's messages into flits; 0 is
	// workload.DefaultFlitBytes (16).
	FlitBytes int `yaml:"flit_bytes,omitempty" json:"flit_bytes,omitempty"`
	// LocalCycles is what a message between two tasks of one PE costs (0).
	LocalCycles int64 `yaml:"local_cycles,omitempty" json:"local_cycles,omitempty"`
	// TraceSHA256 is the content hash of a trace workload, set when a spec expands:
	// the record key follows the trace's content, not its path, and a run refuses a
	// trace that changed since.
	TraceSHA256   string `yaml:"trace_sha256,omitempty" json:"trace_sha256,omitempty"`
	engine.Params `yaml:",inline" json:",inline"`
}

// NewPoint is a Point with the model's defaults (docs/model.md): bubble flow control,
// the routing's own tie rule, uniform traffic, one-packet messages and
// engine.Defaults().
func NewPoint(topology string, load float64) Point {
	p := Point{Topology: topology, Deadlock: "bubble", Traffic: "uniform", Params: engine.Defaults()}
	p.Load = load
	return p
}

// ParseTie reads a tie rule: plus, minus, mirror, or empty for the routing's own
// (routing.ParseTie).
func ParseTie(s string) (routing.Tie, error) { return routing.ParseTie(s) }

// Build checks the point and makes its engine. A run too big for the engine or for
// this machine's memory is refused before its network is built.
func (p Point) Build() (*engine.Engine, error) { return p.BuildLimited(0) }

// BuildLimited is Build with a memory limit for the run's estimated footprint, as
// engine.Config.MemoryLimit: 0 is this machine's memory, a negative value no limit.
func (p Point) BuildLimited(memoryLimit int64) (*engine.Engine, error) {
	cfg, err := p.config(memoryLimit)
	if err != nil {
		return nil, err
	}
	return engine.New(cfg)
}

// Check checks the point as Build does, without allocating the engine, nor building
// a closed-loop collective's programs.
func (p Point) Check() error {
	net, rt, err := p.network(0)
	if err != nil {
		return err
	}
	return p.checkOn(net, rt, 0)
}

// checkBuilt is Check on a network built already, with the routing *rt when it is
// not nil, else one it builds and leaves in *rt for the next point of the same
// routing, scheme and tie, under a memory limit as engine.Config.MemoryLimit.
func (p Point) checkBuilt(net *topology.Network, rt *routing.Func, memoryLimit int64) error {
	scheme, err := p.checkSize(net.Spec(), memoryLimit)
	if err != nil {
		return err
	}
	if *rt == nil {
		if *rt, err = p.routingOn(net, scheme); err != nil {
			return err
		}
	}
	return p.checkOn(net, *rt, memoryLimit)
}

// checkOn is Check on the point's network and routing, built already (a spec's
// validation builds each network and routing once for all its points).
func (p Point) checkOn(net *topology.Network, rt routing.Func, memoryLimit int64) error {
	if p.ClosedLoop() {
		if err := p.checkProgram(net); err != nil {
			return err
		}
		return engine.CheckClosedLoop(engine.Config{Net: net, Routing: rt, Params: p.Params, MemoryLimit: memoryLimit})
	}
	cfg, err := p.engineConfig(net, rt, memoryLimit)
	if err != nil {
		return err
	}
	return engine.Check(cfg)
}

// config checks the point and makes what its engine is built from.
func (p Point) config(memoryLimit int64) (engine.Config, error) {
	net, rt, err := p.network(memoryLimit)
	if err != nil {
		return engine.Config{}, err
	}
	return p.engineConfig(net, rt, memoryLimit)
}

// network checks the point's size and builds its network and routing.
func (p Point) network(memoryLimit int64) (*topology.Network, routing.Func, error) {
	spec, err := topology.Parse(p.Topology)
	if err != nil {
		return nil, nil, err
	}
	scheme, err := p.checkSize(spec, memoryLimit)
	if err != nil {
		return nil, nil, err
	}
	net, err := topology.Build(spec)
	if err != nil {
		return nil, nil, err
	}
	rt, err := p.routingOn(net, scheme)
	if err != nil {
		return nil, nil, err
	}
	return net, rt, nil
}

// checkSize refuses a point too big for the engine or the memory limit before its
// network is built, and returns its deadlock scheme.
func (p Point) checkSize(spec topology.Spec, memoryLimit int64) (routing.Scheme, error) {
	scheme, err := routing.ParseScheme(p.Deadlock)
	if err != nil {
		return 0, err
	}
	return scheme, engine.CheckSize(spec, p.engineParams(), scheme, memoryLimit)
}

// routingOn builds the point's routing on its network under a deadlock scheme and
// refuses one that is not deadlock-free.
func (p Point) routingOn(net *topology.Network, scheme routing.Scheme) (routing.Func, error) {
	tie, err := ParseTie(p.Tie)
	if err != nil {
		return nil, err
	}
	name := p.Routing
	if name == "" {
		name = routing.Default(net)
	}
	rt, err := routing.New(name, net, scheme, tie)
	if err != nil {
		return nil, err
	}
	if def, _, _ := routing.LookupRouting(name); def.Checked && (scheme == routing.SchemeNone || !declaredFree(rt)) {
		// Not deadlock-free by construction: refuse a cycle before the first cycle runs.
		if err := analysis.RequireDeadlockFree(context.Background(), net, rt); err != nil {
			return nil, err
		}
	}
	return rt, nil
}

// BuildWith makes the point's engine on a network and a routing of the caller's (a
// Builder's network, a routing.NewTable from a Go function); the point gives the
// traffic and the engine parameters, and its Topology, Routing, Deadlock and Tie are
// not used. A routing that is not deadlock-free by construction (its DeadlockFree
// method, when it has one, says so: DOR and DORT under vc or bubble, up*/down*,
// anything with the escape) must first pass analysis.RequireDeadlockFree, which
// names the cycle when it refuses.
func (p Point) BuildWith(net *topology.Network, rt routing.Func) (*engine.Engine, error) {
	if !declaredFree(rt) {
		if err := analysis.RequireDeadlockFree(context.Background(), net, rt); err != nil {
			return nil, err
		}
	}
	cfg, err := p.engineConfig(net, rt, 0)
	if err != nil {
		return nil, err
	}
	return engine.New(cfg)
}

// RunWith builds the point's engine with BuildWith and runs it.
func (p Point) RunWith(ctx context.Context, net *topology.Network, rt routing.Func) (*engine.Result, error) {
	e, err := p.BuildWith(net, rt)
	if err != nil {
		return nil, err
	}
	return e.Run(ctx)
}

// declaredFree reports whether a routing declares itself deadlock-free by construction.
func declaredFree(rt routing.Func) bool {
	df, ok := rt.(interface{ DeadlockFree() bool })
	return ok && df.DeadlockFree()
}

// engineConfig makes what the point's engine is built from, on a network and routing.
func (p Point) engineConfig(net *topology.Network, rt routing.Func, memoryLimit int64) (engine.Config, error) {
	cfg := engine.Config{Net: net, Routing: rt, Params: p.Params, MemoryLimit: memoryLimit}
	var err error
	if cfg.Selector, cfg.SelectOnce, err = p.selector(net, rt); err != nil {
		return cfg, err
	}
	if p.ClosedLoop() {
		return p.closedConfig(cfg)
	}
	if cfg.Pattern, err = traffic.ParsePattern(p.Traffic, net); err != nil {
		return cfg, err
	}
	if strings.TrimSpace(p.Sizes) != "" {
		if cfg.Sizes, err = traffic.ParseSizes(p.Sizes); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// selector makes the point's selection function for its routing: nil for the
// engine's own first-available rule, which is the default of the table routings.
func (p Point) selector(net *topology.Network, rt routing.Func) (routing.Selector, bool, error) {
	sel, err := routing.ParseSelection(p.Selection)
	if err != nil {
		return nil, false, err
	}
	if !routing.Selects(rt) {
		if sel.Name != "" {
			return nil, false, fmt.Errorf("selection %s: routing %s offers one candidate per hop, so no selection function applies; use adaptive routing", sel, rt.Name())
		}
		return nil, false, nil
	}
	sel = sel.Resolve(rt)
	if sel == (routing.Selection{Name: "first"}) {
		return nil, false, nil
	}
	s, err := sel.New(net, p.Seed)
	return s, sel.Once, err
}

// Run builds and runs the point.
func (p Point) Run(ctx context.Context) (*engine.Result, error) {
	e, err := p.Build()
	if err != nil {
		return nil, err
	}
	return e.Run(ctx)
}
