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
	Routing       string `yaml:"routing" json:"routing"`
	Deadlock      string `yaml:"deadlock" json:"deadlock"` // vc, bubble, escape or none
	Tie           string `yaml:"tie" json:"tie"`           // plus (default) or minus: DOR at distance k/2
	Traffic       string `yaml:"traffic" json:"traffic"`   // a traffic.Grammar pattern
	Sizes         string `yaml:"sizes" json:"sizes"`       // message sizes in packets (traffic.SizesGrammar); empty: 1
	engine.Params `yaml:",inline" json:",inline"`
}

// NewPoint is a Point with the MODEL.md defaults: bubble flow control, uniform traffic,
// one-packet messages and engine.Defaults().
func NewPoint(topology string, load float64) Point {
	p := Point{Topology: topology, Deadlock: "bubble", Tie: "plus", Traffic: "uniform", Params: engine.Defaults()}
	p.Load = load
	return p
}

// ParseTie reads "plus" or "minus".
func ParseTie(s string) (routing.Tie, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "plus", "+":
		return routing.TiePlus, nil
	case "minus", "-":
		return routing.TieMinus, nil
	}
	return 0, fmt.Errorf("unknown tie rule %q: accepted are plus and minus", s)
}

// Build checks the point and makes its engine.
func (p Point) Build() (*engine.Engine, error) {
	net, err := topology.New(p.Topology)
	if err != nil {
		return nil, err
	}
	scheme, err := routing.ParseScheme(p.Deadlock)
	if err != nil {
		return nil, err
	}
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
	if def, _, _ := routing.LookupRouting(name); def.Checked && scheme == routing.SchemeNone {
		// Not deadlock-free by construction: refuse a cycle before the first cycle runs.
		if err := analysis.RequireDeadlockFree(context.Background(), net, rt); err != nil {
			return nil, err
		}
	}
	pat, err := traffic.ParsePattern(p.Traffic, net)
	if err != nil {
		return nil, err
	}
	var sizes traffic.Sizes
	if strings.TrimSpace(p.Sizes) != "" {
		if sizes, err = traffic.ParseSizes(p.Sizes); err != nil {
			return nil, err
		}
	}
	return engine.New(engine.Config{Net: net, Routing: rt, Pattern: pat, Sizes: sizes, Params: p.Params})
}

// Run builds and runs the point.
func (p Point) Run(ctx context.Context) (*engine.Result, error) {
	e, err := p.Build()
	if err != nil {
		return nil, err
	}
	return e.Run(ctx)
}
