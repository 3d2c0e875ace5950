package main

import (
	"errors"
	"fmt"
	"os"
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
	cmd.AddCommand(newKernelInstallCmd(), newKernelRelayCmd())
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
run behind this binary's relay (twintorus kernel relay), with this checkout's
packages importable offline from notebook cells.

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
			dir, err := kernel.Install(opts)
			if err != nil {
				return err
			}
			fmt.Fprintf(c.OutOrStdout(), "installed kernelspec %q (%s) in %s for checkout %s\n",
				kernel.KernelName, kernel.DisplayName, dir, opts.Root)
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
