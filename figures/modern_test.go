package figures

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

// The comparison's networks are the sizes the notebook says, each quick stand-in is the
// same family at about 100 PEs, and the structure table's counts and diameters are the
// families' closed forms: switches 2∏k (twin torus), ∏k (torus), n·k^(n−1) (k-ary
// n-tree), a·(a·h+1) (balanced dragonfly, a = 2h), ∏S (HyperX), 2q² (Slim Fly);
// diameters in switch-to-switch hops Σ⌊k/2⌋ for a torus, 2(n−1) for a k-ary n-tree,
// 3 for a dragonfly, the dimensions for a HyperX, 2 for a Slim Fly.
func TestModernNetworks(t *testing.T) {
	want := map[string]struct{ pes, switches, diameter int }{
		"torus:16x8x8": {1024, 1024, 16}, "ktree:4,5": {1024, 5 * 256, 8}, "dragonfly:4": {1056, 8 * 33, 3},
		"hyperx:8x8x4@4": {1024, 256, 3}, "slimfly:9": {1134, 2 * 81, 2},
		"torus:32x32x16": {16384, 16384, 40}, "ktree:4,7": {16384, 7 * 4096, 12}, "dragonfly:8": {16512, 16 * 129, 3},
		"hyperx:16x16x16@4": {16384, 4096, 3}, "slimfly:23": {19044, 2 * 529, 2},
		"twin:8x8x8": {1024, 1024, -1}, "twin:4x4x4x4x2": {1024, 1024, -1}, "twin:32x16x16": {16384, 16384, -1}, "twin:8x8x8x4x4": {16384, 16384, -1},
	}
	tab, err := ModernStructure(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(tab.Rows), len(want))
	}
	for _, row := range tab.Rows {
		w, ok := want[row[1]]
		if !ok {
			t.Errorf("unexpected network %s", row[1])
			continue
		}
		got := func(col int) int { n, _ := strconv.Atoi(row[col]); return n }
		if got(2) != w.pes || got(3) != w.switches || (w.diameter >= 0 && got(5) != w.diameter) {
			t.Errorf("%s: %s PEs, %s switches, diameter %s; want %d, %d, %d", row[1], row[2], row[3], row[5], w.pes, w.switches, w.diameter)
		}
		if cost, _ := strconv.ParseFloat(row[8], 64); cost <= 0 {
			t.Errorf("%s costs %s M$", row[1], row[8])
		}
	}
	for _, scale := range []string{"1k", "16k"} {
		nets, _ := ModernNetworks(scale)
		for _, n := range nets {
			pes, err := PEs(n.Quick)
			family := func(spec string) string { f, _, _ := strings.Cut(spec, ":"); return f }
			if err != nil || pes < 64 || pes > 160 || family(n.Quick) != family(n.Spec) {
				t.Errorf("%s's quick stand-in %s: %d PEs, %v", n.Spec, n.Quick, pes, err)
			}
			named := strings.HasPrefix(n.Spec, "twin:") || strings.HasPrefix(n.Spec, "torus:") || strings.HasPrefix(n.Spec, "ktree:")
			if named && ModernName(n.Spec) != n.Name {
				t.Errorf("ModernName(%s) = %q, the table says %q", n.Spec, ModernName(n.Spec), n.Name)
			}
		}
	}
	if _, err := ModernNetworks("4k"); err == nil || !strings.Contains(err.Error(), "1k and 16k") {
		t.Errorf("scale 4k: %v", err)
	}
}
