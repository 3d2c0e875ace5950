package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/twintorus/twintorus/internal/sysmem"
	"github.com/twintorus/twintorus/sim/booksim"
	"github.com/twintorus/twintorus/sim/engine"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/traffic"
	"github.com/twintorus/twintorus/sim/workload"
)

func init() { commands = append(commands, newRunCmd) }

func newRunCmd() *cobra.Command {
	p := experiment.NewPoint("", 0.1)
	var asJSON, noMemoryCheck bool
	var switching, terminal, external, internal, preset, allocator, lengths string
	var mapping, booksimFile string
	var tasksPerPE int
	cmd := &cobra.Command{
		Use:   "run TOPOLOGY | run --booksim FILE",
		Short: "Simulate one network at one offered load, or one closed-loop workload",
		Long: `Simulate one network, cycle by cycle, at one offered load and report the accepted
traffic (flits/cycle/PE), latencies (cycles), hops, whether the run saturated, and any
deadlock with the cycle of waiting channels. The model and its defaults are described in
docs/model.md; the papers it follows are cited there by key and section.

The measurement window is checked for stationarity: cut into --stationary-batches
batches, its accepted traffic must not trend between its halves by more than
--stationary-tolerance of its mean (beyond what the batches' noise explains). A window
that drifts becomes warm-up and the next --cycles are measured, in the same
simulation, up to --stationary-windows windows; the report says which window it
measured and whether it was stationary.

A run that stops on a deadlock (possible with --deadlock none, on purpose) prints its
report and exits with status 3; errors exit with status 1. Sizes are checked before
anything is allocated: a run whose estimated memory (network, buffers, and packets and
source queues at their largest, or as many as its load can generate in its cycles)
exceeds the machine's is refused, unless --no-memory-check. The report closes with
the estimate beside the most memory the run held.

With --booksim FILE the point comes from a BookSim2 configuration file instead of a
TOPOLOGY: its topology, routing, traffic, load (BookSim2's injection_rate in
packets/cycle/node, times packet_size) and engine parameters, read as BookSim2 reads
the file; a key we do not model is refused by name (docs/booksim.md lists every key).
Flags given beside it set their own values. Where our model differs from BookSim2's at
the file's settings, the differences are printed to standard error first.

With --workload the run is closed-loop instead: the tasks of an MPI collective, a trace
or an application proxy run their programs to the end (--mapping, --tasks-per-pe place
them), and the run reports the execution time (the cycle at which every message has been
received and the network is empty), network and end-to-end latency per packet and per
flit, switch utilisation (cycles a switch delivers flits) and messages. --traffic,
--sizes, --load, --warmup, --cycles and the --stationary-* flags do not apply.

Traffic patterns:
` + traffic.Grammar + `

Workloads:
` + workload.Grammar,
		Example: `  twintorus run twin:4x4x4/D --deadlock bubble --traffic uniform --load 0.2
  twintorus run torus:16x8 --deadlock vc --load 0.3 --sizes 70%x1,30%x3 --json
  twintorus run twin:4x2x4/D --deadlock none --traffic pairs:0>8,8>0,1>9,9>1 --load 1
  twintorus run twin:4x4x4 --routing adaptive --selection 3prio --switch adaptive --load 0.3
  twintorus run torus:8x8x4 --workload alltoall:pairwise:512B --json
  twintorus run torus:8x8x4 --workload graph500 --mapping random --tasks-per-pe 2 --seed 3
  twintorus run twin:4x4x2x2x2/cbest --workload trace:datasets/traces/graph500-64.trace.gz
  twintorus run --booksim torus88 --cycles 10000`,
		Args: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("booksim") {
				if len(args) > 0 {
					return fmt.Errorf("run --booksim takes its topology from the file: give no TOPOLOGY argument (got %s)", strings.Join(args, " "))
				}
				return nil
			}
			return oneTopology("run", "twin:4x4x4/D")(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if booksimFile != "" {
				for _, f := range []string{"switch", "workload"} {
					if cmd.Flags().Changed(f) {
						return fmt.Errorf("--%s does not apply with --booksim: the BookSim2 file sets the switch and an open-loop load", f)
					}
				}
				m, err := booksim.MapFile(booksimFile)
				if err != nil {
					return err
				}
				applyBookSim(cmd, &p, m, &switching, &allocator, &terminal, &external, &internal)
				for _, n := range m.Notes {
					fmt.Fprintf(cmd.ErrOrStderr(), "booksim: note: %s\n", n)
				}
			} else {
				p.Topology = args[0]
			}
			var pre *engine.Preset
			if preset != "" {
				found, err := engine.LookupPreset(preset)
				if err != nil {
					return fmt.Errorf("--switch: %w", err)
				}
				pre = &found
				applyPreset(cmd, &p, found, &switching, &allocator, &lengths, &terminal, &external, &internal)
			}
			limit := int64(0) // this machine's memory
			if noMemoryCheck {
				limit = -1
			}
			if p.Switching, err = engine.ParseSwitching(switching); err != nil {
				return err
			}
			if p.Allocator, err = engine.ParseAllocator(allocator); err != nil {
				return fmt.Errorf("--allocator: %w", err)
			}
			if p.PacketLengths, err = engine.ParsePacketLengths(lengths); err != nil {
				return fmt.Errorf("--packet-lengths: %w", err)
			}
			for _, b := range []struct {
				flag string
				val  string
				dst  *engine.Buffer
			}{{"--buffer-terminal", terminal, &p.Terminal}, {"--buffer-external", external, &p.External}, {"--buffer-internal", internal, &p.Internal}} {
				if err := b.dst.UnmarshalText([]byte(b.val)); err != nil {
					return fmt.Errorf("%s: %w", b.flag, err)
				}
			}
			if cmd.Flags().Changed("workload") {
				for _, f := range []string{"traffic", "sizes", "load", "warmup", "cycles", "stationary-batches", "stationary-tolerance", "stationary-windows"} {
					if cmd.Flags().Changed(f) {
						return fmt.Errorf("--%s does not apply with --workload: a closed-loop run runs its workload to the end", f)
					}
				}
				m, err := workload.ParseMapping(mapping)
				if err != nil {
					return fmt.Errorf("--mapping: %w", err)
				}
				if tasksPerPE < 1 || tasksPerPE > workload.MaxTasksPerPE {
					return fmt.Errorf("--tasks-per-pe %d: accepted are 1 to %d tasks per PE", tasksPerPE, workload.MaxTasksPerPE)
				}
				if p.FlitBytes < 1 || p.FlitBytes > workload.MaxFlitBytes {
					return fmt.Errorf("--flit-bytes %d: accepted are 1 to %d bytes per flit", p.FlitBytes, workload.MaxFlitBytes)
				}
				if cmd.Flags().Changed("tasks-per-pe") {
					if strings.Contains(mapping, "/") && m.TasksPerPE != tasksPerPE {
						return fmt.Errorf("--mapping %s and --tasks-per-pe %d disagree", mapping, tasksPerPE)
					}
					m.TasksPerPE = tasksPerPE
				}
				p.Mapping = m.String()
				p.Traffic, p.Load = "", 0
			} else if cmd.Flags().Changed("mapping") || cmd.Flags().Changed("tasks-per-pe") || cmd.Flags().Changed("flit-bytes") || cmd.Flags().Changed("local-cycles") {
				return fmt.Errorf("--mapping, --tasks-per-pe, --flit-bytes and --local-cycles apply to closed-loop runs: give --workload")
			}
			if !cmd.Flags().Changed("deadlock") && booksimFile == "" {
				if p.Deadlock, err = defaultScheme(p, pre, limit); err != nil {
					return err
				}
			}
			if pre != nil && p.VOQ && !cmd.Flags().Changed("voq") {
				if p.VOQ, err = presetVOQ(p, *pre, limit); err != nil {
					return err
				}
			}
			e, err := p.BuildLimited(limit)
			var size *engine.SizeError
			if errors.As(err, &size) && size.Limit > 0 {
				return fmt.Errorf("%w (--no-memory-check runs it anyway)", err)
			}
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			r, err := e.Run(ctx)
			if err != nil {
				return err
			}
			if p.ClosedLoop() {
				if err := printClosed(cmd.OutOrStdout(), p, r, asJSON); err != nil {
					return err
				}
				return deadlockStatus(r)
			}
			if asJSON {
				// What the run measured (NaN, as when no packet was delivered, as null),
				// with the point that ran.
				out := experiment.JSONSafe(r).(map[string]any)
				out["point"] = p
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				if err := enc.Encode(out); err != nil {
					return err
				}
				return deadlockStatus(r)
			}
			printRun(cmd.OutOrStdout(), p, r)
			printMemory(cmd.OutOrStdout(), e.Footprint())
			return deadlockStatus(r)
		},
	}
	f := cmd.Flags()
	d := engine.Defaults()
	f.StringVar(&p.Routing, "routing", "", "routing: "+routing.Accepted()+"; default by topology")
	f.StringVar(&p.Selection, "selection", "", "selection function of adaptive routing: "+selectionNames()+", with options, e.g. 3prio:threshold=0.25,reselect=once; default 3prio on twin tori, ref elsewhere")
	f.StringVar(&p.Deadlock, "deadlock", p.Deadlock, "deadlock avoidance: vc (dateline VCs), bubble (bubble flow control), escape (an up*/down* escape VC) or none; default: bubble for dor and dort, vc for adaptive on tori, meshes and twin tori, escape for min, table and adaptive elsewhere")
	f.StringVar(&p.Tie, "tie", p.Tie, "tie rule at distance k/2 in even rings (DOR, DORT, TSDOR): plus, minus, mirror (PE0's ties +, PE1's -; plus without twin cards) or random (per packet and dimension, as BookSim2); default the routing's own: mirror for tsdor, plus otherwise")
	f.StringVar(&p.Traffic, "traffic", p.Traffic, "traffic pattern (see above)")
	f.StringVar(&p.Sizes, "sizes", "", "message sizes in packets, e.g. 1, 70%x1,30%x3 or 1-32 (default 1)")
	f.Float64Var(&p.Load, "load", p.Load, "offered load, flits/cycle/PE")
	f.IntVar(&p.PacketFlits, "packet", d.PacketFlits, "flits per packet (the longest packet under --packet-lengths uniform)")
	f.StringVar(&lengths, "packet-lengths", engine.LengthsFixedName, "packet lengths: fixed (every packet --packet flits; a closed-loop message's last packet padded) or uniform (open loop: 1 to --packet flits, uniformly; closed loop: the last packet unpadded)")
	f.Int64Var(&p.Warmup, "warmup", d.Warmup, "cycles before measuring")
	f.Int64Var(&p.Measure, "cycles", d.Measure, "cycles measured after the warm-up")
	f.Uint64Var(&p.Seed, "seed", d.Seed, "random seed")
	f.StringVar(&switching, "switching", "vct", "switching: vct (virtual cut-through) or wormhole")
	f.StringVar(&allocator, "allocator", engine.AllocatorRR2, "switch allocator: rr2 (two-stage round-robin) or islip[:ITERATIONS] (iSLIP, 1 iteration by default)")
	f.IntVar(&p.LinkLatency, "link-latency", d.LinkLatency, "cycles per link")
	f.IntVar(&p.InternalLatency, "internal-latency", 0, "cycles across a twin torus's internal link (default: --link-latency)")
	f.IntVar(&p.RoutingDelay, "routing-delay", d.RoutingDelay, "cycles from a head's arrival to its departure")
	f.IntVar(&p.PortFlits, "port-flits", d.PortFlits, "flits per input port, split among the VCs when no --buffer-* is given")
	f.StringVar(&terminal, "buffer-terminal", "", "terminal port buffers as VCSxFLITS, e.g. 4x32 (default: the papers' split)")
	f.StringVar(&external, "buffer-external", "", "external port buffers as VCSxFLITS (default: the papers' split)")
	f.StringVar(&internal, "buffer-internal", "", "internal link buffers as VCSxFLITS (default: the papers' split)")
	f.Int64Var(&p.Watchdog, "watchdog", d.Watchdog, "cycles a packet may wait before the run looks for a deadlock; a run that ends sooner with nothing moving is checked at its end (0: off)")
	f.Float64Var(&p.SaturationTolerance, "saturation-tolerance", d.SaturationTolerance, "share of the offered flits that may go undelivered before the run counts as saturated")
	f.IntVar(&p.StationaryBatches, "stationary-batches", d.StationaryBatches, "batches the measurement window is cut into to check that its accepted traffic does not drift (4 to 100; 0: no check)")
	f.Float64Var(&p.StationaryTolerance, "stationary-tolerance", d.StationaryTolerance, "drift of the accepted traffic between the window's halves, as a share of its mean, that the check allows beyond the batches' noise")
	f.IntVar(&p.StationaryWindows, "stationary-windows", d.StationaryWindows, "windows of --cycles measured at most: a window that drifts becomes warm-up and the next is measured (1: check only)")
	f.IntVar(&p.TerminalLatency, "terminal-latency", 0, "cycles across a PE's link (default: --link-latency)")
	f.IntVar(&p.OutputFlits, "output-flits", 0, "an output queue of this many flits per VC at every output port (0: input-queued switches)")
	f.BoolVar(&p.VOQ, "voq", false, "virtual output queues at every input port (virtual cut-through, one port per hop)")
	f.StringVar(&preset, "switch", "", "switch model: "+presetNames()+" (its parameters, and its deadlock scheme where the routing is deadlock-free under it; a flag given sets its own value); default the 3DT papers'")
	f.BoolVar(&p.Channels, "channels", false, "report the utilisation of every channel (JSON)")
	f.IntVar(&p.Threads, "threads", 1, "cores one simulation uses (results are the same bit for bit whatever the count; it pays from about 8,192 switches); a crossbar input per VC without reserved output VCs runs on one core")
	f.StringVar(&p.Workload, "workload", "", "run a closed-loop workload instead of traffic: OP:ALGORITHM:SIZE, trace:PATH or a proxy (see above)")
	f.StringVar(&mapping, "mapping", "linear", "closed loop: task placement, linear or random (a permutation drawn from --seed)")
	f.IntVar(&tasksPerPE, "tasks-per-pe", 1, "closed loop: tasks per PE (cores); a workload over all tasks has PEs × this many")
	f.IntVar(&p.FlitBytes, "flit-bytes", workload.DefaultFlitBytes, "closed loop: bytes per flit")
	f.Int64Var(&p.LocalCycles, "local-cycles", 0, "closed loop: cycles a message between two tasks of one PE takes")
	f.StringVar(&booksimFile, "booksim", "", "run the point of a BookSim2 configuration file instead of a TOPOLOGY (docs/booksim.md); flags given beside it set their own values")
	f.BoolVar(&asJSON, "json", false, "print the point and the result as JSON")
	f.BoolVar(&noMemoryCheck, "no-memory-check", false, "run even when the estimated memory of the run exceeds the machine's")
	return cmd
}

