package workload

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestSpecRoundTrip(t *testing.T) {
	cases := map[string]string{
		"bcast:binomial:512B":                       "bcast:binomial:512B",
		" BCAST : Binomial : 16B ":                  "bcast:binomial:16B",
		"bcast:pipeline:4KiB:seg=1KiB":              "bcast:pipeline:4KiB:seg=1KiB",
		"bcast:chain:4096B:chains=2,root=3,tasks=8": "bcast:chain:4KiB:tasks=8,root=3,chains=2",
		"allreduce:reduce_bcast:8B":                 "allreduce:nonoverlapping:8B",
		"alltoall:pairwise:512B:tasks=1024":         "alltoall:pairwise:512B:tasks=1024",
		"graph500":                                  "graph500",
		"graph500:tasks=256":                        "graph500:tasks=256",
		"Graph500:levels=8,tasks=256,block=1KiB":    "graph500:tasks=256,block=1KiB",
		"namd:stencil=26,bytes=2KiB":                "namd:stencil=26",
		"randomaccess:seed=7":                       "randomaccess:seed=7",
		"trace:datasets/traces/a:b,c.trace.gz":      "trace:datasets/traces/a:b,c.trace.gz",
		"TRACE: x.trace":                            "trace:x.trace",
	}
	for in, want := range cases {
		s, err := ParseSpec(in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if s.String() != want {
			t.Errorf("%q prints as %q, want %q", in, s.String(), want)
		}
		back, err := ParseSpec(s.String())
		if err != nil || back.String() != s.String() {
			t.Errorf("%q: %q reads back as %v, %v", in, s.String(), back, err)
		}
	}
}

func TestSpecErrors(t *testing.T) {
	cases := map[string]string{
		"":                                  "empty",
		"bcast:ring:16B":                    "unknown bcast algorithm \"ring\": accepted are binomial, chain, pipeline",
		"scan:linear:16B":                   "unknown workload \"scan\"",
		"bcast:binomial":                    "a collective is OP:ALGORITHM:SIZE",
		"bcast:binomial:-16B":               "size \"-16B\" is negative",
		"bcast:binomial:16":                 "write bytes with a unit",
		"bcast:binomial:16B:root=-1":        "root=-1: accepted are whole numbers 0",
		"bcast:binomial:16B:root=8,tasks=8": "root 8: accepted are tasks 0 to 7",
		"bcast:binomial:16B:tasks=0":        "tasks=0: accepted are whole numbers 1",
		"alltoall:pairwise:16B:root=1":      "alltoall:pairwise has no parameter \"root\"",
		"bcast:binomial:16B:seg":            "parameter \"seg\": write KEY=VALUE",
		"bcast:binomial:16B:root=1,root=2":  "parameter root given twice",
		"graph500:tasks=0":                  "tasks=0: accepted are whole numbers 1",
		"graph500:colour=red":               "graph500 has no parameter \"colour\": accepted are tasks, levels",
		"graph500:tasks=4:levels=2":         "graph500 takes KEY=VALUE,... after one colon",
		"namd:stencil=7":                    "stencil=7: accepted are 6 and 26",
		"trace:":                            "trace needs a path",
	}
	for in, want := range cases {
		_, err := ParseSpec(in)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), fmt.Sprintf("workload %q: ", in)) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v\nwant one line containing %q", in, err, want)
		}
	}
	// Build-time errors: a stencil the parser lets through but namd refuses, zero tasks.
	s := Spec{Proxy: "namd", Params: map[string]int64{"stencil": 8}, Tasks: 8}
	if _, err := s.Build(0); err == nil || !strings.Contains(err.Error(), "stencil 8: accepted are 6 and 26") {
		t.Errorf("namd stencil 8: %v", err)
	}
	s, _ = ParseSpec("bcast:binomial:16B")
	if _, err := s.Build(0); err == nil || !strings.Contains(err.Error(), "0 tasks: accepted are 1 to") {
		t.Errorf("zero tasks: %v", err)
	}
	if _, err := (Spec{}).Build(4); err == nil {
		t.Error("the zero spec built")
	}
}

// Every algorithm of the table parses from its name and builds.
func TestSpecEveryAlgorithm(t *testing.T) {
	for _, a := range Algorithms() {
		s, err := ParseSpec(a + ":64B")
		if err != nil {
			t.Fatal(err)
		}
		w, err := s.Build(12)
		if err != nil {
			t.Fatal(err)
		}
		if w.Messages() == 0 || w.Name() != a+":64B" {
			t.Errorf("%s: %d messages, name %q", a, w.Messages(), w.Name())
		}
	}
	if !slices.Contains(Algorithms(), "allgather:bruck") || len(Algorithms()) != 16 {
		t.Errorf("algorithms: %v", Algorithms())
	}
}

