package analysis

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

func ipow(k, e int) int64 {
	v := int64(1)
	for range e {
		v *= int64(k)
	}
	return v
}

// Table 2: the closed forms equal the counts of routing every pair with DESTRO, port
// pair by port pair, for (k,n) = (4,3), (4,4), (8,3); and the per-switch sums are the
// paper's C_f = C_b = k^(n+1) − k^(s+2), T = (k−1)·k^(s+1), Σ over all switches N² − N.
func TestConnectionsClosedFormEqualsEnumeration(t *testing.T) {
	for _, kn := range [][2]int{{4, 3}, {4, 4}, {8, 3}, {2, 5}, {3, 3}} {
		k, n := kn[0], kn[1]
		closed, err := ConnectionsClosedForm(k, n)
		if err != nil {
			t.Fatal(err)
		}
		enum, err := ConnectionsEnumerated(context.Background(), topology.MustNew(fmt.Sprintf("ktree:%d,%d", k, n)))
		if err != nil {
			t.Fatal(err)
		}
		var all int64
		for s := range n {
			for a := range 2 * k {
				if !slices.Equal(closed[s].Paths[a], enum[s].Paths[a]) {
					t.Fatalf("(%d,%d) stage %d port %d: closed form %v, enumerated %v", k, n, s, a, closed[s].Paths[a], enum[s].Paths[a])
				}
			}
			c := &enum[s]
			wantF := ipow(k, n+1) - ipow(k, s+2)
			if s == n-1 {
				wantF = 0
			}
			if c.Forward() != wantF || c.Backward() != wantF || c.Turnaround() != int64(k-1)*ipow(k, s+1) {
				t.Errorf("(%d,%d) stage %d: C_f %d, C_b %d, T %d", k, n, s, c.Forward(), c.Backward(), c.Turnaround())
			}
			all += ipow(k, n-1) * c.Turnaround()
		}
		if N := ipow(k, n); all != N*N-N {
			t.Errorf("(%d,%d): %d turnarounds in all, want N²−N = %d", k, n, all, N*N-N)
		}
	}
}

// The internal-link uses that the closed forms give a configuration are the routes
// that really cross a T-switch's internal links when DESTRO runs on the T-switch
// network (any number of joining ports).
func TestInternalUsesEnumerated(t *testing.T) {
	for _, spec := range []string{"ktree:4,3/cswitch", "ktree:4,3/bad:2", "ktree:4,3/split", "ktree:4,3/0,2,5,7:3", "ktree:4,4/cswitch", "ktree:8,2/cswitch:2", "ktree:2,4/bad"} {
		net := topology.MustNew(spec)
		l, _ := net.Spec().KTree()
		closed, _ := ConnectionsClosedForm(l.K, l.N)
		enum, err := ConnectionsEnumerated(context.Background(), net)
		if err != nil {
			t.Fatal(err)
		}
		for s := range l.N {
			cfg := l.TypeA
			if s == l.N-1 {
				cfg = l.TypeB
			}
			if want := closed[s].Internal(cfg); enum[s].Crossed != want {
				t.Errorf("%s stage %d: %d routes cross, closed form %d", spec, s, enum[s].Crossed, want)
			}
			for a := range 2 * l.K {
				if !slices.Equal(closed[s].Paths[a], enum[s].Paths[a]) {
					t.Errorf("%s stage %d: T-switch connections differ from the single-chip tree's", spec, s)
				}
			}
		}
	}
}

