package workload

import (
	"slices"
	"strings"
	"testing"
)

const otf2Head = "twintorus-otf2-events 1\nranks 3\nclock 1000000000\ncomm 0 3 0 1 2\ncomm 5 2 2 0\n"

func readEvents(t *testing.T, s string, opt ImportOptions) (*Workload, ImportReport, error) {
	t.Helper()
	return ReadOTF2Events(strings.NewReader(s), "f", opt)
}

// Messages match per communicator, source and tag, in order; peers are translated
// from communicator ranks; computation is the time outside MPI between calls (or
// between events, when no regions are recorded), scaled.
func TestReadOTF2EventsPrograms(t *testing.T) {
	s := otf2Head +
		"0 100 enter\n0 100 send 1 0 7 10\n0 150 leave\n" + // 10 bytes to rank 1, tag 7
		"0 400 enter\n0 400 send 1 0 8 20\n0 450 leave\n" + // 20 bytes, tag 8, after 250 ns
		"1 500 recv 0 0 8 20\n1 600 recv 0 0 7 10\n" + // tag 8 first: no regions, 100 ns between
		"2 700 send 1 5 3 30\n" + // on comm 5, rank 1 is world rank 0
		"0 900 enter\n0 950 recv 0 5 3 30\n0 960 leave\n" +
		"end\n"
	w, rep, err := readEvents(t, s, ImportOptions{ComputeScale: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]Op{
		{{Send, 1, 10}, {Compute, 0, 500}, {Send, 1, 20}, {Compute, 0, 900}, {Recv, 2, 0}},
		{{Recv, 0, 0}, {Compute, 0, 200}, {Recv, 0, 0}},
		{{Send, 0, 30}},
	}
	for r := range 3 {
		if !slices.Equal(w.Program(r), want[r]) {
			t.Errorf("rank %d: %v, want %v", r, w.Program(r), want[r])
		}
	}
	if rep.Messages != 3 || rep.Bytes != 60 || rep.ComputeCycles != 1600 || rep.UnmatchedSends+rep.UnmatchedRecvs+rep.SizeMismatches != 0 {
		t.Errorf("report %+v", rep)
	}
	// Unmatched: a send never received and a receive of no send are left out, counted.
	s = otf2Head + "0 1 send 1 0 1 5\n0 2 send 1 0 2 6\n1 3 recv 0 0 1 5\n2 4 recv 0 0 9 1\nunknown RmaPut 4\nignored Metric 2\nend\n"
	w, rep, err = readEvents(t, s, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if w.Messages() != 1 || rep.UnmatchedSends != 1 || rep.UnmatchedRecvs != 1 || rep.Unsupported["RmaPut"] != 4 || rep.Ignored["Metric"] != 2 {
		t.Errorf("%d messages, report %+v", w.Messages(), rep)
	}
}

// Collectives on a sub-communicator are expanded over its ranks and mapped to world
// ranks, kept (Open MPI's algorithm) or as messages (the linear algorithm); sizes come
// from the calls.
func TestReadOTF2EventsCollectives(t *testing.T) {
	s := otf2Head +
		// A broadcast of 64 bytes from comm 5's rank 0 (world rank 2) to its rank 1 (world 0).
		"2 10 coll bcast 5 0 64 0\n0 20 coll bcast 5 0 0 64\n" +
		// An all-to-all over the world, 8 bytes a block; a scan, not replayed.
		"0 30 coll alltoall 0 -1 24 24\n1 30 coll alltoall 0 -1 24 24\n2 30 coll alltoall 0 -1 24 24\n" +
		"0 40 coll scan 0 -1 8 8\n1 40 coll scan 0 -1 8 8\n2 40 coll scan 0 -1 8 8\nend\n"
	for _, mode := range []string{"keep", "messages"} {
		w, rep, err := readEvents(t, s, ImportOptions{Collectives: mode})
		if err != nil {
			t.Fatal(err)
		}
		if got := w.Program(2)[0]; got != (Op{Send, 0, 64}) {
			t.Errorf("%s: rank 2 starts with %v, want the broadcast's send of 64 bytes to rank 0", mode, got)
		}
		if w.Messages() != 1+6 || w.Bytes() != 64+6*8 || rep.Collectives["bcast"] != 1 || rep.Collectives["alltoall"] != 1 || rep.Unsupported["collective scan"] != 1 {
			t.Errorf("%s: %d messages, %d bytes, report %+v", mode, w.Messages(), w.Bytes(), rep)
		}
	}
	// The members of a communicator must make the same calls.
	for _, c := range []struct{ s, want string }{
		{otf2Head + "2 10 coll bcast 5 0 64 0\nend\n", "rank 0 never makes it"},
		{otf2Head + "2 10 coll bcast 5 0 64 0\n0 20 coll reduce 5 0 0 64\nend\n", "is bcast on rank 2 and reduce on rank 0"},
		{otf2Head + "2 10 coll bcast 5 3 64 0\n0 20 coll bcast 5 3 0 64\nend\n", "root 3 of 2 ranks"},
	} {
		if _, _, err := readEvents(t, c.s, ImportOptions{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v; want %q", c.s, err, c.want)
		}
	}
}

// Bad streams give one-line errors naming the stream and the line.
func TestReadOTF2EventsBadInput(t *testing.T) {
	for _, c := range []struct{ s, want string }{
		{"", "empty"},
		{"hello\n", "not an OTF2 event stream"},
		{"twintorus-otf2-events 1\nranks 0\n", "line 2: the number of ranks \"0\""},
		{"twintorus-otf2-events 1\nranks 2\nclock 1\n0 1 send 1 0 0 1\n", "line 4: communicator 0 is not defined"},
		{otf2Head + "0 1 send 9 0 0 1\n", "with rank 9 of communicator 0, which has 3 ranks"},
		{otf2Head + "1 1 send 0 5 0 1\n", "rank 1 uses communicator 5, which it is not a member of"},
		{otf2Head + "0 1 fly 1\n", "unknown event \"fly\""},
		{otf2Head + "0 1 send 1 0 0\n", "send takes 4 fields"},
		{otf2Head + "0 1 send 1 0 0 2000000000\n", "the size \"2000000000\""},
		{otf2Head + "0 1 leave\n", "leaves a region it did not enter"},
		{otf2Head + "comm 0 1 0\n", "communicator 0 defined twice"},
		{otf2Head + "comm 1 2 0 0\n", "lists rank 0 twice"},
		{otf2Head + "0 1 send 1 0 0 1\n", "without 'end'"},
		{otf2Head + "end\n0 1 send 1 0 0 1\n", "after 'end'"},
		{otf2Head + "0 1 send 1 0 0 1\nend\n", ""}, // unmatched, reported: no error
	} {
		_, _, err := readEvents(t, c.s, ImportOptions{})
		if c.want == "" {
			if err != nil {
				t.Errorf("%q: %v", c.s, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "OTF2 events f: ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v; want one line containing %q", c.s, err, c.want)
		}
	}
	if _, _, err := readEvents(t, otf2Head+"end\n", ImportOptions{Collectives: "drop"}); err == nil || !strings.Contains(err.Error(), "keep and messages") {
		t.Errorf("collectives drop: %v", err)
	}
}
