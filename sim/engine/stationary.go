package engine

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Stationary windows. Past saturation a network's accepted traffic can take far longer
// than the warm-up to settle (trees of blocked packets grow, adaptive routings fill
// their escape channels), and a window that measures it while it still falls reports
// a throughput the network does not sustain. The check (Params.StationaryBatches)
// cuts the window into k batches of equal length (within a cycle), the batch means of
// Law and Kelton's steady-state analysis, and asks whether their accepted traffic
// trends: the line fitted to the batch means may change by at most
// StationaryTolerance of the window's mean between the window's two halves, or by no
// more than the batches' own scatter explains (CheckStationary).
//
// A window that fails becomes warm-up: the meter starts afresh on the next Measure
// cycles of the same simulation, up to StationaryWindows windows in all, and the run
// reports the last one (Result.Stationarity says which, and whether it passed).
// Discarding the window rather than growing it keeps the transient out of the
// reported means, as deleting the initial observations does. The decision reads
// only the run's own counts, so the same point and seed give the same result.
//
// What the meter counts ahead of time (a delivery is recorded when its tail is
// scheduled to arrive, a packet's flits on a link when its head leaves) and falls
// beyond the window's end is kept (pending) while a later window may still be
// measured, and counted into that window if it is: the next window's counts are
// those of a meter that had its bounds from the start. The source queues keep
// messages up to the last window's end (the horizon, source.go), so a window run on
// has every message it would have had. Without the check, or with one window, nothing
// is kept and the run is the one of the model before the check, bit for bit.

// Stationarity is what the check found on a run's measured window.
type Stationarity struct {
	// Stationary: the window passed the check. A run that stopped before its window
	// ended (a deadlock) is not stationary.
	Stationary bool `json:"stationary"`
	// Windows is the number of windows measured: the run's warm-up was Warmup +
	// (Windows−1)·Measure cycles, and the window reported is the last.
	Windows int `json:"windows"`
	// WindowStart is the first cycle of the window reported, which ends Measure
	// cycles later (or when the run stopped).
	WindowStart int64 `json:"window_start"`
	// Batches is the accepted traffic of each batch of the window, in flits/cycle/PE.
	Batches []float64 `json:"batches"`
	// Drift is the accepted traffic of the window's second half minus its first
	// half's, as a fraction of the window's mean; Noise is the difference the batch
	// means' noise explains at 95 %, in the same unit. Both are 0 when nothing was
	// delivered.
	Drift float64 `json:"drift"`
	Noise float64 `json:"noise"`
}

// CheckStationary judges a window by the accepted traffic of its batches, in time
// order (at least four). It fits a line to them by least squares and reads the trend
// as drift: the slope times half the batches, the difference between the means of
// the window's two halves that the line gives, relative to the mean of all batches.
// The window is stationary when |drift| is at most tolerance, or at most noise: what
// the batches' scatter about the line explains at 95 % (Student's t with k−2 degrees
// of freedom on the slope's standard error, in the same unit). drift and noise are 0
// when the mean is 0: nothing delivered, nothing drifts.
func CheckStationary(batches []float64, tolerance float64) (stationary bool, drift, noise float64) {
	k := len(batches)
	if k < 4 {
		return false, 0, 0 // too few to judge: never asked (validateStationary)
	}
	mean := avg(batches)
	if mean == 0 {
		return true, 0, 0
	}
	mid := float64(k-1) / 2
	var sxx, sxy float64
	for j, x := range batches {
		sxx += (float64(j) - mid) * (float64(j) - mid)
		sxy += (float64(j) - mid) * (x - mean)
	}
	slope := sxy / sxx
	var rss float64
	for j, x := range batches {
		r := x - mean - slope*(float64(j)-mid)
		rss += r * r
	}
	dof := float64(k - 2)
	se := math.Sqrt(rss / dof / sxx)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: dof}.Quantile(0.975)
	half := float64(k) / 2
	drift, noise = slope*half/mean, t*se*half/math.Abs(mean)
	return math.Abs(drift) <= max(tolerance, noise), drift, noise
}

func avg(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// pendingDelivery is a delivery the meter counted ahead, beyond its window's end.
type pendingDelivery struct {
	at, flits              int64
	netLat, e2eLat, msgLat int64 // msgLat < 0: the packet did not complete its message
	hops, escHops, intHops int16
}

// pendingFlits are n flits on output port out at cycles at, at+1, ..., beyond the
// window's end.
type pendingFlits struct {
	at, n int64
	out   int32
}

// batchOf is the batch of the window that cycle t (in the window) falls in. Deliveries
// come nearly in time order, so a cursor moved by comparisons finds it: no division.
func (m *meter) batchOf(t int64) int {
	j := m.batch
	for t >= m.bounds[j+1] {
		j++
	}
	for t < m.bounds[j] {
		j--
	}
	m.batch = j
	return j
}

// setBatches computes the window's batch bounds: batch j starts at
// start + ⌈j·Measure/k⌉ (without overflow), and bounds[k] is the window's end.
func (m *meter) setBatches() {
	k := int64(m.k)
	q, r := m.measure/k, m.measure%k
	for j := range int64(m.k) + 1 {
		m.bounds[j] = m.start + j*q + (j*r+k-1)/k
	}
	m.batch = 0
}

// stationarity judges the window from its batches, as far as the run got (now).
func (m *meter) stationarity(now int64, pes int) *Stationarity {
	s := &Stationarity{Windows: m.windows, WindowStart: m.start}
	for j := range m.k {
		lo, hi := m.bounds[j], min(m.bounds[j+1], now)
		if hi <= lo {
			break
		}
		s.Batches = append(s.Batches, float64(m.batchFlits[j])/float64(hi-lo)/float64(pes))
	}
	if len(s.Batches) < m.k { // stopped early: judged on what it has, never stationary
		if len(s.Batches) >= 4 {
			_, s.Drift, s.Noise = CheckStationary(s.Batches, m.tolerance)
		}
		return s
	}
	s.Stationary, s.Drift, s.Noise = CheckStationary(s.Batches, m.tolerance)
	return s
}

// runOn is called when the run reaches the end of its window (now == m.end): it
// reports whether the run should go on to measure another window (restart starts it):
// the check is on, the window is not stationary, and a window is left.
func (m *meter) runOn(e *Engine) bool {
	if m.k == 0 || m.windows >= m.maxWindows {
		return false
	}
	return !m.stationarity(e.now, e.net.Terminals()).Stationary
}

// restart makes the next Measure cycles the window: the window's counts start
// afresh, and what was counted ahead into them is counted now.
func (m *meter) restart() {
	m.start, m.end = m.end, m.end+m.measure
	m.windows++
	m.genFlits, m.genPackets, m.delFlits, m.delPackets = 0, 0, 0, 0
	m.hops, m.escHops, m.intHops = 0, 0, 0
	m.netLat, m.e2eLat, m.msgLat, m.flitNetLat = Histogram{}, Histogram{}, Histogram{}, Histogram{}
	clear(m.chanFlits)
	m.batchFlits = [MaxStationaryBatches]int64{}
	m.setBatches()
	dels, flits := m.aheadDel, m.aheadFlits
	m.aheadDel, m.aheadFlits = m.spareDel[:0], m.spareFlits[:0]
	for i := range dels {
		m.count(&dels[i])
	}
	for _, f := range flits {
		m.windowChannel(int(f.out), f.at, f.n) // its frames were counted when it left
	}
	m.spareDel, m.spareFlits = dels[:0], flits[:0]
}
