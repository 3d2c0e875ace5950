package routing

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/topology/topotest"
)

func randomNetwork(t testing.TB, seed uint64, n int) *topology.Network {
	t.Helper()
	net, err := topotest.Random(seed, n)
	if err != nil {
		t.Fatal(err)
	}
	return net
}

// bfs is an independent hop distance between switches, along links' directions.
func bfs(net *topology.Network, from int) []int {
	dist := make([]int, net.Switches())
	for i := range dist {
		dist[i] = -1
	}
	dist[from] = 0
	q := []int{from}
	for len(q) > 0 {
		s := q[0]
		q = q[1:]
		for p := 0; p < net.Ports(s); p++ {
			if t := int(net.Port(s, p).Peer); t >= 0 && dist[t] < 0 {
				dist[t] = dist[s] + 1
				q = append(q, t)
			}
		}
	}
	return dist
}

// Minimal routing takes shortest paths; adaptive offers every minimal port; on tori
// and meshes its lowest-port tie rule is DOR with ties sent +.
func TestMinimal(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		net := randomNetwork(t, seed, 12)
		det, err := NewMinimal(net, false)
		if err != nil {
			t.Fatal(err)
		}
		ad, _ := NewMinimal(net, true)
		for src := 0; src < net.Terminals(); src++ {
			from := int(net.Attachment(src).Switch)
			dist := bfs(net, from)
			for dst := 0; dst < net.Terminals(); dst++ {
				to := int(net.Attachment(dst).Switch)
				if got := len(det.Path(src, dst, nil)) - 1; got != dist[to] || det.Distance(from, dst) != dist[to] {
					t.Fatalf("%s: PE %d -> %d takes %d hops, the distance is %d", net, src, dst, got, dist[to])
				}
				if from == to {
					continue
				}
				// Adaptive: exactly the ports whose far end is one hop closer.
				var want []int16
				for p := 0; p < net.Ports(from); p++ {
					if peer := int(net.Port(from, p).Peer); peer >= 0 && bfs(net, peer)[to] == dist[to]-1 {
						want = append(want, int16(p))
					}
				}
				var got []int16
				for _, c := range ad.Route(from, 0, 0, Head{Dst: int32(dst)}, nil) {
					got = append(got, c.Port)
				}
				if !reflect.DeepEqual(got, want) || det.Route(from, 0, 0, Head{Dst: int32(dst)}, nil)[0].Port != want[0] {
					t.Fatalf("%s: adaptive at %d for %d offers %v, want %v", net, from, dst, got, want)
				}
			}
		}
	}
	for _, spec := range []string{"torus:4x4", "torus:5x3x2", "mesh:4x3", "torus:6x2@2"} {
		net := topology.MustNew(spec)
		min, _ := NewMinimal(net, false)
		dor := NewDOR(net, TiePlus)
		for src := 0; src < net.Terminals(); src++ {
			for dst := 0; dst < net.Terminals(); dst++ {
				if a, b := min.Path(src, dst, nil), dor.Path(src, dst, nil); !reflect.DeepEqual(a, b) {
					t.Fatalf("%s: %d -> %d: min %v, DOR %v", spec, src, dst, a, b)
				}
			}
		}
	}
}

// Up*/down* routes are legal (never up after down), reach their destination and are
// the shortest legal ones; it needs bidirectional links to every switch.
func TestUpDown(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		net := randomNetwork(t, seed, 14)
		r, err := NewUpDown(net, 0)
		if err != nil {
			t.Fatal(err)
		}
		for src := 0; src < net.Terminals(); src++ {
			for dst := 0; dst < net.Terminals(); dst++ {
				path := r.Path(src, dst, nil)
				down := false
				for _, st := range path[:len(path)-1] {
					port := net.Port(st.Switch, st.Port)
					if port.OneWay() {
						t.Fatalf("%s: up*/down* uses a one-way link", net)
					}
					up := r.isUp(st.Switch, int(port.Peer))
					if up && down {
						t.Fatalf("%s: %d -> %d goes up after down", net, src, dst)
					}
					down = down || !up
				}
				if last := path[len(path)-1]; net.Port(last.Switch, last.Port).Terminal != int32(dst) {
					t.Fatalf("%s: %d -> %d ends at %+v", net, src, dst, last)
				}
				if want := int(r.dist[0][int(r.dests.index[net.Attachment(dst).Switch])*net.Switches()+int(net.Attachment(src).Switch)]); len(path)-1 != want {
					t.Fatalf("%s: %d -> %d takes %d hops, the legal distance is %d", net, src, dst, len(path)-1, want)
				}
			}
		}
	}
	b := topology.NewBuilder("one-way ring")
	for i := 0; i < 3; i++ {
		b.AddSwitch("")
		b.AttachPE(i)
	}
	for i := 0; i < 3; i++ {
		b.LinkOneWay(i, topology.Role{}, (i+1)%3, topology.Role{})
	}
	net, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewUpDown(net, 0); err == nil || !strings.Contains(err.Error(), "bidirectional links") {
		t.Errorf("up*/down* on a one-way ring: %v", err)
	}
	if _, err := NewUpDown(net, 5); err == nil {
		t.Error("root 5 of 3 switches")
	}
}

