package main

import (
	"errors"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/experiment"
)

func TestRunJSON(t *testing.T) {
	var r map[string]any
	runJSON(t, &r, "run", "twin:4x4x4/D", "--deadlock", "bubble", "--traffic", "uniform", "--load", "0.2",
		"--packet", "4", "--warmup", "1000", "--cycles", "4000", "--seed", "1", "--json")
	for _, k := range []string{"offered", "accepted", "latency_network", "latency_e2e", "hops", "saturated", "deadlock", "flit_hops", "cycles", "elapsed_s", "point"} {
		if _, ok := r[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if acc := r["accepted"].(float64); acc < 0.19 || acc > 0.21 {
		t.Errorf("accepted %g at offered 0.2", acc)
	}
	if r["deadlock"] != nil || r["saturated"].(bool) || r["cycles"].(float64) != 5000 {
		t.Errorf("deadlock %v saturated %v cycles %v", r["deadlock"], r["saturated"], r["cycles"])
	}
	if lat := r["latency_network"].(map[string]any); lat["mean"].(float64) < 15 || lat["count"].(float64) < 1000 {
		t.Errorf("network latency %v", lat)
	}
}

// A run that delivers nothing has no latency: JSON says null, not a failure.
func TestRunJSONNoPackets(t *testing.T) {
	var r map[string]any
	runJSON(t, &r, "run", "torus:4x4", "--load", "0.00001", "--warmup", "0", "--cycles", "10", "--json")
	if r["hops"] != nil || r["latency_network"].(map[string]any)["mean"] != nil || r["packets_delivered"].(float64) != 0 {
		t.Errorf("hops %v, latency %v", r["hops"], r["latency_network"])
	}
}

// The papers' deadlock examples deadlock from the command line with --deadlock none,
// and the report names the cycle of waiting channels.
func TestRunDeadlockExamples(t *testing.T) {
	for _, ex := range experiment.DeadlockExamples() {
		p := ex.Point
		args := []string{"run", p.Topology, "--deadlock", "none", "--traffic", p.Traffic, "--load", "1",
			"--warmup", "0", "--cycles", "20000", "--watchdog", "1000", "--switching", p.Switching.String(),
			"--buffer-terminal", p.Terminal.String(), "--buffer-external", p.External.String(), "--buffer-internal", p.Internal.String()}
		out, _, err := run(t, args...)
		var se statusError
		if !errors.As(err, &se) || se.status != exitDeadlock || !strings.Contains(err.Error(), "stopped on a deadlock") {
			t.Fatalf("%s: error %v, want the deadlock status %d", ex.Name, err, exitDeadlock)
		}
		if !strings.Contains(out, "deadlock detected at cycle") || !strings.Contains(out, "in-port int vc 0") {
			t.Errorf("%s: no deadlock named in\n%s", ex.Name, out)
		}
	}
}

func TestRunBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run"}, "needs a TOPOLOGY"},
		{[]string{"run", "torus:4x4", "--load", "-0.5"}, "at least 0"},
		{[]string{"run", "torus:4x4", "--load", "nope"}, "--load"},
		{[]string{"run", "torus:4x4", "--routing", "dort"}, "dort does not fit"},
		{[]string{"run", "twin:4x4x4/D", "--routing", "dor"}, "dor does not fit"},
		{[]string{"run", "torus:4x4", "--deadlock", "magic"}, "vc, bubble, escape and none"},
		{[]string{"run", "torus:4x4", "--buffer-external", "1x6"}, "room for two packets"},
		{[]string{"run", "torus:4x4", "--switching", "wormhole"}, "needs virtual cut-through"},
		{[]string{"run", "torus:4x4", "--buffer-terminal", "4by32"}, "--buffer-terminal"},
		{[]string{"run", "torus:4x4", "--traffic", "bitrev:2"}, "takes no parameter"},
		{[]string{"run", "torus:4x4", "--sizes", "60%x1,30%x3"}, "100"},
		{[]string{"run", "torus:4x4", "--load", "5"}, "at most 1"},
		{[]string{"run", "torus:4x4", "--cycles", "0"}, "measurement"},
		{[]string{"run", "torus:4x4", "--tie", "left"}, "plus, minus, mirror and random"},
		{[]string{"run", "torus:4x4", "--port-flits", "100000000"}, "100000000 flits per port: accepted are 1 to 1048576"},
		{[]string{"run", "torus:4x4", "--port-flits", "9223372036854775807"}, "accepted are 1 to 1048576"},
		{[]string{"run", "torus:4x4", "--warmup", "9223372036854775807", "--cycles", "10"}, "accepted are at most 4611686018427387903 cycles in all"},
		{[]string{"run", "torus:4x4", "--switching", "wormhole", "--deadlock", "vc", "--port-flits", "2"}, "leave VCs of 0 flits"},
		{[]string{"run", "torus:4x4", "--saturation-tolerance", "NaN"}, "saturation tolerance NaN: accepted are 0 to 1"},
		{[]string{"run", "torus:4096x4096"}, "torus:4096x4096 with buffers terminal 1x128, external 1x128"},
		{[]string{"run", "torus:4096x4096", "--no-memory-check"}, "the engine holds at most 2147483647"},
	} {
		wantOneLineError(t, c.want, c.args...)
	}
}

