#!/usr/bin/python3
"""gennsys.py - tracefig's own generator of Nsight Systems SQLite exports.

    /usr/bin/python3 tests/tools/gennsys.py CASE --out FILE.sqlite [options]

Writes, with python3's sqlite3, a database laid out as `nsys export --type
sqlite` lays one out: the event tables (CUPTI_ACTIVITY_KIND_KERNEL, _MEMCPY,
_MEMSET, _RUNTIME, NVTX_EVENTS, OSRT_API), the string table (StringIds, which
every name id points into), PROCESSES, ThreadNames, TARGET_INFO_GPU,
TARGET_INFO_SESSION_START_TIME and the export's metadata table.  Two layouts:

  --schema 3.24   as nsys 2026.1 writes (META_DATA_EXPORT, greenContextId,
                  TARGET_INFO_CUDA_STREAM, the ENUM_* tables, NVTX textId)
  --schema 2.9    as nsys 2022.1 wrote (EXPORT_META_DATA, fewer columns, no
                  ENUM_* tables, NVTX text always inline)

Times are nanoseconds from the session's start, as in real exports; pids and
tids are packed into globalTid / globalPid the way nsys packs them
((1 << 48) | pid << 24 | tid).

Cases:

  full         one training process ("/opt/app/train", pid 4242) with a main
               thread, a data-loader thread and an unnamed thread; 3 steps of
               nested NVTX push/pop ranges (train_step > forward/backward >
               layer_N, some coloured, one registered through textId in 3.24),
               a start/end range, a mark and a range never closed (end NULL)
               on the loader thread, CUDA runtime
               and driver calls (names with nsys's _vNNNN suffixes), kernels
               on GPU 0 streams 7 and 13 and GPU 1 stream 21 (one an NCCL
               kernel) with correlation ids matching their launches, memcpy
               HtoD/DtoH/DtoD, memset, OS runtime calls; a second process
               (nsys) with threads and no events.
  kernels      kernels only (no runtime, no NVTX): GPU lanes alone.
  runtime      CUDA runtime calls only.
  osrt         OS runtime calls only (drawn with --osrt).
  nvtx         NVTX ranges only, 2 threads.
  bench-nvtx   about 2 MB: 13 000 NVTX ranges nested 4 deep on one thread,
               with runtime calls and kernels (make bench: <= 50 ms).
  bench-kernels  --kernels N kernels (default 10 000 000, about 1 GB) on 4
               streams, 1 000 NVTX "step" ranges, written by SQL inside
               SQLite; --index adds an index on start to each GPU table.
  hostile      names with invalid UTF-8, control characters, XML and TeX
               specials, a 2 KB kernel name.
  critpath     one step whose critical path runs through each CUDA
               synchronisation call (tests/critpath).
  multiproc    two processes with kernels on the same GPU stream.
  empty-db     an SQLite database with no tables at all.
  no-tables    an SQLite database with tables, none of an export.
  meta-only    an export's metadata and string tables, no event table.

Deterministic: no randomness beyond fixed arithmetic, no clock.  The bytes of
the file still depend on the SQLite library version; the rows do not.
"""

import argparse
import os
import sqlite3
import sys

PID = 4242
OTHER_PID = 4100


def gpid(pid):
    return (1 << 48) | (pid << 24)


def gtid(pid, tid):
    return gpid(pid) | tid


# --- layouts -----------------------------------------------------------------

