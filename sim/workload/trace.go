package workload

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/internal/userfile"
)

// TraceMagic is the first line of every trace file, with the format's version.
const TraceMagic = "twintorus-trace 1"

// The trace format (docs/traces.md). A trace is a text file, gzip-compressed or not
// (recognised by its first bytes, whatever its name), of lines:
//
//	twintorus-trace 1        first line: the format and its version
//	tasks N                  the number of tasks, before any operation
//	name TEXT                optional: what the trace is (the rest of the line)
//	T send D BYTES           task T sends BYTES bytes to task D (non-blocking)
//	T recv S                 task T waits for its next message from task S
//	T compute CYCLES         task T computes for CYCLES cycles
//
// Each task's operations appear in program order; lines of different tasks may
// interleave. Fields are separated by blanks; "#" starts a comment; blank lines are
// ignored. Numbers are decimal. The reader checks every line and then the whole
// (every send received, every program able to finish) and names the file and line
// of what is wrong.
const traceAccepted = "accepted: 'T send D BYTES', 'T recv S', 'T compute CYCLES'"

// ReadTraceFile reads a trace file (gzip or plain text); errors name the file and line.
// The file must be a regular one: a named pipe's open would wait for a writer. Its
// operations are counted first, as it streams, and a trace of more than MaxOps is
// refused before any is kept (a 3.2 MB gzip holds 137 million of them).
func ReadTraceFile(path string) (*Workload, error) {
	f, err := userfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	defer f.Close()
	if n, err := countOps(f, MaxOps); err == nil && n > MaxOps {
		return nil, fmt.Errorf("trace %s: more than %d operations: accepted are at most %d operations over all tasks (about %d bytes each)", path, MaxOps, MaxOps, OpBytes)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("trace %s: %w", path, err)
	}
	return ReadTrace(f, path)
}

// countOps counts the lines of a trace that can be operations (neither blank, nor a
// comment, nor the header's), up to limit+1, keeping nothing: an upper bound on its
// operations. Errors are left to the reading that follows.
func countOps(r io.Reader, limit int64) (int64, error) {
	src, closeSrc, err := traceStream(r)
	if err != nil {
		return 0, err
	}
	defer closeSrc()
	br := bufio.NewReaderSize(src, 1<<16)
	var n int64
	start := true // at the start of a line
	for n <= limit {
		frag, err := br.ReadSlice('\n')
		if start {
			text := bytes.TrimSpace(frag)
			if i := bytes.IndexByte(text, '#'); i >= 0 {
				text = bytes.TrimSpace(text[:i])
			}
			if len(text) > 0 && text[0] >= '0' && text[0] <= '9' && !bytes.HasPrefix(text, []byte(TraceMagic)) {
				n++
			}
		}
		start = len(frag) > 0 && frag[len(frag)-1] == '\n'
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return n, err
		}
	}
	return n, nil
}

// traceStream is the text of a trace: r itself, or its gzip stream (recognised by
// its magic bytes, whatever the name), with what closes it.
func traceStream(r io.Reader) (io.Reader, func(), error) {
	br := bufio.NewReaderSize(r, 1<<16)
	head, _ := br.Peek(2)
	if len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, fmt.Errorf("not a readable gzip stream: %w", err)
		}
		return zr, func() { zr.Close() }, nil
	}
	return br, func() {}, nil
}

// ReadTrace reads a trace from r (gzip or plain text); name is the file's name in
// errors and the workload's name.
func ReadTrace(r io.Reader, name string) (*Workload, error) {
	w, err := readTrace(r, name)
	if err != nil {
		return nil, fmt.Errorf("trace %s: %w", name, err)
	}
	return w, nil
}

func readTrace(r io.Reader, name string) (*Workload, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	head, _ := br.Peek(2)
	var src io.Reader = br
	zipped := len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b
	if zipped {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("not a readable gzip stream: %w", err)
		}
		defer zr.Close()
		src = zr
	}
	sc := bufio.NewScanner(src)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	var b *Builder
	line := 0
	title := ""
	// A gzip stream cut mid-line ends with the cut line, then the gzip reader's error:
	// a line that does not read is that cut when the stream ends right after it.
	cut := func(err error) error {
		if zipped && !sc.Scan() && errors.Is(sc.Err(), io.ErrUnexpectedEOF) {
			return fmt.Errorf("truncated gzip data after line %d (line %d is cut short)", line-1, line)
		}
		return err
	}
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			if strings.TrimSpace(text) != TraceMagic {
				return nil, cut(fmt.Errorf("line 1: %q is not a twintorus trace: the first line must be %q", clip(text), TraceMagic))
			}
			continue
		}
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		if f[0] == "name" {
			title = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), "name"))
			continue
		}
		if f[0] == "tasks" {
			if b != nil {
				return nil, cut(fmt.Errorf("line %d: tasks given twice", line))
			}
			n, err := strconv.Atoi(f[len(f)-1])
			if len(f) != 2 || err != nil || n < 1 || n > MaxTasks {
				return nil, cut(fmt.Errorf("line %d: %q: write 'tasks N' with N from 1 to %d", line, clip(text), MaxTasks))
			}
			b, _ = NewBuilder(n)
			continue
		}
		if b == nil {
			return nil, cut(fmt.Errorf("line %d: %q comes before 'tasks N'", line, clip(text)))
		}
		op, t, err := parseOpLine(f)
		if err != nil {
			return nil, cut(fmt.Errorf("line %d: %q: %v; %s", line, clip(text), err, traceAccepted))
		}
		b.add(t, op, line)
		if b.err != nil {
			return nil, cut(fmt.Errorf("line %d: %w", line, b.err))
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) && zipped {
			return nil, fmt.Errorf("truncated gzip data after line %d", line)
		}
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("line %d: longer than 1 MiB", line+1)
		}
		return nil, fmt.Errorf("after line %d: %w", line, err)
	}
	if line == 0 {
		return nil, fmt.Errorf("empty: the first line must be %q", TraceMagic)
	}
	if b == nil {
		return nil, fmt.Errorf("no 'tasks N' line")
	}
	if title == "" {
		title = name
	}
	return b.Build(title)
}

