// Package experiment owns experiments as data: a Point is one simulation (topology,
// routing, deadlock scheme, traffic, engine parameters, seed), and the sweep machinery
// built on it runs many points with replications on every core or on Slurm, keeps
// their results in a resumable store, and summarises them with confidence intervals.
//
// It builds engines from topology, routing and traffic; it never changes how a run
// behaves.
//
// # Specs
//
// A Spec is an experiment: axes that expand into curves, shared engine parameters, a
// load axis, replications and the metrics to summarise. In YAML (ParseSpec, ReadSpec):
//
//	name: fig7                               # a label
//	topologies: [twin:4x4x4/A, twin:4x4x4/D] # topology spec strings
//	routing: [dort, adaptive]                # optional: routing.Routings() names; default by family
//	deadlock: [bubble, vc]                   # default bubble
//	selection: [rr, 3prio]                   # selection functions of adaptive routings; default theirs
//	tie: plus                                # at distance k/2: plus, minus or mirror; default the routing's (mirror for tsdor, plus otherwise)
//	traffic: uniform                         # traffic.Grammar patterns; default uniform
//	sizes: ["1", "70%x1,30%x3"]              # message sizes in packets; default 1
//	engine:                                  # engine.Params by YAML name; default engine.Defaults()
//	  warmup: 5000
//	  measure: 20000
//	  stationary_batches: 10                 # check the window's accepted traffic does not drift; 0: no check
//	  stationary_tolerance: 0.02             # drift allowed beyond the batches' noise
//	  stationary_windows: 4                  # windows measured at most (a drifting one becomes warm-up)
//	loads: [0.05, 0.1, 0.15]                 # offered loads, flits/cycle/PE
//	past_saturation: 3                       # stop a curve 3 loads after its first saturated one; default 0: every load
//	seeds: 30                                # replications per point (the most, with precision); default 1
//	seed: 1                                  # replication r runs with seed seed+r; default 1
//	precision:                               # optional: stop adding seeds to a point once precise enough
//	  metric: accepted                       # judged; default accepted (execution_cycles closed-loop)
//	  relative: 0.01                         # 95 % CI half-width <= 1 % of |mean|; or absolute: 0.002
//	  min_seeds: 5                           # the fewest, and the batch; default 5 (seeds if fewer)
//	metrics: [accepted, latency_network_mean] # summarised; default DefaultMetrics()
//
// Every axis takes one value or a list. The curves are the product of the axes, in the
// order above (selection after deadlock, since whether a routing selects depends on
// its scheme; a routing that offers one candidate per hop makes one curve whatever
// the selection axis lists), the last varying fastest; each curve runs at every load with every
// seed. Instead of a list, the load axis may be a saturation search:
//
//	loads:
//	  auto: {from: 0.05, step: 0.05, max: 1, refine: 3}
//
// which climbs from `from` by `step` until at least half of a load's replications
// saturate, then bisects `refine` times between the last load below saturation and
// the first above (see AutoSearch). With a list, past_saturation N runs each curve's
// loads in ascending order and stops it N loads after the first at which at least half
// of the replications saturated: the points deep in saturation, the costliest and the
// least telling, are left out. Decoding is strict: an unknown key, a key given
// twice, a value of the wrong type, an empty list, an unknown topology, pattern or
// metric, an impossible combination (dort on a torus, bubble without virtual
// cut-through) or an empty load axis is a *SpecError with file, line and key, found
// before anything runs.
//
// A spec may start from a BookSim2 configuration file instead (package booksim,
// docs/booksim.md): booksim: PATH, relative to the spec's directory, fills
// topologies, routing, deadlock, traffic, sizes, loads, seed and the engine block
// from the file, each unless the spec gives it itself (engine keys one by one). It
// excludes switch:. The key is not kept: a spec written out holds the values it
// filled, and hashes by them.
//
// # Closed-loop specs
//
// A spec with a workload axis runs closed-loop workloads (docs/traces.md) instead of
// traffic at loads:
//
//	topologies: [torus:8x8x4, twin:4x4x2x2x2/cbest]
//	deadlock: [vc, bubble]
//	workload: [bcast:binomial:16B, alltoall:pairwise:512B, trace:t.trace.gz, graph500]
//	mapping: [linear, random/2]              # default linear; random draws from the seed
//	flit_bytes: 16                           # bytes per flit; default 16
//	local_cycles: 0                          # a message between tasks of one PE; default 0
//	seeds: 30
//
// Its curves are the product of topologies, routing, deadlock, tie, workload and
// mapping; each runs once per seed, at no load. traffic, sizes, loads and
// past_saturation do not apply, and the default metrics are DefaultClosedMetrics
// (execution_cycles and the rest). A trace's SHA-256 is part of its points' keys.
//
// # Replications and summaries
//
// Replication r of every point runs with engine seed Seed+r: curves share their seeds
// (common random numbers), and a point's seeds do not depend on what else the spec
// holds. Summarize groups records by curve and load and gives, per metric, the mean,
// the sample standard deviation and the 95 % confidence interval of the mean with
// Student's t (gonum's stat and distuv); replications where a metric is NaN (no packet
// delivered) are left out of its N. A curve's saturation load is the lowest load at
// which at least half of the replications saturated (Result.Saturated); its
// saturation throughput is the highest mean accepted traffic over its loads, with
// that load's confidence interval (Saturations). A run's window is checked for
// stationarity (engine.Stationarity; docs/model.md): Summarize counts the replications
// that were not stationary and those not checked, a point with one that was not is
// NotSteady, and Saturations leave such points out.
//
// Without precision every point runs seeds replications, as the papers' 30 do. With
// a precision block (Precision) a point first runs min_seeds replications (seeds Seed
// to Seed+min_seeds−1, so curves still share their seeds), then min_seeds more per
// round, all open points' batches of a round in parallel, until the 95 % half-width of
// the metric is at most relative·|mean| (or absolute) or seeds is reached. Exactly one
// of relative and absolute is given; min_seeds is 2 to seeds. Replications where the
// metric is NaN do not count towards min_seeds: a point with fewer than min_seeds
// values to judge goes on to seeds. The decision reads only the point's own earlier
// seeds, so a sweep makes the same simulations, records and tables whatever the
// worker count, however often it is interrupted and resumed, and whatever else the
// store holds (seeds past the point's stop are left out of Results.Records). Points
// then have their own N: Summarize, the summary tables' n column and the saturation
// rule (at least half of that point's replications) take it as it is. Under
// past_saturation or a load search each load is replicated under the target before
// the curve moves on, and whether it saturated is judged on the replications it ran.
// Closed-loop specs judge execution_cycles by default; an open-loop spec may not
// judge a closed-loop metric (NaN in every run).
//
// # Results store
//
// Run stores one Record per (point, seed) in a directory (Store): a JSON file named by
// the point's content hash, Point.Key, holding the point, seed, the hash of the spec
// that made it, the project version (internal/version), ModelVersion, the
// engine.Result and a SHA-256 of the record. The spec itself is stored once per
// store, in DIR/specs (RecordFormat; the first format, RecordFormatV1, embedded the
// spec in every record, and still reads). Files are written to a temporary name,
// synced and renamed, so a crash never leaves a partial record under a real name; a
// record that is truncated, altered or misnamed fails its checksum or key check, and
// a sweep recomputes it while Load lists it rather than merging it. Named pipes and
// other files that are not regular are never opened for reading: a sweep recomputes
// the record, Load skips them. A re-run finds what is stored and runs only the rest,
// so a sweep killed at any moment loses only the simulations in flight; a sweep that
// finds everything stored writes nothing, so a complete store may be read-only.
//
// The key hashes the canonical point (canonical topology, routing, scheme, tie,
// pattern and sizes strings; load and seed included) and ModelVersion. It leaves out
// the spec, so specs that share points share records, and the project version, so a
// release that does not change the model keeps its results: bump ModelVersion when a
// change alters results. Fields at their zero value are left out of the hash, so a new
// engine parameter whose zero value keeps the old behaviour keeps every key.
//
// # Running
//
// Run runs a spec on a pool of Options.Workers goroutines (one per CPU by default).
// A run is deterministic, and records are ordered by the spec, not by completion, so
// results and tables are identical whatever the worker count. Options.Progress
// reports (done, total) for progress bars (under a load search, past_saturation or a
// precision target, total is the most the run may still make: it shrinks, and equals
// done at the end), e.g. in a notebook cell
//
//	bar := kernel.NewProgress("fig7")
//	res, err := experiment.Run(ctx, spec, experiment.Options{Out: "results/fig7", Progress: bar.Update})
//	bar.Finish()
//
// and a terminal bar in the CLI; cancelling the context stops the run with every
// finished record kept, whether it is simulating or still reading the store. With an automatic load search, the curves' searches advance together, one
// load per round, and the round's replications of every curve run in parallel.
//
// # Slurm
//
// Options.Shard runs one share of a sweep, as one task of a Slurm job array does;
// SlurmJob writes the job array's sbatch script (task i of N runs shard i/N into the
// shared store) and SubmitSlurm submits it. Every path and option in the script is
// quoted for sbatch's #SBATCH reader and for bash, or refused (control characters). Simulation i of a sweep with fixed loads,
// in canonical order, belongs to shard i mod N; under a precision target, point i
// (curve, then load) does, with all its seeds; with a load search or past_saturation,
// curve i does.
//
// # Tables
//
// WriteCSV (and parquetfile.Write, a package of its own so that notebooks do not link
// the Parquet library) write one row per record (Row: the point's axes, load, seed and
// the result's figures; not wall time), sorted canonically so that equal sweeps give
// byte-identical files. WriteSummaryCSV and WriteSaturationCSV write the
// summaries. For notebooks, Load reads a store and Lines turns summaries into one
// line per curve with plain fields (load, mean, CI low and high) for the plots
// package.
package experiment
