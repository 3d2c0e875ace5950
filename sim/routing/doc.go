// Package routing owns the routing functions of twintorus: which output port, which
// virtual channel and whether the bubble condition applies, for a packet at a switch.
//
// DOR (tori, meshes) and DORT (nDT twin tori) are defined here once, and both the
// engine and the exact analyses use them, so a path counted by the analysis is the path
// the engine takes. Routings are one table, Routings(): New, Default and the help
// texts read it, and each network family names its routing there by name.
//
// Duato is fully adaptive routing on tori, meshes and nDT twin tori (paper (b)'s
// Algorithm 1 on twin tori) with DOR/DORT as its escape: "adaptive" under the vc and
// bubble schemes. The selection functions that pick among its candidates (ref, rr,
// nointernal, 2prio, 3prio, first, random, minfirst) are Selections(), parsed by ParseSelection.
//
// HyperX and Slim Fly have their own: hxdor and dal (Ahn et al.'s dimensionally
// adaptive, load-balanced routing, with the minfirst selection function), sfmin,
// sfval and sfugal (MIN, Valiant, and UGAL-L between the two at the source router, a
// Chooser). dal, sfmin, sfval and sfugal put a packet's h-th hop on VC h (hop
// classes), reading h from the VC it arrived on.
//
// For networks of any shape (from a topology.Builder or a file): Minimal (min, and
// adaptive under the escape scheme), UpDown (up*/down*), Table (a user's table, from a
// file or a Go function), and Escape, which makes any of them (and DOR) deadlock-free
// with an up*/down* escape VC.
//
// The package reads topology.Network and never simulates.
package routing