KERNEL_V3 = """start end deviceId contextId greenContextId streamId correlationId globalPid
demangledName shortName mangledName launchType cacheConfig registersPerThread gridX gridY gridZ
blockX blockY blockZ staticSharedMemory dynamicSharedMemory localMemoryPerThread
localMemoryTotal gridId sharedMemoryExecuted graphNodeId sharedMemoryLimitConfig
qmdBulkReleaseDone qmdPreexitDone qmdLastCtaDone graphId clusterX clusterY clusterZ
clusterSchedulingPolicy maxPotentialClusterSize maxActiveClusters
sharedMemoryRequestedPercentage"""
KERNEL_V2 = """start end deviceId contextId streamId correlationId globalPid demangledName
shortName launchType cacheConfig registersPerThread gridX gridY gridZ blockX blockY blockZ
staticSharedMemory dynamicSharedMemory localMemoryPerThread localMemoryTotal gridId
sharedMemoryExecuted graphNodeId sharedMemoryLimitConfig"""
MEMCPY_V3 = """start end deviceId contextId greenContextId streamId correlationId globalPid
bytes copyKind deprecatedSrcId srcKind dstKind srcDeviceId srcContextId dstDeviceId
dstContextId migrationCause graphNodeId virtualAddress copyCount"""
MEMCPY_V2 = """start end deviceId contextId streamId correlationId globalPid bytes copyKind
deprecatedSrcId srcKind dstKind srcDeviceId srcContextId dstDeviceId dstContextId
migrationCause graphNodeId"""
MEMSET_V3 = """start end deviceId contextId greenContextId streamId correlationId globalPid
value bytes graphNodeId memKind"""
MEMSET_V2 = """start end deviceId contextId streamId correlationId globalPid value bytes
graphNodeId"""
RUNTIME = "start end eventClass globalTid correlationId nameId returnValue callchainId"
NVTX_V3 = """start end eventType rangeId category color text globalTid endGlobalTid textId
domainId uint64Value int64Value doubleValue uint32Value int32Value floatValue jsonTextId
jsonText binaryData"""
NVTX_V2 = "start end eventType rangeId category color text globalTid endGlobalTid domainId"
OSRT_V3 = """start end eventClass globalTid nameId returnValue nestingLevel callchainId
argumentsId"""
OSRT_V2 = "start end eventClass globalTid nameId returnValue nestingLevel callchainId"
GPU_V3 = """vmId id name busLocation isDiscrete l2CacheSize totalMemory memoryBandwidth
clockRate smCount pwGpuId uuid luid chipName cuDevice"""
GPU_V2 = "id name busLocation isDiscrete l2CacheSize totalMemory clockRate smCount chipName"

TEXT_COLUMNS = {"text", "name", "value", "busLocation", "uuid", "chipName", "jsonText",
                "binaryData", "utcTime", "localTime"}


