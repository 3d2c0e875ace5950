// Package datasets holds the data the notebooks show beside the simulator's own
// results.
//
// This package owns the papers' numbers: reference/*.csv, one row per value
// printed in (or evaluated from) one of the source papers, each with its
// provenance (paper, figure or table, seeds file and line, and the shortest
// verbatim phrase that contains it). References loads one file;
// ReferenceNames lists them; Find, Filter and Lookup help notebooks pick rows.
//
// The sources, with their keys (docs/references.md gives each in full): [TR] the 3DT
// technical report, [J] its journal version, [DL] the deadlock paper, [Th] the thesis
// introduction, [nDT] the n-dimensional twin torus paper, [EXT] the paper on nDT tori
// of EXTOLL cards (5dt-extoll.csv: its Tables 2 and 3, collectives on the 3D and 5DT
// tori of 256, 512 and 1,024 PEs), [AR] "Adaptive routing for n-Dimensional Twin torus"
// (called paper (b), the EXTOLL paper being paper (a)) and [CS] the C-switch paper (the
// last seven inside the thesis text), [KNS] the k-ary n-direct s-indirect paper, [TT]
// the twisted tori paper (Cámara et al., IEEE TPDS) and [TCT] the torus-connected
// toroids paper (Bossard, Computers 2023). kns.csv also holds the KNS paper's list
// prices (Tables 5-7), which its cost model (analysis.Cost) prices networks with.
// Twisted tori are named by their spec (twisted:rtt:16 is the 32×16 RTT), TCTs by
// tct:N,K and Tofus by tofu:K. Configuration letters are always the report's A-J; the
// thesis' Table 1.1 labels A/B/C are the report's A/C/D, and rows taken from it say so.
//
// Topology is a spec string (twin:4x4x4/D, torus:16x8); it names no
// configuration when the value holds for several (twin:5x5x5 with
// Configuration "D G"), and is empty when the paper gives no sizes.
//
// Kinds of row:
//
//   - exact: a number the paper prints as the result of a computation
//     (a table cell, a count, an average distance);
//   - formula: a paper's formula evaluated at the row's topology (the quote is
//     the formula as printed);
//   - measured: a number printed in a table of simulation results;
//   - claim: a statement about simulation or analysis results, possibly
//     qualitative (Value, Low and High may all be NaN);
//   - table: a table cell whose row the PDF extraction ran together without
//     separators ([TCT] Tables 2 and 3: "357501733246" is n = 3, k = 5, order 750,
//     length 17, Tofu k = 3, 324, 6); the quote is the whole row, and the value's
//     digits are in it.
//
// The files experiments/*.yaml and results/ belong to the experiment runner,
// not to this package's reference data. The claims registry (claims/*.yaml) and its
// evaluator are package datasets/claims, which sits above the simulator's packages; this
// package imports none of them.
package datasets
