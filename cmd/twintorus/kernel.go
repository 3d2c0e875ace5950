package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/twintorus/twintorus/kernel"
)

func init() { commands = append(commands, newKernelCmd) }

func newKernelCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "kernel",
		Short: "Manage the Jupyter notebook kernel",
	}
	cmd.AddCommand(newKernelInstallCmd(), newKernelRelayCmd(), newKernelWhichCmd(), newKernelGoplsCmd())
	return cmd
}

func newKernelInstallCmd() *cobra.Command {
	var (
		opts kernel.InstallOptions
		user bool
	)
	cmd := &cobra.Command{
		Use:   "install",
		Short: `Install the "` + kernel.KernelName + `" Jupyter kernelspec (` + kernel.DisplayName + `)`,
		Long: `Install the "` + kernel.KernelName + `" kernelspec: gonb (bin/gonb, built by scripts/setup.sh),
run behind this binary's relay (twintorus kernel relay), with the checkout's
packages importable offline from notebook cells.

There is one such kernelspec per user, and installing replaces it, but a notebook
inside a checkout runs that checkout (its module, and its bin/ tools once
scripts/setup.sh has run there), whichever checkout installed the kernelspec last.
The installing checkout (--root) serves notebooks outside any checkout.

By default (and with --user) it goes to $JUPYTER_DATA_DIR/kernels or
~/.local/share/jupyter/kernels, which every Jupyter run by this user reads.
--prefix DIR installs into DIR/share/jupyter/kernels instead, for a Jupyter
whose data path is that prefix (a virtualenv or conda environment).`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if user && opts.Prefix != "" {
				return flagError{errors.New("--user and --prefix exclude each other")}
			}
			if opts.Relay == "" {
				// The binary that installs the kernel is the one that relays for it.
				if exe, err := os.Executable(); err == nil {
					opts.Relay = exe
				}
			}
			if opts.Root == "" {
				root, err := findRoot()
				if err != nil {
					return fmt.Errorf("%w (run it inside the checkout or pass --root)", err)
				}
				opts.Root = root
			}
			var previous string
			if dir, err := kernel.SpecDir(opts.Prefix, opts.DataDir); err == nil {
				if spec, err := kernel.ReadKernelspec(dir); err == nil {
					if prev, err := kernel.InstalledIn(spec); err == nil {
						previous = prev.Root
					}
				}
			}
			dir, err := kernel.Install(opts)
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			fmt.Fprintf(out, "installed kernelspec %q (%s) in %s for checkout %s\n",
				kernel.KernelName, kernel.DisplayName, dir, opts.Root)
			if previous != "" && previous != opts.Root {
				fmt.Fprintf(out, "it replaces the one %s installed; notebooks inside that checkout still run it, "+
					"and notebooks outside any checkout now run %s\n", previous, opts.Root)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&user, "user", false, "install for the current user (the default)")
	f.StringVar(&opts.Prefix, "prefix", "", "install into `DIR`/share/jupyter/kernels")
	f.StringVar(&opts.Root, "root", "", "checkout whose packages cells import (default: the one containing the current directory)")
	f.StringVar(&opts.Gonb, "gonb", "", "gonb binary, with goimports and gopls beside it (default: ROOT/bin/gonb)")
	f.StringVar(&opts.Relay, "relay", "", "twintorus binary that runs gonb behind its relay (default: this one)")
	return cmd
}

// findRoot looks for the checkout above the current directory, then above the binary
// (bin/twintorus sits in the checkout it was built from).
func findRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("current directory: %w", err)
	}
	root, err := kernel.FindRoot(wd)
	if err == nil {
		return root, nil
	}
	if exe, exeErr := os.Executable(); exeErr == nil {
		if r, exeErr := kernel.FindRoot(filepath.Dir(exe)); exeErr == nil {
			return r, nil
		}
	}
	return "", err
}

func newKernelWhichCmd() *cobra.Command {
	var jupyter string
	cmd := &cobra.Command{
		Use:   "which [DIR]",
		Short: "Say which checkout the kernel serves to notebooks in DIR (default: the current directory)",
		Long: `Say which checkout, at which git revision, the "` + kernel.KernelName + `" kernel serves to a
notebook in DIR (default: the current directory), and which binaries run it, as the
kernel's first log line does when it starts there. It asks Jupyter (--jupyter) for
the kernelspec, whose checkout serves notebooks outside any checkout.
scripts/jupyter.sh (make run) prints it for the directory it serves.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			abs, err := filepath.Abs(dir)
			if err != nil {
				return fmt.Errorf("kernel which: %w", err)
			}
			if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
				return fmt.Errorf("kernel which: %s is not a directory", dir)
			}
			spec, err := kernelspecOf(jupyter)
			if err != nil {
				return err
			}
			installed, err := kernel.InstalledIn(spec)
			if err != nil {
				return err
			}
			served, err := kernel.ServedFor(abs, installed)
			if err != nil {
				return err
			}
			fmt.Fprintf(c.OutOrStdout(), "%s; relay %s, gonb %s\n", served, served.Relay, served.Gonb)
			return nil
		},
	}
	cmd.Flags().StringVar(&jupyter, "jupyter", "jupyter", "the jupyter command whose kernelspec to read")
	return cmd
}

// kernelspecOf asks jupyter for the "twintorus" kernelspec it would start: the one
// first on its data path, which JUPYTER_PATH, JUPYTER_DATA_DIR or a virtualenv may
// change, so the kernel package's SpecDir cannot say.
func kernelspecOf(jupyter string) (kernel.Kernelspec, error) {
	out, err := exec.Command(jupyter, "kernelspec", "list", "--json").Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			err = fmt.Errorf("%w: %s", err, bytes.TrimSpace(exit.Stderr))
		}
		return kernel.Kernelspec{}, fmt.Errorf("kernel which: %s kernelspec list: %w", jupyter, err)
	}
	return kernelspecFromList(out)
}

// kernelspecFromList picks the "twintorus" kernelspec out of `jupyter kernelspec
// list --json`.
func kernelspecFromList(list []byte) (kernel.Kernelspec, error) {
	var l struct {
		Kernelspecs map[string]struct {
			Spec kernel.Kernelspec `json:"spec"`
		} `json:"kernelspecs"`
	}
	if err := json.Unmarshal(list, &l); err != nil {
		return kernel.Kernelspec{}, fmt.Errorf("kernel which: reading jupyter kernelspec list --json: %w", err)
	}
	k, ok := l.Kernelspecs[kernel.KernelName]
	if !ok {
		return kernel.Kernelspec{}, fmt.Errorf("kernel which: Jupyter has no %q kernelspec: run scripts/setup.sh", kernel.KernelName)
	}
	return k.Spec, nil
}