class Export:
    """One database being written in one of the two layouts."""

    def __init__(self, path, schema):
        if os.path.exists(path):
            os.remove(path)
        self.db = sqlite3.connect(path)
        self.db.execute("PRAGMA journal_mode=OFF")
        self.db.execute("PRAGMA synchronous=OFF")
        self.v3 = schema == "3.24"
        self.path = path
        self.strings = {}
        self.cols = {}

    def table(self, name, cols):
        cols = cols.split()
        self.cols[name] = cols
        decl = ", ".join('"%s" %s' % (c, "TEXT" if c in TEXT_COLUMNS else "INTEGER")
                         for c in cols)
        self.db.execute('CREATE TABLE "%s" (%s)' % (name, decl))

    def insert(self, name, rows):
        """rows: dicts of column -> value; absent columns are NULL."""
        cols = self.cols[name]
        sql = 'INSERT INTO "%s" VALUES (%s)' % (name, ", ".join("?" * len(cols)))
        self.db.executemany(sql, ([r.get(c) for c in cols] for r in rows))

    def sid(self, s):
        """The StringIds id of s (added when new)."""
        if s not in self.strings:
            self.strings[s] = len(self.strings) + 1
        return self.strings[s]

    def meta(self, product):
        name = "META_DATA_EXPORT" if self.v3 else "EXPORT_META_DATA"
        self.table(name, "name value")
        version = "3.24.14" if self.v3 else "2.9.0"
        major, minor, micro = version.split(".")
        self.insert(name, [
            {"name": "EXPORT_PRODUCT_NAME", "value": "NVIDIA Nsight Systems"},
            {"name": "EXPORT_PRODUCT_VERSION", "value": product},
            {"name": "EXPORT_SCHEMA_VERSION", "value": version},
            {"name": "EXPORT_SCHEMA_VERSION_MAJOR", "value": major},
            {"name": "EXPORT_SCHEMA_VERSION_MINOR", "value": minor},
            {"name": "EXPORT_SCHEMA_VERSION_MICRO", "value": micro},
        ])

    def targets(self, gpus):
        self.table("TARGET_INFO_SESSION_START_TIME", "utcEpochNs utcTime localTime")
        self.insert("TARGET_INFO_SESSION_START_TIME", [
            {"utcEpochNs": 1767225600000000000, "utcTime": "2026-01-01T00:00:00",
             "localTime": "2026-01-01T00:00:00"}])
        self.table("TARGET_INFO_GPU", GPU_V3 if self.v3 else GPU_V2)
        self.insert("TARGET_INFO_GPU", [
            {"vmId": 1 << 48, "id": i, "name": n, "busLocation": "0000:%02x:00.0" % (0x41 + i),
             "cuDevice": i, "smCount": 132, "chipName": "GH100"} for i, n in gpus])

    def processes(self, procs):
        """procs: (pid, name, [(tid, thread name or None)])."""
        self.table("PROCESSES", "globalPid pid name")
        self.table("ThreadNames", "nameId priority globalTid")
        self.insert("PROCESSES", [{"globalPid": gpid(p), "pid": p, "name": n}
                                  for p, n, _ in procs])
        rows = []
        for p, _, threads in procs:
            for t, tn in threads:
                if tn is not None:
                    rows.append({"nameId": self.sid(tn), "priority": 20,
                                 "globalTid": gtid(p, t)})
        self.insert("ThreadNames", rows)

    def enums(self):
        if not self.v3:
            return
        self.table("ENUM_CUDA_MEMCPY_OPER", "id name label")
        kinds = ["UNKNOWN", "HTOD", "DTOH", "HTOA", "ATOH", "ATOA", "ATOD", "DTOA", "DTOD",
                 "HTOH", "PTOP"]
        self.insert("ENUM_CUDA_MEMCPY_OPER", [
            {"id": i, "name": "CUDA_MEMCPY_KIND_" + k, "label": k} for i, k in enumerate(kinds)])
        self.table("ENUM_CUDA_MEM_KIND", "id name label")
        mem = ["Pageable", "Pinned", "Device", "Array", "Managed", "Device Static",
               "Managed Static", "Unknown"]
        self.insert("ENUM_CUDA_MEM_KIND", [
            {"id": i, "name": "CUDA_MEMOPR_MEMORY_KIND_" + m.upper().replace(" ", "_"),
             "label": m} for i, m in enumerate(mem)])

    def finish(self):
        self.table("StringIds", "id value")
        self.insert("StringIds", [{"id": i, "value": s}
                                  for s, i in sorted(self.strings.items(), key=lambda x: x[1])])
        self.db.commit()
        self.db.close()


# --- the full case ---------------------------------------------------------------

KERNELS = [
    ("void at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor<float>, "
     "std::array<char *, (unsigned long)1>>(int, T2, T3)", "vectorized_elementwise_kernel"),
    ("ampere_sgemm_128x64_nn", "ampere_sgemm_128x64_nn"),
    ("void at::native::reduce_kernel<(int)512, (int)1, at::native::ReduceOp<float, "
     "at::native::MeanOps<float, float, float, float>, unsigned int, float, (int)4>>(T3)",
     "reduce_kernel"),
    ("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm *, unsigned long, ncclWork *)",
     "ncclDevKernel_AllReduce_Sum_f32_RING_LL"),
]

MEMCPY_KINDS = {"HtoD": 1, "DtoH": 2, "DtoD": 8}
MEM_KINDS = {"Pageable": 0, "Pinned": 1, "Device": 2}


def argb(rgb):
    return 0xFF000000 | rgb


