/* nsys.c - Nsight Systems exports through libsqlite3; see nsys.h.
 *
 * IMPLEMENTATION NOTES
 *
 * Versions.  Every event table is read through one SELECT of the same
 * N_COLS expressions: a column the table has, or NULL when this export
 * version lacks it (PRAGMA table_info), so one decoder serves schema 2.9
 * to 3.24.  A table without start and end is left out; the string tables,
 * the enums and the TARGET_INFO_* tables are optional.
 *
 * Strings.  Names are ids into StringIds, looked up once each
 * (nsys_strings.c).
 *
 * Passes.  Pass 1 gives the sink's index what it needs: with index_lean
 * only the names and the events called index_name (NVTX text, kernel short
 * or demangled name, call names: a WHERE on the ids StringIds has for the
 * name; a full scan only of the tables that can hold it), else every
 * event.  Pass 2 asks each table for the window, WHERE start <= hi AND
 * end >= lo: without an index that is one scan in constant memory (SQLite
 * reads pages through its small cache; no mmap, which would count the
 * file's pages in the resident set).  With an index whose first column is
 * start, the index is used when the window's end is within the first 5 %
 * of the table's time (rows before it are few); otherwise a scan is the
 * cheapest exact plan, since without a bound on durations the rows that
 * start before the window can be anywhere.  The statements of all tables
 * run side by side and their rows are merged by start (nsys writes each
 * table in start order), so each lane gets its events nearly in order.
 *
 * Lazy columns.  Of a GPU row the sink keeps the args (the tooltip's
 * grid, block, bytes, correlation) only when it is at least args_floor
 * long (model/trace.h); a thinner one needs args.stream only, which the
 * row says as has_stream.  So pass 2 selects the rowid instead of those
 * columns (and of a kernel's short name, drawn only for a kernel without
 * a demangled name) and reads them by rowid, one primary-key step, for
 * the few rows that need them: a column costs SQLite about as much to
 * decode as a row costs us to convert.
 *
 * Threads.  Stepping SQLite and decoding the columns cost about as much
 * as converting the rows, so the rows can be read on a second thread
 * (load/nsys_pipe.h) while this one converts: the same rows in the same
 * order, so the same bytes.  Only with TRACEFIG_PIPE=on for now
 * (read_threaded).  The connection is used by one thread at a time (the
 * reader, from the first step of a pass to its end; this one otherwise).
 */
#include "load/nsys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "load/nsys_int.h"
#include "load/nsys_pipe.h"
#include "load/nsys_rows.h"

struct spec {
    const char *table;
    const char *cols[N_COLS]; /* its column for each, NULL: none */
};

static const struct spec specs[TF_NSYS_N_TABLES] = {
    [TF_NSYS_KERNEL] = {"CUPTI_ACTIVITY_KIND_KERNEL",
                        {[C_START] = "start", [C_END] = "end", [C_GID] = "globalPid",
                         [C_DEVICE] = "deviceId", [C_STREAM] = "streamId",
                         [C_CORR] = "correlationId", [C_NAME] = "demangledName",
                         [C_SHORT] = "shortName", [C_GRIDX] = "gridX", [C_GRIDY] = "gridY",
                         [C_GRIDZ] = "gridZ", [C_BLOCKX] = "blockX", [C_BLOCKY] = "blockY",
                         [C_BLOCKZ] = "blockZ"}},
    [TF_NSYS_MEMCPY] = {"CUPTI_ACTIVITY_KIND_MEMCPY",
                        {[C_START] = "start", [C_END] = "end", [C_GID] = "globalPid",
                         [C_DEVICE] = "deviceId", [C_STREAM] = "streamId",
                         [C_CORR] = "correlationId", [C_BYTES] = "bytes",
                         [C_COPYKIND] = "copyKind", [C_SRCKIND] = "srcKind",
                         [C_DSTKIND] = "dstKind"}},
    [TF_NSYS_MEMSET] = {"CUPTI_ACTIVITY_KIND_MEMSET",
                        {[C_START] = "start", [C_END] = "end", [C_GID] = "globalPid",
                         [C_DEVICE] = "deviceId", [C_STREAM] = "streamId",
                         [C_CORR] = "correlationId", [C_BYTES] = "bytes",
                         [C_MEMKIND] = "memKind"}},
    [TF_NSYS_RUNTIME] = {"CUPTI_ACTIVITY_KIND_RUNTIME",
                         {[C_START] = "start", [C_END] = "end", [C_GID] = "globalTid",
                          [C_CORR] = "correlationId", [C_NAME] = "nameId",
                          [C_CLASS] = "eventClass"}},
    [TF_NSYS_NVTX] = {"NVTX_EVENTS",
                      {[C_START] = "start", [C_END] = "end", [C_GID] = "globalTid",
                       [C_NAME] = "textId", [C_TEXT] = "text", [C_TYPE] = "eventType",
                       [C_COLOR] = "color"}},
    [TF_NSYS_OSRT] = {"OSRT_API",
                      {[C_START] = "start", [C_END] = "end", [C_GID] = "globalTid",
                       [C_NAME] = "nameId"}},
};

