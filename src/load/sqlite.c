/* sqlite.c - libsqlite3 for the loaders of SQLite databases; see sqlite.h.
 * The file before SQLite reads it (the magic, the header's own account of
 * the file's length, the URI that opens it read-only and immutable), or a
 * database in memory opened where it is, the library loaded once, and the
 * queries' errors.  Nothing here knows the
 * tables of any format.
 */
#include "load/sqlite.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool tf_sq_is_sqlite(const unsigned char *head, size_t n)
{
    return n >= TF_SQLITE_MAGIC_LEN && memcmp(head, "SQLite format 3", TF_SQLITE_MAGIC_LEN) == 0;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A database of `size` bytes whose first n (at most 100) are h, cut short
 * (a copy that stopped) by its header's own account: the page count it
 * records (when valid: the "version-valid-for" number equals the change
 * counter), else whole pages. */
static bool check_header(const unsigned char *h, size_t n, uint64_t size, const char *file,
                         struct tf_diag *d)
{
    if (n < 100)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: a truncated SQLite database: %lld bytes, not even its header",
                             file, (long long)n);
    uint32_t page = (uint32_t)h[16] << 8 | h[17];
    if (page == 1)
        page = 65536;
    if (page < 512 || (page & (page - 1)))
        return tf_diag_error(d, TF_EBADINPUT, "%s: a damaged SQLite database: page size %u",
                             file, (unsigned)page);
    uint64_t pages = be32(h + 28);
    if (pages && be32(h + 92) == be32(h + 24) && size < pages * page)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: a truncated SQLite database: %llu of its %llu bytes", file,
                             (unsigned long long)size, (unsigned long long)(pages * page));
    if (size % page)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: a truncated SQLite database: %llu bytes, not a whole number "
                             "of %u-byte pages",
                             file, (unsigned long long)size, (unsigned)page);
    return true;
}

bool tf_sq_check_file(const char *path, const char *file, struct tf_diag *d)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return tf_diag_error(d, TF_EBADINPUT, "%s: cannot open: %s", file, strerror(errno));
    struct stat st;
    unsigned char h[100];
    ssize_t n = fstat(fd, &st) == 0 ? pread(fd, h, sizeof h, 0) : -1;
    int err = errno;
    close(fd);
    if (n < 0)
        return tf_diag_error(d, TF_EBADINPUT, "%s: cannot read: %s", file, strerror(err));
    return check_header(h, (size_t)n, (uint64_t)st.st_size, file, d);
}

bool tf_sq_check_memory(const void *data, size_t len, const char *file, struct tf_diag *d)
{
    return check_header(data, len < 100 ? len : 100, len, file, d);
}

/* "file:PATH?immutable=1", PATH percent-encoded where a URI needs it. */
void tf_sq_uri(struct tf_buf *b, const char *path)
{
    tf_buf_puts(b, path[0] == '/' ? "file://" : "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (*p == '%' || *p == '?' || *p == '#' || *p <= 0x20 || *p >= 0x7F)
            tf_buf_printf(b, "%%%02X", *p);
        else
            tf_buf_putc(b, (char)*p);
    }
    tf_buf_puts(b, "?immutable=1");
}

/* --- the library ------------------------------------------------------------- */

TF_SQ_FUNCS(TF_DL_CHECK)
struct tf_sq_api tf_sq;
/* Loaded once per process (see svg.c's xml_load). */
static pthread_once_t sq_once = PTHREAD_ONCE_INIT;
static struct tf_diag sq_outcome;

#define TF_DL_API struct tf_sq_api
static const struct tf_dl_sym sq_syms[] = {TF_SQ_FUNCS(TF_DL_SYM)};
#undef TF_DL_API
static const struct tf_dl_lib sq_lib = {"libsqlite3.so.0", "libsqlite3-0"};

static void sq_load_once(void)
{
    tf_diag_init(&sq_outcome);
    tf_dl_load("Reading an SQLite database (an Nsight Systems export, rocpd)", &sq_lib, 1,
               sq_syms, sizeof sq_syms / sizeof sq_syms[0], &tf_sq, sizeof tf_sq, &sq_outcome);
}

bool tf_sq_load(struct tf_diag *d)
{
    pthread_once(&sq_once, sq_load_once);
    return tf_dl_outcome(&sq_outcome, d);
}

/* --- the connection -------------------------------------------------------------- */

