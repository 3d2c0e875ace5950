package routing

import (
	"slices"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

func mustSelection(t testing.TB, net *topology.Network, spec string, seed uint64) Selector {
	t.Helper()
	s, err := ParseSelection(spec)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := s.New(net, seed)
	if err != nil {
		t.Fatal(err)
	}
	return sel
}

// opt is an option on port p's VC vc with occ flits of 256 occupied.
func opt(p, vc int, occ int, room bool) Option {
	return Option{Candidate: Candidate{Port: int16(p), VC: int8(vc)}, Credits: 256 - occ, Capacity: 256, Room: room, Available: room}
}

func escOpt(p, vc int, room bool) Option {
	o := opt(p, vc, 0, room)
	o.Escape = true
	return o
}

// The selection functions on one switch of twin:4x4x4 (Card0 of CBest: x+ 0, x- 1,
// y+ 2, int 3): priority levels, low before high, round-robin from the last choice,
// the escape when nothing is available.
func TestSelectionFunctions(t *testing.T) {
	net := topology.MustNew("twin:4x4x4")
	x, y, in := 0, 2, 3
	if net.PortName(0, x) != "x+" || net.PortName(0, y) != "y+" || net.PortName(0, in) != "int" {
		t.Fatal("port layout changed")
	}
	all := []Option{opt(x, 2, 0, true), opt(x, 3, 0, true), opt(y, 2, 0, true), opt(y, 3, 0, true), opt(in, 4, 0, true), opt(in, 5, 0, true), escOpt(x, 0, true)}
	seq := func(spec string, opts []Option, n int) []int {
		sel := mustSelection(t, net, spec, 1)
		var out []int
		for i := 0; i < n; i++ {
			out = append(out, sel.Select(0, 4, opts))
		}
		return out
	}
	same := slices.Equal[[]int]
	for _, c := range []struct {
		spec string
		opts []Option
		want []int
	}{
		// Round-robin over every adaptive VC, internal link included, in channel order.
		{"rr", all, []int{0, 1, 2, 3, 4, 5, 0}},
		{"ref", all, []int{0, 1, 2, 3, 4, 5, 0}},
		{"nointernal", all, []int{0, 1, 2, 3, 0}},
		{"2prio", all, []int{0, 1, 2, 3, 0}},
		{"3prio", all, []int{0, 1, 0, 1}},
		{"first", all, []int{0, 0, 0}},
		// x+ full (no room): 3prio falls to y+, 2prio keeps y+ (no internal), nointernal too.
		{"3prio", []Option{opt(x, 2, 256, false), opt(y, 2, 0, true), opt(in, 4, 0, true), escOpt(x, 0, true)}, []int{1, 1}},
		// only the internal link is available: 2prio takes it, nointernal takes the escape.
		{"2prio", []Option{opt(x, 2, 256, false), opt(in, 4, 0, true), opt(in, 5, 0, true), escOpt(in, 0, true)}, []int{1, 2, 1}},
		{"nointernal", []Option{opt(x, 2, 256, false), opt(in, 4, 0, true), escOpt(in, 0, true)}, []int{2, 2}},
		// Low VCs first: x+ vc2 is half full (high at the 0.5 threshold).
		{"rr", []Option{opt(x, 2, 128, true), opt(x, 3, 127, true), opt(y, 2, 10, true), escOpt(x, 0, true)}, []int{1, 2, 1, 2}},
		{"rr:threshold=0.6", []Option{opt(x, 2, 128, true), opt(x, 3, 127, true), opt(y, 2, 10, true), escOpt(x, 0, true)}, []int{0, 1, 2, 0}},
		{"rr:threshold=0", []Option{opt(x, 2, 255, true), opt(y, 2, 0, true), escOpt(x, 0, true)}, []int{0, 1, 0}},
		// every adaptive VC high: round-robin among them.
		{"3prio", []Option{opt(x, 2, 200, true), opt(x, 3, 250, true), opt(y, 2, 0, true), escOpt(x, 0, true)}, []int{0, 1, 0}},
		// nothing available: the escape, even when it has no room (the head waits on it).
		{"3prio", []Option{opt(x, 2, 256, false), opt(in, 4, 256, false), escOpt(in, 0, false)}, []int{2}},
		{"random", []Option{opt(x, 2, 256, false), escOpt(x, 0, true)}, []int{1}},
		{"first", []Option{opt(x, 2, 256, false), escOpt(x, 0, false)}, []int{-1}},
	} {
		if got := seq(c.spec, c.opts, len(c.want)); !same(got, c.want) {
			t.Errorf("%s: picks %v, want %v", c.spec, got, c.want)
		}
	}
	// The round-robin pointer is per input port by default, per switch on request.
	perInput := mustSelection(t, net, "rr", 1)
	perSwitch := mustSelection(t, net, "rr:pointer=switch", 1)
	var a, b []int
	for i := 0; i < 4; i++ {
		a = append(a, perInput.Select(0, 4+i%2, all))
		b = append(b, perSwitch.Select(0, 4+i%2, all))
	}
	if !same(a, []int{0, 0, 1, 1}) || !same(b, []int{0, 1, 2, 3}) {
		t.Errorf("pointer scope: per input %v, per switch %v", a, b)
	}
	// Random is uniform over the available adaptive VCs and the same for the same seed.
	r1, r2 := mustSelection(t, net, "random", 9), mustSelection(t, net, "random", 9)
	count := make([]int, len(all))
	for i := 0; i < 6000; i++ {
		k := r1.Select(0, 4, all)
		if k2 := r2.Select(0, 4, all); k2 != k {
			t.Fatal("random: same seed, different choices")
		}
		count[k]++
	}
	for i, n := range count[:6] {
		if n < 850 || n > 1150 { // 1000 expected, sd 29
			t.Errorf("random: VC %d taken %d times of 6000", i, n)
		}
	}
	if count[6] != 0 {
		t.Error("random took the escape with adaptive VCs available")
	}
}

// Selection specs: canonical form, defaults dropped, one-line errors.
func TestParseSelection(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"", "", ""},
		{"3PRIO", "3prio", ""},
		{" rr : threshold=0.5 , pointer=input ", "rr", ""},
		{"rr:threshold=50%", "rr", ""},
		{"ref:reselect=once,threshold=0.25,pointer=switch", "ref:pointer=switch,reselect=once,threshold=0.25", ""},
		{"2prio:threshold=0", "2prio:threshold=0", ""},
		{"nointernal:reselect=cycle", "nointernal", ""},
		{"fastest", "", `unknown selection function "fastest": accepted are ref, rr`},
		{"rr:threshold=2", "", "occupancy share from 0 to 1"},
		{"rr:threshold=nan", "", "occupancy share from 0 to 1"},
		{"rr:pointer=output", "", "accepted are threshold=T"},
		{":once", "", "has options but no name"},
	} {
		s, err := ParseSelection(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%q: %v, want an error with %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || s.String() != c.want {
			t.Errorf("%q: %q %v, want %q", c.in, s.String(), err, c.want)
			continue
		}
		if back, err := ParseSelection(s.String()); err != nil || back != s {
			t.Errorf("%q: %+v does not read back (%+v, %v)", c.in, s, back, err)
		}
	}
}

func FuzzParseSelection(f *testing.F) {
	for _, s := range []string{"", "rr", "3prio:threshold=0.25", "ref:pointer=switch,reselect=once", "2prio:threshold=50%", "x:y", "rr:threshold=1e400", ":", "rr:,,"} {
		f.Add(s)
	}
	net := topology.MustNew("twin:2x2x2")
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := ParseSelection(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: multi-line error %q", s, err)
			}
			return
		}
		back, err := ParseSelection(sel.String())
		if err != nil || back != sel {
			t.Fatalf("%q: canonical %q reads back as %+v, %v", s, sel.String(), back, err)
		}
		if sel.Name != "" {
			if _, err := sel.New(net, 1); err != nil {
				t.Fatalf("%q: %v", s, err)
			}
		}
	})
}

func FuzzParseDuatoOptions(f *testing.F) {
	for _, s := range []string{"", "return", "vcs=1", "vcs=2/4,sticky", "vcs=/", "vcs=99", "return,,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseDuatoOptions(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: multi-line error", s)
			}
			return
		}
		if back, err := ParseDuatoOptions(o.arg()); err != nil || back != o {
			t.Fatalf("%q: %+v reads back as %+v, %v", s, o, back, err)
		}
	})
}