/* --- queries ------------------------------------------------------------------- */

static bool prepare(struct ld *l, const char *sql, sqlite3_stmt **st, const char *what,
                    struct tf_diag *d)
{
    return tf_sq_prepare(l->db, l->file, sql, st, what, d);
}

/* An index of the table whose first column is start (its name, in the
 * arena), or NULL. */
static bool start_index(struct ld *l, const char *table, char **out, struct tf_diag *d)
{
    *out = NULL;
    sqlite3_stmt *st;
    if (!prepare(l,
                 "SELECT il.name FROM pragma_index_list(?1) AS il, pragma_index_info(il.name) "
                 "AS ii WHERE ii.seqno = 0 AND ii.name = 'start' COLLATE NOCASE ORDER BY il.name",
                 &st, table, d))
        return false;
    sq.sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    bool row;
    bool ok = tf_nsys_step(l, st, &row, table, d);
    if (ok && row) {
        *out = tf_arena_strdup(&l->arena, (const char *)sq.sqlite3_column_text(st, 0));
        ok = *out != NULL || tf_diag_oom(d, l->file);
    }
    sq.sqlite3_finalize(st);
    return ok;
}

/* --- rows --------------------------------------------------------------------------- */

/* Expression c of the row: false when the table has no such column or the
 * value is NULL. */
static inline bool get(const struct table *tb, sqlite3_stmt *st, enum col c, int64_t *v)
{
    int i = tb->pos[c];
    if (i < 0 && tb->lrow && tb->lpos[c] >= 0) {
        st = tb->lazy_st;
        i = tb->lpos[c];
    }
    if (i < 0)
        return false;
    /* NULL reads as 0 (and is not converted): ask for the type only then */
    *v = sq.sqlite3_column_int64(st, i);
    return *v != 0 || sq.sqlite3_column_type(st, i) != SQLITE_NULL;
}

static const char *enum_label(const char *const *labels, const struct table *tb,
                              sqlite3_stmt *st, enum col c)
{
    int64_t k;
    return get(tb, st, c, &k) && k >= 0 && k < N_ENUM ? labels[k] : NULL;
}

/* The columns of a lazy table's current row that only args show, into
 * its lazy statement (tb->lrow). */
static bool lazy_row(struct ld *l, struct table *tb, sqlite3_stmt *st, const char *what,
                     struct tf_diag *d)
{
    sq.sqlite3_reset(tb->lazy_st);
    sq.sqlite3_bind_int64(tb->lazy_st, 1, sq.sqlite3_column_int64(st, tb->rowid_pos));
    return tf_nsys_step(l, tb->lazy_st, &tb->lrow, what, d);
}

/* The names of the row: the NVTX text, else the name and short name (a
 * kernel's short name is read lazily, only for a kernel without a name),
 * and the lazy columns when the sink wants the row's args. */
