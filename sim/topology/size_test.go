package topology

import "testing"

// Size, computed from the spec alone, counts what Build makes.
func TestSizeMatchesBuild(t *testing.T) {
	for _, spec := range []string{"torus:16x8", "torus:4x4x4@2", "mesh:5x3", "twin:4x4x4/D", "twin:5x3/cbest", "twin:4x4x2x4x4/cbest"} {
		s := MustParse(spec)
		net, err := Build(s)
		if err != nil {
			t.Fatal(err)
		}
		z := s.Size()
		counts := map[PortKind]int64{}
		for g := 0; g < net.TotalPorts(); g++ {
			sw := 0
			for net.PortID(sw+1, 0) <= g {
				sw++
			}
			counts[net.Port(sw, g-net.PortID(sw, 0)).Kind]++
		}
		if z.Switches != int64(net.Switches()) || z.Terminals != int64(net.Terminals()) || z.Ports() != int64(net.TotalPorts()) ||
			z.External != counts[External] || z.Internal != counts[Internal] || z.TerminalPorts != counts[Terminal] {
			t.Errorf("%s: size %+v; the network has %d switches, %d terminals, ports %v", spec, z, net.Switches(), net.Terminals(), counts)
		}
		if z.Bytes <= 0 {
			t.Errorf("%s: %d bytes", spec, z.Bytes)
		}
	}
}
