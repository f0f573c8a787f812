#!/usr/bin/env python3
"""genrocpd.py - rocpd databases (rocprofv3's SQLite output, ROCm 7) for
tracefig's tests and benchmarks, and the older formats tracefig reads or
refuses, written with Debian's python3 and its sqlite3 module only.

    genrocpd.py KIND --out FILE [--truth FILE.json] [options]

A rocpd database is what rocprofv3 --output-format rocpd writes: the
schema of ROCm's rocpd_tables.sql (schema version 3: every table named
rocpd_<name>_<uuid>), a view of the plain name over each table
(rocpd_views.sql) and the data views of data_views.sql (kernels, regions,
memory_copies, memory_allocations, processes, threads, samples, ...), with
the columns and joins those files give them.  The DDL below is written here
from those facts (table and column names, types, what each view joins).

KIND:
  full        one node, two processes (one with two threads), 2 CPU and 4
              GPU agents; kernels of every class on several GPUs and queues,
              HIP runtime, compiler and HSA API regions, roctx ranges (nested)
              and marks, memory copies (HtoD, DtoH, DtoD, peer), allocations
              (real and scratch, alloc and free), launch -> kernel correlation
  streams     one process whose kernels and copies ran on HIP streams
  critpath    one step through each HIP synchronisation call (tests/critpath)
  multinode   a merged database: two nodes, a process on each, the same pid
  rank        one rank of a job (--rank R --world W in its environment)
  cut         `full`, cut short (a copy that stopped)
  noviews     `full` without any view
  nokernels   `full` without the data views (kernels, regions, ...)
  v4          a schema version whose views have no start column
  lz4         a schema version whose views call a function SQLite lacks
  empty       a rocpd database without events
  rocprofv1   rocprof (v1)'s results.db: tables HIP, HSA, OPS, COPY, KERN, rocTX
  rpd         rocmProfileData's RPD trace (rocpd_metadata schema_version 2)
  plain       an SQLite database of no profiler
  bench-kernels  --kernels N kernels on 4 queues of 2 GPUs, a launch region
              each, 1 000 roctx "step" ranges; rows made by SQLite itself

--truth FILE.json writes what the database holds, as tracefig should draw
it: the GPU lanes with their kernel count and busy time (the union of their
work, ns), the host lanes, the flows, the span.
"""
import argparse
import json
import os
import sqlite3
import sys

UUID = "_0000aaaa_bbbb_7ccc_8ddd_eeeeffff0001"
GUID = "0000aaaa-bbbb-7ccc-8ddd-eeeeffff0001"
T0 = 1700000000000000000 // 1000 * 1  # about 1.7e15 ns, as rocprofv3's clock

# --- the schema (facts of rocpd_tables.sql, schema version 3) -------------------

J = 'JSONB DEFAULT "{}" NOT NULL'
TABLES = [
    ("metadata", ["id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT", "tag TEXT NOT NULL",
                  "value TEXT NOT NULL"]),
    ("string", ["string TEXT NOT NULL UNIQUE ON CONFLICT ABORT"]),
    ("info_node", ["hash BIGINT NOT NULL UNIQUE", "machine_id TEXT NOT NULL UNIQUE",
                   "system_name TEXT", "hostname TEXT", "release TEXT", "version TEXT",
                   "hardware_name TEXT", "domain_name TEXT"]),
    ("info_process", ["nid INTEGER NOT NULL", "ppid INTEGER", "pid INTEGER NOT NULL",
                      "init BIGINT", "fini BIGINT", "start BIGINT", "end BIGINT",
                      "command TEXT", "environment " + J, "extdata " + J]),
    ("info_thread", ["nid INTEGER NOT NULL", "ppid INTEGER", "pid INTEGER NOT NULL",
                     "tid INTEGER NOT NULL", "name TEXT", "start BIGINT", "end BIGINT",
                     "extdata " + J]),
    ("info_agent", ["nid INTEGER NOT NULL", "pid INTEGER NOT NULL",
                    "type TEXT CHECK (type IN ('CPU', 'GPU'))", "absolute_index INTEGER",
                    "logical_index INTEGER", "type_index INTEGER", "uuid INTEGER", "name TEXT",
                    "model_name TEXT", "vendor_name TEXT", "product_name TEXT", "user_name TEXT",
                    "extdata " + J]),
    ("info_queue", ["nid INTEGER NOT NULL", "pid INTEGER NOT NULL", "name TEXT",
                    "extdata " + J]),
    ("info_stream", ["nid INTEGER NOT NULL", "pid INTEGER NOT NULL", "name TEXT",
                     "extdata " + J]),
    ("info_pmc", ["nid INTEGER NOT NULL", "pid INTEGER NOT NULL", "agent_id INTEGER",
                  "target_arch TEXT", "event_code INT", "instance_id INTEGER",
                  "name TEXT NOT NULL", "symbol TEXT NOT NULL", "description TEXT",
                  "long_description TEXT DEFAULT ''", "component TEXT", "units TEXT DEFAULT ''",
                  "value_type TEXT", "block TEXT", "expression TEXT", "is_constant INTEGER",
                  "is_derived INTEGER", "extdata " + J]),
    ("info_code_object", ["nid INTEGER NOT NULL", "pid INTEGER NOT NULL", "agent_id INTEGER",
                          "uri TEXT", "load_base BIGINT", "load_size BIGINT",
                          "load_delta BIGINT", "storage_type TEXT", "extdata " + J]),
    ("info_kernel_symbol", ["nid INTEGER NOT NULL", "pid INTEGER NOT NULL",
                            "code_object_id INTEGER NOT NULL", "kernel_name TEXT",
                            "display_name TEXT", "kernel_object INTEGER",
                            "kernarg_segment_size INTEGER", "kernarg_segment_alignment INTEGER",
                            "group_segment_size INTEGER", "private_segment_size INTEGER",
                            "sgpr_count INTEGER", "arch_vgpr_count INTEGER",
                            "accum_vgpr_count INTEGER", "extdata " + J]),
    ("track", ["nid INTEGER NOT NULL", "pid INTEGER", "tid INTEGER", "name_id INTEGER",
               "extdata " + J]),
    ("event", ["category_id INTEGER", "stack_id INTEGER", "parent_stack_id INTEGER",
               "correlation_id INTEGER", "call_stack " + J, "line_info " + J, "extdata " + J]),
    ("arg", ["event_id INTEGER NOT NULL", "position INTEGER NOT NULL", "type TEXT NOT NULL",
             "name TEXT NOT NULL", "value TEXT", "extdata " + J]),
    ("pmc_event", ["event_id INTEGER", "pmc_id INTEGER NOT NULL", "value REAL DEFAULT 0.0",
                   'extdata JSONB DEFAULT "{}"']),
    ("region", ["nid INTEGER NOT NULL", "pid INTEGER NOT NULL", "tid INTEGER NOT NULL",
                "start BIGINT NOT NULL", "end BIGINT NOT NULL", "name_id INTEGER NOT NULL",
                "event_id INTEGER", "extdata " + J]),
    ("sample", ["track_id INTEGER NOT NULL", "timestamp BIGINT NOT NULL", "event_id INTEGER",
                "extdata " + J]),
    ("kernel_dispatch", ["nid INTEGER NOT NULL", "pid INTEGER NOT NULL", "tid INTEGER",
                         "agent_id INTEGER NOT NULL", "kernel_id INTEGER NOT NULL",
                         "dispatch_id INTEGER NOT NULL", "queue_id INTEGER NOT NULL",
                         "stream_id INTEGER NOT NULL", "start BIGINT NOT NULL",
                         "end BIGINT NOT NULL", "private_segment_size INTEGER",
                         "group_segment_size INTEGER", "workgroup_size_x INTEGER NOT NULL",
                         "workgroup_size_y INTEGER NOT NULL", "workgroup_size_z INTEGER NOT NULL",
                         "grid_size_x INTEGER NOT NULL", "grid_size_y INTEGER NOT NULL",
                         "grid_size_z INTEGER NOT NULL", "region_name_id INTEGER",
                         "event_id INTEGER", "extdata " + J]),
    ("memory_copy", ["nid INTEGER NOT NULL", "pid INTEGER NOT NULL", "tid INTEGER",
                     "start BIGINT NOT NULL", "end BIGINT NOT NULL", "name_id INTEGER NOT NULL",
                     "dst_agent_id INTEGER", "dst_address INTEGER", "src_agent_id INTEGER",
                     "src_address INTEGER", "size INTEGER NOT NULL", "queue_id INTEGER",
                     "stream_id INTEGER", "region_name_id INTEGER", "event_id INTEGER",
                     "extdata " + J]),
    ("memory_allocate", ["nid INTEGER NOT NULL", "pid INTEGER NOT NULL", "tid INTEGER",
                         "agent_id INTEGER",
                         "type TEXT CHECK (type IN ('ALLOC', 'FREE', 'REALLOC', 'RECLAIM'))",
                         "level TEXT CHECK (level IN ('REAL', 'VIRTUAL', 'SCRATCH'))",
                         "start BIGINT NOT NULL", "end BIGINT NOT NULL", "address INTEGER",
                         "size INTEGER NOT NULL", "queue_id INTEGER", "stream_id INTEGER",
                         "event_id INTEGER", "extdata " + J]),
]


