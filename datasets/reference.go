package datasets

import (
	"embed"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
)

// The reference tables. Only reference/*.csv is embedded for now; the
// experiment files (experiments/*.yaml) and the results directory can be
// added to this directive once they hold files ("go:embed" fails on a
// pattern that matches nothing).
//
//go:embed reference/*.csv
var files embed.FS

const referenceDir = "reference"

// header is the column order of every reference CSV file.
var header = []string{"id", "source", "where", "file", "line", "quantity", "topology", "configuration",
	"scheme", "value", "low", "high", "unit", "kind", "quote"}

// Kinds of reference rows (see the package documentation).
const (
	KindExact    = "exact"
	KindFormula  = "formula"
	KindMeasured = "measured"
	KindClaim    = "claim"
	KindTable    = "table"
)

// Kinds lists the accepted values of Reference.Kind.
var Kinds = []string{KindExact, KindFormula, KindMeasured, KindClaim, KindTable}

// Sources lists the accepted values of Reference.Source.
var Sources = []string{"[TR]", "[J]", "[DL]", "[Th]", "[nDT]", "[EXT]", "[AR]", "[CS]", "[KNS]", "[TT]", "[TCT]"}

// Schemes lists the accepted values of Reference.Scheme ("" when the value
// does not depend on the deadlock-avoidance scheme or the paper does not say).
var Schemes = []string{"", "bubble", "vc"}

// Reference is one value from a paper, with where it comes from.
type Reference struct {
	ID     string // short stable identifier, unique across all files
	Source string // [TR], [J], [DL], [Th], [nDT], [EXT], [AR], [CS], [KNS], [TT] or [TCT]
	Where  string // "Table 1.1", "Fig. 16", "§7.3.3"...
	File   string // seeds file name
	Line   int    // 1-based line of the value (or its sentence) in File

	Quantity      string // what is measured
	Topology      string // topology spec string when it applies (twin:4x4x4/D, torus:16x8)
	Configuration string // report label(s) A-J separated by spaces, or "cbest"
	Scheme        string // bubble, vc or ""

	Value, Low, High float64 // NaN when empty; Low and High for ranges
	Unit             string
	Kind             string // exact, formula, measured, claim or table
	Quote            string // verbatim phrase from File around Line
}

// HasValue reports whether the row carries a single value.
func (r Reference) HasValue() bool { return !math.IsNaN(r.Value) }

// HasRange reports whether the row carries a range Low..High.
func (r Reference) HasRange() bool { return !math.IsNaN(r.Low) && !math.IsNaN(r.High) }

// Configurations returns the configuration labels of the row (nil if none).
func (r Reference) Configurations() []string { return strings.Fields(r.Configuration) }

// HasConfiguration reports whether label is among the row's configurations.
func (r Reference) HasConfiguration(label string) bool {
	return slices.Contains(r.Configurations(), label)
}

// ReferenceNames returns the names accepted by References, sorted.
func ReferenceNames() []string {
	entries, err := fs.ReadDir(files, referenceDir)
	if err != nil {
		panic(err) // the embedded directory always exists
	}
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".csv"); ok {
			names = append(names, name)
		}
	}
	return names
}

// References loads one reference file by name: the file's base name without
// ".csv", e.g. "3dt-configurations".
func References(name string) ([]Reference, error) {
	name = strings.TrimSuffix(name, ".csv")
	names := ReferenceNames()
	if !slices.Contains(names, name) {
		return nil, fmt.Errorf("datasets: unknown reference table %q (known: %s)", name, strings.Join(names, ", "))
	}
	p := path.Join(referenceDir, name+".csv")
	f, err := files.Open(p)
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	defer f.Close()
	refs, err := parse(f)
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: %w", p, err)
	}
	return refs, nil
}

// MustReferences is References for notebooks: it panics on error.
func MustReferences(name string) []Reference {
	refs, err := References(name)
	if err != nil {
		panic(err)
	}
	return refs
}

// AllReferences loads every reference file, in ReferenceNames order.
func AllReferences() ([]Reference, error) {
	var all []Reference
	for _, name := range ReferenceNames() {
		refs, err := References(name)
		if err != nil {
			return nil, err
		}
		all = append(all, refs...)
	}
	return all, nil
}

// Lookup finds a row by id in any reference file.
func Lookup(id string) (Reference, error) {
	all, err := AllReferences()
	if err != nil {
		return Reference{}, err
	}
	if r, ok := Find(all, id); ok {
		return r, nil
	}
	return Reference{}, fmt.Errorf("datasets: no reference row with id %q", id)
}

// Find returns the row with the given id.
func Find(refs []Reference, id string) (Reference, bool) {
	for _, r := range refs {
		if r.ID == id {
			return r, true
		}
	}
	return Reference{}, false
}

// Filter returns the rows for which keep returns true, in order.
func Filter(refs []Reference, keep func(Reference) bool) []Reference {
	var out []Reference
	for _, r := range refs {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

// parse reads a reference CSV: the header, then one row per value.
func parse(rd io.Reader) ([]Reference, error) {
	cr := csv.NewReader(rd)
	cr.FieldsPerRecord = len(header)
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	if !slices.Equal(head, header) {
		return nil, fmt.Errorf("header is %q, want %q", strings.Join(head, ","), strings.Join(header, ","))
	}
	var refs []Reference
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return refs, nil
		}
		if err != nil {
			return nil, err
		}
		line, _ := cr.FieldPos(0)
		r, err := parseRow(rec)
		if err != nil {
			return nil, fmt.Errorf("line %d (id %q): %w", line, rec[0], err)
		}
		refs = append(refs, r)
	}
}

func parseRow(rec []string) (Reference, error) {
	r := Reference{
		ID: rec[0], Source: rec[1], Where: rec[2], File: rec[3],
		Quantity: rec[5], Topology: rec[6], Configuration: rec[7], Scheme: rec[8],
		Unit: rec[12], Kind: rec[13], Quote: rec[14],
	}
	if r.ID == "" {
		return r, errors.New("empty id")
	}
	if !slices.Contains(Sources, r.Source) {
		return r, fmt.Errorf("source %q not one of %s", r.Source, strings.Join(Sources, " "))
	}
	if !slices.Contains(Kinds, r.Kind) {
		return r, fmt.Errorf("kind %q not one of %s", r.Kind, strings.Join(Kinds, " "))
	}
	if !slices.Contains(Schemes, r.Scheme) {
		return r, fmt.Errorf("scheme %q not one of bubble, vc or empty", r.Scheme)
	}
	var err error
	if r.Line, err = strconv.Atoi(rec[4]); err != nil || r.Line < 1 {
		return r, fmt.Errorf("line %q is not a positive integer", rec[4])
	}
	for i, dst := range []*float64{&r.Value, &r.Low, &r.High} {
		if *dst, err = parseNumber(rec[9+i]); err != nil {
			return r, fmt.Errorf("%s: %w", header[9+i], err)
		}
	}
	return r, nil
}

// parseNumber parses a value cell; empty means NaN.
func parseNumber(s string) (float64, error) {
	if s == "" {
		return math.NaN(), nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a finite number", s)
	}
	return v, nil
}
