/* stats_table.c - what --stats' writers share (render/stats_int.h): a
 * counter's decimals, the aligned text table (cells row by row, numbers
 * aligned on their decimal point, widths in characters: UTF-8 code
 * points) and the CSV field (quoted as RFC 4180 says).  Moved out of
 * stats.c as it was.
 */
#include "render/stats_int.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "base/utf8.h"

int tf_stats_value_decimals(double lo, double hi)
{
    double m = fabs(lo) > fabs(hi) ? fabs(lo) : fabs(hi);
    if (!isfinite(m) || m == 0)
        return 0;
    /* 10^k <= m, by multiplying (exact for these powers), not log10. */
    int k = 0;
    double p = 1;
    while (k < 20 && p * 10 <= m)
        p *= 10, k++;
    while (k > -10 && p > m)
        p /= 10, k--;
    int dec = 5 - k;
    return dec < 0 ? 0 : dec > 9 ? 9 : dec;
}

/* --- an aligned table ----------------------------------------------------------- */

void tf_stats_table_init(struct table *t, size_t ncol)
{
    memset(t, 0, sizeof *t);
    tf_arena_init(&t->arena);
    t->ncol = ncol < 1 ? 1 : ncol > MAX_COLS ? MAX_COLS : ncol;
    t->left[0] = true;
}

void tf_stats_cell(struct table *t, const char *s)
{
    char *c = tf_arena_strdup(&t->arena, s ? s : "");
    if (!c || !TF_GROW(t->cells, t->n, t->cap)) {
        t->oom = true;
        return;
    }
    for (char *p = c; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7F)
            *p = ' ';
    t->cells[t->n++] = c;
}

static size_t width(const char *s)
{
    size_t w = 0;
    uint32_t cp;
    for (size_t len; (len = tf_utf8_next((const unsigned char *)s, &cp)) > 0; s += len)
        w++;
    return w;
}

static void pad(struct tf_buf *b, size_t n)
{
    while (n--)
        tf_buf_putc(b, ' ');
}

/* The characters from a number's decimal point to its end (0: none), so
 * that numbers whose trailing zeros were trimmed still align on the point;
 * SIZE_MAX for a cell that is not a number. */
size_t tf_stats_frac(const char *s)
{
    if (!((*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' && s[1] <= '9')))
        return SIZE_MAX;
    const char *dot = strchr(s, '.');
    return dot ? strlen(dot) : 0;
}

/* Writes the table (two spaces between columns, numbers aligned on their
 * decimal point, no trailing blanks) and empties it. */
void tf_stats_table_flush(struct table *t, struct tf_buf *b)
{
    if (t->oom) {
        b->oom = true;
    } else {
        size_t w[MAX_COLS] = {0}, fw[MAX_COLS] = {0};
        for (size_t i = 0; i < t->n; i++) {
            size_t c = i % t->ncol, f = tf_stats_frac(t->cells[i]);
            if (!t->left[c] && f != SIZE_MAX && f > fw[c])
                fw[c] = f;
        }
        for (size_t i = 0; i < t->n; i++) {
            size_t c = i % t->ncol, f = tf_stats_frac(t->cells[i]), cw = width(t->cells[i]);
            if (!t->left[c] && f != SIZE_MAX)
                cw += fw[c] - f;
            if (cw > w[c])
                w[c] = cw;
        }
        struct tf_buf line;
        tf_buf_init(&line);
        for (size_t r = 0; r * t->ncol < t->n; r++) {
            tf_buf_clear(&line);
            for (size_t c = 0; c < t->ncol && r * t->ncol + c < t->n; c++) {
                const char *s = t->cells[r * t->ncol + c];
                size_t f = tf_stats_frac(s), tail = !t->left[c] && f != SIZE_MAX ? fw[c] - f : 0;
                size_t gap = w[c] - width(s) - tail;
                if (c > 0)
                    tf_buf_puts(&line, "  ");
                if (!t->left[c])
                    pad(&line, gap);
                tf_buf_puts(&line, s);
                pad(&line, t->left[c] ? gap : tail);
            }
            while (line.len > 0 && line.data[line.len - 1] == ' ')
                line.data[--line.len] = '\0';
            tf_buf_puts(b, line.len ? line.data : "");
            tf_buf_putc(b, '\n');
        }
        if (line.oom)
            b->oom = true;
        tf_buf_fini(&line);
    }
    free(t->cells);
    tf_arena_fini(&t->arena);
}

/* --- CSV ---------------------------------------------------------------------------- */

/* A field, quoted when it holds a comma, a quote, CR or LF. */
void tf_stats_field(struct tf_buf *b, const char *s)
{
    if (!s)
        return;
    if (!strpbrk(s, ",\"\r\n")) {
        tf_buf_puts(b, s);
        return;
    }
    tf_buf_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"')
            tf_buf_putc(b, '"');
        tf_buf_putc(b, *s);
    }
    tf_buf_putc(b, '"');
}
