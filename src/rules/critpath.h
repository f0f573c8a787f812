/* critpath.h - `--critical-path`: the longest path through the graph of a
 * window's CPU operators, runtime calls and GPU work (issue 47), with the
 * graph HTA's CPGraph builds (tracefig-stats(7), CRITICAL PATH):
 *   nodes   the start and end of each CPU operator (cpu_op, cuda_runtime,
 *           cuda_driver) that starts in the window with a duration, and of
 *           each GPU row (a stream) joined by correlation id to a launch in
 *           the window;
 *   edges   an operator's span and nesting on its thread, consecutive
 *           top-level operators (weight 0), the runtime lock among
 *           cudaLaunchKernel / cudaMemcpyAsync / cudaHostAlloc, the launch
 *           delay (when the stream's queue was empty), kernel to kernel on
 *           a stream (gaps under 1.5 ms), and the synchronisations (Context
 *           Sync, Stream Sync, Event Sync, Stream Wait Event), weight 0;
 *   path    the longest path in topological order, ties broken as
 *           networkx's dag_longest_path breaks them on HTA's insertion order.
 * The collector keeps the complete events of pass 1 that the window's graph
 * may need from anywhere in the trace (64 bytes each: the runtime
 * calls, GPU rows, steps and syncs), and those of the window's own CPU
 * operators when the reader looks at the window before pass 2.
 */
#ifndef TF_CRITPATH_H
#define TF_CRITPATH_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/diag.h"
#include "model/figure.h"
#include "model/trace.h"

/* A microsecond and a thousandth, in ms: how near a bar is to its event. */
#define TF_CP_NEAR_MS 1.001e-3

struct tf_cp;

/* Whether bar b is drawn for event e of the path: its name, its start
 * within a microsecond (HTA's rounding), its length within two. */
static inline bool tf_cp_bar_is(const struct tf_bar *b, const struct tf_cp_event *e)
{
    return fabs(b->start_ms - (double)e->ts_ns / 1e6) < TF_CP_NEAR_MS &&
           fabs(b->dur_ms - (double)e->dur_ns / 1e6) < 2.001e-3 &&
           strcmp(b->name, e->name) == 0;
}

/* hta: times rounded to whole microseconds as HTA reads them. */
struct tf_cp *tf_cp_new(bool hta);
void tf_cp_free(struct tf_cp *cp);

/* With hta: the reader's account of the trace's ts column (the generic
 * mode's HTA columns, NULL: not known).  HTA rounds to whole microseconds
 * only a trace whose ts column pandas reads as floats (a fraction, an
 * exponent, or an element without one); without it every row is rounded. */
void tf_cp_columns(struct tf_cp *cp, const struct tf_tef_columns *cols);

/* Pass 1 (needs the category and args of X events); false when out of memory. */
bool tf_cp_rec(struct tf_cp *cp, const struct tf_tef_rec *r);

/* The reader's look at the window before pass 2 (model/trace.h,
 * tf_tef_sink's prepass): _on before pass 1; _range the span to look at
 * (false: none); _rec each X event there; _end after the last.  Then
 * tf_cp_run.  false when out of memory. */
void tf_cp_prepass_on(struct tf_cp *cp);
bool tf_cp_prepass_wanted(const struct tf_cp *cp);
bool tf_cp_prepass_range(struct tf_cp *cp, int64_t w0, int64_t w1, int64_t *lo, int64_t *hi);
bool tf_cp_prepass_rec(struct tf_cp *cp, const struct tf_tef_rec *r);
bool tf_cp_prepass_end(struct tf_cp *cp);

/* HTA's instances of an annotation (critpath_inst.c): _on before pass 1
 * (pattern: --window-event, kept by the caller); after it, the extent
 * (ns) of instance k (1-based) in HTA's order, false when there are fewer
 * (*n_found: how many) or on running out of memory (*oom). */
void tf_cp_instances_on(struct tf_cp *cp, const char *pattern);
bool tf_cp_instance(struct tf_cp *cp, size_t k, int64_t *t0, int64_t *t1, size_t *n_found,
                    bool *oom);

/* The path of the window [w0, w1] (ns).  False with one line when the
 * window has no launch joined to a kernel. */
bool tf_cp_run(struct tf_cp *cp, int64_t w0, int64_t w1, struct tf_diag *d);

/* The path's nodes after tf_cp_run (0 before): node k's event, its start
 * and end (ns, trace clock, as the path reads them) and name.  An event
 * is met once or twice (its start and its end). */
size_t tf_cp_path_nodes(const struct tf_cp *cp);
void tf_cp_path_node(const struct tf_cp *cp, size_t k, int64_t *ts, int64_t *end,
                     const char **name);

/* f->stats.critical from the path; false when out of memory. */
bool tf_cp_fill(const struct tf_cp *cp, struct tf_figure *f, int64_t w0);

/* --- the graph (critpath_graph.c) ---------------------------------------------- */

enum tf_cp_etype {
    TF_CPE_OPERATOR = 0,   /* an operator's or kernel's own time */
    TF_CPE_DEPENDENCY,     /* nesting, consecutive operators (weight 0) */
    TF_CPE_LAUNCH,         /* runtime call -> its kernel */
    TF_CPE_KERNEL_KERNEL,  /* kernel -> next kernel on a stream */
    TF_CPE_SYNC,           /* synchronisation (weight 0) */
};

struct tf_cpg_edge {
    uint32_t from, to;     /* nodes */
    int64_t weight;        /* as made (HTA's CPEdge.weight) */
    int64_t w;             /* as the path sees it (negative -> 0) */
    int64_t attr;          /* the event the time is charged to, -1 none */
    unsigned char type;
    uint32_t next_in, next_out; /* the lists, in insertion order */
};

struct tf_cpg {
    size_t n_nodes;
    uint32_t *first_in, *last_in, *first_out, *last_out; /* UINT32_MAX: none */
    uint32_t *order;       /* the nodes in insertion order */
    size_t n_order;
    bool *inserted;
    struct tf_cpg_edge *e;
    size_t n_e, cap_e;
    uint32_t *path;        /* the longest path's nodes */
    size_t n_path;
};

bool tf_cpg_init(struct tf_cpg *g, size_t n_nodes);
void tf_cpg_fini(struct tf_cpg *g);
/* networkx's add_edge: an edge already there keeps its place and takes the
 * new weight and type.  Returns the edge's index (UINT32_MAX: out of memory). */
uint32_t tf_cpg_add(struct tf_cpg *g, uint32_t u, uint32_t v, unsigned char type, int64_t weight);
/* The edge u -> v, or UINT32_MAX. */
uint32_t tf_cpg_find(const struct tf_cpg *g, uint32_t u, uint32_t v);
/* dag_longest_path into g->path; false when out of memory or on a cycle. */
bool tf_cpg_longest(struct tf_cpg *g);

#endif
