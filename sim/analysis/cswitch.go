package analysis

import (
	"context"
	"fmt"
	"sort"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// Connections are the connections of one stage's T-switches in a k-ary n-tree under
// DESTRO and uniform traffic, one route per ordered pair of distinct terminals (the
// C-switch paper's §5.1, Tables 1–2): Paths[l][l'] routes enter a T-switch of the stage
// by port l and leave by port l' (ports 0…k−1 face down, k…2k−1 up). Every T-switch of
// a stage has the same counts.
type Connections struct {
	K, N, Stage int
	Paths       [][]int64
	// Crossed is, when the counts come from routing a T-switch network, the routes
	// that crossed an internal link, per T-switch of the stage; -1 otherwise.
	Crossed int64
}

// Forward is C_f(s,o): routes from a down port to an up port.
func (c *Connections) Forward() int64 {
	return c.sum(func(a, b int) bool { return a < c.K && b >= c.K })
}

// Backward is C_b(s,o): routes from an up port to a down port.
func (c *Connections) Backward() int64 {
	return c.sum(func(a, b int) bool { return a >= c.K && b < c.K })
}

// Turnaround is T(s,o): routes from a down port to another down port.
func (c *Connections) Turnaround() int64 {
	return c.sum(func(a, b int) bool { return a < c.K && b < c.K })
}

// Total is every route through a T-switch of the stage.
func (c *Connections) Total() int64 { return c.sum(func(int, int) bool { return true }) }

// Internal is C_I: the routes whose two ports lie on different chips of a T-switch
// configured as cfg, each of which uses an internal link once.
func (c *Connections) Internal(cfg topology.TConfig) int64 {
	ab, ba := c.InternalDirections(cfg)
	return ab + ba
}

// InternalDirections splits Internal by direction: from chip α to β and back.
func (c *Connections) InternalDirections(cfg topology.TConfig) (ab, ba int64) {
	for a, row := range c.Paths {
		for b, v := range row {
			switch {
			case cfg.Has(a) && !cfg.Has(b):
				ab += v
			case !cfg.Has(a) && cfg.Has(b):
				ba += v
			}
		}
	}
	return ab, ba
}

func (c *Connections) sum(keep func(a, b int) bool) int64 {
	var t int64
	for a, row := range c.Paths {
		for b, v := range row {
			if keep(a, b) {
				t += v
			}
		}
	}
	return t
}

func newConnections(k, n, s int) Connections {
	p := make([][]int64, 2*k)
	for i := range p {
		p[i] = make([]int64, 2*k)
	}
	return Connections{K: k, N: n, Stage: s, Paths: p, Crossed: -1}
}

// ConnectionsClosedForm gives every stage's connections from the paper's
// propositions (Table 2), for stage s < n−1 and ports l, l′:
//
//	forward  (l down, l′ up):        C_f(s,o,l,l′) = k^(n−1) − k^s       (Prop. 4)
//	turnaround (l ≠ l′ down):        T(s,o,l,l′)   = k^s, every stage     (Prop. 7)
//	backward (l up, l′ = l − k):     C_b(s,o,l,l′) = k^n − k^(s+1)       (Props. 9–12)
//
// and none else; the last stage has turnarounds only. So C_f(s,o) = C_b(s,o) =
// k^(n+1) − k^(s+2) and T(s,o) = (k−1)·k^(s+1).
func ConnectionsClosedForm(k, n int) ([]Connections, error) {
	if k < 2 || n < 1 {
		return nil, fmt.Errorf("a k-ary n-tree needs k >= 2 and n >= 1, not %d and %d", k, n)
	}
	pow := make([]int64, n+2)
	pow[0] = 1
	for i := 1; i < len(pow); i++ {
		pow[i] = pow[i-1] * int64(k)
	}
	out := make([]Connections, n)
	for s := range n {
		c := newConnections(k, n, s)
		for l := 0; l < k; l++ {
			for l2 := 0; l2 < k; l2++ {
				if l != l2 {
					c.Paths[l][l2] = pow[s]
				}
			}
			if s < n-1 {
				for j := 0; j < k; j++ {
					c.Paths[l][k+j] = pow[n-1] - pow[s]
				}
				c.Paths[k+l][l] = pow[n] - pow[s+1]
			}
		}
		out[s] = c
	}
	return out, nil
}

// ConnectionsEnumerated routes every ordered pair of distinct terminals of a ktree
// network (single chips or T-switches) with DESTRO and counts, at every T-switch, the
// port each route enters by and the port it leaves by; a route that crosses between
// the chips counts once in Crossed. It is an error when two T-switches of a stage
// differ, which the paper's symmetry argument excludes.
func ConnectionsEnumerated(ctx context.Context, net *topology.Network) ([]Connections, error) {
	r, err := routing.NewDESTRO(net)
	if err != nil {
		return nil, err
	}
	l := r.Layout()
	k, n := l.K, l.N
	tsw := n * l.PerStage
	counts := make([]int64, tsw*4*k*k) // T-switch, in T-port, out T-port
	crossed := make([]int64, tsw)
	var buf []routing.Step
	for src := 0; src < l.Terminals(); src++ {
		if src&255 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("connections of %s: %w", net, err)
			}
		}
		for dst := 0; dst < l.Terminals(); dst++ {
			if dst == src {
				continue
			}
			buf = r.Path(src, dst, buf[:0])
			at := net.Attachment(src)
			in := int(at.Port) // the local port the route entered the current chip by
			entry := -1        // the T-port it entered the current T-switch by
			for _, st := range buf {
				s, o, chip := l.Locate(st.Switch)
				t := s*l.PerStage + o
				if tp := l.TPort(s, chip, in); tp >= 0 {
					entry = tp
				}
				out := l.TPort(s, chip, st.Port)
				if out < 0 { // to the twin chip
					crossed[t]++
				} else {
					counts[(t*2*k+entry)*2*k+out]++
				}
				port := net.Port(st.Switch, st.Port)
				in = int(port.PeerPort)
			}
		}
	}
	res := make([]Connections, n)
	for s := range n {
		c := newConnections(k, n, s)
		for o := 0; o < l.PerStage; o++ {
			t := s*l.PerStage + o
			for a := 0; a < 2*k; a++ {
				for b := 0; b < 2*k; b++ {
					v := counts[(t*2*k+a)*2*k+b]
					if o == 0 {
						c.Paths[a][b] = v
					} else if v != c.Paths[a][b] {
						return nil, fmt.Errorf("connections of %s: T-switch <%d,%d> has %d routes from port %d to port %d, T-switch <%d,0> has %d", net, s, o, v, a, b, s, c.Paths[a][b])
					}
				}
			}
			if l.Chips == 2 {
				if o == 0 {
					c.Crossed = crossed[t]
				} else if crossed[t] != c.Crossed {
					return nil, fmt.Errorf("connections of %s: T-switch <%d,%d> has %d internal-link routes, <%d,0> has %d", net, s, o, crossed[t], s, c.Crossed)
				}
			}
		}
		res[s] = c
	}
	return res, nil
}

