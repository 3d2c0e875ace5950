package engine

import (
	"fmt"
	"math"
	"math/bits"
	"time"

	"github.com/twintorus/twintorus/internal/sysmem"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// Histogram counts non-negative integer values exactly below 256 and in log-linear
// buckets above (32 per power of two: under 3 % relative error), with no allocation
// per value.
type Histogram struct {
	counts [256 + 32*40]int64
	n      int64
	sum    float64
	max    int64
}

func bucketOf(v int64) int {
	if v < 256 {
		return int(v)
	}
	e := bits.Len64(uint64(v)) - 1 // v in [2^e, 2^(e+1)), e >= 8
	sub := int((v >> (e - 5)) & 31)
	return 256 + (e-8)*32 + sub
}

func bucketLow(b int) int64 {
	if b < 256 {
		return int64(b)
	}
	e := (b-256)/32 + 8
	sub := int64((b - 256) % 32)
	return 1<<e | sub<<(e-5)
}

// Add records one value.
func (h *Histogram) Add(v int64) {
	if v < 0 {
		v = 0
	}
	h.counts[bucketOf(v)]++
	h.n++
	h.sum += float64(v)
	if v > h.max {
		h.max = v
	}
}

// addN records n copies of one value.
func (h *Histogram) addN(v, n int64) {
	if v < 0 {
		v = 0
	}
	h.counts[bucketOf(v)] += n
	h.n += n
	h.sum += float64(v) * float64(n)
	if v > h.max {
		h.max = v
	}
}

// Count is the number of values.
func (h *Histogram) Count() int64 { return h.n }

// Mean is the exact mean.
func (h *Histogram) Mean() float64 {
	if h.n == 0 {
		return math.NaN()
	}
	return h.sum / float64(h.n)
}

// Quantile is the q-quantile (0 < q ≤ 1): exact below 256, else the bucket's lower bound.
func (h *Histogram) Quantile(q float64) float64 {
	if h.n == 0 {
		return math.NaN()
	}
	rank := int64(math.Ceil(q * float64(h.n)))
	if rank < 1 {
		rank = 1
	}
	var seen int64
	for b, c := range h.counts {
		seen += c
		if seen >= rank {
			return float64(bucketLow(b))
		}
	}
	return float64(h.max)
}

// Stats summarises a latency distribution in cycles.
type Stats struct {
	Mean  float64 `json:"mean"`
	P50   float64 `json:"p50"`
	P90   float64 `json:"p90"`
	P99   float64 `json:"p99"`
	Max   float64 `json:"max"`
	Count int64   `json:"count"`
}

func (h *Histogram) stats() Stats {
	s := Stats{Mean: h.Mean(), P50: h.Quantile(0.5), P90: h.Quantile(0.9), P99: h.Quantile(0.99), Max: float64(h.max), Count: h.n}
	if h.n == 0 {
		s.Max = math.NaN()
	}
	return s
}

// meter collects the metrics of the measurement window [start, end).
type meter struct {
	start, end           int64
	genFlits, genPackets int64
	delFlits, delPackets int64
	hops                 int64
	escHops, intHops     int64 // hops on escape channels, internal-link crossings
	flitHops             int64 // whole run
	genAll, ejectAll     int64 // flits queued at the sources and ejected, whole run
	netLat, e2eLat       Histogram
	flitNetLat           Histogram // per flit: each flit's network latency
	msgLat               Histogram
	chanFlits            []int64 // per output port, window only
	// Frames (Params.ChannelFrames): frame f's flits on output port g at
	// frames[f*ports+g], frames of frameLen cycles from cycle 0; frameLen 0: off.
	frameLen int64
	frames   []int64
	ports    int
	closed   *closedMeter // closed-loop runs only

	// The stationarity check (stationary.go): k batches of the window (0: no check),
	// the flits delivered in each, the windows measured so far and at most, and last,
	// the end of the last window the run may measure (end without the check), before
	// which what falls beyond end is kept ahead for the next window.
	k                      int
	batch                  int                             // batchOf's cursor
	bounds                 [MaxStationaryBatches + 1]int64 // first cycle of each batch, and end
	measure                int64
	tolerance              float64
	windows, maxWindows    int
	last                   int64
	batchFlits             [MaxStationaryBatches]int64
	aheadDel, spareDel     []pendingDelivery
	aheadFlits, spareFlits []pendingFlits
}

func (m *meter) init(e *Engine) {
	m.start, m.end = e.p.Warmup, e.p.Warmup+e.p.Measure
	m.chanFlits = sysmem.MakeHuge[int64](e.net.TotalPorts())
	m.last, m.windows, m.maxWindows = m.end, 1, 1
	if e.p.StationaryBatches > 0 {
		m.k, m.measure, m.tolerance = e.p.StationaryBatches, e.p.Measure, e.p.StationaryTolerance
		m.maxWindows, m.last = e.p.StationaryWindows, e.p.lastEnd()
		m.setBatches()
	}
	if e.p.ChannelFrames > 0 {
		m.frameLen, m.ports = e.p.ChannelFrames, e.net.TotalPorts()
		m.frames = make([]int64, frameCount(e.p)*int64(m.ports))
	}
}

// frameCount is the number of frames of Params.ChannelFrames cycles that cover the
// longest run p allows (all its stationarity windows).
func frameCount(p Params) int64 {
	return (p.lastEnd() + p.ChannelFrames - 1) / p.ChannelFrames
}

// checkFrames refuses frames whose counters would pass MaxFrameCounters.
func checkFrames(p Params, ports int) error {
	if p.ChannelFrames == 0 {
		return nil
	}
	if n := frameCount(p); n > MaxFrameCounters/int64(max(ports, 1)) {
		return fmt.Errorf("channel frames of %d cycles: %d frames × %d ports pass %d counters; accepted are frames of at least %d cycles for this run and network",
			p.ChannelFrames, n, ports, MaxFrameCounters, (p.lastEnd()+MaxFrameCounters/int64(max(ports, 1))-1)/(MaxFrameCounters/int64(max(ports, 1))))
	}
	return nil
}

func (m *meter) in(t int64) bool { return t >= m.start && t < m.end }

// generated counts a message of the given packets generated at cycle t.
func (m *meter) generated(t int64, packets int, flits int64) {
	if m.in(t) {
		m.genPackets += int64(packets)
		m.genFlits += flits
	}
}

// channel counts n flits leaving output port out at cycles t, t+1, ..., t+n-1, as far
// as they fall in the window; flits beyond it are kept ahead when a later window may
// be measured.
func (m *meter) channel(out int, t, n int64) {
	if m.frameLen > 0 {
		m.frame(out, t, n)
	}
	m.windowChannel(out, t, n)
}

// frame counts n flits leaving output port out from cycle t in the frames they fall
// in; flits past the last frame are not counted.
func (m *meter) frame(out int, t, n int64) {
	nf := int64(len(m.frames) / m.ports)
	for n > 0 {
		f := t / m.frameLen
		if f >= nf {
			return
		}
		hi := min(t+n, (f+1)*m.frameLen)
		m.frames[f*int64(m.ports)+int64(out)] += hi - t
		n, t = n-(hi-t), hi
	}
}

// windowChannel is channel's count for the measurement window.
func (m *meter) windowChannel(out int, t, n int64) {
	lo, hi := max(t, m.start), min(t+n, m.end)
	if hi > lo {
		m.chanFlits[out] += hi - lo
	}
	if t+n > m.end && m.end < m.last {
		from := max(t, m.end)
		m.aheadFlits = append(m.aheadFlits, pendingFlits{at: from, n: t + n - from, out: int32(out)})
	}
}

// delivered counts packet pk, whose tail reaches its NIC at cycle at (msgDone: the
// last packet of its message, generated at msgGen).
func (m *meter) delivered(e *Engine, pk *packet, at int64, msgDone bool, msgGen int64) {
	if at < m.start || (at >= m.end && at >= m.last) {
		return // before the window, or past the last window the run may measure
	}
	d := pendingDelivery{at: at, flits: int64(pk.flits), netLat: at - pk.inj, e2eLat: at - pk.gen, msgLat: -1,
		hops: pk.hops, escHops: pk.escHops, intHops: pk.intHops}
	if msgDone {
		d.msgLat = at - msgGen
	}
	m.count(&d)
}

// count adds a delivery to the window, or keeps it ahead when it falls past the
// window's end (counted if the run measures the next window: restart). It is the one
// place a delivery is counted, so a window that follows a failed one counts exactly
// what a first window would.
func (m *meter) count(d *pendingDelivery) {
	if d.at >= m.end {
		m.aheadDel = append(m.aheadDel, *d)
		return
	}
	m.delPackets++
	m.delFlits += d.flits
	m.hops += int64(d.hops)
	m.escHops += int64(d.escHops)
	m.intHops += int64(d.intHops)
	m.netLat.Add(d.netLat)
	// Flit i of a packet leaves its NIC at inj+i and, under virtual cut-through,
	// reaches the destination at at-(L-1)+i: every flit takes the head's latency.
	m.flitNetLat.addN(d.netLat-(d.flits-1), d.flits)
	m.e2eLat.Add(d.e2eLat)
	if d.msgLat >= 0 {
		m.msgLat.Add(d.msgLat)
	}
	if m.k > 0 {
		m.batchFlits[m.batchOf(d.at)] += d.flits
	}
}

// Result is what a run measured. Traffic figures are in flits/cycle/PE over the
// measurement window; latencies in cycles over the packets delivered in the window.
type Result struct {
	Topology  string `json:"topology"`
	Routing   string `json:"routing"`
	Switching string `json:"switching"`
	// Allocator is the switch allocator when it is not the default two-stage
	// round-robin one: "islip:N".
	Allocator string `json:"allocator,omitempty"`
	Buffers   string `json:"buffers"`

	Offered  float64 `json:"offered"`
	Accepted float64 `json:"accepted"`
	// LatencyNetwork runs from the NIC sending the head flit to the tail reaching the
	// destination NIC; LatencyE2E adds the wait in the source queue; LatencyMessage
	// runs from a message's generation to the delivery of its last packet.
	LatencyNetwork Stats `json:"latency_network"`
	LatencyE2E     Stats `json:"latency_e2e"`
	LatencyMessage Stats `json:"latency_message"`
	// LatencyNetworkFlit is per flit (per cell on the EXTOLL card, whose flit is a
	// cell): from the flit leaving the source NIC to the flit reaching the
	// destination NIC, over the flits of the packets delivered in the window, so a
	// packet of L flits counts L times. Flit i leaves at the head's cycle + i and, under
	// virtual cut-through, arrives L−1−i cycles before the tail: each flit's latency is
	// the head's, LatencyNetwork less the serialisation (L−1) of its packet. (Under
	// wormhole, where a packet may stall mid-way, it counts from the tail.) The
	// EXTOLL paper's "average cell latency" and the nDT papers' flit latency.
	LatencyNetworkFlit Stats   `json:"latency_network_flit"`
	Hops               float64 `json:"hops"` // switch-to-switch hops per packet, internal links included
	// Selection is the selection function of a routing that offers several candidates
	// ("" when it offers one: DOR, DORT, up*/down*).
	Selection string `json:"selection,omitempty"`
	// AdaptiveHopsShare and EscapeHopsShare are the shares of the hops taken on
	// adaptive channels (those of a routing with a choice that are not escape
	// channels) and on escape channels; InternalHops is the internal-link crossings
	// per packet. All over the packets delivered in the window.
	AdaptiveHopsShare float64   `json:"adaptive_hops_share"`
	EscapeHopsShare   float64   `json:"escape_hops_share"`
	InternalHops      float64   `json:"internal_hops"`
	Saturated         bool      `json:"saturated"`
	Deadlock          *Deadlock `json:"deadlock"`

	FlitHops int64   `json:"flit_hops"` // flits moved over switch-to-switch links, whole run
	Cycles   int64   `json:"cycles"`
	Elapsed  float64 `json:"elapsed_s"`

	PacketsGenerated int64 `json:"packets_generated"`
	PacketsDelivered int64 `json:"packets_delivered"`

	// Utilisation: flits per cycle per channel in the window.
	ExternalUtilMean float64 `json:"external_util_mean"`
	ExternalUtilMax  float64 `json:"external_util_max"`
	InternalUtilMean float64 `json:"internal_util_mean"`
	InternalUtilMax  float64 `json:"internal_util_max"`
	// ChannelUtil is the utilisation of every output port by global port id
	// (topology.Network.PortID), kept when Params.Channels is set.
	ChannelUtil []float64 `json:"channel_util,omitempty"`
	// ChannelFrames is the utilisation of every output port over successive frames of
	// the run, kept when Params.ChannelFrames is set.
	ChannelFrames *ChannelFrames `json:"channel_frames,omitempty"`
	// UtilByClass is the utilisation of the switch-to-switch channels by the class of
	// the switch they leave (KNS routers and subnet stages, fat-tree stages), for
	// networks whose switches have classes.
	UtilByClass []ClassUtil `json:"util_by_class,omitempty"`
	// Closed holds what a closed-loop run (Config.Program) measured, which also
	// covers the whole run in the figures above; nil for open-loop runs.
	Closed *ClosedLoop `json:"closed_loop,omitempty"`
	// Stationarity is the stationarity check's verdict on the window measured
	// (stationary.go); nil when the check is off (Params.StationaryBatches 0) and in
	// closed-loop runs.
	Stationarity *Stationarity `json:"stationarity,omitempty"`
}

// ChannelFrames is every channel's utilisation over time: Util[f][g] is the flits per
// cycle that left output port g (topology.Network.PortID) in frame f, the cycles
// [f·Cycles, (f+1)·Cycles) of the run (the last frame may be shorter: it ends where
// the run ended, End). Terminal ports' frames are their ejection channels'.
type ChannelFrames struct {
	Cycles int64       `json:"cycles"`
	End    int64       `json:"end"`
	Util   [][]float64 `json:"util"`
}

// frameResult turns the frame counters into utilisation for a run that ended at end.
func (m *meter) frameResult(end int64) *ChannelFrames {
	n := (end + m.frameLen - 1) / m.frameLen
	cf := &ChannelFrames{Cycles: m.frameLen, End: end, Util: make([][]float64, n)}
	for f := range cf.Util {
		lo := int64(f) * m.frameLen
		span := float64(min(end, lo+m.frameLen) - lo)
		u := make([]float64, m.ports)
		for g, c := range m.frames[f*m.ports : (f+1)*m.ports] {
			u[g] = float64(c) / span
		}
		cf.Util[f] = u
	}
	return cf
}

// ClassUtil is the utilisation of the switch-to-switch channels that leave the
// switches of one class, in flits per cycle per channel over the window.
type ClassUtil struct {
	Class    string  `json:"class"`
	Channels int     `json:"channels"`
	Mean     float64 `json:"mean"`
	Max      float64 `json:"max"`
}

func (e *Engine) result(elapsed time.Duration) *Result {
	m := e.m
	pes := float64(e.net.Terminals())
	window := float64(e.p.Measure)
	if e.now < m.end { // stopped early (deadlock): measure what ran
		window = float64(e.now - m.start)
		if window < 1 {
			window = 1
		}
	}
	// Packet level counts a packet's flit-hops when its head leaves: take back the
	// flits of packets still crossing a link when the run stopped. Such a packet holds
	// its output port until its tail has left (outBusy), so the flits still to go are
	// outBusy - now (under ReserveOutputVCs also those granted the link after it).
	// With a crossbar input per VC and port arbitration none is taken back: model
	// version 2 found these packets by their input port, which such a switch holds for
	// one cycle only, and results stay as they were.
	flitHops := m.flitHops
	if e.packetLevel && (!e.p.CrossbarPerVC || e.p.ReserveOutputVCs) {
		for g := range e.ports {
			if op := &e.ports[g]; op.outBusy > e.now && op.down >= 0 && op.link >= 0 {
				flitHops -= op.outBusy - e.now
			}
		}
	}
	r := &Result{
		Topology: e.net.String(), Routing: e.rt.Name(), Switching: e.p.Switching.String(), Allocator: allocatorName(e.p.Allocator),
		Buffers:        "terminal " + e.p.Terminal.String() + ", external " + e.p.External.String(),
		Offered:        float64(m.genFlits) / window / pes,
		Accepted:       float64(m.delFlits) / window / pes,
		LatencyNetwork: m.netLat.stats(), LatencyE2E: m.e2eLat.stats(), LatencyMessage: m.msgLat.stats(),
		LatencyNetworkFlit: m.flitNetLat.stats(),
		Hops:               float64(m.hops) / math.Max(1, float64(m.delPackets)),
		Deadlock:           e.dl,
		FlitHops:           flitHops,
		Cycles:             e.now,
		Elapsed:            elapsed.Seconds(),
		PacketsGenerated:   m.genPackets, PacketsDelivered: m.delPackets,
	}
	if e.net.IsTwin() || e.net.Size().Internal > 0 {
		r.Buffers += ", internal " + e.p.Internal.String()
	}
	if e.p.OutputFlits > 0 {
		r.Buffers += fmt.Sprintf(", output queues of %d flits", e.p.OutputFlits)
	}
	if e.p.VOQ {
		r.Buffers += ", virtual output queues"
	}
	if routing.Selects(e.rt) {
		r.Selection = "first"
		if n, ok := e.sel.(interface{ String() string }); ok {
			r.Selection = n.String()
		}
		if m.hops > 0 {
			r.AdaptiveHopsShare = float64(m.hops-m.escHops) / float64(m.hops)
		}
	}
	if m.hops > 0 {
		r.EscapeHopsShare = float64(m.escHops) / float64(m.hops)
	}
	r.InternalHops = float64(m.intHops) / math.Max(1, float64(m.delPackets))
	if m.delPackets == 0 {
		r.Hops, r.InternalHops, r.AdaptiveHopsShare, r.EscapeHopsShare = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	}
	slack := float64(4*e.L) * pes
	r.Saturated = e.dl != nil || float64(m.genFlits-m.delFlits) > e.p.SaturationTolerance*float64(m.genFlits)+slack
	var ext, in []float64
	if e.p.Channels {
		r.ChannelUtil = make([]float64, len(m.chanFlits))
	}
	classes := e.net.SwitchClasses()
	var byClass []ClassUtil
	if len(classes) > 1 {
		byClass = make([]ClassUtil, len(classes))
	}
	for g, f := range m.chanFlits {
		u := float64(f) / window
		if r.ChannelUtil != nil {
			r.ChannelUtil[g] = u
		}
		if byClass != nil && e.ports[g].down >= 0 {
			c := &byClass[e.net.SwitchClassIndex(int(e.ports[g].sw))]
			c.Channels++
			c.Mean += u
			c.Max = max(c.Max, u)
		}
		switch e.ports[g].kind {
		case topology.External:
			if e.ports[g].down >= 0 {
				ext = append(ext, u)
			}
		case topology.Internal:
			in = append(in, u)
		}
	}
	for i, c := range byClass {
		if c.Channels > 0 {
			c.Class, c.Mean = classes[i], c.Mean/float64(c.Channels)
			r.UtilByClass = append(r.UtilByClass, c)
		}
	}
	if m.frameLen > 0 {
		r.ChannelFrames = m.frameResult(min(e.now, m.last))
	}
	r.ExternalUtilMean, r.ExternalUtilMax = meanMax(ext)
	r.InternalUtilMean, r.InternalUtilMax = meanMax(in)
	if m.k > 0 && e.prog == nil {
		r.Stationarity = m.stationarity(min(e.now, m.end), e.net.Terminals())
		r.Stationarity.Stationary = r.Stationarity.Stationary && e.dl == nil
	}
	return r
}

func meanMax(v []float64) (mean, max float64) {
	if len(v) == 0 {
		return 0, 0
	}
	for _, x := range v {
		mean += x
		if x > max {
			max = x
		}
	}
	return mean / float64(len(v)), max
}

// allocatorName is the allocator as results name it: "" for the default.
func allocatorName(a Allocator) string {
	if a == (Allocator{}) {
		return ""
	}
	return a.String()
}
