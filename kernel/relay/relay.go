package relay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/go-zeromq/zmq4"
)

// Connection is a Jupyter connection file: where the kernel listens and the key that
// signs its messages.
type Connection struct {
	Transport       string `json:"transport"`
	IP              string `json:"ip"`
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	StdinPort       int    `json:"stdin_port"`
	IOPubPort       int    `json:"iopub_port"`
	HBPort          int    `json:"hb_port"`
	Key             string `json:"key"`
	SignatureScheme string `json:"signature_scheme"`
	KernelName      string `json:"kernel_name,omitempty"`
}

// ReadConnection reads a connection file and checks what the relay supports.
func ReadConnection(path string) (Connection, error) {
	var c Connection
	b, err := os.ReadFile(path)
	if err != nil {
		return c, fmt.Errorf("relay: connection file: %w", err)
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("relay: connection file %s: %w", path, err)
	}
	if c.Transport != "tcp" && c.Transport != "ipc" {
		return c, fmt.Errorf("relay: connection file %s: transport %q, want tcp or ipc", path, c.Transport)
	}
	if c.SignatureScheme != "" && c.SignatureScheme != "hmac-sha256" {
		return c, fmt.Errorf("relay: connection file %s: signature scheme %q, want hmac-sha256 (gonb accepts no other)", path, c.SignatureScheme)
	}
	return c, nil
}

func (c Connection) endpoint(port int) string {
	if c.Transport == "ipc" {
		return fmt.Sprintf("ipc://%s-%d", c.IP, port)
	}
	return fmt.Sprintf("tcp://%s:%d", c.IP, port)
}

// Options say how to run gonb behind the relay.
type Options struct {
	// ConnectionFile is the file Jupyter wrote for the kernel ({connection_file}).
	ConnectionFile string
	// Gonb is gonb's command line without the --kernel flag, e.g. ["/path/bin/gonb"];
	// the relay adds GonbLogFlags(Verbose).
	Gonb []string
	// Env is gonb's environment (the relay's own when nil).
	Env []string
	// GoplsProxy, when set, is the command line that serves gonb as its gopls:
	// ServeGopls, in front of the real gopls, fixing gonb's file-change
	// notifications. The relay puts a "gopls" script first on gonb's PATH that runs
	// it followed by "--parent", gonb's process id, "--" and gonb's arguments.
	GoplsProxy []string
	// ModuleDir is the directory the go wrapper replaces Module with (the checkout the
	// kernel serves), so that inspect replies link to Module's documentation rather
	// than to that directory (see FixDocLinks).
	ModuleDir, Module string
	// Verbose is the log's verbosity (ParseVerbose): 0 passes on only gonb's errors.
	Verbose int
	// Log receives the relay's own errors and gonb's log (Jupyter's log when nil: stderr).
	Log io.Writer
}

// idleWait is how long a reply waits for gonb's idle status before it is passed on
// without it (gonb publishes it right after the reply).
const idleWait = 5 * time.Second

// event is a message that arrived on one of the relay's sockets.
type event struct {
	from   string // "shell", "gonb-shell", "gonb-iopub"
	frames [][]byte
}

