package experiment

import (
	"math"
	"slices"
	"testing"
)

// TestMetricNamesCoverEveryMetric: each metric runs report has a typed name, and each
// typed name is a metric.
func TestMetricNamesCoverEveryMetric(t *testing.T) {
	typed := []MetricName{Offered, Accepted, LatencyNetworkMean, LatencyNetworkP50, LatencyNetworkP90, LatencyNetworkP99,
		LatencyNetworkMax, LatencyE2EMean, LatencyE2EP50, LatencyE2EP90, LatencyE2EP99, LatencyE2EMax, LatencyMessageMean,
		LatencyMessageP50, LatencyMessageP90, LatencyMessageP99, LatencyMessageMax, Hops, InternalHops, AdaptiveHopsShare, EscapeHopsShare, Saturated, Deadlocked, FlitHops,
		PacketsGenerated, PacketsDelivered, ExternalUtilMean, ExternalUtilMax, InternalUtilMean, InternalUtilMax,
		Stationary, StationaryWindows, StationaryDrift,
		ExecutionCycles, LatencyNetworkFlitMean, LatencyNetworkFlitP99, LatencyE2EFlitMean, LatencyE2EFlitP99,
		SwitchUtilisation, SwitchUtilisationMax, Messages, LocalMessages, Bytes}
	var names []string
	for _, m := range typed {
		if !m.Known() {
			t.Errorf("%q is not a metric", m)
		}
		names = append(names, string(m))
	}
	if !slices.Equal(names, MetricNames()) {
		t.Errorf("typed names %v\ndiffer from MetricNames %v", names, MetricNames())
	}
	if MetricName("latency").Known() {
		t.Error(`"latency" is known`)
	}
}

func TestHalfWidthAndEstimate(t *testing.T) {
	e := Estimated([]float64{1, 2, 3, 4})
	// mean 2.5, sd 1.291, t(0.975, 3) = 3.182: half-width 2.054
	if h := e.HalfWidth(); math.Abs(h-2.0542) > 1e-3 || math.Abs(e.Mean+h-e.High) > 1e-12 {
		t.Errorf("HalfWidth = %v for %+v", h, e)
	}
	if h := Estimated([]float64{5}).HalfWidth(); !math.IsNaN(h) {
		t.Errorf("one replication: HalfWidth = %v, want NaN", h)
	}
	s := Summary{Estimates: map[string]Estimate{"accepted": e}}
	if got, ok := s.Estimate(Accepted); !ok || got != e {
		t.Errorf("Estimate(Accepted) = %+v, %v", got, ok)
	}
	if _, ok := s.Estimate(Hops); ok {
		t.Error("Estimate(Hops) found a metric the summary lacks")
	}
}