// wantOneLineError runs a command that must fail with one line containing want,
// printing nothing.
func wantOneLineError(t *testing.T, want string, args ...string) {
	t.Helper()
	out, stderr, err := run(t, args...)
	if err == nil {
		t.Errorf("%v: no error", args)
		return
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || out != "" || stderr != "" || !strings.Contains(msg, want) {
		t.Errorf("%v: error %q (stdout %q, stderr %q), want one line containing %q", args, msg, out, stderr, want)
	}
}

// A run that stops on a deadlock prints its report and exits with status 3, as the
// help says; a run that does not exits 0.
func TestRunDeadlockExitStatus(t *testing.T) {
	bin := twintorusBinary(t)
	args := []string{"run", "twin:4x2x4/D", "--deadlock", "none", "--traffic", "pairs:0>8,8>0,1>9,9>1", "--load", "1",
		"--switching", "wormhole", "--buffer-terminal", "1x4", "--buffer-external", "1x4", "--buffer-internal", "1x4",
		"--warmup", "0", "--cycles", "20000", "--watchdog", "1000"}
	out, err := exec.Command(bin, args...).Output()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitDeadlock {
		t.Fatalf("deadlocked run: %v, want exit status %d\n%s", err, exitDeadlock, out)
	}
	if !strings.Contains(string(out), "deadlock detected at cycle") || !strings.Contains(string(exit.Stderr), "stopped on a deadlock") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out, exit.Stderr)
	}
	if out, err := exec.Command(bin, "run", "torus:4x4", "--warmup", "0", "--cycles", "1000").CombinedOutput(); err != nil {
		t.Errorf("a run without deadlock: %v\n%s", err, out)
	}
}

// Issue 9's report: wormhole with dateline VCs and the default four VCs on the
// terminal port deadlocked at cycle 12,000 or so. It must run clean.
func TestRunWormholeDatelineNoDeadlock(t *testing.T) {
	var r map[string]any
	runJSON(t, &r, "run", "torus:4x4x4", "--switching", "wormhole", "--deadlock", "vc", "--load", "1",
		"--warmup", "0", "--cycles", "30000", "--json")
	if r["deadlock"] != nil || r["accepted"].(float64) < 0.3 {
		t.Errorf("deadlock %v, accepted %v", r["deadlock"], r["accepted"])
	}
}