// Run relays between Jupyter and gonb until gonb exits, and returns gonb's exit
// status (0 when it stopped cleanly, as after a shutdown request).
func Run(ctx context.Context, o Options) (int, error) {
	logw := o.Log
	if logw == nil {
		logw = os.Stderr
	}
	if len(o.Gonb) == 0 {
		return 1, errors.New("relay: no gonb command")
	}
	conn, err := ReadConnection(o.ConnectionFile)
	if err != nil {
		return 1, err
	}
	key := Key(conn.Key)
	dir, err := os.MkdirTemp("", "twintorus-relay-")
	if err != nil {
		return 1, fmt.Errorf("relay: %w", err)
	}
	defer os.RemoveAll(dir)

	// gonb listens on Unix sockets in dir: no ports to find, nothing else can connect.
	inner := conn
	inner.Transport, inner.IP = "ipc", filepath.Join(dir, "gonb")
	inner.ShellPort, inner.ControlPort, inner.StdinPort, inner.IOPubPort, inner.HBPort = 1, 2, 3, 4, 5
	innerFile := filepath.Join(dir, filepath.Base(o.ConnectionFile)) // gonb reads the kernel id from the name
	b, err := json.Marshal(inner)
	if err != nil {
		return 1, fmt.Errorf("relay: %w", err)
	}
	if err := os.WriteFile(innerFile, b, 0o600); err != nil {
		return 1, fmt.Errorf("relay: %w", err)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	outer, err := listen(ctx, conn)
	if err != nil {
		return 1, err
	}
	defer outer.close()

	args := append(append(append([]string{}, o.Gonb[1:]...), GonbLogFlags(o.Verbose)...), "--kernel", innerFile)
	cmd := exec.Command(o.Gonb[0], args...)
	cmd.Stdout, cmd.Stderr = logw, logw
	cmd.Env = o.Env
	if len(o.GoplsProxy) > 0 {
		shim := filepath.Join(dir, "bin")
		if err := writeGoplsShim(shim, o.GoplsProxy); err != nil {
			return 1, err
		}
		if cmd.Env == nil {
			cmd.Env = os.Environ()
		}
		cmd.Env = prependPath(cmd.Env, shim)
	}
	// gonb dies with the relay, whatever kills it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return 1, fmt.Errorf("relay: starting gonb: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	g, err := dial(ctx, inner)
	if err != nil {
		_ = cmd.Process.Kill()
		<-exited
		return 1, err
	}
	defer g.close()

	events := make(chan event, 64)
	pump := func(name string, s zmq4.Socket) {
		for {
			m, err := s.Recv()
			if err != nil {
				return
			}
			select {
			case events <- event{name, m.Frames}:
			case <-ctx.Done():
				return
			}
		}
	}
	pass := func(from, to zmq4.Socket) {
		for {
			m, err := from.Recv()
			if err != nil {
				return
			}
			_ = to.Send(m)
		}
	}
	go pump("shell", outer.shell)
	go pump("gonb-shell", g.shell)
	go pump("gonb-iopub", g.iopub)
	go pass(outer.control, g.control)
	go pass(g.control, outer.control)
	go pass(outer.stdin, g.stdin)
	go pass(g.stdin, outer.stdin)
	go echo(outer.hb)

	// Sends the state delays (After) come back here when their time is up.
	delayed := make(chan Send)
	st := NewState(key)
	st.SetModule(o.ModuleDir, o.Module)
	if o.Verbose > 0 {
		st.SetLog(func(format string, args ...any) { fmt.Fprintf(logw, format+"\n", args...) })
	}
	var idleTimer <-chan time.Time
	send := func(out []Send) {
		for _, s := range out {
			if s.After > 0 {
				s, after := s, s.After
				s.After = 0
				time.AfterFunc(after, func() {
					select {
					case delayed <- s:
					case <-ctx.Done():
					}
				})
				continue
			}
			var err error
			switch s.To {
			case ToGonb:
				err = g.shell.Send(zmq4.NewMsgFrom(s.Msg.Frames()...))
			case ToClient:
				err = outer.shell.Send(zmq4.NewMsgFrom(s.Msg.Frames()...))
			case ToIOPub:
				err = outer.iopub.Send(zmq4.NewMsgFrom(s.Msg.Frames()...))
			}
			if err != nil {
				fmt.Fprintf(logw, "relay: sending %s to %s: %v\n", s.Msg.Type(), s.To, err)
			}
		}
	}
	for {
		select {
		case err := <-exited:
			// Let the last replies (shutdown_reply) leave before the sockets close.
			time.Sleep(200 * time.Millisecond)
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				return exit.ExitCode(), nil
			}
			if err != nil {
				return 1, fmt.Errorf("relay: gonb: %w", err)
			}
			return 0, nil
		case <-ctx.Done():
			_ = cmd.Process.Signal(syscall.SIGTERM)
			<-exited
			return 1, ctx.Err()
		case s := <-delayed:
			send([]Send{s})
		case <-idleTimer:
			idleTimer = nil
			send(st.IdleLate())
		case ev := <-events:
			if ev.from == "gonb-iopub" {
				ev.frames = dropIdentity(ev.frames, g.id)
			}
			m, err := Parse(ev.frames)
			if err != nil {
				fmt.Fprintf(logw, "relay: dropping a message from %s: %v\n", ev.from, err)
				continue
			}
			var out []Send
			switch ev.from {
			case "shell":
				if !key.Verify(m) {
					fmt.Fprintf(logw, "relay: dropping a %s with a bad signature\n", m.Type())
					continue
				}
				out = st.ClientRequest(m)
			case "gonb-shell":
				out = st.GonbReply(m)
				if st.Running() == m.ParentID() && m.Type() == "execute_reply" {
					idleTimer = time.After(idleWait)
				}
			case "gonb-iopub":
				out = st.GonbIOPub(m)
			}
			send(out)
		}
	}
}

