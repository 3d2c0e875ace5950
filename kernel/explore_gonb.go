package kernel

import (
	"errors"
	"fmt"
	"html"
	"time"

	"github.com/janpfeifer/gonb/gonbui/dom"
	"github.com/janpfeifer/gonb/gonbui/protocol"
	"github.com/janpfeifer/gonb/gonbui/widgets"
)

// gonbFront builds Explore's controls with gonb's widgets (gonbui/widgets): each is an
// HTML element whose script sends its value to the cell program over gonb's connection
// to the browser (a websocket gonb opens from a script it shows). Building a widget
// waits for the browser's first value, so where no browser runs the scripts (nbconvert,
// a front end without gonb's connection) it never returns: Controls waits at most
// wait, and the widgets left half built are dropped with the program.
type gonbFront struct{}

// Controls implements Front.
func (gonbFront) Controls(id string, cs []Control, wait time.Duration) (<-chan Move, <-chan struct{}, error) {
	display(map[protocol.MIMEType]any{protocol.MIMETextHTML: fmt.Sprintf(
		`<div id="%s" class="twintorus-explore-controls" style="display:flex;flex-wrap:wrap;gap:0.3em 1.2em;align-items:center"></div>`, html.EscapeString(id))}, id)
	type built struct {
		moves []<-chan int
		done  <-chan int
	}
	ready := make(chan built, 1)
	go func() {
		var b built
		for i, c := range cs {
			el := fmt.Sprintf("%s-%d", id, i)
			if c.Slider {
				dom.Append(id, fmt.Sprintf(`<label for="%s">%s</label>`, el, html.EscapeString(c.Name)))
				s := widgets.Slider(0, len(c.Choices)-1, c.Value).WithHtmlId(el).AppendTo(id).Done()
				dom.Append(id, fmt.Sprintf(`<span id="%s-value" class="twintorus-explore-value">%s</span>`, el, html.EscapeString(c.Choices[c.Value])))
				b.moves = append(b.moves, s.Listen().LatestOnly().C)
				continue
			}
			dom.Append(id, fmt.Sprintf(`<label for="%s">%s</label>`, el, html.EscapeString(c.Name)))
			s := widgets.Select(c.Choices).SetDefault(c.Value).WithHtmlId(el).AppendTo(id).Done()
			b.moves = append(b.moves, s.Listen().C)
		}
		b.done = widgets.Button("done").WithHtmlId(id + "-done").AppendTo(id).Done().Listen().C
		ready <- b
	}()
	var b built
	select {
	case b = <-ready:
	case <-time.After(wait):
		return nil, nil, errors.New("the browser did not build the controls: no browser runs this notebook's scripts, or gonb has no connection to it")
	}
	moves := make(chan Move, len(cs))
	for i, ch := range b.moves {
		go func() {
			for v := range ch {
				if cs[i].Slider && v >= 0 && v < len(cs[i].Choices) {
					dom.SetInnerText(fmt.Sprintf("%s-%d-value", id, i), cs[i].Choices[v])
				}
				moves <- Move{Control: i, Pick: v}
			}
		}()
	}
	done := make(chan struct{})
	go func() {
		for n := range b.done {
			if n > 0 { // building the button sends 0
				close(done)
				return
			}
		}
	}()
	return moves, done, nil
}
