// Command testtimes reads the `go test -json` events that scripts/gotest.sh --json
// writes, one file per package, and prints where the suite's time goes as Markdown:
// each package's wall time, then the slowest tests.
//
//	scripts/gotest.sh --json /tmp/times && go run ./tools/testtimes /tmp/times
//
// For one package's events it also prints what scripts/gotest.sh reports of a package
// that failed: -output FILE, the output of its failed tests and of the package itself
// (not the passing tests' chatter), and -running FILE, the tests that had started and
// not ended when the events stop, with how long each had run by then (a package the
// script stopped for running out of time).
//
// A test's time is its own elapsed time; for a test whose subtests run in parallel
// the table also gives the sum of its leaf subtests' times, which is closer to the CPU
// it takes than its wall time, since its subtests share the cores.
package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// event is the part of a test2json event this reads.
type event struct {
	Time    time.Time
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

type testTime struct {
	pkg, name string
	wall      float64 // the test's own elapsed time
	leaves    float64 // the sum of its leaf subtests' times (its own when it has none)
	subtests  int
}

type pkgTime struct {
	name   string
	result string
	wall   float64
}

func main() {
	top := flag.Int("top", 25, "how many of the slowest tests to list")
	output := flag.Bool("output", false, "print the output of FILE's failed tests and package")
	running := flag.Bool("running", false, "print FILE's tests that started and never ended, with how long each had run")
	flag.Parse()
	if flag.NArg() != 1 || (*output && *running) {
		fmt.Fprintln(os.Stderr, "usage: testtimes [-top N] DIR (the directory scripts/gotest.sh --json wrote)\n       testtimes -output FILE | -running FILE (one package's go test -json events)")
		os.Exit(2)
	}
	var err error
	switch {
	case *output:
		err = printOutput(os.Stdout, flag.Arg(0))
	case *running:
		err = printRunning(os.Stdout, flag.Arg(0))
	default:
		err = run(os.Stdout, flag.Arg(0), *top)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "testtimes:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, dir string, top int) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no *.json files in %s: write them with scripts/gotest.sh --json %s", dir, dir)
	}
	var pkgs []pkgTime
	var tests []testTime
	for _, f := range files {
		p, t, err := readFile(f)
		if err != nil {
			return err
		}
		pkgs = append(pkgs, p...)
		tests = append(tests, t...)
	}
	slices.SortFunc(pkgs, func(a, b pkgTime) int { return cmp.Compare(b.wall, a.wall) })
	slices.SortFunc(tests, func(a, b testTime) int { return cmp.Compare(b.leaves, a.leaves) })
	total := 0.0
	fmt.Fprintln(w, "| package | result | wall s |")
	fmt.Fprintln(w, "|---|---|---:|")
	for _, p := range pkgs {
		total += p.wall
		fmt.Fprintf(w, "| %s | %s | %.1f |\n", short(p.name), p.result, p.wall)
	}
	fmt.Fprintf(w, "| all, one after the other | | %.1f |\n\n", total)
	fmt.Fprintln(w, "| test | package | wall s | subtests | sum of subtests s |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|")
	for _, t := range tests[:min(top, len(tests))] {
		fmt.Fprintf(w, "| %s | %s | %.1f | %d | %.1f |\n", t.name, short(t.pkg), t.wall, t.subtests, t.leaves)
	}
	return nil
}

// short is a package's import path without the module's.
func short(pkg string) string {
	const module = "github.com/twintorus/twintorus/"
	return strings.TrimPrefix(pkg, module)
}

// readFile reads one package's events: its result and wall time, and each top-level
// test's time.
func readFile(path string) ([]pkgTime, []testTime, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	elapsed := map[[2]string]float64{} // package, test
	var pkgs []pkgTime
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		if !strings.HasPrefix(sc.Text(), "{") {
			continue // a build error's text, not an event
		}
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		switch e.Action {
		case "pass", "fail", "skip":
		default:
			continue
		}
		if e.Test == "" {
			pkgs = append(pkgs, pkgTime{name: e.Package, result: e.Action, wall: e.Elapsed})
			continue
		}
		elapsed[[2]string{e.Package, e.Test}] = e.Elapsed
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	// A leaf is a test with no subtest of its own.
	parent := map[[2]string]bool{}
	for k := range elapsed {
		if i := strings.LastIndex(k[1], "/"); i >= 0 {
			parent[[2]string{k[0], k[1][:i]}] = true
		}
	}
	byTop := map[[2]string]*testTime{}
	for k, v := range elapsed {
		name, _, _ := strings.Cut(k[1], "/")
		key := [2]string{k[0], name}
		t := byTop[key]
		if t == nil {
			t = &testTime{pkg: k[0], name: name}
			byTop[key] = t
		}
		if k[1] == name {
			t.wall = v
		}
		if !parent[k] {
			t.leaves += v
			if k[1] != name {
				t.subtests++
			}
		}
	}
	var tests []testTime
	for _, t := range byTop {
		tests = append(tests, *t)
	}
	return pkgs, tests, nil
}

// readEvents reads one file of go test -json events; lines that are not events (a
// build error's text) come back as package output.
func readEvents(path string) ([]event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var events []event
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		if !strings.HasPrefix(sc.Text(), "{") {
			events = append(events, event{Action: "output", Output: sc.Text() + "\n"})
			continue
		}
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		events = append(events, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return events, nil
}

// printOutput writes the output of the package and of every test that failed or never
// ended (with its parents' and subtests' lines), in the order it was printed.
func printOutput(w io.Writer, path string) error {
	events, err := readEvents(path)
	if err != nil {
		return err
	}
	// Failed tests, and tests that never ended (a package stopped for its time: Go's
	// goroutine dump is printed as theirs).
	failed := map[string]bool{}
	for _, e := range events {
		switch {
		case e.Test == "":
		case e.Action == "fail" || e.Action == "run":
			failed[e.Test] = true
		case e.Action == "pass" || e.Action == "skip":
			delete(failed, e.Test)
		}
	}
	// A test's lines belong to the failure when it, an ancestor or a descendant failed.
	related := func(test string) bool {
		for f := range failed {
			if f == test || strings.HasPrefix(f, test+"/") || strings.HasPrefix(test, f+"/") {
				return true
			}
		}
		return false
	}
	for _, e := range events {
		if e.Action == "output" && (e.Test == "" || related(e.Test)) {
			fmt.Fprint(w, e.Output)
		}
	}
	return nil
}

// printRunning lists the tests that started (run) and never ended (pass, fail, skip)
// in the events, each with the time from its start to the last event.
func printRunning(w io.Writer, path string) error {
	events, err := readEvents(path)
	if err != nil {
		return err
	}
	started := map[string]time.Time{}
	var order []string
	var last time.Time
	for _, e := range events {
		if e.Time.After(last) {
			last = e.Time
		}
		if e.Test == "" {
			continue
		}
		switch e.Action {
		case "run":
			started[e.Test] = e.Time
			order = append(order, e.Test)
		case "pass", "fail", "skip":
			delete(started, e.Test)
		}
	}
	if len(started) == 0 {
		fmt.Fprintln(w, "\t(no test was running)")
	}
	for _, t := range order {
		if at, ok := started[t]; ok {
			fmt.Fprintf(w, "\t%s (%s)\n", t, last.Sub(at).Round(time.Second))
			delete(started, t)
		}
	}
	return nil
}
