package nb_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/twintorus/twintorus/nb"
	"github.com/twintorus/twintorus/plots"
)

// Explore's views: the 4×4×4 twin torus drawn with every channel (512, and its 128
// PEs' links are not drawn), a curve that grows by one point per load run, and a
// short run: below saturation accepted traffic follows the offered load.
func TestExplorerView(t *testing.T) {
	e := nb.NewExplorer()
	cs := e.Controls()
	if len(cs) != 4 || len(cs[0].Choices) != 20 || cs[0].Choices[cs[0].Value] != "0.30" || cs[1].Choices[cs[1].Value] != "D" {
		t.Fatalf("controls %+v: want load (20, from 0.30), configuration (from D), routing, traffic", cs)
	}
	start := time.Now()
	v, err := e.View([]int{1, 3, 0, 0}) // 0.10, D, dort, uniform
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("one view took %v; Explore's runs are meant to take well under a second", d)
	}
	var accepted float64
	_, err = fmt.Sscanf(v.Caption, "twin:4x4x4/D, dort, uniform at offered 0.10: accepted %f", &accepted)
	if len(v.Network.Channels) != 512 || v.Network.Max != 1 || err != nil || math.Abs(accepted-0.1) > 0.01 {
		t.Errorf("view: %d channels, scale top %v, caption %q (%v); want 512, 1 and about 0.1 accepted", len(v.Network.Channels), v.Network.Max, v.Caption, err)
	}
	v, err = e.View([]int{5, 3, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	curve := v.Plot.(plots.LinePlot)
	if len(curve.Series) != 1 || len(curve.Series[0].Points) != 3 || curve.Series[0].Points[0].X != 0.1 || curve.Series[0].Points[1].X != 0.2 || curve.Series[0].Points[2].X != 0.3 {
		t.Fatalf("curve after loads 0.10 (and 0.20 with it) and 0.30: %+v", curve.Series)
	}
	if lat := curve.Series[0].Points; !(lat[0].Y > 10 && lat[1].Y > lat[0].Y && lat[2].Y > lat[1].Y && !lat[2].Hollow) {
		t.Errorf("latencies %v: want a few tens of cycles, growing with the load, none saturated", lat)
	}
	// Another configuration starts its own curve, with 0.10 and 0.20.
	v, _ = e.View([]int{5, 0, 1, 3})
	if pts := v.Plot.(plots.LinePlot).Series[0].Points; len(pts) != 3 || !strings.Contains(v.Caption, "twin:4x4x4/A, adaptive, hotspot:0.05@5%") {
		t.Errorf("A, adaptive, hot spot: %d points, caption %q", len(pts), v.Caption)
	}
	if _, err := e.View([]int{20, 0, 0, 0}); err == nil {
		t.Error("load index 20 of 20 accepted")
	}
}
