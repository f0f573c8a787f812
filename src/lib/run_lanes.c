/* run_lanes.c - the lanes of each rank that say most, when a job's ranks
 * drawn with every lane are more than the figure's height holds and one
 * lane a rank (the overview) would say too little (see run_multi_int.h).
 *
 * IMPLEMENTATION NOTES
 *
 * Roles.  Each of a rank's lanes of slices (not its counters) has a role:
 * its main thread (the thread lane with the step annotation,
 * "ProfilerStep#N", else the one whose tid is its pid, the busiest of
 * those), a GPU compute stream, a GPU communication stream (a GPU lane
 * whose busy time is mostly communication kernels, rules/kernels.h), or
 * another thread; within a role the busiest first.  Busy: the drawn
 * extent of the lane's first work row (below its annotations of GPU work),
 * which nested slices cannot count twice.
 *
 * Slots.  A slot is a role and a place in it ("the second busiest compute
 * stream"), the same for every rank.  The first k slots, in the order that
 * says most: the main thread, the busiest compute stream, the busiest
 * communication stream, the other compute streams, the other
 * communication streams, the other threads.  A rank draws its lanes of
 * the first k slots (fewer when it has no lane in one), in the order of
 * the figure: main thread, threads, compute streams, communication
 * streams.  run_multi.c takes the largest k whose figure the plan draws
 * whole (no lane cut at the least row height).
 */
#include "lib/run_multi_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "rules/kernels.h"

void tf_lanes_fini(struct roles *r)
{
    for (int k = 0; k < TF_ROLES; k++)
        free(r->lane[k]);
    memset(r, 0, sizeof *r);
}

static bool is_gpu(const struct tf_lane *l)
{
    return (l->group && strncmp(l->group, "GPU", 3) == 0) ||
           (l->label && strncmp(l->label, "GPU ", 4) == 0);
}

static bool same_id(const struct tf_id *a, const struct tf_id *b)
{
    if (a->kind != b->kind || a->kind == TF_ID_NONE)
        return false;
    return a->kind == TF_ID_NUM ? a->num == b->num : strcmp(a->str, b->str) == 0;
}

/* What one lane holds: its busy time, its communication kernels' share of
 * it, whether it has the step annotation. */
struct lane_facts {
    double busy, comm;
    bool step;
};

static void facts_of(const struct tf_figure *f, struct lane_facts *lf)
{
    for (size_t i = 0; i < f->n_bars; i++) {
        const struct tf_bar *b = &f->bars[i];
        if (b->lane >= f->n_lanes || b->shape == TF_SHAPE_INSTANT)
            continue;
        const struct tf_lane *ln = &f->lanes[b->lane];
        unsigned rows = ln->rows ? ln->rows : 1;
        unsigned r0 = ln->annot_rows > 0 && ln->annot_rows < rows ? ln->annot_rows : 0;
        struct lane_facts *x = &lf[b->lane];
        if (b->name && strncmp(b->name, "ProfilerStep#", 13) == 0 && !is_gpu(ln))
            x->step = true;
        if (b->row != r0)
            continue;
        double x0, x1;
        tf_bar_drawn_extent(f, b, &x0, &x1);
        double t = b->shape == TF_SHAPE_SLICE ? x1 - x0 : b->busy;
        x->busy += t;
        if (b->name && tf_kernel_is_comm(b->name))
            x->comm += t;
    }
}

/* A lane and its busy time, to sort a role's lanes busiest first (ties:
 * the figure's order). */
struct by {
    size_t lane;
    double busy;
};

static int by_busy(const void *x, const void *y)
{
    const struct by *a = x, *b = y;
    if (a->busy != b->busy)
        return a->busy > b->busy ? -1 : 1;
    return (a->lane > b->lane) - (a->lane < b->lane);
}

static bool roles_of(const struct tf_figure *f, struct roles *r)
{
    memset(r, 0, sizeof *r);
    r->n_lanes = f->n_lanes;
    struct lane_facts *lf = calloc(f->n_lanes ? f->n_lanes : 1, sizeof *lf);
    for (int k = 0; lf && k < TF_ROLES; k++)
        r->lane[k] = malloc((f->n_lanes ? f->n_lanes : 1) * sizeof *r->lane[k]);
    bool ok = lf && r->lane[TF_ROLE_MAIN] && r->lane[TF_ROLE_THREAD] &&
              r->lane[TF_ROLE_COMPUTE] && r->lane[TF_ROLE_COMM];
    if (!ok) {
        free(lf);
        tf_lanes_fini(r);
        return false;
    }
    facts_of(f, lf);
    /* The main thread: the step annotation's, else tid = pid; the busiest. */
    size_t main = SIZE_MAX;
    for (int pass = 0; pass < 2 && main == SIZE_MAX; pass++)
        for (size_t i = 0; i < f->n_lanes; i++) {
            const struct tf_lane *l = &f->lanes[i];
            if (l->kind == TF_LANE_COUNTER || is_gpu(l))
                continue;
            bool is = pass == 0 ? lf[i].step : same_id(&l->pid, &l->tid);
            if (is && (main == SIZE_MAX || lf[i].busy > lf[main].busy))
                main = i;
        }
    for (size_t i = 0; i < f->n_lanes; i++) {
        const struct tf_lane *l = &f->lanes[i];
        if (l->kind == TF_LANE_COUNTER)
            continue;
        int k = i == main           ? TF_ROLE_MAIN
                : !is_gpu(l)        ? TF_ROLE_THREAD
                : 2 * lf[i].comm > lf[i].busy ? TF_ROLE_COMM
                                              : TF_ROLE_COMPUTE;
        r->lane[k][r->n[k]++] = i;
    }
    struct by *v = malloc((f->n_lanes ? f->n_lanes : 1) * sizeof *v);
    for (int k = 0; v && k < TF_ROLES; k++) {
        for (size_t j = 0; j < r->n[k]; j++)
            v[j] = (struct by){r->lane[k][j], lf[r->lane[k][j]].busy};
        qsort(v, r->n[k], sizeof *v, by_busy);
        for (size_t j = 0; j < r->n[k]; j++)
            r->lane[k][j] = v[j].lane;
    }
    free(lf);
    if (!v) {
        tf_lanes_fini(r);
        return false;
    }
    free(v);
    return true;
}

