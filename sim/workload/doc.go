// Package workload owns the closed-loop workloads of twintorus: tasks that run
// programs of sends, receives and computation, the MPI collectives expanded into such
// programs with Open MPI's algorithms, application traces (a line-oriented file
// format, and generators of application proxies), the mapping of tasks to PEs, and
// the execution of a workload as an engine drives it (Run).
//
// It is a separate package from traffic, which owns open-loop synthetic traffic
// (patterns, sizes, Bernoulli injection): a workload is a program, not a process.
// It knows nothing about networks or the engine; the engine reads a Run through its
// own small interface (engine.Program), cycle by cycle, and Run hears back when each
// message has arrived.
//
// # Model
//
// A task's program is an ordered list of operations: send(dst, bytes) posts a message
// and continues (non-blocking, eager), recv(src) blocks until the next message from src
// has fully arrived, compute(cycles) keeps the task busy. Messages match as in MPI: the
// k-th receive of task d from task s takes the k-th message s sends to d, so matching
// is static and Builder.Build checks it, and checks that every program can run to its
// end (a receive whose sender only sends after it, directly or through others, is an
// error naming the task and operation) before anything runs.
//
// A message of B bytes is cut into flits of RunConfig.FlitBytes (16 by default, the
// EXTOLL cell) and the flits into packets of the engine's length; the last packet is
// padded under the engine's fixed packet lengths and carries just the remaining flits
// under variable ones (RunConfig.Unpadded), and an empty message still takes one
// packet. Tasks on one PE share its NIC,
// whose source queue sends messages in the order they were posted; a message between
// two tasks of one PE bypasses the network and costs RunConfig.LocalCycles (0).
//
// # Collectives
//
// Collective names one MPI collective over all tasks by its operation and Open MPI's
// algorithm (coll/base), as a spec string "OP:ALGORITHM:SIZE": bcast (binomial,
// chain, pipeline), reduce (binomial), allgather (ring, recursive_doubling, bruck),
// alltoall (pairwise, linear), allreduce (recursive_doubling, nonoverlapping =
// reduce + broadcast), gather and scatter (binomial). Each generator follows Open
// MPI's source: the same trees (binomial, in-order binomial, chains), the same peers
// in each step and the same order of sends; see each function. Rounds counts the
// rounds of the one-port model, which the tests hold to each algorithm's definition.
//
// # Traces and proxies
//
// ReadTrace and WriteTrace read and write the trace format (docs/traces.md; gzip is
// recognised by its magic bytes). ReadOTF2Events builds a workload from the event
// stream of an OTF2 archive of a real MPI program (internal/otf2 runs the reader),
// matching messages as MPI does and replaying collectives with the algorithms below. The papers' VEF traces are not distributable, so
// graph500, randomaccess, namd and ptrans generate application proxies that follow
// the traffic character the papers describe; they are deterministic for their
// parameters.
//
// # Mapping
//
// Mapping places tasks on PEs: linear (task i on slot i, c consecutive tasks per PE)
// or random (a seeded permutation of the slots, one per replication). Slots are PEs
// times tasks per PE.
package workload