static bool fill_names(struct ld *l, struct table *tb, const char *what, sqlite3_stmt *st,
                       struct tf_nsys_row *r, struct tf_diag *d)
{
    bool raw = false;
    tb->lrow = false;
    if (tb->pos[C_TEXT] >= 0 && sq.sqlite3_column_type(st, tb->pos[C_TEXT]) != SQLITE_NULL) {
        r->name = (const char *)sq.sqlite3_column_text(st, tb->pos[C_TEXT]);
        return true; /* not clean_names */
    }
    if (tb->pos[C_NAME] >= 0 && !tf_nsys_name_col(l, st, tb->pos[C_NAME], &r->name, &raw, d))
        return false;
    if (tb->lazy) {
        int64_t dur = r->has_end && r->end > r->start ? r->end - r->start : 0;
        bool short_needed = tb->lpos[C_SHORT] >= 0 && (!r->name || !*r->name);
        r->no_args = dur < l->args_floor;
        if ((!r->no_args || short_needed) && !lazy_row(l, tb, st, what, d))
            return false;
    }
    bool ok = true;
    if (tb->pos[C_SHORT] >= 0)
        ok = tf_nsys_name_col(l, st, tb->pos[C_SHORT], &r->short_name, &raw, d);
    else if (tb->lrow && tb->lpos[C_SHORT] >= 0)
        ok = tf_nsys_name_col(l, tb->lazy_st, tb->lpos[C_SHORT], &r->short_name, &raw, d);
    r->clean_names = !raw;
    return ok;
}

static bool fill_row(struct ld *l, enum tf_nsys_table t, sqlite3_stmt *st,
                     struct tf_nsys_row *r, struct tf_diag *d)
{
    struct table *tb = &l->t[t];
    memset(r, 0, sizeof *r);
    r->table = t;
    r->start = tb->cur; /* column 0, read when stepped */
    r->has_end = get(tb, st, C_END, &r->end);
    if (!fill_names(l, tb, specs[t].table, st, r, d))
        return false;
    r->has_gid = get(tb, st, C_GID, &r->gid);
    get(tb, st, C_DEVICE, &r->device);
    get(tb, st, C_STREAM, &r->stream);
    r->has_corr = get(tb, st, C_CORR, &r->corr);
    get(tb, st, C_CLASS, &r->event_class);
    if (!get(tb, st, C_TYPE, &r->nvtx_type))
        r->nvtx_type = TF_NSYS_NVTX_PUSHPOP;
    int64_t v;
    if ((r->has_color = get(tb, st, C_COLOR, &v)))
        r->color = (uint32_t)(v & 0xFFFFFFFF);
    r->has_bytes = get(tb, st, C_BYTES, &r->bytes);
    r->has_grid = get(tb, st, C_GRIDX, &r->grid[0]);
    if (r->has_grid) {
        get(tb, st, C_GRIDY, &r->grid[1]);
        get(tb, st, C_GRIDZ, &r->grid[2]);
        get(tb, st, C_BLOCKX, &r->block[0]);
        get(tb, st, C_BLOCKY, &r->block[1]);
        get(tb, st, C_BLOCKZ, &r->block[2]);
    }
    if (t == TF_NSYS_MEMCPY) {
        r->copy_kind = enum_label(l->copy_kind, tb, st, C_COPYKIND);
        r->src_kind = enum_label(l->mem_kind, tb, st, C_SRCKIND);
        r->dst_kind = enum_label(l->mem_kind, tb, st, C_DSTKIND);
    } else if (t == TF_NSYS_MEMSET) {
        r->mem_kind = enum_label(l->mem_kind, tb, st, C_MEMKIND);
    }
    return true;
}

/* The columns of GPU work that only its args show (the tooltip's):
 * correlation (unless flows pair by it), grid, block, bytes; and a
 * kernel's short name, which is drawn only when it has no other. */
static bool lazy_col(const struct ld *l, enum col c)
{
    return (c == C_CORR && !l->sink->flows) || (c >= C_GRIDX && c <= C_BLOCKZ) || c == C_BYTES ||
           c == C_SHORT;
}

