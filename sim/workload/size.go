package workload

import (
	"fmt"
	"strconv"
	"strings"
)

// Byte units of sizes in spec strings: binary multiples, as MPI message sizes are.
var units = []struct {
	name  string
	bytes int64
}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}

const acceptedSize = "write bytes with a unit: B, KiB, MiB or GiB, e.g. 16B, 512B, 4KiB"

// ParseSize reads a size in bytes with a unit: "16B", "512B", "4KiB", "1MiB". The
// unit is required (a bare number is ambiguous in a spec that also counts tasks) and
// decimal units (KB) are refused rather than guessed.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	for _, u := range units {
		num, ok := strings.CutSuffix(t, u.name)
		if !ok {
			continue
		}
		if u.name == "B" && len(num) > 0 && strings.ContainsAny(num[len(num)-1:], "kKmMgGi") {
			break // 4KB, 4kB, 4MB: decimal or misspelt units
		}
		num = strings.TrimSpace(num)
		v, err := strconv.ParseInt(num, 10, 64)
		if err != nil || num == "" || num[0] == '+' {
			return 0, fmt.Errorf("size %q: %s", s, acceptedSize)
		}
		if v < 0 {
			return 0, fmt.Errorf("size %q is negative: %s", s, acceptedSize)
		}
		if v > MaxMessageBytes/u.bytes {
			return 0, fmt.Errorf("size %q: accepted are 0B to 1GiB", s)
		}
		return v * u.bytes, nil
	}
	return 0, fmt.Errorf("size %q: %s", s, acceptedSize)
}

// FormatSize prints bytes in the largest unit that divides them: 4096 as "4KiB",
// 1536 as "1536B". ParseSize reads it back.
func FormatSize(b int64) string {
	for _, u := range units {
		if b != 0 && b%u.bytes == 0 {
			return strconv.FormatInt(b/u.bytes, 10) + u.name
		}
	}
	return strconv.FormatInt(b, 10) + "B"
}
