/* sqlite_load.h - a trace in an SQLite database: the file checked and
 * opened in one place, its kind told by its content, and the loader of
 * that kind run on the open connection.
 *
 * The kinds: a rocpd database (rocprofv3; a table or view rocpd_metadata),
 * rocprof (v1)'s results.db (its tables HIP, HSA, OPS, COPY, KERN,
 * rocTX), both read by load/rocpd.h; any other SQLite file is an Nsight
 * Systems export or not (load/nsys.h says which, and what it lacks).
 */
#ifndef TF_LOAD_SQLITE_LOAD_H
#define TF_LOAD_SQLITE_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "model/trace.h"

/* Reads the database at `db_path` (a regular file) into the generic mode's
 * sink in keep->tef; `file` names it in messages.  With `unlink_db`, the
 * file is removed once open (a temporary copy of a pipe).  Failures are
 * one message naming the file. */
bool tf_load_sqlite(const char *db_path, const char *file, bool unlink_db,
                    const struct tf_keep *keep, struct tf_trace *out, struct tf_diag *d);
/* The same of a database's len bytes in memory, read where they are
 * (tf_sq_open_memory); they must outlive the call. */
bool tf_load_sqlite_memory(const void *data, size_t len, const char *file,
                           const struct tf_keep *keep, struct tf_trace *out, struct tf_diag *d);

#endif
