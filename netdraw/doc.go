// Package netdraw draws twintorus' networks with what happens on them: every channel
// coloured and sized by its load, from the channel-load analysis (Bound) or from a
// simulation's measured utilisation (engine.Result.ChannelUtil), or as frames of a run
// over time (engine.Params.ChannelFrames), so a hot spot's congestion can be watched.
//
// It owns the layouts, which need to know the networks (Lay): grids and tori in the
// plane with wraparound links as stubs leaving the edge, higher dimensions as small
// multiples (a panel per plane), twin tori with their two cards and internal link,
// k-ary n-trees and KNS hybrids by level, flattened butterflies on their grid with arcs
// over each line, and any other network (files, anynet, TCT) by a force-directed
// layout (gonum's Eades layout, seeded so that a network is always drawn the same
// way). Drawing is package plots' NetworkPlot, which knows nothing of networks; the
// kernel shows one inline (kernel.ShowNetwork) or a run's frames with a slider
// (kernel.ShowNetworkFrames):
//
//	net := topology.MustNew("twin:4x4x4/D")
//	l, _ := analysis.Load(ctx, routing.NewDOR(net, routing.TiePlus))
//	loads, _ := netdraw.Bound(l, net, 1) // flits/cycle at 1 flit/cycle/PE offered
//	kernel.ShowNetwork(netdraw.Draw(net, netdraw.Options{Loads: loads}))
//
// It sits above the simulator (sim/...) and plots, beside figures: plots and kernel
// import nothing of the simulator.
package netdraw
