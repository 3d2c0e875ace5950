package claims

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/datasets"
	"github.com/twintorus/twintorus/sim/experiment"
)

// Item is one computed value: of one curve, network or row (Label tells which among
// several), with its 95 % confidence interval when it has one (else NaN) and the
// offered load it was read at (NaN when none).
type Item struct {
	Label           string
	Mean, Low, High float64
	Load            float64
}

// Value is a quantity's items and where they come from (the stored runs, analyses
// and files, for a diagnosis' evidence).
type Value struct {
	Items   []Item
	Sources []string
	Display string // the quantity's name in orders (its name when not given)
	curves  []*Curve
}

func scalar(v float64) Value {
	return Value{Items: []Item{{Mean: v, Low: math.NaN(), High: math.NaN(), Load: math.NaN()}}}
}

// Verdict is how a claim compares with what was measured.
type Verdict int

// The verdicts, worst first.
const (
	NotRun Verdict = iota
	DoesNotHold
	Partly
	Holds
)

func (v Verdict) String() string {
	return [...]string{"not run", "does not hold", "partly", "holds"}[v]
}

// Result is one claim evaluated.
type Result struct {
	Claim   *Claim
	Verdict Verdict
	Paper   string // the paper's value, as shown
	Ours    string // the value measured, as shown
	// Notes say which checks or readings did not hold, or which reading fits.
	Notes []string
	// Diagnosis is the cause of a claim that does not (fully) hold, with its
	// evidence; empty when none applies. Established is false when the claim does not
	// hold and no diagnosis' check holds.
	Diagnosis   string
	Established bool
	Values      map[string]Value
	References  []datasets.Reference
}

// VerdictText is the verdict with its notes and diagnosis, as the tables show it.
func (r Result) VerdictText() string {
	s := r.Verdict.String()
	if len(r.Notes) > 0 {
		s += " (" + strings.Join(r.Notes, "; ") + ")"
	}
	switch {
	case r.Diagnosis != "":
		s += ": " + r.Diagnosis
	case r.Verdict == DoesNotHold:
		s += " (cause not established)"
	case r.Verdict == NotRun && r.Claim.NotRun != "":
		s += ": " + r.Claim.NotRun
	}
	return s
}

// Filter chooses claims; nil keeps all.
type Filter func(*Claim) bool

// Notebook keeps the claims a notebook shows.
func Notebook(name string) Filter {
	name = strings.TrimSuffix(name, ".ipynb")
	return func(c *Claim) bool { return slices.Contains(c.Notebooks, name) }
}

// Paper keeps one paper's claims, by key ("[EXT]") or registry file name ("ext").
func Paper(key string) Filter {
	return func(c *Claim) bool {
		return strings.TrimSuffix(c.File, ".yaml") == strings.Trim(strings.ToLower(key), "[]")
	}
}

// InREADME keeps the claims of README.md's table.
func InREADME(c *Claim) bool { return c.README != "" }

