package topology

import (
	"strings"
	"testing"
)

// Every family in the table is complete, its examples are canonical and build, and
// the grammar help shows it.
func TestFamiliesTable(t *testing.T) {
	seen := map[Family]bool{}
	grammar := Grammar()
	for _, f := range Families() {
		if f.Name == "" || seen[f.Name] || string(f.Name) != strings.ToLower(string(f.Name)) {
			t.Fatalf("family name %q is empty, repeated or not lower case", f.Name)
		}
		seen[f.Name] = true
		if f.Parse == nil || f.Format == nil || f.Build == nil || f.Summary == "" || !strings.HasPrefix(f.Syntax, string(f.Name)+":") {
			t.Errorf("%s: incomplete entry %+v", f.Name, f)
		}
		if !strings.Contains(grammar, f.Syntax) || !strings.Contains(FamilyNames(), string(f.Name)) {
			t.Errorf("%s is missing from the grammar or the names", f.Name)
		}
		if got, ok := LookupFamily(strings.ToUpper(string(f.Name))); !ok || got.Name != f.Name {
			t.Errorf("LookupFamily(%s) = %v, %v", f.Name, got.Name, ok)
		}
		for _, ex := range f.Examples {
			s, err := Parse(ex)
			if err != nil || s.String() != ex || s.Family != f.Name {
				t.Errorf("%s: example %q parses to %q (%v)", f.Name, ex, s, err)
				continue
			}
			net, err := Build(s)
			if err != nil || net.String() != ex || !net.Spec().Equal(s) || net.DefaultRouting() != f.Routing {
				t.Errorf("%s: example %q builds %v (%v)", f.Name, ex, net, err)
			}
		}
		if f.Variants != nil && len(f.Examples) > 0 {
			vs, err := f.Variants(MustParse(f.Examples[0]))
			if err != nil || len(vs) == 0 {
				t.Errorf("%s: variants %v, %v", f.Name, vs, err)
			}
			for _, v := range vs {
				if _, err := Parse(v.String()); err != nil {
					t.Errorf("%s: variant %s: %v", f.Name, v, err)
				}
			}
		}
	}
	if _, ok := LookupFamily("ring"); ok {
		t.Error("LookupFamily found ring")
	}
	if got := (Spec{Family: "ring"}).String(); got != "ring:" {
		t.Errorf("unknown family prints %q", got)
	}
	if _, err := Build(Spec{Family: "ring"}); err == nil || !strings.Contains(err.Error(), "unknown family") {
		t.Errorf("Build(ring): %v", err)
	}
}

func TestTwinVariants(t *testing.T) {
	f, _ := LookupFamily("twin")
	vs, err := f.Variants(MustParse("twin:4x4x4/A"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range vs {
		names = append(names, v.Config)
	}
	if got := strings.Join(names, ""); got != "DGIJCABEFH" {
		t.Errorf("variants of twin:4x4x4 = %s", got)
	}
	if _, err := f.Variants(Spec{Family: FamilyTwin, Radix: []int{4}}); err == nil {
		t.Error("variants of a 1D twin torus")
	}
}
