package claims

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

//go:embed *.yaml
var registryFiles embed.FS

// File is one paper's claims (one YAML file of the registry).
type File struct {
	Name   string // the file's base name without .yaml, e.g. "tr"
	Paper  string // the paper's key, e.g. "[TR]" (docs/references.md)
	Order  int    // where the paper's claims stand in the README's table (lowest first)
	Claims []*Claim
}

// Claim is one row of the registry: a statement of a paper, the stored data and
// quantities it is judged on, the comparison, and the diagnosis when it does not hold.
type Claim struct {
	File string // registry file name, e.g. "tr.yaml"
	Line int    // line of the claim's id in File
	// ID is unique across the registry; Label is the claim's label in
	// docs/references.md (A1, B3 ...) when it has one.
	ID, Label string
	Text      string   // the claim, in a few words, for the notebooks' tables
	README    string   // the row's text in README.md's table; empty: not in the README
	Refs      []string // ids of datasets/reference rows
	Paper     string   // the paper's value as shown; empty: derived from the first check
	Notebooks []string // notebooks (without .ipynb) whose claims table shows the claim
	Data      []string // experiment specs whose stored runs the quantities read, joined
	Let       []*Quantity
	Ours      string // template of the value shown ({name:format}); empty: the checks'
	Checks    []*Check
	Diagnoses []*Diagnosis
	NotRun    string // why the claim has no run: its verdict is "not run"
}

// Quantity is a named value the claim computes: Op with its selector or operands.
type Quantity struct {
	Name string
	Line int
	Op   string // one of ops
	// Sel selects curves (sat, at, plateau, closed) or networks (bound, hops): field
	// name to alternatives (brace expansion or a YAML list), in the order written.
	Sel []field
	// Data overrides the claim's experiments; Display names the quantity in orders.
	Data    []string
	Display string
	Metric  string  // at, closed
	Load    loadRef // at
	hasLoad bool
	With    []string
	From    float64  // plateau
	Args    []string // operands of arithmetic ops: quantity names or numbers
	File    string   // csv
	Column  string   // csv
}

// field is one selector key with its alternatives and their labels; a cases field
// (key "") sets several keys per alternative instead.
type field struct {
	key    string
	values []string
	labels []string // "" when the value is not an alternative (one value)
	cases  []map[string]string
}

// loadRef is an offered load: a number, or lowest, highest, peak, unsaturated
// (highest load at which none of the curves saturated) or common (highest load every
// curve has).
type loadRef struct {
	value float64
	word  string
}

var ops = []string{"sat", "at", "plateau", "closed", "bound", "hops", "internal_hops", "csv",
	"ratio", "change", "reduction", "diff", "sum", "times", "min", "max", "mean", "offered", "ref", "concat"}

// Check is one comparison of a claim.
type Check struct {
	Line int
	Name string // shown in the verdict when the claim has several checks
	Kind string // within, sign, order, above, test
	Of   string // the quantity compared (within, sign)
	// within: the paper's range after Scale (low == high for one value), widened by
	// Tol (absolute) and RelTol (relative to the range's ends).
	Lo, Hi      float64
	Ref         string // the reference row the range came from, when it did
	Tol, RelTol float64
	Unit        string // how values and the range are shown (see format)
	Partly      string // when a value outside counts as partly: some, sign, overlap, never
	Sign        int    // sign: +1 or -1
	Order       []orderTerm
	Above       [2]string // every value of Above[0] above every value of Above[1]
	Match       [2]string // match: ours and the paper's, value for value, within Tol
	TestName    string    // test: the Go test that asserts the claim, in TestFile
	TestFile    string
	// TestVerdict is what the test asserts when it is not that the claim holds (a
	// value it pins that differs from the paper's): partly or does not hold, with
	// TestNote saying in words what it asserts.
	TestVerdict Verdict
	TestNote    string
	refScale    float64 // within: ref: the reference value's scale (NaN: by its unit)
	refNegate   bool
	// Readings, for a claim whose "%" may be relative or percentage points: each
	// reading's quantity, judged with the same range.
	Readings []reading
}

