package main

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twintorus/twintorus/cmd/twintorus/internal/slurmtest"
	"github.com/twintorus/twintorus/sim/experiment"
)

// simulations reads the test log of completed simulations: how many times each key ran.
func simulations(t *testing.T, path string) (map[string]int, int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	counts := map[string]int{}
	lines := 0
	for _, k := range strings.Fields(string(data)) {
		counts[k]++
		lines++
	}
	return counts, lines
}

// checkOnce fails unless every simulation of the log ran exactly once and there are want.
func checkOnce(t *testing.T, counts map[string]int, want int) {
	t.Helper()
	for k, n := range counts {
		if n != 1 {
			t.Errorf("simulation %.12s ran %d times", k, n)
		}
	}
	if len(counts) != want {
		t.Errorf("%d distinct simulations ran, want %d", len(counts), want)
	}
}

// TestSweepKillResume SIGKILLs the acceptance sweep at pseudo-random moments, then
// lets it finish: no record is ever corrupt, no simulation completes twice, none is
// missing, and the CSV equals an uninterrupted run's.
//
// A simulation is complete when its record is renamed into place; the sweep logs its
// key (TWINTORUS_TEST_SIMLOG) right after that rename. A kill between the two leaves a
// stored record that no log line names (seen once in CI): such a record counts as run
// once when the store held it right after a kill, at most one per worker per kill.
func TestSweepKillResume(t *testing.T) {
	bin := twintorusBinary(t)
	want, whole := localCSV(t, acceptanceSpec)
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "results")
	simlog := filepath.Join(tmp, "simulations")
	env := append(os.Environ(), simLogEnv+"="+simlog)
	sweep := func() *exec.Cmd {
		cmd := exec.Command(bin, "sweep", acceptanceSpec, "--out", dir, "--workers", "2")
		cmd.Env = env
		return cmd
	}
	// Kill after 4-16 % of an uninterrupted run's time (plus process start-up), at the
	// same pseudo-random moments every run: six kills leave work for the last run on
	// any machine.
	rng := rand.New(rand.NewPCG(2026, 4))
	var kills int
	var stored []int
	storedAtKill := map[string]bool{} // records in the store right after a kill
	for range 6 {
		cmd := sweep()
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		delay := 30*time.Millisecond + whole/25 + time.Duration(rng.Int64N(int64(whole*3/25)))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		finished := false
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("sweep failed: %v\n%s", err, &out)
			}
			finished = true
		case <-time.After(delay):
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			err := <-done
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				// It may have finished just before the signal.
				if err != nil {
					t.Fatalf("killed sweep: %v\n%s", err, &out)
				}
				finished = true
			} else {
				kills++
			}
		}
		c, err := experiment.Load(dir)
		if errors.Is(err, fs.ErrNotExist) {
			// Killed before it made the store: on a loaded machine start-up can take
			// longer than the delay.
			c, err = &experiment.Collection{}, nil
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Corrupt) > 0 {
			t.Fatalf("after kill %d: %v", kills, c.Err())
		}
		stored = append(stored, len(c.Records))
		for i := range c.Records {
			storedAtKill[c.Records[i].Key] = true
		}
		if finished {
			break
		}
	}
	temps, _ := filepath.Glob(filepath.Join(dir, "records", "*", ".tmp-*"))
	if kills < 3 || stored[len(stored)-1] >= 120 {
		t.Fatalf("only %d kills before the sweep finished (records after each: %v): the test must interrupt it several times", kills, stored)
	}
	out, err := sweep().CombinedOutput()
	if err != nil {
		t.Fatalf("final sweep: %v\n%s", err, out)
	}
	last := stored[len(stored)-1]
	if !strings.Contains(string(out), "sweep acceptance: 120 simulations: ") || !strings.Contains(string(out), " stored, ") {
		t.Errorf("final sweep printed:\n%s", out)
	}
	counts, lines := simulations(t, simlog)
	final, err := experiment.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	unlogged := 0
	for i := range final.Records {
		if k := final.Records[i].Key; counts[k] == 0 && storedAtKill[k] {
			counts[k], unlogged = 1, unlogged+1 // renamed into place, then killed before the log line
		}
	}
	if unlogged > 2*kills {
		t.Errorf("%d stored records no log line names, after %d kills of 2 workers", unlogged, kills)
	}
	checkOnce(t, counts, 120)
	if got := storeCSV(t, dir); got != want {
		t.Error("CSV after kills and resume differs from an uninterrupted run's")
	}
	// The resumed sweep removes what the kills left half written (issue 39).
	if left, _ := filepath.Glob(filepath.Join(dir, "records", "*", ".tmp-*")); len(left) != 0 {
		t.Errorf("temporary files left by the kills survive the resumed sweep: %v", left)
	}
	t.Logf("%d SIGKILLs; records stored after each: %v; the final run completed %d; %d simulations logged, each once, %d stored by a killed run before its log line; %d temporary files left by kills, removed on resume",
		kills, stored, 120-last, lines, unlogged, len(temps))
}

