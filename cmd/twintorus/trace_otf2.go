package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/twintorus/twintorus/internal/otf2"
	"github.com/twintorus/twintorus/sim/workload"
)

func newTraceRecordCmd() *cobra.Command {
	var out, cache, window string
	cmd := &cobra.Command{
		Use:   "record [--out DIR] [--window FROM:TO] -- COMMAND...",
		Short: "Record a real MPI program's messages and collectives as an OTF2 archive",
		Long: `record runs an unmodified MPI program with twintorus's recorder preloaded: a PMPI
interposition library (internal/otf2/recorder/otf2rec.c), built on first use with Debian's
mpicc against Debian's libotf2 and kept in the user's cache. It writes into DIR an OTF2
archive (DIR/traces.otf2 and its files) of every point-to-point message (rank, peer, bytes,
tag, communicator, time: MPI_Send, Isend, Recv, Irecv, Sendrecv and their completions by
Wait*, Test*) and collective (OTF2's MpiCollectiveBegin/End with the operation, root and
sizes), in OTF2's standard MPI records, which otf2-print and Vampir read too; and
DIR/summary.txt, the counts the recorder saw, independent of OTF2.

Under Open MPI's mpirun the library and DIR reach the ranks with -x. As root, mpirun
needs --allow-run-as-root; more ranks than cores need --oversubscribe. Computation
times of an oversubscribed run are those of shared cores: import such a trace with
--no-compute or a scale that accounts for it. 'twintorus trace import DIR' reads it.

--window FROM:TO records one phase of a program whose phases are separated by
MPI_Barrier(MPI_COMM_WORLD), as HPCC's are: from the return of the FROM-th such barrier
to the call of the TO-th (FROM: to the end). To number a program's barriers, run it with
TWINTORUS_OTF2_LOG_BARRIERS=FILE, where rank 0 appends "otf2rec: world barrier K" at each
(name the program's own output file to see them between its lines).`,
		Example: `  twintorus trace record --out ptrans-16 -- mpirun -np 16 --oversubscribe hpcc
  twintorus trace record --window 15:16 --out ptrans-64 -- mpirun -np 64 --oversubscribe hpcc
  twintorus trace import ptrans-16 --no-compute -o ptrans-16.trace.gz`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.ArgsLenAtDash() != 0 || len(args) == 0 {
				return fmt.Errorf("trace record runs the command after --, e.g. twintorus trace record --out DIR -- mpirun -np 16 --oversubscribe hpcc")
			}
			if err := otf2.CheckWindow(window); err != nil {
				return fmt.Errorf("--window: %w", err)
			}
			lib, err := otf2.BuildRecorder(cmd.Context(), cache)
			if err != nil {
				return err
			}
			s, err := otf2.Record(cmd.Context(), lib, out, window, args, cmd.OutOrStdout(), cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "%s/%s: %d ranks, %d point-to-point messages (%d bytes), %d collective calls over the ranks\n",
				out, otf2.Anchor, s.Ranks, s.Sends, s.SendBytes, s.Collectives)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "twintorus-otf2", "directory to write the archive into (new or empty)")
	cmd.Flags().StringVar(&cache, "cache", otf2.DefaultCache(), "directory the recorder library is built into")
	cmd.Flags().StringVar(&window, "window", "", "FROM:TO: record only between the FROM-th and the TO-th MPI_Barrier on MPI_COMM_WORLD")
	return cmd
}

