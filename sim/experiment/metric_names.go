package experiment

import "math"

// MetricName names a metric of a run's result (a CSV column, an entry of
// Summary.Estimates), so that code can say experiment.Accepted where a spec's YAML
// says accepted.
type MetricName string

// The metrics a spec may ask for (MetricNames lists them as strings).
const (
	Offered            MetricName = "offered"
	Accepted           MetricName = "accepted"
	LatencyNetworkMean MetricName = "latency_network_mean"
	LatencyNetworkP50  MetricName = "latency_network_p50"
	LatencyNetworkP90  MetricName = "latency_network_p90"
	LatencyNetworkP99  MetricName = "latency_network_p99"
	LatencyNetworkMax  MetricName = "latency_network_max"
	LatencyE2EMean     MetricName = "latency_e2e_mean"
	LatencyE2EP50      MetricName = "latency_e2e_p50"
	LatencyE2EP90      MetricName = "latency_e2e_p90"
	LatencyE2EP99      MetricName = "latency_e2e_p99"
	LatencyE2EMax      MetricName = "latency_e2e_max"
	LatencyMessageMean MetricName = "latency_message_mean"
	LatencyMessageP50  MetricName = "latency_message_p50"
	LatencyMessageP90  MetricName = "latency_message_p90"
	LatencyMessageP99  MetricName = "latency_message_p99"
	LatencyMessageMax  MetricName = "latency_message_max"
	Hops               MetricName = "hops"
	// InternalHops is internal-link crossings per packet; AdaptiveHopsShare and
	// EscapeHopsShare the shares of hops on adaptive and on escape channels.
	InternalHops      MetricName = "internal_hops"
	AdaptiveHopsShare MetricName = "adaptive_hops_share"
	EscapeHopsShare   MetricName = "escape_hops_share"
	// Saturated summarises as the share of replications that saturated.
	Saturated        MetricName = "saturated"
	Deadlocked       MetricName = "deadlocked"
	FlitHops         MetricName = "flit_hops"
	PacketsGenerated MetricName = "packets_generated"
	PacketsDelivered MetricName = "packets_delivered"
	ExternalUtilMean MetricName = "external_util_mean"
	ExternalUtilMax  MetricName = "external_util_max"
	InternalUtilMean MetricName = "internal_util_mean"
	InternalUtilMax  MetricName = "internal_util_max"
	// Stationary summarises as the share of the replications checked whose window
	// was stationary (engine.Stationarity; NaN for runs without the check);
	// StationaryWindows is the windows a run measured, StationaryDrift the trend of
	// its accepted traffic between the window's halves, relative to its mean.
	Stationary        MetricName = "stationary"
	StationaryWindows MetricName = "stationary_windows"
	StationaryDrift   MetricName = "stationary_drift"
	// LatencyNetworkFlitMean and LatencyNetworkFlitP99 are per flit (per cell on the
	// EXTOLL card), open and closed loop; see engine.Result.LatencyNetworkFlit.
	LatencyNetworkFlitMean MetricName = "latency_network_flit_mean"
	LatencyNetworkFlitP99  MetricName = "latency_network_flit_p99"
	// Closed-loop runs (NaN for open-loop ones); see engine.ClosedLoop.
	ExecutionCycles      MetricName = "execution_cycles"
	LatencyE2EFlitMean   MetricName = "latency_e2e_flit_mean"
	LatencyE2EFlitP99    MetricName = "latency_e2e_flit_p99"
	SwitchUtilisation    MetricName = "switch_utilisation"
	SwitchUtilisationMax MetricName = "switch_utilisation_max"
	Messages             MetricName = "messages"
	LocalMessages        MetricName = "local_messages"
	Bytes                MetricName = "bytes"
)

// Known reports whether m is a metric runs report.
func (m MetricName) Known() bool {
	_, ok := metricByName(string(m))
	return ok
}

// Estimate is the summary's estimate of metric m; ok is false when the summary does
// not hold m (its spec did not ask for it).
func (s Summary) Estimate(m MetricName) (e Estimate, ok bool) {
	e, ok = s.Estimates[string(m)]
	return e, ok
}

// HalfWidth is the half-width of the 95 % confidence interval, (High − Low)/2: the "±"
// of "mean ± half-width". It is NaN when there is no interval (fewer than two
// replications).
func (e Estimate) HalfWidth() float64 {
	if e.N < 2 || math.IsNaN(e.Low) || math.IsNaN(e.High) {
		return math.NaN()
	}
	return (e.High - e.Low) / 2
}
