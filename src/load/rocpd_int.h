/* rocpd_int.h - what the files of the rocpd loader share: rocpd.c (the
 * passes: each source's query, their rows merged by start, into the
 * converter), rocpd_src.c (the sources of each kind: which view, which
 * column means what), rocpd_meta.c (what a database names: agents,
 * queues, streams, processes, threads, its version, a rank's job) and
 * rocpd_rows.c (a row of a source as the converter's row).  Not for
 * other modules: load/rocpd.h is the loader's interface.
 */
#ifndef TF_LOAD_ROCPD_INT_H
#define TF_LOAD_ROCPD_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/diag.h"
#include "load/idnames.h"
#include "load/nsys_rows.h"
#include "load/rocpd.h"
#include "load/sqlite.h"
#include "model/trace.h"

/* What each source's query selects, in this order (the columns a source's
 * view lacks are left out). */
enum rcol {
    RC_START, RC_END, RC_NAME, RC_NAME_ID, RC_CAT, RC_MSG, RC_NID, RC_PID, RC_TID,
    RC_AGENT, RC_AGENT2, RC_TI, RC_TI2, RC_ATYPE, RC_ATYPE2, RC_QUEUE, RC_STREAM, RC_CORR,
    RC_GX, RC_GY, RC_GZ, RC_BX, RC_BY, RC_BZ, RC_BYTES, RC_TYPE, RC_LEVEL, RC_ADDR,
    N_RCOL
};

/* What a source's rows are. */
enum rkind {
    RK_KERNEL,   /* GPU kernels */
    RK_COPY,     /* memory copies (rocprof v1: also its fills, as memsets) */
    RK_ALLOC,    /* memory allocations */
    RK_REGION,   /* API calls, and roctx ranges (a MARKER category with a message) */
    RK_MARK,     /* roctx marks: instants */
    RK_CALL,     /* API calls only (rocprof v1's HIP and HSA tables) */
    RK_RANGE     /* roctx ranges and marks only (rocprof v1's rocTX table) */
};

/* How pass 1 finds the rows --window-event may name without reading all. */
enum rlean {
    RL_NONE,     /* none of its rows can carry the name */
    RL_NAME,     /* WHERE name = ?1 (or its message) */
    RL_KERNEL,   /* WHERE kernel_id IN (the symbols of that name), else by name */
    RL_MEMCPY    /* all of them when the name begins with "Memcpy" or "Memset" */
};

struct rsrc_def {
    const char *view;        /* the view (rocprof v1: the table) */
    enum rkind kind;
    const char *col[N_RCOL]; /* its column for each, NULL: none */
    /* an expression instead of the column, written with %s for the
     * column's quoted name (NULL: the column itself) */
    const char *expr[N_RCOL];
    const char *filter;      /* a condition on every row read, or NULL */
    /* the view of the same rows without the data view's joins (rocpd's
     * view of the one table), where pass 1 reads their times when it needs
     * nothing else (NULL: the view itself) */
    const char *times_view;
    enum rlean lean;
    /* read only when the source before it gave no row (rocprof v1's KERN
     * holds the kernels OPS holds, when it holds them) */
    bool fallback;
};

/* The kinds' sources (rocpd_src.c). */
extern const struct rsrc_def tf_rocpd_v3_srcs[];
extern const size_t tf_rocpd_v3_n_srcs;
extern const struct rsrc_def tf_rocpd_v1_srcs[];
extern const size_t tf_rocpd_v1_n_srcs;

#define RP_MAX_SRCS 8

struct rsrc {
    const struct rsrc_def *def;
    bool present;          /* the view exists, with start (and end) */
    bool times_view;       /* its times_view exists, with start and end */
    bool has[N_RCOL];
    int pos[N_RCOL];       /* place in the select list, -1: not selected */
    sqlite3_stmt *st;
    bool live;
    int64_t cur;           /* the current row's start */
    /* pass 1, when it read every row (seen_all): their extent and order */
    bool seen_all, any_row, sorted;
    int64_t max_start, min_end, last_start;
    bool any_pass2;        /* pass 2 gave a row (fallback sources look) */
};

/* An agent of rocpd_info_agent. */
struct ragent {
    int64_t nid, abs_index, type_index;
    bool gpu;
    const char *label;     /* "GPU 0", "CPU 1", "GPU 0 (node-a)" (in the arena) */
};

