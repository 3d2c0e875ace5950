package experiment_test

import (
	"context"
	"fmt"

	"github.com/twintorus/twintorus/sim/experiment"
)

// A closed-loop point runs a workload to its end: here Open MPI's binomial broadcast
// of 512 bytes from task 0 on a 3D torus and on a twin torus of 32 PEs each, one task
// per PE, then a NAMD-like proxy with two tasks on each PE (64 tasks, a random
// mapping drawn from the point's seed), under dateline virtual channels.
func ExamplePoint_closedLoop() {
	for _, c := range []struct{ net, workload, mapping string }{
		{"torus:4x4x2", "bcast:binomial:512B", "linear"},
		{"twin:2x2x2x2/cbest", "bcast:binomial:512B", "linear"},
		{"torus:4x4x2", "namd:iterations=2", "random/2"},
		{"twin:2x2x2x2/cbest", "namd:iterations=2", "random/2"},
	} {
		p := experiment.NewPoint(c.net, 0)
		p.Deadlock = "vc"
		p.Workload, p.Mapping = c.workload, c.mapping
		r, err := p.Run(context.Background())
		if err != nil {
			fmt.Println(err)
			return
		}
		cl := r.Closed
		fmt.Printf("%-19s %-20s %-8s %6d cycles, %4d messages (%3d within a PE), deadlock %v\n",
			c.net, c.workload, c.mapping, cl.ExecutionCycles, cl.Messages, cl.LocalMessages, r.Deadlock != nil)
	}
	// Output:
	// torus:4x4x2         bcast:binomial:512B  linear      254 cycles,   31 messages (  0 within a PE), deadlock false
	// twin:2x2x2x2/cbest  bcast:binomial:512B  linear      290 cycles,   31 messages (  0 within a PE), deadlock false
	// torus:4x4x2         namd:iterations=2    random/2   6781 cycles,  768 messages ( 24 within a PE), deadlock false
	// twin:2x2x2x2/cbest  namd:iterations=2    random/2   9226 cycles,  768 messages ( 24 within a PE), deadlock false
}
