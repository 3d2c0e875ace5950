// Package routing owns the routing functions of twintorus: which output port, which
// virtual channel and whether the bubble condition applies, for a packet at a switch.
//
// DOR (tori, meshes) and DORT (nDT twin tori) are defined here once, and both the
// engine and the exact analyses use them, so a path counted by the analysis is the path
// the engine takes. Routings are one table, Routings(): New, Default and the help
// texts read it, and each network family names its routing there by name.
//
// For networks of any shape (from a topology.Builder or a file): Minimal (min,
// adaptive), UpDown (up*/down*), Table (a user's table, from a file or a Go function),
// and Escape, which makes any of them (and DOR) deadlock-free with an up*/down* escape
// VC.
//
// The package reads topology.Network and never simulates.
package routing
