// Package figures turns twintorus results into the figures and tables of the
// notebooks: curves of one metric against another (latency against accepted traffic,
// accepted traffic against offered load) from experiment summaries, with their 95 %
// confidence intervals; the papers' conventions of colour and line for configurations
// and deadlock schemes; and tables that put a paper's claim beside what was measured.
//
// The figure functions go from results to a plot in one call, for kernel.Show:
// Latency (network latency against accepted traffic), Throughput (accepted against
// offered traffic) and Plot (any metric against another), with options that choose
// curves, names, styles and the title. They take any Summarized: a notebook's Results
// (stored, quick or recomputed, or several experiments joined) or a sweep a cell ran.
// SaturationTable and the lookups (Saturation, At, Last, Plateau) feed tables and claims.
//
// The papers' collective tables (ExtollCollectives, NDTCollectives) pair the stored
// closed-loop runs with the papers' cells under CollectiveOptions, the choices the papers
// leave open: the AllGather algorithm and the 5DT's tie rule. The stored collective loads
// (CollectiveLoadOf, from sim/analysis) and AllGatherGrowth set the evidence for the
// AllGather beside the papers' numbers.
//
// It reads sim/experiment summaries and datasets references, and builds plots values;
// it runs only the quick and recomputed experiments it is asked for, and displays
// nothing (package kernel displays).
package figures
