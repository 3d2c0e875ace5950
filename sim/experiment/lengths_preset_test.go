package experiment

import (
	"slices"
	"testing"

	"github.com/twintorus/twintorus/sim/engine"
)

// A spec that asks for fixed lengths under a preset with uniform ones (extoll) is
// saved to a store and reads back as itself: fixed, the zero value, is written to the
// spec's YAML, not left for the preset to fill in.
func TestSpecFixedLengthsUnderUniformPreset(t *testing.T) {
	spec, err := ParseSpec("a.yaml", []byte("switch: extoll\ntopologies: [torus:8x8x4]\nrouting: dor\ndeadlock: vc\n"+
		"workload: [bcast:binomial:16B]\nengine:\n  packet_flits: 1\n  packet_lengths: fixed\nseeds: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if spec.Engine.PacketLengths != engine.LengthsFixed || spec.Engine.PacketFlits != 1 {
		t.Fatalf("engine %+v", spec.Engine)
	}
	back := savedAndRead(t, spec)
	if back.Engine.PacketLengths != engine.LengthsFixed || back.Hash() != spec.withDefaults().Hash() {
		t.Errorf("read back with %v lengths, hash %s (want fixed, %s)", back.Engine.PacketLengths, back.Hash(), spec.Hash())
	}
}

// A table row says whether its packets were of one length or of uniform lengths, since
// packet_flits alone (the longest packet) does not tell the two apart.
func TestRowPacketLengths(t *testing.T) {
	for _, l := range []engine.PacketLengths{engine.LengthsFixed, engine.LengthsUniform} {
		r := Record{Result: &engine.Result{}}
		r.Point.PacketFlits, r.Point.PacketLengths = 32, l
		if got := RowOf(&r).PacketLengths; got != l.String() {
			t.Errorf("lengths %v: row says %q", l, got)
		}
	}
	if !slices.Contains(Columns(), "packet_lengths") {
		t.Errorf("columns %v lack packet_lengths", Columns())
	}
}

// savedAndRead saves spec to a new store and reads it back from the store's copy.
func savedAndRead(t *testing.T, spec Spec) Spec {
	t.Helper()
	st, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	path, err := st.SaveSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadSpec(path)
	if err != nil {
		t.Fatal(err)
	}
	return back
}
