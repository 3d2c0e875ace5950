package analysis

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/twintorus/twintorus/sim/topology"
)

func distancesOf(t testing.TB, spec string) *DistanceStats {
	t.Helper()
	net, err := topology.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Distances(context.Background(), net)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// near reports whether got rounds to want at the given number of decimals.
func near(got, want float64, decimals int) bool {
	return math.Abs(got-want) <= 0.5*math.Pow(10, -float64(decimals))+1e-12
}

// TestDistancesSymmetricEqualsAllSources: the symmetry classes of tori and twin tori,
// and the per-dimension product of meshes (one to four dimensions, odd and even
// radices, one to three PEs per switch), give the very histogram, diameter and
// averages of a BFS from every switch.
func TestDistancesSymmetricEqualsAllSources(t *testing.T) {
	for _, spec := range []string{
		"torus:4x4", "torus:5x3x2", "torus:4x4@3", "torus:7", "twin:4x4x4/A", "twin:4x4x4/D",
		"twin:3x5x2/cbest", "twin:5x5x5/G", "twin:4x4x2x4x4/cbest", "twin:3x3x3x3/d0+,d1-,d2+,d3-",
		"mesh:2", "mesh:7", "mesh:2x2", "mesh:3x5", "mesh:4x4", "mesh:8x3", "mesh:4x4@2", "mesh:2x3x4",
		"mesh:3x3x3@3", "mesh:5x2x2x3", "mesh:6x6x2@2", "mesh:16x16",
	} {
		net := topology.MustNew(spec)
		sym, err := Distances(context.Background(), net)
		if err != nil {
			t.Fatal(err)
		}
		all, err := DistancesAllSources(context.Background(), net)
		if err != nil {
			t.Fatal(err)
		}
		if sym.Sources >= all.Sources {
			t.Errorf("%s: symmetric run used %d sources, all-sources %d", spec, sym.Sources, all.Sources)
		}
		if sym.Diameter != all.Diameter || !slices.Equal(sym.Histogram, all.Histogram) ||
			sym.AvgDistance != all.AvgDistance || sym.AvgDistanceInclSelf != all.AvgDistanceInclSelf {
			t.Errorf("%s: symmetric %+v != all sources %+v", spec, sym, all)
		}
		var pairs int64
		for _, c := range all.Histogram {
			pairs += c
		}
		if pairs != all.Pairs() {
			t.Errorf("%s: histogram holds %d pairs, want N(N-1) = %d", spec, pairs, all.Pairs())
		}
	}
}

// TestMeshDistances: a mesh's distances come from the product over its dimensions,
// with no BFS (TestDistancesSymmetricEqualsAllSources checks them against BFS), and
// the average over all N² pairs is the closed form Σ_d (k_d²−1)/(3k_d) with one PE
// per switch.
func TestMeshDistances(t *testing.T) {
	for _, spec := range []string{"mesh:2", "mesh:7", "mesh:3x5", "mesh:2x3x4", "mesh:256x256", "mesh:5x2x2x3x9x2x2x2"} {
		st := distancesOf(t, spec)
		if st.Sources != 0 {
			t.Errorf("%s: Distances ran %d BFS, want the product (0)", spec, st.Sources)
		}
		want := 0.0
		for _, k := range topology.MustNew(spec).Radices() {
			want += float64(k*k-1) / float64(3*k)
		}
		if math.Abs(st.AvgDistanceInclSelf-want) > 1e-9*want {
			t.Errorf("%s: average incl. self %v, closed form %v", spec, st.AvgDistanceInclSelf, want)
		}
	}
	if _, err := MeshDistances(topology.MustNew("torus:4x4")); err == nil {
		t.Error("MeshDistances took a torus")
	}
}

// BFS on the card graph of every configuration A–J, k = 2..9, against an independent
// brute-force table ([TR] §4 gives the diameter 2k for even k, as here).
func Test3DTDistanceTable(t *testing.T) {
	type avg struct{ excl, incl float64 }
	table := map[int][2]avg{ // k -> SC0, SC1
		2: {{2.133, 2.000}, {2.400, 2.250}},
		3: {{3.075, 3.019}, {3.113, 3.056}},
		4: {{4.126, 4.094}, {4.220, 4.188}},
		5: {{5.169, 5.148}, {5.080, 5.060}},
		6: {{6.218, 6.204}, {6.153, 6.139}},
		7: {{7.260, 7.249}, {7.061, 7.051}},
		8: {{8.305, 8.297}, {8.117, 8.109}},
		9: {{9.349, 9.342}, {9.049, 9.043}},
	}
	for k := 2; k <= 9; k++ {
		for l := byte('A'); l <= 'J'; l++ {
			spec := fmt.Sprintf("twin:%dx%dx%d/%c", k, k, k, l)
			st := distancesOf(t, spec)
			wantD := 2 * k
			if k%2 == 1 {
				wantD = 2*k - 1
			}
			set := 1 // SC1: exactly one split dimension
			c, _ := topology.Letter(l)
			if len(c.Split(3)) == 3 {
				set = 0
			}
			want := table[k][set]
			if st.PEs != 2*k*k*k || st.Diameter != wantD || !near(st.AvgDistance, want.excl, 3) || !near(st.AvgDistanceInclSelf, want.incl, 3) {
				t.Errorf("%s: %d PEs, D = %d, avg %.4f / %.4f; want %d PEs, D = %d, avg %.3f / %.3f",
					spec, st.PEs, st.Diameter, st.AvgDistance, st.AvgDistanceInclSelf, 2*k*k*k, wantD, want.excl, want.incl)
			}
		}
	}
}

// The equivalent 2D tori ([TR] §4, Table 2), against an independent brute-force table.
func TestTorusDistanceTable(t *testing.T) {
	for _, c := range []struct {
		spec       string
		diam       int
		excl, incl float64
	}{
		{"torus:4x4", 4, 2.133, 2.0},
		{"torus:8x8", 8, 4.063, 4.0},
		{"torus:16x8", 12, 6.047, 6.0},
		{"torus:16x16", 16, 8.031, 8.0},
		{"torus:24x18", 21, 10.524, 10.5},
		{"torus:21x21", 20, 10.5, 10.476},
		{"torus:32x32", 32, 16.016, 16.0},
	} {
		st := distancesOf(t, c.spec)
		if st.Diameter != c.diam || !near(st.AvgDistance, c.excl, 3) || !near(st.AvgDistanceInclSelf, c.incl, 3) {
			t.Errorf("%s: D = %d, avg %.4f / %.4f; want %d, %.3f / %.3f", c.spec, st.Diameter, st.AvgDistance, st.AvgDistanceInclSelf, c.diam, c.excl, c.incl)
		}
	}
}

// The thesis introduction averages over all destinations including the source itself
// (as [Th] Ch. 1 does); for even radices that is exactly Σ k_i/4 and the diameter
// Σ ⌊k_i/2⌋.
func TestThesisIntroAverages(t *testing.T) {
	for _, c := range []struct {
		spec string
		avg  float64
		diam int
	}{
		{"torus:8x8", 4, 8},
		{"torus:4x4x4", 3, 6},
		{"torus:32x32", 16, 32},
		{"torus:16x8x8", 8, 16},
		{"torus:4x4x4x4x4", 5, 10},
		{"torus:16x16x8", 10, 20},
		{"torus:16x8x8x8", 10, 20},
	} {
		st := distancesOf(t, c.spec)
		if st.AvgDistanceInclSelf != c.avg || st.Diameter != c.diam {
			t.Errorf("%s: avg incl. self %v, D = %d; want %v, %d", c.spec, st.AvgDistanceInclSelf, st.Diameter, c.avg, c.diam)
		}
	}
}

// Independent closed forms: a ring of k contributes Σ_j min(j, k−j) / k to the average
// including self ((k²−1)/4k odd, k/4 even); a mesh line of k contributes (k²−1)/3k.
// Meshes have no symmetry classes, so this also checks the all-sources fallback.
func TestDistancesClosedForms(t *testing.T) {
	for _, c := range []struct {
		spec  string
		radix []int
		mesh  bool
		pes   int
	}{
		{"torus:5x3x7", []int{5, 3, 7}, false, 1},
		{"torus:6x9@2", []int{6, 9}, false, 2},
		{"mesh:8x8", []int{8, 8}, true, 1},
		{"mesh:5x4x3@2", []int{5, 4, 3}, true, 2},
		{"mesh:2", []int{2}, true, 1},
	} {
		net := topology.MustNew(c.spec)
		if (net.Classes() == nil) != c.mesh {
			t.Fatalf("%s: Classes() = %v", c.spec, net.Classes())
		}
		st := distancesOf(t, c.spec)
		var perSwitch float64 // mean switch distance over ordered switch pairs, self included
		diam := 0
		switches := 1
		for _, k := range c.radix {
			switches *= k
			if c.mesh {
				perSwitch += float64(k*k-1) / float64(3*k)
				diam += k - 1
			} else {
				perSwitch += float64(k*k/4) / float64(k)
				diam += k / 2
			}
		}
		n := float64(switches * c.pes)
		want := perSwitch // every PE pair inherits its switches' distance, so the mean is the same
		if math.Abs(st.AvgDistanceInclSelf-want) > 1e-9 || st.Diameter != diam {
			t.Errorf("%s: avg incl. self %.6f, D = %d; want %.6f, %d", c.spec, st.AvgDistanceInclSelf, st.Diameter, want, diam)
		}
		if got, wantSame := st.Histogram[0], int64(switches*c.pes*(c.pes-1)); got != wantSame {
			t.Errorf("%s: %d pairs of distinct PEs at distance 0, want %d", c.spec, got, wantSame)
		}
		if !near(st.AvgDistance*float64(st.Pairs()), st.AvgDistanceInclSelf*n*n, 6) {
			t.Errorf("%s: the two averages do not share one sum", c.spec)
		}
	}
}

func TestDistancesCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Distances(ctx, topology.MustNew("mesh:6x6"))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: err = %v, want context.Canceled", err)
	}
}

