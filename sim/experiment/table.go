package experiment

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/sim/engine"
)

// Row is one record as a flat table row: the point's axes, its load and seed, and the
// result's figures. WriteCSV and parquetfile.Write write rows with these column names
// (the parquet tags); pandas, R and the plots read them. Wall time is left out, so that
// equal sweeps give equal tables.
type Row struct {
	Key         string `parquet:"key"`
	Curve       string `parquet:"curve"`
	CurveKey    string `parquet:"curve_key"`
	Topology    string `parquet:"topology"`
	Routing     string `parquet:"routing"`
	Selection   string `parquet:"selection"`
	Deadlock    string `parquet:"deadlock"` // the scheme; Deadlocked is the outcome
	Tie         string `parquet:"tie"`
	Traffic     string `parquet:"traffic"`
	Sizes       string `parquet:"sizes"`
	Switching   string `parquet:"switching"`
	PacketFlits int64  `parquet:"packet_flits"`
	// PacketLengths is fixed or uniform (engine.PacketLengths): with uniform lengths,
	// PacketFlits is the longest packet.
	PacketLengths string  `parquet:"packet_lengths"`
	Buffers       string  `parquet:"buffers"`
	Warmup        int64   `parquet:"warmup"`
	Measure       int64   `parquet:"measure"`
	Load          float64 `parquet:"load"`
	Seed          uint64  `parquet:"seed"`
	Replication   int64   `parquet:"replication"`

	Offered             float64 `parquet:"offered"`
	Accepted            float64 `parquet:"accepted"`
	LatencyNetworkMean  float64 `parquet:"latency_network_mean"`
	LatencyNetworkP50   float64 `parquet:"latency_network_p50"`
	LatencyNetworkP90   float64 `parquet:"latency_network_p90"`
	LatencyNetworkP99   float64 `parquet:"latency_network_p99"`
	LatencyNetworkMax   float64 `parquet:"latency_network_max"`
	LatencyNetworkCount int64   `parquet:"latency_network_count"`
	LatencyE2EMean      float64 `parquet:"latency_e2e_mean"`
	LatencyE2EP50       float64 `parquet:"latency_e2e_p50"`
	LatencyE2EP90       float64 `parquet:"latency_e2e_p90"`
	LatencyE2EP99       float64 `parquet:"latency_e2e_p99"`
	LatencyE2EMax       float64 `parquet:"latency_e2e_max"`
	LatencyMessageMean  float64 `parquet:"latency_message_mean"`
	LatencyMessageP50   float64 `parquet:"latency_message_p50"`
	LatencyMessageP90   float64 `parquet:"latency_message_p90"`
	LatencyMessageP99   float64 `parquet:"latency_message_p99"`
	LatencyMessageMax   float64 `parquet:"latency_message_max"`
	LatencyMessageCount int64   `parquet:"latency_message_count"`
	Hops                float64 `parquet:"hops"`
	InternalHops        float64 `parquet:"internal_hops"`
	AdaptiveHopsShare   float64 `parquet:"adaptive_hops_share"`
	EscapeHopsShare     float64 `parquet:"escape_hops_share"`
	Saturated           bool    `parquet:"saturated"`
	Deadlocked          bool    `parquet:"deadlocked"`
	FlitHops            int64   `parquet:"flit_hops"`
	Cycles              int64   `parquet:"cycles"`
	PacketsGenerated    int64   `parquet:"packets_generated"`
	PacketsDelivered    int64   `parquet:"packets_delivered"`
	ExternalUtilMean    float64 `parquet:"external_util_mean"`
	ExternalUtilMax     float64 `parquet:"external_util_max"`
	InternalUtilMean    float64 `parquet:"internal_util_mean"`
	InternalUtilMax     float64 `parquet:"internal_util_max"`
	// The stationarity check (engine.Stationarity): stationary is true or false, or
	// unknown for a run without the check (a record made before it existed, the check
	// off, a closed-loop run). The window measured is Measure cycles from
	// window_start, the last of windows (1 without the check); the drift and noise
	// of its accepted traffic (NaN when unknown), and its batches' accepted traffic,
	// separated by spaces.
	Stationary      string  `parquet:"stationary"`
	Windows         int64   `parquet:"windows"`
	WindowStart     int64   `parquet:"window_start"`
	StationaryDrift float64 `parquet:"stationary_drift"`
	StationaryNoise float64 `parquet:"stationary_noise"`
	BatchAccepted   string  `parquet:"batch_accepted"`

	// Closed-loop runs: the workload and mapping, and what they measured (NaN in the
	// rows of open-loop runs), except the network latency per flit, which open-loop
	// runs measure too (NaN in their records made before they did).
	Workload               string  `parquet:"workload"`
	Mapping                string  `parquet:"mapping"`
	ExecutionCycles        float64 `parquet:"execution_cycles"`
	LatencyNetworkFlitMean float64 `parquet:"latency_network_flit_mean"`
	LatencyE2EFlitMean     float64 `parquet:"latency_e2e_flit_mean"`
	SwitchUtilisation      float64 `parquet:"switch_utilisation"`
	SwitchUtilisationMax   float64 `parquet:"switch_utilisation_max"`
	Messages               float64 `parquet:"messages"`
	LocalMessages          float64 `parquet:"local_messages"`
	Bytes                  float64 `parquet:"bytes"`
}