// --switch sets every parameter of the preset, also those no flag sets: the insee
// preset's transit priority, crossbar input per VC, consumption and output VC
// reservation.
func TestRunSwitchInsee(t *testing.T) {
	var r struct {
		Point map[string]any `json:"point"`
	}
	runJSON(t, &r, "run", "twisted:rtt:4", "--switch", "insee", "--routing", "twisted-adaptive", "--load", "0.3",
		"--warmup", "100", "--cycles", "200", "--json")
	for key, want := range map[string]any{"packet_flits": 16.0, "terminal_buffer": "1x128", "external_buffer": "3x64",
		"transit_priority": true, "crossbar_per_vc": true, "consume_all": true, "reserve_output_vcs": true,
		"deadlock": "bubble"} {
		if got := r.Point[key]; got != want {
			t.Errorf("%s: %v, want %v", key, got, want)
		}
	}
}

// The EXTOLL-style card as a switch preset: its allocator, buffers and virtual output
// queues, unless a flag sets its own; adaptive routing runs without the queues.
func TestRunExtollPreset(t *testing.T) {
	out, _, err := run(t, "run", "twin:4x4x2x2x2", "--routing", "tsdor", "--switch", "extoll", "--cycles", "500", "--warmup", "100")
	if err != nil || !strings.Contains(out, "tsdor, vct, allocator islip:1, buffers terminal 1x512, external 4x128, internal 4x128, virtual output queues") {
		t.Errorf("--switch extoll: %v\n%s", err, out)
	}
	out, _, err = run(t, "run", "torus:8x8x4", "--deadlock", "vc", "--switch", "extoll", "--allocator", "islip:3", "--cycles", "500", "--warmup", "100")
	if err != nil || !strings.Contains(out, "dor/vc, vct, allocator islip:3, buffers terminal 1x512, external 2x256, virtual output queues") {
		t.Errorf("--switch extoll --allocator islip:3: %v\n%s", err, out)
	}
	out, _, err = run(t, "run", "torus:8x8x4", "--deadlock", "vc", "--switch", "extoll", "--voq=false", "--cycles", "500", "--warmup", "100")
	if err != nil || !strings.Contains(out, "external 2x256\n") {
		t.Errorf("--switch extoll --voq=false: %v\n%s", err, out)
	}
	out, _, err = run(t, "run", "torus:8x8x4", "--routing", "adaptive:vcs=1", "--switch", "extoll", "--cycles", "500", "--warmup", "100")
	if err != nil || !strings.Contains(out, "adaptive:vcs=1/2/vc, vct, allocator islip:1, buffers terminal 1x512, external 3x170\n") {
		t.Errorf("--switch extoll --routing adaptive:vcs=1: %v\n%s", err, out)
	}
}

// --packet-lengths: the extoll preset's uniform lengths of up to 32 flits land in the
// point unless a flag sets them; fixed lengths stay out of the point's JSON (its key);
// a bad value is one line naming what is accepted.
func TestRunPacketLengths(t *testing.T) {
	for _, c := range []struct {
		args    []string
		flits   string
		lengths bool
	}{
		{[]string{"--switch", "extoll"}, `"packet_flits": 32,`, true},
		{[]string{"--switch", "extoll", "--packet-lengths", "fixed", "--packet", "16"}, `"packet_flits": 16,`, false},
		{[]string{"--packet-lengths", "uniform", "--packet", "8"}, `"packet_flits": 8,`, true},
	} {
		args := append([]string{"run", "twin:4x4x2x2x2", "--routing", "tsdor", "--deadlock", "vc", "--warmup", "100", "--cycles", "300", "--load", "0.3", "--json"}, c.args...)
		out, _, err := run(t, args...)
		if err != nil || !strings.Contains(out, c.flits) || strings.Contains(out, `"packet_lengths": "uniform"`) != c.lengths || strings.Count(out, "packet_lengths") > 1 {
			t.Errorf("%v: want %s and uniform lengths %v in the point (%v)\n%s", c.args, c.flits, c.lengths, err, out)
		}
	}
	_, _, err := run(t, "run", "torus:4x4", "--packet-lengths", "normal")
	if err == nil || err.Error() != `--packet-lengths: packet lengths "normal": accepted are fixed (every packet packet_flits long, the default) and uniform (1 to packet_flits flits)` {
		t.Errorf("bad --packet-lengths: %v", err)
	}
}

