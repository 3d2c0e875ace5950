package workload

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func FuzzParseSpec(f *testing.F) {
	for _, s := range append(Algorithms(), "bcast:binomial:512B", "bcast:pipeline:4KiB:seg=1KiB", "bcast:chain:16B:chains=2,root=3,tasks=8",
		"allreduce:reduce_bcast:8B", "graph500:tasks=16,levels=2", "namd:stencil=26,tasks=8", "randomaccess:seed=3,tasks=5",
		"ptrans:tasks=12,blocks=5", "trace:x.trace", "trace:", ":", "bcast::16B", "bcast:binomial:16B:", "graph500:tasks=", "GRAPH500:TASKS=4",
		"bcast:binomial:1GiB", "bcast:binomial:16B:seg=1B,tasks=64", "alltoall:pairwise:0B:tasks=3") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		s, err := ParseSpec(spec)
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, fmt.Sprintf("workload %q: ", spec)) {
				t.Fatalf("error is not one line naming the spec: %q", msg)
			}
			return
		}
		back, err := ParseSpec(s.String())
		if err != nil || back.String() != s.String() {
			t.Fatalf("%q prints as %q, which reads %q, %v", spec, s.String(), back.String(), err)
		}
		if s.Trace != "" {
			return // reading files is FuzzReadTrace's
		}
		// Build small instances only: the fuzzer must not ask for a huge workload.
		if s.Tasks > 24 || s.Collective.Bytes > 1<<16 || (s.Collective.Segment > 0 && s.Collective.Bytes/s.Collective.Segment > 64) {
			return
		}
		for k, v := range s.Params {
			if v > 64 && k != "seed" && k != "block" && k != "bytes" && k != "flag" && k != "compute" {
				return
			}
		}
		w, err := s.Build(5)
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") {
				t.Fatalf("build error is not one line: %q", msg)
			}
			return
		}
		if w.Tasks() < 1 || w.Rounds() < 0 || w.Messages() < 0 {
			t.Fatalf("%q: %d tasks, %d rounds", spec, w.Tasks(), w.Rounds())
		}
	})
}

func FuzzReadTrace(f *testing.F) {
	f.Add([]byte("twintorus-trace 1\ntasks 2\n0 send 1 512\n1 recv 0\n1 compute 5\n"))
	f.Add([]byte("twintorus-trace 1\nname x\ntasks 3\n0 recv 2\n2 send 0 0 # c\n"))
	f.Add([]byte("twintorus-trace 1\ntasks 2\n0 recv 1\n0 send 1 8\n1 recv 0\n1 send 0 8\n"))
	f.Add([]byte("twintorus-trace 1\ntasks 1\n"))
	f.Add([]byte("hello"))
	var z bytes.Buffer
	w, _ := buildOne("alltoall:linear:64B:tasks=3")
	WriteTrace(&z, w, true)
	f.Add(z.Bytes())
	f.Add(z.Bytes()[:z.Len()/2])
	f.Add([]byte("twintorus-trace 1\n  3 recv 1\r\n#0 send 1 2\n\t7 compute 9 # x\ntasks 8\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// The count ReadTraceFile refuses by first bounds what reads: it never stops a
		// trace the reader would take (limit far above the input's lines).
		n, cerr := countOps(bytes.NewReader(data), 1<<20)
		w, err := ReadTrace(bytes.NewReader(data), "f")
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "trace f: ") {
				t.Fatalf("error is not one line naming the file: %q", msg)
			}
			return
		}
		if cerr != nil || n < int64(w.Ops()) {
			t.Fatalf("counted %d operations (%v) in a trace of %d", n, cerr, w.Ops())
		}
		var out bytes.Buffer
		if err := WriteTrace(&out, w, false); err != nil {
			t.Fatal(err)
		}
		back, err := ReadTrace(&out, "g")
		if err != nil || !sameWorkload(w, back) {
			t.Fatalf("a trace that read does not read back after writing: %v", err)
		}
	})
}

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"16B", "512B", "4KiB", "1GiB", "0B", "-1B", "4KB", "1.5KiB", "9223372036854775807B", "B", " 3 MiB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseSize(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
			return
		}
		if v < 0 || v > MaxMessageBytes {
			t.Fatalf("%q reads as %d", s, v)
		}
		if back, err := ParseSize(FormatSize(v)); err != nil || back != v {
			t.Fatalf("%q = %d prints as %q, which reads %d, %v", s, v, FormatSize(v), back, err)
		}
	})
}

