// Package claims is the registry of the papers' claims that twintorus reproduces, and
// the code that judges each one from the stored results, so that no verdict is typed.
//
// The registry is one YAML file per paper in this directory (tr.yaml, th.yaml, dl.yaml,
// ext.yaml, ndt.yaml, ar.yaml, cs.yaml, kns.yaml, tt.yaml, tct.yaml), so that one paper's
// claims are edited without touching another's. A claim names:
//
//   - the paper's numbers it is about, by id of datasets/reference/*.csv (refs);
//   - the stored runs it reads (data: experiment spec names, whose full runs are in
//     datasets/results) and the quantities it computes from them (let: saturation
//     throughput, a metric at a load, a plateau past saturation, a closed-loop metric,
//     a channel-load bound or average hops from sim/analysis, a column of a stored CSV,
//     and ratios, changes, reductions and differences of these). Curves are selected by
//     their point's fields (topology, routing, deadlock, traffic, selection, workload,
//     packet_flits ...), never by record or curve key, so a re-run under new keys
//     still finds its curves; a selector that matches no curve, or several, is an error;
//   - the comparison (expect, or several under checks): a value or range within a
//     tolerance, a sign, an order of several values (with their confidence intervals
//     telling a reversal from noise), every value of a set above every value of
//     another, or an exact result that a named Go test asserts; a claim whose "%" may
//     be relative or percentage points evaluates both readings (readings) and says
//     which one fits;
//   - the diagnosis of a claim that does not hold: a cause that is itself a check on
//     computed quantities (a bound, a stored run), shown with its evidence only when
//     that check holds; without one the verdict says the cause is not established.
//
// Evaluate computes every claim (or those a Filter keeps): the value, the paper's
// value, the verdict (holds, partly, does not hold, not run) and the diagnosis. Table
// lays the results out for kernel.Table in a notebook; README renders the comparison
// table of the project's README.md, which a test holds equal to the registry's output
// (go run ./tools/claims -write README.md regenerates it).
//
// The package reads stored results through package figures (which reads them through
// package datasets) and computes bounds with sim/analysis; nothing here runs a
// simulation.
package claims