// --threads changes how a run uses the cores, not its JSON: byte for byte but for the
// wall-clock time, on twin:8x8x8/D under both schemes and both switchings, on the
// extoll card, the twisted tori's insee router, the C-switch and a closed-loop
// all-to-all (TestThreadsBitIdentical holds the engine to it on torus:32x32x32 and the
// other presets).
func TestRunThreadsSameJSON(t *testing.T) {
	elapsed := regexp.MustCompile(`"elapsed_s":[^,]*,`)
	for _, args := range [][]string{
		{"twin:8x8x8/D", "--deadlock", "bubble", "--load", "0.6"},
		{"twin:8x8x8/D", "--deadlock", "vc", "--load", "0.6"},
		{"twin:8x8x8/D", "--deadlock", "vc", "--switching", "wormhole", "--load", "0.3"},
		{"twin:4x4x2x2x2", "--routing", "tsdor", "--switch", "extoll", "--load", "0.8"},
		{"twisted:pt:8", "--switch", "insee", "--routing", "twisted-adaptive:ties=random", "--selection", "random", "--deadlock", "bubble", "--load", "0.6"},
		{"ktree:4,3/cswitch", "--switch", "cswitch", "--load", "0.7"},
		{"torus:4x4x4", "--workload", "alltoall:pairwise:1KiB"},
	} {
		var outs []string
		for _, threads := range []string{"1", "2"} {
			window := []string{"--warmup", "300", "--cycles", "700"}
			if args[1] == "--workload" { // a closed-loop run runs to its end
				window = nil
			}
			out, _, err := run(t, append(append([]string{"run"}, append(args, window...)...), "--threads", threads, "--json")...)
			if err != nil {
				t.Fatalf("%v --threads %s: %v", args, threads, err)
			}
			outs = append(outs, elapsed.ReplaceAllString(out, ""))
		}
		if outs[0] != outs[1] {
			t.Errorf("%v: --threads 2 differs from --threads 1:\n%s\n%s", args, outs[1], outs[0])
		}
		if !strings.Contains(outs[0], `"accepted"`) && !strings.Contains(outs[0], `"execution_cycles"`) || strings.Contains(outs[0], `"threads"`) {
			t.Errorf("%v: want the result, and threads left out of the point:\n%s", args, outs[0])
		}
	}
}

