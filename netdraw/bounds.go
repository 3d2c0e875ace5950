package netdraw

import (
	"context"
	"fmt"
	"strings"

	"github.com/twintorus/twintorus/plots"
	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// BoundsBeside draws the networks specs name side by side, every channel coloured and
// sized by its load under uniform traffic routed by dimension-order routing (DOR, DORT
// on twin tori, ties at k/2 in the + direction: the channel-load analysis of `twintorus
// analyze` and nb.ChannelLoad), on one scale in flits/cycle. All are loaded at the rate
// that fills the first network's busiest channel (its ChannelBound), so the first's
// worst channel is at 1 flit/cycle and the others show how far from saturating they
// are then. Each is titled with its busiest internal and external channel's routes and
// its bound; internal links are drawn with a dark casing, so A's and D's compare at a
// glance:
//
//	kernel.ShowNetwork(netdraw.BoundsBeside(ctx, "twin:4x4x4/A", "twin:4x4x4/D"))
func BoundsBeside(ctx context.Context, specs ...string) (plots.NetworkPlot, error) {
	if len(specs) == 0 {
		return plots.NetworkPlot{}, fmt.Errorf("netdraw: BoundsBeside needs at least one network spec, e.g. twin:4x4x4/A")
	}
	nets := make([]*topology.Network, len(specs))
	loads := make([]*analysis.ChannelLoad, len(specs))
	for i, spec := range specs {
		net, err := topology.New(spec)
		if err != nil {
			return plots.NetworkPlot{}, fmt.Errorf("netdraw: %w", err)
		}
		if !fitsDOR(net) {
			return plots.NetworkPlot{}, fmt.Errorf("netdraw: %s: dimension-order routing (dor, dort) does not route it; BoundsBeside draws tori, meshes and twin tori", spec)
		}
		l, err := analysis.Load(ctx, routing.NewDOR(net, routing.TiePlus))
		if err != nil {
			return plots.NetworkPlot{}, fmt.Errorf("netdraw: %s: %w", spec, err)
		}
		nets[i], loads[i] = net, l
	}
	rate := loads[0].ChannelBound
	ps := make([]plots.NetworkPlot, len(specs))
	var bounds []string
	for i, net := range nets {
		ld, err := Bound(loads[i], net, rate)
		if err != nil {
			return plots.NetworkPlot{}, err
		}
		title := fmt.Sprintf("%s: busiest %d routes", specs[i], loads[i].MaxRoutes)
		if net.IsTwin() {
			title = fmt.Sprintf("%s: internal %d, external %d routes", specs[i], loads[i].MaxInternal, loads[i].MaxExternal)
		}
		bounds = append(bounds, fmt.Sprintf("%s %.4f", specs[i], loads[i].Bound))
		if ps[i], err = Draw(net, Options{Title: title, Loads: ld}); err != nil {
			return plots.NetworkPlot{}, err
		}
	}
	p, err := plots.Beside(fmt.Sprintf("DOR, uniform traffic at %.4f flits/cycle/PE; bounds %s", rate, strings.Join(bounds, ", ")), ps...)
	if err != nil {
		return plots.NetworkPlot{}, err
	}
	p.Unit = "channel load (flits/cycle)"
	return p, nil
}

// fitsDOR reports whether dor or dort routes net.
func fitsDOR(net *topology.Network) bool {
	for _, name := range []string{"dor", "dort"} {
		if def, _, ok := routing.LookupRouting(name); ok && def.Fits(net) == nil {
			return true
		}
	}
	return false
}
