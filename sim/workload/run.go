package workload

import (
	"fmt"

	"github.com/twintorus/twintorus/internal/cycleheap"
)

// RunConfig is how a workload's bytes become the network's packets and what a
// message between two tasks of one PE costs.
type RunConfig struct {
	// FlitBytes is the bytes one flit carries (DefaultFlitBytes).
	FlitBytes int `yaml:"flit_bytes" json:"flit_bytes"`
	// PacketFlits is the packet length in flits: the engine's (4), the longest
	// packet when Unpadded.
	PacketFlits int `yaml:"-" json:"-"`
	// Unpadded is the engine's variable packet lengths: a message's last packet
	// carries just the flits that remain instead of being padded to PacketFlits.
	Unpadded bool `yaml:"-" json:"-"`
	// LocalCycles is the cost of a message between two tasks on one PE, which
	// bypasses the network: the receiver has it that many cycles after the send (0).
	LocalCycles int64 `yaml:"local_cycles" json:"local_cycles"`
}

// DefaultFlitBytes is the default flit: 16 bytes, the EXTOLL cell (the 5DT paper's
// 16-byte messages are one-cell packets). The other papers leave the flit width open.
const DefaultFlitBytes = 16

// Limits of RunConfig.
const (
	MaxFlitBytes   = 1 << 20
	MaxLocalCycles = 1 << 30
)

// Check says what is wrong with the configuration, if anything; a zero FlitBytes is
// the default.
func (c RunConfig) Check() error {
	switch {
	case c.FlitBytes < 0 || c.FlitBytes > MaxFlitBytes:
		return fmt.Errorf("flit of %d bytes: accepted are 1 to %d", c.FlitBytes, MaxFlitBytes)
	case c.PacketFlits < 1:
		return fmt.Errorf("packets of %d flits: accepted are 1 or more", c.PacketFlits)
	case c.LocalCycles < 0 || c.LocalCycles > MaxLocalCycles:
		return fmt.Errorf("local message cost %d cycles: accepted are 0 to %d", c.LocalCycles, MaxLocalCycles)
	}
	return nil
}

// Packets is the number of packets a message of the given bytes takes: its bytes
// cut into flits of FlitBytes, the flits into packets of PacketFlits, the last
// packet padded to full length unless Unpadded. An empty message still sends one
// packet of one flit, as MPI's zero-byte messages do.
func (c RunConfig) Packets(bytes int64) int64 {
	return (c.Flits(bytes) + int64(c.PacketFlits) - 1) / int64(c.PacketFlits)
}

// Flits is the number of flits a message of the given bytes puts into the network:
// its bytes cut into flits of FlitBytes (at least one), padded to whole packets of
// PacketFlits unless Unpadded.
func (c RunConfig) Flits(bytes int64) int64 {
	fb := int64(c.FlitBytes)
	if fb == 0 {
		fb = DefaultFlitBytes
	}
	flits := max(1, (bytes+fb-1)/fb)
	if c.Unpadded {
		return flits
	}
	pf := int64(c.PacketFlits)
	return (flits + pf - 1) / pf * pf
}

// RunStats is what a closed-loop run of a workload did.
type RunStats struct {
	// ExecutionCycles is the cycle at which the last task finished its program: every
	// message has been received and the network is empty (trailing computation
	// included). The run starts at cycle 0.
	ExecutionCycles int64 `json:"execution_cycles"`
	// Messages counts every message; LocalMessages those between tasks of one PE,
	// which bypass the network.
	Messages      int64 `json:"messages"`
	LocalMessages int64 `json:"local_messages"`
	Bytes         int64 `json:"bytes"`
	// Packets and Flits are what entered the network (last packets padded unless
	// RunConfig.Unpadded).
	Packets int64 `json:"packets"`
	Flits   int64 `json:"flits"`
}

// Run is one closed-loop execution of a workload: the tasks' programs on their PEs,
// advanced cycle by cycle by an engine. Nothing is generated on a timer: a task sends
// when its program reaches the send, and waits at a receive until the network (or,
// on its own PE, the local copy) has delivered the message.
//
// The engine calls Release every cycle, reports every delivered message with
// Delivered, jumps over idle cycles to Next, and stops when Done. Within a cycle, tasks
// run in the order they became ready (by task id when at once), so a run is
// deterministic.
type Run struct {
	w       *Workload
	pe      []int32
	cfg     RunConfig
	pc      []int32        // per task: its next op, as an index into w.ops
	blocked []int32        // per task: the message it waits for, or -1
	arrived []int64        // per message: the cycle it fully arrived, or -1
	wake    cycleheap.Heap // tasks by the cycle they resume
	done    int
	stats   RunStats
}

