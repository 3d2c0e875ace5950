package workload

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Grammar is the workload spec grammar, for help texts and error messages.
const Grammar = `OP:ALGORITHM:SIZE[:KEY=VALUE,...]  one MPI collective over all tasks, with Open MPI's algorithm:
      bcast:binomial|chain|pipeline  reduce:binomial
      allgather:ring|recursive_doubling|bruck|linear|neighbor  alltoall:pairwise|linear|bruck
      allreduce:recursive_doubling|nonoverlapping  gather:binomial
      scatter:binomial; SIZE in bytes with a unit (16B, 512B, 4KiB); keys: tasks=N, root=R,
      seg=SIZE (bcast, reduce), chains=N (bcast:chain, default 4),
      e.g. bcast:binomial:512B, alltoall:pairwise:16B, bcast:pipeline:4KiB:seg=1KiB
trace:PATH                          a trace file (docs/traces.md), gzip accepted
NAME[:KEY=VALUE,...]                an application proxy: graph500, randomaccess, namd, ptrans,
      e.g. graph500:tasks=256,levels=4 (twintorus trace gen --help lists the keys)`

const acceptedWorkloads = "accepted: OP:ALGORITHM:SIZE (e.g. bcast:binomial:512B), trace:PATH, or a proxy (graph500, randomaccess, namd, ptrans)"

// Spec names a workload: one collective, a trace file, or an application proxy. Its
// String form is the workload spec string; ParseSpec reads it back, and
// ParseSpec(s.String()) equals s for every valid s.
type Spec struct {
	// Collective, when Op is set.
	Collective Collective
	// Trace is the path of a trace file, when set.
	Trace string
	// Proxy is an application proxy's name, when set, with its parameters by key (a
	// missing key takes its default).
	Proxy  string
	Params map[string]int64
	// Tasks is the number of tasks of a collective or proxy; 0 takes the run's (its
	// PEs times the tasks per PE). A trace has its own.
	Tasks int
}

// String prints the spec in canonical form: parameters in the grammar's order,
// defaults left out.
func (s Spec) String() string {
	switch {
	case s.Trace != "":
		return "trace:" + s.Trace
	case s.Proxy != "":
		p, _ := findProxy(s.Proxy)
		var kv []string
		if s.Tasks != 0 {
			kv = append(kv, "tasks="+strconv.Itoa(s.Tasks))
		}
		for _, d := range p.params[1:] {
			if v, ok := s.Params[d.key]; ok && v != d.def {
				kv = append(kv, d.key+"="+formatParam(d, v))
			}
		}
		return joinParams(s.Proxy, kv)
	}
	c := s.Collective
	head := c.Op + ":" + c.Algorithm + ":" + FormatSize(c.Bytes)
	var kv []string
	if s.Tasks != 0 {
		kv = append(kv, "tasks="+strconv.Itoa(s.Tasks))
	}
	if c.Root != 0 {
		kv = append(kv, "root="+strconv.Itoa(c.Root))
	}
	if c.Segment != 0 {
		kv = append(kv, "seg="+FormatSize(c.Segment))
	}
	if c.Chains != 0 {
		kv = append(kv, "chains="+strconv.Itoa(c.Chains))
	}
	return joinParams(head, kv)
}

func joinParams(head string, kv []string) string {
	if len(kv) == 0 {
		return head
	}
	return head + ":" + strings.Join(kv, ",")
}

func formatParam(d paramDef, v int64) string {
	if d.size {
		return FormatSize(v)
	}
	return strconv.FormatInt(v, 10)
}

