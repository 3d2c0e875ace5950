package topology

import (
	"math"
	"strings"
	"testing"
)

// bfs is the distance in links from switch s to every switch.
func bfs(net *Network, s int) []int {
	dist := make([]int, net.Switches())
	for i := range dist {
		dist[i] = -1
	}
	dist[s] = 0
	queue := []int{s}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for p := 0; p < net.Ports(u); p++ {
			if v := int(net.Port(u, p).Peer); v >= 0 && dist[v] < 0 {
				dist[v] = dist[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return dist
}

// The paper's counts ([DF] §3): a·g routers of radix p + (a−1) + h, a·p·g PEs, and
// a·h·g/2 global links, one between every two groups when g = a·h + 1; diameter 3 by
// breadth-first search from every router.
func TestDragonflyCounts(t *testing.T) {
	for _, c := range []struct {
		spec       string
		a, p, h, g int
	}{
		{"dragonfly:2", 4, 2, 2, 9}, // the paper's 72-PE example ([DF] §3)
		{"dragonfly:2/relative", 4, 2, 2, 9},
		{"dragonfly:3", 6, 3, 3, 19},
		{"dragonfly:4", 8, 4, 4, 33},
		{"dragonfly:4,2,2,5", 4, 2, 2, 5}, // two links between every two groups
		{"dragonfly:3,1,1", 3, 1, 1, 4},
		{"dragonfly:5,3,2,6/relative", 5, 3, 2, 6},
	} {
		net := MustNew(c.spec)
		if net.String() != c.spec {
			t.Errorf("%s prints as %s", c.spec, net)
		}
		if net.Switches() != c.a*c.g || net.Terminals() != c.a*c.p*c.g || net.Groups() != c.g {
			t.Errorf("%s: %d routers, %d PEs, %d groups; want %d, %d, %d", c.spec, net.Switches(), net.Terminals(), net.Groups(), c.a*c.g, c.a*c.p*c.g, c.g)
		}
		global, local := 0, 0
		pairs := map[[2]int]int{}
		for i := 0; i < net.Links(); i++ {
			l := net.Link(i)
			ga, gb := net.Group(int(l.A)), net.Group(int(l.B))
			if ga == gb {
				local++
				continue
			}
			global++
			pairs[[2]int{min(ga, gb), max(ga, gb)}]++
		}
		if global != c.a*c.h*c.g/2 || local != c.g*c.a*(c.a-1)/2 {
			t.Errorf("%s: %d global and %d local links; want %d and %d", c.spec, global, local, c.a*c.h*c.g/2, c.g*c.a*(c.a-1)/2)
		}
		m := c.a * c.h / (c.g - 1)
		if len(pairs) != c.g*(c.g-1)/2 {
			t.Errorf("%s: %d pairs of groups are linked; want all %d", c.spec, len(pairs), c.g*(c.g-1)/2)
		}
		for pr, n := range pairs {
			if n != m {
				t.Errorf("%s: groups %v joined by %d links; want %d", c.spec, pr, n, m)
			}
		}
		z, ok := net.Spec().Size()
		if got := net.Size(); !ok || got.Switches != z.Switches || got.Terminals != z.Terminals || got.External != z.External || got.TerminalPorts != z.TerminalPorts {
			t.Errorf("%s: Size %+v, built %+v", c.spec, z, got)
		}
		l, _ := net.Spec().Dragonfly()
		diam := 0
		for s := 0; s < net.Switches(); s++ {
			for k := 0; k < c.h; k++ { // the layout's link o leads where the network's does
				grp, o := s/c.a, s%c.a*c.h+k
				port := net.Port(s, l.GlobalPort(o))
				q := l.Peer(grp, o)
				if int(port.Peer) != l.Switch(l.Target(grp, o), q/c.h) || int(port.PeerPort) != l.GlobalPort(q) || l.Peer(l.Target(grp, o), q) != o {
					t.Fatalf("%s: global link %d of group %d: the layout and the network disagree", c.spec, o, grp)
				}
			}
			if net.Ports(s) != c.p+c.a-1+c.h {
				t.Fatalf("%s: router %d has %d ports; want p+a-1+h = %d", c.spec, s, net.Ports(s), c.p+c.a-1+c.h)
			}
			for _, d := range bfs(net, s) {
				diam = max(diam, d)
			}
		}
		want := 3
		if c.a == 1 {
			want = 1
		}
		if diam != want {
			t.Errorf("%s: diameter %d; want %d", c.spec, diam, want)
		}
	}
}

// The average length of the minimal (local, global, local) routes between routers, by
// enumeration over the layout, against its closed form for g = a·h + 1: from a router,
// the a−1 others of its group are 1 hop away; of the a·h other groups, h are reached
// by the router's own global links (1 + [dest ≠ landing router] hops) and the other
// a·h − h by a local hop first, so the a·(a·h) routers outside the group sum to
// a·h·(a−1) + a·h·(2a−1) = a·h·(3a−2) hops. The graph's own distances are shorter on
// average: two global hops can beat local-global-local, which the test checks too.
func TestDragonflyMinimalDistance(t *testing.T) {
	for _, spec := range []string{"dragonfly:2", "dragonfly:3", "dragonfly:4", "dragonfly:3,2,1", "dragonfly:2/relative"} {
		net := MustNew(spec)
		l, err := net.Spec().Dragonfly()
		if err != nil {
			t.Fatal(err)
		}
		sum, graph, pairs := 0, 0, 0
		for s := 0; s < net.Switches(); s++ {
			gs, rs := s/l.A, s%l.A
			dist := bfs(net, s)
			for d := 0; d < net.Switches(); d++ {
				if d == s {
					continue
				}
				gd, rd := d/l.A, d%l.A
				hops := 1
				if gs != gd {
					o := l.Link(gs, gd, 0)
					q := l.Peer(gs, o)
					hops = 1
					if o/l.H != rs {
						hops++
					}
					if q/l.H != rd {
						hops++
					}
				}
				if dist[d] > hops {
					t.Fatalf("%s: BFS distance %d from %d to %d exceeds the minimal route's %d", spec, dist[d], s, d, hops)
				}
				sum += hops
				graph += dist[d]
				pairs++
			}
		}
		a, h := float64(l.A), float64(l.H)
		closed := (a*h*(3*a-2) + a - 1) / (a*(a*h+1) - 1)
		if got := float64(sum) / float64(pairs); math.Abs(got-closed) > 1e-12 {
			t.Errorf("%s: average minimal route %.6f; closed form %.6f", spec, got, closed)
		}
		if graph > sum {
			t.Errorf("%s: graph distances sum to %d, more than the minimal routes' %d", spec, graph, sum)
		}
		t.Logf("%s: minimal routes %.4f hops on average (closed form %.4f), graph distance %.4f", spec, float64(sum)/float64(pairs), closed, float64(graph)/float64(pairs))
	}
}

func TestDragonflyParseErrors(t *testing.T) {
	for in, want := range map[string]string{
		"dragonfly:":                 "bad number",
		"dragonfly:4,2":              "2 numbers",
		"dragonfly:4,2,2,9,1":        "5 numbers",
		"dragonfly:0,1,1":            "routers per group",
		"dragonfly:4,0,2":            "PEs per router",
		"dragonfly:4,65,2":           "PEs per router",
		"dragonfly:4,2,0":            "global links per router",
		"dragonfly:4,2,2,10":         "accepted are 2 to a*h+1 = 9",
		"dragonfly:4,2,2,1":          "accepted are 2 to",
		"dragonfly:4,2,2,4":          "g-1 must divide a*h = 8",
		"dragonfly:2/palm":           "accepted are consecutive",
		"dragonfly:30000,1,30000":    "ports",
		"dragonfly:4096,1,4096":      "at most 16777216 switches",
		"dragonfly:x":                "bad number",
		"dragonfly:1,1,1,2/RELATIVE": "",
	} {
		_, err := Parse(in)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", in, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: error %v; want one saying %q", in, err, want)
		}
	}
	if s := MustParse("dragonfly:8,4,4,33/consecutive"); s.String() != "dragonfly:4" {
		t.Errorf("dragonfly:8,4,4,33/consecutive prints as %s", s)
	}
	if s := MustParse("dragonfly:8,4,4,17"); s.String() != "dragonfly:8,4,4,17" {
		t.Errorf("dragonfly:8,4,4,17 prints as %s", s)
	}
}
