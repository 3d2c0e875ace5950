package netdraw

import (
	"fmt"
	"math"
	"strconv"

	"github.com/twintorus/twintorus/plots"
	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/engine"
	"github.com/twintorus/twintorus/sim/topology"
)

// Options say what a drawing shows besides the network.
type Options struct {
	// Title is the figure's title; "" names the network.
	Title string
	// Loads is a value per channel, by global port id (topology.Network.PortID): its
	// load in flits/cycle, from Bound or from a run (engine.Result.ChannelUtil, or a
	// frame of engine.Result.ChannelFrames). Nil draws the network alone.
	Loads []float64
	// Only, when set, keeps the values of the channels it accepts and draws the
	// others thin and grey: e.g. InternalOnly, to look at a twin torus' internal links.
	Only func(topology.Port) bool
	// Max fixes the top of the colour scale (0: the largest value drawn), so that
	// drawings side by side or frames of a run compare.
	Max float64
	// Unit titles the colour scale; "" is "load (flits/cycle)".
	Unit string
}

// InternalOnly accepts a twin torus' internal links (and a T-switch's joining links).
func InternalOnly(p topology.Port) bool { return p.Kind == topology.Internal }

// Plot is the drawing of the laid-out network with o's values: a plots.NetworkPlot,
// ready for its Figure (static) or kernel.ShowNetwork. Every channel of the network is
// one channel of the plot; internal links are emphasised (drawn with a dark casing)
// and twin tori's cards coloured, Card0 and Card1.
func (l *Layout) Plot(o Options) (plots.NetworkPlot, error) {
	net := l.Net
	if o.Loads != nil && len(o.Loads) != net.TotalPorts() {
		return plots.NetworkPlot{}, fmt.Errorf("netdraw: %d loads for %s, which has %d ports: give one per global port id (Network.PortID)",
			len(o.Loads), net, net.TotalPorts())
	}
	for g, v := range o.Loads {
		if !(v >= 0) || math.IsInf(v, 0) {
			return plots.NetworkPlot{}, fmt.Errorf("netdraw: load %v on port %d: accepted are finite loads of 0 or more", v, g)
		}
	}
	p := plots.NetworkPlot{Options: plots.Options{Title: o.Title}, Notes: l.Notes, NodeRadius: l.Radius, Max: o.Max, Unit: o.Unit}
	if p.Title == "" {
		p.Title = net.String()
	}
	if o.Loads != nil && p.Unit == "" {
		p.Unit = "load (flits/cycle)"
	}
	p.Nodes = make([]plots.NetworkNode, net.Switches())
	twin := net.IsTwin()
	for s := range p.Nodes {
		p.Nodes[s] = plots.NetworkNode{X: l.Pos[s].X, Y: l.Pos[s].Y}
		if twin {
			p.Nodes[s].Color = plots.Blue + plots.Color(net.Card(s))
		}
	}
	if twin {
		p.Groups = []string{"Card0", "Card1"}
	}
	p.Channels = make([]plots.NetworkChannel, 0, l.Channels())
	internal := false
	for s := 0; s < net.Switches(); s++ {
		for q := 0; q < net.Ports(s); q++ {
			g := net.PortID(s, q)
			if l.Paths[g] == nil {
				continue
			}
			pt := net.Port(s, q)
			c := plots.NetworkChannel{Path: l.Paths[g], Value: math.NaN(), Emphasis: pt.Kind == topology.Internal}
			internal = internal || c.Emphasis
			if o.Loads != nil && (o.Only == nil || o.Only(pt)) {
				c.Value = o.Loads[g]
			}
			p.Channels = append(p.Channels, c)
		}
	}
	if internal {
		p.Emphasis = "internal link"
	}
	return p, nil
}

// Draw lays net out and draws it with o's values: Lay and Plot in one call.
func Draw(net *topology.Network, o Options) (plots.NetworkPlot, error) {
	l, err := Lay(net)
	if err != nil {
		return plots.NetworkPlot{}, err
	}
	return l.Plot(o)
}

// Bound is the load of every channel, by global port id, in flits/cycle, when every
// PE offers rate flits/cycle of uniform traffic along the routes l counted (the
// channel-load analysis of `twintorus analyze`): a channel carrying R of the N(N−1)
// routes carries R·rate/(N−1). At rate = l.ChannelBound the busiest channel carries
// 1 flit/cycle. Terminal ports carry their ejection channel's load.
func Bound(l *analysis.ChannelLoad, net *topology.Network, rate float64) ([]float64, error) {
	if l == nil || net == nil {
		return nil, fmt.Errorf("netdraw: Bound needs a channel load and its network")
	}
	if l.PEs != net.Terminals() {
		return nil, fmt.Errorf("netdraw: a channel load of %d PEs does not fit %s (%d PEs)", l.PEs, net, net.Terminals())
	}
	if !(rate >= 0) || math.IsInf(rate, 0) {
		return nil, fmt.Errorf("netdraw: offered rate %v: accepted are finite rates of 0 or more flits/cycle/PE", rate)
	}
	loads := make([]float64, net.TotalPorts())
	per := rate / float64(max(1, l.PEs-1))
	for s := 0; s < net.Switches(); s++ {
		for p := 0; p < net.Ports(s); p++ {
			loads[net.PortID(s, p)] = float64(l.Routes(s, p)) * per
		}
	}
	return loads, nil
}

// Frames draws a run's channel utilisation over time (engine.Params.ChannelFrames),
// one plot per frame on one colour scale (o.Max, or the busiest channel of any frame),
// titled with o.Title and the frame's cycles.
func (l *Layout) Frames(cf *engine.ChannelFrames, o Options) ([]plots.NetworkPlot, error) {
	if cf == nil || len(cf.Util) == 0 {
		return nil, fmt.Errorf("netdraw: no frames: run with engine.Params.ChannelFrames set")
	}
	if o.Max == 0 {
		for _, u := range cf.Util {
			for g, v := range u {
				if l.Paths[g] != nil && (o.Only == nil || o.Only(l.Net.Port(portOf(l.Net, g)))) {
					o.Max = max(o.Max, v)
				}
			}
		}
	}
	title := o.Title
	if title == "" {
		title = l.Net.String()
	}
	out := make([]plots.NetworkPlot, len(cf.Util))
	for f, u := range cf.Util {
		o.Loads = u
		lo, hi := int64(f)*cf.Cycles, min(int64(f+1)*cf.Cycles, cf.End)
		o.Title = title + ", cycles " + strconv.FormatInt(lo, 10) + "–" + strconv.FormatInt(hi, 10)
		p, err := l.Plot(o)
		if err != nil {
			return nil, fmt.Errorf("frame %d: %w", f, err)
		}
		out[f] = p
	}
	return out, nil
}

// portOf is the switch and port of a global port id.
func portOf(net *topology.Network, g int) (s, p int) {
	lo, hi := 0, net.Switches()-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if net.PortID(mid, 0) <= g {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, g - net.PortID(lo, 0)
}
