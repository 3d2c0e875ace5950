package kernel_test

import (
	"fmt"
	"math"
	"os"
	"time"

	"github.com/twintorus/twintorus/kernel"
	"github.com/twintorus/twintorus/plots"
)

// A notebook cell shows a table with kernel.Table; outside a notebook the same call
// prints aligned text, as this Screen does.
func ExampleScreen_Table() {
	screen := &kernel.Screen{Text: os.Stdout}
	screen.Table([]string{"spec", "switches", "links"}, [][]string{
		kernel.Row("torus:4x4x4", 64, 192),
		kernel.Row("twin:4x4x4/D", 128, 256),
	})
	// Output:
	// spec          switches  links
	// ------------  --------  -----
	// torus:4x4x4   64        192
	// twin:4x4x4/D  128       256
}

// A progress bar's Update is the callback a sweep runner calls after each point.
func ExampleNewProgress() {
	run := func(points int, progress func(done, total int)) {
		for i := 1; i <= points; i++ {
			progress(i, points)
		}
	}
	p := kernel.NewProgress("load sweep")
	defer p.Finish() // replaces the bar with a one-line summary
	run(20, p.Update)
}

func ExampleProgressState() {
	st := kernel.ProgressState{Label: "load sweep", Done: 30, Total: 80, Elapsed: 2 * time.Second}
	fmt.Println(st.Line())
	st.Done = 80
	st.Elapsed = 5 * time.Second
	fmt.Println(st.Summary())
	// Output:
	// load sweep  30/80  37%  15/s  ETA 3.3s
	// load sweep: 80 done in 5.0s (16/s)
}

// A cell explores with one call: the controls and a function that draws for their
// picks (package nb's Explore simulates a twin torus in it). In a notebook the
// controls appear and every move redraws; here, outside one, the view is drawn once
// for the controls' first picks and nothing is shown.
func ExampleExplore() {
	ring := func(load float64) plots.NetworkPlot {
		p := plots.NetworkPlot{Unit: "load (flits/cycle)", Max: 1}
		for i := range 4 {
			a := float64(i) * math.Pi / 2
			p.Nodes = append(p.Nodes, plots.NetworkNode{X: math.Cos(a), Y: math.Sin(a)})
		}
		for i := range 4 {
			a, b := p.Nodes[i], p.Nodes[(i+1)%4]
			p.Channels = append(p.Channels, plots.NetworkChannel{Path: []plots.Pos{{X: a.X, Y: a.Y}, {X: b.X, Y: b.Y}}, Value: load})
		}
		return p
	}
	kernel.Explore([]kernel.Control{
		{Name: "load", Choices: []string{"0.25", "0.50", "0.75"}, Slider: true, Value: 1},
		{Name: "direction", Choices: []string{"clockwise", "both"}},
	}, func(picks []int) (kernel.View, error) {
		load := float64(picks[0]+1) / 4
		fmt.Printf("drawing load %.2f, direction %d\n", load, picks[1])
		return kernel.View{Network: ring(load), Caption: fmt.Sprintf("load %.2f", load)}, nil
	})
	// Output:
	// drawing load 0.50, direction 0
}
