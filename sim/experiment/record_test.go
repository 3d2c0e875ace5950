package experiment

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/twintorus/twintorus/sim/engine"
)

// testRecord is a record with NaN figures, a deadlock report and per-channel data.
func testRecord(t *testing.T) *Record {
	t.Helper()
	s := NewSpec("torus:4x4")
	s.Loads = Fixed(0.3)
	curves, err := s.Curves()
	if err != nil {
		t.Fatal(err)
	}
	j := s.withDefaults().jobs(curves)[0]
	nan := math.NaN()
	res := &engine.Result{Topology: "torus:4x4", Routing: "dor", Offered: 0.3, Accepted: 0.1,
		LatencyNetwork: engine.Stats{Mean: 12.5, P50: 12, P90: 20, P99: 31, Max: 40, Count: 1000},
		LatencyE2E:     engine.Stats{Mean: nan, P50: nan, P90: nan, P99: nan, Max: nan},
		Hops:           nan, Saturated: true,
		Deadlock: &engine.Deadlock{Cycle: 1234, Channels: []engine.WaitingChannel{{Switch: 3, Node: []int{1, 2}, PortName: "x+", VC: 1}}},
		FlitHops: 1 << 40, Cycles: 3000, ChannelUtil: []float64{0, 0.25, 1}}
	return &Record{Key: j.key, Model: ModelVersion, Version: "test", SpecHash: s.Hash(), Spec: s.withDefaults(), Curve: curves[0].Name,
		Point: j.point, Result: res, Host: "h", Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func resultJSON(t *testing.T, r *engine.Result) string {
	t.Helper()
	b, err := json.Marshal(nanToNull(reflect.ValueOf(r)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestRecordRoundTrip(t *testing.T) {
	r := testRecord(t)
	data, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(data, []byte("\n")) != 1 || !bytes.HasPrefix(data, []byte(`{"format":"twintorus-record/2","sha256":"`)) {
		t.Errorf("record file is not one line of JSON in its envelope:\n%s", data)
	}
	if bytes.Contains(data, []byte(`"spec":`)) || !bytes.Contains(data, []byte(`"spec_hash":"`+r.SpecHash+`"`)) {
		t.Errorf("the record embeds its spec instead of naming it by hash:\n%s", data)
	}
	back, err := UnmarshalRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(back.Result.Hops) || !math.IsNaN(back.Result.LatencyE2E.Mean) || back.Result.LatencyNetwork.P99 != 31 ||
		back.Result.Deadlock == nil || back.Result.Deadlock.Channels[0].PortName != "x+" || back.Result.FlitHops != 1<<40 {
		t.Errorf("result changed: %+v", back.Result)
	}
	if got, want := resultJSON(t, back.Result), resultJSON(t, r.Result); got != want {
		t.Errorf("result changed:\n got %s\nwant %s", got, want)
	}
	if !isZeroSpec(back.Spec) {
		t.Errorf("a record read without its store has a spec: %+v", back.Spec)
	}
	back.Result, r.Result, r.Spec = nil, nil, Spec{}
	b1, _ := json.Marshal(back)
	b2, _ := json.Marshal(r)
	if string(b1) != string(b2) {
		t.Errorf("record changed:\n got %s\nwant %s", b1, b2)
	}
}

// TestRecordDetectsCorruption: every truncation of a record file, an altered byte, an
// altered field with a recomputed checksum, and a record of another model version are
// all refused.
func TestRecordDetectsCorruption(t *testing.T) {
	data, err := testRecord(t).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	// Dropping the final newline keeps the JSON whole; any shorter prefix is broken.
	for n := range len(data) - 1 {
		if _, err := UnmarshalRecord(data[:n]); err == nil {
			t.Fatalf("record truncated to %d of %d bytes was accepted", n, len(data))
		}
	}
	flipped := bytes.Replace(data, []byte(`"p99":31`), []byte(`"p99":32`), 1)
	if _, err := UnmarshalRecord(flipped); err == nil || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Errorf("altered figure: %v", err)
	}
	// Rewriting the record with a valid checksum but another load: the key no longer
	// matches the point.
	r := testRecord(t)
	r.Point.Load = 0.4
	moved, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := UnmarshalRecord(moved); err == nil || !strings.Contains(err.Error(), "key mismatch") {
		t.Errorf("point altered under its key: %v", err)
	}
	r = testRecord(t)
	r.Model = ModelVersion + 1
	stale, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := UnmarshalRecord(stale); !errors.Is(err, ErrStale) {
		t.Errorf("record of another model version: %v", err)
	}
	other := bytes.Replace(data, []byte(RecordFormat), []byte("twintorus-record/0"), 1)
	if _, err := UnmarshalRecord(other); err == nil || !strings.Contains(err.Error(), "format") {
		t.Errorf("other format: %v", err)
	}
}

func TestStore(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := testRecord(t)
	if got, err := s.Get(r.Key); got != nil || err != nil {
		t.Fatalf("empty store: %v, %v", got, err)
	}
	if err := s.Put(r); err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "records", r.Key[:2], r.Key+".json"); s.Path(r.Key) != want {
		t.Errorf("path %s, want %s", s.Path(r.Key), want)
	}
	got, err := s.Get(r.Key)
	if err != nil || got == nil || got.Point != r.Point || got.Result.Accepted != 0.1 {
		t.Fatalf("get: %+v, %v", got, err)
	}
	if got.Spec.Hash() != r.SpecHash || got.Spec.Loads.Values[0] != 0.3 {
		t.Errorf("get: the record's spec is not the one it was put with: %+v", got.Spec)
	}
	for _, p := range []string{s.Path(r.Key), filepath.Join(dir, "specs", r.SpecHash[:16]+".yaml")} {
		// Readable by whoever shares the store, as os.Create would make them.
		if info, err := os.Stat(p); err != nil || info.Mode().Perm() != 0o644 {
			t.Errorf("Put did not store %s readable by all: %v %v", p, info.Mode(), err)
		}
	}
	// A temporary file of a writer killed mid-write is not a record.
	if err := os.WriteFile(filepath.Join(dir, "records", r.Key[:2], tempPrefix+"x.json-123"), []byte(`{"form`), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(dir)
	if err != nil || len(c.Records) != 1 || len(c.Corrupt) != 0 || c.Err() != nil {
		t.Fatalf("load: %+v, %v", c, err)
	}
	// A record under another record's name is refused by Get and listed by Load.
	data, err := os.ReadFile(s.Path(r.Key))
	if err != nil {
		t.Fatal(err)
	}
	otherKey := strings.Repeat("ab", 32)
	if err := os.MkdirAll(filepath.Dir(s.Path(otherKey)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.Path(otherKey), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(otherKey); err == nil || !strings.Contains(err.Error(), "key mismatch") {
		t.Errorf("misnamed record: %v", err)
	}
	c, err = Load(dir)
	if err != nil || len(c.Records) != 1 || len(c.Corrupt) != 1 || c.Corrupt[0].Path != s.Path(otherKey) || c.Err() == nil {
		t.Errorf("load with a misnamed record: %+v, %v", c, err)
	}
	if _, err := Load(filepath.Join(dir, "nothing")); err == nil {
		t.Error("Load of a missing directory succeeded")
	}
}
