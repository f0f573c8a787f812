/* rocpd.c - rocpd databases and rocprof (v1)'s results.db through
 * libsqlite3; see rocpd.h.
 *
 * IMPLEMENTATION NOTES
 *
 * Sources.  Each kind of database is a list of sources (rocpd_src.c): a
 * view and the columns that give a row's times, names, ids.  A view is
 * read with one SELECT of those columns it has (PRAGMA table_info), so a
 * schema version that lacks one reads it as NULL, and a version whose view
 * lacks the times is named in the message.
 *
 * Passes, as for an Nsight export (nsys.c).  Pass 1 gives the sink's index
 * what it needs: only the times when nothing else is asked, from the
 * view of each table (rocpd_kernel_dispatch, ...: the same rows, in the
 * same order, without the data view's eight joins a row, which cost six
 * times the scan); for --window-event (index_lean) only the rows named
 * index_name (a kernel's name through the ids rocpd_info_kernel_symbol
 * has for it, which the view can test before its joins); else every row.
 * --from/--to are not lean as for an export: they count from the first
 * drawable event, which only every row's time tells.  Pass 2 asks each view for the window
 * (start <= hi AND end >= lo: SQLite tests that before the view's joins,
 * so a small window of a large database is one scan, the joins made only
 * for its rows).  The statements of all sources run side by side, their
 * rows merged by start.  rocprofv3 writes rows in the order its buffers
 * gave them (an API call when it returned), not by start: a source whose
 * rows pass 1 did not see all in start order is read ORDER BY start in
 * pass 2 (SQLite sorts the window's rows, in its page cache and temporary
 * files), so that the sink always gets every source in order.
 *
 * Back-to-back kernels.  rocprofiler's timestamps of two dispatches on one
 * queue can overlap by a few nanoseconds (the next one starts before the
 * last one ends); drawn as they are, the second would take a row of its
 * own, as if nested.  In pass 2 a GPU row that starts at most CLIP_NS (and
 * less than half its duration) before the latest end on its lane starts
 * at that end.  Its start having moved, it is held back (a small heap,
 * in start order) until every source's next row starts after it, so the
 * sink still gets every row in start order; only rows within CLIP_NS of
 * the sources' front are ever held.
 */
#include "load/rocpd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/nsys_pipe.h"
#include "load/rocpd_int.h"

#define sq tf_sq

bool tf_rocpd_error(struct rp *p, const char *what, struct tf_diag *d)
{
    /* another version's views, in SQLite's words ("no such function") */
    if (p->kind == TF_ROCPD_V3 && p->version[0] && p->version[0] != '3' &&
        tf_sq.sqlite3_errcode(p->db) == SQLITE_ERROR)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: rocpd schema version %s: %s cannot be read: %s (tracefig "
                             "reads version 3)",
                             p->file, p->version, what, tf_sq.sqlite3_errmsg(p->db));
    return tf_sq_error(p->db, p->file, what, d);
}

/* --- which database ----------------------------------------------------------------- */

static bool any_row(sqlite3 *db, const char *file, const char *sql, bool *yes, struct tf_diag *d)
{
    sqlite3_stmt *st;
    if (!tf_sq_prepare(db, file, sql, &st, "the schema", d))
        return false;
    bool ok = tf_sq_step(db, file, st, yes, "the schema", d);
    sq.sqlite3_finalize(st);
    return ok;
}

/* rocprof (v1)'s tables (as its tblextr.py names them): one with BeginNs
 * and EndNs makes a results.db. */
static const char *const v1_tables[] = {"OPS", "KERN", "HIP", "HSA", "COPY", "rocTX"};

