/* nsys.h - Nsight Systems exports (`nsys export --type sqlite`), read
 * through libsqlite3 for the generic mode: the SQLite half of the loader
 * (nsys_rows.h turns the rows into records).
 *
 * The database is opened (sqlite_load.c) read-only and immutable (URI "file:...?immutable=1"):
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
#include "load/sqlite.h"
#include "model/trace.h"

/* Reads the export open in `db` (load/sqlite_load.h opens it, and closes
 * it after) into the generic mode's sink in keep->tef; `file` names it in
 * messages.  Failures are one message naming the file and what is
 * missing. */
bool tf_load_nsys(sqlite3 *db, const char *file, const struct tf_keep *keep,
                  struct tf_trace *out, struct tf_diag *d);

#endif
