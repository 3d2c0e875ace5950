package experiment

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/twintorus/twintorus/internal/userfile"
	"github.com/twintorus/twintorus/sim/booksim"
	"github.com/twintorus/twintorus/sim/engine"
	"gopkg.in/yaml.v3"
)

// SpecError is a problem with a spec: where it is and what is wrong, in one line.
type SpecError struct {
	File string // the spec's file name; empty for specs given as Go values
	Line int    // 1-based; 0 when unknown
	Key  string // the key at fault, e.g. "topologies[1]" or "engine.warmup"; may be empty
	Err  error
}

func (e *SpecError) Error() string {
	loc := e.File
	if loc == "" {
		loc = "spec"
	}
	if e.Line > 0 {
		loc += ":" + strconv.Itoa(e.Line)
	}
	if key := e.Key; key != "" {
		if strings.ContainsFunc(key, func(r rune) bool { return !unicode.IsPrint(r) }) {
			key = strconv.Quote(key)
		}
		loc += ": " + key
	}
	return loc + ": " + e.Err.Error()
}

func (e *SpecError) Unwrap() error { return e.Err }

// source remembers where each key of a parsed spec was, for error messages.
type source struct {
	file  string
	root  int            // line of the spec's top-level mapping
	lines map[string]int // key path ("engine.warmup", "loads[2]") to line
}

// line is the line of key, or of the nearest enclosing key that has one.
func (src *source) line(key string) int {
	for key != "" {
		if l, ok := src.lines[key]; ok {
			return l
		}
		i := strings.LastIndexAny(key, ".[")
		if i < 0 {
			break
		}
		key = key[:i]
	}
	return src.root
}

func (s Spec) errAt(key string, err error) error {
	e := &SpecError{Key: key, Err: err}
	if s.src != nil {
		e.File, e.Line = s.src.file, s.src.line(key)
	}
	return e
}

// has tells whether the spec's file gave key.
func (s Spec) has(key string) bool {
	if s.src == nil {
		return false
	}
	_, ok := s.src.lines[key]
	return ok
}

// ReadSpec reads and validates a spec file; see ParseSpec.
// The file must be a regular one of at most MaxSpecBytes (a device such as /dev/zero
// would be read without end).
func ReadSpec(path string) (Spec, error) {
	data, err := userfile.ReadFile(path, MaxSpecBytes)
	if err != nil {
		return Spec{}, fmt.Errorf("read spec: %w", err)
	}
	return ParseSpec(path, data)
}

// ParseSpec reads a spec from YAML and validates it (Spec.Validate). Decoding is
// strict: an unknown key, a key given twice, a value of the wrong type, an empty list
// or a second YAML document is an error. Every error is a *SpecError naming file, line
// and key. Keys left out take NewSpec's defaults.
func ParseSpec(file string, data []byte) (Spec, error) {
	s, err := decodeSpec(file, data)
	if err != nil {
		return Spec{}, err
	}
	if err := s.Validate(); err != nil {
		return Spec{}, err
	}
	return s.withDefaults(), nil
}

// ParseSpecCurves is ParseSpec that also returns the spec's curves (Spec.Curves) for
// a caller that needs both: validating a spec expands its curves, which builds every
// network and routing, so asking for them again would build them twice.
func ParseSpecCurves(file string, data []byte) (Spec, []Curve, error) {
	s, err := decodeSpec(file, data)
	if err != nil {
		return Spec{}, nil, err
	}
	curves, err := s.Curves()
	if err != nil {
		return Spec{}, nil, err
	}
	return s.withDefaults(), curves, nil
}