bool tf_rocpd_kind_of(sqlite3 *db, const char *file, enum tf_rocpd_kind *kind,
                      struct tf_diag *d)
{
    *kind = TF_ROCPD_NONE;
    bool meta, rpd, suffixed;
    if (!any_row(db, file,
                 "SELECT 1 FROM sqlite_master WHERE name = 'rocpd_metadata' COLLATE NOCASE",
                 &meta, d))
        return false;
    if (meta) {
        /* rocmProfileData's RPD tracer wrote rocpd_metadata too (schema
         * version 2), over tables of its own */
        if (!any_row(db, file,
                     "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name IN "
                     "('rocpd_op', 'rocpd_api') COLLATE NOCASE",
                     &rpd, d))
            return false;
        if (rpd)
            return tf_diag_error(d, TF_EBADINPUT,
                                 "%s: a trace of rocmProfileData's RPD tracer (rocpd schema "
                                 "version 2: tables rocpd_op and rocpd_api), not rocprofv3's "
                                 "rocpd: convert it with its rpd2tracing.py, and draw the JSON",
                                 file);
        *kind = TF_ROCPD_V3;
        return true;
    }
    if (!any_row(db, file,
                 "SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                 "name LIKE 'rocpd\\_metadata\\_%' ESCAPE '\\'",
                 &suffixed, d))
        return false;
    if (suffixed)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: a rocpd database without its views (tables "
                             "rocpd_<name>_<uuid>, but no view rocpd_metadata, kernels, "
                             "regions, ...): tracefig reads rocpd through its views",
                             file);
    for (size_t i = 0; i < sizeof v1_tables / sizeof v1_tables[0]; i++) {
        bool yes;
        static const char *const cols[] = {"BeginNs", "EndNs"};
        bool has[2];
        if (!tf_sq_exists(db, file, "table", v1_tables[i], &yes, d))
            return false;
        if (!yes)
            continue;
        if (!tf_sq_columns(db, file, v1_tables[i], cols, 2, has, d))
            return false;
        if (has[0] && has[1]) {
            *kind = TF_ROCPD_ROCPROF1;
            return true;
        }
    }
    return true;
}

/* --- queries ------------------------------------------------------------------------ */

/* The SQL of column c of source s: its expression with the quoted column
 * in place of each %s, or the quoted column. */
static void put_col(struct tf_buf *b, const struct rsrc_def *def, enum rcol c)
{
    const char *e = def->expr[c];
    if (!e) {
        tf_buf_printf(b, "\"%s\"", def->col[c]);
        return;
    }
    for (; *e; e++) {
        if (e[0] == '%' && e[1] == 's') {
            tf_buf_printf(b, "\"%s\"", def->col[c]);
            e++;
        } else if (e[0] == '%' && e[1] == '%') {
            tf_buf_putc(b, '%');
            e++;
        } else {
            tf_buf_putc(b, *e);
        }
    }
}

/* Whether the source can select column c: the view has it, or it is a
 * constant; a marker's message needs the category beside it. */
static bool can_select(const struct rsrc *s, enum rcol c)
{
    const struct rsrc_def *def = s->def;
    if (!def->col[c])
        return def->expr[c] != NULL;
    if (!s->has[c])
        return false;
    return c != RC_MSG || !def->expr[c] || !strstr(def->expr[c], "category") || s->has[RC_CAT];
}

/* SELECT ... FROM view: the times only (from its times_view when it has
 * one), or every column it can. */
static void select_list(struct rp *p, struct rsrc *s, bool times)
{
    tf_buf_puts(&p->sql, "SELECT ");
    int k = 0;
    for (int c = 0; c < N_RCOL; c++) {
        s->pos[c] = -1;
        if (!can_select(s, (enum rcol)c) || (times && c != RC_START && c != RC_END))
            continue;
        if (k)
            tf_buf_puts(&p->sql, ", ");
        put_col(&p->sql, s->def, (enum rcol)c);
        s->pos[c] = k++;
    }
    if (times && s->times_view)
        tf_buf_printf(&p->sql, " FROM \"%s\" WHERE 1", s->def->times_view);
    else
        tf_buf_printf(&p->sql, " FROM \"%s\" WHERE (%s)", s->def->view,
                      s->def->filter ? s->def->filter : "1");
}

static bool prepare(struct rp *p, struct rsrc *s, struct tf_diag *d)
{
    if (p->sql.oom)
        return tf_diag_oom(d, p->file);
    char what[96];
    snprintf(what, sizeof what, "the %s %s", p->kind == TF_ROCPD_V3 ? "view" : "table",
             s->def->view);
    if (sq.sqlite3_prepare_v2(p->db, p->sql.data, -1, &s->st, NULL) != SQLITE_OK) {
        sq.sqlite3_finalize(s->st);
        s->st = NULL;
        return tf_rocpd_error(p, what, d);
    }
    return true;
}

/* --- the merge of the sources' rows ---------------------------------------------------- */

#define CLIP_NS INT64_C(1000)