// clip shortens a line quoted in an error.
func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// opSyntax is an operation's name and its numeric fields after the task.
var opSyntax = []struct {
	kind   OpKind
	fields []string // what each field is, for errors
}{{Send, []string{"destination", "size"}}, {Recv, []string{"source"}}, {Compute, []string{"cycles"}}}

// parseOpLine reads "T send D BYTES", "T recv S" or "T compute CYCLES".
func parseOpLine(f []string) (Op, int, error) {
	// A task is digits: strconv would also take a sign ("+0"), which the count that
	// bounds a trace before reading it (countOps) does not see as an operation line.
	t, err := strconv.Atoi(f[0])
	if err != nil || f[0][0] < '0' || f[0][0] > '9' {
		return Op{}, 0, fmt.Errorf("the task %q is not a number (tasks are 0, 1, ...)", f[0])
	}
	if len(f) < 2 {
		return Op{}, 0, fmt.Errorf("no operation")
	}
	for _, syn := range opSyntax {
		if f[1] != syn.kind.String() {
			continue
		}
		if len(f) != 2+len(syn.fields) {
			return Op{}, 0, fmt.Errorf("%s takes %s", f[1], strings.Join(syn.fields, " and "))
		}
		v := make([]int64, len(syn.fields))
		for i, what := range syn.fields {
			if v[i], err = strconv.ParseInt(f[2+i], 10, 64); err != nil {
				return Op{}, 0, fmt.Errorf("the %s %q is not a whole number", what, f[2+i])
			}
		}
		op := Op{Kind: syn.kind}
		switch syn.kind {
		case Send, Recv:
			if v[0] < 0 || v[0] > MaxTasks {
				return Op{}, 0, fmt.Errorf("%s %d out of range", syn.fields[0], v[0])
			}
			op.Peer = int32(v[0])
			if syn.kind == Send {
				op.N = v[1]
			}
		case Compute:
			op.N = v[0]
		}
		return op, t, nil
	}
	return Op{}, 0, fmt.Errorf("unknown operation %q", f[1])
}

// WriteTrace writes w in the trace format, task by task; ReadTrace reads it back to
// the same programs. With zip set the output is gzip-compressed.
func WriteTrace(out io.Writer, w *Workload, zip bool) error {
	var zw *gzip.Writer
	dst := out
	if zip {
		zw = gzip.NewWriter(out)
		dst = zw
	}
	bw := bufio.NewWriterSize(dst, 1<<16)
	fmt.Fprintf(bw, "%s\n", TraceMagic)
	if name := strings.Map(printable, w.Name()); name != "" {
		fmt.Fprintf(bw, "name %s\n", name)
	}
	fmt.Fprintf(bw, "# %d tasks, %d messages, %d bytes\n", w.Tasks(), w.Messages(), w.Bytes())
	fmt.Fprintf(bw, "tasks %d\n", w.Tasks())
	var buf []byte
	for t := range w.Tasks() {
		for _, op := range w.Program(t) {
			buf = strconv.AppendInt(buf[:0], int64(t), 10)
			switch op.Kind {
			case Send:
				buf = append(buf, " send "...)
				buf = strconv.AppendInt(buf, int64(op.Peer), 10)
				buf = append(buf, ' ')
				buf = strconv.AppendInt(buf, op.N, 10)
			case Recv:
				buf = append(buf, " recv "...)
				buf = strconv.AppendInt(buf, int64(op.Peer), 10)
			case Compute:
				buf = append(buf, " compute "...)
				buf = strconv.AppendInt(buf, op.N, 10)
			}
			buf = append(buf, '\n')
			bw.Write(buf)
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if zw != nil {
		return zw.Close()
	}
	return nil
}

// printable drops control characters and '#' from a name written on one line.
func printable(r rune) rune {
	if r < 0x20 || r == 0x7f || r == '#' {
		return -1
	}
	return r
}

// IsGzip reports whether data starts like a gzip stream.
func IsGzip(data []byte) bool { return bytes.HasPrefix(data, []byte{0x1f, 0x8b}) }
