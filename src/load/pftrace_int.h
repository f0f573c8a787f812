/* pftrace_int.h - what the parts of the Perfetto loader share: the state
 * of a read (pftrace.c: the packet stream and the passes; pftrace_util.c:
 * the map, names and records; pftrace_clock.c: clocks and sequences;
 * pftrace_track.c: track events and descriptors;
 * pftrace_ftrace.c: ftrace bundles, scheduling; atrace.c: atrace marks,
 * shared with the ftrace text loader, ftrace*.c, which drives the same
 * state through pf_run).  Private to
 * src/load/pftrace*.c; see pftrace.h for what becomes what.
 */
#ifndef TF_LOAD_PFTRACE_INT_H
#define TF_LOAD_PFTRACE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/strtab.h"
#include "load/input.h"
#include "load/pb.h"
#include "load/pb_stream.h"
#include "model/trace.h"

/* u64 -> u64, open addressing (key 0 is stored apart). */
struct pf_map {
    uint64_t *keys, *vals;
    size_t cap, n;
    bool has0;
    uint64_t val0;
};
bool pf_map_put(struct pf_map *m, uint64_t key, uint64_t val);
bool pf_map_get(const struct pf_map *m, uint64_t key, uint64_t *val);
void pf_map_clear(struct pf_map *m);
void pf_map_fini(struct pf_map *m);

/* An open slice on a track or an atrace thread. */
struct pf_frame {
    uint32_t name, cat; /* strtab ids */
    int64_t ts;
    int64_t cookie;     /* an async atrace slice's */
    char *args;         /* JSON object (pass 2), or NULL */
};

struct pf_stack {
    struct pf_frame *v;
    size_t n, cap;
};

enum pf_track_kind { PF_TK_CUSTOM, PF_TK_PROCESS, PF_TK_THREAD };

struct pf_track {
    uint64_t uuid, parent;
    enum pf_track_kind kind;
    int64_t pid, tid;
    uint32_t name;      /* strtab id (0: none) */
    bool counter;
    uint32_t unit;
    int64_t unit_mult;
    bool incremental;
    double last;        /* an incremental counter's value */
    bool resolved;      /* lane computed */
    struct tf_id lpid, ltid; /* its lane (strings in the strtab) */
    uint32_t cname;     /* counter: its name as drawn */
    struct pf_stack st;
};

/* A trusted_packet_sequence_id's incremental state. */
struct pf_seq {
    uint32_t id;
    struct pf_map names, cats, annots, strvals, gpuspecs; /* iid -> strtab id */
    uint32_t def_clock;        /* trace_packet_defaults.timestamp_clock_id */
    uint64_t def_track;        /* track_event_defaults.track_uuid */
    bool has_def_track;
    uint64_t *def_extra;       /* extra counter track uuids (int), then double */
    size_t n_def_extra, n_def_extra_i, cap_def_extra;
    int64_t td_pid, td_tid;    /* thread_descriptor (legacy) */
    bool has_td;
    uint64_t inc_last[64];     /* sequence-scoped incremental clocks 64..127 */
    bool inc_set[64];
};

/* One clock's value in a snapshot. */
struct pf_clk {
    uint64_t key;  /* clock id; 64..127 scoped: id | seq << 8 */
    int64_t ns;
};

struct pf_snap {
    struct pf_clk *c;
    size_t n;
};

struct pf_clockdef {
    uint64_t key;
    uint64_t mult;
    bool incremental;
};

struct pf_thread {
    int64_t tid, tgid;  /* tgid -1: unknown */
    uint32_t name;      /* strtab id of its best name */
    int name_rank;      /* 0 none, 1 comm, 2 process_tree / descriptor */
};

struct pf_proc {
    int64_t pid;
    uint32_t name;
    int name_rank;      /* 1 cmdline[0], 2 process_name */
    bool has_ppid;      /* process_tree gave its parent */
    int64_t ppid;
};

struct pf_cpu {
    bool on;            /* a task switched in */
    int64_t tid, since;
    uint32_t comm;
    bool has_freq, has_idle;
};

