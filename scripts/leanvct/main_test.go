package main

import (
	"math"
	"testing"
)

// TestSimulatesTheTorus holds the experiment to the network it claims to simulate:
// below saturation it carries the offered load, and its packets take DOR's mean
// distance, counted here by enumeration (ties + as in the papers).
func TestSimulatesTheTorus(t *testing.T) {
	const k, load = 8, 0.2
	r := run(k, load, 2000, 10000)
	if math.Abs(r.accepted-load)/load > 0.02 {
		t.Errorf("accepted %.4f flits/cycle/PE, offered %.2f", r.accepted, load)
	}
	ring := 0 // hops from 0 to every digit of a ring of k, + on ties
	for d := 0; d < k; d++ {
		ring += min(d, k-d)
	}
	n := k * k * k
	mean := 3 * float64(ring) / k * float64(n) / float64(n-1) // destinations other than the source
	if got := float64(r.flitHops/L) / float64(r.delivered); math.Abs(got-mean)/mean > 0.02 {
		t.Errorf("%.3f hops per delivered packet, DOR's mean distance is %.3f", got, mean)
	}
	// zero-load latency: injection and each hop cost the link and routing delays, the
	// last flit L-1 more
	if zero := (mean+1)*(lat+rd) + L - 1; r.meanLatency < zero-1 {
		t.Errorf("mean latency %.2f below the zero-load %.2f", r.meanLatency, zero)
	}
}
