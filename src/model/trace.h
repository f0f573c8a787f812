/* trace.h - the trace model: what the loaders read, as plain C structs,
 * and the filters through which a mode tells a loader what to keep.
 *
 * No json_t survives a loader; everything here is owned by the struct that
 * holds it and released by its _fini function.  A loader keeps only what
 * the mode's filter asks for, so the rules that decide what a figure uses
 * (which events, which window) are written once, in the mode (rules/), and
 * the loader (load/) knows only the input formats.
 */
#ifndef TF_TRACE_H
#define TF_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/diag.h"

/* Largest magnitude accepted for a time or duration (ms or us): PyTorch
 * timestamps are epoch microseconds (~1.7e15); far beyond that, start +
 * duration arithmetic and the output's fixed-point numbers stop making
 * sense. */
#define TF_MAX_ABS_TIME 1e18

/* Largest magnitude of a Chrome trace's time in nanoseconds (4e15 us, the
 * year 2096 in epoch microseconds): the sum or difference of any two such
 * times (an end, a B/E pair's span, a gap) still fits int64_t. */
#define TF_TEF_MAX_NS INT64_C(4000000000000000000)

/* What kind of trace a file holds. */
enum tf_trace_kind {
    TF_TRACE_NONE = 0,
    TF_TRACE_TIMELINE = 1, /* pipelined_timeline_v1/_v2: {"format": ..., "events": [...]} */
    TF_TRACE_CHROME = 2    /* Trace Event Format: {"traceEvents": [...]} or [...] */
};

/* An optional integer from the metadata. */
struct tf_opt_int {
    bool set;
    long long v;
};

/* --- pipelined timelines ------------------------------------------------------ */

/* Input lanes of pipelined_timeline_v1/_v2 ("lane" field). */
enum tf_in_lane { TF_IN_OTHER = 0, TF_IN_IO, TF_IN_MAIN, TF_IN_GPU };

/* Event names of the format ("name" field). */
enum tf_ev_name {
    TF_EV_OTHER = 0,
    TF_EV_HDF5_READ,       /* io   */
    TF_EV_GPU_BUFFER_WAIT, /* io   */
    TF_EV_COMPUTE,         /* gpu  */
    TF_EV_WAIT_FOR_IO,     /* main */
    TF_EV_AWAIT_DISPATCH,  /* main */
    TF_EV_TRSM_HOST        /* main */
};

/* The name as written in traces ("compute", ...), and back. */
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

/* Metadata keys of a pipelined timeline, as bits of tf_timeline.seen. */
enum {
    TF_META_START = 1u << 0,       /* start_candidate */
    TF_META_RECORD_FROM = 1u << 1, /* timeline_record_from */
    TF_META_FOCUS = 1u << 2,       /* focus_candidate */
    TF_META_NUM = 1u << 3          /* num_candidates */
};

struct tf_timeline {
    int version;             /* 1 or 2 */
    unsigned seen;           /* TF_META_* keys read so far (streaming) */
    struct tf_event *events; /* input order */
    size_t n_events, cap_events;
    size_t n_null_candidate; /* used events skipped: candidate null/missing */
    struct tf_opt_int start_candidate;
    struct tf_opt_int timeline_record_from;
    struct tf_opt_int focus_candidate;
    struct tf_opt_int num_candidates;
};

void tf_timeline_init(struct tf_timeline *t);
void tf_timeline_fini(struct tf_timeline *t);
/* Appends a copy of *e; false when out of memory. */
bool tf_timeline_push(struct tf_timeline *t, const struct tf_event *e);

/* What the loader keeps of a pipelined timeline; the mode fills it in. */
struct tf_timeline_filter {
    /* Whether the figure draws events of this lane and name.  The loader
     * checks and converts only these; the others are passed over. */
    bool (*uses)(enum tf_in_lane lane, enum tf_ev_name name);
    /* The candidates the figure can use, lo..hi, from the options and the
     * metadata in *meta: its values (set) and which keys were read so far
     * (seen; `final`: all the metadata there is).  Returns false while that
     * is not known yet (the metadata that decides it may follow the
     * events). */
    bool (*range)(const void *ctx, const struct tf_timeline *meta, bool final, long long *lo,
                  long long *hi);
    /* Checks a used event with a candidate; false with a message naming
     * file and `where` ("events[3]") for a value the figure cannot draw. */
    bool (*check)(const struct tf_event *e, const char *file, const char *where,
                  struct tf_diag *d);
    const void *ctx; /* the mode's options */
};

