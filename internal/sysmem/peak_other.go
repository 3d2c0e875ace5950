//go:build !linux && !darwin

package sysmem

// PeakRSS: unknown here.
func PeakRSS() (uint64, bool) { return 0, false }
