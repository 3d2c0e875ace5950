package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
)

// bookSimRouter is the router the booksim mapping builds for BookSim2's defaults
// (docs/booksim.md, "BookSim2's router, cycle by cycle"): every option that models it on.
func bookSimRouter(p Params) Params {
	p.Switching = Wormhole
	p.External, p.Terminal, p.Internal = Buffer{4, 8}, Buffer{4, 8}, Buffer{4, 8}
	p.RoutingDelay, p.SwitchAfterVC, p.CrossbarDelay, p.FrontDelay = 1, 1, 1, 2
	p.ClassVCs, p.KeepRingClass, p.VCISLIP, p.SwitchISLIP = true, true, true, true
	p.EjectVCs = 4
	p.LinkLatency, p.TerminalLatency = 3, 2
	return p
}

// The invariants (flit and credit conservation, one holder per output VC, live
// packets) hold every cycle under BookSim2's router options, past saturation too,
// and the run delivers without deadlock.
func TestBookSimRouterInvariants(t *testing.T) {
	for _, c := range []struct {
		spec   string
		scheme routing.Scheme
		load   float64
	}{
		{"torus:4x4", routing.SchemeVC, 0.5},
		{"torus:4x4", routing.SchemeVC, 1.0},
		{"mesh:4x3@2", routing.SchemeNone, 0.9},
	} {
		p := bookSimRouter(params(c.load, 200, 1800, 7))
		if c.scheme != routing.SchemeVC {
			p.KeepRingClass = false
		}
		e := newRun(t, c.spec, c.scheme, "uniform", p)
		label := fmt.Sprintf("%s at %g", c.spec, c.load)
		stepChecked(t, e, 2000, label)
		if e.m.ejectAll == 0 {
			t.Fatalf("%s: nothing delivered", label)
		}
	}
}

// Every BookSim2 router option refuses what it cannot model, saying what it needs.
func TestBookSimRouterValidation(t *testing.T) {
	base := bookSimRouter(params(0.1, 100, 100, 1))
	for _, c := range []struct {
		set  func(*Params)
		want string
	}{
		{func(p *Params) {
			p.Switching = CutThrough
			p.ClassVCs, p.KeepRingClass, p.VCISLIP = false, false, false
			p.FrontDelay = 0
		}, "need wormhole switching"},
		{func(p *Params) { p.ClassVCs = false }, "need class_vcs"},
		{func(p *Params) { p.SwitchAfterVC = -1 }, "accepted are 0 to 1000 cycles"},
		{func(p *Params) { p.CrossbarDelay = 1001 }, "accepted are 0 to 1000 cycles"},
		{func(p *Params) { p.EjectVCs = MaxVCs + 1 }, "eject_vcs"},
	} {
		p := base
		c.set(&p)
		q := p.withDefaults()
		err := q.validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want an error containing %q", err, c.want)
		}
	}
	if q := base.withDefaults(); q.validate() != nil {
		t.Errorf("BookSim2's router: %v", q.validate())
	}
}
