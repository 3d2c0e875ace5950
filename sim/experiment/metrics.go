package experiment

import (
	"math"

	"github.com/twintorus/twintorus/sim/engine"
)

// metric is one number read from a run's result, summarised over replications.
type metric struct {
	name string
	get  func(*engine.Result) float64
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// metrics are the metrics a spec may ask for, by CSV column name. Flags (saturated,
// deadlocked, stationary) summarise as the share of replications that raised them.
var metrics = []metric{
	{"offered", func(r *engine.Result) float64 { return r.Offered }},
	{"accepted", func(r *engine.Result) float64 { return r.Accepted }},
	{"latency_network_mean", func(r *engine.Result) float64 { return r.LatencyNetwork.Mean }},
	{"latency_network_p50", func(r *engine.Result) float64 { return r.LatencyNetwork.P50 }},
	{"latency_network_p90", func(r *engine.Result) float64 { return r.LatencyNetwork.P90 }},
	{"latency_network_p99", func(r *engine.Result) float64 { return r.LatencyNetwork.P99 }},
	{"latency_network_max", func(r *engine.Result) float64 { return r.LatencyNetwork.Max }},
	{"latency_e2e_mean", func(r *engine.Result) float64 { return r.LatencyE2E.Mean }},
	{"latency_e2e_p50", func(r *engine.Result) float64 { return r.LatencyE2E.P50 }},
	{"latency_e2e_p90", func(r *engine.Result) float64 { return r.LatencyE2E.P90 }},
	{"latency_e2e_p99", func(r *engine.Result) float64 { return r.LatencyE2E.P99 }},
	{"latency_e2e_max", func(r *engine.Result) float64 { return r.LatencyE2E.Max }},
	{"latency_message_mean", func(r *engine.Result) float64 { return r.LatencyMessage.Mean }},
	{"latency_message_p50", func(r *engine.Result) float64 { return r.LatencyMessage.P50 }},
	{"latency_message_p90", func(r *engine.Result) float64 { return r.LatencyMessage.P90 }},
	{"latency_message_p99", func(r *engine.Result) float64 { return r.LatencyMessage.P99 }},
	{"latency_message_max", func(r *engine.Result) float64 { return r.LatencyMessage.Max }},
	{"hops", func(r *engine.Result) float64 { return r.Hops }},
	{"internal_hops", func(r *engine.Result) float64 { return r.InternalHops }},
	{"adaptive_hops_share", func(r *engine.Result) float64 { return r.AdaptiveHopsShare }},
	{"escape_hops_share", func(r *engine.Result) float64 { return r.EscapeHopsShare }},
	{"saturated", func(r *engine.Result) float64 { return b2f(r.Saturated) }},
	{"deadlocked", func(r *engine.Result) float64 { return b2f(r.Deadlock != nil) }},
	{"flit_hops", func(r *engine.Result) float64 { return float64(r.FlitHops) }},
	{"packets_generated", func(r *engine.Result) float64 { return float64(r.PacketsGenerated) }},
	{"packets_delivered", func(r *engine.Result) float64 { return float64(r.PacketsDelivered) }},
	{"external_util_mean", func(r *engine.Result) float64 { return r.ExternalUtilMean }},
	{"external_util_max", func(r *engine.Result) float64 { return r.ExternalUtilMax }},
	{"internal_util_mean", func(r *engine.Result) float64 { return r.InternalUtilMean }},
	{"internal_util_max", func(r *engine.Result) float64 { return r.InternalUtilMax }},
	{"stationary", stationarity(func(s *engine.Stationarity) float64 { return b2f(s.Stationary) })},
	{"stationary_windows", stationarity(func(s *engine.Stationarity) float64 { return float64(s.Windows) })},
	{"stationary_drift", stationarity(func(s *engine.Stationarity) float64 { return s.Drift })},
	// Closed-loop runs (NaN for open-loop ones).
	{"execution_cycles", closed(func(c *engine.ClosedLoop) float64 {
		if c.ExecutionCycles < 0 { // the run stopped (a deadlock) before the program ended
			return math.NaN()
		}
		return float64(c.ExecutionCycles)
	})},
	// Per flit (per cell on the EXTOLL card), open and closed loop (flitLatency).
	{"latency_network_flit_mean", flitLatency(func(s engine.Stats) float64 { return s.Mean })},
	{"latency_network_flit_p99", flitLatency(func(s engine.Stats) float64 { return s.P99 })},
	{"latency_e2e_flit_mean", closed(func(c *engine.ClosedLoop) float64 { return c.LatencyE2EFlit.Mean })},
	{"latency_e2e_flit_p99", closed(func(c *engine.ClosedLoop) float64 { return c.LatencyE2EFlit.P99 })},
	{"switch_utilisation", closed(func(c *engine.ClosedLoop) float64 { return c.SwitchUtilisation })},
	{"switch_utilisation_max", closed(func(c *engine.ClosedLoop) float64 { return c.SwitchUtilisationMax })},
	{"messages", closed(func(c *engine.ClosedLoop) float64 { return float64(c.Messages) })},
	{"local_messages", closed(func(c *engine.ClosedLoop) float64 { return float64(c.LocalMessages) })},
	{"bytes", closed(func(c *engine.ClosedLoop) float64 { return float64(c.Bytes) })},
}

// closed reads a closed-loop metric, NaN for an open-loop result.
func closed(get func(*engine.ClosedLoop) float64) func(*engine.Result) float64 {
	return func(r *engine.Result) float64 {
		if r.Closed == nil {
			return math.NaN()
		}
		return get(r.Closed)
	}
}

// flitLatency reads the network latency per flit: a closed-loop run's from its
// ClosedLoop (the whole run, as records made before open-loop runs measured it have
// it), an open-loop run's from the window; NaN for a record that did not measure it
// (an open-loop record made before it was measured) or delivered no flit.
func flitLatency(get func(engine.Stats) float64) func(*engine.Result) float64 {
	return func(r *engine.Result) float64 {
		s := r.LatencyNetworkFlit
		if r.Closed != nil {
			s = r.Closed.LatencyNetworkFlit
		}
		if s.Count == 0 {
			return math.NaN()
		}
		return get(s)
	}
}

// stationarity reads a figure of the stationarity check, NaN for a run without it
// (the check off, a closed-loop run, a record made before the check existed).
func stationarity(get func(*engine.Stationarity) float64) func(*engine.Result) float64 {
	return func(r *engine.Result) float64 {
		if r.Stationarity == nil {
			return math.NaN()
		}
		return get(r.Stationarity)
	}
}

// MetricNames lists the metrics a spec may ask for.
func MetricNames() []string {
	names := make([]string, len(metrics))
	for i, m := range metrics {
		names[i] = m.name
	}
	return names
}

// DefaultMetrics are summarised when a spec names none: traffic, mean latencies,
// hops and the share of saturated replications.
func DefaultMetrics() []string {
	return []string{"offered", "accepted", "latency_network_mean", "latency_e2e_mean", "hops", "saturated"}
}

// DefaultClosedMetrics are summarised when a closed-loop spec names none: execution
// time, mean network and end-to-end latency per packet and per flit, switch
// utilisation and messages.
func DefaultClosedMetrics() []string {
	return []string{"execution_cycles", "latency_network_mean", "latency_e2e_mean", "latency_network_flit_mean",
		"latency_e2e_flit_mean", "switch_utilisation", "messages"}
}

func metricByName(name string) (metric, bool) {
	for _, m := range metrics {
		if m.name == name {
			return m, true
		}
	}
	return metric{}, false
}

// Metric reads a named metric from a result: ok is false for an unknown name.
func Metric(r *engine.Result, name string) (v float64, ok bool) {
	m, ok := metricByName(name)
	if !ok || r == nil {
		return 0, false
	}
	return m.get(r), true
}
