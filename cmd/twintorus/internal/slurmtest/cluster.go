package slurmtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// RequiredEnv names the environment variable that turns "Slurm is not
// available here" from a skipped test into a failed one. CI sets it after
// scripts/setup-slurm.sh, so a broken install cannot pass as a skip.
const RequiredEnv = "TWINTORUS_SLURM_REQUIRED"

// ErrUnavailable is wrapped by the errors of Launch when Slurm cannot run on
// this machine at all (programs missing, not root, daemons refusing to
// start), as opposed to a misuse of the package.
var ErrUnavailable = errors.New("slurm is not available")

// StartTimeout bounds how long Launch waits for each daemon to be ready.
const StartTimeout = 30 * time.Second

// Cluster is a running single-host Slurm: munged, slurmctld and slurmd, all
// with their keys, configuration, state and logs under Dir.
type Cluster struct {
	Dir         string // everything of this cluster lives here
	Conf        string // path of slurm.conf; clients find it through SLURM_CONF
	MungeSocket string // munged's socket, named in slurm.conf (AuthInfo)
	WorkDir     string // working directory of Submit and Command
	Node        string // the one node's name (the short host name)
	Partition   string // the default partition

	paths   paths
	bin     map[string]string // program name to path, from preflight
	daemons []*daemon         // in start order
}

// daemon is one process started by Launch, in the foreground.
type daemon struct {
	name string
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
	err  error         // its exit status, once done is closed
}

// Launch starts a single-host cluster in dir, which must exist and be empty
// or hold only a previous cluster's files, and waits until its node is idle.
// The caller must call Stop. Errors that mean Slurm cannot run here wrap
// ErrUnavailable.
func Launch(dir string) (*Cluster, error) {
	bin, err := preflight()
	if err != nil {
		return nil, err
	}
	h, err := localHost()
	if err != nil {
		return nil, err
	}
	ports, err := freePorts(2)
	if err != nil {
		return nil, err
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("slurmtest dir: %w", err)
	}
	p := newPaths(dir)
	// Unix socket paths have at most 107 bytes: munged's, and slurmd's
	// NODE_JOBID.STEPID sockets in its spool directory.
	if len(p.MungeSocket) > 107 || len(p.Spool)+len(h.Name)+25 > 107 {
		return nil, fmt.Errorf("slurmtest dir %s: too long for the Unix socket paths under it", dir)
	}
	c := &Cluster{
		Dir:         dir,
		Conf:        p.Conf,
		MungeSocket: p.MungeSocket,
		WorkDir:     p.Work,
		Node:        h.Name,
		Partition:   "debug",
		paths:       p,
		bin:         bin,
	}
	cfg := config{Host: h, Paths: p, CtldPort: ports[0], SlurmdPort: ports[1], Partition: c.Partition}
	if err := c.writeFiles(cfg); err != nil {
		return nil, err
	}
	if err := c.startDaemons(); err != nil {
		err = fmt.Errorf("%w\n%s", err, c.Logs())
		if stopErr := c.Stop(); stopErr != nil {
			err = fmt.Errorf("%w\nstop: %v", err, stopErr)
		}
		return nil, err
	}
	return c, nil
}

// preflight tells whether this machine can run the cluster at all, and
// returns the paths of the programs it needs.
func preflight() (map[string]string, error) {
	// All from scripts/setup-slurm.sh.
	names := []string{"mungekey", "munged", "slurmctld", "slurmd", "sinfo", "sbatch", "squeue", "scontrol", "scancel"}
	bin := map[string]string{}
	var missing []string
	for _, name := range names {
		path, err := findProgram(name)
		if err != nil {
			missing = append(missing, name)
			continue
		}
		bin[name] = path
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w: %s not found in PATH, /usr/sbin or /sbin (install with scripts/setup-slurm.sh)",
			ErrUnavailable, strings.Join(missing, ", "))
	}
	if os.Geteuid() != 0 {
		return nil, fmt.Errorf("%w: the test cluster runs its daemons as SlurmUser=root, and this is uid %d",
			ErrUnavailable, os.Geteuid())
	}
	return bin, nil
}

