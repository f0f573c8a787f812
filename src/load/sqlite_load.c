/* sqlite_load.c - an SQLite trace opened once and handed to the loader of
 * its kind; see sqlite_load.h.  The connection is made here only (the
 * file checked first, read-only and immutable; bytes in memory read where
 * they are: load/sqlite.h), and each loader runs on the open connection,
 * so both ways reach every kind.
 */
#include "load/sqlite_load.h"

#include <unistd.h>

#include "load/nsys.h"
#include "load/rocpd.h"
#include "load/sqlite.h"

/* The loader of the open database's kind. */
static bool load_open(sqlite3 *db, const char *file, const struct tf_keep *keep,
                      struct tf_trace *out, struct tf_diag *d)
{
    enum tf_rocpd_kind kind = TF_ROCPD_NONE;
    if (!tf_rocpd_kind_of(db, file, &kind, d))
        return false;
    return kind == TF_ROCPD_NONE ? tf_load_nsys(db, file, keep, out, d)
                                 : tf_load_rocpd(db, file, kind, keep, out, d);
}

/* Whether the database is to be read: not when another mode was asked
 * for (run.c says it reads another kind: *done), nor with HTA's columns
 * asked for (--stats-compat hta: an error). */
static bool wanted(const char *file, const struct tf_keep *keep, struct tf_trace *out,
                   bool *done, struct tf_diag *d)
{
    out->kind = TF_TRACE_CHROME;
    out->generic = true;
    *done = !keep->tef.index && !keep->tef.collect;
    if (*done || !keep->tef.columns)
        return true;
    return tf_diag_error(d, TF_EBADINPUT,
                         "%s: --stats-compat hta: HTA reads the Chrome traces of PyTorch's "
                         "profiler, not SQLite databases (an Nsight Systems export, rocpd); "
                         "without it, --stats gives tracefig's GPU breakdown, whose kernel "
                         "classes are HTA's",
                         file);
}

bool tf_load_sqlite(const char *db_path, const char *file, bool unlink_db,
                    const struct tf_keep *keep, struct tf_trace *out, struct tf_diag *d)
{
    bool done;
    if (!wanted(file, keep, out, &done, d) || done) {
        if (unlink_db)
            unlink(db_path);
        return !tf_diag_failed(d);
    }
    bool loaded = tf_sq_check_file(db_path, file, d) && tf_sq_load(d);
    sqlite3 *db = NULL;
    bool ok = loaded && tf_sq_open(db_path, file, &db, d);
    if (unlink_db)
        unlink(db_path);
    ok = ok && load_open(db, file, keep, out, d);
    if (loaded && db)
        tf_sq.sqlite3_close(db);
    return ok;
}

bool tf_load_sqlite_memory(const void *data, size_t len, const char *file,
                           const struct tf_keep *keep, struct tf_trace *out, struct tf_diag *d)
{
    bool done;
    if (!wanted(file, keep, out, &done, d) || done)
        return !tf_diag_failed(d);
    bool loaded = tf_sq_check_memory(data, len, file, d) && tf_sq_load(d);
    sqlite3 *db = NULL;
    bool ok = loaded && tf_sq_open_memory(data, len, file, &db, d) &&
              load_open(db, file, keep, out, d);
    if (loaded && db)
        tf_sq.sqlite3_close(db);
    return ok;
}
