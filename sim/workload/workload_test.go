package workload

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// MPI matching: the k-th receive of d from s takes the k-th message s sends to d,
// whatever else happens in between.
func TestMatching(t *testing.T) {
	b, _ := NewBuilder(3)
	b.Send(0, 1, 10) // message 0
	b.Send(0, 2, 20) // message 1
	b.Send(0, 1, 30) // message 2
	b.Recv(1, 0)     // takes message 0
	b.Send(1, 0, 5)  // message 3
	b.Recv(1, 0)     // takes message 2
	b.Recv(2, 0)     // takes message 1
	b.Recv(0, 1)
	w, err := b.Build("m")
	if err != nil {
		t.Fatal(err)
	}
	if w.Messages() != 4 || w.Bytes() != 65 {
		t.Fatalf("%d messages, %d bytes", w.Messages(), w.Bytes())
	}
	for op, want := range map[[2]int]int32{{1, 0}: 0, {1, 2}: 2, {2, 0}: 1, {0, 3}: 3} {
		i := w.start[op[0]] + int32(op[1])
		if got := w.msgOf[i]; got != want {
			t.Errorf("task %d op %d takes message %d, want %d", op[0], op[1], got, want)
		}
	}
}

// MPI matching on random programs, against a direct count: every task sends
// messages to random peers (repeating pairs), then receives what it is owed in a
// random order of sources; each receive must take the next message of its pair in send
// order. Dropping one send, or one receive, is refused naming the right operation.
func TestMatchingRandomPrograms(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	for trial := range 50 {
		n := 1 + rng.IntN(12)
		type pair struct{ s, d int }
		var sends []pair // in send order, task by task
		for s := range n {
			for range rng.IntN(20) {
				sends = append(sends, pair{s, rng.IntN(n)})
			}
		}
		owed := make([][]int, n) // per destination, its sources (one entry per message)
		for _, p := range sends {
			owed[p.d] = append(owed[p.d], p.s)
		}
		for d := range owed {
			rng.Shuffle(len(owed[d]), func(i, j int) { owed[d][i], owed[d][j] = owed[d][j], owed[d][i] })
		}
		build := func(skipSend, skipRecv int) (*Workload, error) {
			b, _ := NewBuilder(n)
			k := 0
			for s := range n {
				for ; k < len(sends) && sends[k].s == s; k++ {
					if k != skipSend {
						b.Send(s, sends[k].d, int64(k))
					}
				}
			}
			r := 0
			for d := range n {
				for _, s := range owed[d] {
					if r != skipRecv {
						b.Recv(d, s)
					}
					r++
				}
			}
			return b.Build("random")
		}
		w, err := build(-1, -1)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		next := map[pair][]int{} // the messages of each pair, in send order
		for m, p := range sends {
			next[p] = append(next[p], m)
		}
		for d := range n {
			for i, op := range w.Program(d) {
				if op.Kind != Recv {
					continue
				}
				p := pair{int(op.Peer), d}
				want := next[p][0]
				next[p] = next[p][1:]
				m := w.msgOf[w.start[d]+int32(i)]
				if src, dst, bytes := w.Message(int(m)); src != p.s || dst != d || bytes != int64(want) {
					t.Fatalf("trial %d: task %d op %d takes message %d (%d→%d, sent as number %d), want number %d",
						trial, d, i, m, src, dst, bytes, want)
				}
			}
		}
		if len(sends) == 0 {
			continue
		}
		if _, err := build(rng.IntN(len(sends)), -1); err == nil || !strings.Contains(err.Error(), "has no matching send") {
			t.Errorf("trial %d: a send dropped: %v", trial, err)
		}
		if _, err := build(-1, rng.IntN(len(sends))); err == nil || !strings.Contains(err.Error(), "is never received") {
			t.Errorf("trial %d: a receive dropped: %v", trial, err)
		}
	}
}