def table_ddl(name, cols):
    full = "rocpd_%s%s" % (name, UUID)
    if name != "metadata":
        cols = ["id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT",
                'guid TEXT DEFAULT "%s" NOT NULL' % GUID] + cols
    return 'CREATE TABLE "%s" (%s)' % (full, ", ".join(cols))


def plain_views():
    return ['CREATE VIEW "rocpd_%s" AS SELECT * FROM "rocpd_%s%s"' % (n, n, UUID)
            for n, _ in TABLES]


def cat_of(alias):
    """The scalar subquery data_views.sql names an event's category with."""
    return ("(SELECT string FROM rocpd_string RS WHERE RS.id = %s.category_id "
            "AND RS.guid = %s.guid) AS category" % (alias, alias))


# The data views: the columns and joins of data_views.sql.
DATA_VIEWS = {
    "processes": """SELECT N.id AS nid, N.machine_id, N.system_name, N.hostname,
        N.release AS system_release, N.version AS system_version, P.guid, P.ppid, P.pid,
        P.init, P.start, P.end, P.fini, P.command
        FROM rocpd_info_process P JOIN rocpd_info_node N ON N.id = P.nid AND N.guid = P.guid""",
    "threads": """SELECT N.id AS nid, N.machine_id, N.system_name, N.hostname,
        N.release AS system_release, N.version AS system_version, P.guid, P.ppid, P.pid,
        T.tid, T.start, T.end, T.name
        FROM rocpd_info_thread T
        JOIN rocpd_info_process P ON P.id = T.pid AND N.guid = T.guid
        JOIN rocpd_info_node N ON N.id = T.nid AND N.guid = T.guid""",
    "regions": """SELECT R.id, R.guid, %s, S.string AS name, R.nid, P.pid, T.tid,
        R.start, R.end, (R.end - R.start) AS duration, R.event_id, E.stack_id,
        E.parent_stack_id, E.correlation_id AS corr_id, E.extdata, E.call_stack, E.line_info
        FROM rocpd_region R
        JOIN rocpd_event E ON E.id = R.event_id AND E.guid = R.guid
        JOIN rocpd_string S ON S.id = R.name_id AND S.guid = R.guid
        JOIN rocpd_info_process P ON P.id = R.pid AND P.guid = R.guid
        JOIN rocpd_info_thread T ON T.id = R.tid AND T.guid = R.guid""" % cat_of("E"),
    "samples": """SELECT R.id, R.guid, %s,
        (SELECT string FROM rocpd_string RS WHERE RS.id = T.name_id AND RS.guid = T.guid)
            AS name,
        T.nid, P.pid, TH.tid, R.timestamp, R.event_id, E.stack_id AS stack_id,
        E.parent_stack_id AS parent_stack_id, E.correlation_id AS corr_id,
        E.extdata AS extdata, E.call_stack AS call_stack, E.line_info AS line_info
        FROM rocpd_sample R
        JOIN rocpd_track T ON T.id = R.track_id AND T.guid = R.guid
        JOIN rocpd_event E ON E.id = R.event_id AND E.guid = R.guid
        JOIN rocpd_info_process P ON P.id = T.pid AND P.guid = T.guid
        JOIN rocpd_info_thread TH ON TH.id = T.tid AND TH.guid = T.guid""" % cat_of("E"),
    "kernels": """SELECT K.id, K.guid, T.tid, %s, R.string AS region,
        S.display_name AS name, K.nid, P.pid, A.absolute_index AS agent_abs_index,
        A.logical_index AS agent_log_index, A.type_index AS agent_type_index,
        A.type AS agent_type, S.code_object_id AS code_object_id, K.kernel_id,
        K.dispatch_id, K.stream_id, K.queue_id, Q.name AS queue, ST.name AS stream,
        K.start, K.end, (K.end - K.start) AS duration, K.grid_size_x AS grid_x,
        K.grid_size_y AS grid_y, K.grid_size_z AS grid_z, K.workgroup_size_x AS workgroup_x,
        K.workgroup_size_y AS workgroup_y, K.workgroup_size_z AS workgroup_z,
        K.group_segment_size AS lds_size, K.private_segment_size AS scratch_size,
        S.arch_vgpr_count AS vgpr_count, S.accum_vgpr_count, S.sgpr_count,
        S.group_segment_size AS static_lds_size, S.private_segment_size AS static_scratch_size,
        E.stack_id, E.parent_stack_id, E.correlation_id AS corr_id
        FROM rocpd_kernel_dispatch K
        JOIN rocpd_info_agent A ON A.id = K.agent_id AND A.guid = K.guid
        JOIN rocpd_event E ON E.id = K.event_id AND E.guid = K.guid
        JOIN rocpd_string R ON R.id = K.region_name_id AND R.guid = K.guid
        JOIN rocpd_info_kernel_symbol S ON S.id = K.kernel_id AND S.guid = K.guid
        LEFT JOIN rocpd_info_stream ST ON ST.id = K.stream_id AND ST.guid = K.guid
        LEFT JOIN rocpd_info_queue Q ON Q.id = K.queue_id AND Q.guid = K.guid
        JOIN rocpd_info_process P ON P.id = Q.pid AND P.guid = Q.guid
        JOIN rocpd_info_thread T ON T.id = K.tid AND T.guid = K.guid""" % cat_of("E"),
    "memory_copies": """SELECT M.id, M.guid, %s, M.nid, P.pid, T.tid, M.start, M.end,
        (M.end - M.start) AS duration, S.string AS name, R.string AS region_name,
        M.stream_id, M.queue_id, ST.name AS stream_name, Q.name AS queue_name, M.size,
        DA.name AS dst_device, DA.absolute_index AS dst_agent_abs_index,
        DA.logical_index AS dst_agent_log_index, DA.type_index AS dst_agent_type_index,
        DA.type AS dst_agent_type, M.dst_address, SA.name AS src_device,
        SA.absolute_index AS src_agent_abs_index, SA.logical_index AS src_agent_log_index,
        SA.type_index AS src_agent_type_index, SA.type AS src_agent_type, M.src_address,
        E.stack_id, E.parent_stack_id, E.correlation_id AS corr_id
        FROM rocpd_memory_copy M
        JOIN rocpd_string S ON S.id = M.name_id AND S.guid = M.guid
        LEFT JOIN rocpd_string R ON R.id = M.region_name_id AND R.guid = M.guid
        JOIN rocpd_info_agent DA ON DA.id = M.dst_agent_id AND DA.guid = M.guid
        JOIN rocpd_info_agent SA ON SA.id = M.src_agent_id AND SA.guid = M.guid
        LEFT JOIN rocpd_info_queue Q ON Q.id = M.queue_id AND Q.guid = M.guid
        LEFT JOIN rocpd_info_stream ST ON ST.id = M.stream_id AND ST.guid = M.guid
        JOIN rocpd_event E ON E.id = M.event_id AND E.guid = M.guid
        JOIN rocpd_info_process P ON P.id = M.pid AND P.guid = M.guid
        JOIN rocpd_info_thread T ON T.id = M.tid AND T.guid = M.guid""" % cat_of("E"),
    "memory_allocations": """SELECT M.id, M.guid, %s, M.nid, P.pid, T.tid, M.start, M.end,
        (M.end - M.start) AS duration, M.type, M.level, A.name AS agent_name,
        A.absolute_index AS agent_abs_index, A.logical_index AS agent_log_index,
        A.type_index AS agent_type_index, A.type AS agent_type, M.address, M.size,
        M.queue_id, Q.name AS queue_name, M.stream_id, ST.name AS stream_name, E.stack_id,
        E.parent_stack_id, E.correlation_id AS corr_id
        FROM rocpd_memory_allocate M
        LEFT JOIN rocpd_info_agent A ON M.agent_id = A.id AND M.guid = A.guid
        LEFT JOIN rocpd_info_queue Q ON Q.id = M.queue_id AND Q.guid = M.guid
        LEFT JOIN rocpd_info_stream ST ON ST.id = M.stream_id AND ST.guid = M.guid
        JOIN rocpd_event E ON E.id = M.event_id AND E.guid = M.guid
        JOIN rocpd_info_process P ON P.id = M.pid AND P.guid = M.guid
        JOIN rocpd_info_thread T ON T.id = M.tid AND P.guid = M.guid""" % cat_of("E"),
    "top_kernels": """SELECT S.display_name AS name, COUNT(K.kernel_id) AS total_calls,
        SUM(K.end - K.start) / 1000.0 AS total_duration
        FROM rocpd_kernel_dispatch K
        JOIN rocpd_info_kernel_symbol S ON S.id = K.kernel_id AND S.guid = K.guid
        GROUP BY name ORDER BY total_duration DESC""",
}