/* A process: its node and pid, and the pid its records carry (the pid
 * itself unless another node has a process of that pid too). */
struct rproc {
    int64_t nid, pid, rec_pid;
    const char *name;      /* its command's first word (in the arena), or NULL */
};

struct rnode {
    int64_t id;
    const char *host;      /* in the arena, or NULL */
};

/* What a process's environment says of its job (rocpd_meta.c). */
struct rjob {
    size_t n;
    bool has_rank, has_size;
    long long rank, size;
};

struct rp {
    const char *file;
    sqlite3 *db;
    enum tf_rocpd_kind kind;
    const struct tf_tef_sink *sink;
    struct tf_nsys *conv;
    char version[32];      /* rocpd_metadata's schema_version ("" when none) */
    struct rsrc src[RP_MAX_SRCS];
    size_t n_src;
    int last;              /* the source of the row given last, -1: none */
    bool pass1;
    bool by_stream;        /* lanes are HIP streams (the run used streams) */
    bool multi_node;       /* GPUs or processes of several nodes */
    struct ragent *agents;
    size_t n_agents;
    struct rproc *procs;
    size_t n_procs;
    struct rnode *nodes;
    size_t n_nodes;
    struct rjob job;
    bool pid_clash;        /* two nodes have a process of one pid */
    /* kernel_id -> its name (in the arena, valid UTF-8; rows hand over one
     * address per kernel) */
    struct tf_idnames names;
    /* categories seen, interned */
    const char **cats;
    size_t n_cats, cap_cats;
    /* (nid, address) -> the agent an allocation's free was made on */
    struct raddr { int64_t nid, addr, agent; } *addrs;
    size_t n_addrs;
    /* the lane keys labelled so far (the converter's tf_nsys_label_lane) */
    int64_t *keys;
    size_t n_keys, cap_keys;
    int64_t last_key;
    bool any_key;
    /* pass 2: each GPU lane's latest end, and the rows held back after
     * their start was moved (rocpd.c, "Back-to-back kernels") */
    struct rlast { int64_t device, lane, pid, end; } *lasts;
    size_t n_lasts, cap_lasts, last_hit;
    struct rheld { struct tf_nsys_row r; uint64_t seq; char *text; } *held;
    size_t n_held, cap_held;
    uint64_t seq;
    char *out_text;        /* the strings of the row given last from held */
    struct tf_arena arena;
    struct tf_buf sql, ids, tmp, name;
};

/* Lane keys of lanes that are no queue or stream (rocpd_rows.c). */
#define RP_LANE_COPIES INT64_C(-2)
#define RP_LANE_MEMORY INT64_C(-3)

/* rocpd_meta.c: the version, the agents, queues, streams, processes and
 * threads, and the job, to rp and the converter; before any row. */
bool tf_rocpd_describe(struct rp *p, struct tf_trace *out, struct tf_diag *d);
/* The agent of (nid, abs_index) (its index in p->agents), -1: none. */
int64_t tf_rocpd_agent(const struct rp *p, int64_t nid, int64_t abs_index);
/* An agent rocpd_info_agent does not list, as a row's view names it (its
 * type_index, its type): added and labelled; its index, -1 when out of
 * memory. */
int64_t tf_rocpd_add_agent(struct rp *p, int64_t nid, int64_t abs_index, int64_t type_index,
                           bool gpu);
/* The pid the records of (nid, pid) carry. */
int64_t tf_rocpd_pid(const struct rp *p, int64_t nid, int64_t pid);

/* rocpd_rows.c: gives lane `key` its label (from the database's names,
 * else "queue K" / "stream K"), once; false when out of memory. */
bool tf_rocpd_label(struct rp *p, int64_t key, const char *label);
/* The current row of source s as the converter's row (false on an error,
 * reported); *skip: a row that is drawn as nothing. */
bool tf_rocpd_fill(struct rp *p, struct rsrc *s, struct tf_nsys_row *r, bool *skip,
                   struct tf_diag *d);

/* The connection's error as one message naming the file and `what`. */
bool tf_rocpd_error(struct rp *p, const char *what, struct tf_diag *d);

#endif
