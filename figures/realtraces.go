package figures

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/twintorus/twintorus/plots"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/workload"
)

// Real MPI programs (issue 44; datasets/workloads/real-*.yaml): HPCC's PTRANS and MPI
// RandomAccess recorded on 64 ranks (datasets/traces/otf2) and replayed on the papers'
// networks and the seeds' others, beside the proxies at the same 64 tasks, the proxies at
// the papers' sizes (the stored ndt-ptrans-1k and extoll-apps-*-256 runs) and the papers'
// own numbers: does the proxy predict the real program?

// RealSpecs are the experiment's specs: per switch and deadlock scheme.
var RealSpecs = []string{"real-ndt", "real-extoll-3d", "real-extoll-5dt", "real-other-bubble", "real-other-escape", "real-256-ndt", "real-256-extoll-3d", "real-256-extoll-5dt"}

// RealQuickNetworks are what a quick run simulates: the 64-PE 3D and 5DT tori of
// real-ndt (the nDT paper's switch), one replication.
var RealQuickNetworks = []string{"torus:4x4x4", "twin:2x2x2x2x2/cbest"}

// realTraces are the recorded programs, by their workloads: application and ranks.
var realTraces = map[string]struct {
	app   string
	ranks int
}{
	"trace:datasets/traces/otf2/ptrans-64.trace.gz":        {"PTRANS", 64},
	"trace:datasets/traces/otf2/randomaccess-64.trace.gz":  {"RandomAccess", 64},
	"trace:datasets/traces/otf2/lammps-melt-64.trace.gz":   {"LAMMPS", 64},
	"trace:datasets/traces/otf2/ptrans-256.trace.gz":       {"PTRANS", 256},
	"trace:datasets/traces/otf2/randomaccess-256.trace.gz": {"RandomAccess", 256},
}

// RealApps are the recorded programs, in the tables' order; the proxy of LAMMPS is
// namd (a halo exchange with 6 neighbours on a 3D grid of tasks, as LAMMPS's).
var RealApps = []string{"PTRANS", "RandomAccess", "LAMMPS"}

// RealRow is one network and workload of the experiment: its metrics (means over the
// random mappings, with 95 % intervals).
type RealRow struct {
	App      string // one of RealApps
	Real     bool   // the recording (else the proxy)
	Ranks    int    // the program's ranks, the proxy's tasks
	Workload string // the spec string run
	Switch   string // "nDT" (the nDT paper's switch) or "EXTOLL" (the EXTOLL card)
	Topology string
	Routing  string
	PEs      int
	Metrics  map[experiment.MetricName]experiment.Estimate
}

// Source is "real" or "proxy".
func (r RealRow) Source() string {
	if r.Real {
		return "real"
	}
	return "proxy"
}

// RealTraces reads the experiment in mode (Quick: real-ndt on RealQuickNetworks).
func RealTraces(ctx context.Context, mode Mode, progress func(done, total int)) ([]RealRow, *ClosedLoopGroup, error) {
	g := &ClosedLoopGroup{}
	var rows []RealRow
	for _, name := range RealSpecs {
		if mode == Quick && name != "real-ndt" {
			continue
		}
		r, err := LoadClosedLoopShrunk(ctx, name, mode, progress, func(q experiment.Spec) experiment.Spec {
			q.Topologies, q.Seeds = RealQuickNetworks, 1 // a few CPU-seconds in all
			return q
		})
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		g.Sums = append(g.Sums, r.Summaries()...)
		g.About = append(g.About, r.About())
		sw := "nDT"
		if strings.Contains(name, "-extoll-") {
			sw = "EXTOLL"
		}
		for _, s := range r.Summaries() {
			row, err := realRow(s, sw)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", name, err)
			}
			rows = append(rows, row)
		}
	}
	if len(rows) == 0 {
		return nil, nil, fmt.Errorf("figures: no results of the real traces")
	}
	return rows, g, nil
}

