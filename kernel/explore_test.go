package kernel

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/twintorus/twintorus/plots"
)

// fakeFront plays a reader: it sends its moves once the controls are built, then
// presses done. With fail it is a front end without a browser.
type fakeFront struct {
	moves []Move
	fail  bool
	built []Control
}

func (f *fakeFront) Controls(id string, cs []Control, wait time.Duration) (<-chan Move, <-chan struct{}, error) {
	if f.fail {
		return nil, nil, errors.New("no browser")
	}
	f.built = cs
	moves := make(chan Move, len(f.moves))
	for _, m := range f.moves {
		moves <- m
	}
	done := make(chan struct{})
	go func() {
		for len(moves) > 0 { // the moves are taken before done
			time.Sleep(time.Millisecond)
		}
		time.Sleep(20 * time.Millisecond)
		close(done)
	}()
	return moves, done, nil
}

// ringView draws the ring with its first channel at the load the first control picks,
// and records the picks it was asked for.
func ringView(asked *[][]int) func([]int) (View, error) {
	return func(picks []int) (View, error) {
		*asked = append(*asked, picks)
		p := ringFrames(1)[0]
		p.Channels[0].Value = float64(picks[0]) / 4
		curve := plots.LinePlot{Series: []plots.Series{{Name: "latency", Points: []plots.Point{{X: 0.1, Y: 20}, {X: float64(picks[0]+1) / 5, Y: 30}}}}}
		return View{Network: p, Plot: curve, Caption: fmt.Sprint("picks ", picks)}, nil
	}
}

var exploreControls = []Control{{Name: "load", Choices: []string{"0.25", "0.50", "0.75", "1.00"}, Slider: true}, {Name: "routing", Choices: []string{"dor", "adaptive"}, Value: 1}}

func TestExploreRedrawsOnMoves(t *testing.T) {
	rec := &recorder{}
	var asked [][]int
	front := &fakeFront{moves: []Move{{0, 2}, {0, 2}, {1, 0}, {5, 1}, {0, 9}}}
	s := &Screen{Notebook: rec, Front: front, Status: &bytes.Buffer{}}
	s.Explore(exploreControls, ringView(&asked))
	if len(front.built) != 2 {
		t.Fatalf("%d controls built, want 2", len(front.built))
	}
	// The first drawing, then one for the moves that changed something: they were all
	// waiting, so they are drawn together; the repeated and out-of-range ones are not.
	if fmt.Sprint(asked) != "[[0 1] [2 0]]" {
		t.Errorf("view asked for %v, want [[0 1] [2 0]]", asked)
	}
	var views []string
	for _, u := range rec.updates {
		if strings.HasSuffix(u.id, "-view") {
			views = append(views, u.html)
		}
	}
	if len(views) != 3 || !strings.Contains(views[0], "picks [0 1]") || !strings.Contains(views[1], "picks [2 0]") || views[2] != "" {
		t.Fatalf("view updates %d (want the first drawing, the redrawing, and its removal): %.200q", len(views), views)
	}
	for _, v := range views[:2] {
		if strings.Count(v, `class="twintorus-explore-network"`) != 1 || strings.Count(v, `class="twintorus-explore-plot"`) != 1 {
			t.Errorf("a view lacks its network or its plot: %.300s", v)
		}
	}
	if views[0] == views[1] {
		t.Error("the redrawing is the first drawing")
	}
	// When done, the last drawing stays as static PNGs with a line saying so.
	if rec.pngs != 2 || len(rec.html) != 1 || !strings.Contains(rec.html[0], "picks [2 0]") || !strings.Contains(rec.html[0], "load 0.75, routing dor") {
		t.Errorf("after done: %d PNGs, HTML %q; want the network and the plot, and the last picks named", rec.pngs, rec.html)
	}
}

func TestExploreWithoutBrowserIsStatic(t *testing.T) {
	for _, front := range []Front{nil, &fakeFront{fail: true}} {
		rec := &recorder{}
		var asked [][]int
		(&Screen{Notebook: rec, Front: front}).Explore(exploreControls, ringView(&asked))
		if len(asked) != 1 || rec.pngs != 2 || len(rec.html) != 1 || !strings.Contains(rec.html[0], exploreRunNote) {
			t.Errorf("front %v: view asked %v, %d PNGs, HTML %q; want one drawing shown static with the note to run the cell", front, asked, rec.pngs, rec.html)
		}
		for _, u := range rec.updates {
			if u.html != "" {
				t.Errorf("front %v: a live block is left showing: %.100q", front, u.html)
			}
		}
	}
	// Outside a notebook, view runs once and nothing shows.
	var asked [][]int
	(&Screen{}).Explore(exploreControls, ringView(&asked))
	if len(asked) != 1 {
		t.Errorf("outside a notebook view ran %d times, want 1", len(asked))
	}
}

func TestExploreBadInputFails(t *testing.T) {
	var asked [][]int
	for _, c := range []struct {
		controls []Control
		view     func([]int) (View, error)
		want     string
	}{
		{nil, ringView(&asked), "no controls"},
		{[]Control{{Name: "load"}}, ringView(&asked), `control 0 ("load") has no choices`},
		{[]Control{{Name: "load", Choices: []string{"a"}, Value: 1}}, ringView(&asked), "starts at choice 1; it has choices 0 to 0"},
		{exploreControls, func([]int) (View, error) { return View{}, errors.New("boom") }, "kernel.Explore: load 0.25, routing adaptive: boom"},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), c.want) {
					t.Errorf("panic %v, want one saying %q", r, c.want)
				}
			}()
			(&Screen{Notebook: &recorder{}}).Explore(c.controls, c.view)
		}()
	}
}
