package traffic

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/sim/topology"
)

// groupShift sends every message of a PE in group i to a PE of group i + K (mod G):
// one drawn uniformly per message, the dragonfly paper's adversarial pattern, in which
// every node of group i sends to a random node of group i + 1 ([DF] §4), or with /same
// the PE of the same index in that group (a permutation). It needs a network that
// declares groups of switches (topology.Network.Groups: the dragonfly's); a PE's group
// is its switch's.
type groupShift struct {
	name    string
	same    bool
	group   []int32   // PE -> its group
	index   []int32   // PE -> its index among its group's PEs
	members [][]int32 // group -> its PEs, in id order
	k       int
}

// groupShiftAccepted is what a groupshift spec may say, for error messages.
const groupShiftAccepted = "accepted: groupshift[:K][/same], K from 1 to G-1 groups (default 1), /same for the PE of the same index instead of a random one"

func newGroupShift(arg string, hasArg bool, net *topology.Network) (Pattern, error) {
	g := net.Groups()
	if g < 2 {
		return nil, fmt.Errorf("groupshift sends from group to group, and network %s declares %d groups of switches (dragonflies do)", net, g)
	}
	kText, mode, hasMode := strings.Cut(arg, "/")
	p := &groupShift{k: 1}
	if hasMode {
		if m := strings.ToLower(strings.TrimSpace(mode)); m != "same" {
			return nil, fmt.Errorf("groupshift: %q after '/'; %s", mode, groupShiftAccepted)
		}
		p.same = true
	}
	if hasArg && strings.TrimSpace(kText) != "" {
		k, err := strconv.Atoi(strings.TrimSpace(kText))
		if err != nil || k < 1 || k >= g {
			return nil, fmt.Errorf("groupshift: shift %q on %d groups; %s", kText, g, groupShiftAccepted)
		}
		p.k = k
	}
	n := net.Terminals()
	p.group, p.index, p.members = make([]int32, n), make([]int32, n), make([][]int32, g)
	for t := range n {
		grp := net.Group(int(net.Attachment(t).Switch))
		p.group[t], p.index[t] = int32(grp), int32(len(p.members[grp]))
		p.members[grp] = append(p.members[grp], int32(t))
	}
	for grp, m := range p.members {
		if len(m) == 0 || p.same && len(m) != len(p.members[0]) {
			return nil, fmt.Errorf("groupshift on %s: group %d has %d PEs, group 0 %d; the pattern needs PEs in every group (as many in each for /same)", net, grp, len(m), len(p.members[0]))
		}
	}
	p.name = "groupshift"
	if p.k != 1 {
		p.name += ":" + strconv.Itoa(p.k)
	}
	if p.same {
		p.name += "/same"
	}
	return p, nil
}

func (p *groupShift) Name() string   { return p.name }
func (p *groupShift) String() string { return p.name }

func (p *groupShift) Dest(src int, rng *rand.Rand) int {
	m := p.members[(int(p.group[src])+p.k)%len(p.members)]
	if p.same {
		return int(m[p.index[src]])
	}
	return int(m[rng.IntN(len(m))])
}
