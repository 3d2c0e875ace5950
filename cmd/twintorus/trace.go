package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/twintorus/twintorus/sim/workload"
)

func init() { commands = append(commands, newTraceCmd) }

func newTraceCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "trace",
		Short: "Generate and summarise workload traces (docs/traces.md)",
		Long: `A trace is a closed-loop workload as a file: tasks and their programs of sends, receives
and computation, one operation a line, gzip accepted (docs/traces.md). 'trace gen' writes one
from a workload spec (an application proxy or a collective); 'trace stats' summarises one,
with the source×destination message matrix as CSV. 'trace record' records a real MPI
program as an OTF2 archive, 'trace import' turns an OTF2 archive into a trace. Run a trace with
'twintorus run TOPOLOGY --workload trace:FILE'.`,
	}
	cmd.AddCommand(newTraceGenCmd(), newTraceStatsCmd(), newTraceRecordCmd(), newTraceImportCmd())
	return cmd
}

func newTraceGenCmd() *cobra.Command {
	var out string
	var tasks int
	var zip bool
	cmd := &cobra.Command{
		Use:   "gen WORKLOAD",
		Short: "Write the trace of an application proxy or a collective",
		Long: `gen writes the trace of a workload spec: an application proxy with its parameters, or
one collective. The tasks come from the spec (tasks=N) or --tasks. Generated traces are
deterministic: the same spec gives the same file.

Workloads:
` + workload.Grammar + `

Proxies and their parameters:
` + workload.ProxyHelp(),
		Example: `  twintorus trace gen graph500:tasks=128,levels=4 -o graph500-128.trace.gz
  twintorus trace gen namd --tasks 64 -o namd-64.trace
  twintorus trace gen alltoall:pairwise:512B --tasks 16 | head`,
		Args: exactArgs("trace gen", "WORKLOAD", "graph500:tasks=128"),
		RunE: func(cmd *cobra.Command, args []string) error {
			spec, err := workload.ParseSpec(args[0])
			if err != nil {
				return err
			}
			if spec.Trace != "" {
				return fmt.Errorf("trace gen makes traces from proxies and collectives; %s is already one", spec)
			}
			if spec.Tasks == 0 {
				if !cmd.Flags().Changed("tasks") {
					return fmt.Errorf("how many tasks? give tasks=N in the spec or --tasks N")
				}
				spec.Tasks = tasks
			} else if cmd.Flags().Changed("tasks") && tasks != spec.Tasks {
				return fmt.Errorf("--tasks %d and tasks=%d in the spec disagree", tasks, spec.Tasks)
			}
			w, err := spec.Build(0)
			if err != nil {
				return err
			}
			toFile, err := writeTraceOut(cmd, out, zip, w)
			if err != nil {
				return err
			}
			if toFile {
				fmt.Fprintf(cmd.ErrOrStderr(), "%s: %d tasks, %d messages, %d bytes\n", out, w.Tasks(), w.Messages(), w.Bytes())
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "file to write (gzip when it ends in .gz); default standard output")
	cmd.Flags().IntVar(&tasks, "tasks", 0, "tasks, when the spec does not say")
	cmd.Flags().BoolVar(&zip, "gzip", false, "compress with gzip")
	return cmd
}

func newTraceStatsCmd() *cobra.Command {
	var matrix string
	var bytes, asJSON bool
	cmd := &cobra.Command{
		Use:   "stats FILE",
		Short: "Summarise a trace: tasks, messages, bytes, rounds, and its message matrix",
		Long: `stats reads a trace (gzip or plain) and prints its tasks, operations, messages, bytes,
rounds (of the one-port model), the task pairs that talk and the busiest task; --matrix
writes the source×destination matrix of message counts (or, with --bytes, of bytes) as CSV,
one row per source task, which a notebook draws as the papers' Fig. 10 heat map.`,
		Example: `  twintorus trace stats datasets/traces/graph500-64.trace.gz
  twintorus trace stats namd-64.trace --matrix namd-64.csv
  twintorus trace stats namd-64.trace --matrix - --bytes`,
		Args: exactArgs("trace stats", "FILE", "datasets/traces/graph500-64.trace.gz"),
		RunE: func(cmd *cobra.Command, args []string) error {
			w, err := workload.ReadTraceFile(args[0])
			if err != nil {
				return err
			}
			s := w.Summarize()
			if matrix != "" {
				m, err := w.Matrix()
				if err != nil {
					return err
				}
				var dst io.Writer = cmd.OutOrStdout()
				if matrix != "-" {
					f, err := os.Create(matrix)
					if err != nil {
						return err
					}
					defer f.Close()
					dst = f
				}
				if err := m.WriteCSV(dst, bytes); err != nil {
					return fmt.Errorf("writing the matrix: %w", err)
				}
				if matrix == "-" {
					return nil
				}
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(s)
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintf(tw, "trace\t%s\n", s.Name)
			fmt.Fprintf(tw, "tasks\t%d\n", s.Tasks)
			fmt.Fprintf(tw, "operations\t%d\n", s.Ops)
			fmt.Fprintf(tw, "messages\t%d\n", s.Messages)
			fmt.Fprintf(tw, "bytes\t%d\n", s.Bytes)
			fmt.Fprintf(tw, "rounds\t%d (one-port model)\n", s.Rounds)
			fmt.Fprintf(tw, "pairs\t%d of %d ordered task pairs exchange messages\n", s.Pairs, s.Tasks*(s.Tasks-1))
			fmt.Fprintf(tw, "busiest task\tsends %d bytes, receives %d bytes\n", s.MaxSent, s.MaxReceived)
			fmt.Fprintf(tw, "computation\t%d cycles on the busiest task\n", s.ComputeCycles)
			return tw.Flush()
		},
	}
	cmd.Flags().StringVar(&matrix, "matrix", "", "write the source×destination matrix as CSV to this file (- for standard output, then nothing else)")
	cmd.Flags().BoolVar(&bytes, "bytes", false, "the matrix counts bytes instead of messages")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the summary as JSON")
	return cmd
}

// exactArgs checks that a command got exactly one argument named what.
func exactArgs(cmd, what, example string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		switch {
		case len(args) == 0:
			return fmt.Errorf("%s needs a %s argument, e.g. twintorus %s %s", cmd, what, cmd, example)
		case len(args) > 1:
			return fmt.Errorf("%s takes one %s argument, got %d: %s", cmd, what, len(args), strings.Join(args, " "))
		}
		return nil
	}
}

// writeTraceOut writes trace w to file out (gzipped when zip is set or out ends in
// .gz), or to the command's output when out is "" or "-"; it reports whether it wrote
// a file.
func writeTraceOut(cmd *cobra.Command, out string, zip bool, w *workload.Workload) (bool, error) {
	if out == "" || out == "-" {
		if err := workload.WriteTrace(cmd.OutOrStdout(), w, zip); err != nil {
			return false, fmt.Errorf("writing the trace: %w", err)
		}
		return false, nil
	}
	f, err := os.Create(out)
	if err != nil {
		return true, err
	}
	defer f.Close()
	if err := workload.WriteTrace(f, w, zip || strings.HasSuffix(out, ".gz")); err != nil {
		return true, fmt.Errorf("writing the trace: %w", err)
	}
	if err := f.Close(); err != nil {
		return true, fmt.Errorf("writing the trace: %w", err)
	}
	return true, nil
}