/* The latest end on row r's lane so far (pass 2, GPU rows), updated by r. */
static int64_t *lane_end(struct rp *p, const struct tf_nsys_row *r, bool *fresh)
{
    int64_t lane = r->has_lane ? r->lane : r->stream, pid = r->has_ids ? r->pid : -1;
    *fresh = false;
    if (p->n_lasts) {
        struct rlast *l = &p->lasts[p->last_hit];
        if (l->device == r->device && l->lane == lane && l->pid == pid)
            return &l->end;
    }
    for (size_t i = 0; i < p->n_lasts; i++) {
        struct rlast *l = &p->lasts[i];
        if (l->device == r->device && l->lane == lane && l->pid == pid) {
            p->last_hit = i;
            return &l->end;
        }
    }
    if (!TF_GROW(p->lasts, p->n_lasts, p->cap_lasts))
        return NULL;
    p->lasts[p->n_lasts] = (struct rlast){r->device, lane, pid, INT64_MIN};
    p->last_hit = p->n_lasts++;
    *fresh = true;
    return &p->lasts[p->last_hit].end;
}

/* Moves a GPU row's start to its lane's latest end when they overlap by
 * a hair; *moved: it did. */
static bool clip(struct rp *p, struct tf_nsys_row *r, bool *moved, struct tf_diag *d)
{
    *moved = false;
    if (r->table != TF_NSYS_KERNEL && r->table != TF_NSYS_MEMCPY && r->table != TF_NSYS_MEMSET)
        return true;
    bool fresh;
    int64_t *end = lane_end(p, r, &fresh);
    if (!end)
        return tf_diag_oom(d, p->file);
    if (!r->has_end)
        return true;
    if (!fresh && *end > r->start && *end < r->end && *end - r->start <= CLIP_NS &&
        (*end - r->start) * 2 < r->end - r->start) {
        r->start = *end;
        *moved = true;
    }
    if (r->end > *end)
        *end = r->end;
    return true;
}

static bool held_before(const struct rheld *a, const struct rheld *b)
{
    return a->r.start < b->r.start || (a->r.start == b->r.start && a->seq < b->seq);
}

/* Holds row r back (its strings copied: they die at the source's next
 * step). */