enum sel {
    SEL_ALL,   /* every column the table has */
    SEL_TIMES, /* those the extent of a row needs */
    SEL_EAGER, /* all but lazy_col's, and the rowid */
    SEL_LAZY   /* lazy_col's only */
};

/* The select list of table t (pos, or lpos for SEL_LAZY, says where each
 * column is). */
static void select_list(struct ld *l, enum tf_nsys_table t, enum sel sel)
{
    struct table *tb = &l->t[t];
    int *pos = sel == SEL_LAZY ? tb->lpos : tb->pos;
    tf_buf_puts(&l->sql, "SELECT ");
    int k = 0;
    for (int c = 0; c < N_COLS; c++) {
        pos[c] = -1;
        if (!tb->has[c] || (sel == SEL_TIMES && c != C_START && c != C_END && c != C_TYPE) ||
            (sel == SEL_EAGER && lazy_col(l, (enum col)c)) ||
            (sel == SEL_LAZY && !lazy_col(l, (enum col)c)))
            continue;
        tf_buf_printf(&l->sql, "%s\"%s\"", k ? ", " : "", specs[t].cols[c]);
        pos[c] = k++;
    }
    if (sel == SEL_EAGER) {
        tf_buf_puts(&l->sql, ", rowid");
        tb->rowid_pos = k;
    }
    tf_buf_printf(&l->sql, " FROM \"%s\"", specs[t].table);
}

/* Pass 1: the extent of every row read, before the converter drops any. */
static void note_extent(struct table *tb, const struct tf_nsys_row *r)
{
    if (!tb->any_row || r->start > tb->max_start)
        tb->max_start = r->start;
    if (!r->has_end)
        tb->null_end = true;
    else if (!tb->any_row || r->end < tb->min_end)
        tb->min_end = r->end;
    tb->any_row = true;
}

/* Whether every row of table t is in the window [lo, hi] as pass 2's WHERE
 * says it (start <= hi, end >= lo; NVTX ranges never closed too), by what
 * pass 1 saw of them all. */
static bool whole(const struct ld *l, int t, int64_t lo, int64_t hi)
{
    const struct table *tb = &l->t[t];
    if (!tb->seen_all)
        return false;
    return !tb->any_row || (tb->max_start <= hi && (!tb->null_end || t == TF_NSYS_NVTX) &&
                            tb->min_end >= lo);
}

/* The reader of the merge (nsys_pipe.h): steps the table whose row was
 * given last, then gives the row of least start of all tables. */
static bool next_row(void *ctx, struct tf_nsys_row *r, bool *any, struct tf_diag *d)
{
    struct ld *l = ctx;
    *any = false;
    if (l->last >= 0) {
        struct table *tb = &l->t[l->last];
        if (!tf_nsys_step(l, tb->st, &tb->live, specs[l->last].table, d))
            return false;
        if (tb->live)
            tb->cur = sq.sqlite3_column_int64(tb->st, 0);
        l->last = -1;
    }
    int best = -1;
    for (int t = 0; t < TF_NSYS_N_TABLES; t++)
        if (l->t[t].st && l->t[t].live && (best < 0 || l->t[t].cur < l->t[best].cur))
            best = t;
    if (best < 0)
        return true;
    if (!fill_row(l, (enum tf_nsys_table)best, l->t[best].st, r, d))
        return false;
    if (l->pass1)
        note_extent(&l->t[best], r);
    l->last = best;
    *any = true;
    return true;
}

static bool take_row(void *ctx, const struct tf_nsys_row *r, struct tf_diag *d)
{
    return tf_nsys_row(ctx, r, d);
}

/* Runs the statements already prepared in l->t[].st, their rows merged
 * by start, into the converter (on two threads for a large export);
 * finalizes them. */
