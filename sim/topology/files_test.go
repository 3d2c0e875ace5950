package topology

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// exportWithoutName is a network's export without the fields that name it.
func exportWithoutName(n *Network) NetworkJSON {
	e := n.Export()
	e.Topology, e.Family = "", ""
	return e
}

// freeForm is a network with everything the grid families lack: switches off the grid
// (one without PEs), labels, a one-way link and link latencies.
func freeForm(t *testing.T) *Network {
	t.Helper()
	b := NewBuilder("express ring")
	b.Grid([]int{4}, 1)
	for i := 0; i < 4; i++ {
		b.Link(i, DimRole(0, +1), (i+1)%4, DimRole(0, -1))
		b.AttachPE(i)
	}
	hub := b.AddSwitch("hub")
	for i := 0; i < 4; i += 2 {
		p, _ := b.Link(i, LabelRole("up"), hub, LabelRole("down"))
		b.SetLatency(p, 3)
	}
	short, _ := b.LinkOneWay(1, LabelRole("express"), 3, Role{})
	b.SetLatency(short, 2)
	net, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return net
}

func TestJSONFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	nets := []*Network{freeForm(t)}
	for _, spec := range []string{"torus:4x3@2", "mesh:3x3", "twin:4x4x4/D", "twin:3x5/x+,y-"} {
		nets = append(nets, MustNew(spec))
	}
	for i, net := range nets {
		path := filepath.Join(dir, "net.json")
		if err := net.WriteJSONFile(path); err != nil {
			t.Fatal(err)
		}
		back, err := New("file:" + path)
		if err != nil {
			t.Fatalf("%s: %v", net, err)
		}
		if !reflect.DeepEqual(exportWithoutName(back), exportWithoutName(net)) {
			t.Errorf("%s does not read back the same", net)
		}
		if back.String() != "file:"+path || back.IsMesh() != net.IsMesh() || back.Config() != net.Config() || back.Dims() != net.Dims() {
			t.Errorf("%s read back as %s (mesh %v, config %v)", net, back, back.IsMesh(), back.Config())
		}
		if i == 0 {
			if back.Port(1, 3).Latency != 2 || !back.Port(1, 3).OneWay() || back.SwitchLabel(4) != "hub" || back.Ports(4) != 2 || back.PortName(0, 3) != "up" {
				t.Errorf("free-form network lost something: %+v", back.Export().Switches[1])
			}
		}
	}
	// A bare path ending in .json is short for file:.
	if s, err := Parse(" my net.json "); err != nil || s.String() != "file:my net.json" || s.Path != "my net.json" {
		t.Errorf("Parse(my net.json) = %v, %v", s, err)
	}
}

