package figures

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/twintorus/twintorus/plots"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/workload"
)

// The EXTOLL paper's Figs. 11–13 (datasets/workloads/extoll-apps-*.yaml): the
// Graph500, RandomAccess and NAMD proxies on the Det. 3D, Adp. 3D and Det. 5DT tori of
// the EXTOLL card, in the paper's six categories of PEs and tasks per PE; three bar
// charts per application (network latency, end-to-end latency, card utilisation).

// AppSpecs are the experiment's specs: per family (its routings) and PE count (its
// mappings).
var AppSpecs = []string{"extoll-apps-3d-256", "extoll-apps-5dt-256", "extoll-apps-3d-512", "extoll-apps-5dt-512", "extoll-apps-3d-1024", "extoll-apps-5dt-1024"}

// AppSeries are the figures' series, in their order.
var AppSeries = []string{"Det. 3D torus", "Adp. 3D torus", "Det. 5DT torus"}

// AppMetrics are the three panels of each figure: per-cell network latency, per-cell
// end-to-end latency and card utilisation.
var AppMetrics = []experiment.MetricName{experiment.LatencyNetworkFlitMean, experiment.LatencyE2EFlitMean, experiment.SwitchUtilisation}

// AppRow is one bar of Figs. 11–13 with its three metrics (means over the
// replications, with 95 % intervals).
type AppRow struct {
	Proxy         string // graph500, randomaccess, namd
	Workload      string // the spec string run
	PEs, PerPE    int    // PEs and tasks per PE: the category
	Series        string // one of AppSeries
	Topology      string
	Routing       string
	Tie           string // the tie rule of the run (the 3D tori's routes have no ties)
	Metrics       map[experiment.MetricName]experiment.Estimate
	Replications  int
	DeadlockCount float64
}

// Category names a row's category, the paper's x axis ("256 PEs 2-cores") as PEs ×
// tasks per PE: "256×2".
func (r AppRow) Category() string { return fmt.Sprintf("%d×%d", r.PEs, r.PerPE) }

// Apps reads the experiment in mode, the Det. 5DT bars from TSDOR's own tie rule
// (mirror; AppRowsOf reads the others). Quick runs the 256-PE specs with one task per
// PE and two replications.
func Apps(ctx context.Context, mode Mode, progress func(done, total int)) ([]AppRow, *ClosedLoopGroup, error) {
	g, err := loadClosedLoopGroup(ctx, AppSpecs, mode, progress, func(name string) bool { return strings.HasSuffix(name, "-256") },
		func(q experiment.Spec) experiment.Spec {
			q.Mapping = []string{"random"}
			return q
		})
	if err != nil {
		return nil, nil, err
	}
	rows, err := appRows(g, "")
	return rows, g, err
}

// AppRowsOf is the bars of results already loaded (a group from Apps), the Det. 5DT
// ones from the runs of tie rule tie: "" is TSDOR's own (mirror), "plus" the rule of
// the first runs (the 5DT specs run both). The 3D tori's bars are the same under
// either.
func AppRowsOf(src Summarized, tie string) ([]AppRow, error) {
	if tie != "" {
		t, err := experiment.ParseTie(tie)
		if err != nil {
			return nil, err
		}
		tie = t.String()
	}
	return appRows(src, tie)
}

// appRows makes the bars of src, the 5DT's from the runs of tie rule tie ("": each
// routing's own); a bar two runs fit is an error.
func appRows(src Summarized, tie string) ([]AppRow, error) {
	var rows []AppRow
	seen := map[string]string{}
	for _, s := range src.Summaries() {
		if want := tie; strings.HasPrefix(s.Point.Topology, "twin:") {
			if want == "" {
				want = ownTie(s.Point.Routing)
			}
			if s.Point.Tie != want {
				continue
			}
		}
		pes, err := PEs(s.Point.Topology)
		if err != nil {
			return nil, err
		}
		m, err := workload.ParseMapping(s.Point.Mapping)
		if err != nil {
			return nil, err
		}
		r := AppRow{Proxy: strings.SplitN(s.Point.Workload, ":", 2)[0], Workload: s.Point.Workload, PEs: pes, PerPE: m.TasksPerPE,
			Topology: s.Point.Topology, Routing: s.Point.Routing, Metrics: map[experiment.MetricName]experiment.Estimate{}, Replications: s.N}
		if strings.HasPrefix(s.Point.Topology, "twin:") {
			r.Tie = s.Point.Tie
		}
		switch {
		case Family(s.Point.Topology) == "5DT torus" && s.Point.Routing == "tsdor":
			r.Series = AppSeries[2]
		case Family(s.Point.Topology) == "3D torus" && s.Point.Routing == "dor":
			r.Series = AppSeries[0]
		case Family(s.Point.Topology) == "3D torus" && routingName(s.Point.Routing) == "adaptive": // with its options (adaptive:vcs=1)
			r.Series = AppSeries[1]
		default:
			return nil, fmt.Errorf("figures: %s with %s is none of %v", s.Point.Topology, s.Point.Routing, AppSeries)
		}
		bar := r.Proxy + " " + r.Category() + " " + r.Series
		if c, dup := seen[bar]; dup {
			return nil, fmt.Errorf("figures: the bar %s has two runs, curves %s and %s", bar, c, s.Curve)
		}
		seen[bar] = s.Curve
		for _, k := range AppMetrics {
			r.Metrics[k] = s.Estimates[string(k)]
		}
		r.DeadlockCount = s.Estimates[string(experiment.Deadlocked)].Mean
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("figures: no application results")
	}
	slices.SortStableFunc(rows, func(a, b AppRow) int {
		if a.Proxy != b.Proxy {
			return proxyOrder(a.Proxy) - proxyOrder(b.Proxy)
		}
		if a.PEs != b.PEs {
			return a.PEs - b.PEs
		}
		if a.PerPE != b.PerPE {
			return a.PerPE - b.PerPE
		}
		return slices.Index(AppSeries, a.Series) - slices.Index(AppSeries, b.Series)
	})
	return rows, nil
}

