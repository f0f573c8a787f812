#!/usr/bin/env python3
"""Writes OTF2 archives for tests/otf2 through Debian's python3-otf2 (the
OTF2 library's own writer).

    genotf2.py basic OUT_DIR     4 ranks x 2 threads, a GPU stream, metrics
    genotf2.py big OUT_DIR --ranks R --events N [--seed S]
                                 R ranks, about N events each (make bench)
    genotf2.py chunks OUT_DIR    2 ranks whose event files span several
                                 256 KiB chunks (the damaged-archive checks)
    genotf2.py renamed OUT_DIR   tasks entered under one name and left under
                                 another, as APEX writes them (no MPI)
    genotf2.py nompi OUT_DIR     one process "Process" of a "Master thread"
                                 and a HIP stream, a "#" metric (no MPI)
    genotf2.py badname OUT_DIR   a region and a location group whose names
                                 are not valid UTF-8
    genotf2.py stencil OUT_DIR [--ranks R]
                                 R ranks (default 32) that spend most of
                                 their time in MPI_Init, then a short loop
                                 of nested MPI calls (tracer-stencil4d's shape)
    genotf2.py undercount OUT_DIR  3 threads whose definitions all declare 8
                                 events while threads 1 and 2 hold 40 and 60
                                 (as APEX writes them)

"basic" holds, by design (tests/otf2/run.sh checks each):
  - ranks 0-3 ("MPI Rank r"), two CPU threads each; three "step" regions
    per rank (1000 us apart, 800 us long), each with a blocking ring
    message (tag 5, to r+1), a non-blocking one (MpiIsend / MpiIrecvRequest /
    MpiIrecv, tag 7, to r+2), and an MPI_Allreduce holding a collective
    operation (CollectiveBegin/End): 8 messages a step, 24 in all;
  - MPI_Bcast (role COLL_ONE2ALL) once per rank, and one collective with no
    MPI region around it on rank 3;
  - on rank 1 thread 0 a mis-nested pair: enter a, enter b, leave a, leave b;
  - on rank 2 thread 0 measurement off from 3600 to 3800 us;
  - a GPU (an accelerator location group) with one stream: kernel_a per step;
  - metrics: PAPI_TOT_CYC (#) on rank 0 thread 0 at each step's start and
    end; a metric location of rank 1 sampling power (W) and mem (KiB).
Times: the clock ticks in ns; rank r's events are shifted by r us.
"""
import argparse
import os
import random
import shutil
import sys

import otf2
from otf2.enums import (Type, Paradigm, RegionRole, LocationType, LocationGroupType,
                        GroupType, MetricMode, MetricType, Base, MeasurementMode,
                        CollectiveOp, RecorderKind)

US = 1000  # ticks (ns) per us


def regions(defs):
    r = {}

    def reg(name, paradigm, role=RegionRole.FUNCTION):
        r[name] = defs.region(name, paradigm=paradigm, region_role=role)

    reg("main", Paradigm.USER)
    reg("step", Paradigm.USER, RegionRole.LOOP)
    reg("compute", Paradigm.COMPILER)
    reg("a", Paradigm.USER)
    reg("b", Paradigm.USER)
    reg("write_output", Paradigm.USER, RegionRole.FILE_IO)
    for name in ("MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Irecv", "MPI_Wait",
                 "MPI_Allreduce"):
        reg(name, Paradigm.MPI, RegionRole.POINT2POINT if "Allreduce" not in name
            else RegionRole.FUNCTION)
    reg("MPI_Bcast", Paradigm.MPI, RegionRole.COLL_ONE2ALL)
    reg("!$omp parallel", Paradigm.OPENMP, RegionRole.PARALLEL)
    reg("kernel_a", Paradigm.CUDA)
    return r


