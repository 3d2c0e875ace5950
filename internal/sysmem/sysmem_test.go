package sysmem

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLimit(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	meminfo := write("meminfo", "MemTotal:       24683620 kB\nMemFree:         1000 kB\n")
	const total = 24683620 << 10
	for _, c := range []struct {
		name    string
		cgroups []string
		want    uint64
	}{
		{"no cgroup", nil, total},
		{"cgroup without limit", []string{write("max", "max\n")}, total},
		{"cgroup below", []string{write("v2", "8589934592\n")}, 8 << 30},
		{"cgroup above", []string{write("v1", "9223372036854771712\n")}, total},
		{"missing files", []string{filepath.Join(dir, "none")}, total},
	} {
		if got := limit(meminfo, c.cgroups...); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
	if got := limit(filepath.Join(dir, "none")); got != 0 {
		t.Errorf("no meminfo: %d", got)
	}
	if Limit() == 0 {
		t.Log("this machine says nothing about its memory")
	}
}

// PeakRSS reads this process's own high-water mark: at least what it holds now, and
// it grows when the process touches more memory.
func TestPeakRSS(t *testing.T) {
	before, ok := PeakRSS()
	if !ok {
		t.Skip("no peak here")
	}
	b := make([]byte, 64<<20)
	for i := range b {
		b[i] = 1
	}
	after, _ := PeakRSS()
	if after < before+32<<20 {
		t.Errorf("peak %d MB after touching 64 MB, %d MB before", after>>20, before>>20)
	}
	_ = b[len(b)-1]
}