// TestSweepSlurm runs the acceptance sweep as a job array on a real single-host Slurm
// started by the test (see internal/slurmtest, under this command): the same CSV as the local runner; a
// re-submit with everything stored submits nothing; after records are lost, a
// re-submit runs exactly those.
func TestSweepSlurm(t *testing.T) {
	start := time.Now()
	cluster := slurmtest.Start(t) // skips, saying why, when Slurm cannot run here
	up := time.Since(start)
	bin := twintorusBinary(t)
	want, _ := localCSV(t, acceptanceSpec)
	spec, err := filepath.Abs(acceptanceSpec)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "results")
	simlog := filepath.Join(tmp, "simulations")
	jobID := regexp.MustCompile(`submitted Slurm job (\d+): (\d+) array tasks`)
	submit := func() string {
		t.Helper()
		cmd := cluster.Command(bin, "sweep", spec, "--out", dir, "--slurm", "--array-size", "3")
		cmd.Env = append(cmd.Env, simLogEnv+"="+simlog)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("sweep --slurm: %v\n%s", err, out)
		}
		return string(out)
	}
	wait := func(out string, tasks int) {
		t.Helper()
		m := jobID.FindStringSubmatch(out)
		if m == nil || m[2] != strconv.Itoa(tasks) {
			t.Fatalf("sweep --slurm printed no job of %d tasks:\n%s", tasks, out)
		}
		states, err := cluster.Wait(m[1], 5*time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		ok := len(states) == tasks
		for _, s := range states {
			ok = ok && s.State == "COMPLETED" && s.ExitCode == 0
		}
		if !ok {
			logs, _ := filepath.Glob(filepath.Join(dir, "slurm", "logs", "*"))
			var b strings.Builder
			for _, l := range logs {
				data, _ := os.ReadFile(l)
				b.WriteString(l + ":\n" + string(data))
			}
			t.Fatalf("job %s: %v, want %d tasks COMPLETED 0:0\n%s", m[1], states, tasks, b.String())
		}
	}

	submitted := time.Now()
	wait(submit(), 3)
	ran := time.Since(submitted)
	if got := storeCSV(t, dir); got != want {
		t.Error("CSV of the Slurm sweep differs from the local runner's")
	}
	counts, _ := simulations(t, simlog)
	checkOnce(t, counts, 120)
	script, err := os.ReadFile(filepath.Join(dir, "slurm", "sweep.sbatch"))
	if err != nil || !strings.Contains(string(script), "#SBATCH --array=0-2") || !strings.Contains(string(script), `--shard "${SLURM_ARRAY_TASK_ID}/3"`) {
		t.Errorf("job script (%v):\n%s", err, script)
	}

	if out := submit(); !strings.HasPrefix(out, "nothing to submit: all 120 simulations are in "+dir) {
		t.Errorf("re-submit with everything stored:\n%s", out)
	}

	// Lose five records; a re-submit runs those five and nothing else.
	paths, _ := filepath.Glob(filepath.Join(dir, "records", "*", "*.json"))
	slices.Sort(paths)
	var lost []string
	for _, p := range paths[:5] {
		lost = append(lost, strings.TrimSuffix(filepath.Base(p), ".json"))
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	_, before := simulations(t, simlog)
	wait(submit(), 3)
	counts, after := simulations(t, simlog)
	if after-before != 5 {
		t.Errorf("re-submit ran %d simulations, want the 5 lost", after-before)
	}
	for _, k := range lost {
		if counts[k] != 2 {
			t.Errorf("lost record %.12s ran %d times in all, want 2", k, counts[k])
		}
	}
	if got := storeCSV(t, dir); got != want {
		t.Error("CSV after the re-submit differs from the local runner's")
	}
	t.Logf("Slurm: cluster up in %v; 120 simulations as 3 array tasks in %v (submit to all tasks done); whole test %v",
		up.Round(time.Millisecond), ran.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}

// TestSweepInterrupt: SIGINT stops a sweep cleanly: it exits with an error that says
// how many simulations finished, and exactly those are in the store.
func TestSweepInterrupt(t *testing.T) {
	bin := twintorusBinary(t)
	dir := filepath.Join(t.TempDir(), "results")
	cmd := exec.Command(bin, "sweep", acceptanceSpec, "--out", dir, "--workers", "2")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Interrupt once a few records are in, well before the end.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if recs, _ := filepath.Glob(filepath.Join(dir, "records", "*", "*.json")); len(recs) >= 5 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no record after a minute")
		}
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("interrupted sweep: %v, want exit status 1\n%s%s", err, &stdout, &stderr)
	}
	m := regexp.MustCompile(`sweep stopped after (\d+) simulations \(each one finished is stored; run again to resume\): context canceled`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("interrupted sweep said:\n%s%s", &stdout, &stderr)
	}
	c, err := experiment.Load(dir)
	if err != nil || c.Err() != nil {
		t.Fatalf("store after SIGINT: %v %v", err, c.Err())
	}
	if n, _ := strconv.Atoi(m[1]); n != len(c.Records) || n == 0 || n >= 120 {
		t.Errorf("the sweep said %s simulations finished; the store holds %d", m[1], len(c.Records))
	}
	temps, _ := filepath.Glob(filepath.Join(dir, "records", "*", ".tmp-*"))
	if len(temps) != 0 {
		t.Errorf("a clean stop left temporary files: %v", temps)
	}
}

