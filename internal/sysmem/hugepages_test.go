package sysmem

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func TestMakeHugeIsMake(t *testing.T) {
	for _, n := range []int{0, 1, 1000, HugeThreshold/8 + 1, 3 * HugeThreshold / 8} {
		s := MakeHuge[int64](n)
		if len(s) != n || cap(s) != n {
			t.Fatalf("MakeHuge(%d): len %d cap %d", n, len(s), cap(s))
		}
		for i, v := range s {
			if v != 0 {
				t.Fatalf("MakeHuge(%d)[%d] = %d, want zero", n, i, v)
			}
		}
	}
}

// TestMakeHugeGetsHugePages checks that the advice takes effect where the kernel
// honours it (transparent huge pages "madvise" or "always"): a 64 MiB table, once
// written, is backed in part by huge pages (AnonHugePages of this process grows).
func TestMakeHugeGetsHugePages(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("transparent huge pages are Linux's")
	}
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !(strings.Contains(string(b), "[madvise]") || strings.Contains(string(b), "[always]")) {
		t.Skipf("transparent huge pages not available to madvise here: %q", b)
	}
	before := anonHuge(t)
	s := MakeHuge[byte](64 << 20)
	for i := 0; i < len(s); i += 4096 {
		s[i] = 1
	}
	after := anonHuge(t)
	runtime.KeepAlive(s)
	if after-before < 8<<20 {
		t.Fatalf("AnonHugePages grew by %d bytes for a 64 MiB table, want at least 8 MiB", after-before)
	}
}

// anonHuge is this process's memory backed by transparent huge pages, in bytes.
func anonHuge(t *testing.T) int64 {
	f, err := os.Open("/proc/self/smaps_rollup")
	if err != nil {
		t.Skipf("no smaps_rollup: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "AnonHugePages:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no AnonHugePages in smaps_rollup")
	return 0
}
