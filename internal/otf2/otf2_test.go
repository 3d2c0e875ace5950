package otf2

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/workload"
)

// need skips the test when a command it runs is missing, unless
// TWINTORUS_OTF2_REQUIRED=1 (make test sets it: its set-up installs them), where it fails.
func need(t *testing.T, cmds ...string) {
	t.Helper()
	for _, c := range cmds {
		p := c
		if c == "python3-otf2" {
			py, err := python()
			if err == nil && exec.Command(py, "-c", "import otf2").Run() == nil {
				continue
			}
		} else if _, err := exec.LookPath(p); err == nil {
			continue
		}
		if os.Getenv("TWINTORUS_OTF2_REQUIRED") == "1" {
			t.Fatalf("%s is missing (scripts/setup.sh installs it)", c)
		}
		t.Skipf("%s is missing; scripts/setup.sh installs it", c)
	}
}

// expectedBcast is rank r's part of a collective over p ranks, as the workload
// package expands it, appended to b's task t with rank i mapped to members[i].
func appendCollective(t *testing.T, b *workload.Builder, task int, c workload.Collective, p, r int, members []int) {
	t.Helper()
	cb, _ := workload.NewBuilder(p)
	if err := c.AppendTo(cb); err != nil {
		t.Fatal(err)
	}
	w, err := cb.Build("c")
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range w.Program(r) {
		switch op.Kind {
		case workload.Send:
			b.Send(task, members[op.Peer], op.N)
		case workload.Recv:
			b.Recv(task, members[op.Peer])
		case workload.Compute:
			b.Compute(task, op.N)
		}
	}
}

// An archive written by python3-otf2 (testdata/write_archive.py, not our recorder)
// imports to exactly the programs it describes: messages out of tag order and on a
// sub-communicator matched, computation between MPI calls (user regions included) at
// one cycle per nanosecond, the broadcast kept as Open MPI's binomial broadcast or
// written as the root's three messages, and the OpenMP record reported.
func TestImportPythonArchive(t *testing.T) {
	need(t, "python3-otf2")
	py, _ := python()
	dir := t.TempDir()
	if out, err := exec.Command(py, "testdata/write_archive.py", dir).CombinedOutput(); err != nil {
		t.Fatalf("write_archive.py: %v\n%s", err, out)
	}
	ctx := context.Background()
	w, rep, err := Import(ctx, dir, "py", workload.ImportOptions{ComputeScale: 1, Collectives: "keep"})
	if err != nil {
		t.Fatal(err)
	}
	bcast := workload.Collective{Op: "bcast", Algorithm: "binomial", Bytes: 64}
	world := []int{0, 1, 2, 3}
	b, _ := workload.NewBuilder(4)
	b.Send(0, 1, 100)
	b.Compute(0, 1000)
	b.Send(0, 1, 200)
	b.Compute(0, 800)
	appendCollective(t, b, 0, bcast, 4, 0, world)
	b.Recv(1, 0)
	b.Compute(1, 100)
	b.Recv(1, 0)
	b.Compute(1, 1200)
	appendCollective(t, b, 1, bcast, 4, 1, world)
	b.Send(2, 3, 4096)
	b.Compute(2, 1900)
	appendCollective(t, b, 2, bcast, 4, 2, world)
	b.Compute(3, 1950)
	appendCollective(t, b, 3, bcast, 4, 3, world)
	b.Compute(3, 850)
	b.Recv(3, 2)
	want, err := b.Build("want")
	if err != nil {
		t.Fatal(err)
	}
	for r := range 4 {
		if !slices.Equal(w.Program(r), want.Program(r)) {
			t.Errorf("rank %d: program\n%v\nwant\n%v", r, w.Program(r), want.Program(r))
		}
	}
	if rep.Messages != 3 || rep.Bytes != 4396 || rep.Collectives["bcast"] != 1 || rep.CollectiveMessages != 3 || rep.CollectiveBytes != 192 {
		t.Errorf("report %+v: want 3 messages of 4396 bytes, one broadcast of 3 messages and 192 bytes", rep)
	}
	if rep.Unsupported["ThreadFork"] != 1 || len(rep.Unsupported) != 1 || rep.Ignored["MpiCollectiveBegin"] != 4 || rep.Ignored["MpiIsendComplete"] != 1 {
		t.Errorf("unsupported %v, ignored %v: want ThreadFork 1 only; MpiCollectiveBegin 4, MpiIsendComplete 1", rep.Unsupported, rep.Ignored)
	}
	if rep.ComputeCycles != 1000+800+100+1200+1900+1950+850 || rep.UnmatchedSends+rep.UnmatchedRecvs+rep.SizeMismatches != 0 {
		t.Errorf("report %+v", rep)
	}

	// As messages, without computation: the root sends 64 bytes to each other rank;
	// read from a gzip-compressed tar file, as the datasets store archives.
	tgz := filepath.Join(t.TempDir(), "py.tar.gz")
	if out, err := exec.Command("tar", "czf", tgz, "-C", dir, ".").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	w, _, err = Import(ctx, tgz, "py", workload.ImportOptions{Collectives: "messages"})
	if err != nil {
		t.Fatal(err)
	}
	if w.Messages() != 6 || w.Bytes() != 4396+3*64 {
		t.Errorf("as messages: %d messages, %d bytes; want 6 and %d", w.Messages(), w.Bytes(), 4396+3*64)
	}
	for r := range 4 {
		for _, op := range w.Program(r) {
			if op.Kind == workload.Compute {
				t.Errorf("rank %d computes with no computation asked: %v", r, w.Program(r))
			}
		}
	}
	if got := w.Program(0)[2:]; !slices.Equal(got, []workload.Op{{Kind: workload.Send, Peer: 1, N: 64}, {Kind: workload.Send, Peer: 2, N: 64}, {Kind: workload.Send, Peer: 3, N: 64}}) {
		t.Errorf("rank 0's broadcast as messages: %v", got)
	}
}

