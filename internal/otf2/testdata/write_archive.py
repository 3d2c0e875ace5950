"""write_archive: write a small OTF2 archive with Debian's python3-otf2 (not with
twintorus's recorder), for the importer's test (internal/otf2, TestImportPythonArchive).

    python3 write_archive.py DIR     writes DIR/traces.otf2

Four MPI ranks, times in nanoseconds. Rank 0 sends 100 bytes (tag 5) and then 200
bytes (tag 6) to rank 1 on MPI_COMM_WORLD, and rank 1 receives tag 6 first; rank 2
sends 4096 bytes to rank 3 on a communicator of ranks 2 and 3 ("pair", where they are
ranks 0 and 1), by Isend and Irecv completed after a broadcast of 64 bytes from rank 0
over the world; rank 0 also forks threads (an OpenMP record, which the importer
reports and does not replay). The test expects exactly the programs this describes.
"""

import sys

import otf2
from otf2.enums import (CollectiveOp, GroupType, LocationGroupType, LocationType,
                        Paradigm, RegionRole)


def main(path):
    with otf2.writer.open(path, timer_resolution=1000000000) as trace:
        d = trace.definitions
        node = d.system_tree_node("node")
        locs = []
        for r in range(4):
            g = d.location_group("rank %d" % r, system_tree_parent=node,
                                 location_group_type=LocationGroupType.PROCESS)
            locs.append(d.location("rank %d" % r, group=g, type=LocationType.CPU_THREAD))
        d.group("MPI", group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.MPI, members=locs)
        world = d.comm("MPI_COMM_WORLD", group=d.group("world", group_type=GroupType.COMM_GROUP,
                                                       paradigm=Paradigm.MPI, members=[0, 1, 2, 3]))
        pair = d.comm("pair", parent=world, group=d.group("pair", group_type=GroupType.COMM_GROUP,
                                                          paradigm=Paradigm.MPI, members=[2, 3]))

        def region(name, role):
            return d.region(name, paradigm=Paradigm.MPI, region_role=role)
        send = region("MPI_Send", RegionRole.POINT2POINT)
        recv = region("MPI_Recv", RegionRole.POINT2POINT)
        isend = region("MPI_Isend", RegionRole.POINT2POINT)
        irecv = region("MPI_Irecv", RegionRole.POINT2POINT)
        wait = region("MPI_Wait", RegionRole.POINT2POINT)
        bcast = region("MPI_Bcast", RegionRole.COLL_ONE2ALL)
        work = d.region("work", paradigm=Paradigm.USER, region_role=RegionRole.FUNCTION)

        def broadcast(w, t0, t1, sent, received):
            w.enter(t0, bcast)
            w.mpi_collective_begin(t0)
            w.mpi_collective_end(t1, CollectiveOp.BCAST, world, 0, sent, received)
            w.leave(t1 + 10, bcast)

        w = trace.event_writer_from_location(locs[0])
        w.enter(1000, send)
        w.mpi_send(1000, 1, world, 5, 100)
        w.leave(1100, send)
        w.enter(2100, send)
        w.mpi_send(2100, 1, world, 6, 200)
        w.leave(2200, send)
        w.thread_fork(2500, Paradigm.OPENMP, 2)
        broadcast(w, 3000, 3090, 64, 0)

        w = trace.event_writer_from_location(locs[1])
        w.enter(1500, recv)
        w.mpi_recv(1600, 0, world, 6, 200)
        w.leave(1600, recv)
        w.enter(1700, recv)
        w.mpi_recv(1800, 0, world, 5, 100)
        w.leave(1800, recv)
        broadcast(w, 3000, 3190, 0, 64)

        w = trace.event_writer_from_location(locs[2])
        w.enter(1000, isend)
        w.mpi_isend(1000, 1, pair, 0, 4096, 1)
        w.leave(1100, isend)
        w.enter(1500, work)  # user code: computation, like the time around it
        w.leave(2500, work)
        broadcast(w, 3000, 3190, 0, 64)
        w.enter(3300, wait)
        w.mpi_isend_complete(3300, 1)
        w.leave(3400, wait)

        w = trace.event_writer_from_location(locs[3])
        w.enter(1000, irecv)
        w.mpi_irecv_request(1000, 7)
        w.leave(1050, irecv)
        broadcast(w, 3000, 3140, 0, 64)
        w.enter(4000, wait)
        w.mpi_irecv(4100, 0, pair, 0, 4096, 7)
        w.leave(4200, wait)


if __name__ == "__main__":
    main(sys.argv[1])
