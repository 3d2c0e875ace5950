package sysmem

import (
	"bufio"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"
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
// honours it (transparent huge pages "madvise" or "always"): the memory of a 64 MiB
// table is advised huge (its mapping's VmFlags say "hg"), and once written it is
// backed in part by huge pages (AnonHugePages of this process grows). The second part
// is the kernel's to grant: on a busy machine whose memory is fragmented it may have no
// huge page free when the table is touched, so a table advised but not granted is
// logged, not failed (a make test beside four other jobs saw exactly that).
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
	// The advice covers the table's whole huge pages: its middle is inside them.
	if flags := vmFlags(t, uintptr(unsafe.Pointer(&s[len(s)/2]))); !slices.Contains(flags, "hg") {
		t.Fatalf("the table's mapping is not advised huge: VmFlags %q", flags)
	}
	runtime.KeepAlive(s)
	if after-before < 8<<20 {
		t.Logf("AnonHugePages grew by %d bytes for a 64 MiB table advised huge: the kernel granted fewer than 8 MiB of huge pages (fragmented memory?)", after-before)
	}
}

// vmFlags returns the VmFlags of this process's mapping that holds address addr, from
// /proc/self/smaps.
func vmFlags(t *testing.T, addr uintptr) []string {
	t.Helper()
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps: %v", err)
	}
	inside := false
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if lo, hi, ok := strings.Cut(f[0], "-"); ok && !strings.HasSuffix(f[0], ":") {
			a, err1 := strconv.ParseUint(lo, 16, 64)
			z, err2 := strconv.ParseUint(hi, 16, 64)
			inside = err1 == nil && err2 == nil && uint64(addr) >= a && uint64(addr) < z
			continue
		}
		if inside && f[0] == "VmFlags:" {
			return f[1:]
		}
	}
	t.Fatalf("no mapping in /proc/self/smaps holds %#x", addr)
	return nil
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
