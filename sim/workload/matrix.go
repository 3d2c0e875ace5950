package workload

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// MaxMatrixTasks bounds the tasks of a source×destination matrix (its cells grow as
// the square).
const MaxMatrixTasks = 8192

// Matrix is the traffic between every ordered pair of tasks: messages and bytes, row
// by source, column by destination (the papers' Fig. 10 plots the message counts).
type Matrix struct {
	Tasks    int
	Messages []int64 // Messages[s*Tasks+d]
	Bytes    []int64
}

// Matrix counts the messages and bytes from every task to every task.
func (w *Workload) Matrix() (Matrix, error) {
	n := w.Tasks()
	if n > MaxMatrixTasks {
		return Matrix{}, fmt.Errorf("a matrix of %d tasks has %d cells: accepted are up to %d tasks", n, n*n, MaxMatrixTasks)
	}
	m := Matrix{Tasks: n, Messages: make([]int64, n*n), Bytes: make([]int64, n*n)}
	for i := range w.src {
		c := int(w.src[i])*n + int(w.dst[i])
		m.Messages[c]++
		m.Bytes[c] += w.bytes[i]
	}
	return m, nil
}

// At is the messages and bytes from task s to task d.
func (m Matrix) At(s, d int) (messages, bytes int64) {
	return m.Messages[s*m.Tasks+d], m.Bytes[s*m.Tasks+d]
}

// WriteCSV writes the matrix of message counts (or of bytes) as CSV: a header row
// "src,0,1,…" of destinations, then one row per source task.
func (m Matrix) WriteCSV(out io.Writer, bytes bool) error {
	bw := bufio.NewWriter(out)
	cells := m.Messages
	if bytes {
		cells = m.Bytes
	}
	bw.WriteString("src")
	for d := range m.Tasks {
		bw.WriteByte(',')
		bw.WriteString(strconv.Itoa(d))
	}
	bw.WriteByte('\n')
	var buf []byte
	for s := range m.Tasks {
		buf = strconv.AppendInt(buf[:0], int64(s), 10)
		for d := range m.Tasks {
			buf = append(buf, ',')
			buf = strconv.AppendInt(buf, cells[s*m.Tasks+d], 10)
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	return bw.Flush()
}

// Summary describes a workload in numbers.
type Summary struct {
	Name     string `json:"name"`
	Tasks    int    `json:"tasks"`
	Ops      int    `json:"ops"`
	Messages int    `json:"messages"`
	Bytes    int64  `json:"bytes"`
	Rounds   int    `json:"rounds"`
	// Pairs is the number of ordered task pairs that exchange at least one message.
	Pairs int `json:"pairs"`
	// MaxSent and MaxReceived are the most bytes one task sends and receives.
	MaxSent     int64 `json:"max_sent"`
	MaxReceived int64 `json:"max_received"`
	// ComputeCycles is the largest total of compute cycles of one task.
	ComputeCycles int64 `json:"compute_cycles"`
}

// Summarize counts what the workload holds.
func (w *Workload) Summarize() Summary {
	s := Summary{Name: w.name, Tasks: w.Tasks(), Ops: w.Ops(), Messages: w.Messages(), Bytes: w.Bytes(), Rounds: w.rounds}
	sent := make([]int64, w.Tasks())
	recv := make([]int64, w.Tasks())
	pairs := make(map[uint64]struct{})
	for i := range w.src {
		sent[w.src[i]] += w.bytes[i]
		recv[w.dst[i]] += w.bytes[i]
		pairs[uint64(w.src[i])<<32|uint64(w.dst[i])] = struct{}{}
	}
	s.Pairs = len(pairs)
	for t := range w.Tasks() {
		s.MaxSent = max(s.MaxSent, sent[t])
		s.MaxReceived = max(s.MaxReceived, recv[t])
		var c int64
		for _, op := range w.Program(t) {
			if op.Kind == Compute {
				c += op.N
			}
		}
		s.ComputeCycles = max(s.ComputeCycles, c)
	}
	return s
}