// AppProxies are the applications of Figs. 11, 12 and 13.
var AppProxies = []string{"graph500", "randomaccess", "namd"}

// proxyOrder sorts the figures' applications first, in their order, others after.
func proxyOrder(p string) int {
	if i := slices.Index(AppProxies, p); i >= 0 {
		return i
	}
	return len(AppProxies)
}

// AppBars is one panel of Figs. 11–13: the proxy's metric per category, one bar per
// series.
func AppBars(rows []AppRow, proxy string, metric experiment.MetricName) (plots.BarPlot, error) {
	var cats []string
	groups := make([]plots.BarGroup, len(AppSeries))
	for i, s := range AppSeries {
		groups[i].Name = s
	}
	for _, r := range rows {
		if r.Proxy != proxy {
			continue
		}
		if len(cats) == 0 || cats[len(cats)-1] != r.Category() {
			cats = append(cats, r.Category())
			for i := range groups {
				groups[i].Values = append(groups[i].Values, math.NaN())
			}
		}
		groups[slices.Index(AppSeries, r.Series)].Values[len(cats)-1] = r.Metrics[metric].Mean
	}
	if len(cats) == 0 {
		return plots.BarPlot{}, fmt.Errorf("figures: no %s results", proxy)
	}
	for _, g := range groups {
		for i, v := range g.Values {
			if math.IsNaN(v) {
				return plots.BarPlot{}, fmt.Errorf("figures: %s has no %s bar of %s at %s", proxy, metric, g.Name, cats[i])
			}
		}
	}
	unit := "cycles"
	if metric == experiment.SwitchUtilisation {
		unit = "cycles delivering"
	}
	return plots.BarPlot{Options: plots.Options{Title: proxy + ": " + appMetricName(metric), XLabel: "PEs × tasks per PE", YLabel: unit},
		Categories: cats, Groups: groups}, nil
}

// appMetricName is a panel's title, as the paper's.
func appMetricName(m experiment.MetricName) string {
	switch m {
	case experiment.LatencyNetworkFlitMean:
		return "avg. network latency per cell"
	case experiment.LatencyE2EFlitMean:
		return "avg. end-to-end latency per cell"
	case experiment.SwitchUtilisation:
		return "avg. card utilisation"
	}
	return string(m)
}

// AppTable lays the rows out for kernel.Table: per bar the three metrics with their
// 95 % intervals.
func AppTable(rows []AppRow) (headers []string, out [][]string) {
	headers = []string{"proxy", "category", "series", "network latency", "end-to-end latency", "card utilisation", "runs"}
	for _, r := range rows {
		out = append(out, []string{r.Proxy, r.Category(), r.Series, PlusMinus(r.Metrics[AppMetrics[0]], 1), PlusMinus(r.Metrics[AppMetrics[1]], 1),
			PlusMinus(r.Metrics[AppMetrics[2]], 0), fmt.Sprint(r.Replications)})
	}
	return headers, out
}

// appGains are the reductions (%) of metric from series base to series other, one per
// category of the proxy where both exist.
func appGains(rows []AppRow, proxy, base, other string, metric experiment.MetricName) []float64 {
	at := map[string]float64{}
	for _, r := range rows {
		if r.Proxy == proxy {
			at[r.Series+"|"+r.Category()] = r.Metrics[metric].Mean
		}
	}
	var out []float64
	for _, r := range rows {
		if r.Proxy != proxy || r.Series != base {
			continue
		}
		if o, ok := at[other+"|"+r.Category()]; ok {
			out = append(out, reduction(r.Metrics[metric].Mean, o))
		}
	}
	return out
}

