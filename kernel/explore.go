package kernel

import (
	"encoding/base64"
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/twintorus/twintorus/plots"
)

// Control is one control of Explore: a drop-down of Choices or, with Slider, a slider
// over them (its positions are the choices, in order: loads 0.05, 0.10, …).
type Control struct {
	Name    string
	Choices []string
	Slider  bool
	// Value is the index of the choice shown first.
	Value int
}

// View is what Explore shows for one pick of every control: a network drawn with its
// loads, a plot (the latency curve so far; may be nil) and a line of text under them.
type View struct {
	Network plots.NetworkPlot
	Plot    Plot
	Caption string
}

// Explore shows controls (sliders, drop-downs: gonb's widgets) and what view draws for
// their picks, and draws it again whenever the reader moves one: view gets the index of
// every control's choice, in the order of controls. It is meant for a short simulation
// per pick (well under a second): the cell keeps running while the controls live, so
// it ends when the reader presses "done" or leaves them alone for ExploreIdle, and then
// leaves the last drawing in the notebook as a static picture.
//
// Where the controls cannot work (the notebook is run without a browser, as by
// nbconvert, or opened without running the cell) the cell shows the drawing of the
// first picks as static PNGs, with a line saying to run the cell for the controls.
// Outside a notebook view runs once and nothing is shown. An error from view, or bad
// controls, fails the cell (Explore panics).
func Explore(controls []Control, view func(picks []int) (View, error)) {
	Default().Explore(controls, view)
}

// ExploreIdle is how long Explore's controls live without a move.
const ExploreIdle = 5 * time.Minute

// exploreWait is how long Explore waits for the browser to build its controls. gonb
// gives up opening its connection to the browser after 3 s (its
// WaitForConnectionTimeout), so waiting longer would not help.
const exploreWait = 5 * time.Second

// Front is where Explore's controls live: gonb's widgets in the browser. Tests use a
// fake in its place.
type Front interface {
	// Controls builds cs in the output block named id and returns the reader's moves
	// and a channel closed when the reader is done. It fails when the browser does not
	// answer within wait: there is no browser, or no connection to it.
	Controls(id string, cs []Control, wait time.Duration) (moves <-chan Move, done <-chan struct{}, err error)
}

// Move is the reader's move of one control: its index in Explore's controls and the
// index of the choice it now shows.
type Move struct{ Control, Pick int }

// Explore is the package function Explore on this screen.
func (s *Screen) Explore(controls []Control, view func(picks []int) (View, error)) {
	if err := checkControls(controls); err != nil {
		panic(fmt.Errorf("kernel.Explore: %w", err))
	}
	picks := make([]int, len(controls))
	for i, c := range controls {
		picks[i] = c.Value
	}
	draw := func() (networkPNG, plotPNG []byte, caption string) {
		v, err := view(append([]int(nil), picks...))
		if err == nil {
			networkPNG, err = s.networkPNG(v.Network)
		}
		if err == nil && v.Plot != nil {
			plotPNG, err = s.staticPNG(v.Plot)
		}
		if err != nil {
			panic(fmt.Errorf("kernel.Explore: %s: %w", pickText(controls, picks), err))
		}
		return networkPNG, plotPNG, v.Caption
	}
	net, plot, caption := draw()
	if s.Notebook == nil {
		return
	}
	id := exploreID(net)
	static := func(note string) {
		s.Notebook.DisplayPNG(net)
		if plot != nil {
			s.Notebook.DisplayPNG(plot)
		}
		s.Notebook.DisplayHTML(fmt.Sprintf(`<p class="twintorus-explore-note">%s<br>%s</p>`, html.EscapeString(caption), html.EscapeString(note)))
	}
	if s.Front == nil {
		static(exploreRunNote)
		return
	}
	moves, done, err := s.Front.Controls(id+"-controls", controls, exploreWait)
	if err != nil {
		s.Notebook.UpdateHTML(id+"-controls", "")
		static(exploreRunNote)
		return
	}
	s.Notebook.UpdateHTML(id+"-view", ExploreHTML(id, net, plot, caption))
	idle := time.NewTimer(ExploreIdle)
	defer idle.Stop()
	why := "done"
loop:
	for {
		select {
		case m := <-moves:
			changed := s.apply(controls, picks, m)
			for more := true; more; { // take every move already made: draw the last picks only
				select {
				case m := <-moves:
					changed = s.apply(controls, picks, m) || changed
				default:
					more = false
				}
			}
			if changed {
				net, plot, caption = draw()
				s.Notebook.UpdateHTML(id+"-view", ExploreHTML(id, net, plot, caption))
			}
			idle.Reset(ExploreIdle)
		case <-done:
			break loop
		case <-idle.C:
			why = fmt.Sprintf("left alone for %v", ExploreIdle)
			break loop
		}
	}
	s.Notebook.UpdateHTML(id+"-controls", "")
	s.Notebook.UpdateHTML(id+"-view", "")
	static(fmt.Sprintf("The controls have closed (%s) at %s: run the cell again to explore further.", why, pickText(controls, picks)))
}