// Bad archives give one-line errors that say what is wrong.
func TestImportBadArchive(t *testing.T) {
	need(t, "python3-otf2")
	dir := t.TempDir()
	notOTF2 := filepath.Join(dir, "x.otf2")
	os.WriteFile(notOTF2, []byte("not an archive\n"), 0o644)
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "missing.otf2"), "missing.otf2"},
		{notOTF2, "the OTF2 reader failed"},
		{dir, "the OTF2 reader failed"}, // its one anchor file, x.otf2
		{notOTF2 + ".tar.gz", "no such file"},
		{writeFile(t, "bad.tar.gz", "not gzip"), "not a gzip-compressed tar file"},
	} {
		_, _, err := Import(context.Background(), c.path, "", workload.ImportOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line containing %q", c.path, err, c.want)
		}
	}
	if _, err := ResolveArchive(t.TempDir()); err == nil || !strings.Contains(err.Error(), "0 .otf2 anchor files") {
		t.Errorf("empty directory: %v", err)
	}
}

func TestReadSummary(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "summary.txt"), []byte("ranks 4\np2p_sends 3\np2p_send_bytes 10\np2p_recvs 3\np2p_recv_bytes 10\ncollectives 2\ncollective_bytes_sent 8\ncollective_bytes_received 8\n"), 0o644)
	s, err := ReadSummary(dir)
	if err != nil || s != (Summary{4, 3, 10, 3, 10, 2, 8, 8}) {
		t.Errorf("%+v %v", s, err)
	}
	os.WriteFile(filepath.Join(dir, "summary.txt"), []byte("ranks 4\np2p_sends x\n"), 0o644)
	if _, err := ReadSummary(dir); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("bad summary: %v", err)
	}
	if _, err := ReadSummary(t.TempDir()); err == nil {
		t.Error("no summary: no error")
	}
}

// writeFile writes text into a new file name in a temporary directory.
func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