func BenchmarkAvgDistanceTorus100x100x100(b *testing.B) {
	benchDistance(b, "torus:100x100x100")
}

func BenchmarkAvgDistanceTwin32x32x32D(b *testing.B) {
	benchDistance(b, "twin:32x32x32/D")
}

// A mesh and a torus of the same size: the mesh's product over dimensions costs no
// more than the torus's one BFS (a BFS from every switch took 4.4 s at 128x128 and
// about 70 s at 256x256).
func BenchmarkAvgDistanceMesh256x256(b *testing.B)  { benchDistance(b, "mesh:256x256") }
func BenchmarkAvgDistanceTorus256x256(b *testing.B) { benchDistance(b, "torus:256x256") }

func benchDistance(b *testing.B, spec string) {
	start := time.Now()
	net, err := topology.New(spec)
	if err != nil {
		b.Fatal(err)
	}
	build := time.Since(start).Seconds()
	b.ReportAllocs()
	b.ResetTimer()
	var st *DistanceStats
	for b.Loop() {
		if st, err = Distances(context.Background(), net); err != nil {
			b.Fatal(err)
		}
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(sec, "s/op")
	b.ReportMetric(float64(net.Switches())/sec, "switches/s")
	b.ReportMetric(build, "build-s")
	b.ReportMetric(st.AvgDistance, "avg-hops")
}
