package slurmtest

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Submit runs `sbatch --parsable ARGS...` against the cluster, in WorkDir
// (so relative paths in ARGS, and the default slurm-%A_%a.out output files,
// are under WorkDir: give a script's absolute path), and returns the job id.
// For example:
//
//	id, err := c.Submit("--array=0-3", "--wrap", "echo $SLURM_ARRAY_TASK_ID > out")
func (c *Cluster) Submit(args ...string) (string, error) {
	out, err := c.output("sbatch", append([]string{"--parsable"}, args...)...)
	if err != nil {
		return "", fmt.Errorf("submit: %w", err)
	}
	// --parsable prints "jobid" or "jobid;cluster".
	id, _, _ := strings.Cut(strings.TrimSpace(out), ";")
	if _, err := strconv.Atoi(id); err != nil {
		return "", fmt.Errorf("submit: sbatch printed %q, not a job id", out)
	}
	return id, nil
}

// Task is the state of one job, or one task of a job array, as scontrol
// shows it.
type Task struct {
	JobID       string // "12", or "12_3" for array task 3 of job 12
	ArrayTaskID int    // -1 when the job is not an array
	State       string // COMPLETED, FAILED, CANCELLED, TIMEOUT, ... (JobState)
	ExitCode    int    // the exit code of the batch script
	Signal      int    // the signal that ended it, or 0
}

// Done tells whether the task has reached a state it will not leave.
func (t Task) Done() bool {
	switch t.State {
	case "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "PREEMPTED",
		"BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY":
		return true
	}
	return false
}

// Wait polls until the job, and every task of it if it is an array, is
// done, and returns their states sorted by array task id. It fails after
// timeout, with the states seen last. Without accounting storage, finished
// jobs are visible for MinJobAge (300 s) after they end: Wait soon after
// the job.
func (c *Cluster) Wait(jobID string, timeout time.Duration) ([]Task, error) {
	deadline := time.Now().Add(timeout)
	for {
		tasks, err := c.Tasks(jobID)
		if err != nil {
			return nil, fmt.Errorf("wait for job %s: %w", jobID, err)
		}
		if allDone(tasks) {
			return tasks, nil
		}
		if time.Now().After(deadline) {
			return tasks, fmt.Errorf("wait for job %s: not done after %v: %v", jobID, timeout, tasks)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Tasks returns the current state of a job and of each of its array tasks.
func (c *Cluster) Tasks(jobID string) ([]Task, error) {
	out, err := c.output("scontrol", "--oneliner", "show", "job", jobID)
	if err != nil {
		return nil, err
	}
	return parseJobs(out)
}

func allDone(tasks []Task) bool {
	if len(tasks) == 0 {
		return false
	}
	for _, t := range tasks {
		if !t.Done() {
			return false
		}
	}
	return true
}

// parseJobs reads `scontrol --oneliner show job` output: one record a line,
// space-separated Key=Value fields. Pending array tasks not yet split off
// show as one record with a range ("ArrayTaskId=1-3"); such a record gets
// ArrayTaskID -1 and is never done.
func parseJobs(out string) ([]Task, error) {
	var tasks []Task
	for line := range strings.Lines(out) {
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := fields(line)
		t := Task{JobID: f["JobId"], ArrayTaskID: -1, State: f["JobState"]}
		if t.JobID == "" || t.State == "" {
			return nil, fmt.Errorf("scontrol record without JobId or JobState: %q", line)
		}
		if arrayJob, ok := f["ArrayJobId"]; ok {
			t.JobID = arrayJob + "_" + f["ArrayTaskId"]
			if n, err := strconv.Atoi(f["ArrayTaskId"]); err == nil {
				t.ArrayTaskID = n
			}
		}
		if code, sig, ok := strings.Cut(f["ExitCode"], ":"); ok {
			var err1, err2 error
			t.ExitCode, err1 = strconv.Atoi(code)
			t.Signal, err2 = strconv.Atoi(sig)
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("scontrol record with ExitCode=%q", f["ExitCode"])
			}
		}
		tasks = append(tasks, t)
	}
	sort.SliceStable(tasks, func(i, j int) bool { return tasks[i].ArrayTaskID < tasks[j].ArrayTaskID })
	return tasks, nil
}

// fields splits a record into its Key=Value fields. Values with spaces in
// them (a Command or WorkDir path) are cut short, which does not matter for
// the fields read here.
func fields(line string) map[string]string {
	m := map[string]string{}
	for _, kv := range strings.Fields(line) {
		if k, v, ok := strings.Cut(kv, "="); ok {
			if _, seen := m[k]; !seen {
				m[k] = v
			}
		}
	}
	return m
}

// String shows a task as "12_3 COMPLETED 0:0".
func (t Task) String() string {
	return fmt.Sprintf("%s %s %d:%d", t.JobID, t.State, t.ExitCode, t.Signal)
}