// Evaluate judges the registry's claims that keep accepts from src.
func Evaluate(ctx context.Context, src Source, reg *Registry, keep Filter) ([]Result, error) {
	var out []Result
	for _, c := range reg.Claims() {
		if keep != nil && !keep(c) {
			continue
		}
		r, err := EvaluateClaim(ctx, src, c)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: claim %s: %w", c.File, c.Line, c.ID, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// EvaluateClaim judges one claim.
func EvaluateClaim(ctx context.Context, src Source, c *Claim) (Result, error) {
	r := Result{Claim: c, Values: map[string]Value{}}
	for _, id := range c.Refs {
		ref, err := datasets.Lookup(id)
		if err != nil {
			return r, err
		}
		r.References = append(r.References, ref)
	}
	if c.NotRun != "" {
		r.Verdict, r.Paper, r.Ours = NotRun, c.Paper, "not run"
		return r, nil
	}
	e := &evaluator{ctx: ctx, src: src, claim: c, values: r.Values}
	for _, q := range c.Let {
		v, err := e.quantity(q)
		if err != nil {
			return r, fmt.Errorf("quantity %s (line %d): %w", q.Name, q.Line, err)
		}
		if v.Display == "" {
			v.Display = q.Name
		}
		r.Values[q.Name] = v
	}
	var verdicts []Verdict
	var texts []string
	for _, ch := range c.Checks {
		if err := e.resolveRange(ch, r.References); err != nil {
			return r, fmt.Errorf("check (line %d): %w", ch.Line, err)
		}
		out, err := e.check(ch)
		if err != nil {
			return r, fmt.Errorf("check (line %d): %w", ch.Line, err)
		}
		verdicts = append(verdicts, out.verdict)
		texts = append(texts, out.text)
		switch {
		case len(c.Checks) > 1 && out.note != "":
			r.Notes = append(r.Notes, ch.Name+": "+out.verdict.String()+", "+out.note)
		case len(c.Checks) > 1 && out.verdict != Holds:
			r.Notes = append(r.Notes, ch.Name+": "+out.verdict.String())
		case out.note != "":
			r.Notes = append(r.Notes, out.note)
		}
	}
	r.Verdict = combine(verdicts)
	var err error
	if r.Ours, err = e.render(c.Ours, strings.Join(texts, "; ")); err != nil {
		return r, err
	}
	r.Paper = c.Paper
	if r.Paper == "" {
		if r.Paper, err = e.paperText(c.Checks[0]); err != nil {
			return r, err
		}
	}
	r.Established = r.Verdict != DoesNotHold
	if r.Verdict == Holds {
		return r, nil
	}
	for _, d := range c.Diagnoses {
		if err := e.resolveRange(d.When, r.References); err != nil {
			return r, fmt.Errorf("diagnosis (line %d): %w", d.Line, err)
		}
		out, err := e.check(d.When)
		if err != nil {
			return r, fmt.Errorf("diagnosis (line %d): %w", d.Line, err)
		}
		if out.verdict != Holds {
			continue
		}
		text, err := e.render(d.Text, "")
		if err != nil {
			return r, fmt.Errorf("diagnosis (line %d): %w", d.Line, err)
		}
		evidence := e.evidence(d)
		if evidence != "" {
			text += " (evidence: " + evidence + ")"
		}
		if r.Diagnosis != "" {
			r.Diagnosis += "; "
		}
		r.Diagnosis += text
		r.Established = true
	}
	return r, nil
}

// combine is the verdict of several checks: holds when all hold, does not hold when
// none holds even partly, partly otherwise.
func combine(vs []Verdict) Verdict {
	all, none := true, true
	for _, v := range vs {
		all = all && v == Holds
		none = none && v == DoesNotHold
	}
	switch {
	case all:
		return Holds
	case none:
		return DoesNotHold
	}
	return Partly
}

type evaluator struct {
	ctx    context.Context
	src    Source
	claim  *Claim
	values map[string]Value
}

func (e *evaluator) value(name string) (Value, error) {
	if v, err := strconv.ParseFloat(name, 64); err == nil {
		return scalar(v), nil
	}
	v, ok := e.values[name]
	if !ok {
		return Value{}, fmt.Errorf("no quantity %q before this point (quantities are defined in order)", name)
	}
	return v, nil
}

func (e *evaluator) quantity(q *Quantity) (Value, error) {
	switch q.Op {
	case "ratio", "change", "reduction", "diff", "sum", "times":
		return e.arithmetic(q)
	case "min", "max", "mean", "offered":
		return e.aggregate(q)
	case "bound", "hops", "internal_hops":
		return e.analysis(q)
	case "csv":
		return e.csv(q)
	case "ref":
		return e.ref(q)
	case "concat":
		v := Value{Display: q.Display}
		for _, name := range q.Args {
			a, err := e.value(name)
			if err != nil {
				return Value{}, err
			}
			for _, it := range a.Items {
				it.Label = strings.TrimSpace(a.Display + " " + it.Label)
				v.Items = append(v.Items, it)
			}
			v.Sources = union(v.Sources, a.Sources)
		}
		return v, nil
	}
	return e.stored(q)
}

// combos expands a selector's fields into every combination of alternatives: one
// map of field to value per combination, and its label (the alternatives' labels).
func combos(sel []field) (maps []map[string]string, labels []string) {
	maps, labels = []map[string]string{{}}, []string{""}
	for _, f := range sel {
		var nm []map[string]string
		var nl []string
		for i, m := range maps {
			for j := range f.labels {
				c := map[string]string{}
				for k, x := range m {
					c[k] = x
				}
				if f.cases != nil {
					for k, x := range f.cases[j] {
						c[k] = x
					}
				} else {
					c[f.key] = f.values[j]
				}
				nm = append(nm, c)
				nl = append(nl, strings.TrimSpace(labels[i]+" "+f.labels[j]))
			}
		}
		maps, labels = nm, nl
	}
	return maps, labels
}

// stored evaluates sat, at, plateau and closed on the curves the selector matches.
func (e *evaluator) stored(q *Quantity) (Value, error) {
	data := q.Data
	if len(data) == 0 {
		data = e.claim.Data
	}
	if len(data) == 0 {
		return Value{}, fmt.Errorf("%s needs stored runs: give data (the experiments) to the claim or the quantity", q.Op)
	}
	curves, err := e.src.Curves(e.ctx, data)
	if err != nil {
		return Value{}, err
	}
	if len(curves) == 0 {
		return Value{}, fmt.Errorf("no stored curve in %s", strings.Join(data, ", "))
	}
	maps, labels := combos(q.Sel)
	v := Value{Display: q.Display}
	for i, m := range maps {
		c, err := matchOne(curves, m)
		if err != nil {
			return Value{}, fmt.Errorf("%s: %w", describe(m), err)
		}
		v.curves = append(v.curves, c)
		v.Items = append(v.Items, Item{Label: labels[i]})
		src := "stored runs of " + c.Experiment
		if !slices.Contains(v.Sources, src) {
			v.Sources = append(v.Sources, src)
		}
	}
	// The load of unsaturated and common: over this quantity's curves and those of
	// the quantities named in with; when this one has several curves and every with
	// quantity as many, pair by pair (curve i with their curve i).
	commons := make([]float64, len(v.curves))
	if q.Load.word == "unsaturated" || q.Load.word == "common" {
		var others [][]*Curve
		pairwise := len(v.curves) > 1 && len(q.With) > 0
		for _, w := range q.With {
			o, ok := e.values[w]
			if !ok || len(o.curves) == 0 {
				return Value{}, fmt.Errorf("with: %q is no earlier quantity of stored curves", w)
			}
			others = append(others, o.curves)
			pairwise = pairwise && len(o.curves) == len(v.curves)
		}
		for i := range v.curves {
			set := slices.Clone(v.curves)
			if pairwise {
				set = []*Curve{v.curves[i]}
			}
			for _, o := range others {
				if pairwise {
					set = append(set, o[i])
				} else {
					set = append(set, o...)
				}
			}
			commons[i] = commonLoad(set, q.Load.word == "unsaturated")
			if math.IsNaN(commons[i]) {
				return Value{}, fmt.Errorf("no %s load common to the %d curves", q.Load.word, len(set))
			}
		}
	}
	for i, c := range v.curves {
		it := &v.Items[i]
		switch q.Op {
		case "sat":
			t := c.Saturation.Throughput
			it.Mean, it.Low, it.High, it.Load = t.Mean, t.Low, t.High, c.Saturation.PeakLoad
		case "plateau":
			sum, n := 0.0, 0
			for _, s := range c.Sums {
				// A load whose windows were not stationary reads a throughput still
				// changing: no verdict rests on it (docs/model.md).
				if s.Load >= q.From-1e-9 && s.Steadiness() != experiment.NotSteady {
					a, ok := s.Estimate(experiment.Accepted)
					if !ok {
						return Value{}, fmt.Errorf("curve %s has no accepted traffic", c.Name)
					}
					sum += a.Mean
					n++
				}
			}
			if n == 0 {
				return Value{}, fmt.Errorf("curve %s has no load from %g", c.Name, q.From)
			}
			it.Mean, it.Low, it.High, it.Load = sum/float64(n), math.NaN(), math.NaN(), q.From
		case "closed":
			if len(c.Sums) != 1 {
				return Value{}, fmt.Errorf("curve %s has %d summaries: closed reads closed-loop runs (one each)", c.Name, len(c.Sums))
			}
			if err := setEstimate(it, c.Sums[0], q.Metric); err != nil {
				return Value{}, fmt.Errorf("curve %s: %w", c.Name, err)
			}
		case "at":
			load := q.Load.value
			switch q.Load.word {
			case "lowest":
				load = c.Sums[0].Load
			case "highest":
				load = c.Sums[len(c.Sums)-1].Load
			case "peak":
				load = c.Saturation.PeakLoad
			case "unsaturated", "common":
				load = commons[i]
			}
			s, ok := c.at(load)
			if !ok {
				return Value{}, fmt.Errorf("curve %s has no load %g", c.Name, load)
			}
			if s.Steadiness() == experiment.NotSteady {
				return Value{}, fmt.Errorf("curve %s at load %g: %d replication(s) not stationary, so no verdict rests on it (re-run with a longer window)", c.Name, load, s.NonStationary)
			}
			if err := setEstimate(it, s, q.Metric); err != nil {
				return Value{}, fmt.Errorf("curve %s: %w", c.Name, err)
			}
		}
	}
	return v, nil
}

func setEstimate(it *Item, s experiment.Summary, metric string) error {
	if !experiment.MetricName(metric).Known() {
		return fmt.Errorf("unknown metric %q", metric)
	}
	est, ok := s.Estimate(experiment.MetricName(metric))
	if !ok {
		return fmt.Errorf("its runs did not record %s", metric)
	}
	it.Mean, it.Low, it.High, it.Load = est.Mean, est.Low, est.High, s.Load
	return nil
}

// commonLoad is the highest load of the first curve that every curve has (and, with
// unsaturated, at which none saturated at least half of its replications); NaN if none.
func commonLoad(set []*Curve, unsaturated bool) float64 {
	best := math.NaN()
	for _, s := range set[0].Sums {
		ok := true
		for _, c := range set {
			x, found := c.at(s.Load)
			if !found || unsaturated && x.SaturatedShare() || x.Steadiness() == experiment.NotSteady {
				ok = false
				break
			}
		}
		if ok {
			best = s.Load
		}
	}
	return best
}

func describe(m map[string]string) string {
	var parts []string
	for _, k := range sortedKeys(m) {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, " ")
}

// matchOne is the one curve whose fields equal m's (topologies compared canonical).
func matchOne(curves []*Curve, m map[string]string) (*Curve, error) {
	known := map[string]bool{} // a field a point leaves out (omitempty) is ""
	for _, c := range curves {
		for k := range c.Fields {
			known[k] = true
		}
	}
	for k := range m {
		if !known[k] {
			return nil, fmt.Errorf("no point field %q: fields are %s", k, strings.Join(sortedKeys(known), ", "))
		}
	}
	var found []*Curve
	for _, c := range curves {
		ok := true
		for k, want := range m {
			got := c.Fields[k]
			if k == "topology" {
				got, want = canonicalTopology(got), canonicalTopology(want)
			}
			if got != want {
				ok = false
				break
			}
		}
		if ok {
			found = append(found, c)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return nil, fmt.Errorf("no curve matches (of %d)", len(curves))
	}
	var differ []string
	for _, k := range sortedKeys(found[0].Fields) {
		for _, c := range found[1:] {
			if c.Fields[k] != found[0].Fields[k] {
				differ = append(differ, k)
				break
			}
		}
	}
	return nil, fmt.Errorf("%d curves match; they differ in %s: name one", len(found), strings.Join(differ, ", "))
}

func (e *evaluator) analysis(q *Quantity) (Value, error) {
	maps, labels := combos(q.Sel)
	var v Value
	v.Display = q.Display
	for i, m := range maps {
		tie := m["tie"]
		if tie == "" {
			tie = "plus"
		}
		l, err := e.src.Load(e.ctx, m["topology"], m["routing"], tie)
		if err != nil {
			return Value{}, err
		}
		x := map[string]float64{"bound": l.Bound, "hops": l.AvgHops, "internal_hops": l.AvgInternalHops}[q.Op]
		v.Items = append(v.Items, Item{Label: labels[i], Mean: x, Low: math.NaN(), High: math.NaN(), Load: math.NaN()})
		what := map[string]string{"bound": "channel-load bound", "hops": "average hops", "internal_hops": "average internal hops"}[q.Op]
		src := fmt.Sprintf("%s of %s under %s (sim/analysis)", what, canonicalTopology(m["topology"]), m["routing"])
		v.Sources = append(v.Sources, src)
	}
	return v, nil
}

func (e *evaluator) csv(q *Quantity) (Value, error) {
	rows, err := e.src.CSV(q.File)
	if err != nil {
		return Value{}, err
	}
	col := func(name string) (int, error) {
		if i := slices.Index(rows[0], name); i >= 0 {
			return i, nil
		}
		return 0, fmt.Errorf("%s has no column %q: columns are %s", q.File, name, strings.Join(rows[0], ", "))
	}
	vc, err := col(q.Column)
	if err != nil {
		return Value{}, err
	}
	maps, labels := combos(q.Sel)
	v := Value{Display: q.Display, Sources: []string{"datasets/results/" + q.File}}
	for i, m := range maps {
		n := 0
		for _, row := range rows[1:] {
			ok := true
			for k, want := range m {
				c, err := col(k)
				if err != nil {
					return Value{}, err
				}
				if row[c] != want {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			x, err := parseFloat(row[vc])
			if err != nil {
				return Value{}, fmt.Errorf("%s: %s %q is not a number", q.File, q.Column, row[vc])
			}
			v.Items = append(v.Items, Item{Label: labels[i], Mean: x, Low: math.NaN(), High: math.NaN(), Load: math.NaN()})
			n++
		}
		if n == 0 {
			return Value{}, fmt.Errorf("%s: no row with %s", q.File, describe(m))
		}
	}
	return v, nil
}

// arithmetic combines two operands item by item: one item with every item of the
// other, or item for item (by label when both have the same labels, else in order).
func (e *evaluator) arithmetic(q *Quantity) (Value, error) {
	a, err := e.value(q.Args[0])
	if err != nil {
		return Value{}, err
	}
	b, err := e.value(q.Args[1])
	if err != nil {
		return Value{}, err
	}
	f := map[string]func(x, y float64) float64{
		"ratio":     func(x, y float64) float64 { return x / y },
		"change":    func(x, y float64) float64 { return x/y - 1 },
		"reduction": func(x, y float64) float64 { return 1 - x/y },
		"diff":      func(x, y float64) float64 { return x - y },
		"sum":       func(x, y float64) float64 { return x + y },
		"times":     func(x, y float64) float64 { return x * y },
	}[q.Op]
	pairs, err := pair(a.Items, b.Items)
	if err != nil {
		return Value{}, fmt.Errorf("%s of %s (%d values) and %s (%d values): %w", q.Op, q.Args[0], len(a.Items), q.Args[1], len(b.Items), err)
	}
	v := Value{Display: q.Display, Sources: union(a.Sources, b.Sources)}
	for _, p := range pairs {
		it := Item{Label: p.label, Mean: f(p.a.Mean, p.b.Mean), Low: math.NaN(), High: math.NaN(), Load: p.a.Load}
		if q.Op == "times" && len(b.Items) == 1 && math.IsNaN(b.Items[0].Low) { // scaled by a constant
			it.Low, it.High = f(p.a.Low, p.b.Mean), f(p.a.High, p.b.Mean)
			if it.Low > it.High {
				it.Low, it.High = it.High, it.Low
			}
		}
		v.Items = append(v.Items, it)
	}
	return v, nil
}

type itemPair struct {
	a, b  Item
	label string
}

func pair(a, b []Item) ([]itemPair, error) {
	var out []itemPair
	switch {
	case len(a) == 1 && len(b) == 1:
		l := a[0].Label
		if l == "" {
			l = b[0].Label
		}
		return []itemPair{{a[0], b[0], l}}, nil
	case len(b) == 1:
		for _, x := range a {
			out = append(out, itemPair{x, b[0], x.Label})
		}
		return out, nil
	case len(a) == 1:
		for _, y := range b {
			out = append(out, itemPair{a[0], y, y.Label})
		}
		return out, nil
	case len(a) != len(b):
		return nil, fmt.Errorf("want one value, or as many on both sides")
	}
	byLabel := map[string]Item{}
	for _, y := range b {
		byLabel[y.Label] = y
	}
	sameLabels := len(byLabel) == len(b)
	for _, x := range a {
		if _, ok := byLabel[x.Label]; !ok {
			sameLabels = false
		}
	}
	for i, x := range a {
		y := b[i]
		if sameLabels {
			y = byLabel[x.Label]
		}
		out = append(out, itemPair{x, y, x.Label})
	}
	return out, nil
}

func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func (e *evaluator) aggregate(q *Quantity) (Value, error) {
	a, err := e.value(q.Args[0])
	if err != nil {
		return Value{}, err
	}
	if len(a.Items) == 0 {
		return Value{}, fmt.Errorf("%s of no values", q.Op)
	}
	v := Value{Display: q.Display, Sources: a.Sources}
	switch q.Op {
	case "offered": // the loads the items were read at, as values
		for _, it := range a.Items {
			v.Items = append(v.Items, Item{Label: it.Label, Mean: it.Load, Low: math.NaN(), High: math.NaN(), Load: it.Load})
		}
	case "mean":
		sum := 0.0
		for _, it := range a.Items {
			sum += it.Mean
		}
		v.Items = []Item{{Mean: sum / float64(len(a.Items)), Low: math.NaN(), High: math.NaN(), Load: math.NaN()}}
	default:
		best := a.Items[0]
		for _, it := range a.Items[1:] {
			if q.Op == "min" && it.Mean < best.Mean || q.Op == "max" && it.Mean > best.Mean {
				best = it
			}
		}
		v.Items = []Item{best}
	}
	return v, nil
}

// ref is the values of reference rows (the paper's numbers), labelled by the ids'
// brace alternatives.
func (e *evaluator) ref(q *Quantity) (Value, error) {
	f := q.Sel[0]
	v := Value{Display: q.Display}
	for i, id := range f.values {
		r, err := datasets.Lookup(id)
		if err != nil {
			return Value{}, err
		}
		if !r.HasValue() {
			return Value{}, fmt.Errorf("reference %s has no single value", id)
		}
		v.Items = append(v.Items, Item{Label: f.labels[i], Mean: r.Value, Low: math.NaN(), High: math.NaN(), Load: math.NaN()})
		src := r.Source + " " + r.Where
		if !slices.Contains(v.Sources, src) {
			v.Sources = append(v.Sources, src)
		}
	}
	return v, nil
}
