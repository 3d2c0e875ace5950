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

// PresetVOQ reports whether a run of routing rt with switch preset pre has virtual
// output queues when it does not set them itself: the preset's, where the routing
// gives one port per hop. The engine routes each packet once, when it reaches a
// switch, into the queue of its output port; a routing with a choice (Duato's
// adaptive routing) selects among its candidates when the packet leaves instead, which
// virtual output queues cannot hold, so its runs keep first-in first-out input VCs
// (docs/model.md, the EXTOLL-style card). The extoll preset's VOQ thus applies to DOR,
// DORT and TSDOR, not to the adaptive 3D torus.
func PresetVOQ(pre engine.Preset, rt routing.Func) bool {
	return pre.Params().VOQ && !routing.Selects(rt)
}

// PresetVOQFor is PresetVOQ for the named routing (empty: the network's default) on
// net under scheme, building the routing; a routing that does not build keeps the
// preset's VOQ, and the run reports the routing's error.
func PresetVOQFor(pre engine.Preset, net *topology.Network, routingName string, scheme routing.Scheme) bool {
	if !pre.Params().VOQ {
		return false
	}
	name := routing.Canonical(routingName)
	if name == "" {
		name = routing.Default(net)
	}
	rt, err := routing.New(name, net, scheme, routing.TiePlus)
	if err != nil {
		return true
	}
	return PresetVOQ(pre, rt)
}
