package topology

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// linkLatency is the cycles the link leaving a port takes under 1-cycle links, as
// BookSim2 runs it: its own latency, else its length.
func linkLatency(p Port) int {
	if p.Latency != 0 {
		return int(p.Latency)
	}
	return max(int(p.Length), 1)
}

// anynetView is what an anynet file says of a network: per switch, its PEs and its
// neighbours with the latency towards each, in BookSim2's port order (PEs by id, then
// neighbours by id).
func anynetView(net *Network) []string {
	out := make([]string, net.Switches())
	for s := range out {
		var pes, peers []string
		for p := 0; p < net.Ports(s); p++ {
			port := net.Port(s, p)
			switch {
			case port.Kind == Terminal:
				pes = append(pes, fmt.Sprintf("pe%03d", port.Terminal))
			case port.Peer >= 0:
				peers = append(peers, fmt.Sprintf("s%03d@%d", port.Peer, linkLatency(port)))
			}
		}
		slices.Sort(pes)
		slices.Sort(peers)
		out[s] = strings.Join(append(pes, peers...), " ")
	}
	return out
}

// Round trip: our networks written in anynet format read back as the same network
// (switch and PE ids, which PE hangs where, which switches are linked, every
// direction's latency), with every switch's ports in BookSim2's order (its PEs by id,
// then its neighbours by id), the order anynet.cpp's maps give them.
func TestWriteAnynetRoundTrip(t *testing.T) {
	// A hand-built network with per-direction latencies and a long link.
	b := NewBuilder("lat")
	for range 3 {
		b.AddSwitch("")
	}
	a, z := b.Link(2, Role{}, 0, Role{})
	b.SetLatency(a, 7)
	b.SetLatency(z, 3)
	a, _ = b.Link(1, Role{}, 2, Role{})
	b.SetLength(a, 4)
	b.Link(0, Role{}, 1, Role{})
	b.AttachPE(1)
	b.AttachPE(0)
	b.AttachPE(0)
	lat, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteAnynet(&buf, lat); err != nil {
		t.Fatal(err)
	}
	if want := "router 0 node 1 node 2 router 1 router 2 3\nrouter 1 node 0 router 0 router 2 4\nrouter 2 router 0 7 router 1\n"; buf.String() != want {
		t.Errorf("wrote\n%swant\n%s", buf.String(), want)
	}
	nets := []*Network{lat}
	for _, spec := range []string{"torus:4x4", "twin:4x4x4/A", "twin:3x3x3/D", "mesh:4x4@2", "ktree:4,2", "ktree:2,3/cswitch", "kns:4,2,2"} {
		nets = append(nets, MustNew(spec))
	}
	for _, net := range nets {
		buf.Reset()
		if err := WriteAnynet(&buf, net); err != nil {
			t.Errorf("%s: %v", net, err)
			continue
		}
		back, err := ReadAnynet(bytes.NewReader(buf.Bytes()), "x.txt")
		if err != nil {
			t.Errorf("%s: reading back: %v", net, err)
			continue
		}
		if back.Switches() != net.Switches() || back.Terminals() != net.Terminals() || back.Links() != net.Links() {
			t.Errorf("%s: %d switches, %d PEs, %d links read back as %d, %d, %d", net, net.Switches(), net.Terminals(), net.Links(), back.Switches(), back.Terminals(), back.Links())
			continue
		}
		if w, g := anynetView(net), anynetView(back); !slices.Equal(w, g) {
			for s := range w {
				if w[s] != g[s] {
					t.Errorf("%s: switch %d: %s, read back as %s", net, s, w[s], g[s])
					break
				}
			}
		}
		for pe := 0; pe < net.Terminals(); pe++ {
			if net.Attachment(pe).Switch != back.Attachment(pe).Switch {
				t.Errorf("%s: PE %d on switch %d, read back on %d", net, pe, net.Attachment(pe).Switch, back.Attachment(pe).Switch)
			}
		}
		for s := 0; s < back.Switches(); s++ { // BookSim2's port order
			prevPE, prevPeer, peers := int32(-1), int32(-1), false
			for p := 0; p < back.Ports(s); p++ {
				port := back.Port(s, p)
				if port.Kind == Terminal {
					if peers || port.Terminal < prevPE {
						t.Fatalf("%s: switch %d port %d (PE %d) is out of BookSim2's order", net, s, p, port.Terminal)
					}
					prevPE = port.Terminal
					continue
				}
				if port.Peer < prevPeer {
					t.Fatalf("%s: switch %d port %d (to switch %d) is out of BookSim2's order", net, s, p, port.Peer)
				}
				peers, prevPeer = true, port.Peer
			}
		}
		var again bytes.Buffer
		if err := WriteAnynet(&again, back); err != nil || again.String() != buf.String() {
			t.Errorf("%s: written again differs (%v)", net, err)
		}
	}
}

// What the format cannot hold is refused, naming why.
func TestWriteAnynetRefusals(t *testing.T) {
	oneWay := NewBuilder("oneway")
	oneWay.AddSwitch("")
	oneWay.AddSwitch("")
	oneWay.LinkOneWay(0, Role{}, 1, Role{})
	oneWay.LinkOneWay(1, Role{}, 0, Role{})
	oneWay.AttachPE(0)
	slow := NewBuilder("slow")
	slow.AddSwitch("")
	slow.AddSwitch("")
	slow.Link(0, Role{}, 1, Role{})
	slow.SetLatency(slow.attach(0, 0), 3)
	for _, c := range []struct {
		net  func() (*Network, error)
		want string
	}{
		{func() (*Network, error) { return New("torus:2x4") }, "joined by more than one link"},
		{func() (*Network, error) { return New("ktree:4,2/cswitch:2") }, "joined by more than one link"},
		{oneWay.Build, "one-way link"},
		{func() (*Network, error) { return New("kns:4,2,2,ruft") }, "one-way link"},
		{slow.Build, "PE 0's link takes 3 cycles"},
	} {
		net, err := c.net()
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteAnynet(&buf, net); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", net, err, c.want)
		}
	}
}