func realRow(s experiment.Summary, sw string) (RealRow, error) {
	w, err := workload.ParseSpec(s.Point.Workload)
	if err != nil {
		return RealRow{}, err
	}
	row := RealRow{Workload: s.Point.Workload, Switch: sw, Topology: s.Point.Topology, Routing: s.Point.Routing, Metrics: map[experiment.MetricName]experiment.Estimate{}}
	row.Ranks = w.Tasks
	switch {
	case realTraces[s.Point.Workload].app != "":
		t := realTraces[s.Point.Workload]
		row.App, row.Real, row.Ranks = t.app, true, t.ranks
	case w.Proxy == "ptrans":
		row.App = "PTRANS"
	case w.Proxy == "randomaccess":
		row.App = "RandomAccess"
	case w.Proxy == "namd":
		row.App = "LAMMPS"
	default:
		return RealRow{}, fmt.Errorf("figures: workload %s is neither a recorded program nor its proxy", s.Point.Workload)
	}
	// The network's PEs as built: PEs reads them from the spec's radices, which twisted
	// tori, TCTs, KNS and fat trees do not give.
	net, err := topology.New(s.Point.Topology)
	if err != nil {
		return RealRow{}, err
	}
	row.PEs = net.Terminals()
	for k, e := range s.Estimates {
		row.Metrics[experiment.MetricName(k)] = e
	}
	return row, nil
}

// RealTable lays the rows out for kernel.Table, by switch, application and network.
func RealTable(rows []RealRow) (headers []string, out [][]string) {
	headers = []string{"switch", "application", "source", "ranks", "network", "routing", "PEs", "execution (cycles)", "network flit latency", "end-to-end flit latency", "messages"}
	rows = slices.Clone(rows)
	slices.SortStableFunc(rows, func(a, b RealRow) int {
		return strings.Compare(a.Switch+a.App+fmt.Sprintf("%04d", a.Ranks)+a.Source()+fmt.Sprintf("%06d", a.PEs), b.Switch+b.App+fmt.Sprintf("%04d", b.Ranks)+b.Source()+fmt.Sprintf("%06d", b.PEs))
	})
	for _, r := range rows {
		out = append(out, []string{r.Switch, r.App, r.Source(), fmt.Sprint(r.Ranks), Configured(r.Topology), r.Routing, fmt.Sprint(r.PEs),
			PlusMinus(r.Metrics[experiment.ExecutionCycles], 0), PlusMinus(r.Metrics[experiment.LatencyNetworkFlitMean], 1),
			PlusMinus(r.Metrics[experiment.LatencyE2EFlitMean], 1), fmt.Sprintf("%.0f", r.Metrics[experiment.MetricName("messages")].Mean)})
	}
	return headers, out
}

// Reduction is how much lower (%) one network's metric is than another's, with the
// 95 % interval's half-width (NaN: none) propagated from the two means' intervals
// (first order: the relative half-widths add in quadrature).
type Reduction struct{ Percent, Half float64 }

// String prints "−25.3 ± 4.1 %" as the papers' reductions read (a lower time is
// a negative change).
func (r Reduction) String() string {
	if math.IsNaN(r.Percent) {
		return "–"
	}
	if math.IsNaN(r.Half) {
		return fmt.Sprintf("%+.1f %%", -r.Percent)
	}
	return fmt.Sprintf("%+.1f ± %.1f %%", -r.Percent, r.Half)
}

// reductionOf is how much lower o is than b, with its interval.
func reductionOf(b, o experiment.Estimate) Reduction {
	if !(b.Mean > 0) || math.IsNaN(o.Mean) {
		return Reduction{math.NaN(), math.NaN()}
	}
	q := o.Mean / b.Mean
	h := math.NaN()
	if hb, ho := b.HalfWidth(), o.HalfWidth(); !math.IsNaN(hb) && !math.IsNaN(ho) {
		h = 100 * q * math.Hypot(hb/b.Mean, ho/o.Mean)
	}
	return Reduction{100 * (1 - q), h}
}

// RealComparison is one network against its base for one application and metric: the
// reduction of the recorded program, of its proxy at the same 64 tasks, of the proxy at
// the paper's size (the stored runs of the paper's experiment; NaN where there is
// none) and the paper's, with the verdicts.
type RealComparison struct {
	App, Switch  string
	Ranks        int    // the program's ranks and the proxy's tasks
	Base, Other  string // topologies
	BaseRouting  string
	OtherRouting string
	PEs          int
	Metric       experiment.MetricName
	Real, Proxy  Reduction
	ProxyPaper   Reduction // the proxy on the paper's tasks and networks
	PaperLow     float64   // the paper's reduction, or its range (Low < High); NaN: none
	PaperHigh    float64
	PaperSource  string
}