class Full:
    """The events of the full case, gathered per table."""

    def __init__(self, ex):
        self.ex = ex
        self.kernel, self.memcpy, self.memset = [], [], []
        self.runtime, self.nvtx, self.osrt = [], [], []
        self.corr = 100

    def call(self, tid, t0, t1, name, driver=False, corr=None):
        self.runtime.append({"start": t0, "end": t1, "eventClass": 1 if driver else 0,
                             "globalTid": gtid(PID, tid), "correlationId": corr,
                             "nameId": self.ex.sid(name), "returnValue": 0})

    def launch(self, tid, t, dev, stream, k, dur):
        """A cudaLaunchKernel at t and its kernel, 5 us later on the GPU."""
        self.corr += 1
        self.call(tid, t, t + 3000, "cudaLaunchKernel_v7000", corr=self.corr)
        demangled, short = KERNELS[k]
        s = t + 5000
        self.kernel.append({
            "start": s, "end": s + dur, "deviceId": dev, "contextId": 1, "streamId": stream,
            "correlationId": self.corr, "globalPid": gpid(PID),
            "demangledName": self.ex.sid(demangled), "shortName": self.ex.sid(short),
            "mangledName": self.ex.sid("_Z%dk%d" % (len(short), k)), "registersPerThread": 32,
            "gridX": 128, "gridY": 1, "gridZ": 1, "blockX": 256, "blockY": 1, "blockZ": 1,
            "staticSharedMemory": 0, "dynamicSharedMemory": 0, "localMemoryPerThread": 0,
            "localMemoryTotal": 0, "gridId": self.corr, "launchType": 0, "cacheConfig": 0})
        return s + dur

    def copy(self, tid, t, stream, kind, src, dst, nbytes, dur):
        self.corr += 1
        self.call(tid, t, t + 4000, "cudaMemcpyAsync_v3020", corr=self.corr)
        s = t + 6000
        self.memcpy.append({
            "start": s, "end": s + dur, "deviceId": 0, "contextId": 1, "streamId": stream,
            "correlationId": self.corr, "globalPid": gpid(PID), "bytes": nbytes,
            "copyKind": MEMCPY_KINDS[kind], "srcKind": MEM_KINDS[src], "dstKind": MEM_KINDS[dst],
            "srcDeviceId": 0, "dstDeviceId": 0, "srcContextId": 1, "dstContextId": 1,
            "copyCount": 1})

    def fill(self, tid, t, stream, nbytes, dur):
        self.corr += 1
        self.call(tid, t, t + 2000, "cudaMemsetAsync_v3020", corr=self.corr)
        s = t + 4000
        self.memset.append({
            "start": s, "end": s + dur, "deviceId": 0, "contextId": 1, "streamId": stream,
            "correlationId": self.corr, "globalPid": gpid(PID), "value": 0, "bytes": nbytes,
            "memKind": MEM_KINDS["Device"]})

    def range_(self, tid, t0, t1, text, color=None, registered=False, etype=59, end_tid=None,
               range_id=None):
        row = {"start": t0, "end": t1, "eventType": etype, "globalTid": gtid(PID, tid),
               "domainId": 0, "color": argb(color) if color is not None else None,
               "rangeId": range_id}
        if end_tid is not None:
            row["endGlobalTid"] = gtid(PID, end_tid)
        if registered and self.ex.v3:
            row["textId"] = self.ex.sid(text)
        else:
            row["text"] = text
        self.nvtx.append(row)

    def os_call(self, tid, t0, t1, name, level=0):
        self.osrt.append({"start": t0, "end": t1, "eventClass": 27, "globalTid": gtid(PID, tid),
                          "nameId": self.ex.sid(name), "returnValue": 0, "nestingLevel": level,
                          "callchainId": 0, "argumentsId": 0})


MAIN, LOADER, UNNAMED = PID, PID + 8, PID + 20
MS = 1000000


