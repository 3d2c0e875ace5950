package routing

import (
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

// Every family's routing is in the table and routes every example of the family under
// its default deadlock scheme.
func TestRoutingsTable(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Routings() {
		if r.Name == "" || seen[r.Name] || r.Fits == nil || r.New == nil || r.Summary == "" || !strings.Contains(Accepted(), r.Name) {
			t.Fatalf("routing %q is incomplete or repeated", r.Name)
		}
		seen[r.Name] = true
	}
	for _, f := range topology.Families() {
		if f.Routing != "" && !seen[f.Routing] {
			t.Errorf("family %s routes with %q, which is not in Routings()", f.Name, f.Routing)
		}
		if d, _, ok := LookupRouting(f.LoadRouting); f.LoadRouting != "" && (!ok || d.Name != f.LoadRouting) {
			t.Errorf("family %s reports loads with %q, which is not in Routings()", f.Name, f.LoadRouting)
		}
		for _, ex := range f.Examples {
			net := topology.MustNew(ex)
			if f.LoadRouting != "" {
				d, _, _ := LookupRouting(f.LoadRouting)
				if rt, err := d.New(net, Options{Scheme: SchemeNone}); err != nil {
					t.Errorf("%s: load routing %s: %v", ex, f.LoadRouting, err)
				} else if _, ok := rt.(Pather); !ok {
					t.Errorf("%s: load routing %s does not list a route's hops", ex, f.LoadRouting)
				}
			}
			if Default(net) != f.Routing {
				t.Errorf("%s: Default = %q, want %q", ex, Default(net), f.Routing)
			}
			def, _, _ := LookupRouting(Default(net))
			if rt, err := New(Default(net), net, def.Scheme, TiePlus); err != nil || rt == nil {
				t.Errorf("%s: %v", ex, err)
			}
		}
	}
}

// DOR fits a hand-built grid only when it is a proper torus or mesh.
func TestGridFits(t *testing.T) {
	ring := func(k int, wrap bool, mutate func(b *topology.Builder)) *topology.Network {
		b := topology.NewBuilder("ring")
		b.Grid([]int{k}, 1)
		for i := 0; i < k; i++ {
			b.AttachPE(i)
		}
		for i := 0; i < k; i++ {
			if i == k-1 && !wrap {
				b.Unconnected(b.AddPort(i, topology.DimRole(0, +1)))
				b.Unconnected(b.AddPort(0, topology.DimRole(0, -1)))
				continue
			}
			b.Link(i, topology.DimRole(0, +1), (i+1)%k, topology.DimRole(0, -1))
		}
		if mutate != nil {
			mutate(b)
		}
		net, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		return net
	}
	if err := gridFits(ring(5, true, nil)); err != nil {
		t.Errorf("ring: %v", err)
	}
	if net := ring(5, false, nil); !net.IsMesh() || gridFits(net) != nil || Default(net) != "dor" {
		t.Errorf("line: mesh %v, %v", net.IsMesh(), gridFits(net))
	}
	// An express link with a free label does not disturb DOR.
	if err := gridFits(ring(6, true, func(b *topology.Builder) {
		b.Link(0, topology.LabelRole("express"), 3, topology.LabelRole("express"))
	})); err != nil {
		t.Errorf("ring with an express link: %v", err)
	}
	free := topology.NewBuilder("free")
	x, y := free.AddSwitch(""), free.AddSwitch("")
	free.Link(x, topology.Role{}, y, topology.Role{})
	free.AttachPE(x)
	free.AttachPE(y)
	pair, err := free.Build()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New("dor", pair, SchemeVC, TiePlus); err == nil || !strings.Contains(err.Error(), "needs node coordinates") {
		t.Errorf("dor on a free-form network: %v", err)
	}
	if _, err := New("dort", pair, SchemeVC, TiePlus); err == nil || !strings.Contains(err.Error(), "twin tori") {
		t.Errorf("dort on a free-form network: %v", err)
	}
}