static bool run_merged(struct ld *l, struct tf_diag *d)
{
    bool ok = true;
    for (int t = 0; ok && t < TF_NSYS_N_TABLES; t++) {
        struct table *tb = &l->t[t];
        if (tb->st && (ok = tf_nsys_step(l, tb->st, &tb->live, specs[t].table, d)) && tb->live)
            tb->cur = sq.sqlite3_column_int64(tb->st, 0);
    }
    l->last = -1;
    ok = ok && tf_nsys_pipe_run(l->threaded, l->file, next_row, l, take_row, l->conv, d);
    for (int t = 0; t < TF_NSYS_N_TABLES; t++) {
        sq.sqlite3_finalize(l->t[t].st);
        sq.sqlite3_finalize(l->t[t].lazy_st);
        l->t[t].st = l->t[t].lazy_st = NULL;
        l->t[t].live = l->t[t].lazy = l->t[t].lrow = false;
    }
    return ok;
}

static bool drawn(const struct ld *l, int t)
{
    return l->t[t].present && (t != TF_NSYS_OSRT || l->sink->osrt);
}

/* The ids of the strings that name `name` (as they are, or as a call
 * drawn without its version suffix), as "1, 2" in l->ids. */
static bool name_ids(struct ld *l, const char *name, struct tf_diag *d)
{
    tf_buf_clear(&l->ids);
    if (!l->has_strings)
        return true;
    sqlite3_stmt *st;
    if (!prepare(l, "SELECT id, value FROM StringIds", &st, "StringIds", d))
        return false;
    bool row, ok;
    size_t n = strlen(name);
    char call[512];
    while ((ok = tf_nsys_step(l, st, &row, "StringIds", d)) && row) {
        const char *v = (const char *)sq.sqlite3_column_text(st, 1);
        if (!v || strncmp(v, name, n) != 0)
            continue;
        tf_nsys_call_name(v, call, sizeof call);
        if (strcmp(v, name) == 0 || strcmp(call, name) == 0)
            tf_buf_printf(&l->ids, "%s%lld", l->ids.len ? ", " : "",
                          (long long)sq.sqlite3_column_int64(st, 0));
    }
    sq.sqlite3_finalize(st);
    return ok && (!l->ids.oom || tf_diag_oom(d, l->file));
}

/* Pass 1: what the sink's index needs. */
static bool pass1(struct ld *l, struct tf_diag *d)
{
    const struct tf_tef_sink *s = l->sink;
    const char *name = s->index_lean ? s->index_name : NULL;
    if (name && !name_ids(l, name, d))
        return false;
    /* The index needs no names then, only where the time lies. */
    bool times_only = !s->index_name && !s->args_pass1;
    bool ok = true;
    for (int t = 0; ok && t < TF_NSYS_N_TABLES; t++) {
        if (!drawn(l, t))
            continue;
        const bool *h = l->t[t].has;
        bool gpu = t <= TF_NSYS_MEMSET;
        tf_buf_clear(&l->sql);
        select_list(l, (enum tf_nsys_table)t, times_only ? SEL_TIMES : SEL_ALL);
        bool all = !s->index_lean || (gpu && s->args_pass1) ||
                   (name && t == TF_NSYS_MEMCPY && strncmp(name, "Memcpy", 6) == 0) ||
                   (name && t == TF_NSYS_MEMSET && strncmp(name, "Memset", 6) == 0);
        if (!all) {
            /* only the rows that may carry the name */
            bool any = false;
            tf_buf_puts(&l->sql, " WHERE 0");
            if (name && t == TF_NSYS_NVTX && h[C_TEXT]) {
                tf_buf_puts(&l->sql, " OR \"text\" = ?1");
                any = true;
            }
            if (name && l->ids.len && h[C_NAME] && t != TF_NSYS_MEMCPY && t != TF_NSYS_MEMSET) {
                tf_buf_printf(&l->sql, " OR \"%s\" IN (%s)", specs[t].cols[C_NAME], l->ids.data);
                any = true;
            }
            if (name && l->ids.len && h[C_SHORT]) {
                tf_buf_printf(&l->sql, " OR \"%s\" IN (%s)", specs[t].cols[C_SHORT],
                              l->ids.data);
                any = true;
            }
            if (!any)
                continue;
        }
        if (l->sql.oom)
            return tf_diag_oom(d, l->file);
        l->t[t].seen_all = all;
        ok = prepare(l, l->sql.data, &l->t[t].st, specs[t].table, d);
        if (ok && !all)
            sq.sqlite3_bind_text(l->t[t].st, 1, name, -1, SQLITE_STATIC);
    }
    l->pass1 = true;
    ok = ok && run_merged(l, d);
    l->pass1 = false;
    return ok;
}

