package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// needOTF2 skips unless the OTF2 and MPI tools are installed; with
// TWINTORUS_OTF2_REQUIRED=1 (make test, whose set-up installs them) it fails instead.
func needOTF2(t *testing.T) {
	t.Helper()
	var missing []string
	for _, c := range []string{"mpicc", "mpirun", "otf2-config", "otf2-print"} {
		if _, err := exec.LookPath(c); err != nil {
			missing = append(missing, c)
		}
	}
	py := "/usr/bin/python3"
	if p := os.Getenv("TWINTORUS_PYTHON"); p != "" {
		py = p
	}
	if exec.Command(py, "-c", "import otf2").Run() != nil {
		missing = append(missing, "python3-otf2")
	}
	if len(missing) == 0 {
		return
	}
	if os.Getenv("TWINTORUS_OTF2_REQUIRED") == "1" {
		t.Fatalf("missing %s (scripts/setup.sh installs them)", strings.Join(missing, ", "))
	}
	t.Skipf("missing %s; scripts/setup.sh installs them", strings.Join(missing, ", "))
}

// The acceptance: record a real MPI program, HPCC's PTRANS (Debian's hpcc, the
// whole suite with the stored archives' tiny input on a 4 x 4 grid, 16 ranks
// oversubscribed: 6-14 s on the two-core machine, most of it in HPCC's latency and
// bandwidth tests; the window of world barriers 15 to 16 is PTRANS, as at 64 ranks),
// import its archive with the collectives as Open MPI's linear algorithms and replay it
// on torus:4x4: the point-to-point messages and bytes are the recorder's, the
// collectives' messages those of the operations it saw (allreduce and barrier 2(P-1)
// each, reduce P-1), and the replay delivers the trace's every message and byte.
func TestTraceRecordImportReplay(t *testing.T) {
	needOTF2(t)
	need(t, "hpcc")
	dir := t.TempDir()
	inp, err := os.ReadFile("../../datasets/traces/otf2/hpccinf.txt")
	if err != nil {
		t.Fatal(err)
	}
	in16 := strings.Replace(strings.Replace(string(inp), "\n8            Ps", "\n4            Ps", 1), "\n8            Qs", "\n4            Qs", 1)
	if strings.Count(in16, "4            Ps\n4            Qs") != 1 {
		t.Fatalf("hpccinf.txt has no 8 x 8 process grid to make 4 x 4:\n%s", inp)
	}
	if err := os.WriteFile(filepath.Join(dir, "hpccinf.txt"), []byte(in16), 0o644); err != nil {
		t.Fatal(err)
	}
	arch := filepath.Join(dir, "ptrans")
	_, stderr, err := run(t, "trace", "record", "--cache", filepath.Join(dir, "cache"), "--out", arch, "--window", "15:16", "--",
		"mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "16", "-wdir", dir, "hpcc")
	if err != nil {
		t.Fatalf("record: %v\n%s", err, stderr)
	}
	if out, err := os.ReadFile(filepath.Join(dir, "hpccoutf.txt")); err != nil || !strings.Contains(string(out), "End of PTRANS section.") {
		t.Fatalf("HPCC's output has no PTRANS section (%v)", err)
	}
	s := readSummary(t, arch)
	if s["ranks"] != 16 || s["p2p_sends"] == 0 || s["p2p_sends"] != s["p2p_recvs"] || s["p2p_send_bytes"] != s["p2p_recv_bytes"] || s["collectives"] == 0 {
		t.Fatalf("summary.txt: %v", s)
	}
	tr := filepath.Join(dir, "ptrans.trace.gz")
	rep := importJSON(t, arch, "messages", tr)
	if rep.Messages != s["p2p_sends"] || rep.Bytes != s["p2p_send_bytes"] || rep.Unmatched != 0 || len(rep.Unsupported) != 0 {
		t.Errorf("imported %d point-to-point messages of %d bytes (unmatched %d, not replayed %v); the recorder saw %d of %d",
			rep.Messages, rep.Bytes, rep.Unmatched, rep.Unsupported, s["p2p_sends"], s["p2p_send_bytes"])
	}
	const p = 16
	calls, msgs := int64(0), int64(0)
	for op, n := range rep.Collectives {
		calls += n * p
		switch op {
		case "allreduce", "barrier":
			msgs += n * 2 * (p - 1)
		case "reduce", "bcast":
			msgs += n * (p - 1)
		default:
			t.Errorf("collective %s in PTRANS's window (it calls allreduce, barrier and reduce)", op)
		}
	}
	if calls != s["collectives"] || msgs != rep.CollMsgs || rep.All != rep.Messages+msgs || rep.AllBytes != rep.Bytes+rep.CollBytes {
		t.Errorf("collectives %v: %d calls over the ranks (recorder %d), %d messages (import %d); trace %d messages, %d bytes",
			rep.Collectives, calls, s["collectives"], msgs, rep.CollMsgs, rep.All, rep.AllBytes)
	}
	var r map[string]any
	runJSON(t, &r, "run", "torus:4x4", "--workload", "trace:"+tr, "--json")
	if r["deadlock"] != nil || int64(r["messages"].(float64)) != rep.All || int64(r["bytes"].(float64)) != rep.AllBytes {
		t.Errorf("replay on torus:4x4 delivered %v messages, %v bytes (deadlock %v); want %d, %d", r["messages"], r["bytes"], r["deadlock"], rep.All, rep.AllBytes)
	}
}

// importReport is trace import's --json report, the fields the tests read.
type importReport struct {
	Messages    int64            `json:"p2p_messages"`
	Bytes       int64            `json:"p2p_bytes"`
	Collectives map[string]int64 `json:"collectives"`
	Unsupported map[string]int64 `json:"unsupported"`
	CollMsgs    int64            `json:"collective_messages"`
	CollBytes   int64            `json:"collective_bytes"`
	All         int64            `json:"messages"`
	AllBytes    int64            `json:"bytes"`
	Unmatched   int64            `json:"unmatched_sends"`
}

// importJSON imports archive with --no-compute and the collectives as mode into trace
// file out and returns the report.
func importJSON(t *testing.T, archive, mode, out string) importReport {
	t.Helper()
	_, stderr, err := run(t, "trace", "import", archive, "--no-compute", "--collectives", mode, "-o", out, "--json")
	if err != nil {
		t.Fatalf("import %s: %v", mode, err)
	}
	var rep importReport
	if err := json.Unmarshal([]byte(stderr), &rep); err != nil {
		t.Fatalf("import %s: %v\n%s", mode, err, stderr)
	}
	return rep
}

// need skips unless command cmd is installed (fails under TWINTORUS_OTF2_REQUIRED=1).
func need(t *testing.T, cmd string) {
	t.Helper()
	if _, err := exec.LookPath(cmd); err == nil {
		return
	}
	if os.Getenv("TWINTORUS_OTF2_REQUIRED") == "1" {
		t.Fatalf("missing %s (scripts/setup.sh installs it)", cmd)
	}
	t.Skipf("missing %s; scripts/setup.sh installs it", cmd)
}

// readSummary reads the recorder's summary.txt: "key value" lines.
func readSummary(t *testing.T, dir string) map[string]int64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		k, v, ok := strings.Cut(l, " ")
		n, err := strconv.ParseInt(v, 10, 64)
		if !ok || err != nil {
			t.Fatalf("summary.txt line %q", l)
		}
		out[k] = n
	}
	return out
}

