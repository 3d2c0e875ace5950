package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/twintorus/twintorus/kernel"
	"github.com/twintorus/twintorus/kernel/relay"
)

// handoffEnv marks a relay started by another relay for the checkout it chose: it
// serves that checkout and never hands off again. It is removed before gonb starts.
const handoffEnv = "TWINTORUS_RELAY_HANDOFF"

func newKernelRelayCmd() *cobra.Command {
	var gonb, root string
	cmd := &cobra.Command{
		Use:   "relay CONNECTION_FILE",
		Short: "Run gonb behind the relay that makes failing cells fail (what the kernelspec starts)",
		Long: `Run gonb as the notebook kernel behind a relay: Jupyter connects to the relay,
which starts gonb on a private connection and passes every message through, except
that a cell whose program panics or exits non-zero ends with an error (gonb reports
it as a stderr line only) and the cells queued after it are aborted, so Run All and
nbconvert stop there. The kernelspec written by "twintorus kernel install" runs it;
see the kernel/relay package documentation.

The kernel serves the checkout its notebook is in (Jupyter starts it in the
notebook's directory): that checkout's module, and its bin/ tools once
scripts/setup.sh has run there (its own bin/twintorus then relays). A notebook
outside any checkout gets --root, the checkout that installed the kernelspec. The
first line of the kernel's log says which.

` + relay.VerboseEnv + `=1 makes the log verbose (gonb's info lines); unset or 0, only
errors and that first line reach Jupyter's log.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			verbose, err := relay.ParseVerbose(os.Getenv(relay.VerboseEnv))
			if err != nil {
				return err
			}
			handedOff := os.Getenv(handoffEnv) != ""
			wd, err := os.Getwd()
			if err != nil {
				return fmt.Errorf("kernel relay: the notebook's directory: %w", err)
			}
			self, err := os.Executable()
			if err != nil {
				return fmt.Errorf("kernel relay: %w", err)
			}
			// gonb's directory goes on PATH, so it must be a path, not a name.
			if gonb, err = exec.LookPath(gonb); err == nil {
				gonb, err = filepath.Abs(gonb)
			}
			if err != nil {
				return fmt.Errorf("kernel relay: --gonb: %w", err)
			}
			served, err := kernel.ServedFor(wd, kernel.Served{Root: root, Relay: self, Gonb: gonb})
			if err != nil {
				return err
			}
			logw := c.ErrOrStderr()
			env := kernel.Environ(withoutEnv(os.Environ(), handoffEnv), served)
			if !handedOff && !sameFile(served.Relay, self) {
				// The checkout's own relay runs its notebooks. It gets only flags every
				// version of it knows, and the environment (TWINTORUS_ROOT, PATH) that
				// makes even an older relay serve the right checkout.
				fmt.Fprintf(logw, "twintorus kernel: %s; handing over to its relay %s\n", served, served.Relay)
				argv := []string{served.Relay, "kernel", "relay", "--gonb", served.Gonb, args[0]}
				if err := syscall.Exec(served.Relay, argv, append(env, handoffEnv+"=1")); err != nil {
					return fmt.Errorf("kernel relay: starting %s: %w", served.Relay, err)
				}
			}
			if !handedOff { // a relay that handed over has said it
				fmt.Fprintf(logw, "twintorus kernel: %s\n", served)
			}
			// Jupyter stops a kernel with SIGTERM when a shutdown request goes unanswered:
			// pass it on to gonb, so that it removes its temporary directory.
			ctx, stop := signal.NotifyContext(c.Context(), syscall.SIGTERM, syscall.SIGHUP)
			defer stop()
			code, err := relay.Run(ctx, relay.Options{
				ConnectionFile: args[0],
				Gonb:           []string{served.Gonb},
				Env:            env,
				GoplsProxy:     []string{self, "kernel", "gopls", "--gopls", filepath.Join(served.Tools(), "gopls")},
				ModuleDir:      served.Root,
				Module:         kernel.ModulePath,
				Verbose:        verbose,
				Log:            logw,
			})
			if err != nil {
				return err
			}
			if code != 0 {
				os.Exit(code)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&gonb, "gonb", "gonb", "the gonb binary, with goimports and gopls beside it")
	cmd.Flags().StringVar(&root, "root", "", "the checkout to serve to notebooks outside any checkout (the kernelspec's)")
	return cmd
}

// withoutEnv is env without the variable name.
func withoutEnv(env []string, name string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if len(kv) <= len(name) || kv[:len(name)+1] != name+"=" {
			out = append(out, kv)
		}
	}
	return out
}

// sameFile reports whether a and b are the same existing file.
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

func newKernelGoplsCmd() *cobra.Command {
	var (
		gopls  string
		parent int
	)
	cmd := &cobra.Command{
		Use:    "gopls --gopls GOPLS --parent PID -- -listen unix;SOCKET",
		Short:  "Serve gonb as its gopls, fixing gonb's file-change notifications (the relay starts it)",
		Hidden: true, // only the relay's gopls script runs it
		Long: `Serve gonb as gopls: listen where gonb asks gopls to listen, run GOPLS for each
connection, and pass messages through, except that gonb's didChange notifications,
which carry a file's whole text with an empty range that makes gopls prepend it to the
old text, lose that range. See kernel/relay's gopls.go.`,
		RunE: func(c *cobra.Command, args []string) error {
			socket, err := relay.GoplsArgs(args)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(c.Context(), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
			defer stop()
			// gonb stops its gopls on shutdown, but a gonb that is killed cannot; the
			// proxy (in gonb's process group no more than gopls is) would then listen
			// forever. It ends, and its goplses with it, when gonb is gone.
			// The shim says which process is gonb (--parent): asking os.Getppid here
			// would miss a gonb that died before the proxy started.
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			if parent > 0 {
				go func() {
					for ctx.Err() == nil && os.Getppid() == parent {
						time.Sleep(time.Second)
					}
					cancel()
				}()
			}
			return relay.ServeGopls(ctx, socket, []string{gopls})
		},
	}
	cmd.Flags().StringVar(&gopls, "gopls", "gopls", "the real gopls")
	cmd.Flags().IntVar(&parent, "parent", 0, "the process id of gonb: the proxy ends when it is no longer its parent")
	return cmd
}
