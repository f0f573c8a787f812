/* ctf_int.h - what the parts of the CTF loader share: the events read
 * (ctf.c reads them through libbabeltrace2, each stream on its own
 * iterator) and their conversion into the generic mode's records
 * (ctf_conv.c: CPU lanes, kernel detail, user-space slices, lost events).
 * Private to src/load/ctf*.c; see ctf.h for what becomes what.
 */
#ifndef TF_LOAD_CTF_INT_H
#define TF_LOAD_CTF_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/strtab.h"
#include "model/trace.h"

/* What an event is to tracefig; the rest are not kept. */
enum ctf_kind {
    CTF_SWITCH,    /* a = prev_tid, b = next_tid, name = next_comm, c = prev_comm */
    CTF_NAME,      /* thread a of process b (-1: unknown) is called `name` */
    CTF_IRQ_IN,    /* name = the handler's label */
    CTF_IRQ_OUT,
    CTF_SOFT_IN,   /* name = the softirq's label */
    CTF_SOFT_OUT,
    CTF_SYS_IN,    /* name = the system call */
    CTF_SYS_OUT,
    CTF_BEGIN,     /* a user-space slice opens: name */
    CTF_END,       /* ... closes (name: the pair's, 0 = the innermost) */
    CTF_INSTANT,   /* name */
    CTF_LOST,      /* a = events lost, ts .. b the range */
    CTF_SYMBOL     /* the callback at address a is called `name` (ROS 2) */
};

struct ctf_ev {
    int64_t ts;       /* ns from the clock's origin */
    int64_t a, b;
    int64_t tid, pid; /* a user-space event's vtid / vpid (-1: none) */
    uint32_t name, c; /* strtab ids (0: "") */
    uint32_t stream;  /* index into the streams */
    int32_t cpu;      /* -1: unknown */
    uint8_t kind;     /* enum ctf_kind */
    uint8_t func;     /* CTF_BEGIN / CTF_END of lttng_ust_cyg_profile (1), or
                         of a ROS 2 callback at address a (2) */
};

struct ctf_stream {
    uint32_t name;    /* strtab id: the stream's file (base) name */
    uint32_t trace;   /* strtab id: the trace's name */
    bool kernel;      /* a kernel trace's (LTTng's domain, perf) */
    bool threads;     /* its events carry vtid */
    int32_t cpu;      /* the packet context's cpu_id (-1: none) */
    int32_t file_cpu; /* N of its file's name `CHANNEL_N`, LTTng's per-CPU
                         streams (-1: none): the CPU when no cpu_id says */
};

struct ctf {
    const char *file;
    const char *dir0;      /* the first trace's folder */
    const void *probe_fs;  /* while a source fails: its fs class and folder (ctf.c) */
    const char *probe_dir;
    struct tf_diag *d;
    struct tf_strtab strs; /* id 0 is "" */
    struct ctf_ev *ev;
    size_t n_ev, cap_ev;
    struct ctf_stream *streams;
    size_t n_streams, cap_streams;
    uint64_t n_lost;       /* discarded events, in all */
    uint64_t n_lost_packets; /* discarded packets, in all */
    unsigned kernel_detail; /* TF_KDETAIL_* */
};

/* ctf.c: the traces in the folders `dirs` (n_dirs strings, each ended by
 * a NUL: the traces of a session) read whole into x->ev, in time order
 * (ties: each stream's own order). */
bool tf_ctf_read(struct ctf *x, const char *dirs, size_t n_dirs);
/* ctf_lib.c: the id of s in x's string table (0: empty or out of memory). */
uint32_t tf_ctf_str(struct ctf *x, const char *s);

/* ctf_conv.c: the events as records for the sink, both passes. */
bool tf_ctf_convert(struct ctf *x, const struct tf_tef_sink *sink);

#endif
