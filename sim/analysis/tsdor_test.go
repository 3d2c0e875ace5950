package analysis

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// The hop table (claim R4 of docs/references.md: a brute-force count, not the
// paper's): average switch-to-switch hops over ordered pairs of distinct PEs, and
// internal-link hops per packet, for TSDOR and DORT on the nDT tori of the papers, and
// the mD torus of the same PEs.
var hopTable = []struct {
	md            string
	mdHops        float64
	twin          string
	tsdor, tsdorI float64
	dort, dortI   float64
}{
	{"torus:8x8x4", 5.020, "twin:4x4x2x2x2", 4.439, 0.925, 4.867, 1.353},
	{"torus:8x8x8", 6.012, "twin:4x4x2x4x2", 4.963, 0.955, 5.419, 1.411},
	{"torus:16x8x8", 8.008, "twin:4x4x2x4x4", 5.474, 0.970, 5.944, 1.440},
	{"torus:16x16x8", 10.005, "twin:4x4x4x4x4", 6.472, 1.469, 6.941, 1.939},
	{"torus:8x8", 4.063, "twin:4x2x4", 3.429, 0.889, 3.825, 1.286},
	{"torus:16x8", 6.047, "twin:4x4x4", 4.409, 1.386, 4.795, 1.772},
	{"torus:16x16", 8.031, "twin:8x4x4", 5.427, 1.412, 5.839, 1.824},
}

func near3(got, want float64) bool { return math.Abs(got-want) <= 0.0005 }

// TSDOR's and DORT's average hops and internal-link hops per packet reproduce the hop
// table to its three decimals, and so do the mD tori's average distances.
func TestTSDORHopTable(t *testing.T) {
	ctx := context.Background()
	for _, row := range hopTable {
		net := topology.MustNew(row.twin)
		ts, err := Load(ctx, routing.NewTSDOR(net, routing.TiePlus))
		if err != nil {
			t.Fatal(err)
		}
		if !ts.Symmetric {
			t.Errorf("%s: TSDOR's load was not computed by translation", row.twin)
		}
		dt, err := Load(ctx, routing.NewDOR(net, routing.TiePlus))
		if err != nil {
			t.Fatal(err)
		}
		md, err := Load(ctx, routing.NewDOR(topology.MustNew(row.md), routing.TiePlus))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			what      string
			got, want float64
		}{
			{"TSDOR hops", ts.AvgHops, row.tsdor}, {"TSDOR internal hops", ts.AvgInternalHops, row.tsdorI},
			{"DORT hops", dt.AvgHops, row.dort}, {"DORT internal hops", dt.AvgInternalHops, row.dortI},
			{row.md + " hops", md.AvgHops, row.mdHops},
		} {
			if !near3(c.got, c.want) {
				t.Errorf("%s: %s %.4f, the hop table gives %.3f", row.twin, c.what, c.got, c.want)
			}
		}
		// TSDOR's saving over DORT is all on the internal link (both are minimal outside).
		if !near3(ts.AvgExternalHops, dt.AvgExternalHops) {
			t.Errorf("%s: external hops TSDOR %.4f, DORT %.4f", row.twin, ts.AvgExternalHops, dt.AvgExternalHops)
		}
	}
}

