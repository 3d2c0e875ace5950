package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/twintorus/twintorus/kernel/relay"
)

func newKernelRelayCmd() *cobra.Command {
	var gonb string
	cmd := &cobra.Command{
		Use:   "relay CONNECTION_FILE",
		Short: "Run gonb behind the relay that makes failing cells fail (what the kernelspec starts)",
		Long: `Run gonb as the notebook kernel behind a relay: Jupyter connects to the relay,
which starts gonb on a private connection and passes every message through, except
that a cell whose program panics or exits non-zero ends with an error (gonb reports
it as a stderr line only) and the cells queued after it are aborted, so Run All and
nbconvert stop there. The kernelspec written by "twintorus kernel install" runs it;
see the kernel/relay package documentation.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			// Jupyter stops a kernel with SIGTERM when a shutdown request goes unanswered:
			// pass it on to gonb, so that it removes its temporary directory.
			ctx, stop := signal.NotifyContext(c.Context(), syscall.SIGTERM, syscall.SIGHUP)
			defer stop()
			code, err := relay.Run(ctx, relay.Options{ConnectionFile: args[0], Gonb: []string{gonb}})
			if err != nil {
				return err
			}
			if code != 0 {
				os.Exit(code)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&gonb, "gonb", "gonb", "the gonb binary")
	return cmd
}
