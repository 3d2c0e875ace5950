package experiment

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strings"
	"time"

	"github.com/twintorus/twintorus/sim/engine"
)

// RecordFormat names the layout of the record files this version writes: the record
// names its spec by hash (SpecHash) and the store keeps the spec once, in
// DIR/specs (Store.SaveSpec). Readers also accept RecordFormatV1, whose records embed
// their whole spec, and refuse any other.
const RecordFormat = "twintorus-record/2"

// RecordFormatV1 is the first layout: each record embeds the spec that made it, which
// made a spec of many loads cost its size once per record.
const RecordFormatV1 = "twintorus-record/1"

// Record is the result of one simulation, (point, seed), with its provenance. It is
// what a results store keeps, one file per record.
type Record struct {
	Key      string `json:"key"`       // Point.Key(): the record's name in the store
	Model    int    `json:"model"`     // ModelVersion that produced it
	Version  string `json:"version"`   // project version (internal/version) that produced it
	SpecHash string `json:"spec_hash"` // Spec.Hash() of the spec that produced it
	// Spec is that spec, defaults filled in. Record files of RecordFormat leave it
	// out and the store fills it from DIR/specs; RecordFormatV1 files embed it. It is
	// the zero Spec when the store has lost the spec file (Collection.SpecErrors).
	Spec  Spec   `json:"spec,omitzero"`
	Curve string `json:"curve"` // the curve's label
	// Replication is r in Seed+r; the point's engine seed is the seed it ran with.
	Replication int            `json:"replication"`
	Point       Point          `json:"point"`
	Result      *engine.Result `json:"-"` // stored as "result", with NaN as null (see below)
	Host        string         `json:"host,omitempty"`
	Time        time.Time      `json:"time"` // when it finished
}

// recordJSON carries the result through encoding/json, which rejects NaN: a run with
// no packet in the window has NaN latencies, and hops per packet NaN.
type recordJSON struct {
	Record
	Result json.RawMessage `json:"result"`
}

// recordFile is the on-disk envelope: the record's exact bytes and their SHA-256, so
// that a truncated or altered file is detected rather than merged.
type recordFile struct {
	Format string          `json:"format"`
	SHA256 string          `json:"sha256"`
	Record json.RawMessage `json:"record"`
}

// Marshal encodes the record as its file in RecordFormat: one line of JSON, the
// envelope around the record with its checksum. The spec is left out: the record
// names it by SpecHash, and Store.Put stores it once per store.
func (r *Record) Marshal() ([]byte, error) {
	if r.Result == nil {
		return nil, fmt.Errorf("record %s has no result", r.Key)
	}
	if !specHashForm.MatchString(r.SpecHash) {
		return nil, fmt.Errorf("record %s: spec hash %q: want the 64 hex digits of Spec.Hash()", r.Key, r.SpecHash)
	}
	res, err := json.Marshal(nanToNull(reflect.ValueOf(r.Result)))
	if err != nil {
		return nil, fmt.Errorf("encode result of %s: %w", r.Key, err)
	}
	body := *r
	body.Spec = Spec{}
	if field := nonFinite(reflect.ValueOf(body.Point), "point"); field != "" {
		return nil, fmt.Errorf("encode record %s: %s is not a finite number; a point holds finite numbers only", r.Key, field)
	}
	data, err := json.Marshal(recordJSON{Record: body, Result: res})
	if err != nil {
		return nil, fmt.Errorf("encode record %s: %w", r.Key, err)
	}
	return envelope(RecordFormat, data), nil
}

// specHashForm is what Spec.Hash returns; a record's SpecHash names a file, so it is
// checked before it becomes part of a path.
var specHashForm = regexp.MustCompile(`^[0-9a-f]{64}$`)