// decodeSpec is ParseSpec without validation.
func decodeSpec(file string, data []byte) (Spec, error) {
	// Bounded before the parser builds its tree, which costs far more than the text.
	if len(data) > MaxSpecBytes {
		return Spec{}, &SpecError{File: file, Err: fmt.Errorf("%d bytes: a spec file is at most %d bytes", len(data), MaxSpecBytes)}
	}
	if n := bytes.Count(data, []byte{','}) + bytes.Count(data, []byte{'\n'}); n > MaxSpecItems {
		return Spec{}, &SpecError{File: file, Err: fmt.Errorf("%d commas and lines: a spec holds at most %d list items in all (loads: at most %d)", n, MaxSpecItems, MaxLoads)}
	}
	src := &source{file: file, root: 1, lines: map[string]int{}}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return Spec{}, &SpecError{File: file, Err: errors.New("empty spec: give at least topologies and loads")}
		}
		return Spec{}, syntaxError(file, err)
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		return Spec{}, &SpecError{File: file, Line: next.Line, Err: errors.New("a second YAML document: a spec file holds one")}
	case !errors.Is(err, io.EOF):
		return Spec{}, syntaxError(file, err)
	}
	root := deref(&doc)
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = deref(root.Content[0])
	}
	src.root = root.Line
	if root.Kind != yaml.MappingNode {
		return Spec{}, &SpecError{File: file, Line: root.Line, Err: fmt.Errorf("a spec is a mapping of keys (%s), not %s", strings.Join(append(yamlKeys(reflect.TypeFor[Spec]()), BookSimKey), ", "), describe(root))}
	}
	s := NewSpec()
	s.src = src
	bookSim, err := takeBookSim(src, root)
	if err != nil {
		return Spec{}, err
	}
	if err := decodeMapping(src, root, reflect.ValueOf(&s).Elem(), ""); err != nil {
		return Spec{}, err
	}
	if bookSim != "" {
		if err := s.applyBookSim(bookSim); err != nil {
			return Spec{}, err
		}
	}
	if s.Preset != "" {
		pre, err := engine.LookupPreset(s.Preset)
		if err != nil {
			return Spec{}, s.errAt("switch", err)
		}
		s.Preset = pre.Name
		s.Engine = s.overPreset(pre.Params())
		// The preset's virtual output queues, where each curve's routing gives one
		// port per hop (Curves, PresetVOQ).
		s.presetVOQ = pre.Params().VOQ && !s.has("engine.voq")
		if !s.has("deadlock") && pre.Deadlock != "" {
			// The preset's scheme, where each curve's routing is deadlock-free under it
			// (Curves, PresetScheme); the axis keeps its name, so the hash is as before.
			s.Deadlock, s.presetScheme = []string{pre.Deadlock}, true
		}
	}
	return s, nil
}

// BookSimKey is the spec key that names a BookSim2 configuration file (applyBookSim).
const BookSimKey = "booksim"

// takeBookSim removes the booksim key from the spec's top-level mapping and returns
// its path. The key is not a field of Spec: what it fills in is, so that a spec
// written out (MarshalYAML) holds every value explicitly and reads back the same,
// and its hash follows the values, not the file's name.
func takeBookSim(src *source, root *yaml.Node) (string, error) {
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := deref(root.Content[i]), deref(root.Content[i+1])
		if k.Kind != yaml.ScalarNode || k.Value != BookSimKey {
			continue
		}
		for j := i + 2; j+1 < len(root.Content); j += 2 {
			if k2 := deref(root.Content[j]); k2.Kind == yaml.ScalarNode && k2.Value == BookSimKey {
				return "", &SpecError{File: src.file, Line: k2.Line, Key: BookSimKey, Err: errors.New("given twice")}
			}
		}
		if v.Kind != yaml.ScalarNode || strings.TrimSpace(v.Value) == "" {
			return "", &SpecError{File: src.file, Line: k.Line, Key: BookSimKey, Err: errors.New("want the path of a BookSim2 configuration file, e.g. booksim: torus88")}
		}
		src.lines[BookSimKey] = k.Line
		root.Content = append(root.Content[:i:i], root.Content[i+2:]...)
		return v.Value, nil
	}
	return "", nil
}

// applyBookSim fills the spec from a BookSim2 configuration file (package booksim;
// docs/booksim.md), read relative to the spec's directory: topologies, routing,
// deadlock, traffic, sizes, loads, seed and the engine block, each unless the spec
// gives it itself. A switch preset would replace the file's engine block, so the two
// exclude each other.
func (s *Spec) applyBookSim(path string) error {
	if s.has("switch") {
		return s.errAt("switch", errors.New("a switch preset does not apply with booksim: the BookSim2 file sets the switch; set engine keys to change it"))
	}
	if !filepath.IsAbs(path) && s.src != nil {
		path = filepath.Join(filepath.Dir(s.src.file), path)
	}
	m, err := booksim.MapFile(path)
	if err != nil {
		return s.errAt(BookSimKey, err)
	}
	for _, f := range []struct {
		key string
		set func()
	}{
		{"topologies", func() { s.Topologies = []string{m.Topology} }},
		{"routing", func() { s.Routing = []string{m.Routing} }},
		{"deadlock", func() { s.Deadlock = []string{m.Deadlock} }},
		{"tie", func() {
			if m.Tie != "" {
				s.Tie = []string{m.Tie}
			}
		}},
		{"traffic", func() { s.Traffic = []string{m.Traffic} }},
		{"sizes", func() { s.Sizes = []string{m.Sizes} }},
		{"loads", func() { s.Loads = Fixed(m.Load) }},
		{"seed", func() { s.Seed = m.Seed }},
	} {
		if !s.has(f.key) {
			f.set()
		}
	}
	s.Engine = s.overPreset(m.Engine)
	return nil
}

