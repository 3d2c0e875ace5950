package analysis

import (
	"fmt"
	"strings"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// Hop is one hop of a followed route: the switch left, the port taken and the switch
// reached, with the candidate's VC and whether it was an escape channel.
type Hop struct {
	From, Port, To int
	Name           string // the port's name, e.g. "x+", "int"
	VC             int
	Escape         bool
}

// Follow walks a packet from PE src to PE dst under routing rt, taking at each hop the
// port named next in ports ("x+", "int", ...; an adaptive candidate, or the escape when
// the name ends in "!"), and once ports run out the first candidate the routing offers
// (adaptive before escape). It returns the hops to the destination PE's switch, or an
// error naming the switch where a named port is not offered. The papers' worked
// examples (paper (b) Examples 3.3-3.5) are routes of this kind.
func Follow(net *topology.Network, rt routing.Func, src, dst int, ports ...string) ([]Hop, error) {
	at := net.Attachment(src)
	s, in, vc := int(at.Switch), int(at.Port), 0
	escaped := false
	var hops []Hop
	for step := 0; ; step++ {
		if step > 4*net.Switches() {
			return hops, fmt.Errorf("the route from PE %d to PE %d does not arrive", src, dst)
		}
		cands := rt.Route(s, in, vc, routing.Head{Src: int32(src), Dst: int32(dst), Escaped: escaped}, nil)
		if len(cands) == 0 {
			return hops, fmt.Errorf("switch %d offers no port", s)
		}
		pick := cands[0]
		if step < len(ports) {
			want, esc := strings.CutSuffix(ports[step], "!")
			found := false
			for _, c := range cands {
				if net.PortName(s, int(c.Port)) == want && c.Escape == esc {
					pick, found = c, true
					break
				}
			}
			if !found {
				return hops, fmt.Errorf("%s is not offered at switch %d (hop %d)", ports[step], s, step+1)
			}
		}
		port := net.Port(s, int(pick.Port))
		if port.Kind == topology.Terminal {
			if int(port.Terminal) != dst {
				return hops, fmt.Errorf("switch %d delivers to PE %d, not %d", s, port.Terminal, dst)
			}
			return hops, nil
		}
		escaped = escaped || pick.Escape
		hops = append(hops, Hop{From: s, Port: int(pick.Port), To: int(port.Peer), Name: net.PortName(s, int(pick.Port)), VC: int(pick.VC), Escape: pick.Escape})
		s, in, vc = int(port.Peer), int(port.PeerPort), int(pick.VC)
	}
}
