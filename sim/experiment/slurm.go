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
	"unicode"

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

// Script is the sbatch script. Every value it holds is quoted for where it goes, or
// refused: paths and sbatch options go into #SBATCH lines, which sbatch splits into
// arguments (whitespace separates, quotes group, a backslash escapes, an unquoted #
// ends the line), and into the bash command line, in single quotes. No value can
// end a line: control characters (newlines above all) are refused everywhere.
func (j SlurmJob) Script() (string, error) {
	for _, p := range [][2]string{{"results store", j.Out}, {"spec", j.Spec}, {"binary", j.Binary}} {
		if !filepath.IsAbs(p[1]) {
			return "", fmt.Errorf("slurm job: the %s path %q must be absolute, as tasks run elsewhere", p[0], p[1])
		}
		if err := scriptSafe(p[0]+" path", p[1]); err != nil {
			return "", err
		}
	}
	// Slurm reads a backslash in an output file name as "no %A/%a substitution",
	// and drops it: the tasks' logs would go elsewhere, all into one file.
	if strings.Contains(j.Out, `\`) {
		return "", fmt.Errorf("slurm job: the results store path %q has a backslash, which Slurm's log file names do not keep: choose a path without one", j.Out)
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
		if !strings.HasPrefix(o, "-") {
			return "", fmt.Errorf("slurm job: sbatch option %q: want one option such as --time=1:00:00", o)
		}
		if err := scriptSafe("sbatch option", o); err != nil {
			return "", err
		}
	}
	var b strings.Builder
	b.WriteString("#!/bin/bash\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n", name)
	fmt.Fprintf(&b, "#SBATCH --array=0-%d\n", j.Tasks-1)
	fmt.Fprintf(&b, "#SBATCH --cpus-per-task=%d\n", cpus)
	// In a log file name % starts a pattern (%A job, %a task): %% is a plain %.
	logs := strings.ReplaceAll(filepath.Join(j.Out, "slurm", "logs"), "%", "%%")
	fmt.Fprintf(&b, "#SBATCH %s\n", sbatchQuote("--output="+logs+"/%A_%a.out"))
	if j.Partition != "" {
		fmt.Fprintf(&b, "#SBATCH --partition=%s\n", j.Partition)
	}
	for _, o := range j.Options {
		fmt.Fprintf(&b, "#SBATCH %s\n", sbatchQuote(o))
	}
	fmt.Fprintf(&b, "# Written by twintorus %s.", oneLine(version.String()))
	if j.Comment != "" {
		b.WriteString(" " + oneLine(j.Comment))
	}
	b.WriteString("\n# Each array task runs one shard of the sweep into the shared results store;\n")
	b.WriteString("# submitting again runs only what is missing. Merge with: twintorus collect " + ShellQuote(j.Out) + "\n")
	b.WriteString("set -eu\n")
	fmt.Fprintf(&b, "exec %s sweep %s --out %s --shard \"${SLURM_ARRAY_TASK_ID}/%d\" --workers \"${SLURM_CPUS_PER_TASK:-%d}\"\n",
		ShellQuote(j.Binary), ShellQuote(j.Spec), ShellQuote(j.Out), j.Tasks, cpus)
	return b.String(), nil
}

// scriptSafe refuses a value that could end a line of the script, or that Slurm's
// #SBATCH reader would alter: control characters, and "packjob", which sbatch blanks
// out of every #SBATCH line.
func scriptSafe(what, v string) error {
	if i := strings.IndexFunc(v, unicode.IsControl); i >= 0 {
		return fmt.Errorf("slurm job: the %s %q has a control character (%U): accepted are values without newlines, tabs or other control characters", what, v, []rune(v[i:])[0])
	}
	if strings.Contains(strings.ToLower(v), "packjob") {
		return fmt.Errorf("slurm job: the %s %q holds \"packjob\", which sbatch removes from #SBATCH lines: choose another name", what, v)
	}
	return nil
}

// sbatchQuote writes one argument of an #SBATCH line so that sbatch reads it back
// exactly: as it is when it has nothing sbatch treats specially, else in double
// quotes with \ and " escaped by a backslash.
func sbatchQuote(s string) string {
	if slurmWord.MatchString(s) && s != "" {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}

// oneLine replaces control characters, newlines first, by spaces, for comment lines.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
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
// store (absent or corrupt), of all it has. An automatic load search, a list cut
// short past saturation or a precision target cannot know its loads or replications
// before it runs: it returns -1, -1.
//
// Cancelling ctx stops it (a store of many records takes a while to read).
func Pending(ctx context.Context, spec Spec, dir string) (missing, total int, err error) {
	curves, err := spec.Curves()
	if err != nil {
		return 0, 0, err
	}
	spec = spec.withDefaults()
	if !spec.planned() {
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

// ShellQuote quotes s as one word for bash: in single quotes, where a single quote
// is written as quote, backslash, quote, quote (close, escaped quote, reopen).
func ShellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
