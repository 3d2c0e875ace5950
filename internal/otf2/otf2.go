package otf2

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/sim/workload"
)

//go:embed recorder/otf2rec.c
var recorderSource []byte

//go:embed otf2events.py
var converterSource []byte

// Anchor is the name of the anchor file of an archive the recorder writes, in its
// output directory.
const Anchor = "traces.otf2"

// missing says which Debian package provides a missing command.
func missing(cmd, pkg string) error {
	return fmt.Errorf("%s not found: install Debian's %s (scripts/setup.sh does)", cmd, pkg)
}

// BuildRecorder compiles the recorder with Debian's mpicc against libotf2 into dir
// (made if missing), unless a library of the same source is there already, and
// returns its path. The file's name carries a hash of the source and the compile
// command, so that a changed recorder is rebuilt.
func BuildRecorder(ctx context.Context, dir string) (string, error) {
	mpicc, err := exec.LookPath("mpicc")
	if err != nil {
		return "", missing("mpicc", "libopenmpi-dev")
	}
	cfg, err := exec.LookPath("otf2-config")
	if err != nil {
		return "", missing("otf2-config", "libotf2-trace-dev")
	}
	out, err := exec.CommandContext(ctx, cfg, "--cflags", "--ldflags", "--libs").Output()
	if err != nil {
		return "", fmt.Errorf("otf2-config --cflags --ldflags --libs: %w", err)
	}
	flags := strings.Fields(string(out))
	h := sha256.New()
	h.Write(recorderSource)
	fmt.Fprintf(h, "\x00%s\x00%s", mpicc, strings.Join(flags, " "))
	lib := filepath.Join(dir, "otf2rec-"+hex.EncodeToString(h.Sum(nil))[:16]+".so")
	if _, err := os.Stat(lib); err == nil {
		return lib, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("recorder: %w", err)
	}
	src := filepath.Join(dir, "otf2rec.c")
	if err := os.WriteFile(src, recorderSource, 0o644); err != nil {
		return "", fmt.Errorf("recorder: %w", err)
	}
	tmp := lib + ".tmp"
	args := append([]string{"-O2", "-fPIC", "-shared", "-o", tmp, src}, flags...)
	cmd := exec.CommandContext(ctx, mpicc, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building the recorder (mpicc %s): %w: %s", strings.Join(args, " "), err, lastLines(stderr.String(), 10))
	}
	if err := os.Rename(tmp, lib); err != nil {
		return "", fmt.Errorf("recorder: %w", err)
	}
	return lib, nil
}

// DefaultCache is where BuildRecorder keeps the library when not told:
// the user's cache directory, twintorus/otf2rec.
func DefaultCache() string {
	d, err := os.UserCacheDir()
	if err != nil {
		d = os.TempDir()
	}
	return filepath.Join(d, "twintorus", "otf2rec")
}

// Record runs argv (an MPI program, usually through mpirun) with the recorder lib
// preloaded, writing the archive and summary.txt into out, which must not exist or be
// empty. Under Open MPI's mpirun (or mpiexec, orterun) the preload and the output
// directory are passed with -x, so that they reach the MPI processes and not mpirun;
// any other command gets them in its environment. window, when not empty, is FROM:TO:
// record only from the FROM-th MPI_Barrier on MPI_COMM_WORLD to the TO-th (TO empty:
// to the end), one phase of a program whose phases such barriers separate.
func Record(ctx context.Context, lib, out, window string, argv []string, stdout, stderr io.Writer) (Summary, error) {
	if len(argv) == 0 {
		return Summary{}, errors.New("record: no command to run: give it after --, e.g. -- mpirun -np 16 --oversubscribe hpcc")
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return Summary{}, err
	}
	if ents, err := os.ReadDir(abs); err == nil && len(ents) > 0 {
		return Summary{}, fmt.Errorf("record: %s is not empty: the recorder writes a new archive into an empty or new directory", out)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return Summary{}, fmt.Errorf("record: %w", err)
	}
	if err := CheckWindow(window); err != nil {
		return Summary{}, fmt.Errorf("record: %w", err)
	}
	vars := []string{"LD_PRELOAD=" + lib, "TWINTORUS_OTF2_DIR=" + abs}
	if window != "" {
		vars = append(vars, "TWINTORUS_OTF2_WINDOW="+window)
	}
	env := os.Environ()
	args := argv
	switch filepath.Base(argv[0]) {
	case "mpirun", "mpiexec", "orterun":
		args = []string{argv[0]}
		for _, v := range vars {
			args = append(args, "-x", v)
		}
		args = append(args, argv[1:]...)
	default:
		env = append(env, vars...)
	}
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		return Summary{}, fmt.Errorf("record: %s: %w", strings.Join(args, " "), err)
	}
	s, err := ReadSummary(abs)
	if err != nil {
		return Summary{}, fmt.Errorf("record: the program ran but %w (did it call MPI_Init and MPI_Finalize, and is it dynamically linked against Open MPI?)", err)
	}
	return s, nil
}

