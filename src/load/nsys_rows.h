/* nsys_rows.h - the rows of an Nsight Systems export, as trace records for
 * the generic mode (model/trace.h, struct tf_tef_sink): the pure half of
 * the export loader.  nsys.c runs the queries and fills the rows; nothing
 * here knows SQLite, so tests and the fuzz target feed it rows of their own.
 * The rocpd loader (load/rocpd.h) hands it ROCm's rows too, drawn as an
 * export's are: with the labels it gives devices and lanes, the category
 * of each call, explicit process and thread ids, and no origin at 0.
 *
 * What becomes what:
 *   - each process (PROCESSES) and thread (ThreadNames) a name record:
 *     "process / thread" lanes, pid and tid taken from globalTid
 *     ((globalTid >> 24) & 0xFFFFFF, globalTid & 0xFFFFFF);
 *   - each GPU device and stream a lane "GPU 0 / stream 7" (pid "GPU 0",
 *     tid "stream 7", or "stream 7 (pid 42)" when several processes have
 *     streams); the device's name goes in the tooltip;
 *   - kernels: slices named by their demangled name (bars show the short
 *     name: rules/chrome.h), category kernel, args device, stream, grid,
 *     block, correlation;
 *   - memcpy "Memcpy HtoD (Pinned -> Device)" (gpu_memcpy), memset
 *     "Memset (Device)" (gpu_memset), with device, stream, bytes;
 *   - CUDA runtime and driver calls (cuda_runtime) on their thread, named
 *     without nsys's version suffix (cudaLaunchKernel_v7000 is
 *     cudaLaunchKernel); OS runtime calls (osrt) likewise, when read;
 *   - NVTX push/pop and start/end ranges slices (nvtx), in their colour
 *     when recorded; NVTX marks instants; other NVTX event types nothing;
 *   - a runtime call and the GPU work of the same correlationId the two
 *     ends of a flow (--flows);
 *   - the session start (time 0 of an export) the origin of --from/--to.
 * Strings are made valid UTF-8 (an invalid byte becomes U+FFFD); a row
 * with a time beyond +-4e18 ns is dropped and counted.
 *
 * Two passes, as the sink expects: rows given before tf_nsys_window() go
 * to its index(), those after it to collect().  Which rows each pass needs
 * is nsys.c's business (the sink's index_lean / index_name); this layer
 * converts whatever it is given.
 */
#ifndef TF_LOAD_NSYS_ROWS_H
#define TF_LOAD_NSYS_ROWS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/diag.h"
#include "model/trace.h"

enum tf_nsys_table {
    TF_NSYS_KERNEL,  /* CUPTI_ACTIVITY_KIND_KERNEL */
    TF_NSYS_MEMCPY,  /* CUPTI_ACTIVITY_KIND_MEMCPY */
    TF_NSYS_MEMSET,  /* CUPTI_ACTIVITY_KIND_MEMSET */
    TF_NSYS_RUNTIME, /* CUPTI_ACTIVITY_KIND_RUNTIME */
    TF_NSYS_NVTX,    /* NVTX_EVENTS */
    TF_NSYS_OSRT,    /* OSRT_API */
    TF_NSYS_N_TABLES,
    /* Rows no export table holds (load/rocpd.h): a device's memory
     * allocations, drawn on a lane of the device but no GPU work (no
     * args.stream), named and categorised by the row. */
    TF_NSYS_MEMORY = TF_NSYS_N_TABLES
};

/* NVTX_EVENTS.eventType values drawn (ENUM_NSYS_EVENT_TYPE). */
enum {
    TF_NSYS_NVTX_MARK = 34,
    TF_NSYS_NVTX_PUSHPOP = 59,
    TF_NSYS_NVTX_STARTEND = 60,
    TF_NSYS_NVTXT_MARK = 65,
    TF_NSYS_NVTXT_PUSHPOP = 70,
    TF_NSYS_NVTXT_STARTEND = 71
};

