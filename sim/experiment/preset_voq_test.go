package experiment

import (
	"context"
	"strings"
	"testing"
)

// The extoll preset's virtual output queues (the paper's VOQ at switch level) go to
// each curve whose routing gives one port per hop (DOR, TSDOR), not to adaptive
// routing, which selects when a packet leaves; a spec that sets voq itself gets what
// it says; and the spec reads back from a store the same, the key left out.
func TestSpecPresetVOQ(t *testing.T) {
	text := "switch: extoll\ntopologies: [torus:4x4x4]\nrouting: [dor, adaptive]\ndeadlock: vc\nloads: [0.1]\nengine: {warmup: 10, measure: 10}\n"
	voqs := func(s Spec) string {
		t.Helper()
		curves, err := s.Curves()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range curves {
			out = append(out, c.Point.Topology+" "+c.Point.Routing+" "+map[bool]string{true: "voq", false: "fifo"}[c.Point.VOQ])
		}
		return strings.Join(out, ", ")
	}
	s, err := ParseSpec("e.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	want := "torus:4x4x4 dor voq, torus:4x4x4 adaptive fifo"
	if got := voqs(s); got != want {
		t.Errorf("curves %s, want %s", got, want)
	}
	back := savedAndRead(t, s)
	if got := voqs(back); got != want || back.Hash() != s.Hash() {
		t.Errorf("read back from a store: curves %s (want %s), hash %s (want %s)", got, want, back.Hash(), s.Hash())
	}
	ts, err := ParseSpec("e.yaml", []byte(strings.NewReplacer("[dor, adaptive]", "[tsdor, adaptive]", "torus:4x4x4", "twin:2x2x2x2x2/cbest").Replace(text)))
	if err != nil {
		t.Fatal(err)
	}
	if got := voqs(ts); got != "twin:2x2x2x2x2/cbest tsdor voq, twin:2x2x2x2x2/cbest adaptive fifo" {
		t.Errorf("twin torus: %s", got)
	}
	off, err := ParseSpec("e.yaml", []byte(strings.Replace(text, "engine: {warmup: 10, measure: 10}", "engine: {warmup: 10, measure: 10, voq: false}", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if got := voqs(off); strings.Contains(got, " voq") || off.Hash() == s.Hash() {
		t.Errorf("voq: false in the file: %s", got)
	}
	// The adaptive curve runs (under the preset's VOQ it would stop at its first packet).
	curves, err := s.Curves()
	if err != nil {
		t.Fatal(err)
	}
	p := curves[1].Point
	p.Load, p.Warmup, p.Measure = 0.1, 100, 400
	if r, err := p.Run(context.Background()); err != nil || r.PacketsDelivered == 0 {
		t.Errorf("adaptive curve under the extoll preset: %v", err)
	}
}
