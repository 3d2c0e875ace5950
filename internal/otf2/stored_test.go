package otf2

import (
	"context"
	"path/filepath"
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
	}
}