// tinySpecYAML is 2 short simulations: one curve, two loads, one seed.
const tinySpecYAML = `name: tiny
topologies: torus:4x4
engine: {warmup: 100, measure: 500}
loads: [0.1, 0.2]
seeds: 1
`

// TestSweepSlurmHostilePaths submits a sweep to the real Slurm with a results store
// path and an sbatch option full of shell and sbatch syntax (quotes, $(...),
// backticks, #, %, spaces): the job runs, its tasks' logs land in the store, the
// option reaches Slurm exactly as given, and no injected command runs.
func TestSweepSlurmHostilePaths(t *testing.T) {
	cluster := slurmtest.Start(t)
	bin := twintorusBinary(t)
	tmp := t.TempDir()
	pwned := filepath.Join(tmp, "pwned")
	spec := writeFile(t, filepath.Join(tmp, "tiny.yaml"), tinySpecYAML)
	dir := filepath.Join(tmp, `it's "a" $(touch `+pwned+`) `+"`touch "+pwned+"`"+` #1 100%a ${HOME}`)
	comment := `it's "quoted" $(touch ` + pwned + `) #not a comment`
	cmd := cluster.Command(bin, "sweep", spec, "--out", dir, "--slurm", "--array-size", "2", "--sbatch=--comment="+comment)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sweep --slurm: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`submitted Slurm job (\d+): 2 array tasks`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("sweep --slurm printed:\n%s", out)
	}
	id := string(m[1])
	states, err := cluster.Wait(id, 2*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range states {
		if s.State != "COMPLETED" || s.ExitCode != 0 {
			t.Errorf("task %v", s)
		}
	}
	for task := range 2 {
		if _, err := os.Stat(filepath.Join(dir, "slurm", "logs", id+"_"+strconv.Itoa(task)+".out")); err != nil {
			t.Errorf("task %d's log is not in the store: %v", task, err)
		}
	}
	show, err := cluster.Command("scontrol", "show", "job", id).CombinedOutput()
	if err != nil {
		t.Fatalf("scontrol show job: %v\n%s", err, show)
	}
	// scontrol ends the line with a space.
	if !strings.Contains(string(show), "Comment="+comment+" \n") {
		t.Errorf("the job's comment is not %q:\n%s", comment, show)
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Error("an injected command ran")
	}
	if c, err := experiment.Load(dir); err != nil || c.Err() != nil || len(c.Records) != 2 {
		t.Errorf("store: %v, %v, %+v", err, c.Err(), c)
	}
}

// TestSweepSlurmRefusesUnsafeValues: a newline in --out or an sbatch option, which
// would end a line of the job script, is refused before anything is written (the
// issue's `--out $'dir\ntouch pwned #'` made the script run `touch pwned`).
func TestSweepSlurmRefusesUnsafeValues(t *testing.T) {
	tmp := t.TempDir()
	spec := writeFile(t, filepath.Join(tmp, "tiny.yaml"), tinySpecYAML)
	for _, c := range []struct {
		out  string
		args []string
		want string
	}{
		{"dir\ntouch pwned #", nil, `results store path`},
		{"ok", []string{"--sbatch=--time=1\ntouch pwned"}, `sbatch option`},
		{"ok", []string{"--partition", "debug;touch pwned"}, `has characters other than`},
	} {
		out := filepath.Join(tmp, c.out)
		args := append([]string{"sweep", spec, "--out", out, "--slurm", "--dry-run"}, c.args...)
		_, _, err := run(t, args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q %q: got %v, want a one-line error with %q", c.out, c.args, err, c.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%q %q: the results store was created", c.out, c.args)
		}
	}
}

// TestSweepSlurmPrecision: under a precision target a Slurm array deals whole points
// (a point's later seeds depend on its earlier ones), one task per point at most.
func TestSweepSlurmPrecision(t *testing.T) {
	tmp := t.TempDir()
	spec := writeFile(t, filepath.Join(tmp, "precise.yaml"), strings.Replace(tinySpecYAML, "seeds: 1\n", "seeds: 30\nprecision: {relative: 0.01}\n", 1))
	out, _, err := run(t, "sweep", spec, "--out", filepath.Join(tmp, "out"), "--slurm", "--dry-run")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "2 array tasks for 2 points under a precision target, each of 5 to 30 seeds") {
		t.Errorf("dry run: %s", out)
	}
}
