package kernel

import (
	"bytes"
	"image/png"
	"math"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/plots"
)

// A ring of four switches with loads on its channels, frame by frame.
func ringFrames(n int) []plots.NetworkPlot {
	var out []plots.NetworkPlot
	for f := 0; f < n; f++ {
		p := plots.NetworkPlot{Options: plots.Options{Title: "ring"}, Unit: "load (flits/cycle)", Max: 1}
		for i := 0; i < 4; i++ {
			a := float64(i) * math.Pi / 2
			p.Nodes = append(p.Nodes, plots.NetworkNode{X: math.Cos(a), Y: math.Sin(a)})
		}
		for i := 0; i < 4; i++ {
			a, b := p.Nodes[i], p.Nodes[(i+1)%4]
			p.Channels = append(p.Channels,
				plots.NetworkChannel{Path: []plots.Pos{{X: a.X, Y: a.Y}, {X: b.X, Y: b.Y}}, Value: float64(f) / float64(n)},
				plots.NetworkChannel{Path: []plots.Pos{{X: b.X, Y: b.Y}, {X: a.X, Y: a.Y}}, Value: 0})
		}
		out = append(out, p)
	}
	return out
}

func TestShowNetwork(t *testing.T) {
	rec := &recorder{}
	s := &Screen{Notebook: rec, Status: &bytes.Buffer{}}
	s.ShowNetwork(ringFrames(1)[0], nil)
	if rec.pngs != 1 {
		t.Fatalf("%d PNGs shown, want 1", rec.pngs)
	}
	s.ShowNetworkFrames(ringFrames(3), nil)
	if len(rec.charts) != 1 {
		t.Fatalf("%d frame displays, want 1", len(rec.charts))
	}
	c := rec.charts[0]
	if n := strings.Count(c.html, "<img "); n != 3 {
		t.Errorf("%d frames in the HTML, want 3", n)
	}
	if strings.Count(c.html, `style="display:none"`) != 2 || !strings.Contains(c.html, `type="range"`) || !strings.Contains(c.html, "<script>") {
		t.Errorf("frames HTML lacks the hidden frames, the slider or its script:\n%.300s", c.html)
	}
	img, err := png.DecodeConfig(bytes.NewReader(c.png))
	if err != nil || img.Width != int(NetworkWidth*4/3) {
		t.Errorf("fallback PNG: %v, %d pixels wide; want %d", err, img.Width, int(NetworkWidth*4/3))
	}
	if FramesHTML([][]byte{c.png}) != FramesHTML([][]byte{c.png}) {
		t.Error("the same frames gave different HTML")
	}
	// Outside a notebook nothing is drawn, and errors still fail.
	(&Screen{}).ShowNetwork(plots.NetworkPlot{}, nil)
	for _, f := range []func(){
		func() { s.ShowNetwork(plots.NetworkPlot{}, nil) },
		func() { s.ShowNetworkFrames(nil, nil) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(error).Error(), "kernel.ShowNetwork") {
					t.Errorf("recovered %v, want a kernel.ShowNetwork error", r)
				}
			}()
			f()
		}()
	}
}