// Paper prints the paper's reduction.
func (c RealComparison) Paper() string {
	switch {
	case math.IsNaN(c.PaperLow):
		return "–"
	case c.PaperHigh > c.PaperLow:
		return fmt.Sprintf("−%.0f to −%.0f %%", c.PaperLow, c.PaperHigh)
	}
	return fmt.Sprintf("%+.0f %%", -c.PaperLow)
}

// Predicts says whether the proxy's reduction predicts the real program's: "yes" when
// they are within each other's intervals and these are tight (the difference's
// half-width at most 10 points), "open" when they are within intervals too wide to
// tell, "sign" when they differ but both are significantly of the same sign, "no"
// otherwise.
func (c RealComparison) Predicts() string { return agree(c.Real, c.Proxy) }

func agree(a, b Reduction) string {
	if math.IsNaN(a.Percent) || math.IsNaN(b.Percent) {
		return "–"
	}
	ha, hb := zeroIfNaN(a.Half), zeroIfNaN(b.Half)
	h := math.Hypot(ha, hb)
	switch {
	case math.Abs(a.Percent-b.Percent) <= h && h <= 10:
		return "yes"
	case math.Abs(a.Percent-b.Percent) <= h:
		return "open"
	case math.Abs(a.Percent) > ha && math.Abs(b.Percent) > hb && (a.Percent > 0) == (b.Percent > 0):
		return "sign"
	}
	return "no"
}

func zeroIfNaN(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return x
}

// MatchesPaper says whether the real program's reduction is the paper's: "yes" within
// 5 points of it (or of its range), "partly" when significantly of its sign (a
// reduction above its interval's half-width), "no" otherwise;
// "–" without a paper value.
func (c RealComparison) MatchesPaper() string {
	if math.IsNaN(c.PaperLow) || math.IsNaN(c.Real.Percent) {
		return "–"
	}
	lo, hi := c.PaperLow, c.PaperLow
	if c.PaperHigh > lo {
		hi = c.PaperHigh
	}
	switch r := c.Real.Percent; {
	case r >= lo-5 && r <= hi+5:
		return "yes"
	case r-zeroIfNaN(c.Real.Half) > 0:
		return "partly"
	}
	return "no"
}

// realPair is one comparison the experiment makes: on switch sw, network other against
// base (with their routings, "" for any), in metrics.
type realPair struct {
	sw, base, baseRouting, other, otherRouting string
	metrics                                    []experiment.MetricName
}

var (
	realExecLatency = []experiment.MetricName{experiment.ExecutionCycles, experiment.LatencyNetworkFlitMean}
	realExtoll      = []experiment.MetricName{experiment.ExecutionCycles, experiment.LatencyNetworkFlitMean, experiment.LatencyE2EFlitMean, experiment.SwitchUtilisation}
	realPairs       = []realPair{
		{"nDT", "torus:16x8x8", "", "twin:4x4x2x4x4/cbest", "", realExecLatency},
		{"nDT", "torus:16x8x8", "", "torus:4x4x4x4x4", "", realExecLatency},
		{"nDT", "torus:4x4x4", "", "twin:2x2x2x2x2/cbest", "", realExecLatency},
		{"nDT", "torus:4x4x4", "", "torus:2x2x2x2x4", "", realExecLatency},
		{"EXTOLL", "torus:8x8x4", "dor", "twin:4x4x2x2x2/cbest", "tsdor", realExtoll},
		{"EXTOLL", "torus:8x8x4", "dor", "torus:8x8x4", "adaptive:vcs=1", realExtoll},
		{"EXTOLL", "torus:4x4x4", "dor", "twin:2x2x2x2x2/cbest", "tsdor", realExtoll},
	}
)