# --- what the database holds, as tracefig should draw it ----------------------------


class Truth:
    def __init__(self):
        self.gpu = {}      # lane label -> [intervals]
        self.count = {}    # lane label -> kernels
        self.host = set()  # (pid, tid)
        self.flows = 0
        self.lo = None
        self.hi = None
        self.names = {}    # kernel name -> count

    def span(self, s, e):
        self.lo = s if self.lo is None else min(self.lo, s)
        self.hi = e if self.hi is None else max(self.hi, e)

    def work(self, label, pid, s, e, kernel=None):
        key = (label, pid)
        self.gpu.setdefault(key, []).append((s, e))
        if kernel is not None:
            self.count[key] = self.count.get(key, 0) + 1
            self.names[kernel] = self.names.get(kernel, 0) + 1
        self.span(s, e)

    def dump(self, path, extra):
        lanes = {}
        # lanes get the pid once GPU work of several processes is drawn
        multi = len({pid for _, pid in self.gpu}) > 1
        for (label, pid), iv in sorted(self.gpu.items()):
            iv.sort()
            busy, cur_s, cur_e = 0, None, None
            for s, e in iv:
                if cur_e is None or s > cur_e:
                    if cur_e is not None:
                        busy += cur_e - cur_s
                    cur_s, cur_e = s, e
                else:
                    cur_e = max(cur_e, e)
            if cur_e is not None:
                busy += cur_e - cur_s
            # pid: (node, pid), or the pid
            os_pid = pid[1] if isinstance(pid, tuple) else pid
            lanes[label + (" (pid %d)" % os_pid if multi else "")] = {
                "busy_ns": busy, "kernels": self.count.get((label, pid), 0), "items": len(iv)}
        out = {"gpu_lanes": lanes, "host_threads": sorted([list(x) for x in self.host]),
               "flows": self.flows, "first_ns": self.lo, "last_ns": self.hi,
               "kernel_names": self.names}
        out.update(extra)
        with open(path, "w") as f:
            json.dump(out, f, indent=1, sort_keys=True)
            f.write("\n")


# --- a rocpd database ------------------------------------------------------------------