// Check refuses what Build refuses and accepts what Build builds, without building
// a collective; its count of a collective's messages is exact for every algorithm.
func TestSpecCheckAgreesWithBuild(t *testing.T) {
	var specs []string
	for _, a := range Algorithms() {
		specs = append(specs, a+":64B", a+":1KiB:tasks=5")
	}
	specs = append(specs, "bcast:binomial:4KiB:seg=1KiB", "reduce:binomial:1KiB:seg=100B,root=3",
		"bcast:chain:64B:chains=3", "gather:binomial:16B:root=7", "bcast:binomial:16B:root=40",
		"allgather:linear:1GiB", "graph500:levels=2", "namd:iterations=1")
	for _, str := range specs {
		s, err := ParseSpec(str)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []int{1, 2, 3, 6, 8, 13, 32} {
			w, berr := s.Build(p)
			n, cerr := s.Check(p)
			if (berr == nil) != (cerr == nil) || berr != nil && berr.Error() != cerr.Error() {
				t.Errorf("%s over %d tasks: Build says %v, Check %v", str, p, berr, cerr)
			}
			if w != nil && n != w.Tasks() {
				t.Errorf("%s over %d tasks: Check says %d tasks, Build made %d", str, p, n, w.Tasks())
			}
			if w != nil && s.Collective.Op != "" {
				tasks := p
				if s.Tasks != 0 {
					tasks = s.Tasks
				}
				if m := s.Collective.messages(tasks); int64(w.Messages()) != m || w.Ops() != 2*w.Messages() {
					t.Errorf("%s over %d tasks: %d messages in %d operations, counted %d", str, p, w.Messages(), w.Ops(), m)
				}
			}
		}
	}
}

func TestMapping(t *testing.T) {
	lin, _ := ParseMapping("linear/2")
	pe, err := lin.Place(7, 4, 1)
	if err != nil || !slices.Equal(pe, []int32{0, 0, 1, 1, 2, 2, 3}) {
		t.Errorf("linear/2: %v, %v", pe, err)
	}
	rnd, _ := ParseMapping("random/4")
	a, _ := rnd.Place(256, 64, 1)
	b, _ := rnd.Place(256, 64, 1)
	c, _ := rnd.Place(256, 64, 2)
	if !slices.Equal(a, b) || slices.Equal(a, c) {
		t.Error("random mapping: not deterministic per seed, or the same for two seeds")
	}
	per := make([]int, 64)
	for _, p := range a {
		per[p]++
	}
	for p, n := range per {
		if n != 4 {
			t.Fatalf("random/4 with 256 tasks on 64 PEs: PE %d has %d tasks", p, n)
		}
	}
	one, _ := ParseMapping("random")
	x, _ := one.Place(100, 100, 3)
	sorted := slices.Clone(x)
	slices.Sort(sorted)
	for i, v := range sorted {
		if int(v) != i {
			t.Fatal("random mapping of 100 tasks on 100 PEs is not a permutation")
		}
	}
	if _, err := lin.Place(9, 4, 1); err == nil || !strings.Contains(err.Error(), "9 tasks do not fit 4 PEs with 2 task(s) per PE") {
		t.Errorf("too many tasks: %v", err)
	}
	for _, s := range []string{"cyclic", "random/0", "linear/x", "random/2.5", "random/-1", ""} {
		if _, err := ParseMapping(s); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v", s, err)
		}
	}
	if (Mapping{}).String() != "linear" || rnd.String() != "random/4" {
		t.Errorf("mapping strings: %q, %q", Mapping{}.String(), rnd.String())
	}
}

// A collective is refused before it is built when its messages pass the limit
// (issue 39: bcast:binomial:1MiB:seg=1B over torus:8x8's 64 tasks, 66 million
// messages, took 5.7 GB on the way: its segments were bounded, not its messages). The
// error names the limit; what refusing allocated shows nothing was built.
func TestCollectiveRefusedBeforeBuilding(t *testing.T) {
	for _, str := range []string{"bcast:binomial:1MiB:seg=1B", "alltoall:pairwise:16B:tasks=8192", "allgather:ring:16B:tasks=65536"} {
		s, err := ParseSpec(str)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, cerr := s.Check(64)
		_, berr := s.Build(64)
		runtime.ReadMemStats(&after)
		for _, err := range []error{cerr, berr} {
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("accepted are at most %d operations over all tasks", MaxOps)) {
				t.Errorf("%s: %v, want the operation limit named", str, err)
			}
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
			t.Errorf("%s: refusing it allocated %d MB", str, grew>>20)
		}
	}
}