/* One row; strings are the caller's, valid during the call. */
struct tf_nsys_row {
    enum tf_nsys_table table;
    int64_t start, end;  /* ns from the session's start */
    bool has_end;        /* an NVTX range never closed has none */
    bool has_gid;
    int64_t gid;         /* globalTid (runtime, NVTX, OS runtime), globalPid (GPU) */
    bool has_ids;        /* pid and tid given as they are (instead of gid) */
    int64_t pid, tid;
    int64_t device, stream;
    bool has_lane;       /* GPU rows: the lane's key, when it is not the stream */
    int64_t lane;
    const char *cat;     /* the category, when not the table's (calls, NVTX), or NULL */
    bool has_corr;
    int64_t corr;        /* correlationId */
    const char *name;    /* kernel: demangled name; calls: function; NVTX: text */
    const char *short_name; /* kernel: shortName */
    bool clean_names;    /* name and short_name are valid UTF-8 already (made so by
                            tf_nsys_clean when the export's string table was read) */
    int64_t event_class; /* runtime: 1 for a driver call */
    int64_t nvtx_type;   /* NVTX: eventType */
    bool has_color;
    uint32_t color;      /* NVTX: ARGB */
    bool has_bytes;
    int64_t bytes;       /* memcpy, memset */
    const char *copy_kind, *src_kind, *dst_kind; /* memcpy: "HtoD", "Pinned", "Device" */
    const char *mem_kind; /* memset: "Device" */
    bool has_grid;
    int64_t grid[3], block[3];
    /* GPU work the sink needs no args of (shorter than its args_floor):
     * correlation, grid, block and bytes may be left unread then */
    bool no_args;
};

/* Labels of nsys's enums, for exports without their ENUM_* tables:
 * copyKind (ENUM_CUDA_MEMCPY_OPER) as "HtoD", a memory kind
 * (ENUM_CUDA_MEM_KIND) as "Pinned"; NULL when unknown. */
const char *tf_nsys_copy_kind(int64_t id);
const char *tf_nsys_mem_kind(int64_t id);
/* A name of ENUM_CUDA_MEMCPY_OPER ("CUDA_MEMCPY_KIND_HTOD", or the older
 * bare "HTOD") as a label ("HtoD"), written to out (n bytes). */
void tf_nsys_copy_kind_label(const char *enum_name, char *out, size_t n);

/* s as valid UTF-8 (an invalid byte becomes U+FFFD): s itself when it is,
 * else a copy in `scratch` (valid until its next use); NULL stays NULL, and
 * NULL when out of memory. */
const char *tf_nsys_clean(struct tf_buf *scratch, const char *s);

/* A function name as drawn: without nsys's version suffix "_vNNNN" (four
 * or more digits), written to out (n bytes). */
void tf_nsys_call_name(const char *name, char *out, size_t n);

/* A converter for one export; `file` names it in messages.  _new/_free;
 * NULL when out of memory. */
struct tf_nsys;
struct tf_nsys *tf_nsys_new(const char *file, const struct tf_tef_sink *sink);
void tf_nsys_free(struct tf_nsys *n);

/* What the export says about itself, before tf_nsys_begin (all copied).
 * A stream with device < 0 is a stream of every device; pid < 0: of no
 * known process. */
bool tf_nsys_add_process(struct tf_nsys *n, int64_t pid, const char *name);
bool tf_nsys_add_thread(struct tf_nsys *n, int64_t global_tid, const char *name);
bool tf_nsys_add_thread_ids(struct tf_nsys *n, int64_t pid, int64_t tid, const char *name);
bool tf_nsys_add_gpu(struct tf_nsys *n, int64_t id, const char *name);
bool tf_nsys_add_stream(struct tf_nsys *n, int64_t device, int64_t stream, int64_t pid);
/* The label of device id's lanes ("GPU 0 (node-a)"; default "GPU <id>"),
 * and of the lanes whose key (stream, or the row's lane) is `key`
 * ("queue 0"; default "stream <key>"); false when out of memory. */
bool tf_nsys_label_gpu(struct tf_nsys *n, int64_t id, const char *label);
bool tf_nsys_label_lane(struct tf_nsys *n, int64_t key, const char *label);
/* Whether time 0 is the trace's origin (an export's session start; the
 * default), or --from/--to count from the first drawable event. */
void tf_nsys_set_origin(struct tf_nsys *n, bool at_zero);
/* Correlation ids are per process: flows pair (pid, correlationId).  Set
 * when every table read has globalTid / globalPid. */
void tf_nsys_set_flow_pids(struct tf_nsys *n, bool on);

/* The name records (threads named alike in one process get their tid:
 * "worker [4250]") and the origin, to index(). */
bool tf_nsys_begin(struct tf_nsys *n, struct tf_diag *d);
/* One row, to index() before the window, to collect() after it. */
bool tf_nsys_row(struct tf_nsys *n, const struct tf_nsys_row *r, struct tf_diag *d);
/* The sink's window (ns); false with its message. */
bool tf_nsys_window(struct tf_nsys *n, int64_t *lo, int64_t *hi, struct tf_diag *d);
/* The sink's finish, then a warning for the rows dropped. */
bool tf_nsys_finish(struct tf_nsys *n, struct tf_diag *d);

#endif
