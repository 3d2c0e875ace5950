package experiment_test

import (
	"context"
	"fmt"
	"os"

	"github.com/twintorus/twintorus/sim/experiment"
)

func ExampleParseSpec() {
	spec, err := experiment.ParseSpec("fig.yaml", []byte(`
topologies: [twin:4x4x4/A, twin:4x4x4/D]
deadlock: [bubble, vc]
loads: [0.1, 0.2, 0.3]
seeds: 30
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	curves, err := spec.Curves()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range curves {
		fmt.Println(c.Name)
	}
	fmt.Println(len(curves)*len(spec.Loads.Values)*spec.Seeds, "simulations")
	// Output:
	// twin:4x4x4/A bubble uniform
	// twin:4x4x4/A vc uniform
	// twin:4x4x4/D bubble uniform
	// twin:4x4x4/D vc uniform
	// 360 simulations
}

func ExampleParseSpec_error() {
	_, err := experiment.ParseSpec("fig.yaml", []byte(`
topologies: [twin:4x4x4/A]
loads: [0.1, 0.2]
seeds: 30
engine:
  warm_up: 5000
`))
	fmt.Println(err)
	// Output:
	// fig.yaml:6: engine.warm_up: unknown key in engine; accepted are switching, packet_flits, packet_lengths, link_latency, internal_latency, routing_delay, terminal_buffer, external_buffer, internal_buffer, port_flits, terminal_latency, output_flits, voq, buffer_split, allocator, warmup, measure, watchdog, saturation_tolerance, stationary_batches, stationary_tolerance, stationary_windows, transit_priority, crossbar_per_vc, consume_all, reserve_output_vcs, class_vcs, front_delay, keep_ring_class, vc_islip, switch_islip, switch_after_vc, crossbar_delay, eject_vcs, channels, channel_frames, threads
}

// A precision target lets each point stop adding seeds once its estimate is precise
// enough; seeds stays the most a point runs.
func ExampleParseSpec_precision() {
	spec, err := experiment.ParseSpec("fig.yaml", []byte(`
topologies: [twin:4x4x4/A, twin:4x4x4/D]
loads: [0.1, 0.2, 0.3]
seeds: 30
precision:
  relative: 0.01   # stop once the 95 % CI half-width is at most 1 % of |mean|
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	p := spec.Precision
	fmt.Printf("judge %s: half-width <= %g·|mean|, from %d to %d seeds per point, %d more at a time\n",
		p.Metric, p.Relative, p.MinSeeds, spec.Seeds, p.MinSeeds)
	fmt.Println(p.Met(experiment.Estimated([]float64{0.2, 0.201, 0.199, 0.2, 0.2})))
	fmt.Println(p.Met(experiment.Estimated([]float64{0.2, 0.22, 0.18, 0.2, 0.2})))
	// Output:
	// judge accepted: half-width <= 0.01·|mean|, from 5 to 30 seeds per point, 5 more at a time
	// true
	// false
}

func ExampleRun() {
	spec := experiment.NewSpec("torus:4x4")
	spec.Engine.Warmup, spec.Engine.Measure = 500, 2000
	spec.Loads = experiment.Fixed(0.1, 0.2)
	spec.Seeds = 3
	dir, err := os.MkdirTemp("", "sweep")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)

	res, err := experiment.Run(context.Background(), spec, experiment.Options{Out: dir})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range res.Summaries("accepted") {
		a := s.Estimates["accepted"]
		fmt.Printf("%s at %.1f: accepted %.2f over %d seeds\n", s.Curve, s.Load, a.Mean, a.N)
	}
	// A second run finds every result in the store.
	again, err := experiment.Run(context.Background(), spec, experiment.Options{Out: dir})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(again.Stored, "stored,", again.Simulated, "simulated")
	// Output:
	// torus:4x4 bubble uniform at 0.1: accepted 0.10 over 3 seeds
	// torus:4x4 bubble uniform at 0.2: accepted 0.20 over 3 seeds
	// 6 stored, 0 simulated
}

func ExampleEstimated() {
	e := experiment.Estimated([]float64{1, 2, 3, 4, 5})
	fmt.Printf("mean %.3f, 95%% CI [%.3f, %.3f]\n", e.Mean, e.Low, e.High)
	// Output:
	// mean 3.000, 95% CI [1.037, 4.963]
}

func ExampleLines() {
	spec := experiment.NewSpec("torus:4x4")
	spec.Engine.Warmup, spec.Engine.Measure = 500, 2000
	spec.Loads = experiment.Fixed(0.1, 0.2)
	spec.Seeds = 2
	dir, err := os.MkdirTemp("", "sweep")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	if _, err := experiment.Run(context.Background(), spec, experiment.Options{Out: dir}); err != nil {
		fmt.Println(err)
		return
	}
	// A notebook reads the store and plots one line per curve.
	c, err := experiment.Load(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range experiment.Lines(experiment.Summarize(c.Records, "accepted"), "accepted") {
		fmt.Println(line.Curve)
		for _, p := range line.Points {
			fmt.Printf("  load %.1f: %.2f (n=%d, CI low < mean < high: %v)\n", p.Load, p.Mean, p.N, p.Low < p.Mean && p.Mean < p.High)
		}
	}
	// Output:
	// torus:4x4 bubble uniform
	//   load 0.1: 0.10 (n=2, CI low < mean < high: true)
	//   load 0.2: 0.20 (n=2, CI low < mean < high: true)
}
