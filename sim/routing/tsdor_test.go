package routing

import (
	"fmt"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

// tsdorHops lists the ports of the TSDOR route from src to dst with their VCs, as
// "port/vc" names, ending at the NIC.
func tsdorHops(net *topology.Network, src, dst int) []string {
	r := NewTSDOR(net, TiePlus)
	s := int(net.Attachment(src).Switch)
	var out []string
	for len(out) < 64 {
		c := r.Next(s, src, dst)
		port := net.Port(s, int(c.Port))
		if port.Kind == topology.Terminal {
			return append(out, "nic")
		}
		out = append(out, fmt.Sprintf("%s/%d", port.Name(net.Dims()), c.VC))
		s = int(port.Peer)
	}
	return out
}

// PE0's packets travel x, y, z in that order and PE1's z, y, x, each in its own
// traffic class (VCs 0-1 and 2-3), upper when the destination digit is greater.
func TestTSDORDimensionOrders(t *testing.T) {
	net := topology.MustNew("twin:5x5x5/x+,x-,y-") // the paper's orientation: Card0 x±, y-
	src0, src1 := pe(net, 0, 0, 0, 0), pe(net, 1, 0, 0, 0)
	for _, c := range []struct {
		src, dst int
		want     string
	}{
		// x+ twice, then y- (on Card0; 4 > 0: upper; it lands on Card1), z+ on Card1.
		{src0, pe(net, 1, 2, 4, 1), "x+/1 x+/1 y-/1 z+/1 nic"},
		// PE1 from Card1: z first; y- is on Card0: cross as part of y's ring (upper:
		// 3 > 0), y-, arrive on Card1, cross again (lower now: 3 < 4), y-; then x on
		// Card0: a crossing for another dimension, Card1 to Card0: lower.
		{src1, pe(net, 0, 2, 3, 1), "z+/3 int/3 y-/3 int/2 y-/2 int/2 x+/3 x+/3 nic"},
		// To the other PE of the node: one crossing, upper from Card0, lower from Card1.
		{src0, pe(net, 1, 0, 0, 0), "int/1 nic"},
		{src1, pe(net, 0, 0, 0, 0), "int/2 nic"},
	} {
		if got := strings.Join(tsdorHops(net, c.src, c.dst), " "); got != c.want {
			t.Errorf("PE %d -> PE %d: %s, want %s", c.src, c.dst, got, c.want)
		}
	}
}

// The tie rule of Fig. 4 (3DT, two nodes in Y): a PE0 packet that goes on in Z takes
// Y through its own card's port and reaches Card1 of the other node in one hop, where
// the other port would cost three (internal, Y, internal); a PE1 packet mirrors it.
func TestTSDORSplitTie(t *testing.T) {
	for _, spec := range []string{"twin:2x2x2/x+,x-,y-", "twin:2x2x2/cbest"} { // both orientations
		net := topology.MustNew(spec)
		a := strings.Join(tsdorHops(net, pe(net, 0, 0, 0, 0), pe(net, 1, 0, 1, 1)), " ")
		b := strings.Join(tsdorHops(net, pe(net, 1, 0, 0, 0), pe(net, 0, 1, 1, 1)), " ")
		if n := strings.Count(a, " "); n != 2 || !strings.HasPrefix(a, "y") {
			t.Errorf("%s: PE0 -> PE1 of <0,1,1>: %s, want y on Card0, then z: 2 hops", spec, a)
		}
		if hops := strings.Fields(b); len(hops) != 4 || hops[0][0] != 'z' || hops[1][0] != 'y' || hops[2][0] != 'x' {
			t.Errorf("%s: PE1 -> PE0 of <1,1,1>: %s, want z, y on Card1, x: 3 hops", spec, b)
		}
	}
}

func TestTSDORFits(t *testing.T) {
	for _, c := range []struct {
		spec, err string
	}{
		{"twin:4x4x2x4x4", ""}, {"twin:4x4x2x4x4/d0+,d0-,d1+,d1-,d2-", ""}, {"twin:4x4x4", ""}, {"twin:4x4x4x4", ""},
		{"twin:2x2x2x2x2", ""},
		{"torus:4x4x4", "use dor"},
		{"twin:4x4x4/A", "needs cbest"},
		{"twin:4x4x4/y+,y-,x+", "needs cbest"},    // Card0 holds the higher dimension
		{"twin:4x4x4x4/d0+,d1+,d2+,d3+", "cbest"}, // every dimension split
	} {
		_, err := New("tsdor", topology.MustNew(c.spec), SchemeVC, TiePlus)
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s: %v, want %q", c.spec, err, c.err)
		}
	}
	_, err := New("tsdor", topology.MustNew("twin:4x4x4"), SchemeBubble, TiePlus)
	if err == nil || !strings.Contains(err.Error(), "--deadlock vc") {
		t.Errorf("tsdor under bubble: %v, want a refusal naming vc", err)
	}
	def, _, ok := LookupRouting("TSDOR")
	if !ok || def.Scheme != SchemeVC || def.Auto {
		t.Errorf("tsdor in the table: %+v", def)
	}
	rt := NewTSDOR(topology.MustNew("twin:4x4x4"), TiePlus)
	if rt.VCs(topology.External) != 4 || rt.VCs(topology.Internal) != 4 || rt.VCs(topology.Terminal) != 1 || !rt.DeadlockFree() {
		t.Errorf("tsdor VCs %d/%d/%d", rt.VCs(topology.External), rt.VCs(topology.Internal), rt.VCs(topology.Terminal))
	}
}

// TSDOR's routes are minimal outside the node (as DORT's): its external hops between
// every pair equal the torus distance between the nodes.
func TestTSDORMinimal(t *testing.T) {
	for _, spec := range []string{"twin:4x4x2x2x2", "twin:3x4x5", "twin:4x2x4"} {
		net := topology.MustNew(spec)
		r := NewTSDOR(net, TiePlus)
		var buf []Step
		for src := 0; src < net.Terminals(); src++ {
			for dst := 0; dst < net.Terminals(); dst++ {
				buf = r.Path(src, dst, buf[:0])
				ext := 0
				for _, st := range buf {
					if net.Port(st.Switch, st.Port).Kind == topology.External {
						ext++
					}
				}
				a, b := net.Node(int(net.Attachment(src).Switch)), net.Node(int(net.Attachment(dst).Switch))
				want := 0
				for d := 0; d < net.Dims(); d++ {
					k, x := net.Radix(d), (net.Digit(b, d)-net.Digit(a, d)+net.Radix(d))%net.Radix(d)
					want += min(x, k-x)
				}
				if ext != want {
					t.Fatalf("%s: PE %d -> %d takes %d external hops, the nodes are %d apart", spec, src, dst, ext, want)
				}
			}
		}
	}
}

// TSDOR is deterministic: no selection axis (a spec's curves carry no selection, as
// DORT's do not) and no adaptive hop share.
func TestTSDORSelectsNothing(t *testing.T) {
	if Selects(NewTSDOR(topology.MustNew("twin:4x4x2x2x2"), TiePlus)) {
		t.Error("TSDOR is taken as a routing with a selection function")
	}
	ad, err := New("adaptive", topology.MustNew("twin:4x4x4"), SchemeVC, TiePlus)
	if err != nil {
		t.Fatal(err)
	}
	if !Selects(ad) {
		t.Error("adaptive routing is not taken as one with a selection function")
	}
}