// overPreset is the preset's parameters with the engine keys the spec's file gave.
func (s Spec) overPreset(base engine.Params) engine.Params {
	given, v := reflect.ValueOf(s.Engine), reflect.ValueOf(&base).Elem()
	for name, i := range yamlFields(v.Type()) {
		if s.has("engine." + name) {
			v.Field(i).Set(given.Field(i))
		}
	}
	return base
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxError turns a yaml.v3 syntax error into a SpecError with its line.
func syntaxError(file string, err error) error {
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &SpecError{File: file, Line: line, Err: errors.New("YAML syntax: " + m[2])}
	}
	return &SpecError{File: file, Err: errors.New("YAML syntax: " + strings.TrimPrefix(msg, "yaml: "))}
}

// denied are keys of an embedded struct that the spec sets elsewhere.
var denied = map[string]map[string]string{
	"engine": {
		"load": "the offered load comes from loads: at the top level",
		"seed": "the seed comes from seed: and seeds: at the top level",
	},
}

// decodeMapping decodes a mapping node into the struct v, one key at a time, so that
// every key is checked and every error has its line.
func decodeMapping(src *source, n *yaml.Node, v reflect.Value, path string) error {
	n = deref(n)
	if isNull(n) {
		return nil // an empty block keeps the defaults
	}
	if n.Kind != yaml.MappingNode {
		return &SpecError{File: src.file, Line: n.Line, Key: path, Err: fmt.Errorf("want a mapping of keys (%s), got %s", strings.Join(yamlKeys(v.Type()), ", "), describe(n))}
	}
	fields := yamlFields(v.Type())
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := deref(n.Content[i]), n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return &SpecError{File: src.file, Line: k.Line, Key: path, Err: fmt.Errorf("a key must be a name, not %s", describe(k))}
		}
		key := k.Value
		if path != "" {
			key = path + "." + k.Value
		}
		if seen[k.Value] {
			return &SpecError{File: src.file, Line: k.Line, Key: key, Err: errors.New("given twice")}
		}
		seen[k.Value] = true
		if why, ok := denied[path][k.Value]; ok {
			return &SpecError{File: src.file, Line: k.Line, Key: key, Err: errors.New("not allowed here: " + why)}
		}
		f, ok := fields[k.Value]
		if !ok {
			where := "the spec"
			if path != "" {
				where = path
			}
			accepted := yamlKeys(v.Type())
			for d := range denied[path] {
				accepted = removeString(accepted, d)
			}
			if path == "" {
				accepted = append(accepted, BookSimKey)
			}
			return &SpecError{File: src.file, Line: k.Line, Key: key, Err: fmt.Errorf("unknown key in %s; accepted are %s", where, strings.Join(accepted, ", "))}
		}
		src.lines[key] = k.Line
		if err := decodeValue(src, val, v.Field(f), key); err != nil {
			return err
		}
	}
	return nil
}

func decodeValue(src *source, n *yaml.Node, v reflect.Value, key string) error {
	n = deref(n)
	fail := func(line int, err error) error { return &SpecError{File: src.file, Line: line, Key: key, Err: err} }
	switch p := v.Addr().Interface().(type) {
	case *[]string:
		list, err := decodeStrings(src, n, key)
		if err != nil {
			return err
		}
		*p = list
		return nil
	case *Loads:
		return decodeLoads(src, n, p, key)
	case *engine.Params:
		return decodeMapping(src, n, v, key)
	case **Precision:
		// An empty block is a target without a threshold, which validation refuses
		// with what to give, rather than no target at all.
		*p = &Precision{}
		return decodeMapping(src, n, reflect.ValueOf(*p).Elem(), key)
	}
	if n.Kind != yaml.ScalarNode || isNull(n) || isInteger(v) && n.ShortTag() != "!!int" {
		// yaml.v3 would truncate 2.5 into an integer field: refuse it.
		return fail(n.Line, fmt.Errorf("want %s, got %s", want(v.Type()), describe(n)))
	}
	if err := n.Decode(v.Addr().Interface()); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			return fail(n.Line, fmt.Errorf("want %s, got %s", want(v.Type()), describe(n)))
		}
		return fail(n.Line, err)
	}
	return nil
}

