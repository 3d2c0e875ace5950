package experiment

import (
	"strings"
	"testing"
)

// A spec that turns off a switch feature its preset turns on (insee: transit priority,
// a crossbar input per VC, multiple consumption, output VC reservation) is saved to a
// store and reads back as itself: false, the zero value, is written to the spec's YAML,
// not left for the preset to fill in. Turning off the crossbar input per VC needs the
// two INSEE options off too (they model its switch).
func TestSpecPresetFeaturesOffReadBack(t *testing.T) {
	for _, fields := range []string{"transit_priority", "consume_all", "reserve_output_vcs",
		"crossbar_per_vc, consume_all, reserve_output_vcs"} {
		var lines string
		for _, f := range strings.Split(fields, ", ") {
			lines += "  " + f + ": false\n"
		}
		spec, err := ParseSpec("a.yaml", []byte("switch: insee\ntopologies: [twisted:rtt:4]\ndeadlock: bubble\n"+
			"traffic: [uniform]\nloads: [0.1]\nengine:\n"+lines+"seeds: 1\n"))
		if err != nil {
			t.Fatal(err)
		}
		e := spec.Engine
		on := map[string]bool{"transit_priority": e.TransitPriority, "crossbar_per_vc": e.CrossbarPerVC,
			"consume_all": e.ConsumeAll, "reserve_output_vcs": e.ReserveOutputVCs}
		for _, f := range strings.Split(fields, ", ") {
			if on[f] {
				t.Fatalf("%s: parsed as true: %+v", f, e)
			}
		}
		back := savedAndRead(t, spec)
		if back.Engine != spec.Engine || back.Hash() != spec.withDefaults().Hash() {
			t.Errorf("%s: false read back as %+v, hash %s (want %+v, %s)", fields, back.Engine, back.Hash(), spec.Engine, spec.Hash())
		}
	}
}