type orderTerm struct {
	name string
	rel  string // relation to the next term: ">", ">=", "<", "<=", "" for the last
}

type reading struct{ name, of string }

// Diagnosis is a cause shown when a claim does not (fully) hold, only if its own
// check (When) holds on the computed quantities.
type Diagnosis struct {
	Line     int
	When     *Check
	Text     string // template
	TestName string // an optional Go test that shows the cause too
	TestFile string
}

// Registry is every file of the registry, in README order.
type Registry struct{ Files []*File }

// Claims lists every claim in README order.
func (r *Registry) Claims() []*Claim {
	var out []*Claim
	for _, f := range r.Files {
		out = append(out, f.Claims...)
	}
	return out
}

// Load reads the embedded registry.
func Load() (*Registry, error) { return loadFS(registryFiles) }

func loadFS(fsys fs.FS) (*Registry, error) {
	names, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return nil, err
	}
	reg := &Registry{}
	ids := map[string]string{}
	for _, name := range names {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		f, err := Parse(name, b)
		if err != nil {
			return nil, err
		}
		for _, c := range f.Claims {
			if other, dup := ids[c.ID]; dup {
				return nil, fmt.Errorf("%s:%d: claim id %q already used in %s", c.File, c.Line, c.ID, other)
			}
			ids[c.ID] = fmt.Sprintf("%s:%d", c.File, c.Line)
		}
		reg.Files = append(reg.Files, f)
	}
	slices.SortStableFunc(reg.Files, func(a, b *File) int { return a.Order - b.Order })
	return reg, nil
}

// parseError is a registry mistake at a line of a file.
type parseError struct {
	file string
	line int
	msg  string
}

func (e *parseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.file, e.line, e.msg) }

type parser struct{ file string }

func (p *parser) errf(n *yaml.Node, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &parseError{p.file, line, fmt.Sprintf(format, args...)}
}

// Parse reads one registry file; name is its file name, for errors and Claim.File.
func Parse(name string, data []byte) (*File, error) {
	p := &parser{file: name}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &parseError{name, 1, "empty file: want paper, order and claims"}
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	root := resolveAliases(doc.Content[0], 0)
	if root == nil {
		return nil, &parseError{name, 1, "aliases nest too deep (or refer to themselves)"}
	}
	f := &File{Name: strings.TrimSuffix(name, ".yaml")}
	err := p.mapping(root, map[string]func(*yaml.Node) error{
		"paper": func(n *yaml.Node) error { return p.str(n, &f.Paper) },
		"order": func(n *yaml.Node) error { return p.integer(n, &f.Order) },
		"claims": func(n *yaml.Node) error {
			if n.Kind != yaml.SequenceNode {
				return p.errf(n, "claims: want a list")
			}
			for _, c := range n.Content {
				claim, err := p.claim(c)
				if err != nil {
					return err
				}
				f.Claims = append(f.Claims, claim)
			}
			return nil
		},
	}, "paper", "claims")
	if err != nil {
		return nil, err
	}
	return f, nil
}

