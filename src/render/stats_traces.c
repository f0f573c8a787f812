/* stats_traces.c - `--stats` of a figure of several traces: one column
 * per trace and, with two, their difference, as a table or CSV (see
 * render/stats.h); the numbers are each trace's rows as stats.c emits them
 * (tf_stats_emit).  Moved out of stats.c as it was.
 */
#include "render/stats_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"

/* --- several traces: one column each ------------------------------------------------ */

/* A number of the statistics, by what it is and which trace gave it. */
struct cell {
    const char *section, *row, *col, *key; /* in the arena; row, col as shown */
    const char *row_match, *col_match;     /* what rows of other traces match */
    const char **value;                    /* per trace, NULL: none */
    size_t order;                          /* its section's first appearance */
};

struct cells {
    struct rows rows; /* first: the emitter's callback */
    struct tf_arena arena;
    struct cell *v;
    size_t n, cap;
    size_t n_traces, trace;
    bool oom;
};

static bool same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static const char *keep(struct cells *c, const char *s)
{
    if (!s)
        return NULL;
    const char *k = tf_arena_strdup(&c->arena, s);
    if (!k)
        c->oom = true;
    return k;
}

static bool is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

static bool is_alnum(char ch)
{
    return is_digit(ch) || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

/* What a lane's, a group's or a counter's label matches in other traces:
 * its process (all of a group's label, the part of a lane's before " / ")
 * with its numbers as "*", so that "GPU 0 / stream 7" of one rank and "GPU
 * 1 / stream 7" of another are one row; a counter's numbers that stand as
 * words ("CUDA 3", "id: 1", not "python3"), so that each rank's memory on
 * its own GPU ("memory CUDA 3 allocated") is one row too (a trace's second
 * counter that matches the same takes the next row). */
static const char *general(struct cells *c, const char *section, const char *label)
{
    bool lane = strcmp(section, "lane") == 0, counter = strcmp(section, "counter") == 0;
    if (!label || (!lane && !counter && strcmp(section, "group") != 0 &&
                   strcmp(section, "overlap") != 0))
        return keep(c, label);
    const char *slash = lane ? strstr(label, " / ") : NULL;
    size_t head = slash ? (size_t)(slash - label) : strlen(label);
    struct tf_buf b;
    tf_buf_init(&b);
    for (size_t i = 0; i < head; i++) {
        if (!is_digit(label[i])) {
            tf_buf_putc(&b, label[i]);
            continue;
        }
        size_t j = i;
        while (j < head && is_digit(label[j]))
            j++;
        if (counter && ((i > 0 && is_alnum(label[i - 1])) || (j < head && is_alnum(label[j]))))
            tf_buf_putn(&b, label + i, j - i); /* part of a word */
        else
            tf_buf_putc(&b, '*');
        i = j - 1;
    }
    tf_buf_puts(&b, label + head);
    const char *k = b.oom ? NULL : tf_arena_buf(&c->arena, &b);
    if (!k)
        c->oom = true;
    tf_buf_fini(&b);
    return k;
}

static void cell_row(struct rows *r, const char *section, const char *rw, const char *col,
                     const char *key, const char *value)
{
    struct cells *c = (struct cells *)r;
    const char *rm = general(c, section, rw), *cm = general(c, section, col);
    /* The same number of an earlier trace: its row (a trace's second lane
     * that matches goes on a row of its own). */
    size_t at = c->n, order = c->n;
    for (size_t i = 0; i < c->n; i++) {
        const struct cell *e = &c->v[i];
        if (same(e->section, section) && order == c->n)
            order = e->order;
        if (!e->value[c->trace] && same(e->section, section) && same(e->row_match, rm) &&
            same(e->col_match, cm) && same(e->key, key)) {
            at = i;
            break;
        }
    }
    if (at == c->n) {
        const char **vals = tf_arena_alloc(&c->arena, c->n_traces * sizeof *vals);
        if (!vals || !TF_GROW(c->v, c->n, c->cap)) {
            c->oom = true;
            return;
        }
        memset(vals, 0, c->n_traces * sizeof *vals);
        c->v[c->n++] = (struct cell){keep(c, section), keep(c, rw), keep(c, col), keep(c, key),
                                     rm, cm, vals, order};
    } else {
        /* Rows of different labels show what they share. */
        struct cell *e = &c->v[at];
        if (!same(e->row, rw))
            e->row = rm;
        if (!same(e->col, col))
            e->col = cm;
    }
    c->v[at].value[c->trace] = value ? keep(c, value) : "";
}



/* Every trace's numbers, matched by (section, row, column, key). */
static bool gather(const struct tf_figure *f, struct cells *c)
{
    memset(c, 0, sizeof *c);
    c->rows.row = cell_row;
    tf_arena_init(&c->arena);
    c->n_traces = f->n_traces;
    for (size_t t = 0; t < f->n_traces; t++) {
        const struct tf_trace_ref *r = &f->traces[t];
        c->trace = t;
        if (r->stats.on)
            tf_stats_emit(f, &r->stats, r->first_lane, r->n_lanes, &c->rows);
    }
    /* Each section's rows together, in the order they came (a stable
     * sort: the array's own order breaks ties). */
    if (!c->oom && c->n > 1) {
        struct cell *tmp = malloc(c->n * sizeof *tmp);
        if (!tmp)
            return false;
        size_t k = 0;
        for (size_t pass = 0; pass < c->n; pass++)
            for (size_t i = 0; i < c->n; i++)
                if (c->v[i].order == pass)
                    tmp[k++] = c->v[i];
        memcpy(c->v, tmp, c->n * sizeof *tmp);
        free(tmp);
    }
    return !c->oom;
}

static void cells_fini(struct cells *c)
{
    free(c->v);
    tf_arena_fini(&c->arena);
}

/* Whether a value is a plain number (a difference can be taken). */
static bool numeric(const char *s, double *v)
{
    if (!s || !*s)
        return false;
    char *end;
    *v = strtod(s, &end);
    return *end == '\0' && tf_stats_frac(s) != SIZE_MAX;
}

/* The second trace's value less the first's, in the digits of the key's
 * kind (a counter's: as many decimals as the two values show, so that it
 * is their exact difference); empty when either is not a number. */
static const char *difference(const struct cell *e, char out[TF_NUM_MAX])
{
    double a, b;
    if (!numeric(e->value[0], &a) || !numeric(e->value[1], &b))
        return "";
    int dec = strstr(e->key, "_pct") ? TF_STATS_PCT_DEC : TF_STATS_MS_DEC;
    if (strcmp(e->section, "counter") == 0) {
        size_t fa = tf_stats_frac(e->value[0]), fb = tf_stats_frac(e->value[1]);
        size_t f = fa > fb ? fa : fb;
        dec = f > 1 ? (int)f - 1 : 0;
    }
    return tf_fmt_num(out, b - a, dec);
}

void tf_stats_write_csv_traces(const struct tf_figure *f, struct tf_buf *b)
{
    struct cells c;
    if (!gather(f, &c)) {
        cells_fini(&c);
        b->oom = true;
        return;
    }
    tf_buf_puts(b, "section,row,column,key");
    for (size_t t = 0; t < f->n_traces; t++) {
        tf_buf_putc(b, ',');
        tf_stats_field(b, f->traces[t].title);
    }
    if (f->n_traces == 2)
        tf_buf_puts(b, ",difference");
    tf_buf_putc(b, '\n');
    char d[TF_NUM_MAX];
    for (size_t i = 0; i < c.n; i++) {
        const struct cell *e = &c.v[i];
        tf_stats_field(b, e->section);
        tf_buf_putc(b, ',');
        tf_stats_field(b, e->row);
        tf_buf_putc(b, ',');
        tf_stats_field(b, e->col);
        tf_buf_putc(b, ',');
        tf_stats_field(b, e->key);
        for (size_t t = 0; t < f->n_traces; t++) {
            tf_buf_putc(b, ',');
            tf_stats_field(b, e->value[t]);
        }
        if (f->n_traces == 2) {
            tf_buf_putc(b, ',');
            tf_stats_field(b, difference(e, d));
        }
        tf_buf_putc(b, '\n');
    }
    cells_fini(&c);
}

/* A key as the table shows it: "busy_ms" -> "busy ms", "_pct" -> "%". */
static void key_text(const char *key, char *out, size_t n)
{
    size_t k = 0;
    for (const char *p = key; *p && k + 2 < n; p++) {
        if (*p == '_' && strcmp(p, "_pct") == 0) {
            out[k++] = ' ';
            out[k++] = '%';
            break;
        }
        out[k++] = *p == '_' ? ' ' : *p;
    }
    out[k] = '\0';
}

void tf_stats_write_table_traces(const struct tf_figure *f, struct tf_buf *b)
{
    struct cells c;
    if (!gather(f, &c)) {
        cells_fini(&c);
        b->oom = true;
        return;
    }
    size_t nt = f->n_traces, ncol = 2 + nt + (nt == 2);
    if (ncol > MAX_COLS) {
        /* More traces than columns: the CSV has them all. */
        tf_buf_printf(b, "%zu traces: too many for one table, --stats=csv lists them\n", nt);
        cells_fini(&c);
        return;
    }
    char d[TF_NUM_MAX], kt[64];
    bool first = true;
    for (size_t i = 0; i < c.n;) {
        /* One table per section; the summaries as lines. */
        const char *sec = c.v[i].section;
        if (!first)
            tf_buf_putc(b, '\n');
        first = false;
        if (strcmp(sec, "summary") == 0) {
            for (size_t k = 0; k < nt; k++)
                if (c.v[i].value[k])
                    tf_buf_printf(b, "summary (%s): %s\n", f->traces[k].title, c.v[i].value[k]);
            i++;
            continue;
        }
        struct table t;
        tf_stats_table_init(&t, ncol);
        t.left[1] = true;
        tf_stats_cell(&t, sec);
        tf_stats_cell(&t, "");
        for (size_t k = 0; k < nt; k++)
            tf_stats_cell(&t, f->traces[k].title);
        if (nt == 2)
            tf_stats_cell(&t, "difference");
        for (; i < c.n && same(c.v[i].section, sec); i++) {
            const struct cell *e = &c.v[i];
            char rowtext[512];
            snprintf(rowtext, sizeof rowtext, "%s%s%s", e->row ? e->row : "",
                     e->col ? " & " : "", e->col ? e->col : "");
            key_text(e->key, kt, sizeof kt);
            tf_stats_cell(&t, *rowtext ? rowtext : kt);
            tf_stats_cell(&t, *rowtext ? kt : "");
            for (size_t k = 0; k < nt; k++)
                tf_stats_cell(&t, e->value[k] ? (*e->value[k] ? e->value[k] : "-") : "-");
            if (nt == 2)
                tf_stats_cell(&t, difference(e, d));
        }
        tf_stats_table_flush(&t, b);
    }
    if (c.n == 0)
        tf_buf_puts(b, "no statistics for these figures\n");
    cells_fini(&c);
}
