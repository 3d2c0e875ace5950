package topology

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestWriteJSONRoundTrip(t *testing.T) {
	for _, spec := range []string{"twin:4x4x4/D", "torus:3x2@2", "mesh:3x3", "twin:4x4x2x4x4/cbest"} {
		net := MustNew(spec)
		var buf bytes.Buffer
		if err := net.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		var got NetworkJSON
		if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if got.Topology != spec && got.Topology != net.String() || len(got.Switches) != net.Switches() ||
			len(got.Links) != net.Links() || len(got.Terminals) != net.Terminals() {
			t.Fatalf("%s: %s with %d switches, %d links, %d terminals", spec, got.Topology, len(got.Switches), len(got.Links), len(got.Terminals))
		}
		// Rebuild the graph from the JSON alone and check it against the network.
		ports := 0
		for _, sw := range got.Switches {
			if sw.Card != net.Card(sw.ID) || net.NodeAt(sw.Coord) != sw.Node || net.Node(sw.ID) != sw.Node {
				t.Errorf("%s: switch %d at %v card %d", spec, sw.ID, sw.Coord, sw.Card)
			}
			for _, p := range sw.Ports {
				ports++
				want := net.Port(sw.ID, p.Index)
				if p.Kind != want.Kind.String() || p.Dim != int(want.Dim) || p.Dir != int(want.Dir) || p.Peer != int(want.Peer) || p.Name != want.Name(net.Dims()) {
					t.Errorf("%s: switch %d port %+v, want %+v", spec, sw.ID, p, want)
				}
				if p.Peer >= 0 { // links are symmetric
					back := got.Switches[p.Peer].Ports[p.PeerPort]
					if back.Peer != sw.ID || back.PeerPort != p.Index {
						t.Errorf("%s: switch %d port %d -> %d.%d does not point back", spec, sw.ID, p.Index, p.Peer, p.PeerPort)
					}
				}
				if p.Kind == "terminal" && (got.Terminals[p.Terminal].Switch != sw.ID || got.Terminals[p.Terminal].Port != p.Index) {
					t.Errorf("%s: terminal %d attaches elsewhere", spec, p.Terminal)
				}
			}
		}
		if ports != net.TotalPorts() {
			t.Errorf("%s: %d ports in JSON, want %d", spec, ports, net.TotalPorts())
		}
		internal := 0
		for _, l := range got.Links {
			if got.Switches[l.A].Ports[l.PA].Peer != l.B || got.Switches[l.A].Ports[l.PA].PeerPort != l.PB {
				t.Errorf("%s: link %+v does not match its ports", spec, l)
			}
			if l.Kind == "internal" {
				internal++
			}
		}
		if net.IsTwin() != (internal == net.Nodes()) || (!net.IsTwin() && internal != 0) {
			t.Errorf("%s: %d internal links", spec, internal)
		}
		if net.IsTwin() && got.Config != net.Config().Ports(net.Dims()) {
			t.Errorf("%s: config %q", spec, got.Config)
		}
	}
}

func TestWriteDOT(t *testing.T) {
	for _, spec := range []string{"twin:4x4x4/D", "torus:4x4@2", "mesh:3x2"} {
		net := MustNew(spec)
		var buf bytes.Buffer
		if err := net.WriteDOT(&buf); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		edges, internal, nodes := 0, 0, 0
		for _, line := range strings.Split(out, "\n") {
			switch {
			case strings.Contains(line, " -- "):
				edges++
				if strings.Contains(line, "color=red") {
					internal++
					if !strings.Contains(line, `taillabel="int"`) {
						t.Errorf("%s: internal edge %q", spec, line)
					}
				}
			case strings.HasPrefix(line, "  s") && strings.Contains(line, "[label="):
				nodes++
			}
		}
		wantInternal := 0
		if net.IsTwin() {
			wantInternal = net.Nodes()
		}
		if !strings.HasPrefix(out, `graph "`+net.String()+`" {`) || !strings.HasSuffix(out, "}\n") ||
			edges != net.Links() || nodes != net.Switches() || internal != wantInternal {
			t.Errorf("%s: %d edges (%d internal), %d nodes; want %d, %d, %d", spec, edges, internal, nodes, net.Links(), wantInternal, net.Switches())
		}
	}
	var buf bytes.Buffer
	_ = MustNew("twin:4x4x4/D").WriteDOT(&buf)
	for _, want := range []string{`s0 [label="<0,0,0> card 0\nPE 0"];`, `s0 -- s2 [taillabel="x+", headlabel="x-"];`, `s0 -- s1 [taillabel="int", headlabel="int", style=bold, color=red];`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("DOT lacks %s", want)
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, bytes.ErrTooLarge }

func TestExportWriteErrors(t *testing.T) {
	net := MustNew("torus:4x4")
	if err := net.WriteDOT(failWriter{}); err == nil || !strings.Contains(err.Error(), "torus:4x4") {
		t.Errorf("WriteDOT to a failing writer: %v", err)
	}
	if err := net.WriteJSON(failWriter{}); err == nil || !strings.Contains(err.Error(), "torus:4x4") {
		t.Errorf("WriteJSON to a failing writer: %v", err)
	}
}

func ExampleNetwork_WriteDOT() {
	net := MustNew("mesh:3")
	_ = net.WriteDOT(os.Stdout)
	// Output:
	// graph "mesh:3" {
	//   graph [overlap=false, splines=true];
	//   node [shape=box, fontsize=10];
	//   edge [fontsize=8];
	//   s0 [label="<0>\nPE 0"];
	//   s1 [label="<1>\nPE 1"];
	//   s2 [label="<2>\nPE 2"];
	//   s0 -- s1 [taillabel="x+", headlabel="x-"];
	//   s1 -- s2 [taillabel="x+", headlabel="x-"];
	// }
}
