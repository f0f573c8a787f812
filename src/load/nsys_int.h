/* nsys_int.h - what the files of the export loader share (nsys.c, which
 * runs the queries, and nsys_meta.c, which reads what the export says
 * about itself, and nsys_strings.c, which looks names up in StringIds):
 * the tables and the loader's state.  Not for other modules: load/nsys.h is the loader's interface.
 */
#ifndef TF_LOAD_NSYS_INT_H
#define TF_LOAD_NSYS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/diag.h"
#include "load/idnames.h"
#include "load/nsys_rows.h"
#include "load/sqlite.h"
#include "model/trace.h"

/* Every call reads sq.NAME (load/sqlite.h). */
#define sq tf_sq

/* The expressions every event query selects, in this order. */
enum col {
    C_START, C_END, C_GID, C_DEVICE, C_STREAM, C_CORR, C_NAME, C_SHORT, C_TEXT,
    C_GRIDX, C_GRIDY, C_GRIDZ, C_BLOCKX, C_BLOCKY, C_BLOCKZ,
    C_BYTES, C_COPYKIND, C_SRCKIND, C_DSTKIND, C_MEMKIND, C_CLASS, C_TYPE, C_COLOR,
    N_COLS
};

/* Labels of enum ids up to this many. */
#define N_ENUM 64

struct table {
    bool present;       /* exists, with start and end */
    bool has[N_COLS];
    int pos[N_COLS];    /* its place in the select list, -1: not selected */
    char *index;        /* an index whose first column is start, or NULL */
    sqlite3_stmt *st;   /* the running query */
    bool live;          /* st holds a row */
    int64_t cur;        /* its start */
    /* Pass 2 of GPU work: the columns only args show (lazy_col) are read
     * by rowid for the rows the sink wants args of (lazy_row). */
    bool lazy;
    int rowid_pos;          /* the rowid's place in st's select list */
    sqlite3_stmt *lazy_st;  /* SELECT those columns WHERE rowid = ?1 */
    int lpos[N_COLS];       /* their places in it, -1: not there */
    bool lrow;              /* lazy_st holds the current row's */
    /* What pass 1 saw of every row, when it read them all (seen_all): so
     * pass 2 needs no WHERE when the window holds every row (whole). */
    bool seen_all, any_row, null_end;
    int64_t max_start, min_end;
};

struct ld {
    const char *file;
    sqlite3 *db;
    const struct tf_tef_sink *sink;
    struct tf_nsys *conv;
    struct table t[TF_NSYS_N_TABLES];
    bool has_meta, has_strings;
    size_t n_tables;       /* in the database */
    sqlite3_stmt *str_st;
    struct tf_idnames names; /* StringIds looked up so far */
    struct tf_arena arena;
    const char *copy_kind[N_ENUM], *mem_kind[N_ENUM];
    struct tf_buf sql, ids, tmp;
    int64_t args_floor;    /* pass 2: GPU work shorter than this needs no args */
    bool threaded;         /* rows read on a second thread (nsys_pipe.h) */
    bool pass1;            /* rows are read for pass 1 (next_row notes their extent) */
    int last;              /* the table of the row given last (next_row), -1: none */
};

/* The connection's error as a message naming the file (false); one step
 * of st (*row: a row; false, reported, on an error); whether a table
 * exists (load/sqlite.h, for the loader's connection). */
static inline bool tf_nsys_db_error(struct ld *l, const char *what, struct tf_diag *d)
{
    return tf_sq_error(l->db, l->file, what, d);
}

static inline bool tf_nsys_step(struct ld *l, sqlite3_stmt *st, bool *row, const char *what,
                                struct tf_diag *d)
{
    return tf_sq_step(l->db, l->file, st, row, what, d);
}

static inline bool tf_nsys_is_table(struct ld *l, const char *name, struct tf_diag *d,
                                    bool *yes)
{
    return tf_sq_exists(l->db, l->file, "table", name, yes, d);
}

/* nsys_strings.c: a name column (text as it is, *raw set: not checked as
 * UTF-8 yet; an integer through StringIds, looked up once and made valid
 * UTF-8 then).  The table is freed with the loader. */
bool tf_nsys_name_col(struct ld *l, sqlite3_stmt *st, int col, const char **out, bool *raw,
                      struct tf_diag *d);

/* nsys_meta.c: the processes, threads, GPUs, streams and enum labels the
 * export lists, to l->conv and l->copy_kind / l->mem_kind. */
bool tf_nsys_describe(struct ld *l, struct tf_diag *d);

#endif
