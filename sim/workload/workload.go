package workload

import (
	"fmt"
)

// Limits on what a workload may hold, checked before anything that size is allocated.
const (
	MaxTasks = 1 << 20 // tasks in one workload
	// MaxOps bounds the operations over all tasks, counted before a collective or a
	// proxy is expanded and while a trace is read. A run holds about OpBytes per
	// operation at its peak (programs, matching, a trace's line numbers, the run's
	// state; measured on a 1,024-task all-to-all: reading its trace peaks at 80 bytes
	// an operation, running it at 145, the collective at 155), so the limit is about
	// 5 GB; the 4,096-task all-to-all of the nDT paper's collectives (33.5 million
	// operations) fits. It was 1 << 27, 20 GB.
	MaxOps          = 1 << 25
	OpBytes         = 150     // peak memory per operation of a workload read and run
	MaxMessageBytes = 1 << 30 // bytes of one message (1 GiB)
	MaxCompute      = 1 << 40 // cycles of one compute operation
)

// OpKind is what an operation does.
type OpKind uint8

// The operations of a program.
const (
	// Send posts a message of N bytes to task Peer and continues at once
	// (non-blocking, eager: the message waits in the NIC's source queue).
	Send OpKind = iota + 1
	// Recv blocks until the next message from task Peer (in the order that task sent
	// them to this one, as MPI matches) has fully arrived.
	Recv
	// Compute keeps the task busy for N cycles.
	Compute
)

func (k OpKind) String() string {
	switch k {
	case Send:
		return "send"
	case Recv:
		return "recv"
	case Compute:
		return "compute"
	}
	return fmt.Sprintf("op(%d)", uint8(k))
}

// Op is one operation of a task's program.
type Op struct {
	Kind OpKind
	Peer int32 // Send: the destination task; Recv: the source task
	N    int64 // Send: bytes; Compute: cycles
}

func (o Op) String() string {
	switch o.Kind {
	case Send:
		return fmt.Sprintf("send %d bytes to task %d", o.N, o.Peer)
	case Recv:
		return fmt.Sprintf("recv from task %d", o.Peer)
	case Compute:
		return fmt.Sprintf("compute %d cycles", o.N)
	}
	return o.Kind.String()
}

// Workload is a set of tasks, each with an ordered program, whose every send is
// matched to a receive and every program can run to its end (Build checks both).
// It is immutable and may be shared by concurrent runs.
type Workload struct {
	name  string
	ops   []Op
	start []int32 // task t's program is ops[start[t]:start[t+1]]

	// The matching, from Build: message m is sent by op sendOp[m] of task src[m] and
	// received by op recvOp[m] of task dst[m]; msgOf is the message of every send and
	// receive op (-1 for compute).
	msgOf  []int32
	src    []int32
	dst    []int32
	bytes  []int64
	sendOp []int32
	recvOp []int32
	rounds int
}

// Name is what the workload was built as: its spec string, or the trace file's name.
func (w *Workload) Name() string { return w.name }

// Tasks is the number of tasks.
func (w *Workload) Tasks() int { return len(w.start) - 1 }

// Ops is the number of operations over all tasks.
func (w *Workload) Ops() int { return len(w.ops) }

// Program is task t's operations in order. The slice is the workload's: do not change it.
func (w *Workload) Program(t int) []Op { return w.ops[w.start[t]:w.start[t+1]] }

// Messages is the number of point-to-point messages.
func (w *Workload) Messages() int { return len(w.src) }

// Message is message m: its source and destination tasks and size in bytes. Messages
// are numbered in the order of their sends, task by task.
func (w *Workload) Message(m int) (src, dst int, bytes int64) {
	return int(w.src[m]), int(w.dst[m]), w.bytes[m]
}

// Bytes is the number of bytes over all messages.
func (w *Workload) Bytes() int64 {
	var b int64
	for _, n := range w.bytes {
		b += n
	}
	return b
}

// Rounds is the number of rounds of the one-port model: a task sends one message
// per round, in program order, and a message sent in round r can be received (and
// forwarded) from round r+1; computation takes no round. It is the classical round
// count of a collective: ⌈log₂ P⌉ for a binomial broadcast or reduce, P−1 for a ring
// allgather or a pairwise all-to-all, (P−1)+(S−1) for a pipelined chain of S segments.
func (w *Workload) Rounds() int { return w.rounds }

// Builder collects the programs of a workload task by task. Its methods record the
// first error (a task or peer out of range, a negative size) and Build returns it.
type Builder struct {
	progs [][]Op
	lines [][]int32 // per op, the line of a trace file it came from (traces only)
	ops   int
	err   error
}

