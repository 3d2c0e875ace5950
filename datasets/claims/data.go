package claims

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/datasets"
	"github.com/twintorus/twintorus/figures"
	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"gopkg.in/yaml.v3"
)

// Source is where the registry's quantities come from: stored results by experiment
// names (joined), channel-load analyses and stored CSV files. The evaluator asks it;
// tests give it synthetic data.
type Source interface {
	// Curves returns the curves of the experiments' stored runs, joined.
	Curves(ctx context.Context, experiments []string) ([]*Curve, error)
	// Load is the channel-load analysis of a network under a deterministic routing.
	Load(ctx context.Context, topology, routing, tie string) (*analysis.ChannelLoad, error)
	// CSV is a stored CSV file of datasets/results (header first).
	CSV(file string) ([][]string, error)
}

// Curve is one curve of stored results: its full point (every field of the spec's
// point, as the YAML of experiment.Point spells it, nested keys joined by dots), its
// summaries by increasing load and its saturation.
type Curve struct {
	Name       string
	Experiment string // the first experiment of the set that has the curve
	Fields     map[string]string
	Sums       []experiment.Summary
	Saturation experiment.Saturation
}

// at is the curve's summary at a load.
func (c *Curve) at(load float64) (experiment.Summary, bool) {
	for _, s := range c.Sums {
		if math.Abs(s.Load-load) < 1e-9 {
			return s, true
		}
	}
	return experiment.Summary{}, false
}

// Stored reads the stored full runs (datasets/results, through package figures),
// caching each set of experiments, and computes channel loads with sim/analysis.
type Stored struct {
	sets  map[string][]*Curve
	loads map[string]*analysis.ChannelLoad
}

// NewStored is a Source of the stored results.
func NewStored() *Stored {
	return &Stored{sets: map[string][]*Curve{}, loads: map[string]*analysis.ChannelLoad{}}
}

// Curves implements Source.
func (s *Stored) Curves(ctx context.Context, names []string) ([]*Curve, error) {
	key := strings.Join(names, "+")
	if c, ok := s.sets[key]; ok {
		return c, nil
	}
	var out []*Curve
	byKey := map[string]*Curve{}
	for _, name := range names {
		res, curves, err := loadExperiment(ctx, name)
		if err != nil {
			return nil, err
		}
		for _, cv := range curves {
			if _, ok := byKey[cv.Key]; ok {
				continue
			}
			fields, err := pointFields(cv.Point)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			c := &Curve{Name: cv.Name, Experiment: name, Fields: fields}
			byKey[cv.Key] = c
			out = append(out, c)
		}
		for _, sum := range res.Summaries() {
			c := byKey[sum.CurveKey]
			if c == nil {
				continue
			}
			if _, dup := c.at(sum.Load); !dup {
				c.Sums = append(c.Sums, sum)
			}
		}
	}
	for _, c := range out {
		slices.SortStableFunc(c.Sums, func(a, b experiment.Summary) int { return cmp.Compare(a.Load, b.Load) })
		if sats := experiment.SaturationsOf(c.Sums); len(sats) == 1 {
			c.Saturation = sats[0]
		}
	}
	// Curves of the specs with no stored summary (a spec not run in full) stay out.
	out = slices.DeleteFunc(out, func(c *Curve) bool { return len(c.Sums) == 0 })
	s.sets[key] = out
	return out, nil
}

// loadExperiment reads one experiment's stored runs and its spec's curves (with
// their full points): open-loop or closed-loop, by which list names it.
func loadExperiment(ctx context.Context, name string) (*figures.Results, []experiment.Curve, error) {
	var (
		file string
		data []byte
		err  error
		res  *figures.Results
	)
	switch {
	case slices.Contains(datasets.ExperimentNames(), name):
		file, data, err = datasets.Experiment(name)
		if err == nil {
			res, err = figures.LoadResults(ctx, name, figures.Stored, nil)
		}
	case slices.Contains(datasets.ClosedLoopExperimentNames(), name):
		file, data, err = datasets.ClosedLoopExperiment(name)
		if err == nil {
			res, err = figures.LoadClosedLoop(ctx, name, figures.Stored, nil)
		}
	default:
		return nil, nil, fmt.Errorf("no experiment %q: open-loop ones are %s; closed-loop ones %s", name,
			strings.Join(datasets.ExperimentNames(), ", "), strings.Join(datasets.ClosedLoopExperimentNames(), ", "))
	}
	if err != nil {
		return nil, nil, err
	}
	_, curves, err := experiment.ParseSpecCurves(file, data)
	if err != nil {
		return nil, nil, err
	}
	return res, curves, nil
}

// pointFields flattens a point to its YAML keys (nested ones joined by dots), values
// as text; load and seed, which no curve has, are left out.
func pointFields(p experiment.Point) (map[string]string, error) {
	b, err := yaml.Marshal(p)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := yaml.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(strings.TrimPrefix(prefix+"."+k, "."), e)
			}
		case nil:
			out[prefix] = ""
		default:
			out[prefix] = fmt.Sprint(x)
		}
	}
	walk("", m)
	delete(out, "load")
	delete(out, "seed")
	return out, nil
}

// Load implements Source: analysis.Load of the network under the named routing.
func (s *Stored) Load(ctx context.Context, topo, name, tie string) (*analysis.ChannelLoad, error) {
	key := topo + " " + name + " " + tie
	if l, ok := s.loads[key]; ok {
		return l, nil
	}
	net, err := topology.New(topo)
	if err != nil {
		return nil, err
	}
	def, arg, ok := routing.LookupRouting(name)
	if !ok {
		return nil, fmt.Errorf("no routing %q", name)
	}
	t, err := experiment.ParseTie(tie)
	if err != nil {
		return nil, err
	}
	if err := def.Fits(net); err != nil {
		return nil, fmt.Errorf("%s on %s: %w", name, topo, err)
	}
	// DOR, DORT and TSDOR are analysed as the notebooks and tests do, by their own
	// types (the routing table wraps them with their deadlock scheme's VCs, which do
	// not change a path); other deterministic routings by the table's New.
	var pather routing.Pather
	switch def.Name {
	case "dor", "dort":
		pather = routing.NewDOR(net, t)
	case "tsdor":
		pather = routing.NewTSDOR(net, t)
	default:
		rt, err := def.New(net, routing.Options{Scheme: def.DefaultScheme(net), Tie: t, Arg: arg})
		if err != nil {
			return nil, err
		}
		var ok bool
		if pather, ok = rt.(routing.Pather); !ok {
			return nil, fmt.Errorf("%s routes adaptively: its channel loads are not defined by paths", name)
		}
	}
	l, err := analysis.Load(ctx, pather)
	if err != nil {
		return nil, err
	}
	s.loads[key] = l
	return l, nil
}

// CSV implements Source: a file of datasets/results.
func (s *Stored) CSV(file string) ([][]string, error) {
	b, err := datasets.Result(file)
	if err != nil {
		return nil, err
	}
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: empty", file)
	}
	return rows, nil
}

// canonicalTopology is a topology's canonical spec string when it parses.
func canonicalTopology(s string) string {
	if t, err := topology.Parse(s); err == nil {
		return t.String()
	}
	return s
}

func parseFloat(s string) (float64, error) { return strconv.ParseFloat(strings.TrimSpace(s), 64) }
