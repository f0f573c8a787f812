/* nsys.h - Nsight Systems exports (`nsys export --type sqlite`), read
 * through libsqlite3 for the generic mode: the SQLite half of the loader
 * (nsys_rows.h turns the rows into records).
 *
 * The database is opened read-only and immutable (URI "file:...?immutable=1"):
 * no lock, no journal, nothing written, so a file on a read-only mount
 * works too.  The tables are queried, never loaded: the first pass reads
 * what the sink's index needs (the names, and either every event or only
 * the events named for --window-event), the second only the window's rows
 * (WHERE start <= hi AND end >= lo, one statement per table, merged by
 * start).  Columns and tables an export version lacks are read as NULL /
 * skipped, from schema 2.9 (nsys 2022.1) to 3.24 (nsys 2026.1).  With
 * TRACEFIG_PIPE=on the rows are read on a second thread while this
 * one converts them (nsys_pipe.h).
 */
#ifndef TF_LOAD_NSYS_H
#define TF_LOAD_NSYS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/diag.h"
#include "model/trace.h"

/* Reads the export at `db_path` (a regular file) into the generic mode's
 * sink in keep->tef; `file` names it in messages.  With `unlink_db`, the
 * file is removed once open (a temporary copy of a pipe).  Failures are
 * one message naming the file and what is missing. */
bool tf_load_nsys(const char *db_path, const char *file, bool unlink_db,
                  const struct tf_keep *keep, struct tf_trace *out, struct tf_diag *d);
/* The same of an export's len bytes in memory, read where they are
 * (tf_sq_open_memory); they must outlive the call. */
bool tf_load_nsys_memory(const void *data, size_t len, const char *file,
                         const struct tf_keep *keep, struct tf_trace *out, struct tf_diag *d);

#endif