// mapping walks a mapping node: each key must be one of keys, at most once, and
// the required ones present.
func (p *parser) mapping(n *yaml.Node, keys map[string]func(*yaml.Node) error, required ...string) error {
	if n.Kind != yaml.MappingNode {
		return p.errf(n, "want a mapping of %s", strings.Join(sortedKeys(keys), ", "))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		do, ok := keys[k.Value]
		if !ok {
			return p.errf(k, "unknown key %q: accepted are %s", k.Value, strings.Join(sortedKeys(keys), ", "))
		}
		if seen[k.Value] {
			return p.errf(k, "key %q given twice", k.Value)
		}
		seen[k.Value] = true
		if err := do(v); err != nil {
			return err
		}
	}
	for _, r := range required {
		if !seen[r] {
			return p.errf(n, "missing key %q", r)
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func (p *parser) str(n *yaml.Node, dst *string) error {
	if n.Kind != yaml.ScalarNode {
		return p.errf(n, "want a string")
	}
	*dst = strings.TrimSpace(n.Value)
	return nil
}

func (p *parser) integer(n *yaml.Node, dst *int) error {
	v, err := strconv.Atoi(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil {
		return p.errf(n, "want an integer, not %q", n.Value)
	}
	*dst = v
	return nil
}

func (p *parser) number(n *yaml.Node, dst *float64) error {
	v, err := parseNumber(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil {
		return p.errf(n, "want a number, not %q", n.Value)
	}
	*dst = v
	return nil
}

func parseNumber(s string) (float64, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case ".inf", "+.inf", "inf":
		return math.Inf(1), nil
	case "-.inf", "-inf":
		return math.Inf(-1), nil
	}
	return strconv.ParseFloat(strings.TrimSpace(s), 64)
}

func (p *parser) strings(n *yaml.Node, dst *[]string) error {
	switch n.Kind {
	case yaml.ScalarNode:
		*dst = []string{strings.TrimSpace(n.Value)}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode {
				return p.errf(c, "want a list of strings")
			}
			*dst = append(*dst, strings.TrimSpace(c.Value))
		}
	default:
		return p.errf(n, "want a string or a list of strings")
	}
	return nil
}

func (p *parser) claim(n *yaml.Node) (*Claim, error) {
	c := &Claim{File: p.file, Line: n.Line}
	err := p.mapping(n, map[string]func(*yaml.Node) error{
		"id":        func(v *yaml.Node) error { return p.str(v, &c.ID) },
		"label":     func(v *yaml.Node) error { return p.str(v, &c.Label) },
		"claim":     func(v *yaml.Node) error { return p.str(v, &c.Text) },
		"readme":    func(v *yaml.Node) error { return p.str(v, &c.README) },
		"refs":      func(v *yaml.Node) error { return p.strings(v, &c.Refs) },
		"paper":     func(v *yaml.Node) error { return p.str(v, &c.Paper) },
		"notebooks": func(v *yaml.Node) error { return p.strings(v, &c.Notebooks) },
		"data":      func(v *yaml.Node) error { return p.strings(v, &c.Data) },
		"ours":      func(v *yaml.Node) error { return p.str(v, &c.Ours) },
		"not_run":   func(v *yaml.Node) error { return p.str(v, &c.NotRun) },
		"let": func(v *yaml.Node) error {
			if v.Kind != yaml.MappingNode {
				return p.errf(v, "let: want a mapping of names to quantities")
			}
			for i := 0; i+1 < len(v.Content); i += 2 {
				q, err := p.quantity(v.Content[i], v.Content[i+1])
				if err != nil {
					return err
				}
				for _, o := range c.Let {
					if o.Name == q.Name {
						return p.errf(v.Content[i], "quantity %q defined twice", q.Name)
					}
				}
				c.Let = append(c.Let, q)
			}
			return nil
		},
		"expect": func(v *yaml.Node) error {
			ch, err := p.check(v)
			if err != nil {
				return err
			}
			c.Checks = append(c.Checks, ch)
			return nil
		},
		"checks": func(v *yaml.Node) error {
			if v.Kind != yaml.SequenceNode {
				return p.errf(v, "checks: want a list of checks")
			}
			for _, e := range v.Content {
				ch, err := p.check(e)
				if err != nil {
					return err
				}
				c.Checks = append(c.Checks, ch)
			}
			return nil
		},
		"diagnosis": func(v *yaml.Node) error {
			items := []*yaml.Node{v}
			if v.Kind == yaml.SequenceNode {
				items = v.Content
			}
			for _, e := range items {
				d, err := p.diagnosis(e)
				if err != nil {
					return err
				}
				c.Diagnoses = append(c.Diagnoses, d)
			}
			return nil
		},
	}, "id", "claim")
	if err != nil {
		return nil, err
	}
	if c.ID == "" || strings.ContainsAny(c.ID, " ,\"") {
		return nil, p.errf(n, "claim id %q: want a non-empty id without spaces, commas or quotes", c.ID)
	}
	switch {
	case c.NotRun != "" && (len(c.Checks) > 0 || len(c.Let) > 0):
		return nil, p.errf(n, "claim %s: not_run with quantities or checks: a claim is either run or not", c.ID)
	case c.NotRun == "" && len(c.Checks) == 0:
		return nil, p.errf(n, "claim %s: no expect or checks (or not_run)", c.ID)
	case len(c.Checks) > 1:
		for _, ch := range c.Checks {
			if ch.Name == "" {
				return nil, p.errf(n, "claim %s: with several checks each needs a name", c.ID)
			}
		}
	}
	return c, nil
}

func (p *parser) quantity(k, v *yaml.Node) (*Quantity, error) {
	q := &Quantity{Name: k.Value, Line: k.Line}
	if !validName(q.Name) {
		return nil, p.errf(k, "quantity name %q: want letters, digits and _ starting with a letter", q.Name)
	}
	if v.Kind != yaml.MappingNode || len(v.Content) != 2 {
		return nil, p.errf(v, "quantity %s: want one operation of %s", q.Name, strings.Join(ops, ", "))
	}
	q.Op = v.Content[0].Value
	arg := v.Content[1]
	if !slices.Contains(ops, q.Op) {
		return nil, p.errf(v.Content[0], "quantity %s: unknown operation %q: accepted are %s", q.Name, q.Op, strings.Join(ops, ", "))
	}
	switch q.Op {
	case "ratio", "change", "reduction", "diff", "sum", "times":
		if err := p.strings(arg, &q.Args); err != nil || len(q.Args) != 2 {
			return nil, p.errf(arg, "quantity %s: %s takes two operands [a, b] (names or numbers)", q.Name, q.Op)
		}
		return q, nil
	case "concat":
		if err := p.strings(arg, &q.Args); err != nil || len(q.Args) < 2 {
			return nil, p.errf(arg, "quantity %s: concat takes a list of quantity names", q.Name)
		}
		return q, nil
	case "min", "max", "mean", "offered":
		if err := p.strings(arg, &q.Args); err != nil || len(q.Args) != 1 {
			return nil, p.errf(arg, "quantity %s: %s takes one quantity name", q.Name, q.Op)
		}
		return q, nil
	case "ref":
		if arg.Kind != yaml.ScalarNode {
			return nil, p.errf(arg, "quantity %s: ref takes a reference id (braces expand to several)", q.Name)
		}
		f, err := p.field(v.Content[0], arg)
		if err != nil {
			return nil, err
		}
		q.Sel = []field{f}
		return q, nil
	}
	if arg.Kind != yaml.MappingNode {
		return nil, p.errf(arg, "quantity %s: %s takes a mapping (a selector)", q.Name, q.Op)
	}
	for i := 0; i+1 < len(arg.Content); i += 2 {
		key, val := arg.Content[i], arg.Content[i+1]
		for _, f := range q.Sel {
			if f.key == key.Value {
				return nil, p.errf(key, "quantity %s: key %q given twice", q.Name, key.Value)
			}
		}
		var err error
		switch key.Value {
		case "data":
			err = p.strings(val, &q.Data)
		case "name":
			err = p.str(val, &q.Display)
		case "metric":
			err = p.str(val, &q.Metric)
		case "with":
			err = p.strings(val, &q.With)
		case "from":
			err = p.number(val, &q.From)
		case "file":
			err = p.str(val, &q.File)
		case "column":
			err = p.str(val, &q.Column)
		case "load":
			q.hasLoad = true
			if v, e := parseNumber(val.Value); e == nil && val.Kind == yaml.ScalarNode {
				q.Load = loadRef{value: v}
			} else if slices.Contains([]string{"lowest", "highest", "peak", "unsaturated", "common"}, val.Value) {
				q.Load = loadRef{value: math.NaN(), word: val.Value}
			} else {
				err = p.errf(val, "quantity %s: load %q: want a number, lowest, highest, peak, unsaturated or common", q.Name, val.Value)
			}
		case "cases":
			f := field{}
			if val.Kind != yaml.SequenceNode {
				return nil, p.errf(val, "quantity %s: cases: want a list of mappings of fields (and label)", q.Name)
			}
			for _, cs := range val.Content {
				m := map[string]string{}
				if cs.Kind != yaml.MappingNode {
					return nil, p.errf(cs, "quantity %s: cases: want a list of mappings of fields (and label)", q.Name)
				}
				for j := 0; j+1 < len(cs.Content); j += 2 {
					m[cs.Content[j].Value] = cs.Content[j+1].Value
				}
				label := m["label"]
				delete(m, "label")
				f.cases = append(f.cases, m)
				f.labels = append(f.labels, label)
			}
			q.Sel = append(q.Sel, f)
		case "where":
			if q.Op != "csv" {
				return nil, p.errf(key, "quantity %s: where belongs to csv", q.Name)
			}
			if val.Kind != yaml.MappingNode {
				return nil, p.errf(val, "quantity %s: where: want a mapping of columns to values", q.Name)
			}
			for j := 0; j+1 < len(val.Content); j += 2 {
				f, e := p.field(val.Content[j], val.Content[j+1])
				if e != nil {
					return nil, e
				}
				q.Sel = append(q.Sel, f)
			}
		default:
			if q.Op == "csv" {
				return nil, p.errf(key, "quantity %s: unknown key %q: csv takes file, column and where", q.Name, key.Value)
			}
			f, e := p.field(key, val)
			if e != nil {
				return nil, e
			}
			q.Sel = append(q.Sel, f)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := p.quantityRules(q, v); err != nil {
		return nil, err
	}
	return q, nil
}

// quantityRules checks which keys an operation needs and accepts.
func (p *parser) quantityRules(q *Quantity, n *yaml.Node) error {
	has := func(key string) bool {
		return slices.ContainsFunc(q.Sel, func(f field) bool { return f.key == key })
	}
	switch q.Op {
	case "at":
		if q.Metric == "" || !q.hasLoad {
			return p.errf(n, "quantity %s: at needs metric and load", q.Name)
		}
	case "closed":
		if q.Metric == "" {
			return p.errf(n, "quantity %s: closed needs metric", q.Name)
		}
	case "bound", "hops", "internal_hops":
		if !has("topology") || !has("routing") {
			return p.errf(n, "quantity %s: %s needs topology and routing", q.Name, q.Op)
		}
		for _, f := range q.Sel {
			if f.key != "topology" && f.key != "routing" && f.key != "tie" {
				return p.errf(n, "quantity %s: %s takes topology, routing and tie, not %s", q.Name, q.Op, f.key)
			}
		}
	case "csv":
		if q.File == "" || q.Column == "" {
			return p.errf(n, "quantity %s: csv needs file and column", q.Name)
		}
	}
	if q.Metric != "" && q.Op != "at" && q.Op != "closed" {
		return p.errf(n, "quantity %s: metric belongs to at and closed", q.Name)
	}
	if q.Op != "at" && q.hasLoad {
		return p.errf(n, "quantity %s: load belongs to at", q.Name)
	}
	if len(q.With) > 0 && q.Load.word != "unsaturated" && q.Load.word != "common" {
		return p.errf(n, "quantity %s: with belongs to load: unsaturated or common", q.Name)
	}
	return nil
}

// field reads a selector key: one value, alternatives as a YAML list, or
// alternatives by brace expansion ("twin:4x4x4/{A,B}").
func (p *parser) field(k, v *yaml.Node) (field, error) {
	f := field{key: k.Value}
	switch v.Kind {
	case yaml.ScalarNode:
		vals, labels, err := expand(v.Value)
		if err != nil {
			return f, p.errf(v, "%s: %v", k.Value, err)
		}
		f.values, f.labels = vals, labels
	case yaml.MappingNode: // value: label, in order
		for i := 0; i+1 < len(v.Content); i += 2 {
			val, lab := v.Content[i], v.Content[i+1]
			if val.Kind != yaml.ScalarNode || lab.Kind != yaml.ScalarNode {
				return f, p.errf(val, "%s: want value: label pairs", k.Value)
			}
			f.values = append(f.values, val.Value)
			f.labels = append(f.labels, lab.Value)
		}
	case yaml.SequenceNode:
		for _, c := range v.Content {
			if c.Kind != yaml.ScalarNode {
				return f, p.errf(c, "%s: want a list of values", k.Value)
			}
			f.values = append(f.values, c.Value)
			label := c.Value
			if k.Value == "topology" { // torus:16x16 is labelled 16x16
				if fam, shape, ok := strings.Cut(label, ":"); ok && (fam == "torus" || fam == "mesh" || fam == "twin") {
					label = shape
				}
			}
			f.labels = append(f.labels, label)
		}
	default:
		return f, p.errf(v, "%s: want a value, a list of values or a mapping of values to labels", k.Value)
	}
	return f, nil
}

// expand is brace expansion: "a/{x,y}" is a/x and a/y, labelled x and y; several
// braces multiply, their labels joined by a space. Without braces: the value, label "".
func expand(s string) (values, labels []string, err error) {
	i := strings.IndexByte(s, '{')
	if i < 0 {
		if strings.ContainsRune(s, '}') {
			return nil, nil, fmt.Errorf("%q: } without {", s)
		}
		return []string{s}, []string{""}, nil
	}
	j := strings.IndexByte(s[i:], '}')
	if j < 0 {
		return nil, nil, fmt.Errorf("%q: { without }", s)
	}
	alts := strings.Split(s[i+1:i+j], ",")
	restV, restL, err := expand(s[i+j+1:])
	if err != nil {
		return nil, nil, err
	}
	for _, a := range alts {
		for k, r := range restV {
			values = append(values, s[:i]+a+r)
			labels = append(labels, strings.TrimSpace(a+" "+restL[k]))
		}
	}
	return values, labels, nil
}

func validName(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

func (p *parser) check(n *yaml.Node) (*Check, error) {
	c := &Check{Line: n.Line, Lo: math.NaN(), Hi: math.NaN()}
	var within *yaml.Node
	var scale = math.NaN()
	negate := false
	err := p.mapping(n, map[string]func(*yaml.Node) error{
		"name":    func(v *yaml.Node) error { return p.str(v, &c.Name) },
		"of":      func(v *yaml.Node) error { return p.str(v, &c.Of) },
		"within":  func(v *yaml.Node) error { within = v; c.Kind = "within"; return nil },
		"tol":     func(v *yaml.Node) error { return p.number(v, &c.Tol) },
		"rel_tol": func(v *yaml.Node) error { return p.number(v, &c.RelTol) },
		"scale":   func(v *yaml.Node) error { return p.number(v, &scale) },
		"negate": func(v *yaml.Node) error {
			negate = v.Value == "true"
			if v.Value != "true" && v.Value != "false" {
				return p.errf(v, "negate: want true or false")
			}
			return nil
		},
		"unit": func(v *yaml.Node) error { return p.str(v, &c.Unit) },
		"partly": func(v *yaml.Node) error {
			if err := p.str(v, &c.Partly); err != nil {
				return err
			}
			if !slices.Contains([]string{"some", "sign", "overlap", "never"}, c.Partly) {
				return p.errf(v, "partly %q: want some, sign, overlap or never", c.Partly)
			}
			return nil
		},
		"sign": func(v *yaml.Node) error {
			c.Kind = "sign"
			switch v.Value {
			case "+", "positive":
				c.Sign = 1
			case "-", "negative":
				c.Sign = -1
			default:
				return p.errf(v, "sign %q: want + or -", v.Value)
			}
			return nil
		},
		"order": func(v *yaml.Node) error {
			c.Kind = "order"
			terms, err := parseOrder(v.Value)
			if err != nil {
				return p.errf(v, "order: %v", err)
			}
			c.Order = terms
			return nil
		},
		"above": func(v *yaml.Node) error {
			c.Kind = "above"
			var two []string
			if err := p.strings(v, &two); err != nil || len(two) != 2 {
				return p.errf(v, "above: want [A, B]: every value of A above every value of B")
			}
			c.Above = [2]string{two[0], two[1]}
			return nil
		},
		"match": func(v *yaml.Node) error {
			c.Kind = "match"
			var two []string
			if err := p.strings(v, &two); err != nil || len(two) != 2 {
				return p.errf(v, "match: want [OURS, PAPER]: two quantities compared value for value")
			}
			c.Match = [2]string{two[0], two[1]}
			return nil
		},
		"test": func(v *yaml.Node) error {
			c.Kind = "test"
			c.TestVerdict = Holds
			err := p.mapping(v, map[string]func(*yaml.Node) error{
				"name": func(x *yaml.Node) error { return p.str(x, &c.TestName) },
				"file": func(x *yaml.Node) error { return p.str(x, &c.TestFile) },
				"verdict": func(x *yaml.Node) error {
					switch x.Value {
					case "partly":
						c.TestVerdict = Partly
					case "does not hold":
						c.TestVerdict = DoesNotHold
					default:
						return p.errf(x, "verdict %q: a test's verdict other than holds is partly or does not hold", x.Value)
					}
					return nil
				},
				"note": func(x *yaml.Node) error { return p.str(x, &c.TestNote) },
			}, "name", "file")
			if err == nil && (c.TestVerdict != Holds) != (c.TestNote != "") {
				return p.errf(v, "test: a verdict other than holds goes with a note saying what the test asserts, and a note with such a verdict")
			}
			return err
		},
		"readings": func(v *yaml.Node) error {
			if v.Kind != yaml.MappingNode {
				return p.errf(v, "readings: want a mapping of reading (relative, points) to quantity")
			}
			for i := 0; i+1 < len(v.Content); i += 2 {
				name := v.Content[i].Value
				if name != "relative" && name != "points" {
					return p.errf(v.Content[i], "reading %q: want relative or points", name)
				}
				c.Readings = append(c.Readings, reading{name, v.Content[i+1].Value})
			}
			return nil
		},
	})
	if err != nil {
		return nil, err
	}
	if c.Kind == "" {
		return nil, p.errf(n, "a check needs one of within, sign, order, above, match, test")
	}
	if len(c.Readings) > 0 && (c.Kind != "within" || c.Of != "") {
		return nil, p.errf(n, "readings go with within and replace of")
	}
	if (c.Kind == "within" || c.Kind == "sign") && c.Of == "" && len(c.Readings) == 0 {
		return nil, p.errf(n, "%s: which quantity? (of)", c.Kind)
	}
	if c.Partly == "" {
		c.Partly = "some"
	}
	if within != nil {
		if err := p.within(c, within, scale, negate); err != nil {
			return nil, err
		}
	} else if !math.IsNaN(scale) || negate {
		return nil, p.errf(n, "scale and negate belong to within: ref")
	}
	return c, nil
}

// within reads a check's range: a number, [low, high], "ref" (the claim's first
// reference row) or {ref: ID}; a reference's value is multiplied by scale (0.01 for a
// unit of %, else 1 unless given) and negated if asked.
func (p *parser) within(c *Check, n *yaml.Node, scale float64, negate bool) error {
	switch {
	case n.Kind == yaml.SequenceNode && len(n.Content) == 2:
		if err := p.number(n.Content[0], &c.Lo); err != nil {
			return err
		}
		if err := p.number(n.Content[1], &c.Hi); err != nil {
			return err
		}
		if c.Lo > c.Hi {
			return p.errf(n, "within [%v, %v]: low above high", c.Lo, c.Hi)
		}
	case n.Kind == yaml.ScalarNode && n.Value == "ref":
		c.Ref = "*"
	case n.Kind == yaml.MappingNode && len(n.Content) == 2 && n.Content[0].Value == "ref":
		c.Ref = n.Content[1].Value
	case n.Kind == yaml.ScalarNode:
		if err := p.number(n, &c.Lo); err != nil {
			return err
		}
		c.Hi = c.Lo
	default:
		return p.errf(n, "within: want a number, [low, high], ref or {ref: ID}")
	}
	if c.Ref == "" && (!math.IsNaN(scale) || negate) {
		return p.errf(n, "scale and negate belong to within: ref")
	}
	c.refScale, c.refNegate = scale, negate
	return nil
}

// parseOrder reads "a > b >= c": names and relations.
func parseOrder(s string) ([]orderTerm, error) {
	f := strings.Fields(s)
	if len(f) < 3 || len(f)%2 == 0 {
		return nil, fmt.Errorf("%q: want NAME REL NAME [REL NAME ...] with REL one of > >= < <=", s)
	}
	var out []orderTerm
	for i := 0; i < len(f); i += 2 {
		t := orderTerm{name: f[i]}
		if i+1 < len(f) {
			t.rel = f[i+1]
			if !slices.Contains([]string{">", ">=", "<", "<="}, t.rel) {
				return nil, fmt.Errorf("%q: relation %q: want > >= < <=", s, t.rel)
			}
		}
		if _, err := strconv.ParseFloat(t.name, 64); !validName(t.name) && err != nil {
			return nil, fmt.Errorf("%q: %q is not a quantity name or a number", s, t.name)
		}
		out = append(out, t)
	}
	return out, nil
}

func (p *parser) diagnosis(n *yaml.Node) (*Diagnosis, error) {
	d := &Diagnosis{Line: n.Line}
	err := p.mapping(n, map[string]func(*yaml.Node) error{
		"when": func(v *yaml.Node) error {
			c, err := p.check(v)
			d.When = c
			return err
		},
		"text": func(v *yaml.Node) error { return p.str(v, &d.Text) },
		"test": func(v *yaml.Node) error {
			return p.mapping(v, map[string]func(*yaml.Node) error{
				"name": func(x *yaml.Node) error { return p.str(x, &d.TestName) },
				"file": func(x *yaml.Node) error { return p.str(x, &d.TestFile) },
			}, "name", "file")
		},
	}, "when", "text")
	if err != nil {
		return nil, err
	}
	if d.When.Kind == "test" || len(d.When.Readings) > 0 {
		return nil, p.errf(n, "a diagnosis' when is a check on quantities (within, sign, order, above)")
	}
	return d, nil
}

// resolveAliases replaces YAML aliases (*name) by copies of what they name, so that a
// file may define a list once (&name) and use it in several claims.
func resolveAliases(n *yaml.Node, depth int) *yaml.Node {
	if depth > 64 {
		return nil
	}
	if n.Kind == yaml.AliasNode {
		return resolveAliases(n.Alias, depth+1)
	}
	c := *n
	c.Content = nil
	for _, k := range n.Content {
		r := resolveAliases(k, depth+1)
		if r == nil {
			return nil
		}
		c.Content = append(c.Content, r)
	}
	return &c
}