func TestEscape(t *testing.T) {
	net := topology.MustNew("torus:4x4")
	rt, err := New("adaptive", net, SchemeEscape, TiePlus)
	if err != nil {
		t.Fatal(err)
	}
	if rt.Name() != "adaptive+escape" || rt.VCs(topology.External) != 2 || rt.VCs(topology.Terminal) != 1 {
		t.Fatalf("%s: %d VCs", rt.Name(), rt.VCs(topology.External))
	}
	// From switch 0 to the PE of switch 10 (two hops in x and y): four minimal ports on
	// VC 1, then the escape on VC 0.
	cands := rt.Route(0, net.TerminalPort(0), 0, Head{Dst: 10}, nil)
	if len(cands) != 5 || !cands[4].Escape || cands[4].VC != 0 {
		t.Fatalf("candidates %+v", cands)
	}
	for _, c := range cands[:4] {
		if c.VC != 1 || c.Escape {
			t.Errorf("adaptive candidate %+v", c)
		}
	}
	if c := rt.Route(0, 0, 0, Head{Dst: 10, Escaped: true}, nil); len(c) != 1 || !c[0].Escape || c[0].VC != 0 {
		t.Errorf("escaped packet offered %+v", c)
	}
	if c := rt.Route(10, 0, 1, Head{Dst: 10}, nil); len(c) != 1 || net.Port(10, int(c[0].Port)).Kind != topology.Terminal {
		t.Errorf("at the destination: %+v", c)
	}
	for _, c := range []struct {
		name   string
		scheme Scheme
		want   string
	}{{"min", SchemeBubble, "accepted here are escape"}, {"updown", SchemeVC, "deadlock-free by itself"}, {"table", SchemeNone, "needs its file"}} {
		if _, err := New(c.name, net, c.scheme, TiePlus); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s/%s: %v", c.name, c.scheme, err)
		}
	}
	if dor, err := New("dor", net, SchemeEscape, TiePlus); err != nil || dor.Name() != "dor/none+escape" {
		t.Errorf("dor with escape: %v", err)
	}
}

func TestTable(t *testing.T) {
	net := randomNetwork(t, 3, 8)
	min, _ := NewMinimal(net, true)
	tbl, err := NewTable(net, "mine", func(s, d int) []int {
		var ports []int
		for _, c := range min.minimal(s, d, nil) {
			ports = append(ports, int(c.Port))
		}
		return ports
	})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tbl.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := ReadTable(bytes.NewReader(buf.Bytes()), net, "back", "t.txt")
	if err != nil {
		t.Fatal(err)
	}
	for s := 0; s < net.Switches(); s++ {
		for pe := 0; pe < net.Terminals(); pe++ {
			a := back.Route(s, 0, 0, Head{Dst: int32(pe)}, nil)
			b := min.Route(s, 0, 0, Head{Dst: int32(pe)}, nil)
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("at %d for %d: table %v, min %v", s, pe, a, b)
			}
		}
	}
	if _, err := NewTable(net, "bad", func(s, d int) []int { return []int{99} }); err == nil || !strings.Contains(err.Error(), "has no port 99") {
		t.Errorf("NewTable with port 99: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	cases := []struct{ text, want string }{
		{strings.Join(lines[:len(lines)-1], "\n"), "t.txt: no line for switch"},
		{buf.String() + lines[1] + "\n", fmt.Sprintf("t.txt:%d: switch", len(lines)+1)},
		{"0 x 1\n", "t.txt:1: \"x\" is not a switch or port number"},
		{"0 1\n", "t.txt:1: \"0 1\": a line is SWITCH DESTINATION-SWITCH PORT"},
		{"99 0 1\n", "t.txt:1: switch 99 does not exist"},
		{"0 0 1\n", "t.txt:1: switch 0 to itself"},
		{"1 0 77\n", "t.txt:1: port 77 of switch 1 sends to no switch"},
	}
	for _, c := range cases {
		if _, err := ReadTable(strings.NewReader(c.text), net, "x", "t.txt"); err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want %s", c.text, err, c.want)
		}
	}
}