// AppClaims checks claims A5–A7 ([EXT] §4.2.2; docs/references.md) over the
// categories we have. The paper states them in words (A5's 20–50 % is its only
// number); so are the verdicts: every category must agree for a "yes".
func AppClaims(rows []AppRow) []Claim {
	const src = "[EXT] §4.2.2, Figs. 11–13"
	det3D, adp3D, det5DT := AppSeries[0], AppSeries[1], AppSeries[2]
	var claims []Claim
	all := func(v []float64, ok func(float64) bool) bool {
		for _, x := range v {
			if !ok(x) {
				return false
			}
		}
		return len(v) > 0
	}
	pos := func(x float64) bool { return x > 0 }
	neg := func(x float64) bool { return x < 0 }
	ranged := func(v []float64) string {
		if len(v) == 0 {
			return "not run"
		}
		return fmt.Sprintf("reduction %s (%d bars)", gainRange(v), len(v))
	}
	// A5 and A6's first half: the 5DT's reduction of each metric against Det. 3D.
	for _, p := range []struct{ id, proxy, paper string }{{"A5", "graph500", "reduction 20 to 50 %"}, {"A6", "randomaccess", "similar to Graph500's"}} {
		for _, m := range AppMetrics {
			g := appGains(rows, p.proxy, det3D, det5DT, m)
			holds := "no"
			switch lo, hi := minMax(g); {
			case len(g) == 0:
				holds = "–"
			case all(g, pos) && lo >= 15 && hi <= 55:
				holds = "yes"
			case all(g, pos):
				holds = "partly (5DT lower, not by 20–50 %)"
			}
			claims = append(claims, Claim{Statement: fmt.Sprintf("%s %s: Det. 5DT lowers %s against Det. 3D", p.id, p.proxy, appMetricName(m)),
				Paper: p.paper, Ours: ranged(g), Holds: holds, Source: src})
		}
	}
	// Det. 5DT better than Adp. 3D (A5, A6), on every metric.
	for _, p := range []struct{ id, proxy string }{{"A5", "graph500"}, {"A6", "randomaccess"}} {
		var g []float64
		for _, m := range AppMetrics {
			g = append(g, appGains(rows, p.proxy, adp3D, det5DT, m)...)
		}
		claims = append(claims, Claim{Statement: fmt.Sprintf("%s %s: Det. 5DT better than Adp. 3D (all three metrics)", p.id, p.proxy),
			Paper: "5DT lower (reduction > 0)", Ours: ranged(g), Holds: yesNo(all(g, pos), len(g)), Source: src})
	}
	// A5: Adp. 3D also helps Graph500 (the network often unsaturated).
	{
		var g []float64
		for _, m := range AppMetrics {
			g = append(g, appGains(rows, "graph500", det3D, adp3D, m)...)
		}
		claims = append(claims, Claim{Statement: "A5 graph500: Adp. 3D lower than Det. 3D (all three metrics)", Paper: "lower (reduction > 0)", Ours: ranged(g), Holds: yesNo(all(g, pos), len(g)), Source: src})
	}
	// A6: adaptive routing raises RandomAccess's network latency, lowers end-to-end
	// latency and utilisation.
	for i, m := range AppMetrics {
		g := appGains(rows, "randomaccess", det3D, adp3D, m)
		want, ok, word := "lower (reduction > 0)", pos, "lowers"
		if i == 0 {
			want, ok, word = "higher (reduction < 0)", neg, "raises"
		}
		claims = append(claims, Claim{Statement: fmt.Sprintf("A6 randomaccess: Adp. 3D %s %s against Det. 3D", word, appMetricName(m)),
			Paper: want, Ours: ranged(g), Holds: yesNo(all(g, ok), len(g)), Source: src})
	}
	// A7: NAMD's 5DT gains are the smallest of the three applications.
	for _, m := range AppMetrics {
		mean := func(proxy string) float64 {
			g := appGains(rows, proxy, det3D, det5DT, m)
			s := 0.0
			for _, x := range g {
				s += x
			}
			return s / float64(len(g))
		}
		n, g5, ra := mean("namd"), mean("graph500"), mean("randomaccess")
		holds := yesNo(n < g5 && n < ra, 1)
		if math.IsNaN(n + g5 + ra) {
			holds = "–"
		}
		claims = append(claims, Claim{Statement: "A7 namd: smallest 5DT gain in " + appMetricName(m), Paper: "smallest of the three",
			Ours: fmt.Sprintf("mean reduction %.1f %% (graph500 %.1f %%, randomaccess %.1f %%)", n, g5, ra), Holds: holds, Source: src})
	}
	return claims
}

// yesNo is "yes" or "no", "–" when there is nothing to judge.
func yesNo(ok bool, n int) string {
	switch {
	case n == 0:
		return "–"
	case ok:
		return "yes"
	}
	return "no"
}

// routingName is a routing spec's name without its options: "adaptive:vcs=1" is adaptive.
func routingName(spec string) string {
	name, _, _ := strings.Cut(spec, ":")
	return name
}
