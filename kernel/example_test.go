package kernel_test

import (
	"fmt"
	"os"
	"time"

	"github.com/twintorus/twintorus/kernel"
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