// In the paper's own orientation of the 5DT node (d2- on Card0, footnote 6) TSDOR's
// hops are the same (its split-dimension tie follows the source card), while DORT with
// ties sent + is the worse configuration an independent brute-force count gives (4.5
// external + 2.376 internal = 6.876 links).
func TestTSDORPaperOrientation(t *testing.T) {
	ctx := context.Background()
	net := topology.MustNew("twin:4x4x2x4x4/d0+,d0-,d1+,d1-,d2-")
	ts, err := Load(ctx, routing.NewTSDOR(net, routing.TiePlus))
	if err != nil {
		t.Fatal(err)
	}
	if !near3(ts.AvgHops, 5.474) || !near3(ts.AvgInternalHops, 0.970) {
		t.Errorf("TSDOR in the paper's orientation: %.4f hops, %.4f internal; want 5.474, 0.970", ts.AvgHops, ts.AvgInternalHops)
	}
	dt, err := Load(ctx, routing.NewDOR(net, routing.TiePlus))
	if err != nil {
		t.Fatal(err)
	}
	// That count averages over N² pairs, self included: rescale ours (N·(N−1) pairs).
	n := float64(net.Terminals())
	ext, in := dt.AvgExternalHops*(n-1)/n, dt.AvgInternalHops*(n-1)/n
	if math.Abs(ext-4.5) > 0.0005 || math.Abs(in-2.376) > 0.0005 {
		t.Errorf("DORT, d2- on Card0, ties +: %.4f external + %.4f internal per pair (self included), want 4.5 + 2.376", ext, in)
	}
}

// Translation symmetry (Load) gives exactly what routing every pair gives.
func TestTSDORLoadSymmetry(t *testing.T) {
	ctx := context.Background()
	for _, spec := range []string{"twin:4x2x4", "twin:3x4x5", "twin:4x4x2x2x2", "twin:2x4x2x3"} {
		rt := routing.NewTSDOR(topology.MustNew(spec), routing.TiePlus)
		sym, err := Load(ctx, rt)
		if err != nil {
			t.Fatal(err)
		}
		all, err := LoadAllPairs(ctx, rt)
		if err != nil {
			t.Fatal(err)
		}
		if !sym.Symmetric || sym.AvgHops != all.AvgHops || sym.AvgInternalHops != all.AvgInternalHops ||
			sym.MaxRoutes != all.MaxRoutes || sym.MaxInternal != all.MaxInternal || sym.MaxHops != all.MaxHops {
			t.Errorf("%s: by symmetry %+v, every pair %+v", spec, *sym, *all)
		}
	}
}

// tsdorShapes are the twin tori the CDG check covers: n = 3 with every radix 2–8 in
// every dimension, n = 5 with each radix 2–8 in each dimension (the others 2), and the
// EXTOLL paper's three 5DT tori.
func tsdorShapes(short bool) []string {
	var out []string
	for k := 2; k <= 8; k++ {
		out = append(out, fmt.Sprintf("twin:%dx%dx%d", k, k, k))
		if short && k > 4 {
			continue
		}
		for i := 0; i < 5; i++ {
			r := []string{"2", "2", "2", "2", "2"}
			r[i] = fmt.Sprint(k)
			out = append(out, "twin:"+strings.Join(r, "x"))
		}
	}
	out = append(out, "twin:3x2x5", "twin:4x4x2x2x2", "twin:4x4x2x4x2", "twin:3x3x3x3x3", "twin:4x4x3x4x4")
	if !short {
		out = append(out, "twin:4x4x2x4x4")
	}
	return out
}

// TSDOR's channel dependency graph is acyclic ([EXT] §3.2), in both orientations of the
// split dimension and with ties sent either way in the other dimensions.
func TestTSDORAcyclic(t *testing.T) {
	for _, spec := range tsdorShapes(testing.Short()) {
		s := topology.MustParse(spec)
		mirror := topology.CBest(s.Radix)
		if len(s.Radix)%2 == 1 { // the other orientation of the split dimension
			m := len(s.Radix) / 2
			mirror ^= topology.PortBit(m, +1) | topology.PortBit(m, -1)
		}
		for _, net := range []*topology.Network{topology.MustNew(spec), mustTwin(t, s.Radix, mirror)} {
			ties := []routing.Tie{routing.TiePlus}
			if net.Terminals() <= 512 { // the other tie too, where it is cheap
				ties = append(ties, routing.TieMinus)
			}
			for _, tie := range ties {
				rep, err := CheckCDG(net, routing.NewTSDOR(net, tie), nil)
				if err != nil {
					t.Fatal(err)
				}
				if !rep.Acyclic {
					t.Errorf("%s, tie %d: TSDOR's CDG has a cycle: %v", net, tie, rep.Cycle)
				}
			}
		}
	}
}

