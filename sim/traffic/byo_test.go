package traffic

import (
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

// A network without coordinates (from a Builder or a file) takes every pattern that
// needs only PE ids; the coordinate patterns say why they cannot apply.
func TestPatternsWithoutCoordinates(t *testing.T) {
	b := topology.NewBuilder("star")
	hub := b.AddSwitch("hub")
	for i := 0; i < 4; i++ {
		s := b.AddSwitch("")
		b.Link(hub, topology.Role{}, s, topology.Role{})
		b.AttachPE(s)
		b.AttachPE(s)
	}
	net, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{"uniform", "bitrev", "complement", "transpose", "hotspot:0.1", "pairs:0>7", "zipf"} {
		if _, err := ParsePattern(spec, net); err != nil && !strings.Contains(err.Error(), "square number") {
			t.Errorf("%s on a star: %v", spec, err)
		}
	}
	for _, spec := range []string{"tornado", "neighbor"} {
		_, err := ParsePattern(spec, net)
		if err == nil || !strings.Contains(err.Error(), "moves PEs by node coordinates: network star has no node coordinates") {
			t.Errorf("%s on a star: %v", spec, err)
		}
	}
	one := topology.NewBuilder("one")
	one.AttachPE(one.AddSwitch(""))
	single, err := one.Build()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParsePattern("uniform", single); err == nil || !strings.Contains(err.Error(), "at least 2") {
		t.Errorf("uniform on one PE: %v", err)
	}
}
