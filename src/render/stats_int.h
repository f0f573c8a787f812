/* stats_int.h - what the files of `--stats` share (render/stats.h):
 * the aligned text table and the CSV field (stats_table.c), and the rows
 * of one trace's numbers (stats_csv.c), which the CSV writes and the
 * writer of several traces (stats_traces.c) gathers into columns.  Private to
 * src/render/stats*.c.
 */
#ifndef TF_RENDER_STATS_INT_H
#define TF_RENDER_STATS_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "model/figure.h"
#include "render/stats.h"

#include "base/num.h"

/* A time in ms and a share in %, with the decimals of render/stats_num.h
 * (static: each file of --stats its own). */
static inline const char *ms(char out[TF_NUM_MAX], double v)
{
    return tf_fmt_num(out, v, TF_STATS_MS_DEC);
}

/* A time of the statistics s, with its decimals (tf_stats_ms_dec). */
static inline const char *msd(char out[TF_NUM_MAX], const struct tf_stats *s, double v)
{
    return tf_fmt_num(out, v, tf_stats_ms_dec(s->ms_dec));
}

static inline const char *pct(char out[TF_NUM_MAX], double v)
{
    return tf_fmt_num(out, v, TF_STATS_PCT_DEC);
}

/* --- an aligned table (stats_table.c) --- */

enum { MAX_COLS = 1100 }; /* a thousand traces side by side */

/* Cells row by row; column 0 is left-aligned, the others right-aligned
 * (their text is numbers) unless `left` says otherwise. */
struct table {
    struct tf_arena arena;
    const char **cells;
    size_t n, cap, ncol;
    bool left[MAX_COLS];
    bool oom;
};

void tf_stats_table_init(struct table *t, size_t ncol);
/* Appends a cell (control characters print as spaces). */
void tf_stats_cell(struct table *t, const char *s);
/* The characters from a number's decimal point to its end (0: none);
 * SIZE_MAX for a cell that is not a number. */
size_t tf_stats_frac(const char *s);
/* Writes the table (two spaces between columns, numbers aligned on their
 * decimal point, no trailing blanks) and empties it. */
void tf_stats_table_flush(struct table *t, struct tf_buf *b);

/* A CSV field, quoted when it holds a comma, a quote, CR or LF. */
void tf_stats_field(struct tf_buf *b, const char *s);

/* --- one trace's numbers (stats_csv.c) --- */

/* A group's lanes as text ("0 1 2", " ..." past what fits in n bytes). */
void tf_stats_lanes_text(char *out, size_t n, const struct tf_stat_group *g);

/* Where the statistics' rows go: one call per number, as the CSV has them. */
struct rows {
    void (*row)(struct rows *r, const char *section, const char *rw, const char *col,
                const char *key, const char *value);
    struct tf_buf *b;
};

/* The CSV's row callback: one line "section,row,column,key,value" to r->b. */
void tf_stats_csv_row(struct rows *r, const char *section, const char *rw, const char *col,
                      const char *key, const char *value);

/* Every number of s, whose lanes are the figure's lanes [lane0, lane0 +
 * n_lanes), in the CSV's order. */
void tf_stats_emit(const struct tf_figure *f, const struct tf_stats *s, size_t lane0,
                   size_t n_lanes, struct rows *o);

#endif
