/* sqlite_load.c - an SQLite trace opened once and handed to the loader of
 * its kind; see sqlite_load.h.  The connection is made here only (the
 * file checked first, read-only and immutable: load/sqlite.h), so a
 * database read from elsewhere than a file needs a change here alone.
 */
#include "load/sqlite_load.h"

#include <unistd.h>

#include "load/nsys.h"
#include "load/rocpd.h"
#include "load/sqlite.h"

bool tf_load_sqlite(const char *db_path, const char *file, bool unlink_db,
                    const struct tf_keep *keep, struct tf_trace *out, struct tf_diag *d)
{
    out->kind = TF_TRACE_CHROME;
    out->generic = true;
    if (!keep->tef.index && !keep->tef.collect) {
        /* Another mode was asked for: run.c says it reads another kind. */
        if (unlink_db)
            unlink(db_path);
        return true;
    }
    if (keep->tef.columns) {
        /* HTA's columns are asked for: --stats-compat hta */
        if (unlink_db)
            unlink(db_path);
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: --stats-compat hta: HTA reads the Chrome traces of PyTorch's "
                             "profiler, not SQLite databases (an Nsight Systems export, rocpd); "
                             "without it, --stats gives tracefig's GPU breakdown, whose kernel "
                             "classes are HTA's",
                             file);
    }
    bool loaded = tf_sq_check_file(db_path, file, d) && tf_sq_load(d);
    sqlite3 *db = NULL;
    bool ok = loaded && tf_sq_open(db_path, file, &db, d);
    if (unlink_db)
        unlink(db_path);
    enum tf_rocpd_kind kind = TF_ROCPD_NONE;
    ok = ok && tf_rocpd_kind_of(db, file, &kind, d);
    if (ok)
        ok = kind == TF_ROCPD_NONE ? tf_load_nsys(db, file, keep, out, d)
                                   : tf_load_rocpd(db, file, kind, keep, out, d);
    if (loaded && db)
        tf_sq.sqlite3_close(db);
    return ok;
}
