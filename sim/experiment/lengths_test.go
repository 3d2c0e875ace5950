package experiment

import (
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/engine"
)

// A spec names the packet lengths among its engine keys; the default (fixed, written or
// not) keeps the points' keys, which the stored results were made under, uniform makes
// new ones, and so does the extoll preset (uniform lengths of up to 32 flits since
// issue 12; its earlier fixed 16-flit points must not be found again). A bad value is
// refused with its line.
func TestSpecPacketLengths(t *testing.T) {
	base := "topologies: [twin:4x4x2x2x2]\nrouting: tsdor\ndeadlock: vc\nloads: [0.1]\n"
	point := func(extra string) Point {
		s, err := ParseSpec("a.yaml", []byte(base+extra))
		if err != nil {
			t.Fatal(err)
		}
		cs, err := s.Curves()
		if err != nil {
			t.Fatal(err)
		}
		pt := cs[0].Point
		pt.Load, pt.Seed = 0.1, 1
		return pt
	}
	none, fixed, uniform := point(""), point("engine:\n  packet_lengths: fixed\n"), point("engine:\n  packet_lengths: uniform\n")
	if none.Key() != fixed.Key() || none.PacketLengths != engine.LengthsFixed {
		t.Errorf("fixed lengths changed the point: %s against %s", none.Key(), fixed.Key())
	}
	if strings.Contains(string(none.canonicalJSON()), "packet_lengths") {
		t.Errorf("fixed lengths appear in the key's JSON: %s", none.canonicalJSON())
	}
	if uniform.PacketLengths != engine.LengthsUniform || uniform.Key() == none.Key() ||
		!strings.Contains(string(uniform.canonicalJSON()), `"packet_lengths":"uniform"`) {
		t.Errorf("uniform: %v, key JSON %s", uniform.PacketLengths, uniform.canonicalJSON())
	}
	// The extoll preset, and its old form (fixed 16-flit packets) as stored records
	// have it.
	extoll := point("switch: extoll\n")
	old := extoll
	old.PacketFlits, old.PacketLengths = 16, engine.LengthsFixed
	if extoll.PacketFlits != 32 || extoll.PacketLengths != engine.LengthsUniform || extoll.Key() == old.Key() {
		t.Errorf("extoll: %d flits, %v, key %s (old %s)", extoll.PacketFlits, extoll.PacketLengths, extoll.Key(), old.Key())
	}
	if back := point("switch: extoll\nengine:\n  packet_flits: 16\n  packet_lengths: fixed\n"); back.Key() != old.Key() {
		t.Errorf("extoll with the old packets: key %s, want the old %s", back.Key(), old.Key())
	}
	_, err := ParseSpec("a.yaml", []byte(base+"engine:\n  packet_lengths: poisson\n"))
	if err == nil || !strings.Contains(err.Error(), "a.yaml:6") || !strings.Contains(err.Error(), "uniform") || strings.Contains(err.Error(), "\n") {
		t.Errorf("bad packet lengths: %v", err)
	}
}