def basic(out):
    nranks = 4
    with otf2.writer.open(out, timer_resolution=1000000000) as trace:
        defs = trace.definitions
        node = defs.system_tree_node("node")
        groups, masters, workers = [], [], []
        for r in range(nranks):
            g = defs.location_group("MPI Rank %d" % r, system_tree_parent=node)
            groups.append(g)
            masters.append(defs.location("Master thread", group=g))
            workers.append(defs.location("OpenMP thread 1", group=g))
        gpu_group = defs.location_group("CUDA GPU", system_tree_parent=node,
                                        location_group_type=LocationGroupType.ACCELERATOR)
        stream = defs.location("CUDA stream 1", type=LocationType.ACCELERATOR_STREAM,
                               group=gpu_group)
        metric_loc = defs.location("power meter", type=LocationType.METRIC, group=groups[1])
        comm_locs = defs.group("MPI locations", group_type=GroupType.COMM_LOCATIONS,
                               paradigm=Paradigm.MPI, members=masters)
        world_group = defs.group("world", group_type=GroupType.COMM_GROUP,
                                 paradigm=Paradigm.MPI, members=list(range(nranks)))
        world = defs.comm("MPI_COMM_WORLD", group=world_group)
        rg = regions(defs)
        cyc = defs.metric("PAPI_TOT_CYC", unit="#", value_type=Type.UINT64,
                          metric_mode=MetricMode.ACCUMULATED_START)
        power_m = defs.metric_member("power", unit="W", value_type=Type.DOUBLE)
        mem_m = defs.metric_member("mem", unit="B", value_type=Type.INT64, base=Base.BINARY,
                                   exponent=10)
        meter = defs.metric_class([power_m, mem_m], recorder_kind=RecorderKind.ABSTRACT)
        del comm_locs

        for r in range(nranks):
            w = trace.event_writer_from_location(masters[r])
            o = r * US  # each rank a little later
            t = lambda us: o + us * US
            w.enter(t(0), rg["main"])
            if r == 3:
                w.mpi_collective_begin(t(20))
                w.mpi_collective_end(t(40), CollectiveOp.BARRIER, world, 0, 0, 0)
            w.enter(t(50), rg["MPI_Bcast"])
            w.mpi_collective_begin(t(55))
            w.mpi_collective_end(t(90), CollectiveOp.BCAST, world, 0, 8, 8)
            w.leave(t(95), rg["MPI_Bcast"])
            for k in range(3):
                s = 100 + 1000 * k
                w.enter(t(s), rg["step"])
                if r == 0:
                    w.metric(t(s), cyc, [1000 * k])
                w.enter(t(s), rg["compute"])
                w.leave(t(s + 300), rg["compute"])
                w.enter(t(s + 300), rg["MPI_Send"])
                w.mpi_send(t(s + 310), (r + 1) % nranks, world, 5, 1024)
                w.leave(t(s + 350), rg["MPI_Send"])
                w.enter(t(s + 350), rg["MPI_Recv"])
                w.mpi_recv(t(s + 420), (r - 1) % nranks, world, 5, 1024)
                w.leave(t(s + 430), rg["MPI_Recv"])
                w.enter(t(s + 430), rg["MPI_Isend"])
                w.mpi_isend(t(s + 435), (r + 2) % nranks, world, 7, 64, 100 + k)
                w.leave(t(s + 440), rg["MPI_Isend"])
                w.enter(t(s + 440), rg["MPI_Irecv"])
                w.mpi_irecv_request(t(s + 445), 200 + k)
                w.leave(t(s + 450), rg["MPI_Irecv"])
                w.enter(t(s + 450), rg["MPI_Wait"])
                w.mpi_irecv(t(s + 480), (r + 2) % nranks, world, 7, 64, 200 + k)
                w.leave(t(s + 500), rg["MPI_Wait"])
                w.enter(t(s + 500), rg["MPI_Allreduce"])
                w.mpi_collective_begin(t(s + 505))
                w.mpi_collective_end(t(s + 590), CollectiveOp.ALLREDUCE, world, 0, 8, 8)
                w.leave(t(s + 600), rg["MPI_Allreduce"])
                if r == 0:
                    w.metric(t(s + 800), cyc, [1000 * k + 700])
                w.leave(t(s + 800), rg["step"])
            if r == 1:  # mis-nested: a's Leave while b is open
                w.enter(t(3200), rg["a"])
                w.enter(t(3300), rg["b"])
                w.leave(t(3400), rg["a"])
                w.leave(t(3500), rg["b"])
            if r == 2:
                w.measurement_on_off(t(3600), MeasurementMode.OFF)
                w.measurement_on_off(t(3800), MeasurementMode.ON)
            w.enter(t(3850), rg["write_output"])
            w.leave(t(3950), rg["write_output"])
            w.leave(t(4000), rg["main"])

            wk = trace.event_writer_from_location(workers[r])
            for k in range(3):
                s = 100 + 1000 * k
                wk.enter(t(s), rg["!$omp parallel"])
                wk.enter(t(s + 50), rg["compute"])
                wk.leave(t(s + 250), rg["compute"])
                wk.leave(t(s + 300), rg["!$omp parallel"])

        ws = trace.event_writer_from_location(stream)
        for k in range(3):
            s = 100 + 1000 * k
            ws.enter((s + 350) * US, rg["kernel_a"])
            ws.leave((s + 650) * US, rg["kernel_a"])
        wm = trace.event_writer_from_location(metric_loc)
        for i in range(9):
            wm.metric((500 * i) * US, meter, [100.0 + 10 * (i % 3), 4 * i])