/* Whether the index on start is the cheaper way to the rows that start by
 * `hi`: few of them (the first 5 % of the table's time). */
static bool use_index(struct ld *l, int t, int64_t hi, bool *yes, struct tf_diag *d)
{
    *yes = false;
    if (!l->t[t].index)
        return true;
    tf_buf_clear(&l->sql);
    /* two queries, so that each is one step down the index */
    tf_buf_printf(&l->sql, "SELECT (SELECT min(start) FROM \"%s\"), (SELECT max(start) FROM \"%s\")",
                  specs[t].table, specs[t].table);
    sqlite3_stmt *st;
    if (l->sql.oom)
        return tf_diag_oom(d, l->file);
    if (!prepare(l, l->sql.data, &st, specs[t].table, d))
        return false;
    bool row;
    bool ok = tf_nsys_step(l, st, &row, specs[t].table, d);
    if (ok && row && sq.sqlite3_column_type(st, 0) != SQLITE_NULL) {
        double lo = (double)sq.sqlite3_column_int64(st, 0), top = (double)sq.sqlite3_column_int64(st, 1);
        *yes = (double)hi <= lo || ((double)hi - lo) <= 0.05 * (top - lo);
    }
    sq.sqlite3_finalize(st);
    return ok;
}

/* Whether GPU table t is read lazily in pass 2 (its lazy statement
 * prepared): when the sink wants no args of its thin rows and the table
 * has columns only args show.  A table without a rowid is read whole. */
static bool lazy_table(struct ld *l, int t, struct tf_diag *d)
{
    struct table *tb = &l->t[t];
    tb->lazy = tb->lrow = false;
    bool any = false;
    for (int c = 0; c < N_COLS; c++)
        any = any || (tb->has[c] && lazy_col(l, (enum col)c));
    if (l->args_floor <= 0 || t > TF_NSYS_MEMSET || !any)
        return true;
    tf_buf_clear(&l->sql);
    select_list(l, (enum tf_nsys_table)t, SEL_LAZY);
    tf_buf_puts(&l->sql, " WHERE rowid = ?1");
    if (l->sql.oom)
        return tf_diag_oom(d, l->file);
    if (sq.sqlite3_prepare_v2(l->db, l->sql.data, -1, &tb->lazy_st, NULL) != SQLITE_OK) {
        sq.sqlite3_finalize(tb->lazy_st);
        tb->lazy_st = NULL;
        return sq.sqlite3_errcode(l->db) == SQLITE_ERROR || tf_nsys_db_error(l, specs[t].table, d);
    }
    tb->lazy = true;
    return true;
}