def full_events(ex, parts):
    f = Full(ex)
    f.call(MAIN, 100 * MS, 101 * MS, "cuInit", driver=True)
    f.call(MAIN, 102 * MS, 103 * MS, "cudaMalloc_v3020")
    f.os_call(MAIN, 104 * MS, 106 * MS, "open64")
    for step in range(3):
        t = 110 * MS + step * 20 * MS
        f.range_(MAIN, t, t + 18 * MS, "train_step", color=0x76B900)
        f.range_(MAIN, t + MS, t + 9 * MS, "forward", color=0x1F77B4, registered=True)
        for layer in range(3):
            a = t + 2 * MS + layer * 2 * MS
            f.range_(MAIN, a, a + int(1.5 * MS), "layer_%d" % layer)
            f.launch(MAIN, a + 100000, 0, 7, layer % 3, 400000)
        f.copy(MAIN, t + 1200000, 13, "HtoD", "Pinned", "Device", 4 << 20, 300000)
        f.fill(MAIN, t + 1600000, 13, 1 << 20, 50000)
        f.range_(MAIN, t + 10 * MS, t + 17 * MS, "backward")
        f.launch(MAIN, t + 11 * MS, 0, 7, 1, 2 * MS)
        f.launch(MAIN, t + 11 * MS + 10000, 0, 13, 3, 3 * MS)  # the NCCL all-reduce
        f.launch(MAIN, t + 12 * MS, 1, 21, 0, MS)
        f.copy(MAIN, t + 16 * MS, 7, "DtoH", "Device", "Pageable", 256 << 10, 200000)
        f.copy(MAIN, t + 16500000, 7, "DtoD", "Device", "Device", 8 << 20, 100000)
        f.call(MAIN, t + 17 * MS, t + 17800000, "cudaStreamSynchronize_v3020")
        f.os_call(MAIN, t + 17100000, t + 17700000, "pthread_cond_wait")
        # the loader thread: a start/end range, a mark, reads
        f.range_(LOADER, t + 2 * MS, t + 8 * MS, "load_batch", etype=60, end_tid=LOADER,
                 range_id=step + 1, color=0xFF7F0E)
        f.range_(LOADER, t + 5 * MS, t + 5 * MS, "batch_ready", etype=34)
        f.os_call(LOADER, t + 2100000, t + 7 * MS, "read")
        f.os_call(LOADER, t + 7100000, t + 7900000, "poll")
        f.call(UNNAMED, t + 3 * MS, t + 3200000, "cudaEventQuery_v3020")
    # an epoch range on the loader thread that never ends (end NULL)
    f.nvtx.append({"start": 105 * MS, "end": None, "eventType": 59, "globalTid": gtid(PID, LOADER),
                   "domainId": 0, "text": "epoch"})
    kept = {"kernel": f.kernel, "memcpy": f.memcpy, "memset": f.memset,
            "runtime": f.runtime, "nvtx": f.nvtx, "osrt": f.osrt}
    return {k: v for k, v in kept.items() if k in parts}


def critpath_events(ex):
    """One step ("step", 10..17 ms) whose critical path runs through each
    synchronisation call (tests/critpath): k0 on stream 7, which
    cudaStreamSynchronize waits for; k1 on stream 13, recorded by
    cudaEventRecord; cudaStreamWaitEvent makes k2 (stream 7) wait for k1;
    cudaDeviceSynchronize waits for k2; cudaEventSynchronize for k3."""
    f = Full(ex)
    us = 1000
    f.range_(MAIN, 10 * MS, 20 * MS, "step")
    f.launch(MAIN, 10 * MS, 0, 7, 0, 3 * MS)                    # k0 10.005 .. 13.005
    f.call(MAIN, 10 * MS + 10 * us, 13 * MS + 15 * us, "cudaStreamSynchronize_v3020")
    f.launch(MAIN, 13 * MS + 20 * us, 0, 13, 1, 2 * MS)          # k1 13.025 .. 15.025
    f.call(MAIN, 13 * MS + 30 * us, 13 * MS + 32 * us, "cudaEventRecord_v3020")
    f.call(MAIN, 13 * MS + 40 * us, 13 * MS + 42 * us, "cudaStreamWaitEvent_v3020")
    end = f.launch(MAIN, 13 * MS + 50 * us, 0, 7, 2, MS)         # k2, moved after k1
    k2 = f.kernel[-1]
    k2["start"], k2["end"] = 15 * MS + 30 * us, 16 * MS + 30 * us
    del end
    f.call(MAIN, 13 * MS + 60 * us, 16 * MS + 40 * us, "cudaDeviceSynchronize_v3020")
    f.launch(MAIN, 16 * MS + 50 * us, 0, 13, 3, 2 * MS)          # k3 16.055 .. 18.055
    f.call(MAIN, 16 * MS + 60 * us, 18 * MS + 65 * us, "cudaEventSynchronize_v3020")
    f.call(MAIN, 18 * MS + 70 * us, 18 * MS + 90 * us, "cudaFree_v3020")
    return {"kernel": f.kernel, "runtime": f.runtime, "nvtx": f.nvtx}