func FuzzReadTable(f *testing.F) {
	net := topology.MustNew("torus:3x2")
	f.Add("0 1 0\n1 0 1\n")
	f.Add("# comment\n2 5 0 1 2 3\n")
	f.Fuzz(func(t *testing.T, text string) {
		tbl, err := ReadTable(strings.NewReader(text), net, "f", "f.txt")
		if err != nil {
			if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "f.txt") {
				t.Fatalf("bad error %q", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := tbl.WriteTable(&buf); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadTable(&buf, net, "f", "f.txt"); err != nil {
			t.Fatalf("a table that read does not read back: %v", err)
		}
	})
}

// TestTableRoutesReachTheirDestination: a table whose routes go round in circles is
// refused, naming the switch, the destination and the loop, whatever the deadlock
// scheme (issue 39: under escape one ran, 38 hops a packet on a 4-node ring). Several
// ports must all lead to the destination too: a packet may take any of them.
func TestTableRoutesReachTheirDestination(t *testing.T) {
	b := topology.NewBuilder("ring")
	for i := 0; i < 4; i++ {
		b.AddSwitch("")
	}
	for i := 0; i < 4; i++ {
		b.Link(i, topology.LabelRole("cw"), (i+1)%4, topology.LabelRole("ccw"))
		b.AttachPE(i)
	}
	net, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	cw := func(s int) int { // the port of switch s towards s+1
		for p := 0; p < net.Ports(s); p++ {
			if int(net.Port(s, p).Peer) == (s+1)%4 {
				return p
			}
		}
		t.Fatalf("switch %d has no clockwise port", s)
		return -1
	}
	ccw := func(s int) int {
		for p := 0; p < net.Ports(s); p++ {
			if int(net.Port(s, p).Peer) == (s+3)%4 {
				return p
			}
		}
		t.Fatalf("switch %d has no counter-clockwise port", s)
		return -1
	}
	// Clockwise everywhere reaches every destination.
	if _, err := NewTable(net, "clockwise", func(s, d int) []int { return []int{cw(s)} }); err != nil {
		t.Fatalf("clockwise: %v", err)
	}
	// Towards switch 3, switch 1 sends clockwise to 2 and switch 2 sends back to 1.
	loop := func(s, d int) []int {
		if d == 3 && s == 2 {
			return []int{ccw(s)}
		}
		return []int{cw(s)}
	}
	want := "switch 1's routes towards switch 3 loop: 1 -> 2 -> 1"
	if _, err := NewTable(net, "looping", loop); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("looping table: %v, want %q", err, want)
	}
	// An adaptive table is refused if any of its choices loops.
	choice := func(s, d int) []int {
		if d == 0 && s == 2 {
			return []int{ccw(s), cw(s)}
		}
		if d == 0 && s == 1 {
			return []int{cw(s), ccw(s)}
		}
		return []int{ccw(s)}
	}
	if _, err := NewTable(net, "choices", choice); err == nil || !strings.Contains(err.Error(), "switch 1's routes towards switch 0 loop: 1 -> 2 -> 1") {
		t.Errorf("table with a looping choice: %v", err)
	}
	// From a file, under every scheme (escape included), with the line of the loop.
	var text strings.Builder
	for d := 0; d < 4; d++ {
		for s := 0; s < 4; s++ {
			if s != d {
				fmt.Fprintf(&text, "%d %d %d\n", s, d, loop(s, d)[0])
			}
		}
	}
	if _, err := ReadTable(strings.NewReader(text.String()), net, "table:t.txt", "t.txt"); err == nil ||
		!strings.HasPrefix(err.Error(), "t.txt:11: ") || !strings.Contains(err.Error(), want) {
		t.Errorf("looping table file: %v", err)
	}
	path := t.TempDir() + "/t.txt"
	if err := os.WriteFile(path, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, scheme := range []Scheme{SchemeEscape, SchemeNone} {
		if _, err := New("table:"+path, net, scheme, TiePlus); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("routing table under %s: %v", scheme, err)
		}
	}
}