/* Pass 2: the window's rows. */
static bool pass2(struct ld *l, int64_t lo, int64_t hi, struct tf_diag *d)
{
    const struct tf_tef_sink *s = l->sink;
    l->args_floor = s->args_floor ? s->args_floor(s->ctx) : 0;
    bool ok = true;
    for (int t = 0; ok && t < TF_NSYS_N_TABLES; t++) {
        if (!drawn(l, t))
            continue;
        bool idx;
        if (!use_index(l, t, hi, &idx, d) || !lazy_table(l, t, d))
            return false;
        tf_buf_clear(&l->sql);
        select_list(l, (enum tf_nsys_table)t, l->t[t].lazy ? SEL_EAGER : SEL_ALL);
        if (idx) { /* the index's name as an SQL identifier: " doubled */
            tf_buf_puts(&l->sql, " INDEXED BY \"");
            for (const char *c = l->t[t].index; *c; c++) {
                tf_buf_putc(&l->sql, *c);
                if (*c == '"')
                    tf_buf_putc(&l->sql, '"');
            }
            tf_buf_putc(&l->sql, '"');
        }
        /* "+start": no index for an open-ended range on start (a scan is
         * cheaper than a lookup per row).  No WHERE when it keeps every
         * row (the whole export drawn): SQLite then tests nothing. */
        bool where = idx || !whole(l, t, lo, hi);
        if (where)
            tf_buf_printf(&l->sql, " WHERE %sstart <= ?2 AND (\"end\" >= ?1%s)",
                          idx || !l->t[t].index ? "" : "+",
                          t == TF_NSYS_NVTX ? " OR \"end\" IS NULL" : "");
        if (l->sql.oom)
            return tf_diag_oom(d, l->file);
        ok = prepare(l, l->sql.data, &l->t[t].st, specs[t].table, d);
        if (ok && where) {
            sq.sqlite3_bind_int64(l->t[t].st, 1, lo);
            sq.sqlite3_bind_int64(l->t[t].st, 2, hi);
        }
    }
    return ok && run_merged(l, d);
}

/* --- the export ------------------------------------------------------------------- */

static bool open_db(struct ld *l, const char *path, bool unlink_db, struct tf_diag *d)
{
    bool ok = tf_sq_open(path, l->file, &l->db, d);
    if (unlink_db)
        unlink(path);
    return ok;
}

/* Which tables there are, and the message when none can be drawn. */
static bool survey(struct ld *l, struct tf_diag *d)
{
    sqlite3_stmt *st;
    if (!prepare(l, "SELECT count(*) FROM sqlite_master WHERE type = 'table'", &st,
                 "the schema", d))
        return false;
    bool row;
    bool ok = tf_nsys_step(l, st, &row, "the schema", d);
    l->n_tables = ok && row ? (size_t)sq.sqlite3_column_int64(st, 0) : 0;
    sq.sqlite3_finalize(st);
    if (!ok)
        return false;
    if (l->n_tables == 0)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: an empty SQLite database (no tables): not an Nsight Systems "
                             "export",
                             l->file);
    bool m1, m2;
    if (!tf_nsys_is_table(l, "META_DATA_EXPORT", d, &m1) || !tf_nsys_is_table(l, "EXPORT_META_DATA", d, &m2) ||
        !tf_nsys_is_table(l, "StringIds", d, &l->has_strings))
        return false;
    l->has_meta = m1 || m2;
    size_t n_present = 0;
    for (int t = 0; t < TF_NSYS_N_TABLES; t++) {
        bool yes;
        if (!tf_nsys_is_table(l, specs[t].table, d, &yes))
            return false;
        if (!yes)
            continue;
        if (!tf_sq_columns(l->db, l->file, specs[t].table, specs[t].cols, N_COLS,
                           l->t[t].has, d))
            return false;
        l->t[t].present = l->t[t].has[C_START] && l->t[t].has[C_END];
        if (l->t[t].present && !start_index(l, specs[t].table, &l->t[t].index, d))
            return false;
        n_present += l->t[t].present;
    }
    if (n_present == 0 && !l->has_meta)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: an SQLite database, but not an Nsight Systems export (no "
                             "META_DATA_EXPORT or EXPORT_META_DATA table, no event table)",
                             l->file);
    if (n_present == 0)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: an Nsight Systems export without a table tracefig draws "
                             "(CUPTI_ACTIVITY_KIND_KERNEL, _MEMCPY, _MEMSET, _RUNTIME, "
                             "NVTX_EVENTS or OSRT_API)",
                             l->file);
    if (n_present == 1 && l->t[TF_NSYS_OSRT].present && !l->sink->osrt)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: only OS runtime calls (OSRT_API) to draw: add --osrt", l->file);
    if (l->has_strings &&
        !prepare(l, "SELECT value FROM StringIds WHERE id = ?1", &l->str_st, "StringIds", d))
        return false;
    return true;
}

