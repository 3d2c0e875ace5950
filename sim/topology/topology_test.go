package topology

import (
	"strings"
	"testing"
)

func TestParseRoundTrip(t *testing.T) {
	cases := map[string]string{
		"torus:16x8":                   "torus:16x8",
		"mesh:8x8":                     "mesh:8x8",
		"torus:8x8x8@2":                "torus:8x8x8@2",
		"torus:8x8x8@1":                "torus:8x8x8",
		"twin:4x4x4/D":                 "twin:4x4x4/D",
		"twin:4x4x4/d":                 "twin:4x4x4/D",
		"twin:4x4x4":                   "twin:4x4x4/cbest",
		"twin:4x4x2x4x4/cbest":         "twin:4x4x2x4x4/cbest",
		"twin:4x4x2x4x4/CBest":         "twin:4x4x2x4x4/cbest",
		"twin:4x4x4/x+,y+,x-":          "twin:4x4x4/x+,x-,y+",
		"twin:4x4x4/d0+,d0-,d2+":       "twin:4x4x4/x+,x-,z+",
		"twin:4x4x4x4/d0+,d0-,d1+,d1-": "twin:4x4x4x4/d0+,d0-,d1+,d1-",
		" TORUS:4x4 ":                  "torus:4x4",
		"twin:5x5/x+,y-":               "twin:5x5/x+,y-",
	}
	for in, want := range cases {
		s, err := Parse(in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", in, err)
		}
		if got := s.String(); got != want {
			t.Errorf("Parse(%q).String() = %q, want %q", in, got, want)
		}
		again, err := Parse(s.String())
		if err != nil || !again.Equal(s) {
			t.Errorf("round trip of %q: %v, %v", in, again, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := map[string]string{
		"":                        "no family",
		"ring:8":                  "unknown family",
		"torus:":                  "no shape",
		"torus:0x4":               "radix 0",
		"torus:1x4":               "radix 1",
		"torus:4xx4":              "bad radix",
		"torus:4x4@0":             "PEs per switch",
		"torus:4x4/D":             "only twin tori",
		"twin:4x4x4/x+,x+,y+":     "listed twice",
		"twin:4x4x4/x+,y+":        "has 3 external ports",
		"twin:4x4x4/x+,y+,z+,x-":  "has 3 external ports",
		"twin:4x4x4x4/D":          "letter",
		"twin:4x4x4/K":            "A to J",
		"twin:4x4x4/w+,x+,y+":     "bad port",
		"twin:4x4x4/d3+,x+,y+":    "dimensions 0..2",
		"twin:4@2":                "two PEs per node",
		"twin:4":                  "2 to 8 dimensions",
		"twin:4x4x4/":             "empty configuration",
		"torus:2x2x2x2x2x2x2x2x2": "accepted are 1 to 8",
		"torus:4096x4096x4096":    "more than",
	}
	for in, want := range cases {
		_, err := Parse(in)
		if err == nil {
			t.Errorf("Parse(%q) accepted", in)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, want) || strings.Contains(msg, "\n") {
			t.Errorf("Parse(%q) error %q, want one line containing %q", in, msg, want)
		}
	}
}

// checkNetwork asserts the structural invariants every builder must keep.
func checkNetwork(t *testing.T, n *Network) {
	t.Helper()
	links := 0
	for s := 0; s < n.Switches(); s++ {
		for p := 0; p < n.Ports(s); p++ {
			port := n.Port(s, p)
			switch port.Kind {
			case Terminal:
				a := n.Attachment(int(port.Terminal))
				if int(a.Switch) != s || int(a.Port) != p {
					t.Fatalf("%s: terminal %d attachment mismatch", n, port.Terminal)
				}
			case External, Internal:
				if !port.Connected() {
					if !n.IsMesh() {
						t.Fatalf("%s: switch %d port %d unconnected", n, s, p)
					}
					continue
				}
				back := n.Port(int(port.Peer), int(port.PeerPort))
				if int(back.Peer) != s || int(back.PeerPort) != p || back.Kind != port.Kind {
					t.Fatalf("%s: link %d.%d -> %d.%d not symmetric", n, s, p, port.Peer, port.PeerPort)
				}
				if port.Kind == External {
					if back.Dim != port.Dim || back.Dir != -port.Dir {
						t.Fatalf("%s: link %d.%d joins %s to %s", n, s, p, port.Name(n.Dims()), back.Name(n.Dims()))
					}
					want := n.Neighbor(n.Node(s), int(port.Dim), int(port.Dir))
					if n.Node(int(port.Peer)) != want {
						t.Fatalf("%s: port %s of node %d reaches node %d, want %d", n, port.Name(n.Dims()), n.Node(s), n.Node(int(port.Peer)), want)
					}
				} else if n.Node(int(port.Peer)) != n.Node(s) {
					t.Fatalf("%s: internal link leaves the node", n)
				}
				links++
			}
		}
	}
	if links != 2*n.Links() {
		t.Fatalf("%s: %d link ends, %d links", n, links, n.Links())
	}
}

func TestBuilders(t *testing.T) {
	cases := []struct {
		spec                       string
		switches, terminals, links int
		portsPerSwitch             int
	}{
		{"torus:16x8", 128, 128, 256, 5},
		{"torus:24x18", 432, 432, 864, 5},
		{"torus:4x4x2", 32, 32, 96, 7},
		{"torus:8x8x8@2", 512, 1024, 1536, 8},
		{"mesh:8x8", 64, 64, 112, 5},
		{"mesh:2x3x4", 24, 24, 1*12 + 2*8 + 3*6, 7},
		{"twin:4x4x4/D", 128, 128, 64*3 + 64, 5},
		{"twin:8x4x4/A", 256, 256, 128*3 + 128, 5},
		{"twin:4x4x2x4x4/cbest", 1024, 1024, 512*5 + 512, 7},
		{"twin:3x5/x+,y-", 30, 30, 15*2 + 15, 4},
		{"torus:3x3x3x3x3x3x3x3", 6561, 6561, 6561 * 8, 17},
	}
	for _, c := range cases {
		n := MustNew(c.spec)
		if n.Switches() != c.switches || n.Terminals() != c.terminals || n.Links() != c.links {
			t.Errorf("%s: %d switches, %d terminals, %d links; want %d, %d, %d", c.spec,
				n.Switches(), n.Terminals(), n.Links(), c.switches, c.terminals, c.links)
		}
		for s := 0; s < n.Switches(); s++ {
			if n.Ports(s) != c.portsPerSwitch {
				t.Fatalf("%s: switch %d has %d ports, want %d", c.spec, s, n.Ports(s), c.portsPerSwitch)
			}
		}
		checkNetwork(t, n)
	}
}

func TestTwinCards(t *testing.T) {
	n := MustNew("twin:4x4x4/D")
	// D: Card0 {X+, X-, Y+}, Card1 {Y-, Z+, Z-}; PE id = card + 2·node.
	want := map[int][]string{0: {"x+", "x-", "y+", "int", "pe"}, 1: {"y-", "z+", "z-", "int", "pe"}}
	for card, names := range want {
		s := n.Switch(21, card)
		for p, name := range names {
			if got := n.Port(s, p).Name(3); got != name {
				t.Errorf("card %d port %d = %s, want %s", card, p, got, name)
			}
		}
		if pe := n.Port(s, 4).Terminal; int(pe) != card+2*21 {
			t.Errorf("card %d of node 21 holds PE %d", card, pe)
		}
	}
	if n.DimPort(n.Switch(0, 0), 2, +1) != -1 || n.DimPort(n.Switch(0, 1), 2, +1) != 1 {
		t.Error("DimPort does not follow configuration D")
	}
	if got := n.Coord(21); got[0] != 1 || got[1] != 1 || got[2] != 1 {
		t.Errorf("Coord(21) = %v, want [1 1 1]", got)
	}
}

func TestConfigurations(t *testing.T) {
	want := map[int]int{2: 3, 3: 10, 4: 35, 5: 126, 6: 462, 7: 1716, 8: 6435}
	for n, count := range want {
		cs, err := Configurations(n)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) != count {
			t.Errorf("n=%d: %d configurations, want %d", n, len(cs), count)
		}
		seen := map[Config]bool{}
		for _, c := range cs {
			if c.Size() != n || !c.Has(0, +1) || seen[c] || seen[c.Mirror(n)] {
				t.Fatalf("n=%d: configuration %s is not canonical and distinct", n, c.Ports(n))
			}
			seen[c] = true
		}
	}
	cs, _ := Configurations(3)
	var names []string
	for _, c := range cs {
		names = append(names, c.Name(3))
	}
	if got := strings.Join(names, ""); got != "DGIJCABEFH" {
		t.Errorf("canonical order of 3DT letters = %s", got)
	}
}

func TestLettersAndCBest(t *testing.T) {
	sc1 := "CDGHIJ"
	for l := byte('A'); l <= 'J'; l++ {
		c, _ := Letter(l)
		split := len(c.Split(3))
		if strings.IndexByte(sc1, l) >= 0 && split != 1 || strings.IndexByte(sc1, l) < 0 && split != 3 {
			t.Errorf("%c splits %d dimensions", l, split)
		}
		if c.Name(3) != string(l) || c.Mirror(3).Name(3) != string(l) {
			t.Errorf("%c is named %s", l, c.Name(3))
		}
	}
	d, _ := Letter('D')
	if CBest([]int{4, 4, 4}) != d {
		t.Errorf("CBest(4x4x4) = %s, want D", CBest([]int{4, 4, 4}).Ports(3))
	}
	if got := CBest([]int{5, 5, 5}).Ports(3); got != "x+,x-,y-" {
		t.Errorf("CBest(5x5x5) = %s, want the paper's x+,x-,y- (G)", got)
	}
	if got := CBest([]int{4, 4, 2, 4, 4}).Ports(5); got != "d0+,d0-,d1+,d1-,d2+" {
		t.Errorf("CBest(4x4x2x4x4) = %s", got)
	}
	if got := CBest([]int{5, 5, 5, 5}).Ports(4); got != "d0+,d0-,d1+,d1-" {
		t.Errorf("CBest(5^4) = %s", got)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"torus:16x8", "mesh:8x8", "torus:8x8x8@2", "twin:4x4x4/D",
		"twin:4x4x2x4x4/cbest", "twin:4x4x4/x+,y+,x-", "twin:4x4x4/d0+,d0-,d2+", "twin:9x9/d1-,x+", "x:", "twin:4x4x4/d+,,",
		"twisted:rtt:16", "twisted:pdtt:32", "twisted:ptt:8x4x4", "twisted:rt:", "tct:3,5", "tct:4,", "toroid:5", "tcc:2,5", "tofu:3",
		"dragonfly:2", "dragonfly:4,2,2,5/relative", "dragonfly:4,2,2,4", "dragonfly:3,1,1/x", "dragonfly:1,1,1,2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(in)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error for %q", in)
			}
			return
		}
		again, err := Parse(s.String())
		if err != nil || !again.Equal(s) {
			t.Fatalf("%q parsed to %q which does not round-trip: %v", in, s, err)
		}
		if n := 1; s.Family == FamilyTwin {
			if _, err := s.TwinConfig(); err != nil {
				t.Fatalf("%q: accepted spec has a bad configuration: %v", in, err)
			}
			_ = n
		}
	})
}