func mustTwin(t *testing.T, radix []int, c topology.Config) *topology.Network {
	t.Helper()
	net, err := topology.Twin(radix, c)
	if err != nil {
		t.Fatal(err)
	}
	return net
}

// oneClass is TSDOR with both PEs' packets in one traffic class: the two dimension
// orders then share channels.
type oneClass struct{ *routing.TSDOR }

func (o oneClass) VCs(k topology.PortKind) int { return min(o.TSDOR.VCs(k), 2) }
func (o oneClass) Route(s, in, inVC int, h routing.Head, out []routing.Candidate) []routing.Candidate {
	out = o.TSDOR.Route(s, in, inVC, h, out)
	out[len(out)-1].VC %= 2
	return out
}

// The classes are needed: without them the ascending and descending orders close
// cycles (and the check can fail).
func TestTSDORNeedsItsClasses(t *testing.T) {
	net := topology.MustNew("twin:4x4x4")
	rep, err := CheckCDG(net, oneClass{routing.NewTSDOR(net, routing.TiePlus)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Acyclic {
		t.Errorf("TSDOR in one traffic class is acyclic on %s; the paper needs two", net)
	}
}

// paperLiteral is TSDOR with the paper's internal-link rule taken literally in any
// configuration: a crossing that is not part of the split ring is upper from Card0 and
// lower from Card1.
type paperLiteral struct{ *routing.TSDOR }

func (l paperLiteral) Route(s, in, inVC int, h routing.Head, out []routing.Candidate) []routing.Candidate {
	out = l.TSDOR.Route(s, in, inVC, h, out)
	c := &out[len(out)-1]
	net := l.Network()
	if net.Port(s, int(c.Port)).Kind != topology.Internal {
		return out
	}
	next := net.Port(s^1, int(l.Next(s^1, int(h.Src), int(h.Dst)).Port))
	if split := net.Config().Split(net.Dims()); next.Kind == topology.External && len(split) == 1 && int(next.Dim) == split[0] {
		return out // part of the split ring
	}
	c.VC = c.VC/2*2 + int8(1-net.Card(s)) // upper (1) from Card0, lower (0) from Card1
	return out
}

// The paper's rule is what TSDOR does in the paper's orientation (d_mid- on Card0),
// and taken literally in the mirror orientation (d_mid+ on Card0, our CBest for even
// k) it closes cycles: hence TSDOR's mirror image there.
func TestTSDORInternalRuleOrientation(t *testing.T) {
	for _, c := range []struct {
		spec    string
		acyclic bool
	}{
		{"twin:4x4x4/x+,x-,y-", true}, {"twin:4x4x2x4x4/d0+,d0-,d1+,d1-,d2-", true}, {"twin:5x5x5/cbest", true},
		{"twin:4x4x4/cbest", false}, {"twin:2x2x4x2x2/cbest", false}, {"twin:5x5x5/x+,x-,y+", false},
		{"twin:4x4x4x4", true}, // n even: no split dimension, the paper's rule is TSDOR's
	} {
		net := topology.MustNew(c.spec)
		rt := routing.NewTSDOR(net, routing.TiePlus)
		lit, err := CheckCDG(net, paperLiteral{rt}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if lit.Acyclic != c.acyclic {
			t.Errorf("%s: the paper's literal rule acyclic = %v, want %v", c.spec, lit.Acyclic, c.acyclic)
		}
		ours, err := CheckCDG(net, rt, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !ours.Acyclic {
			t.Errorf("%s: TSDOR's CDG has a cycle: %v", c.spec, ours.Cycle)
		}
		if c.acyclic && ours.Dependencies != lit.Dependencies {
			t.Errorf("%s: TSDOR differs from the paper's rule where the paper's applies (%d against %d dependencies)", c.spec, ours.Dependencies, lit.Dependencies)
		}
	}
}