def big(out, ranks, events, seed, chunk=None):
    """R ranks, each a flat run of steps of compute and MPI calls with a
    message to its neighbour: about `events` events per rank."""
    rnd = random.Random(seed)
    kw = {"chunk_size_events": chunk} if chunk else {}
    with otf2.writer.open(out, timer_resolution=1000000000, **kw) as trace:
        defs = trace.definitions
        node = defs.system_tree_node("node")
        locs = []
        for r in range(ranks):
            g = defs.location_group("MPI Rank %d" % r, system_tree_parent=node)
            locs.append(defs.location("Master thread", group=g))
        defs.group("MPI locations", group_type=GroupType.COMM_LOCATIONS,
                   paradigm=Paradigm.MPI, members=locs)
        wg = defs.group("world", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI,
                        members=list(range(ranks)))
        world = defs.comm("MPI_COMM_WORLD", group=wg)
        main = defs.region("main", paradigm=Paradigm.USER)
        compute = defs.region("compute", paradigm=Paradigm.USER)
        send = defs.region("MPI_Send", paradigm=Paradigm.MPI)
        recv = defs.region("MPI_Recv", paradigm=Paradigm.MPI)
        steps = max(1, (events - 2) // 10)
        for r in range(ranks):
            w = trace.event_writer_from_location(locs[r])
            t = 1000 * r
            w.enter(t, main)
            for k in range(steps):
                dt = 1000 + rnd.randrange(500)
                w.enter(t, compute)
                w.leave(t + dt, compute)
                t += dt
                w.enter(t, send)
                w.mpi_send(t + 10, (r + 1) % ranks, world, 1, 8)
                w.leave(t + 50, send)
                w.enter(t + 50, recv)
                w.mpi_recv(t + 90, (r - 1) % ranks, world, 1, 8)
                w.leave(t + 100, recv)
                t += 100
            w.leave(t, main)


def chunks(out):
    """big's shape, 2 ranks of 40 000 events in chunks of the smallest size
    libotf2 takes (256 KiB): each event file spans two chunks, so a damaged
    chunk header can send a reader round them."""
    big(out, 2, 40000, 1, chunk=256 * 1024)


def renamed(out):
    """APEX's renamed tasks (HPX): a task entered as hpx_main and left as
    run_helper, which is not open.  Thread 0 of "Process", from 100 us:
      100-300 us   hpx_main, left as run_helper (closes hpx_main at 300)
      400-500 us   task; work from 420, then a Leave of run_helper at 450
                   while both are open: closes the innermost, work; task's
                   own Leave at 500 closes task
      600-700 us   a, b from 620, leave a at 650 (open deeper: closes a, as
                   a mis-nested Leave always did), leave b at 700
      990-1000 us  end
    Two Leaves name a region that is not open (run_helper, twice), one is
    mis-nested (a's); busy 410 us of the 900."""
    with otf2.writer.open(out, timer_resolution=1000000000) as trace:
        defs = trace.definitions
        node = defs.system_tree_node("node")
        g = defs.location_group("Process", system_tree_parent=node)
        loc = defs.location("Master thread", group=g)
        rg = {n: defs.region(n, paradigm=Paradigm.USER)
              for n in ("hpx_main", "run_helper", "task", "work", "a", "b", "end")}
        w = trace.event_writer_from_location(loc)
        t = lambda us: us * US
        w.enter(t(100), rg["hpx_main"])
        w.leave(t(300), rg["run_helper"])   # not open: closes hpx_main
        w.enter(t(400), rg["task"])
        w.enter(t(420), rg["work"])
        w.leave(t(450), rg["run_helper"])   # not open: closes work
        w.leave(t(500), rg["task"])
        w.enter(t(600), rg["a"])
        w.enter(t(620), rg["b"])
        w.leave(t(650), rg["a"])            # open deeper: closes a
        w.leave(t(700), rg["b"])
        w.enter(t(990), rg["end"])
        w.leave(t(1000), rg["end"])


def nompi(out):
    """A Score-P run with HIP and no MPI (as fastotf2's MI300 archive): one
    location group "Process" whose CPU thread is "Master thread", a HIP
    stream of a GPU, and a counter of unit "#" reaching 2.11e9."""
    with otf2.writer.open(out, timer_resolution=1000000000) as trace:
        defs = trace.definitions
        node = defs.system_tree_node("node")
        g = defs.location_group("Process", system_tree_parent=node)
        cpu = defs.location("Master thread", group=g)
        gpu_g = defs.location_group("HIP GPU", system_tree_parent=node,
                                    location_group_type=LocationGroupType.ACCELERATOR)
        stream = defs.location("HIP stream 1", type=LocationType.ACCELERATOR_STREAM,
                               group=gpu_g)
        main = defs.region("main", paradigm=Paradigm.USER)
        launch = defs.region("hipLaunchKernel", paradigm=Paradigm.HIP)
        kern = defs.region("kernel_a", paradigm=Paradigm.HIP)
        cyc = defs.metric("PAPI_TOT_INS", unit="#", value_type=Type.UINT64,
                          metric_mode=MetricMode.ABSOLUTE_POINT)
        w = trace.event_writer_from_location(cpu)
        w.enter(0, main)
        for k in range(3):
            w.metric((100 + 300 * k) * US, cyc, [700000000 * (k + 1) + 5000000 * k])
            w.enter((100 + 300 * k) * US, launch)
            w.leave((120 + 300 * k) * US, launch)
        w.leave(1000 * US, main)
        ws = trace.event_writer_from_location(stream)
        for k in range(3):
            ws.enter((150 + 300 * k) * US, kern)
            ws.leave((250 + 300 * k) * US, kern)


def badname(out):
    """basic's shape in small: a rank of one thread whose region "BADNAME"
    and location group "MPI Rank BAD0" have their "BAD" replaced, in the
    definitions file, by the bytes FF C3 28 (not valid UTF-8).  The region
    is entered twice: once left, once never left (the warning's count)."""
    with otf2.writer.open(out, timer_resolution=1000000000) as trace:
        defs = trace.definitions
        node = defs.system_tree_node("node")
        g = defs.location_group("MPI Rank BAD0", system_tree_parent=node)
        loc = defs.location("Master thread", group=g)
        bad = defs.region("BADNAME", paradigm=Paradigm.USER)
        w = trace.event_writer_from_location(loc)
        w.enter(0, bad)
        w.leave(100 * US, bad)
        w.enter(200 * US, bad)
    path = os.path.join(out, "traces.def")
    with open(path, "rb") as f:
        d = f.read()
    assert d.count(b"BAD") == 2, "the placeholder is written once per name"
    with open(path, "wb") as f:
        f.write(d.replace(b"BAD", b"\xff\xc3\x28"))


def stencil(out, ranks):
    """tracer-stencil4d's shape (Score-P): each rank one "Master thread".
    Rank r (times in us): MPI_Init from 10 r (odd ranks from 200 000 + 10 r)
    to 400 000 + 10 r; then TRACER_Loop to 404 000: 8 iterations of 500 us,
    each an "iteration" (a user region, 0-400 us) holding "halo" (0-200 us,
    holding MPI_Isend 0-20, MPI_Irecv 20-40, MPI_Waitall 40-180) and
    "compute" (200-400 us); then MPI_Barrier 404 000-404 500 and
    MPI_Finalize 404 500-405 000.  Row 0 holds the long MPI_Init, rows 1-3
    the loop's nesting: at one row per lane, a lane is busy (inked) where
    MPI_Init is."""
    with otf2.writer.open(out, timer_resolution=1000000000) as trace:
        defs = trace.definitions
        node = defs.system_tree_node("node")
        locs = []
        for r in range(ranks):
            g = defs.location_group("MPI Rank %d" % r, system_tree_parent=node)
            locs.append(defs.location("Master thread", group=g))
        rg = {}
        for name, par in (("MPI_Init", Paradigm.MPI), ("TRACER_Loop", Paradigm.USER),
                          ("iteration", Paradigm.USER), ("halo", Paradigm.USER),
                          ("compute", Paradigm.USER), ("MPI_Isend", Paradigm.MPI),
                          ("MPI_Irecv", Paradigm.MPI), ("MPI_Waitall", Paradigm.MPI),
                          ("MPI_Barrier", Paradigm.MPI), ("MPI_Finalize", Paradigm.MPI)):
            rg[name] = defs.region(name, paradigm=par)
        for r in range(ranks):
            w = trace.event_writer_from_location(locs[r])
            t = lambda us: (us + 10 * r) * US

            def span(name, a, b):
                w.enter(t(a), rg[name])
                w.leave(t(b), rg[name])

            span("MPI_Init", 200000 if r % 2 else 0, 400000)
            w.enter(t(400000), rg["TRACER_Loop"])
            for k in range(8):
                s0 = 400000 + 500 * k
                w.enter(t(s0), rg["iteration"])
                w.enter(t(s0), rg["halo"])
                span("MPI_Isend", s0, s0 + 20)
                span("MPI_Irecv", s0 + 20, s0 + 40)
                span("MPI_Waitall", s0 + 40, s0 + 180)
                w.leave(t(s0 + 200), rg["halo"])
                span("compute", s0 + 200, s0 + 400)
                w.leave(t(s0 + 400), rg["iteration"])
            w.leave(t(404000), rg["TRACER_Loop"])
            span("MPI_Barrier", 404000, 404500)
            span("MPI_Finalize", 404500, 405000)


def undercount(out):
    """APEX's counts (HPX): the location definitions declare the same small
    number of events for every thread, whatever each holds.  One process
    "Process" of three threads, each declared with 8 events:
      thread 0   8 events (as declared): 4 regions "task" of 10 us, 100 us apart
      thread 1  40 events: 20 regions "work" of 20 us, 50 us apart from 0
      thread 2  60 events: 30 regions "idle_loop" of 5 us, 30 us apart from 2 us
    The writer counts the events it writes; the count it puts in the
    definitions is the attribute it keeps for them, set here before the
    archive is closed (python3-otf2's Location.write)."""
    declared = 8
    with otf2.writer.open(out, timer_resolution=1000000000) as trace:
        defs = trace.definitions
        node = defs.system_tree_node("node")
        g = defs.location_group("Process", system_tree_parent=node)
        locs = [defs.location("Thread %d" % k, group=g) for k in range(3)]
        plan = [("task", 4, 0, 100, 10), ("work", 20, 0, 50, 20), ("idle_loop", 30, 2, 30, 5)]
        for loc, (name, n, t0, step, dur) in zip(locs, plan):
            reg = defs.region(name, paradigm=Paradigm.USER)
            w = trace.event_writer_from_location(loc)
            for k in range(n):
                w.enter((t0 + step * k) * US, reg)
                w.leave((t0 + step * k + dur) * US, reg)
        for loc in locs:
            loc._number_of_events_written = declared


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=["basic", "big", "chunks", "renamed", "nompi", "badname",
                                       "stencil", "undercount"])
    ap.add_argument("out")
    ap.add_argument("--ranks", type=int, default=64)
    ap.add_argument("--events", type=int, default=1000000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if os.path.exists(a.out):
        shutil.rmtree(a.out)
    if a.what == "big":
        big(a.out, a.ranks, a.events, a.seed)
    elif a.what == "stencil":
        stencil(a.out, a.ranks if "--ranks" in sys.argv else 32)
    else:
        globals()[a.what](a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