// RowOf flattens a record.
func RowOf(r *Record) Row {
	p, res := r.Point, r.Result
	row := openRow(r)
	stationaryRow(&row, res.Stationarity)
	row.Workload, row.Mapping = p.Workload, p.Mapping
	for _, c := range []struct {
		dst  *float64
		name string
	}{{&row.ExecutionCycles, "execution_cycles"}, {&row.LatencyNetworkFlitMean, "latency_network_flit_mean"},
		{&row.LatencyE2EFlitMean, "latency_e2e_flit_mean"}, {&row.SwitchUtilisation, "switch_utilisation"},
		{&row.SwitchUtilisationMax, "switch_utilisation_max"}, {&row.Messages, "messages"},
		{&row.LocalMessages, "local_messages"}, {&row.Bytes, "bytes"}} {
		*c.dst, _ = Metric(res, c.name)
	}
	return row
}

// openRow flattens what every record has.
func openRow(r *Record) Row {
	p, res := r.Point, r.Result
	return Row{
		Key: r.Key, Curve: curveName(p), CurveKey: curveKeyOf(p),
		Topology: p.Topology, Routing: p.Routing, Selection: p.Selection, Deadlock: p.Deadlock, Tie: p.Tie, Traffic: p.Traffic, Sizes: p.Sizes,
		Switching: p.Switching.String(), PacketFlits: int64(p.PacketFlits), PacketLengths: p.PacketLengths.String(), Buffers: res.Buffers,
		Warmup: p.Warmup, Measure: p.Measure, Load: p.Load, Seed: p.Seed, Replication: int64(r.Replication),

		Offered: res.Offered, Accepted: res.Accepted,
		LatencyNetworkMean: res.LatencyNetwork.Mean, LatencyNetworkP50: res.LatencyNetwork.P50,
		LatencyNetworkP90: res.LatencyNetwork.P90, LatencyNetworkP99: res.LatencyNetwork.P99,
		LatencyNetworkMax: res.LatencyNetwork.Max, LatencyNetworkCount: res.LatencyNetwork.Count,
		LatencyE2EMean: res.LatencyE2E.Mean, LatencyE2EP50: res.LatencyE2E.P50, LatencyE2EP90: res.LatencyE2E.P90,
		LatencyE2EP99: res.LatencyE2E.P99, LatencyE2EMax: res.LatencyE2E.Max,
		LatencyMessageMean: res.LatencyMessage.Mean, LatencyMessageP50: res.LatencyMessage.P50,
		LatencyMessageP90: res.LatencyMessage.P90, LatencyMessageP99: res.LatencyMessage.P99,
		LatencyMessageMax: res.LatencyMessage.Max, LatencyMessageCount: res.LatencyMessage.Count,
		Hops: res.Hops, InternalHops: res.InternalHops, AdaptiveHopsShare: res.AdaptiveHopsShare, EscapeHopsShare: res.EscapeHopsShare, Saturated: res.Saturated, Deadlocked: res.Deadlock != nil,
		FlitHops: res.FlitHops, Cycles: res.Cycles, PacketsGenerated: res.PacketsGenerated, PacketsDelivered: res.PacketsDelivered,
		ExternalUtilMean: res.ExternalUtilMean, ExternalUtilMax: res.ExternalUtilMax,
		InternalUtilMean: res.InternalUtilMean, InternalUtilMax: res.InternalUtilMax,
		Stationary: Unknown, Windows: 1, WindowStart: p.Warmup, StationaryDrift: math.NaN(), StationaryNoise: math.NaN(),
	}
}

// Unknown is the stationary column of a run that was not checked.
const Unknown = "unknown"

// stationaryRow fills the stationarity columns of a checked run.
func stationaryRow(row *Row, s *engine.Stationarity) {
	if s == nil {
		return
	}
	row.Stationary = strconv.FormatBool(s.Stationary)
	row.Windows, row.WindowStart = int64(s.Windows), s.WindowStart
	row.StationaryDrift, row.StationaryNoise = s.Drift, s.Noise
	b := make([]string, len(s.Batches))
	for i, x := range s.Batches {
		b[i] = ftoa(x)
	}
	row.BatchAccepted = strings.Join(b, " ")
}

