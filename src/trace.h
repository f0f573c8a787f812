/* trace.h - the trace model: what the loaders read, as plain C structs.
 *
 * No json_t survives a loader; everything here is owned by the struct that
 * holds it and released by its _fini function.  Only events that can matter
 * to a figure are kept: lanes and names the rules know, everything else is
 * counted and dropped.
 */
#ifndef TF_TRACE_H
#define TF_TRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

/* Input lanes of pipelined_timeline_v1/_v2 ("lane" field). */
enum tf_in_lane { TF_IN_OTHER = 0, TF_IN_IO, TF_IN_MAIN, TF_IN_GPU };

/* Event names the timeline rules look at ("name" field). */
enum tf_ev_name {
    TF_EV_OTHER = 0,
    TF_EV_HDF5_READ,       /* io   */
    TF_EV_GPU_BUFFER_WAIT, /* io   */
    TF_EV_COMPUTE,         /* gpu  */
    TF_EV_WAIT_FOR_IO,     /* main */
    TF_EV_AWAIT_DISPATCH,  /* main */
    TF_EV_TRSM_HOST        /* main */
};

/* The name as written in traces and in the figure model ("compute", ...). */
const char *tf_ev_name_str(enum tf_ev_name name);
enum tf_ev_name tf_ev_name_from(const char *s);
enum tf_in_lane tf_in_lane_from(const char *s);

struct tf_event {
    double start_ms;
    double dur_ms;
    long long candidate; /* events without a candidate are never stored */
    long long buffer;    /* valid when has_buffer */
    unsigned char lane;  /* enum tf_in_lane */
    unsigned char name;  /* enum tf_ev_name */
    bool has_buffer;
};

/* An optional integer from the metadata. */
struct tf_opt_int {
    bool set;
    long long v;
};

struct tf_timeline {
    int version; /* 1 or 2 */
    struct tf_event *events; /* input order */
    size_t n_events;
    size_t cap_events;
    size_t n_null_candidate; /* relevant events skipped: candidate null/missing */
    struct tf_opt_int start_candidate;
    struct tf_opt_int timeline_record_from;
    struct tf_opt_int focus_candidate;
    struct tf_opt_int num_candidates;
};

void tf_timeline_init(struct tf_timeline *t);
void tf_timeline_fini(struct tf_timeline *t);
/* Appends a copy of *e; returns false when out of memory. */
bool tf_timeline_push(struct tf_timeline *t, const struct tf_event *e);

/* candidate_breakdown_v1: gpu_ms in file order; io_ms is ignored. */
struct tf_gpu_op {
    char *key; /* owned */
    double ms;
};

struct tf_breakdown_in {
    struct tf_opt_int candidate;
    struct tf_gpu_op *ops;
    size_t n_ops;
};

void tf_breakdown_in_init(struct tf_breakdown_in *b);
void tf_breakdown_in_fini(struct tf_breakdown_in *b);

/* Legacy PyTorch Chrome trace, reduced to what plot_pytorch_trace draws.
 * Times are microseconds on the trace clock. */
enum tf_pt_kind { TF_PT_IO = 1, TF_PT_COMPUTE = 2 };

struct tf_pt_block {
    double ts_us;
    double dur_us;
    unsigned char kind; /* enum tf_pt_kind */
};

struct tf_pytorch {
    bool found;          /* the Candidate_Eval_N window event was found */
    long long candidate; /* N */
    double win_ts_us;    /* Candidate_Eval_N ts */
    double win_dur_us;   /* Candidate_Eval_N dur */
    struct tf_pt_block *blocks; /* input order, only I/O and compute blocks */
    size_t n_blocks;
    size_t cap_blocks;
};

void tf_pytorch_init(struct tf_pytorch *p);
void tf_pytorch_fini(struct tf_pytorch *p);
bool tf_pytorch_push(struct tf_pytorch *p, const struct tf_pt_block *b);

/* What kind of trace a file holds. */
enum tf_trace_kind { TF_TRACE_TIMELINE = 1, TF_TRACE_PYTORCH = 2 };

/* Options that reach the loader: the candidate window is known before the
 * events are read when the command line names it. */
struct tf_load_opts {
    struct tf_opt_int start_candidate; /* --start_candidate / --focus_candidate */
    struct tf_opt_int num_candidates;  /* --num_candidates */
};

/* A loaded trace: exactly one of the two is filled, per kind. */
struct tf_trace {
    enum tf_trace_kind kind;
    struct tf_timeline timeline;
    struct tf_pytorch pytorch;
};

/* Makes room for item n in *items (an array of *cap items of `size` bytes),
 * doubling it when full.  False on overflow or when out of memory (then
 * *items and *cap are unchanged).  Shared by every growing array. */
bool tf_grow(void **items, size_t *cap, size_t n, size_t size);

void tf_trace_init(struct tf_trace *t);
void tf_trace_fini(struct tf_trace *t);

/* Loaders (load_*.c; the only files that include jansson.h).  They return
 * true on success; on failure they report one located message through *d and
 * leave *out empty (still safe to _fini).  `path` is used for messages and
 * "-" means standard input. */
bool tf_load_trace(const char *path, const struct tf_load_opts *opts,
                   struct tf_trace *out, struct tf_diag *d);
bool tf_load_breakdown(const char *path, struct tf_breakdown_in *out,
                       struct tf_diag *d);

/* Largest magnitude accepted for a time or duration (ms or us): PyTorch
 * timestamps are epoch microseconds (~1.7e15); far beyond that, start +
 * duration arithmetic and the output's fixed-point numbers stop making sense. */
#define TF_MAX_ABS_TIME 1e18

#endif