// TSwitchRank is one configuration of a Type-A T-switch with its internal-link uses.
type TSwitchRank struct {
	Rank   int // 1 for the best; equal Worst share a rank
	Config topology.TConfig
	Name   string // topology's canonical name: bad, split or α's ports
	// Uses[s] is C_I at stage s (0 ≤ s < n−1); Worst the largest, at stage WorstStage,
	// where Total routes pass through each T-switch.
	Uses              []int64
	Worst, Total      int64
	WorstStage        int
	Optimal, Paired   bool // Optimal: least Worst; Paired: in S_b (each l with l+k)
	InternalDirection [2]int64
}

// RankTSwitch rates every configuration of a Type-A T-switch of a k-ary n-tree (α
// holding port 0: C(2k,k)/2 of them) by its internal-link uses C_I at its busiest
// Type-A stage, best first; equal values keep the configurations' order (ascending
// bit masks). The counts come from the closed forms, which the tests check against
// enumeration. For every stage the optimum is k^(n+1)/2, reached exactly by the
// paired configurations S_b (Props. 14–20), which the tests confirm.
func RankTSwitch(k, n int) ([]TSwitchRank, error) {
	if k > topology.MaxVariantArity || n < 2 {
		return nil, fmt.Errorf("ranking T-switches of arity 2 to %d in trees of at least 2 stages, not k = %d, n = %d", topology.MaxVariantArity, k, n)
	}
	conns, err := ConnectionsClosedForm(k, n)
	if err != nil {
		return nil, err
	}
	var out []TSwitchRank
	full := uint64(1)<<uint(2*k) - 1
	for m := uint64(1); m <= full; m += 2 {
		c := topology.TConfig(m)
		if len(c.Ports()) != k {
			continue
		}
		r := TSwitchRank{Config: c, Uses: make([]int64, n-1), Paired: paired(c, k)}
		for s := 0; s < n-1; s++ {
			r.Uses[s] = conns[s].Internal(c)
			if s == 0 || r.Uses[s] > r.Worst {
				r.Worst, r.WorstStage, r.Total = r.Uses[s], s, conns[s].Total()
				ab, ba := conns[s].InternalDirections(c)
				r.InternalDirection = [2]int64{ab, ba}
			}
		}
		out = append(out, r)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Worst < out[b].Worst })
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && out[i].Worst == out[i-1].Worst {
			out[i].Rank = out[i-1].Rank
		}
		out[i].Optimal = out[i].Worst == out[0].Worst
		out[i].Name = tconfigName(out[i].Config, k)
	}
	return out, nil
}

// tconfigName is the configuration's canonical name in ktree specs.
func tconfigName(c topology.TConfig, k int) string {
	s, err := topology.Parse(fmt.Sprintf("ktree:%d,2/%s", k, c))
	if err != nil {
		return c.String()
	}
	return s.Config
}

// paired reports whether every down port l sits with its up port l+k (S_b).
func paired(c topology.TConfig, k int) bool {
	for l := 0; l < k; l++ {
		if c.Has(l) != c.Has(l+k) {
			return false
		}
	}
	return true
}