/* --- breakdown files ------------------------------------------------------------ */

/* candidate_breakdown_v1: gpu_ms in file order; io_ms is ignored. */
struct tf_gpu_op {
    char *key; /* owned */
    double ms;
};

struct tf_breakdown_in {
    /* The candidate as its title shows it: an integer's digits, a real as
     * Python prints it, a string verbatim; NULL when null or missing. */
    char *candidate;
    bool candidate_is_number;
    struct tf_gpu_op *ops;
    size_t n_ops;
};

void tf_breakdown_in_init(struct tf_breakdown_in *b);
void tf_breakdown_in_fini(struct tf_breakdown_in *b);

/* --- Chrome traces (Trace Event Format) ----------------------------------------- */

/* What a mode wants of an event, from its name: nothing (the loader reads
 * no more of it), or a nonzero tag that the loader hands back with the
 * event's slice.  TF_WANT_REQUIRED in a tag: an event the figure cannot do
 * without, so a missing ts or dur is an error rather than a reason to skip
 * it.  The other bits are the mode's own. */
enum { TF_WANT_REQUIRED = 1u };

/* Where the loader sends the events of a Chrome trace: complete slices (an
 * X event, or a B/E pair, which the loader pairs per thread), in file
 * order of their start.  The mode keeps what it needs. */
struct tf_chrome_sink {
    /* Whether this trace is the mode's (asked after the first pass when the
     * generic mode could read it too; NULL: always). */
    bool (*claims)(void *ctx);
    unsigned (*wants)(void *ctx, const char *name, size_t len);
    /* A wanted slice: `idx` is the position of its (first) event in the
     * file, `is_x` whether it was an X event. */
    bool (*slice)(void *ctx, unsigned tag, size_t idx, double ts, double dur, bool is_x,
                  struct tf_diag *d);
    /* After the last event, before the loader's own warnings. */
    bool (*finish)(void *ctx, struct tf_diag *d);
    void *ctx;
};

/* A legacy PyTorch Chrome trace, reduced to what plot_pytorch_trace draws.
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
    size_t n_blocks, cap_blocks;
};

void tf_pytorch_init(struct tf_pytorch *p);
void tf_pytorch_fini(struct tf_pytorch *p);
bool tf_pytorch_push(struct tf_pytorch *p, const struct tf_pt_block *b);

/* --- Chrome traces, read by the generic mode ---------------------------------------- */

/* An identifier as the trace gives it (pid, tid): a number or a string.
 * A string that holds an integer ("5555") comes as that number: the
 * loader reads them as one (load/tef.h). */
enum tf_id_kind { TF_ID_NONE = 0, TF_ID_NUM, TF_ID_STR };

struct tf_id {
    enum tf_id_kind kind;
    long long num;   /* TF_ID_NUM */
    const char *str; /* TF_ID_STR */
};

/* A key that tells ids apart by type and value ("i42", "sstream 7", "-"
 * for none: 1 and "1" differ), appended to b. */
void tf_id_key(struct tf_buf *b, const struct tf_id *id);

/* What the loader hands the generic mode: one record per event, or per
 * pair of events it joined (B/E). */
