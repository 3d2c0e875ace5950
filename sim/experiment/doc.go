// Package experiment owns experiments as data: a Point is one simulation (topology,
// routing, deadlock scheme, traffic, engine parameters, seed), and the sweep machinery
// built on it runs many points with replications on every core or on Slurm, keeps
// their results in a resumable store, and summarises them with confidence intervals.
//
// It builds engines from topology, routing and traffic; it never changes how a run
// behaves.
package experiment