bool tf_sq_open(const char *path, const char *file, sqlite3 **db, struct tf_diag *d)
{
    *db = NULL;
    struct tf_buf uri;
    tf_buf_init(&uri);
    tf_sq_uri(&uri, path);
    if (uri.oom) {
        tf_buf_fini(&uri);
        return tf_diag_oom(d, file);
    }
    /* NOMUTEX: one thread uses the connection; the per-call mutex would
     * cost a quarter of the time of reading a row. */
    int rc = tf_sq.sqlite3_open_v2(uri.data, db,
                                   SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
                                   NULL);
    tf_buf_fini(&uri);
    if (rc != SQLITE_OK)
        return tf_sq_error(*db, file, "cannot open", d);
    /* Nothing is written; no temporary table either. */
    tf_sq.sqlite3_exec(*db, "PRAGMA query_only = 1", NULL, NULL, NULL);
    return true;
}

bool tf_sq_open_memory(const void *data, size_t len, const char *file, sqlite3 **db,
                       struct tf_diag *d)
{
    *db = NULL;
    if (tf_sq.sqlite3_open_v2(":memory:", db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
                              NULL) != SQLITE_OK)
        return tf_sq_error(*db, file, "cannot open", d);
    /* READONLY: SQLite never writes the bytes (so they may be const) and
     * never frees or grows them. */
    int rc = tf_sq.sqlite3_deserialize(*db, "main", (unsigned char *)(uintptr_t)data,
                                       (sqlite3_int64)len, (sqlite3_int64)len,
                                       SQLITE_DESERIALIZE_READONLY);
    if (rc != SQLITE_OK)
        return tf_sq_error(*db, file, "cannot open", d);
    tf_sq.sqlite3_exec(*db, "PRAGMA query_only = 1", NULL, NULL, NULL);
    return true;
}

bool tf_sq_error(sqlite3 *db, const char *file, const char *what, struct tf_diag *d)
{
    int rc = db ? tf_sq.sqlite3_errcode(db) : SQLITE_ERROR;
    const char *msg = db ? tf_sq.sqlite3_errmsg(db) : "cannot open";
    if (rc == SQLITE_NOMEM)
        return tf_diag_oom(d, file);
    if (rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB)
        return tf_diag_error(d, TF_EBADINPUT, "%s: a damaged SQLite database: %s (%s)", file,
                             msg, what);
    return tf_diag_error(d, TF_EBADINPUT, "%s: %s: %s", file, what, msg);
}

/* --- queries ---------------------------------------------------------------------- */

bool tf_sq_prepare(sqlite3 *db, const char *file, const char *sql, sqlite3_stmt **st,
                   const char *what, struct tf_diag *d)
{
    if (tf_sq.sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK) {
        *st = NULL;
        return tf_sq_error(db, file, what, d);
    }
    return true;
}

bool tf_sq_step(sqlite3 *db, const char *file, sqlite3_stmt *st, bool *row, const char *what,
                struct tf_diag *d)
{
    int rc = tf_sq.sqlite3_step(st);
    *row = rc == SQLITE_ROW;
    if (rc == SQLITE_ROW || rc == SQLITE_DONE)
        return true;
    return tf_sq_error(db, file, what, d);
}

bool tf_sq_exists(sqlite3 *db, const char *file, const char *type, const char *name, bool *yes,
                  struct tf_diag *d)
{
    sqlite3_stmt *st;
    if (!tf_sq_prepare(db, file,
                       "SELECT 1 FROM sqlite_master WHERE type = ?1 AND name = ?2 "
                       "COLLATE NOCASE",
                       &st, "the schema", d))
        return false;
    tf_sq.sqlite3_bind_text(st, 1, type, -1, SQLITE_STATIC);
    tf_sq.sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    bool ok = tf_sq_step(db, file, st, yes, "the schema", d);
    tf_sq.sqlite3_finalize(st);
    return ok;
}

bool tf_sq_columns(sqlite3 *db, const char *file, const char *table, const char *const *cols,
                   size_t n, bool *has, struct tf_diag *d)
{
    sqlite3_stmt *st;
    if (!tf_sq_prepare(db, file, "SELECT name FROM pragma_table_info(?1)", &st, table, d))
        return false;
    tf_sq.sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    memset(has, 0, n * sizeof *has);
    bool row, ok;
    while ((ok = tf_sq_step(db, file, st, &row, table, d)) && row) {
        const char *c = (const char *)tf_sq.sqlite3_column_text(st, 0);
        for (size_t i = 0; c && i < n; i++)
            if (cols[i] && tf_sq.sqlite3_stricmp(c, cols[i]) == 0)
                has[i] = true;
    }
    tf_sq.sqlite3_finalize(st);
    return ok;
}