func newTraceImportCmd() *cobra.Command {
	var out, collectives string
	var scale float64
	var noCompute, zip, asJSON bool
	var algs []string
	cmd := &cobra.Command{
		Use:   "import ARCHIVE",
		Short: "Turn an OTF2 archive (ours or Score-P's) into a trace",
		Long: `import reads an OTF2 archive (its anchor file .otf2, or the directory 'trace record'
wrote) through Debian's python3-otf2, the OTF2 library's own reader, and writes it as a
trace: every MPI rank a task; sends and receives matched as MPI matches them (per
communicator, source and tag, in order; the simulated receive then takes the next message
from that source, which keeps every message and byte); the time a rank spends outside MPI
between two MPI calls as computation of --compute-scale cycles per nanosecond (or none with
--no-compute); each collective either kept as a collective, replayed with one of Open MPI's
algorithms (--collectives keep, the default; --algorithm overrides one), or written as the
messages of its definition (--collectives messages: Open MPI's coll/basic linear
algorithms). Events it cannot replay (collectives like scan, records other than MPI's,
messages left unmatched) are counted and reported by name.

Without --out the trace goes to standard output and the report to standard error.

Collectives kept and their default algorithms:
` + importAlgorithmsHelp(),
		Example: `  twintorus trace import ptrans-16 --no-compute -o ptrans-16.trace.gz
  twintorus trace import scorep-run/traces.otf2 --compute-scale 2 --collectives messages -o app.trace
  twintorus trace import ptrans-16 --algorithm allreduce:allreduce:nonoverlapping --json -o /dev/null`,
		Args: exactArgs("trace import", "ARCHIVE", "twintorus-otf2/traces.otf2"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if noCompute && cmd.Flags().Changed("compute-scale") {
				return fmt.Errorf("--no-compute and --compute-scale contradict each other: give one")
			}
			if collectives != "keep" && collectives != "messages" {
				return fmt.Errorf("--collectives %q: accepted are keep and messages", collectives)
			}
			if scale < 0 || scale > 1e6 || scale != scale {
				return fmt.Errorf("--compute-scale %v: accepted are 0 to 1e6 cycles per nanosecond", scale)
			}
			opt := workload.ImportOptions{ComputeScale: scale, Collectives: collectives}
			if noCompute {
				opt.ComputeScale = 0
			}
			for _, a := range algs {
				op, spec, ok := strings.Cut(a, ":")
				if _, known := workload.CollectiveAlgorithms[op]; !ok || !known || !strings.Contains(spec, ":") {
					return fmt.Errorf("--algorithm %q: write OTF2OP:OP:ALGORITHM, e.g. allreduce:allreduce:nonoverlapping; OTF2OP one of %s", a, strings.Join(importOps(), ", "))
				}
				if opt.Algorithms == nil {
					opt.Algorithms = map[string]string{}
				}
				opt.Algorithms[op] = spec
			}
			w, rep, err := otf2.Import(cmd.Context(), args[0], "", opt)
			if err != nil {
				return err
			}
			if _, err := writeTraceOut(cmd, out, zip, w); err != nil {
				return err
			}
			report := cmd.ErrOrStderr()
			if asJSON {
				enc := json.NewEncoder(report)
				enc.SetIndent("", "  ")
				return enc.Encode(struct {
					workload.ImportReport
					Messages int   `json:"messages"`
					Bytes    int64 `json:"bytes"`
				}{rep, w.Messages(), w.Bytes()})
			}
			tw := tabwriter.NewWriter(report, 0, 0, 2, ' ', 0)
			fmt.Fprintf(tw, "ranks\t%d\n", rep.Ranks)
			fmt.Fprintf(tw, "point-to-point\t%d messages, %d bytes\n", rep.Messages, rep.Bytes)
			fmt.Fprintf(tw, "collectives (%s)\t%s: %d messages, %d bytes\n", opt.Collectives, strings.Join(workload.SortedCounts(rep.Collectives), ", "), rep.CollectiveMessages, rep.CollectiveBytes)
			fmt.Fprintf(tw, "trace\t%d messages, %d bytes, %d compute cycles over all tasks\n", w.Messages(), w.Bytes(), rep.ComputeCycles)
			if rep.UnmatchedSends+rep.UnmatchedRecvs+rep.SizeMismatches > 0 {
				fmt.Fprintf(tw, "left out\t%d sends never received, %d receives of no send, %d sizes that differ\n", rep.UnmatchedSends, rep.UnmatchedRecvs, rep.SizeMismatches)
			}
			if len(rep.Unsupported) > 0 {
				fmt.Fprintf(tw, "not replayed\t%s\n", strings.Join(workload.SortedCounts(rep.Unsupported), ", "))
			}
			if len(rep.Ignored) > 0 {
				fmt.Fprintf(tw, "read, no traffic\t%s\n", strings.Join(workload.SortedCounts(rep.Ignored), ", "))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "trace file to write (gzip when it ends in .gz); default standard output")
	cmd.Flags().Float64Var(&scale, "compute-scale", 1, "simulated cycles per nanosecond of measured computation")
	cmd.Flags().BoolVar(&noCompute, "no-compute", false, "drop computation: the trace is its messages only")
	cmd.Flags().StringVar(&collectives, "collectives", "keep", "keep (replay each with an Open MPI algorithm) or messages (the messages of its definition)")
	cmd.Flags().StringArrayVar(&algs, "algorithm", nil, "OTF2OP:OP:ALGORITHM, the algorithm that replays a kept collective (repeatable)")
	cmd.Flags().BoolVar(&zip, "gzip", false, "compress with gzip")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}

func importOps() []string {
	var ops []string
	for op := range workload.CollectiveAlgorithms {
		ops = append(ops, op)
	}
	return sortedStrings(ops)
}

func importAlgorithmsHelp() string {
	var b strings.Builder
	for _, op := range importOps() {
		fmt.Fprintf(&b, "  %-11s %s\n", op, workload.CollectiveAlgorithms[op])
	}
	return b.String()
}

func sortedStrings(s []string) []string {
	slices.Sort(s)
	return s
}