// A switch preset never turns deadlock avoidance off (issue 39): the kns and cswitch
// presets' "none" (their papers' routings need none) once made torus:8x8 run dor/none
// and deadlock at cycle 9,000. A network whose routing needs avoidance keeps the scheme
// it has without the preset, or is refused in one line; where the routing is
// deadlock-free without one (DOR on a mesh, Hybrid-DOR, DESTRO) the preset's none
// stands, and --deadlock still says what it says.
func TestRunPresetKeepsDeadlockAvoidance(t *testing.T) {
	var r struct {
		Deadlock any            `json:"deadlock"`
		Point    map[string]any `json:"point"`
	}
	runJSON(t, &r, "run", "torus:8x8", "--switch", "kns", "--load", "1.0", "--warmup", "500", "--cycles", "20000", "--watchdog", "1000", "--json")
	if r.Deadlock != nil || r.Point["deadlock"] != "bubble" {
		t.Errorf("torus:8x8 --switch kns: scheme %v, deadlock %v", r.Point["deadlock"], r.Deadlock)
	}
	for _, c := range []struct {
		args   []string
		scheme string
	}{
		{[]string{"torus:4x4x4", "--switch", "cswitch"}, "bubble"},
		{[]string{"mesh:8x8", "--switch", "kns"}, "none"},
		{[]string{"kns:4,2,1", "--switch", "kns"}, "none"},
		{[]string{"ktree:4,3", "--switch", "cswitch"}, "none"},
		{[]string{"torus:8x8", "--switch", "kns", "--deadlock", "none"}, "none"},
		{[]string{"torus:8x8", "--switch", "kns", "--routing", "updown"}, "none"},
	} {
		runJSON(t, &r, append(append([]string{"run"}, c.args...), "--load", "0.05", "--warmup", "100", "--cycles", "300", "--json")...)
		if r.Point["deadlock"] != c.scheme {
			t.Errorf("%v: scheme %v, want %s", c.args, r.Point["deadlock"], c.scheme)
		}
	}
	// The twin torus under cswitch: DORT needs bubble's internal VCs, which the
	// preset's one-VC buffers do not have: refused, saying what is accepted.
	_, _, err := run(t, "run", "twin:4x4x4", "--switch", "cswitch", "--load", "0.05", "--warmup", "100", "--cycles", "300")
	if err == nil || !strings.Contains(err.Error(), "routing dort/bubble needs 3: accepted are internal buffers of at least 3 VCs") {
		t.Errorf("twin:4x4x4 --switch cswitch: %v", err)
	}
	// min on a torus has its escape VC, which one-VC buffers cannot hold.
	_, _, err = run(t, "run", "torus:4x4", "--switch", "kns", "--routing", "min", "--load", "0.05", "--warmup", "100", "--cycles", "300")
	if err == nil || !strings.Contains(err.Error(), "routing min+escape needs 2") {
		t.Errorf("torus:4x4 --switch kns --routing min: %v", err)
	}
}

// The stationarity check from the command line: torus:8x8 under dateline VCs at twice
// its saturation, with no warm-up, drifts in its first window of 4,000 cycles and is
// measured in the next one; with one window it is reported not stationary; the flags
// are checked and do not apply to closed-loop runs.
func TestRunStationary(t *testing.T) {
	args := []string{"run", "torus:8x8", "--deadlock", "vc", "--load", "1", "--warmup", "0", "--cycles", "4000", "--seed", "3"}
	var r map[string]any
	runJSON(t, &r, append(args, "--json")...)
	s, _ := r["stationarity"].(map[string]any)
	if s == nil || s["stationary"] != true || s["windows"].(float64) != 2 || s["window_start"].(float64) != 4000 || r["cycles"].(float64) != 8000 {
		t.Errorf("stationarity %v after %v cycles; want stationary in window 2 (from cycle 4000), 8000 cycles", s, r["cycles"])
	}
	out, _, err := run(t, append(args, "--stationary-windows", "1")...)
	if err != nil || !strings.Contains(out, "stationary          NO: the accepted traffic still drifts") || !strings.Contains(out, "cycles 0 to 4000, window 1 of at most 1") {
		t.Errorf("one window: %v\n%s", err, out)
	}
	out, _, err = run(t, append(args, "--stationary-batches", "0")...)
	if err != nil || strings.Contains(out, "stationary") {
		t.Errorf("check off: %v\n%s", err, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--stationary-batches", "3"}, "3 stationary batches: accepted are 0 (no check) or 4 to 100"},
		{[]string{"--stationary-tolerance", "-1"}, "stationary tolerance -1: accepted are 0 to 1"},
		{[]string{"--stationary-windows", "0"}, "0 stationary windows: accepted are 1 (check only)"},
	} {
		if _, _, err := run(t, append(args, c.args...)...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
	if _, _, err := run(t, "run", "torus:4x4", "--workload", "bcast:binomial:64B", "--stationary-windows", "2"); err == nil || !strings.Contains(err.Error(), "--stationary-windows does not apply with --workload") {
		t.Errorf("closed loop with a stationarity flag: %v", err)
	}
}