bool tf_lanes_roles(struct multi *m)
{
    memset(m->most, 0, sizeof m->most);
    m->most_lanes_of_rank = 0;
    for (size_t i = 0; i < m->n_u; i++) {
        struct unit *u = m->u[i];
        tf_lanes_fini(&u->roles);
        if (!roles_of(&u->fig, &u->roles))
            return false;
        for (int k = 0; k < TF_ROLES; k++)
            if (u->roles.n[k] > m->most[k])
                m->most[k] = u->roles.n[k];
        size_t n = 0;
        for (int k = 0; k < TF_ROLES; k++)
            n += u->roles.n[k];
        if (n > m->most_lanes_of_rank)
            m->most_lanes_of_rank = n;
    }
    return true;
}

/* The slots in the order that says most: slot s is role *kind, place *at. */
static bool slot_at(const struct multi *m, size_t s, int *kind, size_t *at)
{
    const size_t *n = m->most;
    static const int first[] = {TF_ROLE_MAIN, TF_ROLE_COMPUTE, TF_ROLE_COMM};
    for (size_t i = 0; i < 3; i++) {
        if (n[first[i]] == 0)
            continue;
        if (s == 0) {
            *kind = first[i];
            *at = 0;
            return true;
        }
        s--;
    }
    static const int rest[] = {TF_ROLE_COMPUTE, TF_ROLE_COMM, TF_ROLE_THREAD};
    for (size_t i = 0; i < 3; i++) {
        size_t skip = rest[i] == TF_ROLE_THREAD ? 0 : 1;
        size_t more = n[rest[i]] > skip ? n[rest[i]] - skip : 0;
        if (s < more) {
            *kind = rest[i];
            *at = s + skip;
            return true;
        }
        s -= more;
    }
    return false;
}

size_t tf_lanes_slots(const struct multi *m)
{
    size_t n = 0;
    for (int k = 0; k < TF_ROLES; k++)
        n += m->most[k];
    return n;
}

/* How many places of each role the first k slots take. */
static void taken(const struct multi *m, size_t k, size_t *per)
{
    memset(per, 0, TF_ROLES * sizeof *per);
    for (size_t s = 0; s < k; s++) {
        int kind;
        size_t at;
        if (slot_at(m, s, &kind, &at) && at + 1 > per[kind])
            per[kind] = at + 1;
    }
}

size_t tf_lanes_pick(const struct multi *m, const struct unit *u, size_t k, size_t *out)
{
    size_t per[TF_ROLES], n = 0;
    taken(m, k, per);
    /* The figure's order: main thread, threads, compute, communication. */
    for (int kind = 0; kind < TF_ROLES; kind++)
        for (size_t j = 0; j < per[kind] && j < u->roles.n[kind]; j++)
            out[n++] = u->roles.lane[kind][j];
    return n;
}

/* "its 2 busiest NOUNs" or "its busiest NOUN". */
static void part(struct tf_buf *b, size_t n, const char *one, const char *many, bool *first,
                 bool last)
{
    if (!n)
        return;
    tf_buf_puts(b, *first ? "" : last ? " and " : ", ");
    *first = false;
    if (n == 1)
        tf_buf_printf(b, "its %s", one);
    else
        tf_buf_printf(b, "its %zu %s", n, many);
}

bool tf_lanes_note(const struct multi *m, size_t k, struct tf_figure *f)
{
    size_t per[TF_ROLES];
    taken(m, k, per);
    int last = -1;
    for (int kind = 0; kind < TF_ROLES; kind++)
        if (per[kind])
            last = kind;
    struct tf_buf b;
    tf_buf_init(&b);
    size_t lanes = 0;
    for (int kind = 0; kind < TF_ROLES; kind++)
        lanes += per[kind];
    tf_buf_printf(&b, "each rank draws %zu of its lanes (of up to %zu), the same for every "
                      "rank: ", lanes, m->most_lanes_of_rank);
    bool first = true;
    if (per[TF_ROLE_MAIN])
        part(&b, 1, "main thread (with its steps)", "", &first, last == TF_ROLE_MAIN);
    part(&b, per[TF_ROLE_THREAD], "busiest other thread", "busiest other threads", &first,
         last == TF_ROLE_THREAD);
    part(&b, per[TF_ROLE_COMPUTE], "busiest GPU compute stream", "busiest GPU compute streams",
         &first, last == TF_ROLE_COMPUTE);
    part(&b, per[TF_ROLE_COMM], "busiest communication stream", "busiest communication streams",
         &first, last == TF_ROLE_COMM);
    tf_buf_puts(&b, " (--height draws more, --ranks fewer ranks)");
    bool ok = !b.oom && tf_figure_add_note(f, b.data);
    tf_buf_fini(&b);
    return ok;
}