// Bad files get one line with the file and the line of the mistake.
func TestJSONFileErrors(t *testing.T) {
	var good bytes.Buffer
	if err := MustNew("torus:2x2").WriteJSON(&good); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(good.String(), "\n")
	lineOf := func(s string, from int) int {
		for i := from; i < len(lines); i++ {
			if strings.Contains(lines[i], s) {
				return i + 1
			}
		}
		t.Fatalf("no %q", s)
		return 0
	}
	linksAt := lineOf(`"links"`, 0)
	edit := func(line int, from, to string) string {
		l := append([]string(nil), lines...)
		if !strings.Contains(l[line-1], from) {
			t.Fatalf("line %d %q has no %q", line, l[line-1], from)
		}
		l[line-1] = strings.Replace(l[line-1], from, to, 1)
		return strings.Join(l, "\n")
	}
	firstPE := lineOf(`"kind": "terminal"`, 0)
	// objectAt is the line where the object holding line l starts.
	objectAt := func(l int) int {
		for strings.TrimSpace(lines[l-1]) != "{" {
			l--
		}
		return l
	}
	cases := []struct {
		name, text string
		line       int
		want       string
	}{
		{"truncated", good.String()[:good.Len()/2], len(strings.Split(good.String()[:good.Len()/2], "\n")), "ends too early"},
		{"empty", "", 1, "empty file"},
		{"syntax", edit(3, `"family":`, `"family";`), 3, "JSON syntax"},
		{"dangling link", edit(lineOf(`"b":`, linksAt), `"b": 1,`, ""), linksAt + 1, "link 0 has no b"},
		{"unknown switch", edit(lineOf(`"b":`, linksAt), `"b": 1,`, `"b": 9,`), linksAt + 1, "link 0: switch 9 port"},
		{"negative latency", edit(lineOf(`"dir": 1`, 0), `"dir": 1,`, `"dir": 1, "latency": -3,`), objectAt(lineOf(`"dir": 1`, 0)), "latency -3; accepted are 1 to 1000"},
		{"bad kind", edit(firstPE, `"terminal"`, `"nic"`), objectAt(firstPE), `kind "nic"`},
		{"unknown key", edit(3, `"family"`, `"famly"`), 3, `unknown key "famly"`},
		{"wrong peer", edit(lineOf(`"peer": 1`, 0), `"peer": 1`, `"peer": 2`), objectAt(lineOf(`"peer": 1`, 0)), "says peer 2"},
		{"trailing", good.String() + "{}", len(lines), "more after"},
		// Keys given twice are refused, as the spec's YAML refuses them (issue 39): JSON
		// would silently keep the last.
		{"key twice at the top", edit(3, `"family": "torus",`, `"family": "torus", "family": "mesh",`), 3, `"family" is given twice`},
		{"key twice in a switch", edit(lineOf(`"card": 0`, 0), `"card": 0,`, `"card": 0, "card": 1,`), lineOf(`"card": 0`, 0), `"card" is given twice`},
		{"key twice in a port", edit(lineOf(`"peer": 1`, 0), `"peer": 1,`, `"peer": 1, "peer": 2,`), objectAt(lineOf(`"peer": 1`, 0)), `"peer" is given twice`},
		{"key twice in a port, another case", edit(lineOf(`"peer": 1`, 0), `"peer": 1,`, `"peer": 1, "Peer": 1,`), objectAt(lineOf(`"peer": 1`, 0)), `"Peer" is given twice`},
		{"key twice in a link", edit(lineOf(`"b":`, linksAt), `"b": 1,`, `"b": 1, "b": 1,`), linksAt + 1, `"b" is given twice`},
		{"key twice in a terminal", edit(lineOf(`"switch":`, lineOf(`"terminals"`, 0)), `"switch": 0,`, `"switch": 0, "switch": 0,`), lineOf(`"terminals"`, 0) + 1, `"switch" is given twice`},
	}
	for _, c := range cases {
		_, err := ReadJSON(strings.NewReader(c.text), "net.json")
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "net.json:") {
			t.Errorf("%s: %q, want one line with net.json:LINE and %q", c.name, msg, c.want)
		}
		if c.line > 0 && !strings.HasPrefix(msg, "net.json:"+strconv.Itoa(c.line)+":") {
			t.Errorf("%s: %q, want line %d", c.name, msg, c.line)
		}
	}
	if _, err := New("file:/nonexistent/net.json"); err == nil || !strings.Contains(err.Error(), "/nonexistent/net.json") {
		t.Errorf("missing file: %v", err)
	}
}

// BookSim2's example file (src/examples/anynet/anynet_file) imports as it describes:
// three routers, nine nodes, three links.
func TestAnynetBookSimExample(t *testing.T) {
	const example = "router 0 node 0 node 1 node 2 router 1\nrouter 1 node 3 node 4 node 5\nrouter 2 node 6 node 7 node 8 router 1 router 0\n"
	net, err := ReadAnynet(strings.NewReader(example), "anynet_file")
	if err != nil {
		t.Fatal(err)
	}
	if net.Switches() != 3 || net.Terminals() != 9 || net.Links() != 3 || net.Dims() != 0 {
		t.Fatalf("%d routers, %d nodes, %d links", net.Switches(), net.Terminals(), net.Links())
	}
	for pe := 0; pe < 9; pe++ {
		if s := int(net.Attachment(pe).Switch); s != pe/3 {
			t.Errorf("node %d on router %d", pe, s)
		}
	}
	// Router 1's own line lists nodes 3-5; router 0's and router 2's links come after.
	var names []string
	for p := 0; p < net.Ports(1); p++ {
		port := net.Port(1, p)
		if port.Kind == Terminal {
			names = append(names, "pe"+strconv.Itoa(int(port.Terminal)))
		} else {
			names = append(names, "s"+strconv.Itoa(int(port.Peer)))
		}
	}
	if got := strings.Join(names, " "); got != "pe3 pe4 pe5 s0 s2" {
		t.Errorf("router 1 ports: %s", got)
	}
}