def write_events(ex, ev):
    v3 = ex.v3
    if "kernel" in ev:
        ex.table("CUPTI_ACTIVITY_KIND_KERNEL", KERNEL_V3 if v3 else KERNEL_V2)
        ex.insert("CUPTI_ACTIVITY_KIND_KERNEL", ev["kernel"])
    if "memcpy" in ev:
        ex.table("CUPTI_ACTIVITY_KIND_MEMCPY", MEMCPY_V3 if v3 else MEMCPY_V2)
        ex.insert("CUPTI_ACTIVITY_KIND_MEMCPY", ev["memcpy"])
    if "memset" in ev:
        ex.table("CUPTI_ACTIVITY_KIND_MEMSET", MEMSET_V3 if v3 else MEMSET_V2)
        ex.insert("CUPTI_ACTIVITY_KIND_MEMSET", ev["memset"])
    if "runtime" in ev:
        ex.table("CUPTI_ACTIVITY_KIND_RUNTIME", RUNTIME)
        ex.insert("CUPTI_ACTIVITY_KIND_RUNTIME", ev["runtime"])
    if "nvtx" in ev:
        ex.table("NVTX_EVENTS", NVTX_V3 if v3 else NVTX_V2)
        ex.insert("NVTX_EVENTS", ev["nvtx"])
    if "osrt" in ev:
        ex.table("OSRT_API", OSRT_V3 if v3 else OSRT_V2)
        ex.insert("OSRT_API", ev["osrt"])


def common(ex, product):
    ex.meta(product)
    ex.targets([(0, "NVIDIA H100 80GB HBM3"), (1, "NVIDIA H100 80GB HBM3")])
    ex.processes([
        (PID, "/opt/app/train", [(MAIN, "train"), (LOADER, "loader"), (UNNAMED, None),
                                 (PID + 30, "cuda-EvtHandlr")]),
        (OTHER_PID, "nsys", [(OTHER_PID, "nsys"), (OTHER_PID + 1, "*1Comm")]),
    ])
    ex.enums()
    if ex.v3:
        ex.table("TARGET_INFO_CUDA_STREAM", "streamId hwId vmId processId contextId priority flag")
        ex.insert("TARGET_INFO_CUDA_STREAM", [
            {"streamId": s, "hwId": 0, "vmId": 1, "processId": PID, "contextId": 1,
             "priority": 0, "flag": 1} for s in (7, 13, 21)])


PARTS = {
    "full": ("kernel", "memcpy", "memset", "runtime", "nvtx", "osrt"),
    "kernels": ("kernel",),
    "runtime": ("runtime",),
    "osrt": ("osrt",),
    "nvtx": ("nvtx",),
}


def product_of(ex):
    return "2026.1.1.204" if ex.v3 else "2022.1.1.61"


def case_events(ex, case):
    common(ex, product_of(ex))
    write_events(ex, full_events(ex, PARTS[case]))
    ex.finish()


# --- the benchmarks ----------------------------------------------------------------