// dropIdentity removes the relay's own routing id from the front of an iopub
// message: gonb publishes with the identities of the request, which start with it.
func dropIdentity(frames [][]byte, id []byte) [][]byte {
	if len(frames) > 0 && bytes.Equal(frames[0], id) {
		return frames[1:]
	}
	return frames
}

// echo answers heartbeats: the relay is alive as long as it relays.
func echo(hb zmq4.Socket) {
	for {
		m, err := hb.Recv()
		if err != nil {
			return
		}
		if err := hb.Send(m); err != nil {
			return
		}
	}
}

// sockets are the five channels of one side of the relay.
type sockets struct {
	id                           []byte
	shell, control, stdin, iopub zmq4.Socket
	hb                           zmq4.Socket // outer side only
}

func (s *sockets) close() {
	for _, k := range []zmq4.Socket{s.shell, s.control, s.stdin, s.iopub, s.hb} {
		if k != nil {
			_ = k.Close()
		}
	}
}

// listen binds the sockets Jupyter connects to.
func listen(ctx context.Context, c Connection) (*sockets, error) {
	s := &sockets{
		shell:   zmq4.NewRouter(ctx),
		control: zmq4.NewRouter(ctx),
		stdin:   zmq4.NewRouter(ctx),
		iopub:   zmq4.NewPub(ctx),
		hb:      zmq4.NewRep(ctx),
	}
	for _, b := range []struct {
		s    zmq4.Socket
		port int
	}{{s.shell, c.ShellPort}, {s.control, c.ControlPort}, {s.stdin, c.StdinPort}, {s.iopub, c.IOPubPort}, {s.hb, c.HBPort}} {
		if err := b.s.Listen(c.endpoint(b.port)); err != nil {
			s.close()
			return nil, fmt.Errorf("relay: listening on %s: %w", c.endpoint(b.port), err)
		}
	}
	return s, nil
}

// dial connects to gonb. The shell and stdin sockets share one identity: gonb sends
// input requests to the identity the execute request came from.
func dial(ctx context.Context, c Connection) (*sockets, error) {
	id := []byte("twintorus-relay-" + newID()[:8])
	opts := []zmq4.Option{zmq4.WithDialerRetry(100 * time.Millisecond), zmq4.WithDialerMaxRetries(600)}
	withID := append([]zmq4.Option{zmq4.WithID(zmq4.SocketIdentity(id))}, opts...)
	s := &sockets{
		id:      id,
		shell:   zmq4.NewDealer(ctx, withID...),
		control: zmq4.NewDealer(ctx, opts...),
		stdin:   zmq4.NewDealer(ctx, withID...),
		iopub:   zmq4.NewSub(ctx, opts...),
	}
	if err := s.iopub.SetOption(zmq4.OptionSubscribe, ""); err != nil {
		s.close()
		return nil, fmt.Errorf("relay: subscribing to gonb: %w", err)
	}
	for _, d := range []struct {
		s    zmq4.Socket
		port int
	}{{s.shell, c.ShellPort}, {s.control, c.ControlPort}, {s.stdin, c.StdinPort}, {s.iopub, c.IOPubPort}} {
		if err := d.s.Dial(c.endpoint(d.port)); err != nil {
			s.close()
			return nil, fmt.Errorf("relay: connecting to gonb at %s: %w", c.endpoint(d.port), err)
		}
	}
	return s, nil
}

// prependPath is env with dir first on its PATH.
func prependPath(env []string, dir string) []string {
	out := make([]string, 0, len(env)+1)
	path := dir
	for _, kv := range env {
		if p, ok := strings.CutPrefix(kv, "PATH="); ok {
			if p != "" {
				path += string(os.PathListSeparator) + p
			}
			continue
		}
		out = append(out, kv)
	}
	return append(out, "PATH="+path)
}
