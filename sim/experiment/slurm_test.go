package experiment

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sbatchArgs splits the text after "#SBATCH" as sbatch does (Slurm's sbatch reads
// its directives so, byte by byte): blanks separate arguments, single or double
// quotes group, a backslash takes the next byte as it is, even within quotes, and an
// unquoted # ends the line.
func sbatchArgs(line string) []string { return splitWords(line, true) }

// bashWords splits a command line as bash would without expanding anything: blanks
// separate, single quotes keep everything, double quotes group (their contents kept
// as written), a backslash outside quotes takes the next byte.
func bashWords(line string) []string { return splitWords(line, false) }

func splitWords(line string, sbatch bool) []string {
	var words []string
	var w []byte
	in := false // inside a word
	var quote byte
	escaped := false
	for i := range len(line) {
		c := line[i]
		switch {
		case escaped:
			escaped = false
			w = append(w, c)
		case c == '\\' && (quote == 0 || sbatch):
			escaped, in = true, true
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				w = append(w, c)
			}
		case c == '"' || c == '\'':
			quote, in = c, true
		case c == '#' && sbatch:
			if in {
				words = append(words, string(w))
			}
			return words
		case strings.IndexByte(" \t\n\v\f\r", c) >= 0: // C's isspace
			if in {
				words = append(words, string(w))
				w = w[:0]
				in = false
			}
		default:
			w = append(w, c)
			in = true
		}
	}
	if in {
		words = append(words, string(w))
	}
	return words
}

// directives are the arguments of a script's #SBATCH lines, in order.
func directives(script string) []string {
	var all []string
	for _, line := range strings.Split(script, "\n") {
		if rest, ok := strings.CutPrefix(line, "#SBATCH"); ok {
			all = append(all, sbatchArgs(rest)...)
		}
	}
	return all
}