func FuzzParseMapping(f *testing.F) {
	for _, s := range []string{"linear", "random", "random/2", "LINEAR/4", "random/0", "cyclic", "random/", "/2", "random/1024", "random/1025"} {
		f.Add(s, uint16(64), uint16(100))
	}
	f.Fuzz(func(t *testing.T, s string, pes, tasks uint16) {
		m, err := ParseMapping(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
			return
		}
		if back, err := ParseMapping(m.String()); err != nil || back != m {
			t.Fatalf("%q prints as %q, which reads %v, %v", s, m.String(), back, err)
		}
		if pes == 0 {
			return
		}
		pe, err := m.Place(int(tasks), int(pes), 1)
		if err != nil {
			return
		}
		count := make(map[int32]int)
		for _, p := range pe {
			if p < 0 || int(p) >= int(pes) {
				t.Fatalf("task on PE %d of %d", p, pes)
			}
			if count[p]++; count[p] > m.TasksPerPE {
				t.Fatalf("PE %d holds more than %d tasks", p, m.TasksPerPE)
			}
		}
	})
}

func buildOne(spec string) (*Workload, error) {
	s, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	return s.Build(0)
}

// FuzzReadOTF2Events: the OTF2 converter's event stream never panics the importer; an
// error is one line naming the stream; what reads is a workload that runs to its end.
func FuzzReadOTF2Events(f *testing.F) {
	f.Add([]byte(otf2Head + "0 100 enter\n0 100 send 1 0 7 10\n0 150 leave\n1 500 recv 0 0 7 10\nend\n"))
	f.Add([]byte(otf2Head + "2 10 coll bcast 5 0 64 0\n0 20 coll bcast 5 0 0 64\n0 30 coll alltoall 0 -1 24 24\n1 30 coll alltoall 0 -1 24 24\n2 30 coll alltoall 0 -1 24 24\nend\n"))
	f.Add([]byte(otf2Head + "2 700 send 1 5 3 30\n0 950 recv 0 5 3 30\nunknown RmaPut 4\nignored Metric 2\nend\n"))
	f.Add([]byte(otf2Head + "0 1 coll barrier 0 -1 0 0\n1 1 coll barrier 0 -1 0 0\n2 1 coll barrier 0 -1 0 0\n0 2 coll allreduce 0 -1 8 8\n1 2 coll allreduce 0 -1 8 8\n2 2 coll allreduce 0 -1 8 8\nend\n"))
	f.Add([]byte("twintorus-otf2-events 1\nranks 2\nclock 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// Small streams of few ranks: a stream may name a million ranks, or a
		// collective of a thousand, which the importer takes, slowly.
		if len(data) > 4096 {
			return
		}
		for _, l := range strings.Split(string(data), "\n") {
			if f := strings.Fields(l); len(f) == 2 && f[0] == "ranks" && len(f[1]) > 2 {
				return
			}
		}
		for _, mode := range []string{"keep", "messages"} {
			w, _, err := ReadOTF2Events(bytes.NewReader(data), "f", ImportOptions{ComputeScale: 0.5, Collectives: mode})
			if err != nil {
				if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "OTF2 events f: ") {
					t.Fatalf("error is not one line naming the stream: %q", msg)
				}
				continue
			}
			if w.Tasks() < 1 {
				t.Fatalf("a workload of %d tasks", w.Tasks())
			}
		}
	})
}
