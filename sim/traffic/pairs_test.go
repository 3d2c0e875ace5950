package traffic

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

func TestPairs(t *testing.T) {
	net := topology.MustNew("twin:4x2x4/D")
	p, err := ParsePattern("pairs: 9>1, 0>8", net)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "pairs:0>8,9>1" {
		t.Errorf("Name = %q", p.Name())
	}
	if p.Dest(0, nil) != 8 || p.Dest(9, nil) != 1 || p.Dest(1, nil) != -1 {
		t.Error("wrong destinations")
	}
	two, err := ParsePattern("pairs:3>5|7", net)
	if err != nil || two.Name() != "pairs:3>5|7" {
		t.Fatalf("pairs:3>5|7: %v %v", two, err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	count := map[int]int{}
	for i := 0; i < 2000; i++ {
		count[two.Dest(3, rng)]++
	}
	if len(count) != 2 || count[5] < 900 || count[7] < 900 {
		t.Errorf("PE 3 should split its messages evenly between 5 and 7: %v", count)
	}
	if Silent(p) != net.Terminals()-2 {
		t.Errorf("Silent = %d, want %d", Silent(p), net.Terminals()-2)
	}
	for spec, want := range map[string]string{
		"pairs:":        "at least one flow",
		"pairs:1-2":     "bad flow",
		"pairs:1>64":    "outside 0..63",
		"pairs:3>3":     "to itself",
		"pairs:3>4,3>5": "two flows",
		"pairs:3>4|x":   "bad flow",
		"pairs:3>4|3":   "to itself",
	} {
		if _, err := ParsePattern(spec, net); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", spec, err, want)
		}
	}
}