struct pf_aev;

struct pf {
    const char *file;
    const struct tf_tef_sink *sink;
    struct tf_diag *d;
    struct tf_input *in;
    int pass;
    size_t idx;
    int64_t lo, hi;             /* the window, pass 2 */
    struct tf_strtab strs;      /* id 0 is "" */
    struct tf_buf args, tmp, tmp2, cats;
    /* reading */
    struct tf_pb_stream rd;     /* the input, a buffer at a time */
    uint8_t *pkt;
    size_t cap_pkt;
    uint8_t *zbuf;
    size_t cap_zbuf;
    bool cut;
    uint64_t cut_at;
    /* sequences and clocks */
    struct pf_seq *seqs;
    size_t n_seqs, cap_seqs;
    uint32_t trace_clock;
    struct pf_snap *snaps;
    size_t n_snaps, cap_snaps;
    struct pf_clockdef *clockdefs;
    size_t n_clockdefs, cap_clockdefs;
    /* the current packet */
    struct pf_seq *seq;
    uint32_t pkt_clock;
    bool has_ts;
    uint64_t raw_ts;
    /* names, kept over both passes */
    struct pf_map thr_of, proc_of; /* tid / pid -> index + 1 */
    struct pf_thread *thrs;
    size_t n_thrs, cap_thrs;
    struct pf_proc *procs;
    size_t n_procs, cap_procs;
    /* tracks */
    struct pf_map track_of;     /* uuid -> index + 1 */
    struct pf_track *tracks;
    size_t n_tracks, cap_tracks;
    /* flows seen (pass-local): id -> 1 */
    struct pf_map flows;
    /* ftrace */
    struct pf_cpu *cpus;
    size_t n_cpus;
    struct pf_map atrace_of;    /* tid -> stack index + 1 */
    struct pf_stack *atr;
    int64_t *atr_tid;
    size_t n_atr, cap_atr;
    bool has_sched;
    struct pf_aev *aev;         /* atrace events waiting to be put in time order */
    size_t n_aev, cap_aev;
    size_t aev_max;             /* the buffer's bound (0: atrace.c's AEV_MAX) */
    uint64_t aev_seq;
    bool other_lanes;           /* pass 0: slices other than cpu counters */
    /* counts for the warnings */
    size_t n_events;            /* drawable records of pass 1 */
    size_t n_unmatched_end, n_open, n_no_track, n_bad_clock;
    /* a reader of its own in place of the packet stream (the ftrace text
     * loader, ftrace.c): one pass over its input, p->pass telling which */
    bool (*read)(struct pf *p);
    void *read_ctx;
    size_t idx_base; /* the first record's idx (after a JSON's elements) */
};

/* pftrace.c: the passes, for the packet stream or p->read.  pf_init
 * (false: out of memory, said); pf_first: names (pass 0), the index (pass
 * 1) and the name records; pf_second: the records of window lo..hi (pass
 * 2); pf_free releases all but *p itself. */
bool pf_init(struct pf *p, const char *file, const struct tf_tef_sink *sink, struct tf_diag *d);
bool pf_first(struct pf *p);
bool pf_second(struct pf *p, int64_t lo, int64_t hi);
void pf_free(struct pf *p);

/* pftrace_util.c */
bool pf_emit(struct pf *p, struct tf_tef_rec *r);
bool pf_bad(struct pf *p, uint64_t at, const char *what);
bool pf_pb_fail(struct pf *p, const struct tf_pb *r);
uint32_t pf_str(struct pf *p, const uint8_t *s, size_t n);
uint32_t pf_cstr(struct pf *p, const char *s);
const char *pf_s(const struct pf *p, uint32_t id);
/* A timestamp of clock `clock` (raw units) on the trace clock, in ns. */
int64_t pf_time(struct pf *p, uint32_t clock, uint64_t raw);
struct pf_thread *pf_thread(struct pf *p, int64_t tid);
struct pf_proc *pf_proc(struct pf *p, int64_t pid);
void pf_name_thread(struct pf *p, int64_t tid, int64_t tgid, uint32_t name, int rank);
void pf_name_proc(struct pf *p, int64_t pid, uint32_t name, int rank);
bool pf_push(struct pf *p, struct pf_stack *st, uint32_t name, uint32_t cat, int64_t ts,
             const char *args);