// findProgram looks a program up in PATH, then in the sbin directories
// where Debian puts the daemons and which a non-login PATH may lack.
func findProgram(name string) (string, error) {
	path, err := exec.LookPath(name)
	if err == nil {
		return path, nil
	}
	for _, dir := range []string{"/usr/sbin", "/sbin"} {
		if p, statErr := exec.LookPath(filepath.Join(dir, name)); statErr == nil {
			return p, nil
		}
	}
	return "", err
}

// program is the path preflight found for a program, or its bare name.
func (c *Cluster) program(name string) string {
	if path, ok := c.bin[name]; ok {
		return path
	}
	return name
}

// writeFiles lays out the cluster's directories, munge key and slurm.conf.
func (c *Cluster) writeFiles(cfg config) error {
	p := c.paths
	// munged wants its socket directory, and every directory above it,
	// searchable by all.
	if err := os.Chmod(c.Dir, 0o755); err != nil {
		return fmt.Errorf("slurmtest dir: %w", err)
	}
	for _, d := range []string{filepath.Dir(p.Conf), filepath.Dir(p.MungeSocket), p.StateSave, p.Spool, p.Logs, p.Work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("create cluster directory: %w", err)
		}
	}
	if err := os.WriteFile(p.Conf, []byte(cfg.slurmConf()), 0o644); err != nil {
		return fmt.Errorf("write slurm.conf: %w", err)
	}
	out, err := exec.Command(c.program("mungekey"), "--create", "--force", "--keyfile", p.MungeKey).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%w: mungekey: %v: %s", ErrUnavailable, err, bytes.TrimSpace(out))
	}
	return nil
}

// startDaemons starts munged, slurmctld and slurmd in turn, each once the
// one before it answers, and then waits for the node to be idle.
func (c *Cluster) startDaemons() error {
	p := c.paths
	munged, err := c.start("munged", "--foreground",
		"--key-file="+p.MungeKey,
		"--socket="+p.MungeSocket,
		"--pid-file="+p.Logs+"/munged.pid",
		"--seed-file="+p.Logs+"/munged.seed",
		"--log-file="+p.Logs+"/munged.log")
	if err != nil {
		return err
	}
	if err := c.waitFor(munged, "munged socket", func() error {
		_, err := os.Stat(p.MungeSocket)
		return err
	}); err != nil {
		return err
	}

	ctld, err := c.start("slurmctld", "-D", "-f", p.Conf)
	if err != nil {
		return err
	}
	if err := c.waitFor(ctld, "slurmctld answering", func() error {
		_, err := c.output("scontrol", "ping")
		return err
	}); err != nil {
		return err
	}

	slurmd, err := c.start("slurmd", "-D", "-f", p.Conf, "-N", c.Node)
	if err != nil {
		return err
	}
	return c.waitFor(slurmd, "node "+c.Node+" idle", func() error {
		out, err := c.output("sinfo", "--noheader", "--nodes="+c.Node, "--format=%t")
		if err != nil {
			return err
		}
		if state := strings.TrimSpace(out); state != "idle" {
			return fmt.Errorf("node state %q", state)
		}
		return nil
	})
}

// start runs one daemon in the foreground with its output in the log dir.
func (c *Cluster) start(name string, args ...string) (*daemon, error) {
	logPath := filepath.Join(c.paths.Logs, name+".out")
	out, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open %s output: %w", name, err)
	}
	defer out.Close() // the child has its own copy
	cmd := exec.Command(c.program(name), args...)
	cmd.Env = c.Env()
	cmd.Dir = c.Dir
	cmd.Stdout = out
	cmd.Stderr = out
	// If the test binary dies without cleaning up (a -timeout panic), take
	// the daemons with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w: start %s: %v", ErrUnavailable, name, err)
	}
	d := &daemon{name: name, cmd: cmd, done: make(chan struct{})}
	go func() {
		d.err = cmd.Wait()
		close(d.done)
	}()
	c.daemons = append(c.daemons, d)
	return d, nil
}

