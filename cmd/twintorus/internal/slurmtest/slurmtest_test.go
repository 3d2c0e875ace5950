package slurmtest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twintorus/twintorus/cmd/twintorus/internal/slurmtest"
)

// TestCluster runs the real thing: a job array whose tasks write into a
// shared directory, and a job array with a failing task. One cluster serves
// both, since starting one costs a few seconds.
func TestCluster(t *testing.T) {
	start := time.Now()
	c := slurmtest.Start(t)
	t.Logf("cluster up in %v (node %s, conf %s)", time.Since(start).Round(time.Millisecond), c.Node, c.Conf)

	t.Run("ArrayWritesFiles", func(t *testing.T) {
		shared := t.TempDir()
		id, err := c.Submit("--array=0-3", "--job-name=write",
			"--wrap", fmt.Sprintf(`echo "task $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_JOB_ID" > %s/$SLURM_ARRAY_TASK_ID`, shared))
		if err != nil {
			t.Fatal(err)
		}
		tasks, err := c.Wait(id, 30*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if len(tasks) != 4 {
			t.Fatalf("job %s: %d tasks, want 4: %v", id, len(tasks), tasks)
		}
		for i, task := range tasks {
			if task.ArrayTaskID != i || task.State != "COMPLETED" || task.ExitCode != 0 {
				t.Errorf("task %d: got %v, want %s_%d COMPLETED 0:0", i, task, id, i)
			}
			data, err := os.ReadFile(filepath.Join(shared, fmt.Sprint(i)))
			if err != nil {
				t.Errorf("task %d wrote no file: %v", i, err)
				continue
			}
			if got, want := string(data), fmt.Sprintf("task %d of %s\n", i, id); got != want {
				t.Errorf("task %d wrote %q, want %q", i, got, want)
			}
		}
	})

	t.Run("FailingTaskReported", func(t *testing.T) {
		script := filepath.Join(t.TempDir(), "job.sh")
		body := "#!/bin/sh\n[ \"$SLURM_ARRAY_TASK_ID\" = 1 ] && exit 3\nexit 0\n"
		if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		id, err := c.Submit("--array=0-1", script)
		if err != nil {
			t.Fatal(err)
		}
		tasks, err := c.Wait(id, 30*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{id + "_0 COMPLETED 0:0", id + "_1 FAILED 3:0"}
		if got := fmt.Sprint(tasks); got != fmt.Sprint(want) {
			t.Errorf("job %s: got %s, want %s", id, got, want)
		}
	})

	t.Run("ClientsUseThisCluster", func(t *testing.T) {
		out, err := c.Command("scontrol", "show", "config").CombinedOutput()
		if err != nil {
			t.Fatalf("scontrol show config: %v: %s", err, out)
		}
		if !strings.Contains(string(out), c.Conf) {
			t.Errorf("scontrol show config does not name %s:\n%s", c.Conf, out)
		}
	})
}