// The exhaustive search over C^α: the optimum at every Type-A stage is k^(n+1)/2
// (128 for the 4-ary 3-tree, 2,048 for the 4-ary 5-tree, 16,384 for the 8-ary 4-tree),
// reached by exactly the paired configurations S_b (3 of 35 for k = 4, 35 of 6,435 for
// k = 8), and the last stage's optimum, no crossing at all, only by S^B.
func TestTSwitchSearch(t *testing.T) {
	for _, c := range []struct {
		k, n    int
		min     int64
		optimal int
		configs int
	}{
		{4, 3, 128, 3, 35},
		{4, 5, 2048, 3, 35},
		{8, 4, 16384, 35, 6435},
		{4, 4, 512, 3, 35},
	} {
		ranked, err := RankTSwitch(c.k, c.n)
		if err != nil {
			t.Fatal(err)
		}
		if len(ranked) != c.configs {
			t.Fatalf("(%d,%d): %d configurations", c.k, c.n, len(ranked))
		}
		opt := 0
		for _, r := range ranked {
			if r.Optimal {
				opt++
				if !r.Paired || r.Worst != c.min {
					t.Errorf("(%d,%d): optimal %s is paired %v with %d uses", c.k, c.n, r.Name, r.Paired, r.Worst)
				}
				for s, u := range r.Uses {
					if u != ipow(c.k, c.n+1)/2 {
						t.Errorf("(%d,%d): optimal %s uses %d at stage %d", c.k, c.n, r.Name, u, s)
					}
				}
			} else if r.Paired {
				t.Errorf("(%d,%d): paired %s is not optimal (%d)", c.k, c.n, r.Name, r.Worst)
			}
		}
		if opt != c.optimal || ranked[0].Worst != c.min {
			t.Errorf("(%d,%d): %d optimal configurations with %d uses", c.k, c.n, opt, ranked[0].Worst)
		}
		// Stage by stage too: no configuration beats S_b at any Type-A stage.
		closed, _ := ConnectionsClosedForm(c.k, c.n)
		for _, r := range ranked {
			for s := 0; s < c.n-1; s++ {
				if closed[s].Internal(r.Config) < c.min {
					t.Errorf("(%d,%d): %s uses %d at stage %d", c.k, c.n, r.Name, closed[s].Internal(r.Config), s)
				}
			}
		}
		// Type B: only all down ports on one chip avoids every crossing.
		last := closed[c.n-1]
		for _, r := range ranked {
			if zero := last.Internal(r.Config) == 0; zero != (r.Config&topology.DownConfig(c.k) == topology.DownConfig(c.k)) {
				t.Errorf("(%d,%d): last stage, %s uses %d", c.k, c.n, r.Name, last.Internal(r.Config))
			}
		}
	}
}

// The paper's examples for k = 8 (Figs. 5b and 6): Example 1 is optimal for forward and
// turnaround connections (S^A_ft) but not paired, so its backward connections cross;
// Example 2's T1 and T2 are paired and optimal.
func TestTSwitchPaperExamples(t *testing.T) {
	const k, n = 8, 4
	closed, _ := ConnectionsClosedForm(k, n)
	cfg := func(s string) topology.TConfig {
		c, err := topology.ParseTConfig(s, k)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	min := ipow(k, n+1) / 2
	ex1 := cfg("0,1,2,3,8,9,12,13")
	for s := 0; s < n-1; s++ {
		c := &closed[s]
		ftOnly := c.Internal(ex1) - backwardCrossing(c, ex1)
		if ftOnly != min || c.Internal(ex1) <= min {
			t.Errorf("example 1, stage %d: forward+turnaround %d (want %d), all %d", s, ftOnly, min, c.Internal(ex1))
		}
		for _, t2 := range []string{"0,1,2,3,8,9,10,11", "0,2,3,4,8,10,11,12"} {
			if got := c.Internal(cfg(t2)); got != min {
				t.Errorf("example 2 %s, stage %d: %d uses", t2, s, got)
			}
		}
	}
}

func backwardCrossing(c *Connections, cfg topology.TConfig) int64 {
	var v int64
	for a := c.K; a < 2*c.K; a++ {
		for b := 0; b < c.K; b++ {
			if cfg.Has(a) != cfg.Has(b) {
				v += c.Paths[a][b]
			}
		}
	}
	return v
}
