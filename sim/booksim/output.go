package booksim

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Output is what a BookSim2 run prints of its measurement (trafficmanager.cpp,
// _DisplayOverallStats): the averages of its "Overall Traffic Statistics" block for
// its one traffic class, and how the run ended.
type Output struct {
	PacketLatency  float64 // cycles from a packet's creation to its tail's arrival (source queue included)
	NetworkLatency float64 // cycles from injection into the network to arrival
	FlitLatency    float64 // cycles per flit, creation to arrival
	InjectedFlits  float64 // flits/cycle/node injected
	AcceptedFlits  float64 // flits/cycle/node accepted
	Hops           float64 // routers per packet, BookSim2's count (links between routers + 1)
	// Unstable: BookSim2 ended the run early because the mean latency passed
	// latency_thres ("Simulation unstable"): the load is past saturation.
	Unstable bool
	Cycles   int64   // "Time taken is N cycles"
	Seconds  float64 // "Total run time", wall-clock seconds of the simulation
}

// overallStats are the lines of the overall block Output reads, by their label.
var overallStats = []struct {
	label string
	field func(*Output) *float64
}{
	{"Packet latency average", func(o *Output) *float64 { return &o.PacketLatency }},
	{"Network latency average", func(o *Output) *float64 { return &o.NetworkLatency }},
	{"Flit latency average", func(o *Output) *float64 { return &o.FlitLatency }},
	{"Injected flit rate average", func(o *Output) *float64 { return &o.InjectedFlits }},
	{"Accepted flit rate average", func(o *Output) *float64 { return &o.AcceptedFlits }},
	{"Hops average", func(o *Output) *float64 { return &o.Hops }},
}

// maxOutputBytes bounds what ReadOutput reads: a long run's progress lines run to
// megabytes, never to this.
const maxOutputBytes = 1 << 30

// ReadOutput reads what BookSim2 printed for one simulation (standard output and
// error together, as a shell's 2>&1 writes them): the last overall statistics block,
// which must hold every average Output has and one traffic class, or, for a run
// BookSim2 ended as unstable, which prints none, only Unstable (and the run time).
func ReadOutput(r io.Reader) (Output, error) {
	var o Output
	sc := bufio.NewScanner(io.LimitReader(r, maxOutputBytes))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	overall, classes := false, 0
	seen := make([]bool, len(overallStats))
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		switch {
		case text == "====== Overall Traffic Statistics ======":
			overall, classes = true, 0
			clear(seen)
		case strings.HasPrefix(text, "Simulation unstable"):
			o.Unstable = true
		case strings.HasPrefix(text, "Time taken is "):
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimPrefix(text, "Time taken is "), " cycles"), 10, 64)
			if err != nil || n < 0 {
				return Output{}, fmt.Errorf("line %d: %q: want Time taken is N cycles", line, text)
			}
			o.Cycles = n
		case strings.HasPrefix(text, "Total run time "):
			v, err := strconv.ParseFloat(strings.TrimPrefix(text, "Total run time "), 64)
			if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
				return Output{}, fmt.Errorf("line %d: %q: want Total run time SECONDS", line, text)
			}
			o.Seconds = v
		case !overall:
		case strings.HasPrefix(text, "====== Traffic class"):
			if classes++; classes > 1 {
				return Output{}, fmt.Errorf("line %d: a second traffic class: we read runs of one class", line)
			}
		default:
			for i, s := range overallStats {
				rest, ok := strings.CutPrefix(text, s.label+" = ")
				if !ok {
					continue
				}
				v, err := strconv.ParseFloat(strings.Fields(rest + " x")[0], 64)
				if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
					return Output{}, fmt.Errorf("line %d: %s: %q is not a number of 0 or more", line, s.label, rest)
				}
				*s.field(&o) = v
				seen[i] = true
			}
		}
	}
	if err := sc.Err(); err != nil {
		return Output{}, fmt.Errorf("reading BookSim2's output: %w", err)
	}
	if !overall && o.Unstable {
		return o, nil // BookSim2 prints no statistics for a run it ended as unstable
	}
	if !overall {
		return Output{}, fmt.Errorf("no \"Overall Traffic Statistics\" block and no \"Simulation unstable\": the run printed no final statistics")
	}
	for i, s := range overallStats {
		if !seen[i] {
			return Output{}, fmt.Errorf("the overall statistics have no %q line", s.label)
		}
	}
	return o, nil
}

// ParseOutput is ReadOutput of a byte slice.
func ParseOutput(b []byte) (Output, error) { return ReadOutput(bytes.NewReader(b)) }