// bufferText is a buffer as its flag takes it: "" for the papers' split.
func bufferText(b engine.Buffer) string {
	if b == (engine.Buffer{}) {
		return ""
	}
	return b.String()
}

// presetNames lists the switch presets.
func presetNames() string {
	var names []string
	for _, p := range engine.Presets() {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}

// applyPreset sets every engine parameter that the command line does not set from
// preset pre; its deadlock scheme is defaultScheme's to apply, where it is safe.
func applyPreset(cmd *cobra.Command, p *experiment.Point, pre engine.Preset, switching, allocator, lengths, terminal, external, internal *string) {
	base := pre.Params()
	setUnlessGiven(cmd, []flagValue{
		{"packet", func() { p.PacketFlits = base.PacketFlits }},
		{"link-latency", func() { p.LinkLatency = base.LinkLatency }},
		{"internal-latency", func() { p.InternalLatency = base.InternalLatency }},
		{"terminal-latency", func() { p.TerminalLatency = base.TerminalLatency }},
		{"routing-delay", func() { p.RoutingDelay = base.RoutingDelay }},
		{"port-flits", func() { p.PortFlits = base.PortFlits }},
		{"output-flits", func() { p.OutputFlits = base.OutputFlits }},
		{"voq", func() { p.VOQ = base.VOQ }},
		{"switching", func() { *switching = base.Switching.String() }},
		{"allocator", func() { *allocator = base.Allocator.String() }},
		{"packet-lengths", func() { *lengths = base.PacketLengths.String() }},
		{"buffer-terminal", func() { *terminal = bufferText(base.Terminal) }},
		{"buffer-external", func() { *external = bufferText(base.External) }},
		{"buffer-internal", func() { *internal = bufferText(base.Internal) }},
		{"stationary-batches", func() { p.StationaryBatches = base.StationaryBatches }},
		{"stationary-tolerance", func() { p.StationaryTolerance = base.StationaryTolerance }},
		{"stationary-windows", func() { p.StationaryWindows = base.StationaryWindows }},
		// No flag sets these.
		{"", func() { setUnflagged(&p.Params, base) }},
	})
}

// applyBookSim sets the point from a mapped BookSim2 configuration, except what the
// command line sets itself.
func applyBookSim(cmd *cobra.Command, p *experiment.Point, m booksim.Mapped, switching, allocator, terminal, external, internal *string) {
	e := m.Engine
	p.Topology = m.Topology
	setUnlessGiven(cmd, []flagValue{
		{"routing", func() { p.Routing = m.Routing }},
		{"deadlock", func() { p.Deadlock = m.Deadlock }},
		{"tie", func() { p.Tie = m.Tie }},
		{"traffic", func() { p.Traffic = m.Traffic }},
		{"sizes", func() { p.Sizes = m.Sizes }},
		{"load", func() { p.Load = m.Load }},
		{"seed", func() { p.Seed = m.Seed }},
		{"packet", func() { p.PacketFlits = e.PacketFlits }},
		{"link-latency", func() { p.LinkLatency = e.LinkLatency }},
		{"terminal-latency", func() { p.TerminalLatency = e.TerminalLatency }},
		{"routing-delay", func() { p.RoutingDelay = e.RoutingDelay }},
		{"warmup", func() { p.Warmup = e.Warmup }},
		{"cycles", func() { p.Measure = e.Measure }},
		{"switching", func() { *switching = e.Switching.String() }},
		{"allocator", func() { *allocator = e.Allocator.String() }},
		{"buffer-terminal", func() { *terminal = bufferText(e.Terminal) }},
		{"buffer-external", func() { *external = bufferText(e.External) }},
		{"buffer-internal", func() { *internal = bufferText(e.Internal) }},
		// No flag sets these.
		{"", func() { setUnflagged(&p.Params, e) }},
	})
}

// setUnflagged copies from base the engine fields that no flag of run sets: the
// switch presets' and BookSim2's router options. Presets and BookSim2 files both
// take them from here, so a new option cannot reach one and not the other.
func setUnflagged(p *engine.Params, base engine.Params) {
	p.BufferSplit, p.TransitPriority, p.CrossbarPerVC = base.BufferSplit, base.TransitPriority, base.CrossbarPerVC
	p.ConsumeAll, p.ReserveOutputVCs, p.ClassVCs, p.FrontDelay = base.ConsumeAll, base.ReserveOutputVCs, base.ClassVCs, base.FrontDelay
	p.SwitchAfterVC, p.CrossbarDelay, p.EjectVCs = base.SwitchAfterVC, base.CrossbarDelay, base.EjectVCs
	p.KeepRingClass, p.SwitchISLIP, p.VCISLIP = base.KeepRingClass, base.SwitchISLIP, base.VCISLIP
}

// flagValue sets the value a flag would set, from a preset or a file.
type flagValue struct {
	flag string // "" for values no flag sets
	set  func()
}

// setUnlessGiven sets each value whose flag the command line does not give.
func setUnlessGiven(cmd *cobra.Command, values []flagValue) {
	for _, v := range values {
		if !cmd.Flags().Changed(v.flag) {
			v.set()
		}
	}
}

// defaultScheme is the deadlock scheme of the point's routing when none is named, and
// with a switch preset the preset's where the routing is deadlock-free under it
// (experiment.PresetScheme). It builds the network only when the answer depends on it,
// and then after the size check: building here would allocate a network that the
// size checks after this are meant to refuse unbuilt.
func defaultScheme(p experiment.Point, pre *engine.Preset, memoryLimit int64) (string, error) {
	spec, err := topology.Parse(p.Topology)
	if err != nil {
		return "", err
	}
	var net *topology.Network
	build := func() (*topology.Network, error) {
		if net != nil {
			return net, nil
		}
		net, err = buildChecked(spec, p, memoryLimit)
		return net, err
	}
	name := p.Routing
	if name == "" {
		if fam, ok := topology.LookupFamily(string(spec.Family)); ok && fam.Routing != "" {
			name = fam.Routing
		} else {
			n, err := build()
			if err != nil {
				return "", err
			}
			name = routing.Default(n)
		}
	}
	def, _, ok := routing.LookupRouting(name)
	if !ok {
		return p.Deadlock, nil // New says what is accepted
	}
	if pre != nil && pre.Deadlock != "" && pre.Deadlock != def.SchemeText() {
		n, err := build()
		if err != nil {
			return "", err
		}
		scheme, err := experiment.PresetScheme(*pre, n, name)
		if err != nil {
			return "", err
		}
		return scheme.String(), nil
	}
	if def.SchemeFor == nil {
		return def.Scheme.String(), nil
	}
	n, err := build()
	if err != nil {
		return "", err
	}
	return def.DefaultScheme(n).String(), nil
}

// buildChecked builds the point's network after the size check: the fewest VCs any
// scheme allows, a lower bound, as a spec's validation takes.
func buildChecked(spec topology.Spec, p experiment.Point, memoryLimit int64) (*topology.Network, error) {
	var size *engine.SizeError
	if err := engine.CheckSize(spec, p.Params, routing.SchemeNone, memoryLimit); errors.As(err, &size) {
		return nil, err
	}
	return topology.Build(spec)
}

// presetVOQ is whether a run with switch preset pre that does not give --voq has
// virtual output queues: the preset's, where the point's routing gives one port per
// hop (experiment.PresetVOQ).
func presetVOQ(p experiment.Point, pre engine.Preset, memoryLimit int64) (bool, error) {
	spec, err := topology.Parse(p.Topology)
	if err != nil {
		return false, err
	}
	net, err := buildChecked(spec, p, memoryLimit)
	if err != nil {
		return false, err
	}
	scheme, err := routing.ParseScheme(p.Deadlock)
	if err != nil {
		return true, nil // the run reports it
	}
	return experiment.PresetVOQFor(pre, net, p.Routing, scheme), nil
}

// printMemory closes a run's report with its estimated memory, which the run was
// checked against before it was built, beside the most this process held.
func printMemory(w io.Writer, f engine.Footprint) {
	line := fmt.Sprintf("memory              estimated %s (network %s, engine %s, packets and queues %s)", memSize(f.Total()), memSize(f.Network), memSize(f.State), memSize(f.Traffic))
	if peak, ok := sysmem.PeakRSS(); ok {
		line += fmt.Sprintf("; peak %s resident", memSize(int64(peak)))
	}
	fmt.Fprintln(w, line)
}

// memSize prints bytes in MiB, or GiB from 1 GiB.
func memSize(b int64) string {
	if b >= 1<<30 {
		return fmt.Sprintf("%.2f GiB", float64(b)/(1<<30))
	}
	return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
}

// deadlockStatus is the error that makes a run that stopped on a deadlock exit with
// status exitDeadlock, or nil.
func deadlockStatus(r *engine.Result) error {
	if r.Deadlock == nil {
		return nil
	}
	return statusError{exitDeadlock, fmt.Errorf("the run stopped on a deadlock at cycle %d (exit status %d)", r.Deadlock.Cycle, exitDeadlock)}
}

func selectionNames() string {
	var names []string
	for _, s := range routing.Selections() {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}

func printRun(w io.Writer, p experiment.Point, r *engine.Result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "topology\t%s\n", r.Topology)
	fmt.Fprintf(tw, "routing\t%s, %s%s, buffers %s\n", r.Routing, r.Switching, allocatorNote(r.Allocator), r.Buffers)
	fmt.Fprintf(tw, "traffic\t%s, load %g flits/cycle/PE, seed %d\n", p.Traffic, p.Load, p.Seed)
	fmt.Fprintf(tw, "offered\t%.4f flits/cycle/PE\n", r.Offered)
	fmt.Fprintf(tw, "accepted\t%.4f flits/cycle/PE\n", r.Accepted)
	fmt.Fprintf(tw, "network latency\tmean %.2f, p50 %.0f, p99 %.0f cycles (%d packets); per flit mean %.2f cycles\n", r.LatencyNetwork.Mean, r.LatencyNetwork.P50, r.LatencyNetwork.P99, r.LatencyNetwork.Count, r.LatencyNetworkFlit.Mean)
	fmt.Fprintf(tw, "end-to-end latency\tmean %.2f, p99 %.0f cycles\n", r.LatencyE2E.Mean, r.LatencyE2E.P99)
	fmt.Fprintf(tw, "hops\t%.3f per packet", r.Hops)
	if r.InternalHops > 0 {
		fmt.Fprintf(tw, ", %.3f across internal links", r.InternalHops)
	}
	fmt.Fprintln(tw)
	if r.Selection != "" {
		fmt.Fprintf(tw, "adaptive\tselection %s: %.1f %% of hops on adaptive channels, %.1f %% on escape channels\n", r.Selection, 100*r.AdaptiveHopsShare, 100*r.EscapeHopsShare)
	}
	fmt.Fprintf(tw, "saturated\t%v\n", r.Saturated)
	if s := r.Stationarity; s != nil {
		verdict := "yes"
		if !s.Stationary {
			verdict = "NO: the accepted traffic still drifts; no verdict should rest on this point"
		}
		fmt.Fprintf(tw, "stationary\t%s (drift %+.1f %% between the window's halves, noise ±%.1f %%, tolerance %.1f %%)\n",
			verdict, 100*s.Drift, 100*s.Noise, 100*p.StationaryTolerance)
		fmt.Fprintf(tw, "window\tcycles %d to %d, window %d of at most %d\n", s.WindowStart, s.WindowStart+p.Measure, s.Windows, p.StationaryWindows)
	}
	fmt.Fprintf(tw, "simulated\t%d cycles, %d flit-hops in %.2f s\n", r.Cycles, r.FlitHops, r.Elapsed)
	tw.Flush()
	if r.Deadlock != nil {
		fmt.Fprintln(w, r.Deadlock)
	}
}

// printClosed reports a closed-loop run: as text, or as JSON with the closed-loop
// figures at the top level beside the open-loop ones.
func printClosed(w io.Writer, p experiment.Point, r *engine.Result, asJSON bool) error {
	c := r.Closed
	if asJSON {
		out := experiment.JSONSafe(r).(map[string]any)
		if closed, ok := out["closed_loop"].(map[string]any); ok {
			for k, v := range closed {
				out[k] = v
			}
			delete(out, "closed_loop")
		}
		for _, k := range []string{"offered", "accepted", "saturated", "latency_message", "packets_generated"} {
			delete(out, k) // open-loop figures
		}
		out["point"] = p
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "topology\t%s\n", r.Topology)
	fmt.Fprintf(tw, "routing\t%s, %s%s, buffers %s\n", r.Routing, r.Switching, allocatorNote(r.Allocator), r.Buffers)
	fmt.Fprintf(tw, "workload\t%s, mapping %s, seed %d\n", p.Workload, p.Mapping, p.Seed)
	if r.Deadlock == nil {
		fmt.Fprintf(tw, "execution time\t%d cycles\n", c.ExecutionCycles)
	} else {
		fmt.Fprintf(tw, "execution time\tnone: the run deadlocked at cycle %d\n", r.Cycles)
	}
	fmt.Fprintf(tw, "messages\t%d (%d between tasks of one PE), %d bytes, %d packets\n", c.Messages, c.LocalMessages, c.Bytes, r.PacketsDelivered)
	fmt.Fprintf(tw, "network latency\tper packet mean %.2f, p99 %.0f; per flit mean %.2f cycles\n", r.LatencyNetwork.Mean, r.LatencyNetwork.P99, c.LatencyNetworkFlit.Mean)
	fmt.Fprintf(tw, "end-to-end latency\tper packet mean %.2f, p99 %.0f; per flit mean %.2f cycles\n", r.LatencyE2E.Mean, r.LatencyE2E.P99, c.LatencyE2EFlit.Mean)
	fmt.Fprintf(tw, "switch utilisation\tmean %.1f, max %.0f cycles delivering flits\n", c.SwitchUtilisation, c.SwitchUtilisationMax)
	fmt.Fprintf(tw, "hops\t%.3f per packet\n", r.Hops)
	fmt.Fprintf(tw, "simulated\t%d cycles, %d flit-hops in %.2f s\n", r.Cycles, r.FlitHops, r.Elapsed)
	tw.Flush()
	if r.Deadlock != nil {
		fmt.Fprintln(w, r.Deadlock)
	}
	return nil
}

// allocatorNote is ", allocator NAME" for a run that did not use the default allocator.
func allocatorNote(name string) string {
	if name == "" {
		return ""
	}
	return ", allocator " + name
}
