package kernel

import (
	"encoding/base64"
	"fmt"
	"hash/fnv"
	"html"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/twintorus/twintorus/plots"
)

// NetworkWidth is the width network drawings are shown at, in points (800 pixels):
// their height follows the drawing's proportions (plots.NetworkPlot.Size).
const NetworkWidth vg.Length = 600

// ShowNetwork shows a drawing of a network (package netdraw makes them from a network
// and its loads) as a PNG NetworkWidth wide, as tall as its proportions ask:
//
//	kernel.ShowNetwork(netdraw.Draw(net, netdraw.Options{Loads: loads}))
//
// err is the error of the call that made p; a non-nil err, or a p that cannot be
// drawn, fails the cell (ShowNetwork panics). Outside a notebook it draws nothing.
func ShowNetwork(p plots.NetworkPlot, err error) { Default().ShowNetwork(p, err) }

// ShowNetworkFrames shows drawings of one network over time (netdraw's Layout.Frames
// of a run's channel utilisation) one at a time, with a slider to move between them
// and a button that plays them: congestion spreading from a hot spot can be watched.
// Where the notebook runs no scripts (not trusted, exported), the first frame shows.
// err is as for ShowNetwork.
func ShowNetworkFrames(ps []plots.NetworkPlot, err error) { Default().ShowNetworkFrames(ps, err) }

// ShowNetwork is the package function ShowNetwork on this screen.
func (s *Screen) ShowNetwork(p plots.NetworkPlot, err error) {
	s.showPNG("ShowNetwork", err, func() ([]byte, error) { return s.networkPNG(p) })
}

// ShowNetworkFrames is the package function ShowNetworkFrames on this screen.
func (s *Screen) ShowNetworkFrames(ps []plots.NetworkPlot, err error) {
	if err == nil && len(ps) == 0 {
		err = fmt.Errorf("no frames")
	}
	if err != nil {
		panic(fmt.Errorf("kernel.ShowNetworkFrames: %w", err))
	}
	if s.Notebook == nil {
		return
	}
	pngs := make([][]byte, len(ps))
	for i, p := range ps {
		png, err := s.networkPNG(p)
		if err != nil {
			panic(fmt.Errorf("kernel.ShowNetworkFrames: frame %d: %w", i, err))
		}
		pngs[i] = png
	}
	s.Notebook.DisplayChart(FramesHTML(pngs), pngs[0])
}

// networkPNG draws p at its natural size and reports its layout problems as
// staticPNG does.
func (s *Screen) networkPNG(p plots.NetworkPlot) ([]byte, error) {
	f, err := p.Figure()
	if err != nil {
		return nil, err
	}
	w, h := p.Size(NetworkWidth)
	return s.figurePNG(f, w, h)
}

// FramesHTML is the HTML ShowNetworkFrames shows: the PNGs stacked, all but the first
// hidden, a slider and a play button that a small script wires to them. Without
// scripts it shows the first frame. Its element ids derive from the images, so the
// same frames give the same HTML.
func FramesHTML(pngs [][]byte) string {
	h := fnv.New64a()
	for _, p := range pngs {
		_, _ = h.Write(p)
	}
	id := fmt.Sprintf("ttframes%016x", h.Sum64())
	var b strings.Builder
	fmt.Fprintf(&b, `<div id="%s">`, id)
	for i, p := range pngs {
		style := ""
		if i > 0 {
			style = ` style="display:none"`
		}
		fmt.Fprintf(&b, `<img class="frame"%s alt="frame %d" src="data:image/png;base64,%s">`, style, i, base64.StdEncoding.EncodeToString(p))
	}
	fmt.Fprintf(&b, `<div><button type="button" class="play">play</button> <input type="range" class="pick" min="0" max="%d" value="0" style="width:60%%"> <span class="which">frame 1 of %d</span></div></div>`,
		len(pngs)-1, len(pngs))
	fmt.Fprintf(&b, `<script>(function(){var r=document.getElementById(%q);if(!r)return;`+
		`var f=r.querySelectorAll("img.frame"),s=r.querySelector("input.pick"),w=r.querySelector("span.which"),p=r.querySelector("button.play"),t=null;`+
		`function show(i){for(var j=0;j<f.length;j++)f[j].style.display=j==i?"":"none";s.value=i;w.textContent="frame "+(+i+1)+" of "+f.length;}`+
		`s.oninput=function(){show(+s.value);};`+
		`p.onclick=function(){if(t){clearInterval(t);t=null;p.textContent="play";return;}p.textContent="stop";`+
		`t=setInterval(function(){var i=+s.value+1;if(i>=f.length){clearInterval(t);t=null;p.textContent="play";return;}show(i);},600);};})();</script>`, html.EscapeString(id))
	return b.String()
}