static bool hold(struct rp *p, const struct tf_nsys_row *r, struct tf_diag *d)
{
    if (!TF_GROW(p->held, p->n_held, p->cap_held))
        return tf_diag_oom(d, p->file);
    struct rheld h = {*r, p->seq++, NULL};
    size_t n0 = !r->clean_names && r->name ? strlen(r->name) + 1 : 0;
    size_t n1 = !r->clean_names && r->short_name ? strlen(r->short_name) + 1 : 0;
    if (n0 + n1) {
        if (!(h.text = malloc(n0 + n1)))
            return tf_diag_oom(d, p->file);
        if (n0) {
            memcpy(h.text, r->name, n0);
            h.r.name = h.text;
        }
        if (n1) {
            memcpy(h.text + n0, r->short_name, n1);
            h.r.short_name = h.text + n0;
        }
    }
    size_t i = p->n_held++;
    p->held[i] = h;
    while (i > 0 && held_before(&p->held[i], &p->held[(i - 1) / 2])) {
        struct rheld t = p->held[i];
        p->held[i] = p->held[(i - 1) / 2];
        p->held[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
    return true;
}

/* The held row of least start, into *r (its strings valid until the next
 * row is asked for). */
static void unhold(struct rp *p, struct tf_nsys_row *r)
{
    *r = p->held[0].r;
    p->out_text = p->held[0].text;
    p->held[0] = p->held[--p->n_held];
    for (size_t i = 0;;) {
        size_t l = 2 * i + 1, k = l + 1, m = i;
        if (l < p->n_held && held_before(&p->held[l], &p->held[m]))
            m = l;
        if (k < p->n_held && held_before(&p->held[k], &p->held[m]))
            m = k;
        if (m == i)
            break;
        struct rheld t = p->held[i];
        p->held[i] = p->held[m];
        p->held[m] = t;
        i = m;
    }
}

static bool step(struct rp *p, struct rsrc *s, struct tf_diag *d)
{
    if (!tf_sq_step(p->db, p->file, s->st, &s->live, s->def->view, d))
        return false;
    if (s->live)
        s->cur = sq.sqlite3_column_int64(s->st, s->pos[RC_START]);
    return true;
}

/* Pass 1: the extent and order of every row read. */
static void note_row(struct rsrc *s, const struct tf_nsys_row *r)
{
    if (s->any_row && r->start < s->last_start)
        s->sorted = false;
    s->last_start = r->start;
    if (!s->any_row || r->start > s->max_start)
        s->max_start = r->start;
    int64_t end = r->has_end ? r->end : r->start;
    if (!s->any_row || end < s->min_end)
        s->min_end = end;
    s->any_row = true;
}

/* The reader of the merge (nsys_pipe.h): steps the source whose row was
 * given last, then gives the row of least start of all sources. */
static bool next_row(void *ctx, struct tf_nsys_row *r, bool *any, struct tf_diag *d)
{
    struct rp *p = ctx;
    free(p->out_text);
    p->out_text = NULL;
    for (;;) {
        *any = false;
        if (p->last >= 0 && !step(p, &p->src[p->last], d))
            return false;
        p->last = -1;
        int best = -1;
        for (size_t i = 0; i < p->n_src; i++)
            if (p->src[i].st && p->src[i].live && (best < 0 || p->src[i].cur < p->src[best].cur))
                best = (int)i;
        /* a held row that no source's next row precedes goes first */
        if (p->n_held && (best < 0 || p->held[0].r.start <= p->src[best].cur)) {
            unhold(p, r);
            *any = true;
            return true;
        }
        if (best < 0)
            return true;
        struct rsrc *s = &p->src[best];
        bool skip, moved = false;
        if (!tf_rocpd_fill(p, s, r, &skip, d))
            return false;
        p->last = best;
        if (p->pass1)
            note_row(s, r);
        else
            s->any_pass2 = true;
        if (skip)
            continue;
        if (!p->pass1 && !clip(p, r, &moved, d))
            return false;
        if (moved) {
            if (!hold(p, r, d))
                return false;
            continue;
        }
        *any = true;
        return true;
    }
}

static void free_held(struct rp *p)
{
    for (size_t i = 0; i < p->n_held; i++)
        free(p->held[i].text);
    p->n_held = 0;
    free(p->out_text);
    p->out_text = NULL;
}

static bool take_row(void *ctx, const struct tf_nsys_row *r, struct tf_diag *d)
{
    return tf_nsys_row(ctx, r, d);
}

/* Runs the statements prepared in p->src[].st, their rows merged by start,
 * into the converter; finalizes them. */
static bool run_merged(struct rp *p, struct tf_diag *d)
{
    bool ok = true;
    for (size_t i = 0; ok && i < p->n_src; i++)
        if (p->src[i].st)
            ok = step(p, &p->src[i], d);
    p->last = -1;
    ok = ok && tf_nsys_pipe_run(tf_nsys_pipe_wanted(), p->file, next_row, p, take_row, p->conv, d);
    for (size_t i = 0; i < p->n_src; i++) {
        sq.sqlite3_finalize(p->src[i].st);
        p->src[i].st = NULL;
        p->src[i].live = false;
    }
    free_held(p);
    return ok;
}

/* --- the passes ------------------------------------------------------------------------- */

/* The ids rocpd_info_kernel_symbol has for kernels named `name`, as "1, 2"
 * in p->ids (empty when none); false with *none when it cannot say. */
static bool kernel_ids(struct rp *p, const char *name, bool *usable, struct tf_diag *d)
{
    tf_buf_clear(&p->ids);
    *usable = false;
    bool yes;
    if (!tf_sq_exists(p->db, p->file, "view", "rocpd_info_kernel_symbol", &yes, d))
        return false;
    sqlite3_stmt *st;
    if (!yes || sq.sqlite3_prepare_v2(p->db,
                                      "SELECT id FROM rocpd_info_kernel_symbol "
                                      "WHERE display_name = ?1 ORDER BY id",
                                      -1, &st, NULL) != SQLITE_OK) {
        if (yes)
            sq.sqlite3_finalize(st);
        return true;
    }
    sq.sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    bool row, ok;
    while ((ok = tf_sq_step(p->db, p->file, st, &row, "rocpd_info_kernel_symbol", d)) && row)
        tf_buf_printf(&p->ids, "%s%lld", p->ids.len ? ", " : "",
                      (long long)sq.sqlite3_column_int64(st, 0));
    sq.sqlite3_finalize(st);
    *usable = ok;
    return ok && (!p->ids.oom || tf_diag_oom(d, p->file));
}

/* Up to this many occurrences are looked up by id (first_kernels). */
#define FIRST_MAX 100000

/* The kernels of those ids (p->ids) that pass 1 needs when the window is
 * the K-th earliest (index_first): "id IN (the K earliest, by the view of
 * their table, which has no joins)", in p->tmp, so that only K rows go
 * through the data view's joins; empty when the two views disagree on
 * them (the data view drops a row its joins miss): then every row of the
 * name is read. */
static bool first_kernels(struct rp *p, const struct rsrc *s, size_t k, struct tf_diag *d)
{
    tf_buf_clear(&p->tmp);
    if (!k || k > FIRST_MAX || !s->times_view)
        return true;
    static const char *const cols[] = {"id", "kernel_id"};
    bool has[2], has_id;
    if (!tf_sq_columns(p->db, p->file, s->def->times_view, cols, 2, has, d) ||
        !tf_sq_columns(p->db, p->file, s->def->view, cols, 1, &has_id, d))
        return false;
    if (!has[0] || !has[1] || !has_id)
        return true;
    struct tf_buf q;
    tf_buf_init(&q);
    tf_buf_printf(&q, "SELECT \"id\" FROM \"%s\" WHERE \"kernel_id\" IN (%s) ORDER BY \"%s\" "
                      "LIMIT %zu",
                  s->def->times_view, p->ids.data, s->def->col[RC_START], k);
    sqlite3_stmt *st = NULL;
    bool ok = q.oom ? tf_diag_oom(d, p->file)
                    : tf_sq_prepare(p->db, p->file, q.data, &st, s->def->times_view, d);
    bool row;
    size_t n = 0;
    tf_buf_puts(&p->tmp, "\"id\" IN (");
    while (ok && (ok = tf_sq_step(p->db, p->file, st, &row, s->def->times_view, d)) && row)
        tf_buf_printf(&p->tmp, "%s%lld", n++ ? ", " : "",
                      (long long)sq.sqlite3_column_int64(st, 0));
    tf_buf_putc(&p->tmp, ')');
    sq.sqlite3_finalize(st);
    st = NULL;
    /* the data view keeps them all? */
    tf_buf_clear(&q);
    tf_buf_printf(&q, "SELECT count(*) FROM \"%s\" WHERE %s", s->def->view,
                  p->tmp.data ? p->tmp.data : "");
    if (ok && (q.oom || p->tmp.oom))
        ok = tf_diag_oom(d, p->file);
    ok = ok && tf_sq_prepare(p->db, p->file, q.data, &st, s->def->view, d) &&
         tf_sq_step(p->db, p->file, st, &row, s->def->view, d);
    bool same = ok && row && sq.sqlite3_column_int64(st, 0) == (int64_t)n;
    sq.sqlite3_finalize(st);
    tf_buf_fini(&q);
    if (!same)
        tf_buf_clear(&p->tmp);
    return ok;
}

/* Pass 1: what the sink's index needs (lean: only the rows named
 * index_name). */
static bool pass1_rows(struct rp *p, bool lean, struct tf_diag *d)
{
    const struct tf_tef_sink *k = p->sink;
    const char *name = lean ? k->index_name : NULL;
    bool times = !k->index_name && !k->args_pass1;
    bool ok = true;
    for (size_t i = 0; ok && i < p->n_src; i++) {
        struct rsrc *s = &p->src[i];
        if (!s->present)
            continue;
        tf_buf_clear(&p->sql);
        select_list(p, s, times);
        const struct rsrc_def *def = s->def;
        bool gpu = def->kind == RK_KERNEL || def->kind == RK_COPY;
        bool all = !lean || (gpu && k->args_pass1);
        bool bind = false;
        if (!all) {
            /* only the rows that may carry the name */
            enum rlean how = def->lean;
            bool usable = false;
            if (how == RL_KERNEL && s->has[RC_NAME_ID] &&
                !kernel_ids(p, name ? name : "", &usable, d))
                return false;
            if (how == RL_KERNEL && usable) {
                if (!p->ids.len || !name)
                    continue;
                if (!first_kernels(p, s, k->index_first, d))
                    return false;
                if (p->tmp.len)
                    tf_buf_printf(&p->sql, " AND %s", p->tmp.data);
                else
                    tf_buf_printf(&p->sql, " AND \"%s\" IN (%s)", def->col[RC_NAME_ID],
                                  p->ids.data);
            } else if ((how == RL_KERNEL || how == RL_NAME) && name &&
                       can_select(s, RC_NAME)) {
                tf_buf_puts(&p->sql, " AND ((");
                put_col(&p->sql, def, RC_NAME);
                tf_buf_puts(&p->sql, ") = ?1");
                if (can_select(s, RC_MSG)) {
                    tf_buf_puts(&p->sql, " OR (");
                    put_col(&p->sql, def, RC_MSG);
                    tf_buf_puts(&p->sql, ") = ?1");
                }
                tf_buf_putc(&p->sql, ')');
                bind = true;
            } else if (!(how == RL_MEMCPY && name &&
                         (strncmp(name, "Memcpy", 6) == 0 || strncmp(name, "Memset", 6) == 0))) {
                continue;
            }
        }
        s->seen_all = all;
        s->sorted = true;
        ok = prepare(p, s, d);
        if (ok && bind)
            sq.sqlite3_bind_text(s->st, 1, name, -1, SQLITE_STATIC);
    }
    p->pass1 = true;
    ok = ok && run_merged(p, d);
    p->pass1 = false;
    return ok;
}

/* Whether pass 1 read a row of any source. */
static bool any_rows(const struct rp *p)
{
    for (size_t i = 0; i < p->n_src; i++)
        if (p->src[i].any_row)
            return true;
    return false;
}

static bool pass1(struct rp *p, struct tf_diag *d)
{
    const struct tf_tef_sink *k = p->sink;
    /* Lean only for --window-event: --from and --to count from the first
     * drawable event, which only every row's time tells (no origin at 0). */
    bool lean = k->index_lean && k->index_name;
    bool ok = pass1_rows(p, lean, d);
    /* Nothing of that name: every row, for the names the message offers
     * instead (the index has had none yet). */
    if (ok && lean && !any_rows(p))
        ok = pass1_rows(p, false, d);
    if (ok && !any_rows(p))
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: %s with nothing to draw (no kernels, memory copies, "
                             "allocations, API calls or markers)",
                             p->file,
                             p->kind == TF_ROCPD_V3 ? "a rocpd database" : "a rocprof results.db");
    return ok;
}

/* Whether every row of source s is in the window [lo, hi], by what pass 1
 * saw of them all. */
static bool whole(const struct rsrc *s, int64_t lo, int64_t hi)
{
    return s->seen_all && (!s->any_row || (s->max_start <= hi && s->min_end >= lo));
}

/* Pass 2: the window's rows, each source in start order. */
static bool pass2(struct rp *p, int64_t lo, int64_t hi, struct tf_diag *d)
{
    bool ok = true;
    for (size_t i = 0; ok && i < p->n_src; i++) {
        struct rsrc *s = &p->src[i];
        if (!s->present)
            continue;
        tf_buf_clear(&p->sql);
        select_list(p, s, false);
        bool where = !whole(s, lo, hi);
        if (where)
            tf_buf_printf(&p->sql, " AND \"%s\" <= ?2 AND \"%s\" >= ?1", s->def->col[RC_START],
                          s->def->col[RC_END]);
        if (!(s->seen_all && s->sorted))
            tf_buf_printf(&p->sql, " ORDER BY \"%s\"", s->def->col[RC_START]);
        ok = prepare(p, s, d);
        if (ok && where) {
            sq.sqlite3_bind_int64(s->st, 1, lo);
            sq.sqlite3_bind_int64(s->st, 2, hi);
        }
    }
    return ok && run_merged(p, d);
}

/* --- the database ----------------------------------------------------------------------- */

/* Which sources there are, and the message when none can be read. */
static bool survey(struct rp *p, struct tf_diag *d)
{
    bool v3 = p->kind == TF_ROCPD_V3;
    const struct rsrc_def *defs = v3 ? tf_rocpd_v3_srcs : tf_rocpd_v1_srcs;
    p->n_src = v3 ? tf_rocpd_v3_n_srcs : tf_rocpd_v1_n_srcs;
    size_t n_present = 0;
    const char *timeless = NULL;
    for (size_t i = 0; i < p->n_src; i++) {
        struct rsrc *s = &p->src[i];
        s->def = &defs[i];
        bool view, table;
        if (!tf_sq_exists(p->db, p->file, "view", s->def->view, &view, d) ||
            !tf_sq_exists(p->db, p->file, "table", s->def->view, &table, d))
            return false;
        /* rocpd is read through views only */
        if (!(v3 ? view : view || table))
            continue;
        /* the view's own SQL may fail (a column or function it names is
         * not there): said as the view's */
        tf_buf_clear(&p->sql);
        tf_buf_printf(&p->sql, "SELECT * FROM \"%s\" LIMIT 0", s->def->view);
        if (!prepare(p, s, d))
            return false;
        sq.sqlite3_finalize(s->st);
        s->st = NULL;
        if (!tf_sq_columns(p->db, p->file, s->def->view, s->def->col, N_RCOL, s->has, d))
            return false;
        s->present = s->has[RC_START] && s->has[RC_END];
        if (s->present && s->def->times_view) {
            const char *cols[2] = {s->def->col[RC_START], s->def->col[RC_END]};
            bool has[2];
            if (!tf_sq_exists(p->db, p->file, "view", s->def->times_view, &view, d) ||
                (view && !tf_sq_columns(p->db, p->file, s->def->times_view, cols, 2, has, d)))
                return false;
            s->times_view = view && has[0] && has[1];
        }
        if (!s->present && !timeless)
            timeless = s->def->view;
        if (s->present && s->def->fallback && i > 0 && p->src[i - 1].present) {
            bool yes;
            char sql[96];
            snprintf(sql, sizeof sql, "SELECT 1 FROM \"%s\" LIMIT 1", p->src[i - 1].def->view);
            if (!any_row(p->db, p->file, sql, &yes, d))
                return false;
            s->present = !yes;
        }
        n_present += s->present;
    }
    if (n_present)
        return true;
    if (!v3)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: a rocprof (v1) results.db without a table of timed events "
                             "(HIP, HSA, OPS, COPY, KERN or rocTX with BeginNs and EndNs)",
                             p->file);
    if (timeless && p->version[0] != '3')
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: rocpd schema version %s: the view %s has no column start or "
                             "end (tracefig reads version 3)",
                             p->file, p->version[0] ? p->version : "(none)", timeless);
    return tf_diag_error(d, TF_EBADINPUT,
                         "%s: a rocpd database (schema version %s) without the views tracefig "
                         "reads (kernels, memory_copies, memory_allocations, regions, samples)",
                         p->file, p->version[0] ? p->version : "(none)");
}

