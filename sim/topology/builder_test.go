package topology

import (
	"reflect"
	"strings"
	"testing"
)

// A ring of switches with no coordinates, labelled ports, a switch without PEs and a
// one-way shortcut.
func TestBuilderFreeForm(t *testing.T) {
	b := NewBuilder("ring")
	var sw []int
	for i := 0; i < 4; i++ {
		sw = append(sw, b.AddSwitch(""))
	}
	b.LabelSwitch(sw[3], "spare")
	for i := range sw {
		b.Link(sw[i], LabelRole("cw"), sw[(i+1)%4], LabelRole("ccw"))
	}
	b.LinkOneWay(sw[0], LabelRole("short"), sw[2], Role{})
	for _, s := range sw[:3] {
		b.AttachPE(s)
	}
	pe := b.AttachPE(sw[0])
	net, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if net.Switches() != 4 || net.Terminals() != 4 || net.Links() != 5 || net.Dims() != 0 || net.Nodes() != 4 || pe != 3 ||
		net.TerminalsPerSwitch() != 0 || net.SwitchLabel(3) != "spare" || net.SwitchLabel(0) != "" || net.IsTwin() || net.Coord(0) != nil {
		t.Fatalf("%s: %d switches, %d PEs, %d links, %d dims", net, net.Switches(), net.Terminals(), net.Links(), net.Dims())
	}
	// Switch 0: cw, ccw (from the link with switch 3), short, pe, pe.
	var names []string
	for p := 0; p < net.Ports(0); p++ {
		names = append(names, net.PortName(0, p))
	}
	if got := strings.Join(names, " "); got != "cw ccw short pe pe" {
		t.Errorf("switch 0 ports: %s", got)
	}
	short, end := net.Port(0, 2), net.Port(2, 2)
	if !short.Connected() || short.Receives() || !short.OneWay() || end.Connected() || !end.Receives() || end.From != 0 || end.FromPort != 2 || net.PortName(2, 2) != "p2" {
		t.Errorf("one-way link: %+v -> %+v", short, end)
	}
	if l := net.Link(4); !l.OneWay || l.A != 0 || l.B != 2 {
		t.Errorf("link 4 = %+v", l)
	}
	if got := net.Labels(); !reflect.DeepEqual(got, []string{"cw", "ccw", "short"}) {
		t.Errorf("labels %v", got)
	}
}

func TestBuilderErrors(t *testing.T) {
	cases := []struct {
		name  string
		build func(b *Builder)
		want  string
	}{
		{"no switches", func(b *Builder) {}, "no switches"},
		{"no PEs", func(b *Builder) { b.AddSwitch("") }, "no PEs"},
		{"dangling", func(b *Builder) {
			s := b.AddSwitch("")
			b.AttachPE(s)
			b.AddPort(s, LabelRole("up"))
		}, "switch 0 port 1 (up) is dangling"},
		{"PE on no switch", func(b *Builder) {
			s := b.AddSwitch("")
			b.attach(s, 0)
			b.attach(s, 2)
		}, "PE 1 is on no switch"},
		{"PE on a missing switch", func(b *Builder) { b.AddSwitch(""); b.AttachPE(3) }, "PE 0: switch 3 does not exist"},
		{"disconnected", func(b *Builder) {
			b.AttachPE(b.AddSwitch(""))
			b.AttachPE(b.AddSwitch(""))
		}, "disconnected: switch 1 cannot be reached from switch 0"},
		{"one way only", func(b *Builder) {
			x, y := b.AddSwitch(""), b.AddSwitch("")
			b.LinkOneWay(x, Role{}, y, Role{})
			b.AttachPE(x)
		}, "switch 1 cannot reach switch 0"},
		{"duplicate link", func(b *Builder) {
			x, y := b.AddSwitch(""), b.AddSwitch("")
			p, q := b.Link(x, Role{}, y, Role{})
			b.Connect(p, q)
			b.AttachPE(x)
		}, "switch 0 port 0 is linked twice (link 1)"},
		{"self loop", func(b *Builder) {
			x := b.AddSwitch("")
			b.Link(x, Role{}, x, Role{})
		}, "joins switch 0 to itself"},
		{"missing port", func(b *Builder) {
			x, y := b.AddSwitch(""), b.AddSwitch("")
			b.Connect(PortRef{x, 0}, PortRef{y, 4})
		}, "link 0: switch 0 port 0 does not exist"},
		{"terminal linked", func(b *Builder) {
			x, y := b.AddSwitch(""), b.AddSwitch("")
			b.AttachPE(x)
			b.Connect(PortRef{x, 0}, b.AddPort(y, Role{}))
		}, "joins a PE's terminal port"},
		{"dimension off the grid", func(b *Builder) { b.AddPort(b.AddSwitch(""), DimRole(0, 1)) }, "dimension port x+ on a switch with no coordinates"},
		{"two x+", func(b *Builder) {
			b.Grid([]int{2}, 1)
			b.Link(0, DimRole(0, 1), 1, DimRole(0, -1))
			b.Link(0, DimRole(0, 1), 1, DimRole(0, -1))
			b.AttachPE(0)
		}, "switch 0 has two x+ ports"},
		{"grid late", func(b *Builder) { b.AddSwitch(""); b.Grid([]int{4}, 1) }, "Grid must come first"},
		{"off grid", func(b *Builder) { b.Grid([]int{4, 4}, 1); b.At(4, 0) }, "coordinate 0 of [4 0] is off the grid"},
		{"bad latency", func(b *Builder) { b.SetLatency(b.AddPort(b.AddSwitch(""), Role{}), -2) }, "latency -2; accepted are 1 to 1000"},
		{"many mistakes", func(b *Builder) {
			for i := 0; i < 12; i++ {
				b.AttachPE(7)
			}
		}, "; and 4 more"},
	}
	for _, c := range cases {
		b := NewBuilder("")
		c.build(b)
		_, err := b.Build()
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "building custom: ") {
			t.Errorf("%s: %v, want one line containing %q", c.name, err, c.want)
		}
	}
}