func TestAnynetLatencies(t *testing.T) {
	// Latencies are per direction; a node's is its injection and ejection latency.
	net, err := ReadAnynet(strings.NewReader("# two routers\nrouter 0 router 1 15 node 0 5\n\nrouter 1 node 1 router 0 4\n"), "lat.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got := []uint16{net.Port(0, 0).Latency, net.Port(1, 1).Latency, net.Port(0, 1).Latency, net.Port(1, 0).Latency}; !reflect.DeepEqual(got, []uint16{15, 4, 5, 0}) {
		t.Errorf("latencies %v", got)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "lat.txt")
	if err := os.WriteFile(path, []byte("router 0 router 1\nrouter 1 node 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if net, err := New("anynet:" + path); err != nil || net.String() != "anynet:"+path || net.Port(0, 0).Latency != 0 || net.Terminals() != 1 {
		t.Errorf("anynet:%s = %v, %v", path, net, err)
	}
}

func TestAnynetErrors(t *testing.T) {
	cases := []struct{ text, want string }{
		{"router 0 node 0 router", "anynet.txt:1: dangling link: \"router\" with no id"},
		{"router 0 node 0 router 1\nrouter 1 node 1 router 7", "anynet.txt:2: unknown router 7: routers are numbered from 0 without gaps, and router 2 is never mentioned"},
		{"router 0 node 0 router 1 -3\nrouter 1 node 1", "anynet.txt:1: negative latency -3 after router 1"},
		{"router 0 node 0 router 1 0", "anynet.txt:1: latency 0 after router 1; accepted are 1 to 1000"},
		{"router 0 node 0 node 1", "anynet.txt:1: node 0 is connected to node 1"[:0] + "nodes connect to routers only"[:0]},
		{"node 0 node 1", "anynet.txt:1: node 0 is connected to node 1; nodes connect to routers only"},
		{"router 0 node 0 router 1\nrouter 1 node 0", "anynet.txt:2: node 0 hangs on router 0 and router 1"},
		{"router 0 router 0", "anynet.txt:1: router 0 is linked to itself"},
		{"switch 0 node 0", "anynet.txt:1: \"switch\" where router or node belongs"},
		{"router x node 0", "anynet.txt:1: router id \"x\""},
		{"router 0 node 0 fast", "anynet.txt:1: latency \"fast\" after node 0"},
		{"router 0 node 1", "anynet.txt:1: unknown node 1: nodes are numbered from 0 without gaps, and node 0 is never mentioned"},
		{"router 0 node 0\nrouter 1 node 1", "anynet.txt:2: the network is disconnected: switch 1 cannot be reached from switch 0"},
		{"", "anynet.txt:1: no routers"},
		{"router 99999999999 node 0", "anynet.txt:1: router id"},
	}
	for _, c := range cases {
		_, err := ReadAnynet(strings.NewReader(c.text), "anynet.txt")
		if err == nil {
			if c.want != "" {
				t.Errorf("%q accepted, want %s", c.text, c.want)
			}
			continue
		}
		if c.want == "" || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v\nwant %s", c.text, err, c.want)
		}
	}
}

