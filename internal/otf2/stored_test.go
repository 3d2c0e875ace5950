package otf2

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/workload"
)

// The OTF2 archives stored in datasets/traces/otf2 import with every point-to-point
// message and byte their recorder counted (its summary.txt, inside each archive).
func TestStoredArchives(t *testing.T) {
	need(t, "python3-otf2")
	files, err := filepath.Glob("../../datasets/traces/otf2/*.otf2.tar.gz")
	if err != nil || len(files) < 2 {
		t.Fatalf("stored archives: %v %v", files, err)
	}
	for _, f := range files {
		dir := t.TempDir()
		if err := untar(f, dir); err != nil {
			t.Fatal(err)
		}
		s, err := ReadSummary(dir)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		w, rep, err := Import(context.Background(), f, "", workload.ImportOptions{Collectives: "messages"})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if w.Tasks() != s.Ranks || rep.Messages != s.Sends || rep.Bytes != s.SendBytes || rep.UnmatchedSends+rep.UnmatchedRecvs != 0 {
			t.Errorf("%s: %d tasks, %d messages of %d bytes (unmatched %d sends, %d receives); the recorder saw %d ranks, %d messages of %d bytes",
				filepath.Base(f), w.Tasks(), rep.Messages, rep.Bytes, rep.UnmatchedSends, rep.UnmatchedRecvs, s.Ranks, s.Sends, s.SendBytes)
		}
		checkStoredImport(t, f)
	}
}

// checkStoredImport: the trace stored beside an archive (NAME.trace.gz beside
// NAME.otf2.tar.gz, which the experiments datasets/workloads/real-*.yaml replay) is
// what trace import --no-compute writes of it today, line for line but the name line
// (the path it was imported from).
func checkStoredImport(t *testing.T, archive string) {
	t.Helper()
	stored := strings.TrimSuffix(archive, ".otf2.tar.gz") + ".trace.gz"
	f, err := os.Open(stored)
	if err != nil {
		t.Errorf("%s: no imported trace beside it: %v", filepath.Base(archive), err)
		return
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", stored, err)
	}
	want, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", stored, err)
	}
	w, _, err := Import(context.Background(), archive, "", workload.ImportOptions{ComputeScale: 0, Collectives: "keep"})
	if err != nil {
		t.Fatalf("%s: %v", archive, err)
	}
	var got bytes.Buffer
	if err := workload.WriteTrace(&got, w, false); err != nil {
		t.Fatal(err)
	}
	noName := func(b []byte) string {
		var keep []string
		for _, l := range strings.Split(string(b), "\n") {
			if !strings.HasPrefix(l, "name ") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	if noName(got.Bytes()) != noName(want) {
		t.Errorf("%s is not what trace import --no-compute makes of %s today (%d bytes, stored %d): import it again", filepath.Base(stored), filepath.Base(archive), got.Len(), len(want))
	}
}
