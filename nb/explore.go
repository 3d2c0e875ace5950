package nb

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/twintorus/twintorus/figures"
	"github.com/twintorus/twintorus/kernel"
	"github.com/twintorus/twintorus/netdraw"
	"github.com/twintorus/twintorus/plots"
	"github.com/twintorus/twintorus/sim/engine"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/topology"
)

// ShowNetwork shows a network drawing (netdraw.Draw, netdraw.BoundsBeside) at its own
// proportions and fails the cell on err. It is kernel.ShowNetwork.
func ShowNetwork(p plots.NetworkPlot, err error) { kernel.ShowNetwork(p, err) }

// Explore shows controls for a short simulation of the 4×4×4 twin torus (128 PEs):
// offered load, configuration A–J, routing and traffic. Every move runs ExploreWarmup +
// ExploreMeasure cycles (a tenth of a second or so) and redraws the network with the
// utilisation measured on each channel and the latency curve of the loads tried so far
// under that configuration, routing and traffic. It is kernel.Explore with an
// Explorer; see kernel.Explore for when the controls live and what shows where they
// cannot.
func Explore() {
	e := NewExplorer()
	kernel.Explore(e.Controls(), e.View)
}

// The window of each of Explore's simulations, in cycles: short, so that a move
// redraws at once; long enough that the utilisation and latency settle below
// saturation.
const (
	ExploreWarmup  = 500
	ExploreMeasure = 1500
)

// Explorer is what Explore simulates: its controls and, for their picks, the drawing.
// It remembers every point it ran, so that a configuration's curve grows as the
// reader moves the load.
type Explorer struct {
	Loads    []float64
	Configs  []string // letters, A–J
	Routings []string // experiment.Point.Routing names
	Traffics []string // traffic.Grammar patterns
	// runs are the results so far, by configuration, routing and traffic, then load.
	runs map[[3]int]map[int]explored
}

type explored struct {
	accepted, latency float64
	saturated         bool
}

// NewExplorer is Explore's explorer: loads 0.05 to 1 flits/cycle/PE, the ten
// configurations, DORT and adaptive routing (Duato's, DORT as escape; bubble flow
// control), and uniform, bit-reversal, tornado and hot-spot traffic (5 % of the
// messages to 5 % of the PEs).
func NewExplorer() *Explorer {
	e := &Explorer{Routings: []string{"dort", "adaptive"}, Traffics: []string{"uniform", "bitrev", "tornado", "hotspot:0.05@5%"},
		runs: map[[3]int]map[int]explored{}}
	for i := 1; i <= 20; i++ {
		e.Loads = append(e.Loads, float64(i)/20)
	}
	for l := 'A'; l <= 'J'; l++ {
		e.Configs = append(e.Configs, string(l))
	}
	return e
}

// Controls are the explorer's controls, in the order View reads their picks: load
// (a slider, from 0.30), configuration (from D), routing, traffic.
func (e *Explorer) Controls() []kernel.Control {
	loads := make([]string, len(e.Loads))
	for i, l := range e.Loads {
		loads[i] = fmt.Sprintf("%.2f", l)
	}
	return []kernel.Control{
		{Name: "load", Choices: loads, Slider: true, Value: 5},
		{Name: "configuration", Choices: e.Configs, Value: 3},
		{Name: "routing", Choices: e.Routings},
		{Name: "traffic", Choices: e.Traffics},
	}
}

// View runs the point picks choose (load, configuration, routing, traffic: indices
// into the explorer's lists) and draws it: the network with its measured channel
// utilisation on a fixed scale (0 to 1 flit/cycle, so drawings compare), and network
// latency against offered load for the loads run so far under the same configuration,
// routing and traffic (a new one starts with 0.10 and 0.20 too; saturated points hollow).
func (e *Explorer) View(picks []int) (kernel.View, error) {
	if len(picks) != 4 || picks[0] < 0 || picks[0] >= len(e.Loads) || picks[1] < 0 || picks[1] >= len(e.Configs) ||
		picks[2] < 0 || picks[2] >= len(e.Routings) || picks[3] < 0 || picks[3] >= len(e.Traffics) {
		return kernel.View{}, fmt.Errorf("nb: picks %v: want a load, configuration, routing and traffic index within the explorer's lists", picks)
	}
	key := [3]int{picks[1], picks[2], picks[3]}
	if e.runs[key] == nil {
		// A new curve starts with loads 0.10 and 0.20 beside the one picked, so that it
		// is a curve from the first drawing on (three short runs).
		e.runs[key] = map[int]explored{}
		for _, l := range []int{1, 3} {
			if l != picks[0] && l < len(e.Loads) {
				if _, err := e.run(key, l); err != nil {
					return kernel.View{}, err
				}
			}
		}
	}
	r, err := e.run(key, picks[0])
	if err != nil {
		return kernel.View{}, err
	}
	spec, what := e.name(key)
	net, err := topology.New(spec)
	if err != nil {
		return kernel.View{}, err
	}
	load := e.Loads[picks[0]]
	p, err := netdraw.Draw(net, netdraw.Options{Title: fmt.Sprintf("%s at %.2f: measured", what, load),
		Loads: r.ChannelUtil, Max: 1, Unit: "utilisation (flits/cycle)"})
	if err != nil {
		return kernel.View{}, err
	}
	var loads []int
	for l := range e.runs[key] {
		loads = append(loads, l)
	}
	sort.Ints(loads)
	s := plots.Series{Name: what}
	for _, l := range loads {
		if x := e.runs[key][l]; !math.IsNaN(x.latency) {
			s.Points = append(s.Points, plots.Point{X: e.Loads[l], Y: x.latency, Hollow: x.saturated})
		}
	}
	curve := plots.LinePlot{Series: []plots.Series{s}, Options: plots.Options{Title: "the loads run so far",
		XLabel: figures.OfferedLabel, YLabel: figures.LatencyLabel, Legend: plots.LegendInside}, HollowLabel: "hollow: saturated"}
	caption := fmt.Sprintf("%s at offered %.2f: accepted %.3f flits/cycle/PE, network latency %.1f cycles, saturated %v (%d cycles, %d measured).",
		what, load, r.Accepted, r.LatencyNetwork.Mean, r.Saturated, r.Cycles, ExploreMeasure)
	return kernel.View{Network: p, Plot: curve, Caption: caption}, nil
}

// name is the network spec of a curve's key, and the curve's name (spec, routing,
// traffic).
func (e *Explorer) name(key [3]int) (spec, what string) {
	spec = "twin:4x4x4/" + e.Configs[key[0]]
	return spec, fmt.Sprintf("%s, %s, %s", spec, e.Routings[key[1]], e.Traffics[key[2]])
}

// run simulates the curve key at load index l and keeps its point.
func (e *Explorer) run(key [3]int, l int) (*engine.Result, error) {
	spec, _ := e.name(key)
	pt := experiment.NewPoint(spec, e.Loads[l])
	pt.Routing, pt.Traffic = e.Routings[key[1]], e.Traffics[key[2]]
	pt.Warmup, pt.Measure, pt.Channels = ExploreWarmup, ExploreMeasure, true
	pt.Params = pt.Params.StationaryOff()
	r, err := pt.Run(context.Background())
	if err != nil {
		return nil, err
	}
	e.runs[key][l] = explored{accepted: r.Accepted, latency: r.LatencyNetwork.Mean, saturated: r.Saturated}
	return r, nil
}