// NewBuilder starts a workload of n tasks with empty programs.
func NewBuilder(n int) (*Builder, error) {
	if n < 1 || n > MaxTasks {
		return nil, fmt.Errorf("%d tasks: accepted are 1 to %d", n, MaxTasks)
	}
	return &Builder{progs: make([][]Op, n)}, nil
}

// Tasks is the number of tasks.
func (b *Builder) Tasks() int { return len(b.progs) }

// Send appends "send bytes to task dst" to task t's program.
func (b *Builder) Send(t, dst int, bytes int64) {
	b.add(t, Op{Kind: Send, Peer: peer(dst), N: bytes}, 0)
}

// Recv appends "receive the next message from task src" to task t's program.
func (b *Builder) Recv(t, src int) { b.add(t, Op{Kind: Recv, Peer: peer(src)}, 0) }

// peer narrows a task id, keeping one beyond every task out of range.
func peer(t int) int32 {
	if t < 0 || t > MaxTasks {
		return -1
	}
	return int32(t)
}

// Compute appends "compute for the given cycles" to task t's program; zero cycles add nothing.
func (b *Builder) Compute(t int, cycles int64) {
	if cycles != 0 {
		b.add(t, Op{Kind: Compute, N: cycles}, 0)
	}
}

// add appends op to task t's program, checking it; line (if not 0) is where it was read.
func (b *Builder) add(t int, op Op, line int) {
	if b.err != nil {
		return
	}
	if err := b.check(t, op); err != nil {
		b.err = err
		return
	}
	if b.ops >= MaxOps {
		b.err = fmt.Errorf("more than %d operations: accepted are at most %d over all tasks", MaxOps, MaxOps)
		return
	}
	b.progs[t] = append(b.progs[t], op)
	if line != 0 {
		if b.lines == nil {
			b.lines = make([][]int32, len(b.progs))
		}
		for len(b.lines[t]) < len(b.progs[t])-1 {
			b.lines[t] = append(b.lines[t], 0)
		}
		b.lines[t] = append(b.lines[t], int32(line))
	}
	b.ops++
}

// check says what is wrong with op for task t, if anything.
func (b *Builder) check(t int, op Op) error {
	n := len(b.progs)
	if t < 0 || t >= n {
		return fmt.Errorf("task %d: accepted are tasks 0 to %d", t, n-1)
	}
	switch op.Kind {
	case Send, Recv:
		if op.Peer < 0 || int(op.Peer) >= n {
			return fmt.Errorf("task %d: %s names task %d; accepted are tasks 0 to %d", t, op.Kind, op.Peer, n-1)
		}
		if op.Kind == Send && (op.N < 0 || op.N > MaxMessageBytes) {
			return fmt.Errorf("task %d: send of %d bytes; accepted are 0 to %d bytes", t, op.N, MaxMessageBytes)
		}
	case Compute:
		if op.N < 0 || op.N > MaxCompute {
			return fmt.Errorf("task %d: compute of %d cycles; accepted are 0 to %d", t, op.N, int64(MaxCompute))
		}
	default:
		return fmt.Errorf("task %d: unknown operation %d", t, op.Kind)
	}
	return nil
}

// Build checks the programs and returns the workload named name: every send must be
// matched by a receive (the k-th receive of task d from task s takes the k-th message
// s sends to d, as MPI matches) and every program must be able to run to its end.
// Errors name the task and operation (and the trace line, for traces).
func (b *Builder) Build(name string) (*Workload, error) {
	if b.err != nil {
		return nil, b.err
	}
	w := &Workload{name: name, start: make([]int32, len(b.progs)+1)}
	w.ops = make([]Op, 0, b.ops)
	for t, p := range b.progs {
		w.start[t] = int32(len(w.ops))
		w.ops = append(w.ops, p...)
	}
	w.start[len(b.progs)] = int32(len(w.ops))
	if err := w.match(b.where); err != nil {
		return nil, err
	}
	if err := w.checkFinishes(b.where); err != nil {
		return nil, err
	}
	b.progs, b.lines = nil, nil
	return w, nil
}

// where names op i of task t for an error: "task t op i (recv from task s)", with the
// trace line when known.
func (b *Builder) where(t, i int) string {
	s := fmt.Sprintf("task %d op %d (%s)", t, i, b.progs[t][i])
	if b.lines != nil && i < len(b.lines[t]) && b.lines[t][i] != 0 {
		s = fmt.Sprintf("line %d: %s", b.lines[t][i], s)
	}
	return s
}