// TestSlurmScriptHostileValues writes the job script with paths and sbatch options
// full of what a shell or sbatch would read as syntax: quotes, $(...), backticks,
// #, %, spaces. The script, run by bash as an array task does, creates no file and
// calls the binary with exactly the paths given; sbatch reads each #SBATCH option
// back exactly. Values that cannot be written safely (newlines and other control
// characters, a backslash in the store path) are refused. Before the fix, a newline
// in --out became a command line of the script.
func TestSlurmScriptHostileValues(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	tmp := t.TempDir()
	pwned := filepath.Join(tmp, "pwned")
	argsFile := filepath.Join(tmp, "args")
	// The binary records its arguments, one per line of NUL-separated output.
	fake := filepath.Join(tmp, "bin dir", "twin'torus")
	if err := os.MkdirAll(filepath.Dir(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fake, []byte("#!/bin/bash\nprintf '%s\\0' \"$@\" > \"$ARGS_FILE\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	hostile := []string{
		`plain`,
		`with  spaces`,
		`it's'; touch ` + pwned + `; '`,
		`say "hi"; touch ` + pwned + `; "`,
		`$(touch ` + pwned + `)`,
		"`touch " + pwned + "`",
		`${IFS}touch${IFS}` + pwned,
		`# not a comment; touch ` + pwned,
		`100% %A %a %j %%`,
		`--output=elsewhere`,
	}
	base := SlurmJob{Binary: fake, Tasks: 2, CPUs: 1, Name: "t", Comment: "line one\nrm -rf / #\rtwo"}
	for _, v := range hostile {
		j := base
		j.Out = filepath.Join(tmp, "out", v)
		j.Spec = filepath.Join(j.Out, "specs", v+".yaml")
		j.Options = []string{"--comment=" + v, "--time=1:00:00"}
		script, err := j.Script()
		if err != nil {
			t.Errorf("%q: %v", v, err)
			continue
		}
		path := filepath.Join(tmp, "sweep.sbatch")
		if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bash, path)
		cmd.Dir = tmp
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "SLURM_ARRAY_TASK_ID=1", "ARGS_FILE=" + argsFile}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%q: the script failed: %v\n%s\n%s", v, err, out, script)
			continue
		}
		if _, err := os.Stat(pwned); err == nil {
			t.Fatalf("%q: the script ran an injected command:\n%s", v, script)
		}
		data, err := os.ReadFile(argsFile)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00")
		want := []string{"sweep", j.Spec, "--out", j.Out, "--shard", "1/2", "--workers", "1"}
		if !slices.Equal(got, want) {
			t.Errorf("%q: the binary got %q, want %q", v, got, want)
		}
		logs := strings.ReplaceAll(filepath.Join(j.Out, "slurm", "logs"), "%", "%%") + "/%A_%a.out"
		wantDirectives := []string{"--job-name=t", "--array=0-1", "--cpus-per-task=1", "--output=" + logs, "--comment=" + v, "--time=1:00:00"}
		if d := directives(script); !slices.Equal(d, wantDirectives) {
			t.Errorf("%q: sbatch reads the directives\n%q\nwant\n%q", v, d, wantDirectives)
		}
		if lines := strings.Count(script, "\n"); lines != 12 {
			t.Errorf("%q: the script has %d lines, want 12:\n%s", v, lines, script)
		}
	}

	refused := []struct {
		change func(*SlurmJob)
		want   string
	}{
		{func(j *SlurmJob) { j.Out = tmp + "/dir\ntouch " + pwned + " #" }, `has a control character (U+000A)`},
		{func(j *SlurmJob) { j.Out = tmp + "/dir\rx" }, `has a control character (U+000D)`},
		{func(j *SlurmJob) { j.Out = tmp + "/dir\tx" }, `has a control character (U+0009)`},
		{func(j *SlurmJob) { j.Spec = tmp + "/a\x00b" }, `has a control character (U+0000)`},
		{func(j *SlurmJob) { j.Binary = tmp + "/bin\n/twintorus" }, `has a control character`},
		{func(j *SlurmJob) { j.Out = tmp + `/back\slash` }, `has a backslash`},
		{func(j *SlurmJob) { j.Out = tmp + `/my-PackJob` }, `"packjob"`},
		{func(j *SlurmJob) { j.Options = []string{"--time=1\n/bin/touch " + pwned} }, `sbatch option`},
		{func(j *SlurmJob) { j.Options = []string{"--time=1", "touch"} }, `want one option`},
		{func(j *SlurmJob) { j.Partition = "a b" }, `has characters other`},
		{func(j *SlurmJob) { j.Partition = "$(touch x)" }, `has characters other`},
		{func(j *SlurmJob) { j.Name = "a\nb" }, `has characters other`},
	}
	for _, c := range refused {
		j := base
		j.Out = filepath.Join(tmp, "out")
		j.Spec = filepath.Join(j.Out, "specs", "s.yaml")
		c.change(&j)
		script, err := j.Script()
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: got %v (script %q), want a one-line error with %q", j, err, script, c.want)
		}
	}
}

// TestSbatchArgs pins the test's reading of #SBATCH lines to sbatch's documented
// behaviour.
func TestSbatchArgs(t *testing.T) {
	for line, want := range map[string][]string{
		" --time=1 --mem=2":            {"--time=1", "--mem=2"},
		` "--output=/a b/%A.out"`:      {"--output=/a b/%A.out"},
		` '--comment=x "y"' # note`:    {`--comment=x "y"`},
		` "--comment=\"q\" \\ #z"`:     {`--comment="q" \ #z`},
		` --comment=a\ b`:              {"--comment=a b"},
		` --x=1#comment`:               {"--x=1"},
		"":                             nil,
		"   # only a comment":          nil,
		` "" x`:                        {"", "x"},
		` "--comment=$(touch p)" -J x`: {"--comment=$(touch p)", "-J", "x"},
	} {
		if got := sbatchArgs(line); !slices.Equal(got, want) {
			t.Errorf("%q: %q, want %q", line, got, want)
		}
	}
}