enum tf_tef_kind {
    TF_TEF_SLICE,   /* X, or a B/E pair (ph 'B') */
    TF_TEF_INSTANT, /* i, I, R */
    TF_TEF_ASYNC,   /* a b/e pair, or n */
    TF_TEF_FLOW,    /* s, t, f: one end of a flow arrow */
    TF_TEF_META,    /* M, and the name records of systemTraceEvents */
    TF_TEF_COUNTER, /* C: one or more series' values (args), in both passes */
    TF_TEF_ORIGIN,  /* the trace's own time origin (ts): an Nsight Systems
                       export's session start, from which --from/--to count */
    TF_TEF_HPC,     /* the trace is an HPC job's (an OTF2 archive): its
                       processes are ranks (the lane cap, --stats' MPI share) */
    TF_TEF_NOTE,    /* a note for the figure, in name (the loader's: what
                       the archive says about the lanes, such as gaps) */
    TF_TEF_PARADIGM, /* pass 2, an HPC job's: process pid's time in the window
                       in slices of category `cat` (dur, ns: the union over its
                       threads, nested slices once); cat NULL: in MPI of any
                       kind (the categories "MPI" and "MPI collective") */
    TF_TEF_LANE_DONE, /* pass 2, an HPC job's: every record of thread (pid, tid)
                       has been given (its location was read to its end), so a
                       mode may reduce its lane now */
    TF_TEF_COUNTS,  /* pass 1: the figure's lanes say how many events each
                       holds in the window (an XPlane profile: its lines'
                       event counts, which tests compare with protobuf's) */
    TF_TEF_FINE,    /* pass 1: the trace's clock is finer than the ns (an
                       XPlane profile's ps): its slices' ps0 and ps1 count,
                       and the statistics are printed to the ps */
    TF_TEF_UNTIMED  /* pass 2: an event of thread (pid, tid) that has no
                       time (an XPlane aggregate, num_occurrences): counted
                       in its lane's events (TF_TEF_COUNTS), never drawn */
};

struct tf_tef_rec {
    enum tf_tef_kind kind;
    char ph;                /* the phase it came from */
    size_t idx;             /* position of its (first) event in its array */
    struct tf_id pid, tid;
    const char *name, *cat; /* decoded (pass 2; pass 1: name only) */
    int64_t ts, dur;        /* nanoseconds on the trace clock (ts/dur are us) */
    /* A clock finer than the ns (an XPlane profile's ps): the exact start
     * is ts ns + ps0 ps, the exact end ts + dur ns + ps1 ps, each in
     * [-500, 500) (ts and the end rounded to the nearest ns); 0 for the
     * other loaders.  The generic mode keeps them in its busy times when
     * the trace says so (TF_TEF_FINE). */
    int16_t ps0, ps1;
    bool has_dur;           /* a dur was given (X events without one are dropped) */
    bool open_end;          /* a B never closed: runs to the end of the trace */
    unsigned depth;         /* B/E pairs: 1 + the B's nesting depth on its thread
                               (1: outermost); 0 for every other record */
    char scope;             /* instants: 'g', 'p' or 't' */
    const char *id;         /* async / flow / counter id (with its scope), or NULL */
    char bp;                /* flow binding point: 'e' enclosing, else next */
    const char *cname;      /* reserved colour name, or NULL */
    const char *unit;       /* counters: the unit of its series, or NULL */
    /* flows given on X and B events (format v2) */
    const char *bind_id;
    bool flow_in, flow_out;
    const unsigned char *args; /* raw bytes of the "args" object, or NULL (pass 1: of
                                  M, async, counter and instant records only, and of X
                                  with args_pass1) */
    size_t args_len;
    /* args.stream when the loader knows it without the args (an export's
     * GPU rows): then the sink need not read the args for it */
    bool has_stream;
    int64_t stream;
    bool has_rgb;           /* the trace gives the event a colour of its own */
    uint32_t rgb;           /* 0xRRGGBB (an NVTX range's colour) */
    /* What HTA reads of an element (pass 1 with args_pass1; rules/hta.h):
     * the number tokens of ts and dur as written (NULL when absent, null
     * or not a number), and the JSON type of name and cat: 's' a string,
     * 'n' null, 'o' another type, 0 absent. */
    const unsigned char *ts_tok, *dur_tok;
    size_t ts_tok_len, dur_tok_len;
    char name_type, cat_type;
    /* A system trace's process tree (TF_TEF_META of process pid: a
     * "process_name" record, or "process_parent" for a process known
     * without a name): has_ppid, and the pid of the process that started
     * it.  The children of kthreadd (ppid 2), and kthreadd itself, are the
     * kernel's threads, which a system trace's figure ranks after the
     * users' (rules/chrome/system.c).  A loader that knows no tree leaves
     * has_ppid false: the rules then tell kernel threads by their names. */
    bool has_ppid;
    long long ppid;
    /* A device's "process_device" record (TF_TEF_META of process pid: an
     * XPlane profile's GPU or TPU) has args {"kind", "name", "vendor"}:
     * what --stats prints of the devices. */
};

