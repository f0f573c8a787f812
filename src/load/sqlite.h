/* sqlite.h - libsqlite3 for the loaders that read SQLite databases (an
 * Nsight Systems export, nsys*.c; a rocpd database): the library loaded
 * when first needed, the file checked before SQLite opens it (or the
 * bytes in memory, which SQLite reads where they are), and the queries'
 * errors as one message naming the file.
 *
 * libsqlite3 is dlopen()ed (base/dl.h), so that the runs that read JSON do
 * not load and relocate it; every call goes through tf_sq.NAME.  Nothing
 * here knows a table of any format.
 */
#ifndef TF_LOAD_SQLITE_H
#define TF_LOAD_SQLITE_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/dl.h"

/* The functions of libsqlite3 called, through tf_sq. */
#define TF_SQ_FUNCS(X)                                                                          \
    X(0, int, sqlite3_open_v2, (const char *, sqlite3 **, int, const char *))                  \
    X(0, int, sqlite3_close, (sqlite3 *))                                                       \
    X(0, int, sqlite3_prepare_v2, (sqlite3 *, const char *, int, sqlite3_stmt **, const char **)) \
    X(0, int, sqlite3_step, (sqlite3_stmt *))                                                   \
    X(0, int, sqlite3_reset, (sqlite3_stmt *))                                                  \
    X(0, int, sqlite3_finalize, (sqlite3_stmt *))                                               \
    X(0, int, sqlite3_bind_text, (sqlite3_stmt *, int, const char *, int, void (*)(void *)))    \
    X(0, int, sqlite3_bind_int64, (sqlite3_stmt *, int, sqlite3_int64))                         \
    X(0, int, sqlite3_column_type, (sqlite3_stmt *, int))                                       \
    X(0, sqlite3_int64, sqlite3_column_int64, (sqlite3_stmt *, int))                            \
    X(0, double, sqlite3_column_double, (sqlite3_stmt *, int))                                  \
    X(0, const unsigned char *, sqlite3_column_text, (sqlite3_stmt *, int))                     \
    X(0, int, sqlite3_column_bytes, (sqlite3_stmt *, int))                                      \
    X(0, int, sqlite3_errcode, (sqlite3 *))                                                     \
    X(0, const char *, sqlite3_errmsg, (sqlite3 *))                                             \
    X(0, int, sqlite3_exec,                                                                     \
      (sqlite3 *, const char *, int (*)(void *, int, char **, char **), void *, char **))       \
    X(0, int, sqlite3_stricmp, (const char *, const char *))                                   \
    X(0, int, sqlite3_deserialize,                                                              \
      (sqlite3 *, const char *, unsigned char *, sqlite3_int64, sqlite3_int64, unsigned))
TF_SQ_FUNCS(TF_DL_TYPEDEF)
struct tf_sq_api {
    TF_SQ_FUNCS(TF_DL_MEMBER)
};
/* Filled by tf_sq_load(); read only after it succeeded. */
extern struct tf_sq_api tf_sq;

/* Loads libsqlite3 once per process; false with the message (exit 3)
 * naming the Debian package when it is missing. */
bool tf_sq_load(struct tf_diag *d);

/* The 16 bytes every SQLite database begins with ("SQLite format 3\0"). */
#define TF_SQLITE_MAGIC_LEN 16
bool tf_sq_is_sqlite(const unsigned char *head, size_t n);

/* Whether the file at `path` is whole by its header's account (the page
 * size, the page count it records); false with the message naming `file`. */
bool tf_sq_check_file(const char *path, const char *file, struct tf_diag *d);
/* The same of a database's len bytes at data. */
bool tf_sq_check_memory(const void *data, size_t len, const char *file, struct tf_diag *d);

/* "file:PATH?immutable=1" into b, PATH percent-encoded where a URI needs
 * it: opened so, nothing is locked or written. */
void tf_sq_uri(struct tf_buf *b, const char *path);

/* Opens `path` read-only and immutable for one thread, with query_only
 * set; on failure *db may still need tf_sq.sqlite3_close (it is NULL or a
 * handle) and the message names `file`. */
bool tf_sq_open(const char *path, const char *file, sqlite3 **db, struct tf_diag *d);

/* The same over a database's len bytes at data, where they are
 * (sqlite3_deserialize, read-only: nothing is copied or written, and the
 * bytes, the caller's, must outlive the connection). */
bool tf_sq_open_memory(const void *data, size_t len, const char *file, sqlite3 **db,
                       struct tf_diag *d);

/* The connection's last error as one message naming `file` and `what`
 * (a damaged database, out of memory, or SQLite's own words); false. */
bool tf_sq_error(sqlite3 *db, const char *file, const char *what, struct tf_diag *d);

/* Prepares sql into *st (NULL on failure, reported). */
bool tf_sq_prepare(sqlite3 *db, const char *file, const char *sql, sqlite3_stmt **st,
                   const char *what, struct tf_diag *d);

/* Steps st: true with *row for a row or at the end, false (reported) on
 * an error. */
bool tf_sq_step(sqlite3 *db, const char *file, sqlite3_stmt *st, bool *row, const char *what,
                struct tf_diag *d);

/* Whether the schema has an object of `type` ("table", "view") named
 * `name` (case-insensitive, as SQLite's names are). */
bool tf_sq_exists(sqlite3 *db, const char *file, const char *type, const char *name, bool *yes,
                  struct tf_diag *d);

/* Which of `cols` (n of them; NULL entries are skipped) the table or view
 * has, into has[0 .. n). */
bool tf_sq_columns(sqlite3 *db, const char *file, const char *table, const char *const *cols,
                   size_t n, bool *has, struct tf_diag *d);

#endif
