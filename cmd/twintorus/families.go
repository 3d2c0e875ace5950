package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

func init() { commands = append(commands, newFamiliesCmd) }

func newFamiliesCmd() *cobra.Command {
	var markdown bool
	cmd := &cobra.Command{
		Use:   "families",
		Short: "List the network families and the routings, from their tables",
		Long: `families lists every network family a spec string can name (topology.Families) and every
routing a run can use (routing.Routings), with their grammar, examples and default routing.
With --markdown it prints docs/families.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if markdown {
				return writeFamiliesMarkdown(cmd.OutOrStdout())
			}
			return writeFamilies(cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print the Markdown of docs/families.md")
	return cmd
}

func writeFamilies(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "family\tspec\trouting\tconfigs\texamples")
	for _, f := range topology.Families() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", f.Name, f.Syntax, orDash(f.Routing), yesNo(f.Variants != nil), orDash(strings.Join(f.Examples, " ")))
	}
	fmt.Fprintln(tw, "\nrouting\tdeadlock\twhat")
	for _, r := range routing.Routings() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Name, r.SchemeText(), r.Summary)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("writing the families: %w", err)
	}
	return nil
}

func writeFamiliesMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# Network families and routings\n\n")
	b.WriteString("Generated from `topology.Families()` and `routing.Routings()` by `twintorus families --markdown`;\n")
	b.WriteString("a test keeps it current (`go test ./cmd/twintorus -run TestFamiliesDoc -update` rewrites it).\n\n")
	b.WriteString("## Families\n\n| family | spec | what | default routing | `configs` | examples |\n|---|---|---|---|---|---|\n")
	for _, f := range topology.Families() {
		what := strings.Join(append([]string{f.Summary}, f.Help...), "; ")
		var ex []string
		for _, e := range f.Examples {
			ex = append(ex, "`"+e+"`")
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s | %s |\n", f.Name, f.Syntax, what, orDash(f.Routing), yesNo(f.Variants != nil), orDash(strings.Join(ex, ", ")))
	}
	b.WriteString("\n## Routings\n\n| routing | what | deadlock scheme by default | checked before a run |\n|---|---|---|---|\n")
	for _, r := range routing.Routings() {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.Name, r.Summary, r.SchemeText(), yesNo(r.Checked))
	}
	b.WriteString("\nDeadlock schemes: `vc` and `bubble` (DOR and DORT's rings, the papers'; `adaptive` escapes\n" +
		"by DOR/DORT under them), `escape` (an up*/down* escape VC, Duato's method; any routing), `none`.\n" +
		"Routings marked checked are refused under `none` when their channel dependency graph has a\n" +
		"cycle, which is named (and `adaptive:return` always, whose escape Duato's condition must cover).\n")
	b.WriteString("\n## Selection functions\n\nAdaptive routings offer several candidates; `--selection` (a spec's `selection:` axis) picks\n" +
		"one. Options after a colon: `threshold=T` (occupancy share from which a VC is high, 0.5),\n" +
		"`pointer=input|switch` (round-robin pointer per input port or per switch), `reselect=cycle|once`\n" +
		"(select again every cycle a head is blocked, or keep the choice while the output port is busy),\n" +
		"e.g. `3prio:threshold=0.25`. Default: `3prio` for `adaptive` on twin tori, `ref` on tori and\n" +
		"meshes, `first` for the table routings.\n\n| selection | what |\n|---|---|\n")
	for _, sel := range routing.Selections() {
		fmt.Fprintf(&b, "| %s | %s |\n", sel.Name, sel.Summary)
	}
	b.WriteString("\n" + addFamilySteps)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("writing the families: %w", err)
	}
	return nil
}

const addFamilySteps = `## Adding a family

1. Write ` + "`sim/topology/NAME.go`" + `: a function returning its ` + "`topology.FamilyDef`" + ` (name, summary,
   syntax, examples, Parse, Format, and Build through a ` + "`topology.Builder`" + `), plus any exported
   constructor. Grid families reuse ` + "`grid.go`" + `'s shape grammar.
2. Add one line to ` + "`topology.Families()`" + ` in ` + "`sim/topology/families.go`" + `.
3. If the family routes in a new way, write ` + "`sim/routing/NAME.go`" + ` returning its
   ` + "`routing.RoutingDef`" + ` (Fits, New) and add one line to ` + "`routing.Routings()`" + `; name it in the
   family's Routing field. Otherwise name an existing routing, or leave Routing empty and
   let ` + "`routing.Default`" + ` pick one that fits (min).
4. If ` + "`twintorus configs`" + ` should rank the family's configurations, set Variants.
5. Run ` + "`go test ./cmd/twintorus -run TestFamiliesDoc -update`" + ` to refresh this page. The
   table tests parse, print and build every example and check that its routing fits.
`

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