// Application proxies are bounded before they are generated (issue 39: trace gen with
// --tasks 1048576 generated until memory ran out): each counts its operations first,
// from its parameters, and refuses more than the limit, naming it.
func TestProxyRefusedBeforeGenerating(t *testing.T) {
	for _, str := range []string{"graph500:tasks=1048576", "randomaccess:tasks=1048576", "namd:tasks=1048576",
		"namd:tasks=262144,stencil=26", "ptrans:tasks=1048573", "randomaccess:tasks=1024,messages=1048576"} {
		s, err := ParseSpec(str)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err = s.Build(0)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("accepted are at most %d operations over all tasks", MaxOps)) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want the operation limit named", str, err)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
			t.Errorf("%s: refusing it allocated %d MB", str, grew>>20)
		}
	}
	// The count is what the proxy builds (ptrans: at most), on grids with dimensions
	// of 1 and 2 too (a prime number of tasks makes a line: two neighbours, not six).
	for _, str := range []string{"graph500:levels=3,searches=2,compute=5", "graph500:levels=1", "randomaccess:iterations=3,messages=5,compute=7",
		"namd:iterations=2", "namd:iterations=2,stencil=26,compute=1", "ptrans:iterations=2", "ptrans:blocks=7"} {
		s, err := ParseSpec(str)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := findProxy(s.Proxy)
		for _, tasks := range []int{2, 3, 7, 8, 12, 13, 27, 64} {
			w, err := s.Build(tasks)
			if err != nil {
				t.Fatalf("%s over %d tasks: %v", str, tasks, err)
			}
			value := func(key string) int64 {
				if v, ok := s.Params[key]; ok {
					return v
				}
				d, _ := findParam(p.params, key)
				return d.def
			}
			n := p.ops(tasks, value)
			if got := int64(w.Ops()); got != n && (s.Proxy != "ptrans" || got > n) {
				t.Errorf("%s over %d tasks: %d operations, counted %d", str, tasks, got, n)
			}
		}
	}
}

// traceTree makes a directory holding one trace under datasets/ as the repository
// does, and returns it and the trace's path within it.
func traceTree(t *testing.T) (root, rel string) {
	t.Helper()
	root = t.TempDir()
	rel = filepath.Join("datasets", "traces", "x.trace")
	if err := os.MkdirAll(filepath.Join(root, "datasets", "traces"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, rel), []byte("tasks 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, rel
}

// A spec's trace under datasets/ is found from a subdirectory of the directory that
// holds it (a notebook or test running inside the repository); other paths are used
// as given.
func TestTraceFileFromSubdirectory(t *testing.T) {
	root, rel := traceTree(t)
	sub := filepath.Join(root, "notebooks", "deeper")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub)
	for _, c := range []struct{ trace, want string }{
		{rel, filepath.Join(root, rel)},
		{"datasets/traces/missing.trace", "datasets/traces/missing.trace"},
		{"other/x.trace", "other/x.trace"},
		{filepath.Join(root, rel), filepath.Join(root, rel)},
	} {
		if got := (Spec{Trace: c.trace}).TraceFile(); got != c.want {
			t.Errorf("TraceFile(%q) = %q, want %q", c.trace, got, c.want)
		}
	}
	t.Chdir(root)
	if got := (Spec{Trace: rel}).TraceFile(); got != rel {
		t.Errorf("from the root: %q, want %q as given", got, rel)
	}
}

// A notebook opened outside the repository (a copy, as the live-notebook test serves)
// finds a spec's trace in the checkout its kernel serves ($TWINTORUS_ROOT).
func TestTraceFileFromKernelRoot(t *testing.T) {
	root, rel := traceTree(t)
	t.Chdir(t.TempDir()) // outside root
	t.Setenv("TWINTORUS_ROOT", "")
	if got := (Spec{Trace: rel}).TraceFile(); got != rel {
		t.Errorf("without a kernel root: %q, want %q as given", got, rel)
	}
	t.Setenv("TWINTORUS_ROOT", root)
	if got := (Spec{Trace: rel}).TraceFile(); got != filepath.Join(root, rel) {
		t.Errorf("with the kernel's root %s: %q, want %q", root, got, filepath.Join(root, rel))
	}
	if got := (Spec{Trace: "datasets/traces/missing.trace"}).TraceFile(); got != "datasets/traces/missing.trace" {
		t.Errorf("a trace the root does not hold: %q, want it as given", got)
	}
}