// waitFor polls ready until it succeeds, the daemon exits or StartTimeout
// passes.
func (c *Cluster) waitFor(d *daemon, what string, ready func() error) error {
	deadline := time.Now().Add(StartTimeout)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		err := ready()
		if err == nil {
			return nil
		}
		select {
		case <-d.done:
			return fmt.Errorf("%w: %s exited (%v) while waiting for %s", ErrUnavailable, d.name, d.err, what)
		case <-tick.C:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%w: no %s after %v: %v", ErrUnavailable, what, StartTimeout, err)
		}
	}
}

// Env is the environment for Slurm clients (sbatch, squeue, ...) that talk
// to this cluster: this process's environment without any SLURM_ variables
// it may have inherited, plus SLURM_CONF. The munge socket is named in
// slurm.conf, so clients need nothing else.
func (c *Cluster) Env() []string {
	env := make([]string, 0, len(os.Environ())+1)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SLURM_") {
			env = append(env, kv)
		}
	}
	return append(env, "SLURM_CONF="+c.Conf)
}

// Command is exec.Command with the cluster's Env and WorkDir, for running a
// Slurm client or a program that submits jobs.
func (c *Cluster) Command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = c.Env()
	cmd.Dir = c.WorkDir
	return cmd
}

// output runs a client and returns its stdout, or an error with its stderr.
func (c *Cluster) output(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.program(name), args...)
	cmd.Env = c.Env()
	cmd.Dir = c.WorkDir
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err,
			strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// Stop cancels any jobs left, then stops slurmd, slurmctld and munged by
// their process ids (SIGTERM, then SIGKILL after 10 s) and waits for them.
// It leaves Dir in place, and reports a daemon that had already exited.
func (c *Cluster) Stop() error {
	var errs []error
	if c.running("slurmctld") {
		if err := c.cancelJobs(); err != nil {
			errs = append(errs, err)
		}
	}
	for i := len(c.daemons) - 1; i >= 0; i-- {
		if err := c.daemons[i].stop(10 * time.Second); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (c *Cluster) running(name string) bool {
	for _, d := range c.daemons {
		if d.name == name {
			select {
			case <-d.done:
				return false
			default:
				return true
			}
		}
	}
	return false
}

// cancelJobs cancels every job of this user and waits a little for their
// processes to end, so that no job outlives the cluster.
func (c *Cluster) cancelJobs() error {
	u, err := user.Current()
	if err != nil {
		return fmt.Errorf("cancel jobs: %w", err)
	}
	if _, err := c.output("scancel", "--user="+u.Username); err != nil {
		return fmt.Errorf("cancel jobs: %w", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		out, err := c.output("squeue", "--noheader", "--states=RUNNING,COMPLETING,CONFIGURING", "--format=%i")
		if err != nil || strings.TrimSpace(out) == "" {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("jobs still running 10s after scancel: %s", strings.Fields(out))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (d *daemon) stop(grace time.Duration) error {
	select {
	case <-d.done:
		return fmt.Errorf("%s (pid %d) had exited before stop: %v", d.name, d.cmd.Process.Pid, d.err)
	default:
	}
	if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return fmt.Errorf("stop %s (pid %d): %w", d.name, d.cmd.Process.Pid, err)
	}
	select {
	case <-d.done:
		return nil
	case <-time.After(grace):
	}
	if err := d.cmd.Process.Kill(); err != nil {
		return fmt.Errorf("kill %s (pid %d): %w", d.name, d.cmd.Process.Pid, err)
	}
	<-d.done
	return fmt.Errorf("%s (pid %d) ignored SIGTERM for %v and was killed", d.name, d.cmd.Process.Pid, grace)
}

// Logs returns the last lines of every daemon's output, for error
// messages. With -D, slurmctld and slurmd copy their log files
// (slurmctld.log, slurmd.log) to this output, after any error they printed
// before opening them.
func (c *Cluster) Logs() string {
	var b strings.Builder
	for _, name := range []string{"munged.out", "slurmctld.out", "slurmd.out"} {
		path := filepath.Join(c.paths.Logs, name)
		data, err := os.ReadFile(path)
		if err != nil || len(bytes.TrimSpace(data)) == 0 {
			continue
		}
		fmt.Fprintf(&b, "--- %s (last lines)\n%s\n", path, tail(string(data), 20))
	}
	return b.String()
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
