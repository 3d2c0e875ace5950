package netdraw

import (
	"math"
	"strconv"

	"github.com/twintorus/twintorus/plots"
	"github.com/twintorus/twintorus/sim/topology"
)

// layGroups lays out a network that declares groups of switches (a dragonfly's), as
// the dragonfly paper draws one: each group's switches on a small circle, the groups
// on a large circle around the middle, so that a group's local links stay inside its
// circle and the global links cross the middle between groups. Switch ids within a
// group go round its circle in order; group g sits at angle 2πg/G, group 0 at the top; the
// groups are named, every one of up to twelve, else every few.
func layGroups(net *topology.Network) *Layout {
	l := newLayout(net, "groups")
	groups := net.Groups()
	members := make([][]int, groups)
	for s := 0; s < net.Switches(); s++ {
		g := net.Group(s)
		members[g] = append(members[g], s)
	}
	largest := 0
	for _, m := range members {
		largest = max(largest, len(m))
	}
	// Neighbouring switches of a group one unit apart; neighbouring groups further
	// apart at their closest than a group is across (its diameter, plus one), so that
	// the eye sees groups.
	inner := max(0.5, float64(largest)/(2*math.Pi))
	outer := 2*inner + 1
	if groups > 1 {
		outer = max(outer, (4*inner+1)/(2*math.Sin(math.Pi/float64(groups))))
	}
	// Names for at most a dozen groups round the circle (every step-th), so that
	// neighbouring names never run into each other.
	step := (groups + 11) / 12
	for g, m := range members {
		a := math.Pi/2 - 2*math.Pi*float64(g)/float64(groups)
		cx, cy := outer*math.Cos(a), outer*math.Sin(a)
		for i, s := range m {
			// The group's first switch faces the middle, the rest follow round.
			b := a + math.Pi - 2*math.Pi*float64(i)/float64(len(m))
			l.Pos[s] = plots.Pos{X: cx + inner*math.Cos(b), Y: cy + inner*math.Sin(b)}
		}
		if g%step == 0 {
			off := inner + 0.8
			l.Notes = append(l.Notes, plots.NetworkNote{X: cx + off*math.Cos(a), Y: cy + off*math.Sin(a), Text: "group " + strconv.Itoa(g)})
		}
	}
	if largest > 12 {
		l.Radius = 0.08
	}
	l.straightPaths()
	return l
}