/* The members that some element of "traceEvents" has (pass 1): the
 * columns a table of the elements would have, as HTA builds one. */
struct tf_tef_columns {
    bool ts, dur, cat, args;
    bool ts_float; /* some element's ts is absent, null, or a number with a
                      fraction or an exponent */
};

/* Where the loader sends a Chrome trace for the generic mode: every record
 * once in a first pass (index), then, once the mode has chosen its window,
 * the records that reach into it (collect).  Name records (TF_TEF_META)
 * come in the first pass; a loader that learns a name only with the events
 * (an export's unlisted GPU stream) may also send one in the second, before
 * the events it names.  All pointers in a record are valid during the call
 * only.
 *
 * Blocks.  Records come in blocks of TF_TEF_BLOCK elements:
 * tf_tef_block_of(r->idx) names a record's block.  Pass 2 revisits every block whose records' times reach
 * into the window (and others), and within a revisited block hands over
 * every counter record and every instant up to the window's end, also
 * those before its start: a mode that summarised each block in pass 1 thus
 * sees, one by one, the records of every block that holds times on both
 * sides of the window's start (the value a counter holds at the start may
 * come from long before it).  (A loader that reads selectively, such as
 * the Nsight Systems export's, sends no counter records.) */
/* Elements per block: the loader's index (load/tef.c) notes where each
 * block starts, and a mode may summarise its records per block. */
#define TF_TEF_BLOCK 1024

/* The block that element idx of the events array belongs to. */
static inline size_t tf_tef_block_of(size_t idx)
{
    return idx / TF_TEF_BLOCK;
}

struct tf_tef_sink {
    bool (*index)(void *ctx, const struct tf_tef_rec *r, struct tf_diag *d);
    /* After the first pass: the window [lo, hi] (ns); false with a message
     * when there is nothing to draw. */
    bool (*window)(void *ctx, int64_t *lo, int64_t *hi, struct tf_diag *d);
    bool (*collect)(void *ctx, const struct tf_tef_rec *r, struct tf_diag *d);
    bool (*finish)(void *ctx, struct tf_diag *d);
    /* After window(): the complete events (X) of pass 2 whose dur is below
     * this (ns) need no args if has_stream gives args.stream; a loader for
     * which args cost (an export's columns) may leave them NULL.  NULL, or
     * a value <= 0: every event needs its args. */
    int64_t (*args_floor)(void *ctx);
    /* A look at the window's complete events (X) before pass 2, for a sink
     * that needs them before it collects (the JSON reader makes one; NULL:
     * none).  prepass_on(): said before pass 1 when the reader will make it.
     * After window(), prepass_range() gives the span to look at (false:
     * none); each X event reaching into it, and each flow event of its
     * blocks, goes to prepass(), then
     * prepass_done() is called, before pass 2. */
    void (*prepass_on)(void *ctx);
    bool (*prepass_range)(void *ctx, int64_t *lo, int64_t *hi);
    bool (*prepass)(void *ctx, const struct tf_tef_rec *r, struct tf_diag *d);
    bool (*prepass_done)(void *ctx, struct tf_diag *d);
    void *ctx;
    bool args_pass1; /* index() also gets the category and args of X events,
                        and of other events that carry a numeric dur */
    struct tf_tef_columns *columns; /* filled in pass 1 when not NULL */
    /* A top-level member whose value's bytes go to top() (NULL: none). */
    const char *top_key;
    void (*top)(void *top_ctx, const unsigned char *val, size_t len);
    void *top_ctx;
    /* For a loader that can read selectively (an SQLite export is queried,
     * not read through; see load/nsys.h).  index_lean: the window does not
     * depend on the extent of every event (--window-event, or both --from
     * and --to), so index() needs only the metadata, the origin, the
     * slices named index_name (NULL: none) and, with args_pass1, the GPU
     * work.  A loader that reads the whole file anyway (JSON) hands over
     * every record regardless. */
    bool index_lean;
    const char *index_name;
    /* With index_lean and index_name a name (not a glob): the window is
     * the index_first-th earliest slice of that name, so index() needs no
     * more than the index_first earliest of each table (0: all of them). */
    size_t index_first;
    bool osrt; /* OS runtime calls too (an export's OSRT_API: --osrt) */
    /* Flow records are wanted (--flows); a loader that makes them up (an
     * export's launch -> kernel links) may leave them out when false. */
    bool flows;
    /* The --lanes globs (PATTERN or PATTERN=LABEL), for a loader that can
     * leave lanes unread (an OTF2 archive's locations); NULL: none. */
    const char *const *lanes;
    size_t n_lanes;
    /* --kernel-detail: what a kernel trace (CTF) draws under each CPU
     * besides its threads, TF_KDETAIL_* bits (0: nothing) */
    unsigned kernel_detail;
};