// decodeStrings reads a list of scalars, or one scalar as a list of one.
func decodeStrings(src *source, n *yaml.Node, key string) ([]string, error) {
	switch {
	case isNull(n):
		return nil, &SpecError{File: src.file, Line: n.Line, Key: key, Err: errors.New("empty: give a value or a list of values, or leave the key out")}
	case n.Kind == yaml.ScalarNode:
		src.lines[item(key, 0)] = n.Line
		return []string{n.Value}, nil
	case n.Kind != yaml.SequenceNode:
		return nil, &SpecError{File: src.file, Line: n.Line, Key: key, Err: fmt.Errorf("want a value or a list of values, got %s", describe(n))}
	case len(n.Content) == 0:
		return nil, &SpecError{File: src.file, Line: n.Line, Key: key, Err: errors.New("empty list: give at least one value, or leave the key out")}
	}
	list := make([]string, len(n.Content))
	for i, c := range n.Content {
		c = deref(c)
		k := item(key, i)
		if c.Kind != yaml.ScalarNode || isNull(c) {
			return nil, &SpecError{File: src.file, Line: c.Line, Key: k, Err: fmt.Errorf("want a string, got %s", describe(c))}
		}
		src.lines[k] = c.Line
		list[i] = c.Value
	}
	return list, nil
}

// decodeLoads reads a list of loads, one load, or {auto: {...}}.
func decodeLoads(src *source, n *yaml.Node, l *Loads, key string) error {
	fail := func(line int, key string, err error) error {
		return &SpecError{File: src.file, Line: line, Key: key, Err: err}
	}
	empty := errors.New("empty load axis: list offered loads in flits/cycle/PE, e.g. [0.1, 0.2, 0.3], or search with {auto: {from: 0.05, step: 0.05}}")
	number := func(c *yaml.Node, k string) (float64, error) {
		var v float64
		if c.Kind != yaml.ScalarNode || isNull(c) || c.Decode(&v) != nil {
			return 0, fail(c.Line, k, fmt.Errorf("want a load in flits/cycle/PE (a number), got %s", describe(c)))
		}
		src.lines[k] = c.Line
		return v, nil
	}
	*l = Loads{}
	switch {
	case isNull(n):
		return fail(n.Line, key, empty)
	case n.Kind == yaml.ScalarNode:
		v, err := number(n, item(key, 0))
		l.Values = []float64{v}
		return err
	case n.Kind == yaml.SequenceNode:
		if len(n.Content) == 0 {
			return fail(n.Line, key, empty)
		}
		for i, c := range n.Content {
			v, err := number(deref(c), item(key, i))
			if err != nil {
				return err
			}
			l.Values = append(l.Values, v)
		}
		return nil
	case n.Kind == yaml.MappingNode:
		if len(n.Content) != 2 || deref(n.Content[0]).Value != "auto" {
			line := n.Line
			if len(n.Content) > 0 {
				line = deref(n.Content[0]).Line
			}
			if len(n.Content) > 2 && deref(n.Content[0]).Value == "auto" {
				line = deref(n.Content[2]).Line
			}
			return fail(line, key, errors.New("a mapping here holds one key, auto: e.g. {auto: {from: 0.05, step: 0.05, max: 1, refine: 3}}"))
		}
		a := DefaultAuto()
		src.lines[key+".auto"] = deref(n.Content[0]).Line
		if err := decodeMapping(src, n.Content[1], reflect.ValueOf(&a).Elem(), key+".auto"); err != nil {
			return err
		}
		l.Auto = &a
		return nil
	}
	return fail(n.Line, key, fmt.Errorf("want a list of loads or {auto: ...}, got %s", describe(n)))
}

// deref follows aliases (bounded: an alias cannot point at itself in yaml.v3).
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 100; i++ {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == 0 || n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.ScalarNode:
		if isNull(n) {
			return "nothing"
		}
		return strconv.Quote(n.Value)
	}
	return "nothing"
}

