// Package otf2 owns twintorus's bridge to OTF2, the trace format of Score-P and
// Vampir: it builds and runs the recorder (otf2rec.c, a PMPI interposition library
// that, preloaded into an unmodified MPI program, writes an OTF2 archive of its
// point-to-point messages and collectives with OTF2's standard MPI records), and it
// imports an archive (ours or any other writer's) as a workload by running the
// converter (otf2events.py, which reads the archive through Debian's python3-otf2, the
// OTF2 library's own reader) and handing its event stream to workload.ReadOTF2Events,
// which matches the messages and expands the collectives.
//
// Both the C and the Python source are embedded in the binary, so that twintorus
// records and imports from anywhere; they need Debian's packages at run time
// (libotf2-trace-dev and libopenmpi-dev to build the recorder, openmpi-bin to run MPI
// programs, python3-otf2 to import), which scripts/setup.sh installs. Nothing here
// links against libotf2: the Go build needs none of them.
package otf2
