package experiment

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/twintorus/twintorus/internal/userfile"
	"github.com/twintorus/twintorus/sim/engine"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/workload"
)

// Closed-loop points. A Point whose Workload is set runs that workload (a collective,
// a trace, an application proxy) to its end instead of open-loop traffic: Traffic,
// Sizes, Load, Warmup and Measure are not used, the whole run is measured, and the
// result's Closed part holds the execution time. The workload's tasks are placed by
// Mapping, a random mapping drawn from the point's seed, so replications differ in
// their mapping as the papers' 30 random mappings do.

// ClosedLoop reports whether the point runs a closed-loop workload.
func (p Point) ClosedLoop() bool { return p.Workload != "" }

// engineParams are the engine parameters the point runs with: a closed-loop point has
// no load and measures its whole run (the engine's own rule), whatever it holds.
func (p Point) engineParams() engine.Params {
	q := p.Params
	if p.ClosedLoop() {
		q.Load, q.Warmup, q.Measure = 0, 0, 1
		q = q.StationaryOff() // run to the end: no window to check
	}
	return q
}

// workloadSpec reads the point's workload and mapping, and checks that a trace is
// the one the point was made with.
func (p Point) workloadSpec() (workload.Spec, workload.Mapping, error) {
	spec, err := workload.ParseSpec(p.Workload)
	if err != nil {
		return spec, workload.Mapping{}, err
	}
	m := workload.Mapping{}
	if p.Mapping != "" {
		if m, err = workload.ParseMapping(p.Mapping); err != nil {
			return spec, m, err
		}
	}
	if spec.Trace != "" && p.TraceSHA256 != "" {
		sum, err := FileSHA256(spec.TraceFile())
		if err != nil {
			return spec, m, fmt.Errorf("workload %s: %w", spec, err)
		}
		if sum != p.TraceSHA256 {
			return spec, m, fmt.Errorf("workload %s: the trace file changed since the point was made (SHA-256 %.12s…, was %.12s…)", spec, sum, p.TraceSHA256)
		}
	}
	return spec, m, nil
}

// program builds the point's workload on a network, its tasks placed on the PEs.
func (p Point) program(net *topology.Network) (*workload.Run, error) {
	spec, m, err := p.workloadSpec()
	if err != nil {
		return nil, err
	}
	w, err := spec.Build(net.Terminals() * max(m.TasksPerPE, 1))
	if err != nil {
		return nil, err
	}
	pe, err := m.Place(w.Tasks(), net.Terminals(), p.Seed)
	if err != nil {
		return nil, fmt.Errorf("workload %s: %w", spec, err)
	}
	return workload.NewRun(w, pe, workload.RunConfig{FlitBytes: p.FlitBytes, PacketFlits: p.PacketFlits,
		Unpadded: p.PacketLengths != engine.LengthsFixed, LocalCycles: p.LocalCycles})
}

// checkProgram checks what program would refuse without building a collective's
// programs (workload.Spec.Check).
func (p Point) checkProgram(net *topology.Network) error {
	spec, m, err := p.workloadSpec()
	if err != nil {
		return err
	}
	tasks, err := spec.Check(net.Terminals() * max(m.TasksPerPE, 1))
	if err != nil {
		return err
	}
	if _, err := m.Place(tasks, net.Terminals(), p.Seed); err != nil {
		return fmt.Errorf("workload %s: %w", spec, err)
	}
	return workload.RunConfig{FlitBytes: p.FlitBytes, PacketFlits: max(p.PacketFlits, 1), LocalCycles: p.LocalCycles}.Check()
}

// closedConfig is the engine configuration of a closed-loop point.
func (p Point) closedConfig(cfg engine.Config) (engine.Config, error) {
	r, err := p.program(cfg.Net)
	if err != nil {
		return cfg, err
	}
	cfg.Program, cfg.Pattern = r, nil
	return cfg, nil
}

// FileSHA256 is the SHA-256 of a file's content, in hex: the identity of a trace in a
// record key, so that a changed trace is a new point.
func FileSHA256(path string) (string, error) {
	f, err := userfile.Open(path) // a named pipe's open would wait for a writer
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// closedAxis is one workload and mapping of a closed-loop spec, canonical, with the
// trace's content hash for a trace.
type closedAxis struct{ workload, mapping, trace string }

// closedAxes checks the workload and mapping axes and returns their product,
// workloads varying slowest.
func (s Spec) closedAxes() ([]closedAxis, error) {
	var works, traces []string
	for i, w := range s.Workload {
		ws, err := workload.ParseSpec(w)
		if err != nil {
			return nil, s.errAt(item("workload", i), err)
		}
		if slices.Contains(works, ws.String()) {
			return nil, s.errAt(item("workload", i), fmt.Errorf("%s is listed twice", ws))
		}
		sum := ""
		if ws.Trace != "" {
			if sum, err = FileSHA256(ws.TraceFile()); err != nil {
				return nil, s.errAt(item("workload", i), fmt.Errorf("trace: %w", err))
			}
		}
		works, traces = append(works, ws.String()), append(traces, sum)
	}
	var maps []string
	for i, m := range s.Mapping {
		v, err := workload.ParseMapping(m)
		if err != nil {
			return nil, s.errAt(item("mapping", i), err)
		}
		if slices.Contains(maps, v.String()) {
			return nil, s.errAt(item("mapping", i), fmt.Errorf("%s is listed twice", v))
		}
		maps = append(maps, v.String())
	}
	var out []closedAxis
	for i, w := range works {
		for _, m := range maps {
			out = append(out, closedAxis{workload: w, mapping: m, trace: traces[i]})
		}
	}
	return out, nil
}

var errClosedOnly = errors.New("does not apply to a closed-loop spec (workload:): each workload runs to its end, measured whole")

// checkClosedScalars checks what a closed-loop spec sets besides its axes: no
// traffic, sizes or loads, and a flit size and local cost in range.
func (s Spec) checkClosedScalars() error {
	for _, k := range []string{"traffic", "sizes", "loads", "past_saturation"} {
		if s.has(k) {
			return s.errAt(k, errClosedOnly)
		}
	}
	c := workload.RunConfig{FlitBytes: s.FlitBytes, PacketFlits: 1, LocalCycles: s.LocalCycles}
	if err := c.Check(); err != nil {
		key := "flit_bytes"
		if s.LocalCycles != 0 && (s.LocalCycles < 0 || s.LocalCycles > workload.MaxLocalCycles) {
			key = "local_cycles"
		}
		return s.errAt(key, err)
	}
	return nil
}