static void rp_fini(struct rp *p)
{
    for (size_t i = 0; i < p->n_src; i++)
        sq.sqlite3_finalize(p->src[i].st);
    tf_nsys_free(p->conv);
    free(p->agents);
    free(p->procs);
    free(p->nodes);
    tf_idnames_fini(&p->names);
    free(p->cats);
    free(p->addrs);
    free(p->keys);
    free_held(p);
    free(p->held);
    free(p->lasts);
    tf_arena_fini(&p->arena);
    tf_buf_fini(&p->sql);
    tf_buf_fini(&p->ids);
    tf_buf_fini(&p->tmp);
    tf_buf_fini(&p->name);
}

bool tf_load_rocpd(sqlite3 *db, const char *file, enum tf_rocpd_kind kind,
                   const struct tf_keep *keep, struct tf_trace *out, struct tf_diag *d)
{
    out->kind = TF_TRACE_CHROME;
    out->generic = true;
    struct rp p;
    memset(&p, 0, sizeof p);
    p.file = file;
    p.db = db;
    p.kind = kind;
    p.sink = &keep->tef;
    p.last = -1;
    tf_arena_init(&p.arena);
    tf_buf_init(&p.sql);
    tf_buf_init(&p.ids);
    tf_buf_init(&p.tmp);
    tf_buf_init(&p.name);
    bool ok = (p.conv = tf_nsys_new(file, p.sink)) != NULL || tf_diag_oom(d, file);
    if (ok) {
        tf_nsys_set_origin(p.conv, false);
        tf_nsys_set_flow_pids(p.conv, true);
    }
    ok = ok && tf_rocpd_describe(&p, out, d) && survey(&p, d) &&
         (tf_nsys_label_gpu(p.conv, -1, kind == TF_ROCPD_V3 ? "unknown device" : "COPY") ||
          tf_diag_oom(d, file));
    ok = ok && tf_nsys_begin(p.conv, d) && pass1(&p, d);
    int64_t lo, hi;
    ok = ok && tf_nsys_window(p.conv, &lo, &hi, d) && pass2(&p, lo, hi, d) &&
         tf_nsys_finish(p.conv, d);
    if (ok && (p.arena.oom || p.name.oom || p.tmp.oom))
        ok = tf_diag_oom(d, file);
    rp_fini(&p);
    return ok;
}
