package slurmtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// These tests need no Slurm: they check what is read from and written for it.

func TestParseJobs(t *testing.T) {
	// As printed by Slurm 22.05's `scontrol --oneliner show job 1` (trimmed):
	// task 1 released and failed, tasks 0,2-3 still held in one record,
	// and a job that is no array.
	out := "JobId=1 ArrayJobId=1 ArrayTaskId=0,2-3 JobName=wrap JobState=PENDING Reason=JobHeldUser ExitCode=0:0 WorkDir=/tmp/a b\n" +
		"JobId=2 ArrayJobId=1 ArrayTaskId=1 JobName=wrap JobState=FAILED Reason=NonZeroExitCode ExitCode=3:0 Command=/tmp/job.sh\n" +
		"JobId=3 JobName=wrap JobState=CANCELLED Reason=None ExitCode=0:9\n" +
		"\n"
	tasks, err := parseJobs(out)
	if err != nil {
		t.Fatal(err)
	}
	want := "[1_0,2-3 PENDING 0:0 3 CANCELLED 0:9 1_1 FAILED 3:0]"
	if got := fmt.Sprint(tasks); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if tasks[0].Done() || !tasks[1].Done() || !tasks[2].Done() || allDone(tasks) {
		t.Errorf("Done wrong: %v", tasks)
	}
	if allDone(nil) {
		t.Error("no tasks counted as done")
	}

	if _, err := parseJobs("JobId=4 ExitCode=0:0\n"); err == nil {
		t.Error("record without JobState accepted")
	}
	if _, err := parseJobs("JobId=4 JobState=FAILED ExitCode=x\n"); err != nil {
		t.Errorf("ExitCode without signal: %v", err)
	}
}

func TestMemTotal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "meminfo")
	if err := os.WriteFile(path, []byte("MemTotal:       24684084 kB\nMemFree:  1 kB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if mb, err := memTotalMB(path); err != nil || mb != 24105 {
		t.Errorf("memTotalMB = %d, %v; want 24105", mb, err)
	}
	if err := os.WriteFile(path, []byte("MemFree:  1 kB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := memTotalMB(path); err == nil {
		t.Error("meminfo without MemTotal accepted")
	}
}

func TestSlurmConf(t *testing.T) {
	cfg := config{
		Host:       host{Name: "vm", CPUs: 2, RealMemoryMB: 24105},
		Paths:      newPaths("/tmp/x"),
		CtldPort:   40001,
		SlurmdPort: 40002,
		Partition:  "debug",
	}
	conf := cfg.slurmConf()
	for _, want := range []string{
		"SlurmctldHost=vm(127.0.0.1)\n",
		"SlurmctldPort=40001\n",
		"SlurmdPort=40002\n",
		"AuthInfo=socket=/tmp/x/munge/munge.socket\n",
		"StateSaveLocation=/tmp/x/state\n",
		"ProctrackType=proctrack/linuxproc\n",
		"TaskPlugin=task/none\n",
		"AccountingStorageType=accounting_storage/none\n",
		"NodeName=vm NodeHostname=vm NodeAddr=127.0.0.1 CPUs=2 RealMemory=24105 State=UNKNOWN\n",
		"PartitionName=debug Nodes=vm Default=YES",
	} {
		if !strings.Contains(conf, want) {
			t.Errorf("slurm.conf lacks %q:\n%s", want, conf)
		}
	}
}

func TestFreePorts(t *testing.T) {
	ports, err := freePorts(2)
	if err != nil {
		t.Fatal(err)
	}
	if len(ports) != 2 || ports[0] == ports[1] || ports[0] == 0 {
		t.Errorf("freePorts(2) = %v", ports)
	}
}
