package experiment

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/internal/version"
)

// MaxArrayTasks caps a job array: Slurm's default MaxArraySize is 1001.
const MaxArrayTasks = 1000

// SlurmJob is a sweep as a Slurm job array: array task i runs shard i/Tasks of the
// sweep (see Shard) into the shared results store, with
//
//	twintorus sweep SPEC --out DIR --shard $SLURM_ARRAY_TASK_ID/Tasks --workers $SLURM_CPUS_PER_TASK
//
// The binary, the spec and the store must be visible at the same paths on the compute
// nodes (a shared file system). Submitting again once the job is over runs only what
// is missing; submitting while it still runs would run its pending points twice.
type SlurmJob struct {
	Binary    string   // the twintorus executable, absolute
	Spec      string   // the spec file, absolute; Store.SaveSpec writes a frozen copy
	Out       string   // the results store, absolute
	Tasks     int      // array tasks, 1 to MaxArrayTasks
	CPUs      int      // CPUs per task, each running one simulation at a time; 0 means 1
	Partition string   // empty: the cluster's default
	Name      string   // job name; empty: "twintorus"
	Options   []string // more sbatch options, one each, e.g. --time=2:00:00 or --account=proj
	Comment   string   // a line for the script's header, e.g. what the sweep holds
}

var slurmWord = regexp.MustCompile(`^[A-Za-z0-9._,:+=@%/-]*$`)

// Script is the sbatch script.
func (j SlurmJob) Script() (string, error) {
	for _, p := range [][2]string{{"binary", j.Binary}, {"spec", j.Spec}, {"results store", j.Out}} {
		if !filepath.IsAbs(p[1]) {
			return "", fmt.Errorf("slurm job: the %s path %q must be absolute, as tasks run elsewhere", p[0], p[1])
		}
	}
	if j.Tasks < 1 || j.Tasks > MaxArrayTasks {
		return "", fmt.Errorf("slurm job: %d array tasks: accepted are 1 to %d", j.Tasks, MaxArrayTasks)
	}
	cpus := max(j.CPUs, 1)
	name := j.Name
	if name == "" {
		name = "twintorus"
	}
	if !slurmWord.MatchString(name) || !slurmWord.MatchString(j.Partition) {
		return "", fmt.Errorf("slurm job: name %q or partition %q has characters other than letters, digits and ._,:+=@%%/-", name, j.Partition)
	}
	for _, o := range j.Options {
		if !strings.HasPrefix(o, "-") || strings.ContainsAny(o, "\n\r") {
			return "", fmt.Errorf("slurm job: sbatch option %q: want one option such as --time=1:00:00", o)
		}
	}
	var b strings.Builder
	b.WriteString("#!/bin/bash\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n", name)
	fmt.Fprintf(&b, "#SBATCH --array=0-%d\n", j.Tasks-1)
	fmt.Fprintf(&b, "#SBATCH --cpus-per-task=%d\n", cpus)
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", filepath.Join(j.Out, "slurm", "logs", "%A_%a.out"))
	if j.Partition != "" {
		fmt.Fprintf(&b, "#SBATCH --partition=%s\n", j.Partition)
	}
	for _, o := range j.Options {
		fmt.Fprintf(&b, "#SBATCH %s\n", o)
	}
	fmt.Fprintf(&b, "# Written by twintorus %s.", version.String())
	if j.Comment != "" {
		b.WriteString(" " + strings.ReplaceAll(j.Comment, "\n", " "))
	}
	b.WriteString("\n# Each array task runs one shard of the sweep into the shared results store;\n")
	b.WriteString("# submitting again runs only what is missing. Merge with: twintorus collect " + shellQuote(j.Out) + "\n")
	b.WriteString("set -eu\n")
	fmt.Fprintf(&b, "exec %s sweep %s --out %s --shard \"${SLURM_ARRAY_TASK_ID}/%d\" --workers \"${SLURM_CPUS_PER_TASK:-%d}\"\n",
		shellQuote(j.Binary), shellQuote(j.Spec), shellQuote(j.Out), j.Tasks, cpus)
	return b.String(), nil
}

// Write writes the script to DIR/slurm/sweep.sbatch, and makes the directory of the
// tasks' logs (Slurm does not), and returns the script's path.
func (j SlurmJob) Write() (string, error) {
	script, err := j.Script()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(j.Out, "slurm", "logs"), 0o755); err != nil {
		return "", fmt.Errorf("slurm job: %w", err)
	}
	path := filepath.Join(j.Out, "slurm", "sweep.sbatch")
	if err := writeAtomic(path, []byte(script), nil); err != nil {
		return "", fmt.Errorf("slurm job: %w", err)
	}
	return path, nil
}

// SubmitSlurm submits a batch script with `sbatch --parsable` and returns the job id.
// sbatch finds the cluster as usual (SLURM_CONF, /etc/slurm).
func SubmitSlurm(ctx context.Context, script string) (string, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "sbatch", "--parsable", script)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return "", errors.New("submit: sbatch not found: is this a Slurm login node? (--dry-run writes the script only)")
		}
		return "", fmt.Errorf("submit %s: sbatch: %v: %s", script, err, strings.TrimSpace(stderr.String()))
	}
	// --parsable prints "jobid" or "jobid;cluster".
	id, _, _ := strings.Cut(strings.TrimSpace(stdout.String()), ";")
	if _, err := strconv.Atoi(id); err != nil {
		return "", fmt.Errorf("submit %s: sbatch printed %q, not a job id", script, stdout.String())
	}
	return id, nil
}

// Pending counts the simulations of a sweep with fixed loads that are not in the
// store (absent or corrupt), of all it has. An automatic load search, or a list cut
// short past saturation, cannot know its loads before it runs: it returns -1, -1.
//
// Cancelling ctx stops it (a store of many records takes a while to read).
func Pending(ctx context.Context, spec Spec, dir string) (missing, total int, err error) {
	curves, err := spec.Curves()
	if err != nil {
		return 0, 0, err
	}
	spec = spec.withDefaults()
	if spec.sequential() {
		return -1, -1, nil
	}
	store := &Store{Dir: dir}
	jobs := spec.jobs(curves)
	for _, j := range jobs {
		if err := ctx.Err(); err != nil {
			return 0, 0, err
		}
		if rec, err := store.Get(j.key); rec == nil || err != nil {
			missing++
		}
	}
	return missing, len(jobs), nil
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