// CheckWindow says what is wrong with a recording window, if anything: empty (the
// whole run), or FROM:TO, world barrier numbers with FROM < TO, or FROM: (to the end).
func CheckWindow(window string) error {
	if window == "" {
		return nil
	}
	from, to, ok := strings.Cut(window, ":")
	a, errA := strconv.ParseUint(from, 10, 31)
	b, errB := strconv.ParseUint(to, 10, 31)
	if !ok || errA != nil || (to != "" && (errB != nil || b <= a)) {
		return fmt.Errorf("window %q: write FROM:TO, world barrier numbers with FROM < TO, or FROM: for the rest of the run", window)
	}
	return nil
}

// Summary is the recorder's own count of what it saw (summary.txt), independent of
// OTF2: messages and bytes of point-to-point sends and receives over all ranks, and
// collective calls (one per rank and call) with the bytes of their buffers.
type Summary struct {
	Ranks                   int   `json:"ranks"`
	Sends                   int64 `json:"p2p_sends"`
	SendBytes               int64 `json:"p2p_send_bytes"`
	Recvs                   int64 `json:"p2p_recvs"`
	RecvBytes               int64 `json:"p2p_recv_bytes"`
	Collectives             int64 `json:"collectives"`
	CollectiveBytesSent     int64 `json:"collective_bytes_sent"`
	CollectiveBytesReceived int64 `json:"collective_bytes_received"`
}

// ReadSummary reads dir/summary.txt.
func ReadSummary(dir string) (Summary, error) {
	data, err := os.ReadFile(filepath.Join(dir, "summary.txt"))
	if err != nil {
		return Summary{}, fmt.Errorf("no recorder summary: %w", err)
	}
	var s Summary
	fields := map[string]*int64{"p2p_sends": &s.Sends, "p2p_send_bytes": &s.SendBytes, "p2p_recvs": &s.Recvs,
		"p2p_recv_bytes": &s.RecvBytes, "collectives": &s.Collectives, "collective_bytes_sent": &s.CollectiveBytesSent,
		"collective_bytes_received": &s.CollectiveBytesReceived}
	seen := 0
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		k, v, ok := strings.Cut(line, " ")
		n, err := strconv.ParseInt(v, 10, 64)
		if !ok || err != nil || n < 0 {
			return Summary{}, fmt.Errorf("summary.txt line %d: %q is not 'NAME COUNT'", i+1, line)
		}
		if k == "ranks" {
			s.Ranks = int(n)
			seen++
		} else if p, ok := fields[k]; ok {
			*p = n
			seen++
		}
	}
	if seen != len(fields)+1 {
		return Summary{}, fmt.Errorf("summary.txt has %d of its %d counts", seen, len(fields)+1)
	}
	return s, nil
}

// python is Debian's python3, whose dist-packages hold python3-otf2 (a python3 of
// pyenv or a virtualenv first on PATH would not find it), or TWINTORUS_PYTHON.
func python() (string, error) {
	if p := os.Getenv("TWINTORUS_PYTHON"); p != "" {
		return p, nil
	}
	for _, p := range []string{"/usr/bin/python3"} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	p, err := exec.LookPath("python3")
	if err != nil {
		return "", missing("python3", "python3-otf2")
	}
	return p, nil
}

// ResolveArchive finds an archive's anchor file: path itself when it is a file, or
// the one .otf2 file in path when it is a directory (the recorder's output directory
// holds traces.otf2).
func ResolveArchive(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("OTF2 archive: %w", err)
	}
	if !fi.IsDir() {
		return path, nil
	}
	m, _ := filepath.Glob(filepath.Join(path, "*.otf2"))
	if len(m) != 1 {
		return "", fmt.Errorf("OTF2 archive: %s is a directory with %d .otf2 anchor files; name the anchor file", path, len(m))
	}
	return m[0], nil
}