// isInteger tells whether v is a plain integer field (not one that reads text).
func isInteger(v reflect.Value) bool {
	if _, ok := v.Addr().Interface().(encoding.TextUnmarshaler); ok {
		return false
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// want says in words what a field of type t accepts.
func want(t reflect.Type) string {
	switch t {
	case reflect.TypeFor[engine.Buffer]():
		return "a buffer VCSxFLITS such as 4x32, or default"
	case reflect.TypeFor[engine.Switching]():
		return "vct or wormhole"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number 0 or more"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	}
	return "a string"
}

// yamlFields maps the yaml names of a struct's fields to their indices.
func yamlFields(t reflect.Type) map[string]int {
	m := map[string]int{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if !f.IsExported() || name == "-" || name == "" {
			continue
		}
		m[name] = i
	}
	return m
}

// yamlKeys lists the yaml names of a struct's fields, in field order.
func yamlKeys(t reflect.Type) []string {
	var keys []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if f.IsExported() && name != "-" && name != "" {
			keys = append(keys, name)
		}
	}
	return keys
}

func removeString(list []string, s string) []string {
	out := list[:0:0]
	for _, v := range list {
		if v != s {
			out = append(out, v)
		}
	}
	return out
}

// specYAML is the YAML form of a Spec, with the engine block as a node so that the
// keys the spec sets elsewhere (load, seed) can be left out.
type specYAML struct {
	Name       string   `yaml:"name,omitempty"`
	Preset     string   `yaml:"switch,omitempty"`
	Topologies []string `yaml:"topologies,flow"`
	Routing    []string `yaml:"routing,omitempty,flow"`
	Selection  []string `yaml:"selection,omitempty,flow"`
	Deadlock   []string `yaml:"deadlock,omitempty,flow"` // left out when the preset gives it
	Tie        []string `yaml:"tie,flow,omitempty"`
	Traffic    []string `yaml:"traffic,omitempty,flow"`
	Sizes      []string `yaml:"sizes,omitempty,flow"`
	// Closed-loop specs: the workload and mapping axes instead of traffic, sizes and loads.
	Workload    []string   `yaml:"workload,omitempty,flow"`
	Mapping     []string   `yaml:"mapping,omitempty,flow"`
	FlitBytes   int        `yaml:"flit_bytes,omitempty"`
	LocalCycles int64      `yaml:"local_cycles,omitempty"`
	Engine      *yaml.Node `yaml:"engine"`
	Loads       *Loads     `yaml:"loads,omitempty"`
	// PastSaturation was missing here once, so that a saved spec lost it: every key
	// of Spec must be here (TestSpecYAMLHasEveryKey).
	PastSaturation int        `yaml:"past_saturation,omitempty"`
	Seeds          int        `yaml:"seeds"`
	Seed           uint64     `yaml:"seed"`
	Precision      *Precision `yaml:"precision,omitempty,flow"`
	Metrics        []string   `yaml:"metrics,flow"`
}

// MarshalYAML writes the spec, defaults filled in, in the form ParseSpec reads.
func (s Spec) MarshalYAML() (any, error) {
	s = s.withDefaults()
	var eng yaml.Node
	if err := eng.Encode(s.Engine); err != nil {
		return nil, fmt.Errorf("encode engine parameters: %w", err)
	}
	kept := eng.Content[:0]
	for i := 0; i+1 < len(eng.Content); i += 2 {
		if s.presetVOQ && eng.Content[i].Value == "voq" {
			// Written out, the preset's VOQ would read back as the file's own, and be
			// taken for every curve, where a routing with a choice cannot have it.
			continue
		}
		if _, skip := denied["engine"][eng.Content[i].Value]; !skip {
			kept = append(kept, eng.Content[i], eng.Content[i+1])
		}
	}
	eng.Content = kept
	out := specYAML{Name: s.Name, Preset: s.Preset, Topologies: s.Topologies, Routing: s.Routing, Selection: s.Selection, Deadlock: s.Deadlock, Tie: s.Tie,
		Traffic: s.Traffic, Sizes: s.Sizes, Workload: s.Workload, Mapping: s.Mapping, FlitBytes: s.FlitBytes, LocalCycles: s.LocalCycles,
		Engine: &eng, Loads: &s.Loads, PastSaturation: s.PastSaturation, Seeds: s.Seeds, Seed: s.Seed, Precision: s.Precision, Metrics: s.Metrics}
	if s.closed() {
		out.Loads = nil
	}
	if s.presetScheme {
		// Written out, the preset's scheme would read back as one the file names, and
		// be taken for every curve, where it may turn deadlock avoidance off.
		out.Deadlock = nil
	}
	return out, nil
}

// MarshalYAML writes a flow list of loads or {auto: {...}}.
func (l Loads) MarshalYAML() (any, error) {
	if l.Auto != nil {
		return map[string]AutoSearch{"auto": *l.Auto}, nil
	}
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, v := range l.Values {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: strconv.FormatFloat(v, 'g', -1, 64)})
	}
	return n, nil
}

// MarshalJSON writes a list of loads or {"auto": {...}}.
func (l Loads) MarshalJSON() ([]byte, error) {
	if l.Auto != nil {
		return json.Marshal(map[string]AutoSearch{"auto": *l.Auto})
	}
	if l.Values == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(l.Values)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (l *Loads) UnmarshalJSON(b []byte) error {
	*l = Loads{}
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
		return json.Unmarshal(t, &l.Values)
	}
	var m struct {
		Auto *AutoSearch `json:"auto"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	l.Auto = m.Auto
	return nil
}