class Rocpd:
    def __init__(self, path, version="3", views=True, data_views=True):
        if os.path.exists(path):
            os.remove(path)
        self.db = sqlite3.connect(path)
        self.db.execute("PRAGMA journal_mode = OFF")
        self.db.execute("PRAGMA synchronous = OFF")
        for name, cols in TABLES:
            self.db.execute(table_ddl(name, cols))
        if views:
            for v in plain_views():
                self.db.execute(v)
        if views and data_views:
            for name, sql in DATA_VIEWS.items():
                self.db.execute('CREATE VIEW "%s" AS %s' % (name, sql))
        self.ins("metadata", ["tag", "value"],
                 [("schema_version", version), ("uuid", UUID), ("guid", GUID)])
        self.strings = {}
        self.next_event = 1
        self.tracks = {}
        self.truth = Truth()
        self.by_stream = False
        self.agents = {}  # id -> (nid, type, type_index, name)
        self.queues = {}  # id -> name
        self.streams = {}
        self.hosts = {}  # nid -> hostname
        self.allocs = {}  # (nid, address) -> agent

    def ins(self, table, cols, rows):
        sql = 'INSERT INTO "rocpd_%s%s" (%s) VALUES (%s)' % (
            table, UUID, ", ".join('"%s"' % c for c in cols), ", ".join("?" * len(cols)))
        self.db.executemany(sql, rows)

    def string(self, s):
        if s not in self.strings:
            cur = self.db.execute('INSERT INTO "rocpd_string%s" (string) VALUES (?)' % UUID, (s,))
            self.strings[s] = cur.lastrowid
        return self.strings[s]

    def node(self, nid, host):
        self.hosts[nid] = host
        self.ins("info_node", ["id", "hash", "machine_id", "system_name", "hostname", "release",
                               "version", "hardware_name", "domain_name"],
                 [(nid, 1000 + nid, "machine-%d" % nid, "Linux", host, "6.1.0", "#1 SMP",
                   "x86_64", "(none)")])

    def process(self, nid, pid, command, env=None, init=None):
        self.ins("info_process", ["id", "nid", "ppid", "pid", "init", "fini", "start", "end",
                                  "command", "environment"],
                 [(pid if nid == 1 else nid * 100000 + pid, nid, 1, pid, init, None, init, None,
                   command, json.dumps(env or {"ROCPROF": "rocprofv3"}))])

    def pkey(self, nid, pid):
        return pid if nid == 1 else nid * 100000 + pid

    def thread(self, nid, pid, tid, name=None):
        self.ins("info_thread", ["id", "nid", "ppid", "pid", "tid", "name"],
                 [(self.pkey(nid, tid), nid, 1, self.pkey(nid, pid), tid, name)])

    def agent(self, aid, nid, pid, kind, abs_index, type_index, name, product):
        self.ins("info_agent", ["id", "nid", "pid", "type", "absolute_index", "logical_index",
                                "type_index", "uuid", "name", "model_name", "vendor_name",
                                "product_name", "user_name", "extdata"],
                 [(aid, nid, self.pkey(nid, pid), kind, abs_index, abs_index, type_index, 0,
                   name, "", "AMD" if kind == "GPU" else "CPU", product, product,
                   json.dumps({"gpu_index": type_index if kind == "GPU" else -1}))])
        self.agents[aid] = (nid, kind, type_index, name)

    def queue(self, qid, nid, pid, name):
        self.ins("info_queue", ["id", "nid", "pid", "name"], [(qid, nid, self.pkey(nid, pid), name)])
        self.queues[qid] = name

    def stream(self, sid, nid, pid, name):
        self.ins("info_stream", ["id", "nid", "pid", "name"],
                 [(sid, nid, self.pkey(nid, pid), name)])
        self.streams[sid] = name

    def symbols(self, nid, pid, names):
        self.ins("info_code_object", ["id", "nid", "pid", "agent_id", "uri", "storage_type"],
                 [(1, nid, self.pkey(nid, pid), None, "file:///app#offset=0&size=0", "FILE")])
        first = self.db.execute('SELECT coalesce(max(id), 0) FROM "rocpd_info_kernel_symbol%s"'
                                % UUID).fetchone()[0] + 1
        ids = {}
        for i, n in enumerate(names):
            ids[n] = first + i
            self.ins("info_kernel_symbol", ["id", "nid", "pid", "code_object_id", "kernel_name",
                                            "display_name", "kernel_object", "sgpr_count",
                                            "arch_vgpr_count", "accum_vgpr_count"],
                     [(first + i, nid, self.pkey(nid, pid), 1, "_Z" + n, n, 4096 + i, 48, 64, 0)])
        return ids

    def event(self, category, corr, message=None):
        e = self.next_event
        self.next_event += 1
        ext = json.dumps({"message": message}) if message is not None else "{}"
        self.ins("event", ["id", "category_id", "stack_id", "parent_stack_id", "correlation_id",
                           "extdata"], [(e, self.string(category), corr, 0, 0, ext)])
        return e

    def region(self, nid, pid, tid, start, end, category, name, corr, message=None):
        ev = self.event(category, corr, message)
        self.ins("region", ["nid", "pid", "tid", "start", "end", "name_id", "event_id"],
                 [(nid, self.pkey(nid, pid), self.pkey(nid, tid), start, end, self.string(name),
                   ev)])
        self.truth.host.add((nid, pid, tid))
        self.truth.span(start, end)

    def mark(self, nid, pid, tid, ts, message):
        key = (nid, pid, tid)
        if key not in self.tracks:
            self.tracks[key] = len(self.tracks) + 1
            self.ins("track", ["id", "nid", "pid", "tid", "name_id"],
                     [(self.tracks[key], nid, self.pkey(nid, pid), self.pkey(nid, tid),
                       self.string("MARKER_CORE_RANGE_API"))])
        ev = self.event("MARKER_CORE_RANGE_API", 0, message)
        self.ins("sample", ["track_id", "timestamp", "event_id"], [(self.tracks[key], ts, ev)])
        self.truth.host.add((nid, pid, tid))
        self.truth.span(ts, ts)

    def gpu_label(self, aid, lane):
        nid, kind, ti, _ = self.agents[aid]
        host = " (%s)" % self.hosts[nid] if len(self.hosts) > 1 else ""
        return "GPU %d%s / %s" % (ti, host, lane)

    def lane_of(self, qid, sid):
        if self.by_stream:
            n = self.streams[sid]
            return "default stream" if n == "Default Stream" else n.replace("Stream ", "stream ")
        n = self.queues[qid]
        return "default queue" if n == "Default Queue" else n.replace("Queue ", "queue ")

    def kernel(self, nid, pid, tid, aid, kid, name, qid, sid, start, end, corr, grid=(1024, 1, 1),
               block=(256, 1, 1)):
        ev = self.event("KERNEL_DISPATCH", corr)
        did = ev
        self.ins("kernel_dispatch",
                 ["nid", "pid", "tid", "agent_id", "kernel_id", "dispatch_id", "queue_id",
                  "stream_id", "start", "end", "private_segment_size", "group_segment_size",
                  "workgroup_size_x", "workgroup_size_y", "workgroup_size_z", "grid_size_x",
                  "grid_size_y", "grid_size_z", "region_name_id", "event_id"],
                 [(nid, self.pkey(nid, pid), self.pkey(nid, tid), aid, kid, did, qid, sid, start,
                   end, 0, 0) + tuple(block) + tuple(grid) + (self.string(""), ev)])
        self.truth.work(self.gpu_label(aid, self.lane_of(qid, sid)), (nid, pid), start, end,
                        name)

    def copy(self, nid, pid, tid, start, end, op, dst, src, size, corr, sid=0, qid=None):
        ev = self.event("MEMORY_COPY", corr)
        self.ins("memory_copy", ["nid", "pid", "tid", "start", "end", "name_id", "dst_agent_id",
                                 "dst_address", "src_agent_id", "src_address", "size",
                                 "queue_id", "stream_id", "event_id"],
                 [(nid, self.pkey(nid, pid), self.pkey(nid, tid), start, end, self.string(op),
                   dst, 0x7f0000000000, src, 0x7e0000000000, size, qid, sid, ev)])
        gpu = dst if self.agents[dst][1] == "GPU" else src
        if self.by_stream:
            lane = self.lane_of(None, sid)
        elif qid is not None:
            lane = self.lane_of(qid, None)
        else:
            lane = "copies"
        self.truth.work(self.gpu_label(gpu, lane), (nid, pid), start, end)

    def alloc(self, nid, pid, tid, start, end, kind, level, aid, address, size, qid=None):
        # a free names no agent: it is the one of the allocation at its address
        gpu = aid if aid is not None else self.allocs.get((nid, address))
        if kind == "ALLOC":
            self.allocs[(nid, address)] = aid
        if gpu is not None:
            self.truth.work(self.gpu_label(gpu, "memory"), (nid, pid), start, end)
        ev = self.event("MEMORY_ALLOCATION" if level != "SCRATCH" else "SCRATCH_MEMORY", 0)
        self.ins("memory_allocate", ["nid", "pid", "tid", "agent_id", "type", "level", "start",
                                     "end", "address", "size", "queue_id", "stream_id",
                                     "event_id"],
                 [(nid, self.pkey(nid, pid), self.pkey(nid, tid), aid, kind, level, start, end,
                   address, size, qid, 0, ev)])
        self.truth.span(start, end)

    def close(self):
        self.db.commit()
        self.db.close()