func FuzzReadJSON(f *testing.F) {
	for _, spec := range []string{"torus:2x2", "mesh:3x2@2", "twin:2x2/x+,y+"} {
		var buf bytes.Buffer
		_ = MustNew(spec).WriteJSON(&buf)
		f.Add(buf.Bytes())
	}
	f.Add([]byte(`{"switches":[{"ports":[{"kind":"terminal"}]}],"terminals":[{"switch":0,"port":0}],"links":[]}`))
	f.Add([]byte(`{"radix":[2],"switches":[{},{}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		net, err := ReadJSON(bytes.NewReader(data), "f.json")
		if err != nil {
			if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "f.json") {
				t.Fatalf("bad error: %q", err)
			}
			return
		}
		// What reads must write and read back the same.
		var buf bytes.Buffer
		if err := net.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := ReadJSON(&buf, "f.json")
		if err != nil || !reflect.DeepEqual(exportWithoutName(back), exportWithoutName(net)) {
			t.Fatalf("round trip: %v", err)
		}
	})
}

func FuzzReadAnynet(f *testing.F) {
	for _, s := range []string{"router 0 node 0 node 1 node 2 router 1\nrouter 1 node 3 node 4 node 5\nrouter 2 node 6 node 7 node 8 router 1 router 0\n",
		"router 0 router 1 15 node 0 5\nrouter 1 node 1 router 0 4\n", "node 0 router 0", "router 0 node 0 router"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		net, err := ReadAnynet(bytes.NewReader(data), "a.txt")
		if err != nil {
			if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "a.txt") {
				t.Fatalf("bad error: %q", err)
			}
			return
		}
		if net.Switches() < 1 || net.Terminals() < 1 {
			t.Fatalf("accepted %d switches, %d PEs", net.Switches(), net.Terminals())
		}
	})
}

// A network file is refused as soon as what reading it holds would pass the memory
// limit (issue 39: the reader held about 15 times a file's size, so a 1 GiB file of
// small objects took 16 GB): elements are counted as they are read, and the error
// names the limit and the line it was passed at.
func TestJSONFileMemoryBoundedWhileReading(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"switches": [`)
	for i := range 150000 {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(`{"ports": [{"kind": "external"}]}`)
	}
	b.WriteString("]}\n")
	data := []byte(b.String())
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := readJSONLimited(data, "big.json", 64<<20)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.HasPrefix(err.Error(), "big.json:") || !strings.Contains(err.Error(), "more than the 64 MiB of memory this machine allows") {
		t.Errorf("error %v, want the memory limit named at a line", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 128<<20 { // garbage included
		t.Errorf("refusing it allocated %d MB", grew>>20)
	}
}

// A dragonfly saved as JSON keeps its groups, so that traffic that moves PEs from
// group to group runs on the file as on the family; a file's groups are all or none
// and numbered without gaps, and the mistakes name their line.
func TestJSONKeepsGroups(t *testing.T) {
	net := MustNew("dragonfly:2")
	var buf bytes.Buffer
	if err := net.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(bytes.NewReader(buf.Bytes()), "df.json")
	if err != nil {
		t.Fatal(err)
	}
	if back.Groups() != net.Groups() || back.Groups() != 9 {
		t.Fatalf("groups %d after the round trip, %d before (want 9)", back.Groups(), net.Groups())
	}
	for s := 0; s < net.Switches(); s++ {
		if back.Group(s) != net.Group(s) {
			t.Fatalf("switch %d: group %d after the round trip, %d before", s, back.Group(s), net.Group(s))
		}
	}
	if net.Group(-1) != -1 || net.Group(net.Switches()) != -1 || MustNew("torus:4x4").Group(0) != -1 {
		t.Errorf("Group out of range or without groups: %d, %d, %d; want -1", net.Group(-1), net.Group(net.Switches()), MustNew("torus:4x4").Group(0))
	}
	// One switch loses its group; then group 1 is emptied.
	text := buf.String()
	first := strings.Index(text, "\"group\": 0,")
	if first < 0 {
		t.Fatalf("no group in the file:\n%.400s", text)
	}
	_, err = ReadJSON(strings.NewReader(text[:first]+text[first+len("\"group\": 0,"):]), "df.json")
	if err == nil || !strings.Contains(err.Error(), "has no group while others have") || !strings.Contains(err.Error(), "df.json:") {
		t.Errorf("a switch without a group: %v", err)
	}
	_, err = ReadJSON(strings.NewReader(strings.ReplaceAll(text, "\"group\": 1,", "\"group\": 0,")), "df.json")
	if err == nil || !strings.Contains(err.Error(), "group 1 has no switch") {
		t.Errorf("a gap in the groups: %v", err)
	}
	_, err = ReadJSON(strings.NewReader(strings.Replace(text, "\"group\": 0,", "\"group\": -3,", 1)), "df.json")
	if err == nil || !strings.Contains(err.Error(), "group -3") {
		t.Errorf("a negative group: %v", err)
	}
}
