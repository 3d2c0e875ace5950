package experiment

import (
	"fmt"

	"github.com/twintorus/twintorus/sim/engine"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// PresetScheme is the deadlock scheme of a run of the named routing (empty: the
// network's default) on net with switch preset pre, when the run names none: the
// preset's scheme where the routing is deadlock-free under it on this network, else
// the routing's own default (RoutingDef.DefaultScheme, what the run would have without
// the preset).
//
// A preset's scheme is its paper's: none for the kns and cswitch presets, whose
// routings (Hybrid-DOR, DESTRO, flattened-butterfly DOR; DOR on a mesh) need none.
// Taken everywhere, it ran DOR on tori and twin tori without any, and
// `twintorus run torus:8x8 --switch kns --load 1` deadlocked (issue 39): a preset never
// turns deadlock avoidance off where the network needs it.
func PresetScheme(pre engine.Preset, net *topology.Network, routingName string) (routing.Scheme, error) {
	name := routing.Canonical(routingName)
	if name == "" {
		name = routing.Default(net)
	}
	def, _, ok := routing.LookupRouting(name)
	if !ok {
		return 0, fmt.Errorf("unknown routing %q: accepted are %s", routingName, routing.Accepted())
	}
	own := def.DefaultScheme(net)
	if pre.Deadlock == "" {
		return own, nil
	}
	scheme, err := routing.ParseScheme(pre.Deadlock)
	if err != nil || scheme == own {
		return own, err
	}
	if rt, err := routing.New(name, net, scheme, routing.TiePlus); err == nil && declaredFree(rt) {
		return scheme, nil
	}
	return own, nil
}
