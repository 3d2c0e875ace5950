package main

import (
	"github.com/spf13/cobra"
	"github.com/twintorus/twintorus/internal/version"
	"github.com/twintorus/twintorus/sim/topology"
)

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "twintorus",
		Short: "Analyse and simulate nDT twin tori and other interconnection networks",
		Long: "twintorus analyses and simulates interconnection networks.\n\nA topology is named by a spec string:\n\n" +
			topology.Grammar() + "\n\nExit status: 0 on success, 1 on an error, 3 when a run stopped on a deadlock.",
		SilenceUsage:  true,
		SilenceErrors: true,
		// cobra adds --version (and -v) when Version is set.
		Version: version.String(),
	}
	root.SetVersionTemplate(versionLine())
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return flagError{err}
	})
	for _, add := range commands {
		root.AddCommand(add())
	}
	return root
}

// commands are registered by each command's file.
var commands []func() *cobra.Command

type flagError struct{ error }
