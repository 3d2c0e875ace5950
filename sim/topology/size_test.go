package topology

import "testing"

// Size, computed from the spec alone, counts what Build makes.
func TestSizeMatchesBuild(t *testing.T) {
	for _, spec := range []string{"torus:16x8", "torus:4x4x4@2", "mesh:5x3", "twin:4x4x4/D", "twin:5x3/cbest", "twin:4x4x2x4x4/cbest",
		"twisted:rtt:4", "twisted:pdtt:3", "twisted:pt:2", "toroid:5", "toroid:1", "tct:3,4", "tct:5,2", "tct:1,3", "tcc:3,3", "tofu:2"} {
		s := MustParse(spec)
		net, err := Build(s)
		if err != nil {
			t.Fatal(err)
		}
		z, known := s.Size()
		if !known {
			t.Fatalf("%s: size unknown before building", spec)
		}
		if built := net.Size(); built.Switches != z.Switches || built.Terminals != z.Terminals || built.Ports() != z.Ports() ||
			built.External != z.External || built.Internal != z.Internal || built.TerminalPorts != z.TerminalPorts {
			t.Errorf("%s: counted from the spec %+v, from the network %+v", spec, z, built)
		}
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

// A file's network has no size before it is read; once built, it is counted.
func TestSizeOfFileUnknownUntilBuilt(t *testing.T) {
	if _, known := (Spec{Family: FamilyFile, Path: "x.json"}).Size(); known {
		t.Error("a file spec claims a size before the file is read")
	}
}