// Import reads the OTF2 archive whose anchor file (or directory, ResolveArchive) is
// path and builds its workload, named name (the archive's path when empty).
func Import(ctx context.Context, path, name string, opt workload.ImportOptions) (*workload.Workload, workload.ImportReport, error) {
	if name == "" {
		name = path
	}
	if strings.HasSuffix(path, ".tar.gz") || strings.HasSuffix(path, ".tgz") {
		dir, err := os.MkdirTemp("", "twintorus-otf2-archive-")
		if err != nil {
			return nil, workload.ImportReport{}, err
		}
		defer os.RemoveAll(dir)
		if err := untar(path, dir); err != nil {
			return nil, workload.ImportReport{}, fmt.Errorf("OTF2 archive %s: %w", path, err)
		}
		path = dir
	}
	anchor, err := ResolveArchive(path)
	if err != nil {
		return nil, workload.ImportReport{}, err
	}
	py, err := python()
	if err != nil {
		return nil, workload.ImportReport{}, err
	}
	dir, err := os.MkdirTemp("", "twintorus-otf2-")
	if err != nil {
		return nil, workload.ImportReport{}, err
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "otf2events.py")
	if err := os.WriteFile(script, converterSource, 0o644); err != nil {
		return nil, workload.ImportReport{}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, script, anchor)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, workload.ImportReport{}, err
	}
	if err := cmd.Start(); err != nil {
		return nil, workload.ImportReport{}, fmt.Errorf("OTF2 converter (%s): %w", py, err)
	}
	w, rep, rerr := workload.ReadOTF2Events(bufio.NewReaderSize(pipe, 1<<16), name, opt)
	if rerr != nil {
		cancel()
	}
	io.Copy(io.Discard, pipe)
	werr := cmd.Wait()
	if werr != nil && (rerr == nil || strings.Contains(rerr.Error(), "cut short") || strings.Contains(rerr.Error(), "empty")) {
		msg := lastLines(stderr.String(), 5)
		if strings.Contains(msg, "No module named 'otf2'") {
			return nil, rep, fmt.Errorf("importing %s: %s has no otf2 module: install Debian's python3-otf2 (scripts/setup.sh does), or name a python3 that has it in TWINTORUS_PYTHON", path, py)
		}
		return nil, rep, fmt.Errorf("importing %s: the OTF2 reader failed: %s", path, msg)
	}
	if rerr != nil {
		return nil, rep, fmt.Errorf("importing %s: %w", path, rerr)
	}
	return w, rep, nil
}

// maxUntar bounds what untar writes: an OTF2 archive of a few million events is some
// hundred megabytes.
const maxUntar = 8 << 30

// untar extracts the gzip-compressed tar file path into dir, as the datasets store OTF2
// archives (tar czf NAME.tar.gz -C DIR .): regular files and directories only, every
// name inside dir.
func untar(path, dir string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return fmt.Errorf("not a gzip-compressed tar file: %w", err)
	}
	defer zr.Close()
	tr := tar.NewReader(zr)
	var total int64
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading the tar file: %w", err)
		}
		clean := filepath.Clean(h.Name)
		if !filepath.IsLocal(clean) {
			if clean == "." {
				continue
			}
			return fmt.Errorf("tar entry %q is outside the archive's directory", h.Name)
		}
		dst := filepath.Join(dir, clean)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if total += h.Size; total > maxUntar {
				return fmt.Errorf("more than %d bytes unpacked", int64(maxUntar))
			}
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			out, err := os.Create(dst)
			if err != nil {
				return err
			}
			_, err = io.Copy(out, io.LimitReader(tr, h.Size))
			if cerr := out.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return fmt.Errorf("unpacking %s: %w", h.Name, err)
			}
		default:
			return fmt.Errorf("tar entry %q is not a file or a directory", h.Name)
		}
	}
}

// lastLines is the last n lines of s, joined by " | ", for an error on one line.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	var keep []string
	for _, l := range lines {
		// The OTF2 library's own warnings about definition order say nothing here.
		if strings.TrimSpace(l) != "" {
			keep = append(keep, strings.TrimSpace(l))
		}
	}
	if len(keep) > n {
		keep = keep[len(keep)-n:]
	}
	if len(keep) == 0 {
		return "no message"
	}
	return strings.Join(keep, " | ")
}