// RealComparisons sets the 5DT (and 5D, and adaptive 3D) torus's reductions against the
// 3D torus for both programs, real against proxy against paper. The proxies at the
// papers' sizes are always the stored runs (ndt-ptrans-1k; extoll-apps-3d-256 and
// -5dt-256, one task per PE): a quick run has the 64-PE pairs of the nDT switch only.
func RealComparisons(ctx context.Context, rows []RealRow) ([]RealComparison, error) {
	paperScale, err := realPaperScale(ctx)
	if err != nil {
		return nil, err
	}
	find := func(sw, app string, ranks int, real bool, topo, routing string) (map[experiment.MetricName]experiment.Estimate, bool) {
		for _, r := range rows {
			if r.Switch == sw && r.App == app && r.Ranks == ranks && r.Real == real && r.Topology == topo && (routing == "" || r.Routing == routing) {
				return r.Metrics, true
			}
		}
		return nil, false
	}
	var out []RealComparison
	for _, p := range realPairs {
		for _, key := range realAppRanks(rows) {
			app, ranks := key.app, key.ranks
			rb, ok1 := find(p.sw, app, ranks, true, p.base, p.baseRouting)
			ro, ok2 := find(p.sw, app, ranks, true, p.other, p.otherRouting)
			pb, ok3 := find(p.sw, app, ranks, false, p.base, p.baseRouting)
			po, ok4 := find(p.sw, app, ranks, false, p.other, p.otherRouting)
			if !ok1 || !ok2 || !ok3 || !ok4 {
				continue
			}
			pes, err := PEs(p.base)
			if err != nil {
				return nil, err
			}
			for _, m := range p.metrics {
				c := RealComparison{App: app, Switch: p.sw, Ranks: ranks, Base: p.base, Other: p.other, BaseRouting: rowRouting(rows, p.sw, p.base, p.baseRouting),
					OtherRouting: rowRouting(rows, p.sw, p.other, p.otherRouting), PEs: pes, Metric: m,
					Real: reductionOf(rb[m], ro[m]), Proxy: reductionOf(pb[m], po[m]),
					ProxyPaper: Reduction{math.NaN(), math.NaN()}, PaperLow: math.NaN(), PaperHigh: math.NaN()}
				if err := c.paper(paperScale); err != nil {
					return nil, err
				}
				out = append(out, c)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("figures: no network of the real traces has its base network to compare with")
	}
	return out, nil
}

type appRanks struct {
	app   string
	ranks int
}

// realAppRanks are the programs and rank counts of rows, in RealApps' order and by ranks.
func realAppRanks(rows []RealRow) []appRanks {
	var out []appRanks
	for _, r := range rows {
		if k := (appRanks{r.App, r.Ranks}); !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(a, b appRanks) int {
		if a.app != b.app {
			return slices.Index(RealApps, a.app) - slices.Index(RealApps, b.app)
		}
		return a.ranks - b.ranks
	})
	return out
}

func rowRouting(rows []RealRow, sw, topo, routing string) string {
	if routing != "" {
		return routing
	}
	for _, r := range rows {
		if r.Switch == sw && r.Topology == topo {
			return r.Routing
		}
	}
	return ""
}

// paperScaleKey finds a stored proxy run at the paper's size: application, the
// comparison's family pair ("3D torus", "5DT torus") and routing of the other network.
type paperScaleKey struct{ app, baseFamily, otherFamily, otherRouting string }

// realPaperScale are the stored proxy runs at the papers' sizes, as reductions: PTRANS
// on the nDT paper's 1,024-PE networks (ndt-ptrans-1k), RandomAccess on the EXTOLL
// paper's 256-PE ones with one task per PE and TSDOR's mirror ties (extoll-apps-*-256),
// and there the namd proxy, LAMMPS's.
func realPaperScale(ctx context.Context) (map[paperScaleKey]map[experiment.MetricName]Reduction, error) {
	out := map[paperScaleKey]map[experiment.MetricName]Reduction{}
	ptrans, err := LoadClosedLoop(ctx, "ndt-ptrans-1k", Stored, nil)
	if err != nil {
		return nil, err
	}
	byTopo := map[string]map[string]experiment.Estimate{}
	for _, s := range ptrans.Summaries() {
		byTopo[s.Point.Topology] = s.Estimates
	}
	base := byTopo["torus:16x8x8"]
	for _, o := range []string{"twin:4x4x2x4x4/cbest", "torus:4x4x4x4x4"} {
		k := paperScaleKey{"PTRANS", "3D torus", Family(o), ""}
		out[k] = map[experiment.MetricName]Reduction{}
		for _, m := range realExecLatency {
			out[k][m] = reductionOf(base[string(m)], byTopo[o][string(m)])
		}
	}
	apps := map[string]map[string]experiment.Estimate{} // by routing
	for _, name := range []string{"extoll-apps-3d-256", "extoll-apps-5dt-256"} {
		r, err := LoadClosedLoop(ctx, name, Stored, nil)
		if err != nil {
			return nil, err
		}
		for _, s := range r.Summaries() {
			app := map[string]string{"randomaccess:messages=16": "RandomAccess", "namd:iterations=4": "LAMMPS"}[s.Point.Workload]
			if app != "" && s.Point.Mapping == "random" && (s.Point.Tie == "mirror" || s.Point.Routing != "tsdor") {
				apps[app+" "+s.Point.Routing] = s.Estimates
			}
		}
	}
	for _, app := range []string{"RandomAccess", "LAMMPS"} {
		for _, o := range []struct{ routing, family string }{{"tsdor", "5DT torus"}, {"adaptive:vcs=1", "3D torus"}} {
			k := paperScaleKey{app, "3D torus", o.family, o.routing}
			out[k] = map[experiment.MetricName]Reduction{}
			for _, m := range realExtoll {
				out[k][m] = reductionOf(apps[app+" dor"][string(m)], apps[app+" "+o.routing][string(m)])
			}
		}
	}
	return out, nil
}

// paper fills in the proxy at the paper's size and the paper's reduction, where the
// comparison is one the paper makes: PTRANS's 5DT against 3D on the nDT switch
// (Fig. 7: execution time −25 %, flit latency −19 % at 1,024 PEs) and RandomAccess's
// Det. 5DT against Det. 3D on the EXTOLL card (Fig. 12: "similar to Graph500's",
// whose reductions claim A5 gives as 20–50 %, in network and end-to-end latency and
// utilisation; the paper gives no execution time).
func (c *RealComparison) paper(scale map[paperScaleKey]map[experiment.MetricName]Reduction) error {
	// The papers' claims are of their networks: 1,024 PEs (nDT), 256 (EXTOLL's smallest).
	if c.PEs != map[string]int{"nDT": 1024, "EXTOLL": 256}[c.Switch] {
		return nil
	}
	otherRouting := ""
	if c.Switch == "EXTOLL" {
		otherRouting = c.OtherRouting
	}
	if (c.App == "PTRANS") == (c.Switch == "nDT") { // the papers' experiments
		if r, ok := scale[paperScaleKey{c.App, Family(c.Base), Family(c.Other), otherRouting}][c.Metric]; ok {
			c.ProxyPaper = r
		}
	}
	switch {
	case c.App == "PTRANS" && c.Switch == "nDT" && Family(c.Other) == "5DT torus":
		id := map[experiment.MetricName]string{experiment.ExecutionCycles: "ndt-fig7-exec-1k", experiment.LatencyNetworkFlitMean: "ndt-fig7-latency-1k"}[c.Metric]
		if id == "" {
			return nil
		}
		v, err := paperValue(id)
		if err != nil {
			return err
		}
		c.PaperLow, c.PaperSource = v, "[nDT] Fig. 7 (1,024 PEs)"
	case c.App == "RandomAccess" && c.Switch == "EXTOLL" && Family(c.Other) == "5DT torus" && c.Metric != experiment.ExecutionCycles:
		c.PaperLow, c.PaperHigh, c.PaperSource = 20, 50, "[EXT] Fig. 12, §4.2.2 (A5, A6)"
	}
	return nil
}

// RealComparisonTable lays the comparisons out for kernel.Table: the reductions
// (negative: the other network lower) with 95 % intervals and the verdicts.
func RealComparisonTable(cs []RealComparison) (headers []string, out [][]string) {
	headers = []string{"application", "ranks", "switch", "PEs", "network vs 3D torus", "metric", "real program", "proxy (as many tasks)", "proxy predicts real?", "proxy (paper's size)", "paper (its size)", "real matches paper?"}
	for _, c := range cs {
		other := Configured(c.Other) + " " + c.OtherRouting
		out = append(out, []string{c.App, fmt.Sprint(c.Ranks), c.Switch, fmt.Sprint(c.PEs), other + " vs " + Configured(c.Base) + " " + c.BaseRouting, realMetricName(c.Metric),
			c.Real.String(), c.Proxy.String(), c.Predicts(), c.ProxyPaper.String(), c.Paper(), c.MatchesPaper()})
	}
	return headers, out
}

// RealBars is a bar chart of the reductions of one application's comparisons in one
// metric: real, proxy at 64 tasks, proxy at the paper's size, and the paper's value
// (the middle of its range) as a marker.
func RealBars(cs []RealComparison, app string, metric experiment.MetricName) (plots.BarPlot, error) {
	groups := []plots.BarGroup{{Name: "real program"}, {Name: "proxy (as many tasks)"}, {Name: "proxy (paper's size)"}, {Name: "paper", Marker: true}}
	var cats []string
	for _, c := range cs {
		if c.App != app || c.Metric != metric {
			continue
		}
		cats = append(cats, fmt.Sprintf("%s %s, %d on %d PEs", c.Switch, realShort(c.Other, c.OtherRouting), c.Ranks, c.PEs))
		p := c.PaperLow
		if c.PaperHigh > c.PaperLow {
			p = (c.PaperLow + c.PaperHigh) / 2
		}
		for i, v := range []float64{c.Real.Percent, c.Proxy.Percent, c.ProxyPaper.Percent, p} {
			groups[i].Values = append(groups[i].Values, -v)
		}
	}
	if len(cats) == 0 {
		return plots.BarPlot{}, fmt.Errorf("figures: no comparison of %s in %s", app, metric)
	}
	return plots.BarPlot{Options: plots.Options{Title: fmt.Sprintf("%s: %s against the 3D torus", app, realMetricName(metric)), YLabel: "change against the 3D torus (%)"},
		Categories: cats, Groups: groups}, nil
}

// realShort names a compared network in a category: "5DT", "5D", "Adp. 3D".
func realShort(topo, routing string) string {
	switch {
	case strings.HasPrefix(routing, "adaptive"):
		return "Adp. 3D"
	case Family(topo) == "5DT torus":
		return "5DT"
	}
	return strings.TrimSuffix(Family(topo), " torus")
}

// RealNetworkBars is one application's execution time on every small network of the
// nDT switch (64 PEs; the rectangular twisted torus 16x8, 128), normalised to the 3D torus 4x4x4: the recorded program beside its proxy,
// which orders the networks alike when it predicts the program.
func RealNetworkBars(rows []RealRow, app string) (plots.BarPlot, error) {
	base := map[bool]float64{}
	for _, r := range rows {
		if r.Switch == "nDT" && r.App == app && r.Ranks == 64 && r.Topology == "torus:4x4x4" {
			base[r.Real] = r.Metrics[experiment.ExecutionCycles].Mean
		}
	}
	if base[true] == 0 || base[false] == 0 {
		return plots.BarPlot{}, fmt.Errorf("figures: %s has no run on the 3D torus 4x4x4 to normalise to", app)
	}
	groups := []plots.BarGroup{{Name: "real program"}, {Name: "proxy"}}
	var cats []string
	idx := map[string]int{}
	for _, r := range rows {
		if r.Switch != "nDT" || r.App != app || r.Ranks != 64 || r.PEs >= 1024 {
			continue
		}
		i, ok := idx[r.Topology]
		if !ok {
			i = len(cats)
			idx[r.Topology] = i
			c := Configured(r.Topology)
			if r.PEs != 64 { // the twisted torus: no RT has 64 PEs
				c += fmt.Sprintf(" (%d PEs)", r.PEs)
			}
			cats = append(cats, c)
			for g := range groups {
				groups[g].Values = append(groups[g].Values, math.NaN())
			}
		}
		g := 1
		if r.Real {
			g = 0
		}
		groups[g].Values[i] = r.Metrics[experiment.ExecutionCycles].Mean / base[r.Real]
	}
	return plots.BarPlot{Options: plots.Options{Title: app + ": execution time on the small networks, normalised to the 3D torus 4x4x4", YLabel: "execution time / 3D torus's"},
		Categories: cats, Groups: groups}, nil
}

// realMetricName names a metric in the tables: the applications' figures' names, and
// execution time.
func realMetricName(m experiment.MetricName) string {
	if m == experiment.ExecutionCycles {
		return "execution time"
	}
	return appMetricName(m)
}
