"""otf2events: read an OTF2 archive through Debian's python3-otf2 (the OTF2 library's
own reader) and write its MPI events as the line-oriented event stream that
twintorus's Go importer reads (sim/workload, ReadOTF2Events). It interprets nothing:
matching, computation and collectives are the importer's.

    python3 otf2events.py ARCHIVE.otf2 > events

Output, one record a line, fields separated by blanks:

    twintorus-otf2-events 1
    ranks N                          the MPI locations; rank i is index i of the
                                     MPI COMM_LOCATIONS group
    clock TICKS_PER_SECOND
    comm ID SIZE M0 M1 ...           communicator ID, its members' ranks in order
    R T enter | leave                an MPI region entered or left by rank R at tick T
    R T send PEER COMM TAG BYTES     MpiSend or MpiIsend (PEER: rank in COMM)
    R T recv PEER COMM TAG BYTES     MpiRecv or MpiIrecv (the completion)
    R T coll OP COMM ROOT SENT RECEIVED
                                     MpiCollectiveEnd (OP: OTF2's name in lower case;
                                     ROOT -1 when undefined)
    ignored NAME COUNT               events read and carrying no traffic
    unknown NAME COUNT               events this stream does not carry
    end                              the whole archive was read

Times are the archive's ticks; communicator IDs the archive's Comm references. Events
of a location outside the MPI group are reported as "unknown" under their name with
the prefix "non-MPI location:".
"""

import sys

import otf2
from otf2.enums import GroupType, Paradigm

IGNORED = {
    "MpiCollectiveBegin", "MpiIsendComplete", "MpiIrecvRequest", "MpiRequestTest",
    "ProgramBegin", "ProgramEnd", "BufferFlush", "MeasurementOnOff", "Metric",
    "CallingContextEnter", "CallingContextLeave", "CallingContextSample",
    "ParameterInt", "ParameterString", "ParameterUnsignedInt", "CommCreate", "CommDestroy",
    "ThreadBegin", "ThreadEnd",
}


def ref(d):
    """The reference number of a definition (its position in the archive)."""
    return d._ref


def comm_ref(c):
    """A communicator's reference, -1 when the event names none (OTF2's undefined)."""
    return -1 if c is None else ref(c)


def main(argv):
    if len(argv) != 2:
        print("usage: otf2events.py ARCHIVE.otf2", file=sys.stderr)
        return 2
    out = sys.stdout
    try:
        reader_cm = otf2.reader.open(argv[1])
    except Exception as e:  # the library's own error, said plainly
        print("cannot open OTF2 archive %s: %s" % (argv[1], e), file=sys.stderr)
        return 1
    with reader_cm as trace:
        defs = trace.definitions
        world = None
        for g in defs.groups:
            if g.group_type == GroupType.COMM_LOCATIONS and g.paradigm == Paradigm.MPI:
                world = g
                break
        if world is None:
            print("%s: no MPI locations (no COMM_LOCATIONS group of paradigm MPI): not a trace of an MPI program" % argv[1], file=sys.stderr)
            return 1
        rank_of = {}
        for i, loc in enumerate(world.members):
            rank_of[ref(loc)] = i
        out.write("twintorus-otf2-events 1\n")
        out.write("ranks %d\n" % len(world.members))
        out.write("clock %d\n" % defs.clock_properties.timer_resolution)
        for c in defs.comms:
            g = c.group
            members = []
            for m in g.members:
                members.append(rank_of.get(ref(m), -1))
            out.write("comm %d %d %s\n" % (ref(c), len(members), " ".join(str(m) for m in members)))
        ignored = {}
        unknown = {}
        mpi_region = {}
        for location, ev in trace.events:
            name = type(ev).__name__
            r = rank_of.get(ref(location))
            if r is None:
                key = "non-MPI location: " + name
                unknown[key] = unknown.get(key, 0) + 1
                continue
            t = ev.time
            if name in ("Enter", "Leave"):
                reg = ev.region
                k = ref(reg)
                if k not in mpi_region:
                    mpi_region[k] = reg.paradigm == Paradigm.MPI or str(reg.name).startswith("MPI_")
                if mpi_region[k]:
                    out.write("%d %d %s\n" % (r, t, "enter" if name == "Enter" else "leave"))
                else:
                    ignored["user region " + name] = ignored.get("user region " + name, 0) + 1
            elif name in ("MpiSend", "MpiIsend"):
                out.write("%d %d send %d %d %d %d\n" % (r, t, ev.receiver, comm_ref(ev.communicator), ev.msg_tag, ev.msg_length))
            elif name in ("MpiRecv", "MpiIrecv"):
                out.write("%d %d recv %d %d %d %d\n" % (r, t, ev.sender, comm_ref(ev.communicator), ev.msg_tag, ev.msg_length))
            elif name == "MpiCollectiveEnd":
                root = ev.root
                if root is None or root == 0xFFFFFFFF:
                    root = -1
                elif not isinstance(root, int):  # a reader that resolves it to a definition
                    root = ref(root)
                out.write("%d %d coll %s %d %d %d %d\n" % (r, t, str(ev.collective_op).split(".")[-1].lower(), comm_ref(ev.communicator), root, ev.size_sent, ev.size_received))
            elif name in IGNORED:
                ignored[name] = ignored.get(name, 0) + 1
            else:
                unknown[name] = unknown.get(name, 0) + 1
        for k in sorted(ignored):
            out.write("ignored %s %d\n" % (k.replace(" ", "_"), ignored[k]))
        for k in sorted(unknown):
            out.write("unknown %s %d\n" % (k.replace(" ", "_"), unknown[k]))
        out.write("end\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
