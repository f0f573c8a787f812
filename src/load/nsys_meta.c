/* nsys_meta.c - what an Nsight Systems export says about itself (see
 * nsys.h): its processes, threads (named through StringIds), GPUs, CUDA
 * streams and the labels of its enums, each from an optional table, before
 * any event is read.  It reads no event table.
 */
#include <stdint.h>
#include <string.h>

#include "load/nsys_int.h"

/* Runs sql and calls fn for each row; a missing table is no error. */
static bool each_row(struct ld *l, const char *table, const char *sql,
                     bool (*fn)(struct ld *, sqlite3_stmt *, struct tf_diag *),
                     struct tf_diag *d)
{
    bool yes;
    if (!tf_nsys_is_table(l, table, d, &yes))
        return false;
    if (!yes)
        return true;
    sqlite3_stmt *st;
    if (sq.sqlite3_prepare_v2(l->db, sql, -1, &st, NULL) != SQLITE_OK) {
        /* a column this version lacks: the table tells nothing */
        if (sq.sqlite3_errcode(l->db) == SQLITE_ERROR)
            return true;
        return tf_nsys_db_error(l, table, d);
    }
    bool row, ok;
    while ((ok = tf_nsys_step(l, st, &row, table, d)) && row && (ok = fn(l, st, d)))
        ;
    sq.sqlite3_finalize(st);
    return ok;
}

static int64_t col_int(sqlite3_stmt *st, int col, int64_t none)
{
    return sq.sqlite3_column_type(st, col) == SQLITE_NULL ? none : sq.sqlite3_column_int64(st, col);
}

static bool on_process(struct ld *l, sqlite3_stmt *st, struct tf_diag *d)
{
    int64_t gpid = col_int(st, 0, 0);
    int64_t pid = col_int(st, 1, (int64_t)(((uint64_t)gpid >> 24) & 0xFFFFFFu));
    return tf_nsys_add_process(l->conv, pid, (const char *)sq.sqlite3_column_text(st, 2)) ||
           tf_diag_oom(d, l->file);
}

static bool on_thread(struct ld *l, sqlite3_stmt *st, struct tf_diag *d)
{
    if (sq.sqlite3_column_type(st, 1) == SQLITE_NULL)
        return true; /* a name of no thread */
    const char *name;
    bool raw = false;
    if (!tf_nsys_name_col(l, st, 0, &name, &raw, d))
        return false;
    return !name || tf_nsys_add_thread(l->conv, sq.sqlite3_column_int64(st, 1), name) ||
           tf_diag_oom(d, l->file);
}

static bool on_gpu(struct ld *l, sqlite3_stmt *st, struct tf_diag *d)
{
    if (sq.sqlite3_column_type(st, 0) == SQLITE_NULL)
        return true;
    return tf_nsys_add_gpu(l->conv, sq.sqlite3_column_int64(st, 0),
                           (const char *)sq.sqlite3_column_text(st, 1)) ||
           tf_diag_oom(d, l->file);
}

static bool on_stream(struct ld *l, sqlite3_stmt *st, struct tf_diag *d)
{
    if (sq.sqlite3_column_type(st, 0) == SQLITE_NULL)
        return true;
    return tf_nsys_add_stream(l->conv, col_int(st, 2, -1), sq.sqlite3_column_int64(st, 0),
                              col_int(st, 1, -1)) ||
           tf_diag_oom(d, l->file);
}

static bool on_copy_kind(struct ld *l, sqlite3_stmt *st, struct tf_diag *d)
{
    int64_t id = col_int(st, 0, -1);
    if (id < 0 || id >= N_ENUM || sq.sqlite3_column_type(st, 1) == SQLITE_NULL)
        return true;
    char label[64];
    tf_nsys_copy_kind_label((const char *)sq.sqlite3_column_text(st, 1), label, sizeof label);
    l->copy_kind[id] = tf_arena_strdup(&l->arena, label);
    return l->copy_kind[id] || tf_diag_oom(d, l->file);
}

static bool on_mem_kind(struct ld *l, sqlite3_stmt *st, struct tf_diag *d)
{
    int64_t id = col_int(st, 0, -1);
    if (id < 0 || id >= N_ENUM || sq.sqlite3_column_type(st, 1) == SQLITE_NULL)
        return true;
    l->mem_kind[id] = tf_arena_strdup(&l->arena, (const char *)sq.sqlite3_column_text(st, 1));
    return l->mem_kind[id] || tf_diag_oom(d, l->file);
}

bool tf_nsys_describe(struct ld *l, struct tf_diag *d)
{
    for (int i = 0; i < N_ENUM; i++) {
        l->copy_kind[i] = tf_nsys_copy_kind(i);
        l->mem_kind[i] = tf_nsys_mem_kind(i);
    }
    bool ok =
        each_row(l, "ENUM_CUDA_MEMCPY_OPER", "SELECT id, name FROM ENUM_CUDA_MEMCPY_OPER",
                 on_copy_kind, d) &&
        each_row(l, "ENUM_CUDA_MEM_KIND", "SELECT id, label FROM ENUM_CUDA_MEM_KIND",
                 on_mem_kind, d) &&
        each_row(l, "PROCESSES", "SELECT globalPid, pid, name FROM PROCESSES ORDER BY rowid",
                 on_process, d) &&
        each_row(l, "ThreadNames",
                 "SELECT nameId, globalTid FROM ThreadNames ORDER BY globalTid, rowid",
                 on_thread, d) &&
        each_row(l, "TARGET_INFO_GPU", "SELECT id, name FROM TARGET_INFO_GPU ORDER BY id",
                 on_gpu, d);
    ok = ok &&
         each_row(l, "TARGET_INFO_CUDA_STREAM",
                  "SELECT streamId, processId, NULL FROM TARGET_INFO_CUDA_STREAM ORDER BY rowid",
                  on_stream, d) &&
         each_row(l, "TARGET_INFO_CUDA_CONTEXT_INFO",
                  "SELECT nullStreamId, processId, deviceId FROM TARGET_INFO_CUDA_CONTEXT_INFO "
                  "ORDER BY rowid",
                  on_stream, d) &&
         each_row(l, "TARGET_INFO_CUDA_NULL_STREAM",
                  "SELECT streamId, processId, deviceId FROM TARGET_INFO_CUDA_NULL_STREAM "
                  "ORDER BY rowid",
                  on_stream, d);
    return ok;
}

