package slurmtest

import (
	"errors"
	"os"
	"testing"
)

// Start launches a cluster for the test in a new temporary directory and
// stops it, and removes the directory, when the test ends. If Slurm cannot
// run here the test is skipped with the reason, or fails instead when the
// environment variable TWINTORUS_SLURM_REQUIRED is set (as in CI). Any
// other error fails the test.
//
// The directory is made with os.MkdirTemp rather than t.TempDir: munged's
// and slurmd's Unix socket paths must stay short, and test names need not.
func Start(t testing.TB) *Cluster {
	t.Helper()
	dir, err := os.MkdirTemp("", "slurmtest-")
	if err != nil {
		t.Fatalf("slurmtest: %v", err)
	}
	c, err := Launch(dir)
	if err != nil {
		if rmErr := os.RemoveAll(dir); rmErr != nil {
			t.Logf("slurmtest: remove %s: %v", dir, rmErr)
		}
		if errors.Is(err, ErrUnavailable) && os.Getenv(RequiredEnv) == "" {
			t.Skipf("slurmtest: skipping, %v\n(set %s=1 to make this a failure)", err, RequiredEnv)
		}
		t.Fatalf("slurmtest: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("slurmtest: cluster logs in %s:\n%s", dir, c.Logs())
		}
		if err := c.Stop(); err != nil {
			t.Errorf("slurmtest: stop cluster: %v\n%s", err, c.Logs())
		}
		if err := os.RemoveAll(dir); err != nil {
			t.Errorf("slurmtest: remove %s: %v", dir, err)
		}
	})
	return c
}
