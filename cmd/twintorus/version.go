package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/twintorus/twintorus/internal/version"
)

func init() { commands = append(commands, newVersionCmd) }

// versionLine is what `twintorus version` and `twintorus --version` print: the
// module's version and the source revision it was built from (internal/version).
func versionLine() string { return "twintorus " + version.String() + "\n" }

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version and the source revision this binary was built from",
		Long: `Print the version and the source revision this binary was built from, as
twintorus --version does: VERSION+REVISION, with "-dirty" for a build from modified
sources when Go recorded it; make build and scripts/setup.sh set the revision.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			_, err := fmt.Fprint(c.OutOrStdout(), versionLine())
			return err
		},
	}
}
