// Package figures turns twintorus results into the figures and tables of the
// notebooks: curves of one metric against another (latency against accepted traffic,
// accepted traffic against offered load) from experiment summaries, with their 95 %
// confidence intervals; the papers' conventions of colour and line for configurations
// and deadlock schemes; and tables that put a paper's claim beside what was measured.
//
// It reads sim/experiment summaries and datasets references, and builds plots values;
// it runs nothing and displays nothing (package kernel displays).
package figures
