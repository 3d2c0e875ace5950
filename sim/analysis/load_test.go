package analysis

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

func loadOf(t testing.TB, spec string, tie routing.Tie) *ChannelLoad {
	t.Helper()
	l, err := Load(context.Background(), routing.NewDOR(topology.MustNew(spec), tie))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// Saturation bounds (N−1)/max routes and average DOR hops, against an independent
// brute-force table (no paper prints them). avgHops 0 means the table gives none.
func TestLoadBounds(t *testing.T) {
	cases := []struct {
		spec    string
		bound   float64
		avgHops float64
	}{
		{"twin:4x4x4/A", 0.2515, 5.488},
		{"twin:4x4x4/D", 0.4394, 4.795},
		{"twin:5x5x5/D", 0.4603, 0},
		{"twin:4x4x2/D", 0.4599, 4.206},
		{"twin:8x4x4/D", 0.3984, 5.839},
		{"twin:4x4x8/D", 0.3984, 5.839},
		{"twin:4x8x4/D", 0.3061, 6.780},
		{"twin:8x8x8/D", 0.2959, 8.885},
		{"torus:8x8", 0.7875, 4.063},
		{"torus:16x8", 0.4410, 6.047},
		{"torus:16x16", 0.4427, 8.031},
		{"torus:24x18", 0.3070, 10.524},
		{"torus:21x21", 0.3810, 10.500},
		{"torus:32x32", 0.2351, 16.016},
	}
	for _, l := range "BF" {
		cases = append(cases, struct {
			spec           string
			bound, avgHops float64
		}{fmt.Sprintf("twin:4x4x4/%c", l), 0.3460, 0})
	}
	groups := map[string]struct {
		letters string
		bound   float64
	}{
		"4": {"E", 0.3518}, "4ci": {"CI", 0.3639}, "4g": {"G", 0.3769}, "4hj": {"HJ", 0.3837},
		"5dg": {"G", 0.4603}, "5chij": {"CHIJ", 0.4116}, "5abef": {"ABEF", 0.3434},
		"6d": {"D", 0.3518}, "6g": {"G", 0.3204}, "6hj": {"HJ", 0.3112}, "6ci": {"CI", 0.3003},
		"6e": {"E", 0.2362}, "6bf": {"BF", 0.2349}, "6a": {"A", 0.1890},
	}
	for key, g := range groups {
		k := key[0] - '0'
		for _, l := range g.letters {
			cases = append(cases, struct {
				spec           string
				bound, avgHops float64
			}{fmt.Sprintf("twin:%dx%dx%d/%c", k, k, k, l), g.bound, 0})
		}
	}
	for _, c := range cases {
		l := loadOf(t, c.spec, routing.TiePlus)
		if !near(l.Bound, c.bound, 4) || (c.avgHops != 0 && !near(l.AvgHops, c.avgHops, 3)) {
			t.Errorf("%s: bound %.5f, avg hops %.4f; want %.4f, %.3f", c.spec, l.Bound, l.AvgHops, c.bound, c.avgHops)
		}
		// In cubic 3DT tori the internal link carries the most routes. Not in
		// 8×4×4: its long ring's external channels carry 640 routes, the internal link 593.
		net := topology.MustNew(c.spec)
		if net.IsTwin() && net.Radix(0) == net.Radix(1) && net.Radix(1) == net.Radix(2) && l.MaxInternal != l.MaxRoutes {
			t.Errorf("%s: busiest channel carries %d routes, internal link %d: the internal link should be the bottleneck", c.spec, l.MaxRoutes, l.MaxInternal)
		}
	}
}

// A torus's average DOR route length is its average distance: DOR is minimal there.
func TestLoadHopsEqualDistance(t *testing.T) {
	for _, spec := range []string{"torus:8x8", "torus:5x4x3", "torus:4x4@2", "mesh:6x5"} {
		l := loadOf(t, spec, routing.TieMinus)
		d := distancesOf(t, spec)
		if math.Abs(l.AvgHops-d.AvgDistance) > 1e-12 || l.MaxHops != d.Diameter || l.AvgInternalHops != 0 {
			t.Errorf("%s: DOR hops avg %v max %d, distance avg %v diameter %d", spec, l.AvgHops, l.MaxHops, d.AvgDistance, d.Diameter)
		}
	}
}

// 5DT 4×4×2×4×4 under DORT with the paper's CBest (d_2- on Card0), ties to + (an
// independent brute-force count; the papers print none):
// 4.5 external + 2.376 internal links on average, 13 at most. Those averages divide by
// N², counting each PE's route to itself as 0 hops, like the thesis distances; over
// distinct pairs they are 4.5044 + 2.3783.
func TestLoad5DTHops(t *testing.T) {
	l := loadOf(t, "twin:4x4x2x4x4/d0+,d0-,d1+,d1-,d2-", routing.TiePlus)
	self := float64(l.PEs-1) / float64(l.PEs)
	if !near(l.AvgExternalHops*self, 4.5, 3) || !near(l.AvgInternalHops*self, 2.376, 3) || !near(l.AvgHops*self, 6.876, 3) || l.MaxHops != 13 {
		t.Errorf("5DT incl. self: %.4f external + %.4f internal = %.4f, max %d; want 4.5 + 2.376 = 6.876, max 13",
			l.AvgExternalHops*self, l.AvgInternalHops*self, l.AvgHops*self, l.MaxHops)
	}
}

// Translation symmetry gives every channel the same count as routing all pairs, and
// the routes on all channels add up to the route lengths.
func TestLoadSymmetricEqualsAllPairs(t *testing.T) {
	for _, spec := range []string{"twin:4x4x4/A", "twin:3x4x2/cbest", "torus:5x4@2", "twin:4x4x2x4x4/cbest"} {
		net := topology.MustNew(spec)
		r := routing.NewDOR(net, routing.TiePlus)
		sym, err := Load(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		all, err := LoadAllPairs(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		if !sym.Symmetric || all.Symmetric {
			t.Fatalf("%s: Symmetric flags %v %v", spec, sym.Symmetric, all.Symmetric)
		}
		var links int64
		for s := 0; s < net.Switches(); s++ {
			for p := 0; p < net.Ports(s); p++ {
				if sym.Routes(s, p) != all.Routes(s, p) {
					t.Fatalf("%s: switch %d port %d: %d routes by symmetry, %d over all pairs", spec, s, p, sym.Routes(s, p), all.Routes(s, p))
				}
				if net.Port(s, p).Connected() {
					links += all.Routes(s, p)
				} else if net.Port(s, p).Kind == topology.Terminal && all.Routes(s, p) != int64(net.Terminals()-1) {
					t.Errorf("%s: ejection at switch %d port %d carries %d routes, want N-1", spec, s, p, all.Routes(s, p))
				}
			}
		}
		pairs := float64(all.PEs) * float64(all.PEs-1)
		if sym.MaxRoutes != all.MaxRoutes || sym.AvgHops != all.AvgHops || sym.AvgInternalHops != all.AvgInternalHops ||
			sym.MaxHops != all.MaxHops || math.Abs(float64(links)/pairs-all.AvgHops) > 1e-12 {
			t.Errorf("%s: symmetric %+v, all pairs %+v, channel routes sum %d", spec, sym, all, links)
		}
	}
}

func TestLoadCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Load(ctx, routing.NewDOR(topology.MustNew("mesh:4x4"), routing.TiePlus))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: err = %v", err)
	}
}

func BenchmarkLoadTwin8x8x8D(b *testing.B) {
	r := routing.NewDOR(topology.MustNew("twin:8x8x8/D"), routing.TiePlus)
	var l *ChannelLoad
	for b.Loop() {
		var err error
		if l, err = Load(context.Background(), r); err != nil {
			b.Fatal(err)
		}
	}
	hops := l.AvgHops * float64(l.PEs) * float64(l.PEs-1) / float64(r.Network().Nodes()) // hops routed per op
	b.ReportMetric(hops*float64(b.N)/b.Elapsed().Seconds(), "route-hops/s")
}