// NewRun prepares a run of w with task t on PE pe[t].
func NewRun(w *Workload, pe []int32, cfg RunConfig) (*Run, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if len(pe) != w.Tasks() {
		return nil, fmt.Errorf("a mapping of %d tasks for a workload of %d", len(pe), w.Tasks())
	}
	r := &Run{w: w, pe: pe, cfg: cfg,
		pc: make([]int32, w.Tasks()), blocked: make([]int32, w.Tasks()), arrived: make([]int64, w.Messages())}
	for t := range r.pc {
		r.pc[t] = w.start[t]
		r.blocked[t] = -1
	}
	for i := range r.arrived {
		r.arrived[i] = -1
	}
	r.wake = make(cycleheap.Heap, 0, w.Tasks())
	for t := range w.Tasks() {
		r.wake.Push(cycleheap.Item{At: 0, ID: int32(t)})
	}
	return r, nil
}

// Release runs every task that is ready at cycle now until it blocks, computes or
// ends, and calls send for each message that enters the network (PEs, flits, and
// the message's id for Delivered).
func (r *Run) Release(now int64, send func(src, dst int32, flits int64, id int32)) {
	for len(r.wake) > 0 && r.wake.Min().At <= now {
		t := r.wake.Min().ID
		r.wake.Pop()
		r.step(t, now, send)
	}
}

// step runs task t at cycle now.
func (r *Run) step(t int32, now int64, send func(src, dst int32, flits int64, id int32)) {
	w := r.w
	end := w.start[t+1]
	for r.pc[t] < end {
		i := r.pc[t]
		op := w.ops[i]
		switch op.Kind {
		case Send:
			m := w.msgOf[i]
			r.stats.Messages++
			r.stats.Bytes += op.N
			src, dst := r.pe[t], r.pe[op.Peer]
			if src == dst {
				r.stats.LocalMessages++
				r.Delivered(m, now+r.cfg.LocalCycles)
			} else {
				f := r.cfg.Flits(op.N)
				r.stats.Packets += r.cfg.Packets(op.N)
				r.stats.Flits += f
				send(src, dst, f, m)
			}
		case Recv:
			m := w.msgOf[i]
			a := r.arrived[m]
			if a < 0 {
				r.blocked[t] = m
				return
			}
			if a > now {
				r.wake.Push(cycleheap.Item{At: a, ID: t})
				return
			}
		case Compute:
			r.pc[t]++
			r.wake.Push(cycleheap.Item{At: now + op.N, ID: t})
			return
		}
		r.pc[t]++
	}
	r.done++
	r.stats.ExecutionCycles = max(r.stats.ExecutionCycles, now)
}

// Delivered records that message id has fully arrived at cycle at; a task waiting for
// it resumes then.
func (r *Run) Delivered(id int32, at int64) {
	r.arrived[id] = at
	if t := r.w.dst[id]; r.blocked[t] == id {
		r.blocked[t] = -1
		r.wake.Push(cycleheap.Item{At: at, ID: t})
	}
}

// Next is the earliest cycle at which a task resumes without waiting for the
// network (the end of a computation, a local message, a delivery reported ahead of
// its cycle), or -1 if none.
func (r *Run) Next() int64 {
	if len(r.wake) == 0 {
		return -1
	}
	return r.wake.Min().At
}

// Done reports whether every task has finished its program.
func (r *Run) Done() bool { return r.done == len(r.pc) }

// Counts is the messages sent so far, those between tasks of one PE, and their
// bytes (engine.ProgramCounts).
func (r *Run) Counts() (messages, localMessages, bytes int64) {
	return r.stats.Messages, r.stats.LocalMessages, r.stats.Bytes
}

// Stats is what the run did so far.
func (r *Run) Stats() RunStats { return r.stats }

// Blocked describes the tasks that have not finished, for a run stopped early: the
// first few with the operation each waits at.
func (r *Run) Blocked() string {
	s, n := "", 0
	for t := range r.pc {
		if r.pc[t] == r.w.start[t+1] {
			continue
		}
		if n < 3 {
			if s != "" {
				s += "; "
			}
			s += fmt.Sprintf("task %d at op %d (%s)", t, r.pc[t]-r.w.start[t], r.w.ops[r.pc[t]])
		}
		n++
	}
	if n > 3 {
		s += fmt.Sprintf("; %d more", n-3)
	}
	return s
}