// A program that can never finish is refused before anything runs, naming the task
// and the operation.
func TestProgramsThatCannotFinish(t *testing.T) {
	cases := []struct {
		name  string
		build func(b *Builder)
		want  string
	}{
		{"recv without send", func(b *Builder) { b.Send(0, 1, 8); b.Recv(1, 0); b.Recv(1, 0) },
			"task 1 op 1 (recv from task 0) has no matching send: task 0 sends 1 message(s) to task 1 and this is receive 2 from it"},
		{"send never received", func(b *Builder) { b.Send(2, 0, 8) },
			"task 2 op 0 (send 8 bytes to task 0) is never received"},
		{"receive before send, both", func(b *Builder) { b.Recv(0, 1); b.Send(0, 1, 8); b.Recv(1, 0); b.Send(1, 0, 8) },
			"the programs can never finish: task 0 op 0 (recv from task 1) waits for task 1, blocked at task 1 op 0 (recv from task 0), which waits for task 0: a cycle"},
		{"a longer cycle", func(b *Builder) {
			b.Recv(0, 2)
			b.Send(0, 1, 1)
			b.Recv(1, 0)
			b.Send(1, 2, 1)
			b.Recv(2, 1)
			b.Send(2, 0, 1)
		}, "task 0 op 0 (recv from task 2) waits for task 2, blocked at task 2 op 0 (recv from task 1), which waits for task 1, blocked at task 1 op 0 (recv from task 0), which waits for task 0: a cycle"},
		{"peer out of range", func(b *Builder) { b.Send(0, 3, 8) }, "task 0: send names task 3; accepted are tasks 0 to 2"},
		{"negative size", func(b *Builder) { b.Send(0, 1, -5) }, "task 0: send of -5 bytes"},
		{"negative compute", func(b *Builder) { b.Compute(1, -5) }, "compute of -5 cycles"},
	}
	for _, c := range cases {
		b, _ := NewBuilder(3)
		c.build(b)
		_, err := b.Build(c.name)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v\nwant one line containing %q", c.name, err, c.want)
		}
	}
	// Sends are non-blocking: both sending first is fine.
	b, _ := NewBuilder(2)
	b.Send(0, 1, 8)
	b.Recv(0, 1)
	b.Send(1, 0, 8)
	b.Recv(1, 0)
	if _, err := b.Build("exchange"); err != nil {
		t.Error(err)
	}
	if _, err := NewBuilder(0); err == nil || !strings.Contains(err.Error(), "0 tasks") {
		t.Errorf("zero tasks: %v", err)
	}
}

func TestPackets(t *testing.T) {
	c := RunConfig{FlitBytes: 16, PacketFlits: 4}
	for bytes, want := range map[int64]int64{0: 1, 1: 1, 16: 1, 64: 1, 65: 2, 512: 8, 4096: 64} {
		if got := c.Packets(bytes); got != want {
			t.Errorf("%d bytes in 16-byte flits, 4-flit packets: %d packets, want %d", bytes, got, want)
		}
	}
	c = RunConfig{FlitBytes: 16, PacketFlits: 32} // the EXTOLL paper's 32-cell packet
	if c.Packets(512) != 1 || c.Packets(16) != 1 || c.Packets(513) != 2 {
		t.Errorf("32-cell packets: 512 B in %d, 16 B in %d, 513 B in %d", c.Packets(512), c.Packets(16), c.Packets(513))
	}
}

func TestSizes(t *testing.T) {
	for s, want := range map[string]int64{"16B": 16, "512B": 512, "4KiB": 4096, " 2 MiB ": 2 << 20, "0B": 0, "1GiB": 1 << 30} {
		got, err := ParseSize(s)
		if err != nil || got != want {
			t.Errorf("%q: %d, %v; want %d", s, got, err, want)
		}
		if back, err := ParseSize(FormatSize(got)); err != nil || back != got {
			t.Errorf("%q prints as %q, which reads %d, %v", s, FormatSize(got), back, err)
		}
	}
	for _, s := range []string{"512", "4KB", "4kB", "-16B", "16", "B", "1.5KiB", "2GiB", "+4B", "4 KiB B", "0x10B"} {
		if _, err := ParseSize(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
	if FormatSize(1536) != "1536B" || FormatSize(4096) != "4KiB" {
		t.Errorf("FormatSize: %s, %s", FormatSize(1536), FormatSize(4096))
	}
}
