package topology

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// WriteAnynet writes a network in BookSim2's anynet format (see ReadAnynet), so that
// BookSim2 (topology = anynet; network_file = ...) simulates the same network with the
// same ids and our reader reads it back as the same network. One line per router:
//
//	router S node T1 node T2 ... router P1 [LATENCY] router P2 [LATENCY] ...
//
// Ids and ports. BookSim2's anynet.cpp takes router and node ids as the file gives
// them (router id = index of the router object, node id = index of its injection and
// ejection channels), so switch S is written as router S and PE T as node T. It
// files a router's nodes and its neighbouring routers in maps ordered by id, so its
// ports are numbered the same whatever the file's order: the router's nodes in
// increasing id, then its neighbours in increasing id. WriteAnynet writes the routers
// in id order, each with all its nodes in increasing id and then all its neighbours
// in increasing id on its own line; our reader numbers a router's ports in the order
// of its own line, so it numbers them exactly as BookSim2 does (the ports' order may
// differ from the original network's; which switch and PE each leads to does not).
//
// Latencies. A router's line gives the latency of each of its outgoing links (a link
// of our network whose latency is its own, Port.Latency; a link of length L without
// one is written with latency L, what it takes with BookSim2's 1-cycle links); other
// links get none, so BookSim2 gives them 1 cycle and our reader the engine's link
// latency. BookSim2 keeps the latency of each direction from the line of the router
// it leaves, since every router lists all its neighbours.
//
// What the format cannot hold is refused: two links between the same two switches
// (BookSim2 files links by neighbour id and would merge them), one-way links and links
// of a switch to itself (a mention makes a link both ways), and terminal links of other
// than one cycle (BookSim2's parser files a latency after a node as a link to the
// router of the node's id). Internal links become ordinary links: BookSim2 has one
// kind. Unconnected ports are left out.
func WriteAnynet(w io.Writer, net *Network) error {
	type line struct {
		nodes []int
		peers [][2]int // neighbour, latency (0: none written)
	}
	lines := make([]line, net.Switches())
	for s := range lines {
		l := &lines[s]
		for p := 0; p < net.Ports(s); p++ {
			port := net.Port(s, p)
			switch {
			case port.Kind == Terminal:
				if port.Latency > 1 {
					return fmt.Errorf("anynet: PE %d's link takes %d cycles; BookSim2's anynet gives a node's links 1 cycle (its parser misfiles a node's latency)", port.Terminal, port.Latency)
				}
				l.nodes = append(l.nodes, int(port.Terminal))
			case port.Peer < 0 && port.From < 0:
			case port.OneWay():
				return fmt.Errorf("anynet: %s of switch %d is a one-way link; BookSim2's anynet makes every link both ways", net.PortName(s, p), s)
			case int(port.Peer) == s:
				return fmt.Errorf("anynet: %s of switch %d links it to itself; BookSim2's anynet has no such link", net.PortName(s, p), s)
			default:
				lat := int(port.Latency)
				if lat == 0 && port.Length > 1 {
					lat = int(port.Length)
				}
				l.peers = append(l.peers, [2]int{int(port.Peer), lat})
			}
		}
		slices.Sort(l.nodes)
		slices.SortFunc(l.peers, func(a, b [2]int) int { return a[0] - b[0] })
		for i := 1; i < len(l.peers); i++ {
			if l.peers[i][0] == l.peers[i-1][0] {
				return fmt.Errorf("anynet: switches %d and %d are joined by more than one link; BookSim2's anynet keeps one link per pair of routers (it files them by the neighbour's id)", s, l.peers[i][0])
			}
		}
	}
	bw := bufio.NewWriter(w)
	buf := make([]byte, 0, 256)
	for s, l := range lines {
		buf = append(buf[:0], "router "...)
		buf = strconv.AppendInt(buf, int64(s), 10)
		for _, t := range l.nodes {
			buf = append(buf, " node "...)
			buf = strconv.AppendInt(buf, int64(t), 10)
		}
		for _, p := range l.peers {
			buf = append(buf, " router "...)
			buf = strconv.AppendInt(buf, int64(p[0]), 10)
			if p[1] != 0 {
				buf = append(buf, ' ')
				buf = strconv.AppendInt(buf, int64(p[1]), 10)
			}
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return fmt.Errorf("anynet: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("anynet: %w", err)
	}
	return nil
}
