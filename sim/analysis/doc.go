// Package analysis owns the exact, simulation-free analyses of twintorus networks:
// distances, DOR transit-path counts of nDT twin tori, the exhaustive search over port
// configurations, and uniform-traffic channel-load bounds.
//
// Conventions, which the papers state only partly:
//
//   - Distance is the number of switch-to-switch links a message crosses between two
//     PEs; the internal link of an nDT node counts as a hop and the PE links do not.
//     Two PEs on the same switch are at distance 0.
//   - Average distance is reported two ways. AvgDistance averages over the N·(N−1)
//     ordered pairs of distinct PEs. AvgDistanceInclSelf divides the same sum by N²,
//     counting each PE's pair with itself at distance 0: the thesis introduction and
//     the 2D-torus formula Σ k_i/4 use this one.
//   - Transit paths (nDT, node level) are ordered source–destination node pairs whose
//     DOR route passes through a node without starting or ending there. R[in][out]
//     counts them per input and output port, ports indexed as in topology.Config:
//     2d for d+ and 2d+1 for d−. A packet moving in the + direction enters a node
//     through its d− port. Under translation symmetry every node has the same R.
//   - Channel loads are PE level: every PE sends to every other PE along the route of
//     routing.DOR (DORT on twin tori), one route per ordered pair. A channel is one
//     direction of a link, named by the port the route leaves through.
//
// The package reads topology.Network and routing functions and never simulates; it
// does not modify either. LoadOfWorkload counts the flits a closed-loop workload (a
// collective, a trace) puts on each channel and NIC under a deterministic routing, per
// step and in all: bounds on its execution time, and whether the network or the NICs
// limit it (on one core). The other analyses spread their work over all cores, and
// results do not depend on the number of cores: workers only add integers. The deadlock
// checks belong here too:
// cdg.go for DOR and DORT with their rings (bubble flow control), routecheck.go for any
// routing function, adaptive and escape routings included (CheckRouting,
// RequireDeadlockFree: Duato's condition, with bubble rings and, for escapes that let
// packets return, the extended dependency graph). zeroload.go gives the exact zero-load
// route lengths of a routing with a selection function, and follow.go walks the route
// of a worked example. bisection.go bounds a network's bisection (the family's formula,
// the Laplacian's spectral bound and a cut found) and cost.go prices a network with the
// KNS paper's cost model.
package analysis