/* Pops the innermost frame as a slice ending at ts (open_end: never closed)
 * on lane (pid, tid). */
bool pf_pop(struct pf *p, struct pf_stack *st, const struct tf_id *pid, const struct tf_id *tid,
            int64_t ts, bool open_end);
bool pf_counter(struct pf *p, const struct tf_id *pid, const char *name, const char *unit,
                int64_t ts, double v);
void pf_stack_fini(struct pf_stack *st);

/* pftrace_clock.c */
bool pf_clock_snapshot(struct pf *p, const struct tf_pb *msg);
struct pf_seq *pf_seq_of(struct pf *p, uint32_t id);
void pf_seq_clear(struct pf_seq *s);
void pf_seqs_free(struct pf *p);
bool pf_packet_defaults(struct pf *p, const struct tf_pb *msg);
bool pf_thread_descriptor(struct pf *p, const struct tf_pb *msg);

/* pftrace_track.c */
bool pf_track_descriptor(struct pf *p, const struct tf_pb *msg);
bool pf_track_event(struct pf *p, const struct tf_pb *msg, int64_t ts);
bool pf_interned(struct pf *p, const struct tf_pb *msg);
bool pf_tracks_end(struct pf *p); /* open slices at the end of a pass */
void pf_tracks_reset(struct pf *p);

/* pftrace_ftrace.c */
bool pf_ftrace_bundle(struct pf *p, const struct tf_pb *msg);
bool pf_process_tree(struct pf *p, const struct tf_pb *msg);
bool pf_ftrace_end(struct pf *p);
/* Whether a bundle holds scheduling or atrace (pass 0). */
bool pf_ftrace_lanes(const struct tf_pb *msg);
void pf_ftrace_reset(struct pf *p);

/* A scheduling switch on cpu at ts to thread `next` (comm: its strtab id,
 * 0 none): ends the running thread's slice on lane "CPU N". */
bool pf_sched_switch(struct pf *p, uint64_t cpu, int64_t ts, int64_t next, uint32_t comm);
/* Events of cpu lost from `from` to `to` (ftrace text's "CPU:N [LOST M
 * EVENTS]"): the run before ends at from, the range is a slice of category
 * TF_LOST_CAT (hatched, never busy), and the lane stays empty until the
 * next switch says what runs. */
bool pf_cpu_lost(struct pf *p, uint64_t cpu, int64_t from, int64_t to, uint64_t n);
/* A counter `what` ("cpufreq", "cpuidle") of lane "CPU N". */
bool pf_cpu_counter(struct pf *p, uint64_t cpu, const char *what, int64_t ts, double v);

/* atrace.c: one mark "B|tgid|name", "E|tgid", "C|tgid|name|value",
 * "S|tgid|name|cookie", "F|tgid|name|cookie" of thread tid at ts, or one
 * already split (kind B E C S F); applied in time order at the end of the
 * pass (pf_atrace_end) or when the buffer fills. */
bool pf_atrace_line(struct pf *p, int64_t tid, const char *s, size_t n, int64_t ts);
bool pf_atrace_push(struct pf *p, char kind, int64_t ts, int64_t tid, int64_t tgid,
                    uint32_t name, double v, int64_t cookie);
bool pf_atrace_end(struct pf *p);
void pf_atrace_reset(struct pf *p);

/* pftrace_gpu.c */
bool pf_gpu_counter(struct pf *p, const struct tf_pb *msg, int64_t ts);
bool pf_gpu_specs(struct pf *p, const struct tf_pb *desc);
bool pf_gpu_frequency(struct pf *p, int64_t gpu, int64_t ts, double v);
bool pf_gpu_render_stage(struct pf *p, const struct tf_pb *msg, int64_t ts);

#endif