HIP = "HIP_RUNTIME_API_EXT"
COMPILER = "HIP_COMPILER_API_EXT"
HSA = "HSA_CORE_API"
MARKER = "MARKER_CORE_RANGE_API"

GEMM = ("void gemm_kernel<128u, 128u, 16u>(unsigned int, unsigned int, float const*, "
        "float const*, float*)")
KERNELS = [GEMM, "__amd_rocclr_fillBufferAligned", "ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)",
           "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>(int)",
           "Cijk_Alik_Bljk_SB_MT128x128x16_MI32x32x2x1"]


def basic_agents(r, nid=1, pid=4242, gpus=4, first_id=0, host_cpus=2):
    aid = first_id
    for i in range(host_cpus):
        r.agent(aid, nid, pid, "CPU", aid - first_id, i, "AMD EPYC 9654", "AMD EPYC 9654")
        aid += 1
    for g in range(gpus):
        r.agent(aid, nid, pid, "GPU", aid - first_id, g, "gfx942", "AMD Instinct MI300X")
        aid += 1
    return list(range(first_id, first_id + host_cpus)), list(range(first_id + host_cpus, aid))


def build_full(path, truth):
    r = Rocpd(path)
    r.node(1, "node-a")
    r.process(1, 4242, "/opt/app/train --epochs 1", init=T0 - 50000000)
    r.process(1, 4343, "./eval", init=T0 - 10000000)
    r.thread(1, 4242, 4242, None)
    r.thread(1, 4242, 4250, "loader")
    r.thread(1, 4343, 4343, None)
    cpus, gpus = basic_agents(r, 1, 4242, 4)
    r.queue(0, 1, 4242, "Default Queue")
    r.queue(11, 1, 4242, "Queue 0")
    r.queue(12, 1, 4242, "Queue 1")
    r.queue(13, 1, 4242, "Queue 2")
    r.queue(14, 1, 4242, "Queue 3")
    r.queue(15, 1, 4242, "Queue 4")
    r.queue(21, 1, 4343, "Queue 0")
    r.stream(0, 1, 4242, "Default Stream")
    ids = r.symbols(1, 4242, KERNELS)
    corr = 1
    t = T0
    r.region(1, 4242, 4242, t, t + 20000, COMPILER, "__hipRegisterFatBinary", corr)
    corr += 1
    t += 30000
    # allocations: a real alloc on GPU 0 and its free (no agent, as rocprofv3 writes it)
    r.region(1, 4242, 4242, t, t + 400000, HIP, "hipMalloc", corr)
    r.alloc(1, 4242, 4242, t + 100000, t + 300000, "ALLOC", "REAL", gpus[0], 0x7f0000000000,
            1 << 26)
    corr += 1
    t += 500000
    # five steps: a roctx range, launches on the main thread, kernels on GPUs 0..2
    for step in range(5):
        s0 = t
        r.region(1, 4242, 4242, s0, s0 + 3000000, MARKER, "roctxThreadRangeA", corr,
                 "step %d" % step)
        corr += 1
        r.mark(1, 4242, 4242, s0 + 5000, "begin step %d" % step)
        r.region(1, 4242, 4242, s0 + 10000, s0 + 1000000, MARKER, "roctxThreadRangeA", corr,
                 "forward")
        corr += 1
        # a copy HtoD on GPU 0 (no queue: the copies lane)
        r.region(1, 4242, 4242, s0 + 20000, s0 + 120000, HIP, "hipMemcpyAsync", corr)
        r.copy(1, 4242, 4242, s0 + 60000, s0 + 160000, "MEMORY_COPY_HOST_TO_DEVICE", gpus[0],
               cpus[0], 1 << 20, corr)
        corr += 1
        k = s0 + 200000
        for i, (g, q, name) in enumerate([(0, 11, GEMM), (0, 12, KERNELS[3]), (1, 13, GEMM),
                                          (2, 14, KERNELS[4]), (0, 11, KERNELS[1])]):
            ls = s0 + 130000 + i * 30000
            r.region(1, 4242, 4242, ls, ls + 8000, COMPILER, "__hipPushCallConfiguration", 0)
            r.region(1, 4242, 4242, ls + 9000, ls + 20000, HIP, "hipLaunchKernel", corr)
            r.region(1, 4242, 4242, ls + 11000, ls + 15000, HSA, "hsa_signal_store_relaxed", 0)
            r.kernel(1, 4242, 4242, gpus[g], ids[name], name, q, 0, k, k + 150000 + 10000 * i,
                     corr)
            corr += 1
            k += 90000
        # a scratch allocation on queue 0's GPU
        r.alloc(1, 4242, 4242, s0 + 700000, s0 + 705000, "ALLOC", "SCRATCH", gpus[0],
                0x7f1000000000, 1 << 16, qid=11)
        # an RCCL all-reduce on GPU 3 launched from the loader thread
        r.region(1, 4242, 4250, s0 + 900000, s0 + 910000, "RCCL_API", "ncclAllReduce", corr)
        r.kernel(1, 4242, 4250, gpus[3], ids[KERNELS[2]], KERNELS[2], 15, 0, s0 + 950000,
                 s0 + 1450000, corr)
        corr += 1
        # DtoH, and a peer DtoD copy GPU 0 -> GPU 1
        r.region(1, 4242, 4242, s0 + 1600000, s0 + 1800000, HIP, "hipMemcpy", corr)
        r.copy(1, 4242, 4242, s0 + 1620000, s0 + 1720000, "MEMORY_COPY_DEVICE_TO_HOST", cpus[0],
               gpus[0], 1 << 19, corr)
        corr += 1
        r.copy(1, 4242, 4250, s0 + 1700000, s0 + 1760000, "MEMORY_COPY_DEVICE_TO_DEVICE",
               gpus[1], gpus[0], 1 << 18, 0)
        r.region(1, 4242, 4250, s0 + 1200000, s0 + 2900000, HIP, "hipStreamSynchronize", 0)
        # the second process: one kernel a step on GPU 3
        r.region(1, 4343, 4343, s0 + 500000, s0 + 520000, HIP, "hipLaunchKernel", corr)
        r.kernel(1, 4343, 4343, gpus[3], ids[GEMM], GEMM, 21, 0, s0 + 2000000, s0 + 2600000,
                 corr)
        r.truth.flows += 1
        corr += 1
        t += 4000000
    r.region(1, 4242, 4242, t, t + 50000, HIP, "hipFree", corr)
    r.alloc(1, 4242, 4242, t + 10000, t + 40000, "FREE", "REAL", None, 0x7f0000000000, 0)
    # flows: every launch, memcpy call and RCCL call with GPU work of its stack_id
    r.truth.flows += 5 * (5 + 1 + 1 + 1)
    r.close()
    return r.truth, {"steps": 5}


