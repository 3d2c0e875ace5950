package routing

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/internal/splitmix"
	"github.com/twintorus/twintorus/sim/topology"
)

func newNCA(t *testing.T, spec string) *NCA {
	t.Helper()
	rt, err := New("nca", topology.MustNew(spec), SchemeNone, TieDefault)
	if err != nil {
		t.Fatal(err)
	}
	return rt.(*NCA)
}

// Every route of every pair, under several salts, is minimal: as many links between
// switches as the shortest path a breadth-first search finds, and that is 2·s for the
// nearest common ancestor's stage s (the lowest s at which source and destination
// agree on every digit above digit s, computed here from the PE ids). It climbs
// stage by stage, then descends, never up after down, and ends at the destination.
func TestNCAMinimal(t *testing.T) {
	for _, spec := range []string{"ktree:4,3", "ktree:2,4"} {
		r := newNCA(t, spec)
		net := r.Network()
		k := r.l.K
		bfs, err := NewMinimal(net, false)
		if err != nil {
			t.Fatal(err)
		}
		var buf []Step
		for src := 0; src < net.Terminals(); src++ {
			for dst := 0; dst < net.Terminals(); dst++ {
				anc := 0
				for a, b := src/k, dst/k; a != b; a, b = a/k, b/k {
					anc++
				}
				for i := range uint64(8) {
					salt := uint32(splitmix.Hash(uint64(src*net.Terminals()+dst)<<8 | i))
					buf = r.PathSalted(src, dst, salt, buf[:0])
					last := buf[len(buf)-1]
					if at := net.Attachment(dst); last.Switch != int(at.Switch) || last.Port != int(at.Port) {
						t.Fatalf("%s: %d -> %d (salt %d) ends at switch %d port %d", spec, src, dst, salt, last.Switch, last.Port)
					}
					links := len(buf) - 1
					if links != 2*anc || links != bfs.Distance(int(net.Attachment(src).Switch), dst) {
						t.Fatalf("%s: %d -> %d (salt %d): %d links, ancestor at stage %d, shortest %d", spec, src, dst, salt, links, anc, bfs.Distance(int(net.Attachment(src).Switch), dst))
					}
					for h, st := range buf {
						stage, _, _ := r.l.Locate(st.Switch)
						want := h
						if h > anc {
							want = 2*anc - h
						}
						if stage != want {
							t.Fatalf("%s: %d -> %d (salt %d): hop %d at stage %d, want %d (up to %d, then down)", spec, src, dst, salt, h, stage, want, anc)
						}
					}
				}
			}
		}
	}
}

// The up ports spread evenly over salts: from PE 0 to the last PE of ktree:4,3 (whose
// nearest common ancestors are the top stage), 64,000 consecutive salts reach each of
// the 16 top switches (a pair of up ports, stages 0 and 1) and take each of the 4 up
// ports at each stage within 10 % of an even share. And a salt always draws the same
// route, in another instance of the routing too.
func TestNCASpread(t *testing.T) {
	r, r2 := newNCA(t, "ktree:4,3"), newNCA(t, "ktree:4,3")
	net := r.Network()
	const n = 64000
	top := map[int]int{}
	var up [2][4]int
	var buf, buf2 []Step
	for salt := range uint32(n) {
		buf = r.PathSalted(0, net.Terminals()-1, salt, buf[:0])
		buf2 = r2.PathSalted(0, net.Terminals()-1, salt, buf2[:0])
		if !slices.Equal(buf, buf2) || !slices.Equal(buf, r.PathSalted(0, net.Terminals()-1, salt, nil)) {
			t.Fatalf("salt %d: routes %v and %v differ", salt, buf, buf2)
		}
		if len(buf) != 5 {
			t.Fatalf("salt %d: %d hops, want 5", salt, len(buf))
		}
		top[buf[2].Switch]++
		for s := range 2 {
			up[s][buf[s].Port-r.l.K]++
		}
	}
	check := func(what string, count, want int) {
		if d := count - want; d > want/10 || -d > want/10 {
			t.Errorf("%s: %d of %d salts, want %d ± 10 %%", what, count, n, want)
		}
	}
	if len(top) != 16 {
		t.Errorf("reached %d top switches, want 16", len(top))
	}
	for sw, c := range top {
		check(fmt.Sprintf("top switch %d", sw), c, n/16)
	}
	for s := range up {
		for j, c := range up[s] {
			check(fmt.Sprintf("stage %d up port %d", s, j), c, n/4)
		}
	}
}

// nca routes trees of single switches under no deadlock scheme, and says what else to
// use otherwise.
func TestNCAFits(t *testing.T) {
	for _, c := range []struct{ spec, scheme, want string }{
		{"torus:4x4", "none", "k-ary n-trees"},
		{"ktree:4,3/cswitch", "none", "destro"},
		{"ktree:4,3", "escape", "accepted is none"},
	} {
		sc, _ := ParseScheme(c.scheme)
		_, err := New("nca", topology.MustNew(c.spec), sc, TieDefault)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("nca on %s under %s: %v, want an error naming %q", c.spec, c.scheme, err, c.want)
		}
	}
	r := newNCA(t, "ktree:4,2")
	if !r.Salted() || !r.OneCandidatePerHop() || !r.DeadlockFree() || r.VCs(topology.External) != 1 || Selects(r) {
		t.Error("nca: want salted, one candidate per hop, deadlock-free, one VC, no selection")
	}
}
