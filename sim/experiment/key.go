package experiment

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/twintorus/twintorus/sim/engine"
)

// ModelVersion is engine.ModelVersion, the revision of the simulation model that
// results depend on. It is part of every record key, so a new model version
// invalidates every stored result. Records made under another model version are not
// found by a sweep (it runs the point again) and are left out by Load, which counts
// them as stale.
const ModelVersion = engine.ModelVersion

// Key is the content hash of the point, load and seed included, under ModelVersion:
// 64 hex digits, the name of its record in a results store. The point should be in
// canonical form, as Spec.Curves makes it ("twin:4x4x4/D", "dort", "bubble", ...), so
// that equal simulations written differently share a key.
//
// The hash is over a canonical JSON object of the point's fields, sorted by name, with
// fields at their zero value left out: a field added to Point or engine.Params later
// keeps every existing key as long as its zero value means the old behaviour.
func (p Point) Key() string {
	sum := sha256.Sum256(p.canonicalJSON())
	return hex.EncodeToString(sum[:])
}

func (p Point) canonicalJSON() []byte {
	b, err := json.Marshal(p)
	if err != nil {
		// Only a non-finite float fails; such a point never validates or runs, and
		// its printed form still hashes to a key of its own.
		b = fmt.Appendf(nil, "%#v", p)
	}
	var fields map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // keeps 64-bit seeds exact
	if err := dec.Decode(&fields); err != nil {
		fields = map[string]any{"unparsed": string(b)}
	}
	for k, v := range fields {
		switch v := v.(type) {
		case nil:
			delete(fields, k)
		case bool:
			if !v {
				delete(fields, k)
			}
		case string:
			if v == "" {
				delete(fields, k)
			}
		case json.Number:
			if f, err := v.Float64(); err == nil && f == 0 {
				delete(fields, k)
			}
		}
	}
	fields["model"] = ModelVersion
	out, _ := json.Marshal(fields) // maps marshal with sorted keys
	return append([]byte("twintorus-point\n"), out...)
}