def build_streams(path, truth):
    r = Rocpd(path)
    r.by_stream = True
    r.node(1, "node-s")
    r.process(1, 777, "/usr/bin/python3 bench.py")
    r.thread(1, 777, 777, "python3")
    cpus, gpus = basic_agents(r, 1, 777, 2)
    r.queue(0, 1, 777, "Default Queue")
    r.queue(5, 1, 777, "Queue 0")
    r.queue(6, 1, 777, "Queue 1")
    r.stream(0, 1, 777, "Default Stream")
    r.stream(3001, 1, 777, "Stream 0")
    r.stream(3002, 1, 777, "Stream 1")
    ids = r.symbols(1, 777, KERNELS)
    corr = 1
    t = T0
    for i in range(40):
        s = [0, 3001, 3002][i % 3]
        q = 5 if s != 3002 else 6
        g = gpus[0] if i % 4 else gpus[1]
        r.region(1, 777, 777, t, t + 10000, HIP, "hipLaunchKernel", corr)
        r.kernel(1, 777, 777, g, ids[GEMM], GEMM, q, s, t + 50000, t + 110000, corr)
        corr += 1
        if i % 10 == 0:
            r.region(1, 777, 777, t + 12000, t + 30000, HIP, "hipMemcpyAsync", corr)
            r.copy(1, 777, 777, t + 40000, t + 90000, "MEMORY_COPY_HOST_TO_DEVICE", gpus[0],
                   cpus[0], 4096, corr, sid=3001)
            corr += 1
        t += 100000
    r.close()
    return r.truth, {}


def build_critpath(path, truth):
    """One thread whose critical path runs through each HIP synchronisation
    call (tests/critpath): k0 on stream 3001, which hipStreamSynchronize
    waits for; k1 on stream 3002 and hipStreamWaitEvent, after which k2
    (stream 3001) waits for k1; hipDeviceSynchronize waits for k2;
    hipEventSynchronize for k3.  Times in us from T0."""
    r = Rocpd(path)
    r.by_stream = True
    r.node(1, "node-c")
    r.process(1, 777, "/usr/bin/python3 step.py")
    r.thread(1, 777, 777, "python3")
    cpus, gpus = basic_agents(r, 1, 777, 1)
    r.queue(5, 1, 777, "Queue 0")
    r.stream(3001, 1, 777, "Stream 0")
    r.stream(3002, 1, 777, "Stream 1")
    ids = r.symbols(1, 777, KERNELS)
    g = gpus[0]

    def us(x):
        return T0 + int(x * 1000)

    def launch(t, sid, corr, k0, k1):
        r.region(1, 777, 777, us(t), us(t + 3), HIP, "hipLaunchKernel", corr)
        r.kernel(1, 777, 777, g, ids[GEMM], GEMM, 5, sid, us(k0), us(k1), corr)

    launch(10, 3001, 1, 15, 3015)                                           # k0
    r.region(1, 777, 777, us(20), us(3025), HIP, "hipStreamSynchronize", 2)
    launch(3030, 3002, 3, 3035, 5035)                                       # k1
    r.region(1, 777, 777, us(3040), us(3042), HIP, "hipEventRecord", 4)
    r.region(1, 777, 777, us(3050), us(3052), HIP, "hipStreamWaitEvent", 5)
    launch(3060, 3001, 6, 5040, 6040)                                       # k2 waits for k1
    r.region(1, 777, 777, us(3070), us(6050), HIP, "hipDeviceSynchronize", 7)
    launch(6060, 3002, 8, 6065, 8065)                                       # k3
    r.region(1, 777, 777, us(6070), us(8075), HIP, "hipEventSynchronize", 9)
    r.region(1, 777, 777, us(8080), us(8100), HIP, "hipFree", 10)
    r.close()
    return r.truth, {}


def build_multinode(path, truth):
    r = Rocpd(path)
    for nid, host in ((1, "node-a"), (2, "node-b")):
        r.node(nid, host)
        r.process(nid, 15, "./batched_gemm")
        r.thread(nid, 15, 15, None)
    _, g1 = basic_agents(r, 1, 15, 2, first_id=0)
    _, g2 = basic_agents(r, 2, 15, 2, first_id=100)
    r.queue(0, 1, 15, "Default Queue")
    r.queue(16, 1, 15, "Queue 0")
    r.queue(200016, 2, 15, "Queue 0")
    r.stream(0, 1, 15, "Default Stream")
    r.stream(200000, 2, 15, "Default Stream")
    ids = r.symbols(1, 15, [GEMM])
    t = T0
    corr = 1
    for i in range(10):
        for nid, gpus, q, s in ((1, g1, 16, 0), (2, g2, 200016, 200000)):
            # node b a little later, and slower
            o = 0 if nid == 1 else 7000
            r.region(nid, 15, 15, t + o, t + o + 5000, HIP, "hipLaunchKernel", corr)
            r.kernel(nid, 15, 15, gpus[1], ids[GEMM], GEMM, q, s, t + o + 10000,
                     t + o + 60000 + 9000 * (nid - 1), corr)
            corr += 1
        t += 100000
    r.close()
    return r.truth, {"nodes": ["node-a", "node-b"]}


