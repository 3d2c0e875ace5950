package sysmem

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// Limit is the memory, in bytes, that this process may use: the machine's physical
// memory (MemTotal in /proc/meminfo), or a cgroup's limit when one is lower (v2
// memory.max, v1 memory.limit_in_bytes). It is 0 when nothing says (not Linux).
func Limit() uint64 {
	return limit("/proc/meminfo", "/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes")
}

func limit(meminfo string, cgroups ...string) uint64 {
	total := memTotal(meminfo)
	for _, path := range cgroups {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
		if err != nil { // "max": no limit
			continue
		}
		if total == 0 || v < total {
			total = v
		}
	}
	return total
}

// memTotal reads MemTotal from a meminfo file, or 0.
func memTotal(path string) uint64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// MemTotal:       24683620 kB
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			f := strings.Fields(rest)
			if len(f) == 2 && f[1] == "kB" {
				if v, err := strconv.ParseUint(f[0], 10, 64); err == nil {
					return v << 10
				}
			}
		}
	}
	return 0
}