def bench_nvtx(ex):
    """13 000 NVTX ranges nested 4 deep, with runtime calls and kernels."""
    common(ex, product_of(ex))
    f = Full(ex)
    t = 50 * MS
    names = ["Fusion::%s" % w for w in ("lower", "compile", "schedule", "evaluate", "segment",
                                        "replay", "validate", "allocate", "index", "unroll")]
    for it in range(1000):
        f.range_(MAIN, t, t + 400000, "iteration %d" % it)
        for k in range(4):
            n = it * 4 + k
            a = t + 10000 + k * 95000
            f.range_(MAIN, a, a + 90000, names[n % 10])
            f.range_(MAIN, a + 5000, a + 60000, names[(n + 3) % 10] + "::inner")
            f.range_(MAIN, a + 10000, a + 30000, names[(n + 7) % 10] + "::leaf")
            for c in range(8):
                f.call(MAIN, a + 11000 + c * 2000, a + 12500 + c * 2000, "cuGetProcAddress_v2",
                       driver=True)
        f.launch(MAIN, t + 300000, 0, 7, it % 4, 50000)
        t += 420000
    write_events(ex, {"kernel": f.kernel, "runtime": f.runtime, "nvtx": f.nvtx})
    ex.finish()


def bench_kernels(ex, n, index):
    """n kernels on 4 streams of GPU 0, one every 750 ns on average, and a
    "step" NVTX range every n / 1000 kernels; rows made by SQL."""
    common(ex, product_of(ex))
    v3 = ex.v3
    ex.table("CUPTI_ACTIVITY_KIND_KERNEL", KERNEL_V3 if v3 else KERNEL_V2)
    ex.table("NVTX_EVENTS", NVTX_V3 if v3 else NVTX_V2)
    names = [(ex.sid(d), ex.sid(s)) for d, s in KERNELS]
    cols = ex.cols["CUPTI_ACTIVITY_KIND_KERNEL"]
    # kernel i: stream 7 + i % 4, start 100 ms + 750 i ns, 500..2500 ns long;
    # every column the layout has gets a value.
    vals = {
        "start": "100000000 + i * 750",
        "end": "100000000 + i * 750 + 500 + (i * 7919) % 2000",
        "deviceId": "0", "contextId": "1", "greenContextId": "NULL",
        "streamId": "7 + i % 4", "correlationId": "i + 1", "globalPid": str(gpid(PID)),
        "demangledName": "CASE i %% 4 WHEN 0 THEN %d WHEN 1 THEN %d WHEN 2 THEN %d ELSE %d END"
                         % tuple(d for d, _ in names),
        "shortName": "CASE i %% 4 WHEN 0 THEN %d WHEN 1 THEN %d WHEN 2 THEN %d ELSE %d END"
                     % tuple(s for _, s in names),
        "mangledName": "%d" % names[0][0], "qmdBulkReleaseDone": "100000000 + i * 750 + 400",
        "registersPerThread": "32", "gridX": "128", "gridY": "1",
        "gridZ": "1", "blockX": "256", "blockY": "1", "blockZ": "1",
        "gridId": "i + 1", "staticSharedMemory": "49152", "dynamicSharedMemory": "16384",
        "localMemoryTotal": "983040", "sharedMemoryExecuted": "65536",
        "launchType": "0", "cacheConfig": "0",
    }
    select = ", ".join(vals.get(c, "0") for c in cols)
    ex.db.execute(
        "WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i + 1 < %d) "
        'INSERT INTO "CUPTI_ACTIVITY_KIND_KERNEL" SELECT %s FROM c' % (n, select))
    steps = 1000
    per = max(1, n // steps)
    f = Full(ex)
    for s in range(steps):
        t0 = 100000000 + s * per * 750
        f.range_(MAIN, t0, t0 + per * 750, "step")
    ex.insert("NVTX_EVENTS", f.nvtx)
    if index:
        ex.db.execute('CREATE INDEX kernel_start ON "CUPTI_ACTIVITY_KIND_KERNEL"(start)')
    ex.finish()


def hostile(ex):
    """Names no figure should choke on: invalid UTF-8, control characters,
    XML and TeX specials, a very long template name."""
    common(ex, product_of(ex))
    f = Full(ex)
    f.range_(MAIN, 10 * MS, 20 * MS, "@NVTX@")
    long_name = "void ns::k<" + ", ".join("T%d" % i for i in range(400)) + ">(int)"
    KERNELS.append((long_name, "k"))
    f.launch(MAIN, 11 * MS, 0, 7, len(KERNELS) - 1, 3 * MS)
    f.call(MAIN, 15 * MS, 16 * MS, "@CALL@")
    write_events(ex, {"kernel": f.kernel, "runtime": f.runtime, "nvtx": f.nvtx})
    ex.finish()
    # Invalid UTF-8 can only be written as bytes cast to text.
    raw = {"@NVTX@": b"step \xff\xfe <&>\"' $%#_{}~^\\ \x01\x7f \xe2\x82 end",
           "@CALL@": b"cuda\xc3Bad\x02_v3020"}
    db = sqlite3.connect(ex.path)
    for table, col in (("NVTX_EVENTS", "text"), ("StringIds", "value")):
        for key, b in raw.items():
            db.execute('UPDATE "%s" SET "%s" = CAST(? AS TEXT) WHERE "%s" = ?' % (table, col, col),
                       (b, key))
    db.commit()
    db.close()


def multiproc(ex):
    """Two processes, each with kernels on GPU 0 stream 7: two lanes."""
    ex.meta(product_of(ex))
    ex.targets([(0, "NVIDIA A100-SXM4-40GB")])
    ex.processes([(PID, "python", [(PID, "python")]), (PID + 1000, "python", [(PID + 1000, "python")])])
    f = Full(ex)
    for k, pid in enumerate((PID, PID + 1000)):
        for i in range(3):
            t = 10 * MS + i * 2 * MS + k * MS
            f.corr += 1
            f.runtime.append({"start": t, "end": t + 5000, "eventClass": 0,
                              "globalTid": gtid(pid, pid), "correlationId": f.corr,
                              "nameId": ex.sid("cudaLaunchKernel_v7000"), "returnValue": 0})
            f.kernel.append({"start": t + 10000, "end": t + 500000, "deviceId": 0, "contextId": 1,
                             "streamId": 7, "correlationId": f.corr, "globalPid": gpid(pid),
                             "demangledName": ex.sid(KERNELS[1][0]),
                             "shortName": ex.sid(KERNELS[1][1]), "registersPerThread": 32,
                             "gridX": 1, "gridY": 1, "gridZ": 1, "blockX": 1, "blockY": 1,
                             "blockZ": 1, "staticSharedMemory": 0, "dynamicSharedMemory": 0,
                             "localMemoryPerThread": 0, "localMemoryTotal": 0, "gridId": f.corr})
    write_events(ex, {"kernel": f.kernel, "runtime": f.runtime})
    ex.finish()


# --- not exports ---------------------------------------------------------------------


def empty_db(path):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 1")  # writes the header page: no tables
    db.commit()
    db.close()


def no_tables(path):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE recipes (name TEXT, minutes INTEGER)")
    db.execute("INSERT INTO recipes VALUES ('bread', 240)")
    db.commit()
    db.close()


def meta_only(ex):
    ex.meta(product_of(ex))
    ex.sid("unused")
    ex.finish()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("case", choices=["full", "kernels", "runtime", "osrt", "nvtx", "hostile",
                                    "multiproc", "bench-nvtx", "bench-kernels", "empty-db",
                                    "no-tables", "meta-only", "critpath"])
    p.add_argument("--out", required=True)
    p.add_argument("--schema", choices=["3.24", "2.9"], default="3.24")
    p.add_argument("--kernels", type=int, default=10000000)
    p.add_argument("--index", action="store_true")
    a = p.parse_args()
    if a.case == "empty-db":
        return empty_db(a.out)
    if a.case == "no-tables":
        return no_tables(a.out)
    ex = Export(a.out, a.schema)
    if a.case == "bench-nvtx":
        bench_nvtx(ex)
    elif a.case == "bench-kernels":
        bench_kernels(ex, a.kernels, a.index)
    elif a.case == "meta-only":
        meta_only(ex)
    elif a.case == "hostile":
        hostile(ex)
    elif a.case == "multiproc":
        multiproc(ex)
    elif a.case == "critpath":
        common(ex, product_of(ex))
        write_events(ex, critpath_events(ex))
        ex.finish()
    else:
        case_events(ex, a.case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