def build_rank(path, truth, rank, world):
    r = Rocpd(path)
    r.node(1, "node-%d" % (rank // 8))
    pid = 5000 + rank
    r.process(1, pid, "/usr/bin/python3 train.py",
              env={"ROCPROF": "rocprofv3", "OMPI_COMM_WORLD_RANK": str(rank),
                   "OMPI_COMM_WORLD_SIZE": str(world)})
    r.thread(1, pid, pid, "python3")
    cpus, gpus = basic_agents(r, 1, pid, 1)
    r.queue(0, 1, pid, "Default Queue")
    r.queue(7, 1, pid, "Queue 0")
    r.stream(0, 1, pid, "Default Stream")
    ids = r.symbols(1, pid, [GEMM, KERNELS[2]])
    t = T0 + 1000000 + rank * 20000
    corr = 1
    for step in range(4):
        late = 300000 if rank == 1 else 0
        r.region(1, pid, pid, t, t + 2000000 + late, MARKER, "roctxThreadRangeA", corr,
                 "step %d" % step)
        corr += 1
        r.region(1, pid, pid, t + 10000 + late, t + 20000 + late, HIP, "hipLaunchKernel", corr)
        r.kernel(1, pid, pid, gpus[0], ids[GEMM], GEMM, 7, 0, t + 30000 + late,
                 t + 900000 + late, corr)
        corr += 1
        r.region(1, pid, pid, t + 25000 + late, t + 30000 + late, "RCCL_API", "ncclAllReduce",
                 corr)
        r.kernel(1, pid, pid, gpus[0], ids[KERNELS[2]], KERNELS[2], 7, 0, t + 950000 + late,
                 t + 1900000 + late, corr)
        corr += 1
        t += 2500000
    r.close()
    return r.truth, {"rank": rank, "world": world}


def build_empty(path, truth):
    r = Rocpd(path)
    r.node(1, "node-e")
    r.process(1, 9, "./idle")
    r.thread(1, 9, 9)
    basic_agents(r, 1, 9, 1)
    r.close()
    return r.truth, {}


def build_v4(path, truth):
    """A later layout: timestamps in a table of their own, start and end gone from the
    views (as rocprofiler's drafts of a version 4 have them)."""
    r = Rocpd(path, version="4.0.0", data_views=False)
    r.db.execute('CREATE VIEW kernels AS SELECT K.id, K.guid, K.nid, K.pid, K.kernel_id '
                 'FROM rocpd_kernel_dispatch K')
    r.db.execute('CREATE VIEW regions AS SELECT R.id, R.guid, R.nid, R.pid, R.tid '
                 'FROM rocpd_region R')
    r.node(1, "node-v4")
    r.close()
    return r.truth, {}


def build_lz4(path, truth):
    """A later version whose views decompress the JSON with a function of ROCm's own
    library (lz4_decompress), which SQLite does not have."""
    r = Rocpd(path, version="4.0.0", data_views=False)
    r.db.execute('CREATE VIEW kernels AS SELECT K.id, K.start, K.end, '
                 'CAST(lz4_decompress(K.extdata) AS TEXT) AS extdata FROM rocpd_kernel_dispatch K')
    r.node(1, "node-lz4")
    r.close()
    return r.truth, {}


def build_noviews(path, truth, keep_plain):
    truth_full, extra = build_full(path + ".tmp", truth)
    src = sqlite3.connect(path + ".tmp")
    names = [row[0] for row in src.execute("SELECT name FROM sqlite_master WHERE type = 'view'")]
    for n in names:
        if keep_plain and n.startswith("rocpd_"):
            continue
        src.execute('DROP VIEW "%s"' % n)
    src.commit()
    src.execute("VACUUM")
    src.close()
    os.replace(path + ".tmp", path)
    return truth_full, extra


def build_cut(path, truth):
    t, extra = build_full(path, truth)
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        f.truncate(size * 2 // 3)
    return t, extra


def build_rocprofv1(path, truth):
    """rocprof (v1)'s results.db, with the tables and columns its tblextr.py writes: HIP and
    HSA (API calls), OPS (the GPU operations of the HIP calls), COPY, KERN (the kernels
    of its dispatch records, names in double quotes) and rocTX."""
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    api = ('"BeginNs" INTEGER, "EndNs" INTEGER, "pid" INTEGER, "tid" INTEGER, "Name" TEXT, '
           '"args" TEXT, "Index" INTEGER, "Data" TEXT, "__section" INTEGER, "__lane" INTEGER')
    ops = ('"BeginNs" INTEGER, "EndNs" INTEGER, "dev-id" INTEGER, "queue-id" INTEGER, '
           '"Name" TEXT, "pid" INTEGER, "tid" INTEGER, "roctx-range" TEXT, "stream-id" INTEGER, '
           '"Index" INTEGER, "Data" TEXT, "__section" INTEGER, "__lane" INTEGER')
    db.execute("CREATE TABLE rocTX (\"BeginNs\" INTEGER, \"EndNs\" INTEGER, \"pid\" INTEGER, "
               "\"tid\" INTEGER, \"Name\" TEXT, \"Index\" INTEGER, \"__section\" INTEGER, "
               "\"__lane\" INTEGER)")
    db.execute("CREATE TABLE HSA (%s)" % api)
    db.execute("CREATE TABLE HIP (%s)" % api)
    db.execute("CREATE TABLE OPS (%s)" % ops)
    db.execute("CREATE TABLE COPY (%s)" % ops)
    db.execute('CREATE TABLE KERN ("Index" INTEGER, "KernelName" TEXT, "gpu-id" INTEGER, '
               '"queue-id" INTEGER, "queue-index" INTEGER, "pid" INTEGER, "tid" INTEGER, '
               '"grd" INTEGER, "wgr" INTEGER, "lds" INTEGER, "scr" INTEGER, '
               '"arch_vgpr" INTEGER, "sgpr" INTEGER, "fbar" INTEGER, "sig" INTEGER, '
               '"obj" INTEGER, "DispatchNs" INTEGER, "BeginNs" INTEGER, "EndNs" INTEGER, '
               '"CompleteNs" INTEGER)')
    tr = Truth()
    pid, tid = 31337, 31337
    t = T0
    idx = 0
    hip, opsr, copy, kern, roctx = [], [], [], [], []
    for step in range(6):
        roctx.append((t, t + 3000000, pid, tid, "step %d" % step, len(roctx), 0, tid))
        roctx.append((t + 1000, t + 1001, pid, tid, "mark %d" % step, len(roctx), 0, tid))
        tr.span(t, t + 3000000)
        for i in range(4):
            idx += 1
            dev = i % 2
            ls = t + 10000 + i * 200000
            name = GEMM if i % 2 == 0 else KERNELS[4]
            hip.append((ls, ls + 20000, pid, tid, "hipLaunchKernel",
                        "hipLaunchKernel( kernel(%s) stream(0))" % name, idx, "", 2, tid))
            ks, ke = ls + 50000, ls + 180000
            opsr.append((ks, ke, dev, 0, name, pid, tid, "step %d" % step, 0, idx, "", 6 + dev, 0))
            kern.append((idx, '"%s"' % name, dev, 0, idx, pid, tid, 1024, 256, 0, 0, 64, 48, 0,
                         0, 0, ls + 30000, ks, ke, ke + 1000))
            tr.work("GPU %d / queue 0" % dev, pid, ks, ke, name)
        idx += 1
        hip.append((t + 1000000, t + 1300000, pid, tid, "hipMemcpy",
                    "hipMemcpy( dst(0x1) src(0x2) sizeBytes(4096) kind(1))", idx, "", 2, tid))
        copy.append((t + 1100000, t + 1200000, 0, 0, "CopyHostToDevice", pid, tid, "", 0, idx,
                     "", 1, 0))
        tr.work("GPU 0 / queue 0", pid, t + 1100000, t + 1200000)
        tr.host.add((pid, tid))
        t += 4000000
    db.executemany("INSERT INTO HIP VALUES (?,?,?,?,?,?,?,?,?,?)", hip)
    db.executemany("INSERT INTO OPS VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", opsr)
    db.executemany("INSERT INTO COPY VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", copy)
    db.executemany("INSERT INTO KERN VALUES (%s)" % ",".join("?" * 20), kern)
    db.executemany("INSERT INTO rocTX VALUES (?,?,?,?,?,?,?,?)", roctx)
    db.commit()
    db.close()
    tr.flows = 6 * 5
    return tr, {}


def build_rpd(path, truth):
    """rocmProfileData's RPD trace: a rocpd_metadata table (schema_version 2) and the
    tables rocpd_string, rocpd_api, rocpd_op, rocpd_api_ops."""
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.executescript("""
CREATE TABLE "rocpd_metadata" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT,
    "tag" varchar(4096) NOT NULL, "value" varchar(4096) NOT NULL);
CREATE TABLE "rocpd_string" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT,
    "string" varchar(4096) NOT NULL);
CREATE TABLE "rocpd_api" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT,
    "pid" integer NOT NULL, "tid" integer NOT NULL, "start" integer NOT NULL,
    "end" integer NOT NULL, "apiName_id" bigint NOT NULL, "args_id" bigint NOT NULL);
CREATE TABLE "rocpd_op" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT,
    "gpuId" integer NOT NULL, "queueId" integer NOT NULL, "sequenceId" integer NOT NULL,
    "completionSignal" varchar(18) NOT NULL, "start" integer NOT NULL, "end" integer NOT NULL,
    "description_id" integer NOT NULL, "opType_id" integer NOT NULL);
CREATE TABLE "rocpd_api_ops" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT,
    "api_id" integer NOT NULL, "op_id" integer NOT NULL);
INSERT INTO "rocpd_metadata"(tag, value) VALUES ('schema_version', '2');
INSERT INTO rocpd_string(id, string) VALUES (1, ''), (2, 'hipLaunchKernel'),
    (3, 'KernelExecution'), (4, 'gemm');
INSERT INTO rocpd_api VALUES (1, 10, 10, 1000, 2000, 2, 1);
INSERT INTO rocpd_op VALUES (1, 0, 0, 1, '', 3000, 9000, 4, 3);
INSERT INTO rocpd_api_ops VALUES (1, 1, 1);
""")
    db.commit()
    db.close()
    return Truth(), {}


def build_plain(path, truth):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE recipes (name TEXT, minutes INTEGER)")
    db.execute("INSERT INTO recipes VALUES ('bread', 240)")
    db.commit()
    db.close()
    return Truth(), {}


def build_bench(path, truth, kernels):
    """N kernels made by SQLite itself (a recursive CTE), in start order: kernel i on queue
    i % 4 (queues 0 and 2 of GPU 0, 1 and 3 of GPU 1), 5 us each, 10 us apart on its queue;
    a roctx range "step" on the one host thread every N / 1000 kernels."""
    r = Rocpd(path)
    r.node(1, "bench")
    r.process(1, 100, "./bench")
    r.thread(1, 100, 100, "bench")
    cpus, gpus = basic_agents(r, 1, 100, 2)
    for q in range(4):
        r.queue(10 + q, 1, 100, "Queue %d" % q)
    r.queue(0, 1, 100, "Default Queue")
    r.stream(0, 1, 100, "Default Stream")
    ids = r.symbols(1, 100, [GEMM, KERNELS[4], KERNELS[3]])
    cat_k = r.string("KERNEL_DISPATCH")
    cat_m = r.string(MARKER)
    empty = r.string("")
    rng = r.string("roctxThreadRangeA")
    db = r.db
    U = UUID
    n = kernels
    step = max(1, n // 1000)
    db.commit()
    db.execute("BEGIN")
    # events 1..n: the kernels; 2n+1..: the steps
    db.execute(f"""WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i + 1 < {n})
        INSERT INTO "rocpd_event{U}" (id, category_id, stack_id, parent_stack_id, correlation_id)
        SELECT i + 1, {cat_k}, i + 1, 0, 0 FROM s""")
    nsteps = (n + step - 1) // step
    db.execute(f"""WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i + 1 < {nsteps})
        INSERT INTO "rocpd_event{U}" (id, category_id, stack_id, parent_stack_id, correlation_id,
            extdata)
        SELECT {2 * n} + i + 1, {cat_m}, {n} + i + 1, 0, 0, '{{"message":"step"}}' FROM s""")
    # kernel i starts at T0 + 2500 * i ns + 1000 (four queues: 10 us apart on each)
    db.execute(f"""WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i + 1 < {nsteps})
        INSERT INTO "rocpd_region{U}" (nid, pid, tid, start, end, name_id, event_id)
        SELECT 1, 100, 100, {T0} + 2500 * i * {step}, {T0} + 2500 * (i + 1) * {step} - 100,
            {rng}, {2 * n} + i + 1 FROM s""")
    k0, k1, k2 = ids[GEMM], ids[KERNELS[4]], ids[KERNELS[3]]
    db.execute(f"""WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i + 1 < {n})
        INSERT INTO "rocpd_kernel_dispatch{U}" (nid, pid, tid, agent_id, kernel_id, dispatch_id,
            queue_id, stream_id, start, end, private_segment_size, group_segment_size,
            workgroup_size_x, workgroup_size_y, workgroup_size_z, grid_size_x, grid_size_y,
            grid_size_z, region_name_id, event_id)
        SELECT 1, 100, 100, {gpus[0]} + (i % 2), CASE i % 3 WHEN 0 THEN {k0} WHEN 1 THEN {k1}
            ELSE {k2} END, i + 1, 10 + (i % 4), 0, {T0} + 2500 * i + 1000,
            {T0} + 2500 * i + 6000, 0, 0, 256, 1, 1, 4096, 1, 1, {empty}, i + 1 FROM s""")
    db.execute("COMMIT")
    r.close()
    # each queue's kernels are disjoint: busy = 5 us each
    lanes = {}
    for q in range(4):
        cnt = len(range(q, n, 4))
        g = q % 2
        # queue q holds the kernels i with i % 4 == q, which are on GPU q % 2
        lanes["GPU %d / queue %d" % (g, q)] = {"busy_ns": 5000 * cnt, "kernels": cnt,
                                                "items": cnt}
    with open(truth, "w") if truth else open(os.devnull, "w") as f:
        json.dump({"gpu_lanes": lanes, "first_ns": T0, "last_ns": T0 + 2500 * (n - 1) + 6000,
                   "kernels": n, "steps": nsteps}, f, indent=1, sort_keys=True)
    return None, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kind")
    ap.add_argument("--out", required=True)
    ap.add_argument("--truth")
    ap.add_argument("--kernels", type=int, default=1000000)
    ap.add_argument("--rank", type=int, default=0)
    ap.add_argument("--world", type=int, default=2)
    a = ap.parse_args()
    builders = {
        "full": build_full, "streams": build_streams, "multinode": build_multinode,
        "critpath": build_critpath,
        "empty": build_empty, "v4": build_v4, "lz4": build_lz4, "cut": build_cut,
        "rocprofv1": build_rocprofv1, "rpd": build_rpd, "plain": build_plain,
        "noviews": lambda p, t: build_noviews(p, t, False),
        "nokernels": lambda p, t: build_noviews(p, t, True),
        "rank": lambda p, t: build_rank(p, t, a.rank, a.world),
        "bench-kernels": lambda p, t: build_bench(p, t, a.kernels),
    }
    if a.kind not in builders:
        ap.error("unknown kind %r (%s)" % (a.kind, ", ".join(sorted(builders))))
    truth, extra = builders[a.kind](a.out, a.truth)
    if truth is not None and a.truth:
        truth.dump(a.truth, extra)


if __name__ == "__main__":
    sys.exit(main())