#define TF_KDETAIL_IRQ 1u      /* hard and soft interrupts */
#define TF_KDETAIL_SYSCALLS 2u /* system calls */

/* The category of a range where a trace's events were lost (a CTF trace's
 * discarded events): drawn hatched, never counted as busy. */
#define TF_LOST_CAT "events lost"
/* Their bars' colour (grey, hatched by the back-ends), and their legend's. */
#define TF_LOST_COLOR 0xBBBBBBu

/* --- what a loader keeps ---------------------------------------------------------- */

/* The filter or sink for each trace kind: a mode fills in the one of its
 * kind (rules/mode.h).  Zeroed members keep nothing. */
struct tf_keep {
    struct tf_timeline_filter timeline;
    struct tf_chrome_sink chrome; /* the legacy PyTorch mode */
    struct tf_tef_sink tef;       /* the generic Chrome mode */
    void *state;                  /* the mode's, freed by the mode */
};

/* --- a loaded trace ---------------------------------------------------------------- */

/* What a Chrome trace says about itself at its top level (Kineto): its
 * rank in a distributed job ("distributedInfo": {"rank", "world_size"})
 * and the origin of its clock ("baseTimeNanoseconds": Kineto writes ts
 * relative to it, a time since the epoch floored to three months).  Several
 * traces of one job go on one clock with these (run_multi.c). */
struct tf_trace_facts {
    bool has_rank, has_world_size, has_base_time;
    long long rank, world_size;
    int64_t base_time_ns;
};

struct tf_trace {
    enum tf_trace_kind kind;
    bool generic;                /* TF_TRACE_CHROME read through the tef sink */
    void *generic_state;         /* what the generic mode kept (its release() frees it) */
    struct tf_timeline timeline; /* TF_TRACE_TIMELINE */
    struct tf_pytorch pytorch;   /* TF_TRACE_CHROME, as the pytorch mode keeps it */
    struct tf_trace_facts facts; /* TF_TRACE_CHROME */
};

void tf_trace_init(struct tf_trace *t);
void tf_trace_fini(struct tf_trace *t);

/* For loaders that turn a binary format into records (Nsight Systems,
 * OTF2): hands r to the sink's callback of this pass (1: index, 2:
 * collect); a callback's failure is prefixed with `file` (out of memory
 * when it said nothing). */
bool tf_tef_emit(const struct tf_tef_sink *sink, int pass, const char *file,
                 const struct tf_tef_rec *r, struct tf_diag *d);
/* Fills *r as a metadata record `what` (process_name, thread_name) of
 * pid/tid (tid may be NULL) with args {"name": name}, written into *args;
 * false when out of memory. */
bool tf_tef_name_rec(struct tf_tef_rec *r, struct tf_buf *args, const char *what,
                     const struct tf_id *pid, const struct tf_id *tid, const char *name);

#endif
