package experiment

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// The selection axis: paper (b)'s Fig. 5 series are one spec (DORT once, adaptive
// once per selection function); selections are canonical, default to the routing's,
// and mistakes are one line with file, line and key.
func TestSelectionAxis(t *testing.T) {
	s, err := ParseSpec("fig5.yaml", []byte(`topologies: [twin:4x2x4, torus:8x8]
routing: [dort, adaptive]
selection: [rr, NoInternal, "2prio:threshold=50%", 3prio]
deadlock: vc
loads: [0.1]
`))
	if err == nil {
		t.Fatal("dort on a torus should be refused")
	}
	s, err = ParseSpec("fig5.yaml", []byte(`topologies: [twin:4x2x4]
routing: [dort, adaptive]
selection: [rr, NoInternal, "2prio:threshold=50%", 3prio]
deadlock: vc
loads: [0.1]
`))
	if err != nil {
		t.Fatal(err)
	}
	names := curveNames(t, s)
	want := []string{"twin:4x2x4/cbest vc uniform", "twin:4x2x4/cbest vc uniform adaptive rr", "twin:4x2x4/cbest vc uniform adaptive nointernal",
		"twin:4x2x4/cbest vc uniform adaptive 2prio", "twin:4x2x4/cbest vc uniform adaptive 3prio"}
	if !slices.Equal(names, want) {
		t.Errorf("curves %q, want %q", names, want)
	}
	// No selection axis: each routing's default, written out.
	d, err := ParseSpec("d.yaml", []byte("topologies: [twin:4x4x4, torus:4x4]\nrouting: adaptive\nloads: [0.1]\n"))
	if err != nil {
		t.Fatal(err)
	}
	dc, _ := d.Curves()
	if dc[0].Point.Selection != "3prio" || dc[1].Point.Selection != "ref" {
		t.Errorf("default selections %q and %q, want 3prio and ref", dc[0].Point.Selection, dc[1].Point.Selection)
	}
	for _, c := range []struct{ spec, want string }{
		{"selection: [fast]\n", `bad.yaml:4: selection[0]: unknown selection function "fast": accepted are ref, rr, nointernal, 2prio, 3prio, first, random, minfirst`},
		{"selection: [rr, \"rr:threshold=0.5\"]\n", "bad.yaml:4: selection[1]: rr is listed twice for routing adaptive/bubble"},
		{"selection: \"rr:threshold=3\"\n", `bad.yaml:4: selection[0]: selection option "threshold=3": the threshold is an occupancy share from 0 to 1 (or 0% to 100%)`},
	} {
		s, err := ParseSpec("bad.yaml", []byte("topologies: [twin:4x4x4]\nrouting: adaptive\nloads: [0.1]\n"+c.spec))
		if err == nil {
			_, err = s.Curves()
		}
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: %v\nwant %s", c.spec, err, c.want)
		}
	}
	// A point names its selection; one that offers one candidate refuses one.
	p := NewPoint("twin:4x4x4", 0.1)
	p.Routing, p.Selection, p.Warmup, p.Measure = "dort", "3prio", 10, 100
	if _, err := p.Build(); err == nil || !strings.Contains(err.Error(), "offers one candidate per hop") {
		t.Errorf("dort with 3prio: %v", err)
	}
	p.Routing, p.Deadlock = "adaptive", "vc"
	r, err := p.Run(context.Background())
	if err != nil || r.Selection != "3prio" || r.Routing != "adaptive/vc" {
		t.Errorf("adaptive 3prio: %v %+v", err, r)
	}
	// adaptive:return is checked before it runs, and refused on a twin torus.
	p.Routing, p.Selection = "adaptive:return", ""
	if _, err := p.Build(); err == nil || !strings.Contains(err.Error(), "can deadlock: its escape channels' dependencies close the cycle") {
		t.Errorf("adaptive:return on twin:4x4x4: %v", err)
	}
	p.Topology = "torus:4x4"
	if _, err := p.Build(); err != nil {
		t.Errorf("adaptive:return on torus:4x4 under vc: %v", err)
	}
}

// curveNames expands a spec's curves and names them.
func curveNames(t *testing.T, s Spec) []string {
	t.Helper()
	curves, err := s.Curves()
	if err != nil {
		t.Fatal(err)
	}
	return namesOf(curves)
}

// namesOf is the curves' names, in order.
func namesOf(curves []Curve) []string {
	var names []string
	for _, c := range curves {
		names = append(names, c.Name)
	}
	return names
}
