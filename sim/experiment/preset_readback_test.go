package experiment

import (
	"testing"
)

// A spec that turns off a switch feature its preset turns on (insee: transit priority
// and a crossbar input per VC) is saved to a store and reads back as itself: false, the
// zero value, is written to the spec's YAML, not left for the preset to fill in.
func TestSpecPresetFeaturesOffReadBack(t *testing.T) {
	for _, field := range []string{"transit_priority", "crossbar_per_vc"} {
		spec, err := ParseSpec("a.yaml", []byte("switch: insee\ntopologies: [twisted:rtt:4]\ndeadlock: bubble\n"+
			"traffic: [uniform]\nloads: [0.1]\nengine:\n  "+field+": false\nseeds: 1\n"))
		if err != nil {
			t.Fatal(err)
		}
		if field == "transit_priority" && spec.Engine.TransitPriority || field == "crossbar_per_vc" && spec.Engine.CrossbarPerVC {
			t.Fatalf("%s: parsed as true: %+v", field, spec.Engine)
		}
		back := savedAndRead(t, spec)
		if back.Engine.TransitPriority != spec.Engine.TransitPriority || back.Engine.CrossbarPerVC != spec.Engine.CrossbarPerVC ||
			back.Hash() != spec.withDefaults().Hash() {
			t.Errorf("%s: false read back as transit_priority %v, crossbar_per_vc %v, hash %s (want %s)",
				field, back.Engine.TransitPriority, back.Engine.CrossbarPerVC, back.Hash(), spec.Hash())
		}
	}
}
