// Package slurmtest runs a real single-host Slurm for tests: munged,
// slurmctld and slurmd from Debian's packages (Slurm 22.05), started by the
// test itself as foreground processes and stopped by their process ids when
// it ends. It owns the cluster's generated munge key, slurm.conf, state,
// spool and logs, all in one temporary directory; nothing under /etc or /var
// is read or written, and two test runs on one machine pick different ports.
//
// Install the packages with scripts/setup-slurm.sh (as root, or with sudo).
// Without them, or without root, Start skips the test and says why; with
// TWINTORUS_SLURM_REQUIRED=1 in the environment (as CI sets it) it fails
// instead, so a broken install cannot pass as a skip.
//
// A test elsewhere in the module, such as the experiment package's test of
// `twintorus sweep --slurm`, uses it like this:
//
//	func TestSweepOnSlurm(t *testing.T) {
//		c := slurmtest.Start(t) // skips if Slurm cannot run here
//		results := t.TempDir()
//		cmd := c.Command(twintorusBinary, "sweep", spec, "--slurm", "--results", results)
//		if out, err := cmd.CombinedOutput(); err != nil {
//			t.Fatalf("sweep: %v\n%s", err, out)
//		}
//		jobID := ... // as the sweep printed it
//		tasks, err := c.Wait(jobID, 30*time.Second)
//		if err != nil {
//			t.Fatal(err)
//		}
//		for _, task := range tasks {
//			if task.State != "COMPLETED" {
//				t.Errorf("task %v", task)
//			}
//		}
//		// compare results with a run of the same sweep on this machine
//	}
//
// Cluster.Env (SLURM_CONF, and no inherited SLURM_ variables) is what makes
// sbatch, squeue and the other clients, and any program that runs them, talk
// to this cluster; Cluster.Command sets it, and the cluster's WorkDir, on an
// exec.Cmd. The munge socket is named in slurm.conf, so clients need no
// other variable. Jobs run as root on the one node, in the default partition
// "debug", one CPU each, so array tasks run side by side up to nproc.
//
// Finished jobs are kept by slurmctld for MinJobAge (300 s) only, as there
// is no accounting storage: sacct does not work here, and Wait must be
// called within that time. The controller first schedules about 3 s after
// it starts, then within about 1 s of each submission or job end.
package slurmtest