// envelope wraps a record's JSON body with its format and checksum, as one line.
func envelope(format string, body []byte) []byte {
	sum := sha256.Sum256(body)
	// Written by hand so that the record's bytes are exactly the ones hashed.
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"format":%q,"sha256":%q,"record":`, format, hex.EncodeToString(sum[:]))
	b.Write(body)
	b.WriteString("}\n")
	return b.Bytes()
}

// nonFinite names the first NaN or infinite float in v by its JSON path under prefix
// (e.g. "point.saturation_tolerance"), or returns "".
func nonFinite(v reflect.Value, prefix string) string {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Sprintf("%s (%v)", prefix, f)
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, ok := jsonField(f)
			if !ok {
				continue
			}
			path := prefix + "." + name
			if tagged, _, _ := strings.Cut(f.Tag.Get("json"), ","); f.Anonymous && tagged == "" {
				path = prefix // an embedded struct's fields are the outer struct's
			}
			if bad := nonFinite(v.Field(i), path); bad != "" {
				return bad
			}
		}
	}
	return ""
}

// UnmarshalRecord decodes a record file and checks it: format, checksum, and that the
// key it claims is the key of its point under the current ModelVersion. A record of
// another model version fails with ErrStale. A RecordFormat record comes back without
// its Spec, which its store holds (Store.Get and Load fill it in); a RecordFormatV1
// record comes back with the spec it embeds.
func UnmarshalRecord(data []byte) (*Record, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("empty file (truncated)")
	}
	var f recordFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("not a valid record file (truncated?): %w", err)
	}
	if f.Format != RecordFormat && f.Format != RecordFormatV1 {
		return nil, fmt.Errorf("format %q, want %q (or the older %q)", f.Format, RecordFormat, RecordFormatV1)
	}
	sum := sha256.Sum256(f.Record)
	if got := hex.EncodeToString(sum[:]); got != f.SHA256 {
		return nil, fmt.Errorf("checksum mismatch: the record's SHA-256 is %.12s…, the file says %.12s…", got, f.SHA256)
	}
	var rj recordJSON
	if err := json.Unmarshal(f.Record, &rj); err != nil {
		return nil, fmt.Errorf("record body: %w", err)
	}
	r := rj.Record
	if f.Format != RecordFormatV1 {
		r.Spec = Spec{} // the store's copy is the spec of record
	}
	if len(rj.Result) == 0 || string(rj.Result) == "null" {
		return nil, errors.New("record has no result")
	}
	r.Result = new(engine.Result)
	fillNaN(reflect.ValueOf(r.Result).Elem())
	if err := json.Unmarshal(rj.Result, r.Result); err != nil {
		return nil, fmt.Errorf("record result: %w", err)
	}
	if r.Model != ModelVersion {
		return &r, fmt.Errorf("%w: made under model version %d, this is %d", ErrStale, r.Model, ModelVersion)
	}
	if k := r.Point.Key(); r.Key != k {
		return nil, fmt.Errorf("key mismatch: the record says %.12s…, its point hashes to %.12s…", r.Key, k)
	}
	return &r, nil
}

// ErrStale marks a record made under another ModelVersion: valid, but not comparable
// with results of this version.
var ErrStale = errors.New("stale record")

// JSONSafe returns v as a value encoding/json can write even when it holds NaN (a
// run that delivered no packet has NaN latencies): NaN and infinite floats become
// null. Structs become maps by their json names (embedded structs are not flattened).
func JSONSafe(v any) any { return nanToNull(reflect.ValueOf(v)) }

// nanToNull turns v into a value encoding/json can write: structs become maps by their
// json names, and NaN or infinite floats become null. It follows encoding/json's
// rules for the types a Result holds: tags, omitempty, "-", pointers and slices.
func nanToNull(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil
		}
		return f
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return nanToNull(v.Elem())
	case reflect.Slice:
		if v.IsNil() {
			return nil
		}
		fallthrough
	case reflect.Array:
		out := make([]any, v.Len())
		for i := range out {
			out[i] = nanToNull(v.Index(i))
		}
		return out
	case reflect.Struct:
		if v.CanInterface() {
			if _, ok := v.Interface().(json.Marshaler); ok {
				return v.Interface()
			}
		}
		out := map[string]any{}
		t := v.Type()
		for i := range t.NumField() {
			name, opts, ok := jsonField(t.Field(i))
			if !ok {
				continue
			}
			fv := v.Field(i)
			if strings.Contains(opts, "omitempty") && fv.IsZero() {
				continue
			}
			out[name] = nanToNull(fv)
		}
		return out
	}
	return v.Interface()
}

// jsonField is the name encoding/json gives a struct field, and its tag options; ok
// is false for a field it leaves out.
func jsonField(f reflect.StructField) (name, opts string, ok bool) {
	if !f.IsExported() {
		return "", "", false
	}
	name, opts, _ = strings.Cut(f.Tag.Get("json"), ",")
	if name == "-" && opts == "" {
		return "", "", false
	}
	if name == "" {
		name = f.Name
	}
	return name, opts, true
}

// fillNaN sets every float of a struct (nested structs included, not behind pointers
// or in slices) to NaN, so that the nulls nanToNull wrote decode back as NaN.
func fillNaN(v reflect.Value) {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		v.SetFloat(math.NaN())
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillNaN(v.Field(i))
			}
		}
	}
}
