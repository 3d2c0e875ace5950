// Package splitmix owns the one SplitMix64 (Steele, Lea and Flood, OOPSLA 2014) that the
// engine and the routing functions share: a counter-based hash for draws that must not
// depend on the order of other draws (packet lengths, per-packet salts) and a tiny
// generator for per-switch streams (the random selection function).
package splitmix