// exploreRunNote is the line under Explore's static picture where its controls cannot
// work.
const exploreRunNote = "A static picture: run this cell in Jupyter (the notebook trusted, the kernel running) for the controls."

// apply applies m to picks and reports whether it changed them; a move out of range
// (a browser that sent something odd) is ignored.
func (s *Screen) apply(controls []Control, picks []int, m Move) bool {
	if m.Control < 0 || m.Control >= len(controls) || m.Pick < 0 || m.Pick >= len(controls[m.Control].Choices) || picks[m.Control] == m.Pick {
		return false
	}
	picks[m.Control] = m.Pick
	return true
}

func checkControls(controls []Control) error {
	if len(controls) == 0 {
		return fmt.Errorf("no controls: give at least one slider or drop-down")
	}
	for i, c := range controls {
		if len(c.Choices) == 0 {
			return fmt.Errorf("control %d (%q) has no choices", i, c.Name)
		}
		if c.Value < 0 || c.Value >= len(c.Choices) {
			return fmt.Errorf("control %d (%q) starts at choice %d; it has choices 0 to %d", i, c.Name, c.Value, len(c.Choices)-1)
		}
	}
	return nil
}

// pickText names the picks, e.g. "load 0.30, configuration D".
func pickText(controls []Control, picks []int) string {
	parts := make([]string, len(controls))
	for i, c := range controls {
		parts[i] = c.Name + " " + c.Choices[picks[i]]
	}
	return strings.Join(parts, ", ")
}

// exploreID names an Explore's output blocks and elements after its first drawing, so
// the same cell run twice makes the same HTML.
func exploreID(png []byte) string {
	var h uint64 = 14695981039346656037
	for _, b := range png {
		h = (h ^ uint64(b)) * 1099511628211
	}
	return fmt.Sprintf("ttexplore%016x", h)
}

// ExploreHTML is the live view of Explore: the network drawing and the plot side by
// side (wrapping on a narrow page), the caption under them. The images carry the
// classes twintorus-explore-network and twintorus-explore-plot, by which the live
// notebook test finds them.
func ExploreHTML(id string, network, plot []byte, caption string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<div id="%s-view" class="twintorus-explore"><div style="display:flex;flex-wrap:wrap;align-items:flex-start">`, html.EscapeString(id))
	fmt.Fprintf(&b, `<img class="twintorus-explore-network" alt="network" src="data:image/png;base64,%s">`, base64.StdEncoding.EncodeToString(network))
	if plot != nil {
		fmt.Fprintf(&b, `<img class="twintorus-explore-plot" alt="plot" src="data:image/png;base64,%s">`, base64.StdEncoding.EncodeToString(plot))
	}
	fmt.Fprintf(&b, `</div><p class="twintorus-explore-caption">%s</p></div>`, html.EscapeString(caption))
	return b.String()
}