// MarshalText writes the spec string.
func (s Spec) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a spec string.
func (s *Spec) UnmarshalText(b []byte) error {
	v, err := ParseSpec(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// IsZero reports whether the spec names no workload.
func (s Spec) IsZero() bool { return s.Trace == "" && s.Proxy == "" && s.Collective.Op == "" }

// ParseSpec reads a workload spec string (see Grammar). Names are case-insensitive, a
// trace's path is not. Errors are one line naming the spec and what is accepted.
func ParseSpec(str string) (Spec, error) {
	s, err := parseSpec(strings.TrimSpace(str))
	if err != nil {
		return Spec{}, fmt.Errorf("workload %q: %w", str, err)
	}
	return s, nil
}

func parseSpec(str string) (Spec, error) {
	if str == "" {
		return Spec{}, fmt.Errorf("empty; %s", acceptedWorkloads)
	}
	if head, path, ok := strings.Cut(str, ":"); ok && strings.EqualFold(strings.TrimSpace(head), "trace") {
		path = strings.TrimSpace(path)
		if path == "" {
			return Spec{}, fmt.Errorf("trace needs a path, e.g. trace:datasets/traces/graph500-64.trace.gz")
		}
		if strings.ContainsAny(path, "\n\r\x00") {
			return Spec{}, fmt.Errorf("trace path has a control character")
		}
		return Spec{Trace: path}, nil
	}
	fields := strings.Split(str, ":")
	name := strings.ToLower(strings.TrimSpace(fields[0]))
	if p, ok := findProxy(name); ok {
		if len(fields) > 2 {
			return Spec{}, fmt.Errorf("%s takes KEY=VALUE,... after one colon, e.g. %s:tasks=64", name, name)
		}
		s := Spec{Proxy: name, Params: map[string]int64{}}
		if len(fields) == 2 {
			kv, err := parseParams(fields[1])
			if err != nil {
				return Spec{}, err
			}
			for _, k := range kv {
				d, ok := findParam(p.params, k.key)
				if !ok {
					return Spec{}, fmt.Errorf("%s has no parameter %q: accepted are %s", name, k.key, paramKeys(p.params))
				}
				v, err := parseParamValue(d, k.value)
				if err != nil {
					return Spec{}, err
				}
				if d.key == "tasks" {
					s.Tasks = int(v)
				} else if v != d.def {
					s.Params[d.key] = v
				}
			}
		}
		return s, nil
	}
	for _, c := range collectives {
		if c.op != name {
			continue
		}
		if len(fields) < 3 || len(fields) > 4 {
			return Spec{}, fmt.Errorf("a collective is OP:ALGORITHM:SIZE[:KEY=VALUE,...], e.g. %s:%s:512B", c.op, c.algs[0].name)
		}
		col := Collective{Op: name, Algorithm: strings.ToLower(strings.TrimSpace(fields[1]))}
		if a, ok := algorithmAliases[col.Algorithm]; ok {
			col.Algorithm = a
		}
		alg, err := col.lookup()
		if err != nil {
			return Spec{}, err
		}
		if col.Bytes, err = ParseSize(fields[2]); err != nil {
			return Spec{}, err
		}
		s := Spec{}
		if len(fields) == 4 {
			kv, err := parseParams(fields[3])
			if err != nil {
				return Spec{}, err
			}
			for _, k := range kv {
				if k.key != "tasks" && !slices.Contains(alg.params, k.key) {
					return Spec{}, fmt.Errorf("%s:%s has no parameter %q: accepted are %s", col.Op, alg.name, k.key, strings.Join(append([]string{"tasks"}, alg.params...), ", "))
				}
				var err error
				switch k.key {
				case "tasks":
					s.Tasks, err = parseCount(k, 1, MaxTasks)
				case "root":
					col.Root, err = parseCount(k, 0, MaxTasks-1)
				case "chains":
					col.Chains, err = parseCount(k, 1, MaxTasks)
				case "seg":
					col.Segment, err = ParseSize(k.value)
				}
				if err != nil {
					return Spec{}, err
				}
			}
		}
		if s.Tasks > 0 && col.Root >= s.Tasks {
			return Spec{}, fmt.Errorf("root %d: accepted are tasks 0 to %d", col.Root, s.Tasks-1)
		}
		s.Collective = col
		return s, nil
	}
	return Spec{}, fmt.Errorf("unknown workload %q; %s", name, acceptedWorkloads)
}

type keyValue struct{ key, value string }

// parseParams reads KEY=VALUE,... with no key twice.
func parseParams(s string) ([]keyValue, error) {
	var out []keyValue
	for _, item := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(item, "=")
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
		if !ok || k == "" || v == "" {
			return nil, fmt.Errorf("parameter %q: write KEY=VALUE, e.g. tasks=64", strings.TrimSpace(item))
		}
		for _, o := range out {
			if o.key == k {
				return nil, fmt.Errorf("parameter %s given twice", k)
			}
		}
		out = append(out, keyValue{k, v})
	}
	return out, nil
}

func parseCount(k keyValue, lo, hi int) (int, error) {
	v, err := strconv.Atoi(k.value)
	if err != nil || v < lo || v > hi || strings.HasPrefix(k.value, "+") {
		return 0, fmt.Errorf("%s=%s: accepted are whole numbers %d to %d", k.key, shown(k.value), lo, hi)
	}
	return v, nil
}

func findParam(ds []paramDef, key string) (paramDef, bool) {
	for _, d := range ds {
		if d.key == key {
			return d, true
		}
	}
	return paramDef{}, false
}

func paramKeys(ds []paramDef) string {
	var ks []string
	for _, d := range ds {
		ks = append(ks, d.key)
	}
	return strings.Join(ks, ", ")
}

func parseParamValue(d paramDef, s string) (int64, error) {
	if d.size {
		v, err := ParseSize(s)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", d.key, err)
		}
		if v < d.min || v > d.max {
			return 0, fmt.Errorf("%s=%s: accepted are %s to %s", d.key, s, FormatSize(d.min), FormatSize(d.max))
		}
		return v, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if d.only != nil && (err != nil || !slices.Contains(d.only, v)) {
		var vs []string
		for _, o := range d.only {
			vs = append(vs, strconv.FormatInt(o, 10))
		}
		return 0, fmt.Errorf("%s=%s: accepted are %s (%s)", d.key, shown(s), strings.Join(vs, " and "), d.doc)
	}
	if err != nil || v < d.min || v > d.max || strings.HasPrefix(s, "+") {
		return 0, fmt.Errorf("%s=%s: accepted are whole numbers %d to %d (%s)", d.key, shown(s), d.min, d.max, d.doc)
	}
	return v, nil
}

// Build makes the workload the spec names. tasks is the run's number of tasks (its
// PEs times the tasks per PE), used when the spec does not set its own; a trace has
// its own and ignores it. Errors are one line.
func (s Spec) Build(tasks int) (*Workload, error) {
	w, err := s.build(tasks)
	if err != nil {
		return nil, fmt.Errorf("workload %s: %w", s, err)
	}
	return w, nil
}

// Check says what Build would refuse, and how many tasks the workload has, cheaply
// where it can: a collective's parameters are checked against its tasks without
// generating its programs (which a collective of thousands of tasks takes seconds and
// a gigabyte to do), unless its operations could exceed MaxOps; a proxy or a trace is
// built (a trace file is read).
func (s Spec) Check(tasks int) (int, error) {
	if s.Collective.Op == "" || s.Trace != "" || s.Proxy != "" {
		w, err := s.Build(tasks)
		if err != nil {
			return 0, err
		}
		return w.Tasks(), nil
	}
	if s.Tasks != 0 {
		tasks = s.Tasks
	}
	if _, err := NewBuilder(tasks); err != nil {
		return 0, fmt.Errorf("workload %s: %w", s, err)
	}
	if err := s.Collective.check(tasks); err != nil {
		return 0, fmt.Errorf("workload %s: %w", s, err)
	}
	return tasks, nil
}

// countText prints a count, "more than 2^62" when it was held there.
func countText(n int64) string {
	if n == math.MaxInt64 {
		return "more than 2^62"
	}
	return strconv.FormatInt(n, 10)
}

func (s Spec) build(tasks int) (*Workload, error) {
	if s.Trace != "" {
		return ReadTraceFile(s.TraceFile())
	}
	if s.Tasks != 0 {
		tasks = s.Tasks
	}
	b, err := NewBuilder(tasks)
	if err != nil {
		return nil, err
	}
	switch {
	case s.Proxy != "":
		p, ok := findProxy(s.Proxy)
		if !ok {
			return nil, fmt.Errorf("unknown proxy %q: accepted are %s", s.Proxy, strings.Join(ProxyNames(), ", "))
		}
		value := func(key string) int64 {
			if v, ok := s.Params[key]; ok {
				return v
			}
			d, _ := findParam(p.params, key)
			return d.def
		}
		// Counted before it is generated: trace gen --tasks 1048576 ran out of memory.
		if n := p.ops(tasks, value); n > MaxOps {
			return nil, fmt.Errorf("%s over %d tasks makes %s operations: accepted are at most %d operations over all tasks (about %d bytes each)", s.Proxy, tasks, countText(n), MaxOps, OpBytes)
		}
		if err := p.gen(b, value); err != nil {
			return nil, err
		}
	case s.Collective.Op != "":
		if err := s.Collective.AppendTo(b); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("no workload named")
	}
	return b.Build(s.String())
}

// shown is a value as an error message prints it: as given when it is plain text, quoted
// when it holds a newline or another character that would break the one-line message.
func shown(v string) string {
	if q := strconv.Quote(v); q[1:len(q)-1] != v {
		return q
	}
	return v
}

// TraceFile is the file of a trace workload: its path as given, except that a relative
// path under datasets/ that is not found from the working directory is looked for in
// the directories above it, then in the checkout the notebook kernel serves
// ($TWINTORUS_ROOT, which the kernel sets for every cell). The experiment specs stored
// in the repository name their traces from its root
// (trace:datasets/traces/otf2/ptrans-64.trace.gz); the notebooks and tests that run
// them work in its subdirectories, and a notebook opened elsewhere (a copy, as the
// live-notebook test serves) runs in a directory outside it. A trace path that is
// found where it is given is used as it is.
func (s Spec) TraceFile() string {
	p := s.Trace
	if p == "" || filepath.IsAbs(p) || !strings.HasPrefix(filepath.ToSlash(filepath.Clean(p)), "datasets/") {
		return p
	}
	if fileExists(p) {
		return p
	}
	if dir, err := os.Getwd(); err == nil {
		for {
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
			if c := filepath.Join(dir, p); fileExists(c) {
				return c
			}
		}
	}
	if root := os.Getenv("TWINTORUS_ROOT"); root != "" {
		if c := filepath.Join(root, p); fileExists(c) {
			return c
		}
	}
	return p
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