/* Whether the rows are read on a second thread: when TRACEFIG_PIPE is
 * "on" (as for the Chrome scanner's thread, load/pipe.h).  Not by default: on the shared 2-core machine this was measured
 * on (issue 24), the thread gained no wall time and cost some CPU, as no
 * core was free for it; a machine with a free core may differ (make bench
 * measures both). */
static bool read_threaded(void)
{
    const char *e = getenv("TRACEFIG_PIPE");
    return e && strcmp(e, "on") == 0;
}

/* The export at db_path (removed once open with unlink_db), or, db_path
 * NULL, the len bytes at data. */
static bool load(const char *db_path, const void *data, size_t len, const char *file,
                 bool unlink_db, const struct tf_keep *keep, struct tf_trace *out,
                 struct tf_diag *d)
{
    out->kind = TF_TRACE_CHROME;
    out->generic = true;
    if (!keep->tef.index && !keep->tef.collect) {
        /* Another mode was asked for: run.c says it reads another kind. */
        if (unlink_db)
            unlink(db_path);
        return true;
    }
    struct ld l;
    memset(&l, 0, sizeof l);
    l.file = file;
    l.sink = &keep->tef;
    tf_arena_init(&l.arena);
    tf_buf_init(&l.sql);
    tf_buf_init(&l.ids);
    tf_buf_init(&l.tmp);
    bool loaded = (db_path ? tf_sq_check_file(db_path, file, d)
                           : tf_sq_check_memory(data, len, file, d)) &&
                  tf_sq_load(d);
    l.threaded = read_threaded();
    bool ok = loaded;
    if (!ok && unlink_db)
        unlink(db_path);
    ok = ok &&
         (db_path ? open_db(&l, db_path, unlink_db, d)
                  : tf_sq_open_memory(data, len, file, &l.db, d)) &&
         survey(&l, d);
    if (ok && !(l.conv = tf_nsys_new(file, l.sink)))
        ok = tf_diag_oom(d, file);
    if (ok) {
        bool pids = l.t[TF_NSYS_RUNTIME].has[C_GID] || !l.t[TF_NSYS_RUNTIME].present;
        for (int t = TF_NSYS_KERNEL; t <= TF_NSYS_MEMSET; t++)
            pids = pids && (l.t[t].has[C_GID] || !l.t[t].present);
        tf_nsys_set_flow_pids(l.conv, pids);
    }
    ok = ok && tf_nsys_describe(&l, d) && tf_nsys_begin(l.conv, d) && pass1(&l, d);
    int64_t lo, hi;
    ok = ok && tf_nsys_window(l.conv, &lo, &hi, d) && pass2(&l, lo, hi, d) &&
         tf_nsys_finish(l.conv, d);
    if (ok && l.arena.oom)
        ok = tf_diag_oom(d, file);
    if (loaded) {
        for (int t = 0; t < TF_NSYS_N_TABLES; t++) {
            sq.sqlite3_finalize(l.t[t].st);
            sq.sqlite3_finalize(l.t[t].lazy_st);
        }
        sq.sqlite3_finalize(l.str_st);
        if (l.db)
            sq.sqlite3_close(l.db);
    }
    tf_nsys_free(l.conv);
    free(l.slots);
    tf_arena_fini(&l.arena);
    tf_buf_fini(&l.sql);
    tf_buf_fini(&l.ids);
    tf_buf_fini(&l.tmp);
    return ok;
}

bool tf_load_nsys(const char *db_path, const char *file, bool unlink_db,
                  const struct tf_keep *keep, struct tf_trace *out, struct tf_diag *d)
{
    return load(db_path, NULL, 0, file, unlink_db, keep, out, d);
}

bool tf_load_nsys_memory(const void *data, size_t len, const char *file,
                         const struct tf_keep *keep, struct tf_trace *out, struct tf_diag *d)
{
    return load(NULL, data, len, file, false, keep, out, d);
}