// Rows flattens records, sorted canonically (SortRecords) so that the table does not
// depend on the order the records were made or read in.
func Rows(records []Record) []Row {
	sorted := append([]Record(nil), records...)
	SortRecords(sorted)
	rows := make([]Row, len(sorted))
	for i := range sorted {
		rows[i] = RowOf(&sorted[i])
	}
	return rows
}

// Columns are the column names of Row, in order.
func Columns() []string {
	t := reflect.TypeFor[Row]()
	cols := make([]string, t.NumField())
	for i := range cols {
		cols[i] = t.Field(i).Tag.Get("parquet")
	}
	return cols
}

// WriteCSV writes one row per record, sorted canonically, with a header of Columns.
// Floats are written in the shortest form that reads back exactly; NaN is "NaN";
// flags are true or false.
func WriteCSV(w io.Writer, records []Record) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(Columns()); err != nil {
		return fmt.Errorf("write CSV: %w", err)
	}
	line := make([]string, len(Columns()))
	for _, row := range Rows(records) {
		v := reflect.ValueOf(row)
		for i := range line {
			line[i] = cell(v.Field(i))
		}
		if err := cw.Write(line); err != nil {
			return fmt.Errorf("write CSV: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write CSV: %w", err)
	}
	return nil
}

func cell(v reflect.Value) string {
	switch v.Kind() {
	case reflect.String:
		return v.String()
	case reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Float64:
		return ftoa(v.Float())
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	}
	return fmt.Sprint(v.Interface())
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// summaryColumns are the columns of a summary table before its metrics: with the
// workload and mapping of closed-loop curves when closed.
func summaryColumns(closed bool) []string {
	head := []string{"curve", "curve_key", "topology", "routing", "selection", "deadlock", "tie", "traffic", "sizes"}
	if closed {
		return append(head, "workload", "mapping", "load", "n", "saturated")
	}
	return append(head, "load", "n", "saturated", "not_stationary", "unchecked")
}

// WriteSummaryCSV writes one row per (curve, load): the curve's axes, n replications,
// how many saturated, how many were not stationary and how many were not checked
// (Summary.NonStationary, Unchecked), and for each metric its mean, standard
// deviation and 95 % confidence interval (columns METRIC_mean, METRIC_sd,
// METRIC_low, METRIC_high). Tables with closed-loop curves have two more axis
// columns, workload and mapping, and no stationarity columns (a closed-loop run has
// no window).
func WriteSummaryCSV(w io.Writer, summaries []Summary, metrics []string) error {
	cw := csv.NewWriter(w)
	closed := slices.ContainsFunc(summaries, func(s Summary) bool { return s.Point.ClosedLoop() })
	head := summaryColumns(closed)
	for _, m := range metrics {
		head = append(head, m+"_mean", m+"_sd", m+"_low", m+"_high")
	}
	if err := cw.Write(head); err != nil {
		return fmt.Errorf("write summary CSV: %w", err)
	}
	for _, s := range summaries {
		p := s.Point
		line := []string{s.Curve, s.CurveKey, p.Topology, p.Routing, p.Selection, p.Deadlock, p.Tie, p.Traffic, p.Sizes}
		if closed {
			line = append(line, p.Workload, p.Mapping)
		}
		line = append(line, ftoa(s.Load), strconv.Itoa(s.N), strconv.Itoa(s.Saturated))
		if !closed {
			line = append(line, strconv.Itoa(s.NonStationary), strconv.Itoa(s.Unchecked))
		}
		for _, m := range metrics {
			e, ok := s.Estimates[m]
			if !ok {
				e = Estimated(nil)
			}
			line = append(line, ftoa(e.Mean), ftoa(e.SD), ftoa(e.Low), ftoa(e.High))
		}
		if err := cw.Write(line); err != nil {
			return fmt.Errorf("write summary CSV: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write summary CSV: %w", err)
	}
	return nil
}

// WriteSaturationCSV writes one row per curve: saturation load and the bracket below
// it, the saturation throughput with its 95 % confidence interval, and the loads left
// out of both as not stationary (Saturation.NotSteady).
func WriteSaturationCSV(w io.Writer, sats []Saturation) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"curve", "curve_key", "saturation_load", "below", "throughput", "throughput_low", "throughput_high", "peak_load", "n", "not_stationary_loads"}); err != nil {
		return fmt.Errorf("write saturation CSV: %w", err)
	}
	for _, s := range sats {
		t := s.Throughput
		if err := cw.Write([]string{s.Curve, s.CurveKey, ftoa(s.Load), ftoa(s.Below), ftoa(t.Mean), ftoa(t.Low), ftoa(t.High), ftoa(s.PeakLoad), strconv.Itoa(t.N), strconv.Itoa(s.NotSteady)}); err != nil {
			return fmt.Errorf("write saturation CSV: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write saturation CSV: %w", err)
	}
	return nil
}