// The recorder on a program whose every message and collective is known (testdata's
// minitrans, a block transpose in the manner of HPCC's PTRANS, on 16 ranks
// oversubscribed): its counts, a window, the import of collectives kept and as
// messages, which are counted here from the program and Open MPI's linear algorithms,
// and the replay on torus:4x4. otf2-print, another OTF2 reader, sees the same sends.
func TestTraceRecordMinitrans(t *testing.T) {
	needOTF2(t)
	dir := t.TempDir()
	prog := filepath.Join(dir, "minitrans")
	if out, err := exec.Command("mpicc", "-O2", "-o", prog, "../../internal/otf2/testdata/minitrans.c").CombinedOutput(); err != nil {
		t.Fatalf("mpicc: %v\n%s", err, out)
	}
	arch := filepath.Join(dir, "rec")
	_, stderr, err := run(t, "trace", "record", "--cache", filepath.Join(dir, "cache"), "--out", arch, "--",
		"mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "16", prog)
	if err != nil {
		t.Fatalf("record: %v\n%s", err, stderr)
	}
	// The recorder's own counts: per transpose 12 off-diagonal blocks of 8,000 bytes,
	// twice; a ring shift of 800 bytes on every rank; 80 and 160 bytes from rank 0 to
	// rank 1; 15 reports of 4 bytes to rank 0. 9 collective calls on every rank.
	summary, _ := os.ReadFile(filepath.Join(arch, "summary.txt"))
	const sends, sendBytes = 2*12 + 16 + 2 + 15, 2*12*8000 + 16*800 + 80 + 160 + 15*4
	want := "ranks 16\np2p_sends 57\np2p_send_bytes 205100\np2p_recvs 57\np2p_recv_bytes 205100\ncollectives 144\n"
	if sends != 57 || sendBytes != 205100 || !strings.HasPrefix(string(summary), want) {
		t.Fatalf("summary.txt:\n%s\nwant it to start\n%s", summary, want)
	}
	out, err := exec.Command("otf2-print", filepath.Join(arch, "traces.otf2")).Output()
	if err != nil {
		t.Fatalf("otf2-print: %v", err)
	}
	n := 0
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "MPI_SEND ") || strings.HasPrefix(l, "MPI_ISEND ") {
			n++
		}
	}
	if n != sends {
		t.Errorf("otf2-print shows %d sends; the recorder counted %d", n, sends)
	}

	// A window from the program's one world barrier to the end holds its last call, a
	// scan on every rank, and nothing else.
	win := filepath.Join(dir, "win")
	if _, stderr, err := run(t, "trace", "record", "--cache", filepath.Join(dir, "cache"), "--out", win, "--window", "1:", "--",
		"mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "16", prog); err != nil {
		t.Fatalf("record --window: %v\n%s", err, stderr)
	}
	summary, _ = os.ReadFile(filepath.Join(win, "summary.txt"))
	if want := "ranks 16\np2p_sends 0\np2p_send_bytes 0\np2p_recvs 0\np2p_recv_bytes 0\ncollectives 16\ncollective_bytes_sent 512\n"; !strings.HasPrefix(string(summary), want) {
		t.Errorf("window 1: summary.txt:\n%s\nwant it to start\n%s", summary, want)
	}

	// Collectives as messages (Open MPI's linear algorithms): 8 broadcasts of 8 bytes
	// over 4 ranks (3 messages each), 8 allreduces of 8 bytes over 4 (reduce and
	// broadcast, 6), an all-to-all of 128-byte blocks over 16 (240), a reduce of 512
	// bytes and a gather of 64-byte blocks to one rank (15 each), a barrier (30 empty
	// messages); the scan is reported, not replayed.
	const collMsgs = 8*3 + 8*6 + 240 + 15 + 15 + 30
	const collBytes = 8*3*8 + 8*6*8 + 240*128 + 15*512 + 15*64
	for _, c := range []struct {
		mode        string
		msgs, bytes int64
	}{
		{"messages", sends + collMsgs, sendBytes + collBytes},
		// Kept: binomial broadcasts (3 messages), recursive-doubling allreduces over 4
		// (8) and the barrier over 16 (64), pairwise all-to-all (240), binomial reduce
		// and gather (15 each); their bytes are the algorithms' (collective.go's tests
		// hold them), so only the point-to-point part is checked against the recorder.
		{"keep", sends + 8*3 + 8*8 + 240 + 15 + 15 + 64, -1},
	} {
		tr := filepath.Join(dir, c.mode+".trace.gz")
		rep := importJSON(t, arch, c.mode, tr)
		if rep.Messages != sends || rep.Bytes != sendBytes || rep.Unmatched != 0 {
			t.Errorf("%s: imported %d point-to-point messages of %d bytes; the recorder saw %d of %d", c.mode, rep.Messages, rep.Bytes, sends, sendBytes)
		}
		wantColl := map[string]int64{"bcast": 8, "allreduce": 8, "alltoall": 1, "reduce": 1, "gather": 1, "barrier": 1}
		for k, v := range wantColl {
			if rep.Collectives[k] != v {
				t.Errorf("%s: collectives %v, want %v", c.mode, rep.Collectives, wantColl)
				break
			}
		}
		if len(rep.Unsupported) != 1 || rep.Unsupported["collective scan"] != 1 {
			t.Errorf("%s: not replayed %v, want the scan", c.mode, rep.Unsupported)
		}
		if c.bytes < 0 {
			c.bytes = sendBytes + rep.CollBytes
		}
		if rep.All != c.msgs || rep.AllBytes != c.bytes {
			t.Errorf("%s: trace of %d messages, %d bytes; want %d, %d", c.mode, rep.All, rep.AllBytes, c.msgs, c.bytes)
		}
		var r map[string]any
		runJSON(t, &r, "run", "torus:4x4", "--workload", "trace:"+tr, "--json")
		if r["deadlock"] != nil || int64(r["messages"].(float64)) != c.msgs || int64(r["bytes"].(float64)) != c.bytes {
			t.Errorf("%s: replay on torus:4x4 delivered %v messages, %v bytes (deadlock %v); want %d, %d", c.mode, r["messages"], r["bytes"], r["deadlock"], c.msgs, c.bytes)
		}
	}
}

func TestTraceRecordImportBadInput(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full")
	os.MkdirAll(full, 0o755)
	os.WriteFile(filepath.Join(full, "x"), nil, 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"trace", "record", "--out", dir}, "runs the command after --"},
		{[]string{"trace", "record", "--window", "3:2", "--out", dir, "--", "true"}, "--window: window \"3:2\""},
		{[]string{"trace", "record", "--window", "x", "--out", dir, "--", "true"}, "FROM:TO"},
		{[]string{"trace", "import"}, "needs a ARCHIVE argument"},
		{[]string{"trace", "import", filepath.Join(dir, "none.otf2")}, "none.otf2"},
		{[]string{"trace", "import", full, "--no-compute", "--compute-scale", "2"}, "contradict"},
		{[]string{"trace", "import", full, "--algorithm", "scan:scan:linear"}, "--algorithm"},
		{[]string{"trace", "import", full, "--collectives", "drop"}, "accepted are keep and messages"},
		{[]string{"trace", "import", full, "--compute-scale", "-1"}, "--compute-scale"},
	} {
		out, stderr, err := run(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v (stdout %q, stderr %q)\nwant one line containing %q", c.args, err, out, stderr, c.want)
		}
	}
}
