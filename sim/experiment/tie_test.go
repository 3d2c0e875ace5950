package experiment

import (
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"gopkg.in/yaml.v3"
)

// The tie axis: left out, each routing takes its own rule and its points name it
// (mirror for tsdor, plus for dort and dor), so the keys of points that ran before
// mirror existed (tie "plus") do not change; mirror on a network without twin cards is
// plus, and rules that resolve alike make one curve.
func TestSpecTieRules(t *testing.T) {
	curves := func(yaml string) []Curve {
		t.Helper()
		s, err := ParseSpec("tie.yaml", []byte(yaml))
		if err != nil {
			t.Fatal(err)
		}
		cs, err := s.Curves()
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	ties := func(cs []Curve) string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Point.Routing+" "+c.Point.Tie)
		}
		return strings.Join(out, ", ")
	}
	const twin = "topologies: [twin:4x4x2x2x2/cbest]\ndeadlock: vc\nloads: [0.1]\n"
	if got := ties(curves(twin + "routing: [tsdor, dort]\n")); got != "tsdor mirror, dort plus" {
		t.Errorf("no tie: %s, want tsdor mirror, dort plus", got)
	}
	if got := ties(curves(twin + "routing: [tsdor, dort]\ntie: [plus, mirror]\n")); got != "tsdor plus, tsdor mirror, dort plus, dort mirror" {
		t.Errorf("tie [plus, mirror]: %s", got)
	}
	if got := ties(curves("topologies: [torus:8x8x4]\nloads: [0.1]\ntie: [plus, mirror, minus]\n")); got != "dor plus, dor minus" {
		t.Errorf("a torus, tie [plus, mirror, minus]: %s, want dor plus, dor minus (mirror is plus there)", got)
	}
	// A dort point named by a spec without tie is the point named with tie: plus.
	a, b := curves(twin+"routing: [dort]\n"), curves(twin+"routing: [dort]\ntie: plus\n")
	if a[0].Key != b[0].Key {
		t.Errorf("dort without tie has key %s, with tie plus %s", a[0].Key, b[0].Key)
	}
	// A spec without tie writes and reads back as itself.
	s, err := ParseSpec("tie.yaml", []byte(twin+"routing: [tsdor]\n"))
	if err != nil {
		t.Fatal(err)
	}
	y, err := yaml.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := decodeSpec("back.yaml", y)
	if err != nil || back.Hash() != s.Hash() || strings.Contains(string(y), "tie") {
		t.Errorf("read back: %v, hash %s, want %s, from\n%s", err, back.Hash(), s.Hash(), y)
	}
	// A point with no tie runs the routing's own rule.
	p := NewPoint("twin:4x4x2x2x2/cbest", 0.1)
	p.Routing, p.Deadlock = "tsdor", "vc"
	_, rt, err := p.network(0)
	if err != nil {
		t.Fatal(err)
	}
	if tie := rt.(*routing.TSDOR).Tie(); tie != routing.TieMirror {
		t.Errorf("a tsdor point without tie runs %q, want mirror", tie)
	}
}
