/* plan_labels.c - the label texts the layout policy chooses among (see
 * plan.h): each lane's label at every level (full; short, under a header
 * per process; elided in the middle, keeping the part that tells it from
 * its neighbours), and the elision of any text to a width or a count of
 * characters.  plan.c picks among them for SVG, PDF and PNG; tikz_fit.c
 * writes them all for TeX to pick. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "base/escape.h"
#include "base/utf8.h"
#include "render/metrics.h"
#include "render/plan.h"
#include "render/plan_int.h"

const unsigned TF_PLAN_ELIDE[TF_PLAN_LEVELS - 2] = {28, 20, 14};

/* --- measuring ------------------------------------------------------------------ */

double tf_plan_text_h(double size, bool bold)
{
    return tf_text_ascent(size, bold) + tf_text_descent(size, bold);
}

double tf_plan_text_width(const char *s, double size, bool bold)
{
    char *c = tf_xml_clean(s ? s : "");
    double w = tf_text_width(c ? c : (s ? s : ""), size, bold);
    free(c);
    return w;
}


/* --- elision -------------------------------------------------------------------- */

/* Code points in s. */
static size_t n_chars(const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        uint32_t cp;
        p += tf_utf8_next(p, &cp);
        n++;
    }
    return n;
}

/* The byte offset of the k-th code point of s (its length when k is past it). */
static size_t char_off(const char *s, size_t k)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p && k) {
        uint32_t cp;
        p += tf_utf8_next(p, &cp);
        k--;
    }
    return (size_t)(p - (const unsigned char *)s);
}

/* head … tail: the first `head` and the last `tail` code points. */
static const char *join_elided(struct tf_arena *a, const char *s, size_t head, size_t tail)
{
    size_t n = n_chars(s);
    size_t h = char_off(s, head), t = char_off(s, n - tail);
    struct tf_buf b;
    tf_buf_init(&b);
    tf_buf_putn(&b, s, h);
    tf_buf_puts(&b, "\xE2\x80\xA6");
    tf_buf_puts(&b, s + t);
    const char *r = b.oom ? NULL : tf_arena_buf(a, &b);
    tf_buf_fini(&b);
    return r;
}

/* s elided to at most max code points, keeping the part that tells it
 * from its neighbours: its last `tail` code points (what follows the prefix
 * it shares with one of them).  "head…tail" when the tail leaves a head of
 * 3 or more; "hea…middle…" when the telling part is too long for that;
 * otherwise halves around the middle. */
static const char *elide_chars(struct tf_arena *a, const char *s, size_t max, size_t tail)
{
    size_t n = n_chars(s);
    if (n <= max || max < 3)
        return s;
    if (tail + 4 <= max)
        return join_elided(a, s, max - 1 - tail, tail);
    if (tail < n && n - tail >= 4 && max >= 8) {
        /* hea…<the telling part, cut>… */
        size_t from = char_off(s, n - tail), len = char_off(s + from, max - 5);
        struct tf_buf b;
        tf_buf_init(&b);
        tf_buf_putn(&b, s, char_off(s, 3));
        tf_buf_puts(&b, "\xE2\x80\xA6");
        tf_buf_putn(&b, s + from, len);
        tf_buf_puts(&b, "\xE2\x80\xA6");
        const char *r = b.oom ? NULL : tf_arena_buf(a, &b);
        tf_buf_fini(&b);
        return r;
    }
    tail = (max - 1) / 2;
    return join_elided(a, s, max - 1 - tail, tail);
}

const char *tf_plan_elide_chars(struct tf_arena *a, const char *s, size_t max, size_t tail)
{
    return elide_chars(a, s, max, tail);
}

const char *tf_plan_elide(struct tf_arena *a, const char *s, double max_w, double size,
                          bool bold, size_t keep_tail)
{
    if (tf_plan_text_width(s, size, bold) <= max_w)
        return s;
    size_t n = n_chars(s);
    size_t tail = keep_tail && keep_tail < n ? keep_tail : n / 2;
    for (size_t max = n - 1; max >= 2; max--) {
        const char *e = elide_chars(a, s, max, tail);
        if (!e)
            return NULL;
        if (tf_plan_text_width(e, size, bold) <= max_w)
            return e;
    }
    return "\xE2\x80\xA6";
}

/* --- label levels ------------------------------------------------------------------ */

static bool same(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

/* Code points at the end of s[i] that tell it from the others of [lo, hi):
 * everything after the longest prefix it shares with one of them. */
static size_t distinct_tail(const char *const *t, size_t lo, size_t hi, size_t i)
{
    size_t best = 0;
    for (size_t k = lo; k < hi; k++) {
        if (k == i)
            continue;
        size_t c = 0;
        while (t[i][c] && t[i][c] == t[k][c])
            c++;
        if (c > best)
            best = c;
    }
    /* two characters of context before the difference ("/09" and "/19",
     * not "9" twice), back to the start of a code point */
    best = best > 2 ? best - 2 : 0;
    while (best > 0 && ((unsigned char)t[i][best] & 0xC0) == 0x80)
        best--;
    return n_chars(t[i] + best);
}

/* The code points at the end of legend entry i that tell it from the
 * others (0: none shares a prefix with it). */
size_t tf_plan_legend_tail(const struct tf_figure *f, size_t i)
{
    const char **t = malloc((f->n_legend ? f->n_legend : 1) * sizeof *t);
    if (!t)
        return 0;
    for (size_t k = 0; k < f->n_legend; k++)
        t[k] = f->legend[k].label ? f->legend[k].label : "";
    size_t tail = distinct_tail(t, 0, f->n_legend, i);
    size_t n = n_chars(t[i]);
    free(t);
    return tail >= n ? 0 : tail;
}

const char *tf_plan_elide_distinct(struct tf_arena *a, const struct tf_figure *f, size_t i,
                                   size_t max)
{
    const char *s = f->legend[i].label ? f->legend[i].label : "";
    size_t tail = tf_plan_legend_tail(f, i);
    return elide_chars(a, s, max, tail ? tail : n_chars(s) / 2);
}

bool tf_plan_label_levels(const struct tf_figure *f, size_t n, struct tf_arena *a,
                          struct tf_label_levels *out)
{
    memset(out, 0, sizeof *out);
    out->n = n;
    out->text = calloc((n ? n : 1) * TF_PLAN_LEVELS, sizeof *out->text);
    out->header_of = malloc((n ? n : 1) * sizeof *out->header_of);
    out->headers = calloc(n ? n : 1, sizeof *out->headers);
    if (!out->text || !out->header_of || !out->headers)
        return false;
    const char **full = out->text, **shrt = out->text + n;
    for (size_t i = 0; i < n; i++) {
        full[i] = f->lanes[i].label ? f->lanes[i].label : "";
        shrt[i] = full[i];
        out->header_of[i] = (size_t)-1;
    }
    /* A job's overview: its rows under one header, the rank axis; labels
     * elided keep their ends (the last rank). */
    if (f->overview.on) {
        if (f->overview.axis && n) {
            out->headers[out->n_headers++] = f->overview.axis;
            for (size_t i = 0; i < n; i++)
                out->header_of[i] = 0;
        }
        /* The short label: the ranks alone ("16–19"), the rank axis saying
         * they are ranks; a row of ranks that are not all those between
         * (another order than rank's) by its places in that order
         * ("#1009–1024": the last sixteen to end). */
        size_t k = f->overview.per_row ? f->overview.per_row : 1;
        for (size_t i = 0; i < n; i++) {
            const struct tf_lane *ln = &f->lanes[i];
            const char *sp = strchr(full[i], ' ');
            shrt[i] = sp && strncmp(full[i], "rank", 4) == 0 ? sp + 1 : full[i];
            if (ln->n_ranks > 1 &&
                (unsigned long long)(ln->rank_hi - ln->rank_lo) + 1 != ln->n_ranks) {
                char t[64];
                snprintf(t, sizeof t, "#%zu\xE2\x80\x93%zu", i * k + 1, i * k + ln->n_ranks);
                if (!(shrt[i] = tf_arena_strdup(a, t)))
                    return false;
            }
        }
        for (size_t lv = 2; lv < TF_PLAN_LEVELS; lv++)
            for (size_t i = 0; i < n; i++)
                if (!(out->text[lv * n + i] = elide_chars(a, shrt[i], TF_PLAN_ELIDE[lv - 2],
                                                          n_chars(shrt[i]) / 2)))
                    return false;
        return true;
    }
    /* Runs of two or more lanes of one process: a header, and the lanes
     * named by thread alone (with the id when two names are alike). */
    for (size_t i = 0; i < n;) {
        const struct tf_lane *ln = &f->lanes[i];
        size_t j = i + 1;
        while (ln->group && ln->name && j < n && same(f->lanes[j].group, ln->group) &&
               f->lanes[j].name)
            j++;
        if (j - i >= 2) {
            size_t h = out->n_headers++;
            out->headers[h] = ln->group;
            if (!tf_plan_process_run(f, i, j, h, a, out, shrt))
                return false;
        }
        i = j;
    }
    /* A process of one lane right after a header's lanes would read as one
     * of them (its label in their column): it gets a header of its own,
     * and so, in turn, does one right after it.  A lane whose label is one
     * part has no header to take; it keeps its full label. */
    for (size_t i = 1; i < n; i++) {
        const struct tf_lane *ln = &f->lanes[i];
        if (out->header_of[i] != (size_t)-1 || out->header_of[i - 1] == (size_t)-1 ||
            !ln->group || !ln->name)
            continue;
        size_t h = out->n_headers++;
        out->headers[h] = ln->group;
        shrt[i] = ln->name;
        out->header_of[i] = h;
    }
    if (f->n_traces && !tf_plan_trace_groups(f, n, a, out, shrt))
        return false;
    /* Two short labels alike (namesakes without ids): both keep the full one. */
    for (size_t i = 0; i < n; i++)
        for (size_t k = i + 1; k < n; k++)
            if (strcmp(shrt[i], shrt[k]) == 0 && out->header_of[i] == out->header_of[k] &&
                strcmp(full[i], full[k]) != 0) {
                shrt[i] = full[i];
                shrt[k] = full[k];
            }
    for (size_t lv = 2; lv < TF_PLAN_LEVELS; lv++)
        for (size_t i = 0; i < n; i++) {
            /* Siblings: the lanes under the same header, or all others. */
            size_t lo = 0, hi = n;
            if (out->header_of[i] != (size_t)-1) {
                lo = i;
                while (lo > 0 && out->header_of[lo - 1] == out->header_of[i])
                    lo--;
                hi = i;
                while (hi < n && out->header_of[hi] == out->header_of[i])
                    hi++;
            }
            size_t tail = distinct_tail(shrt, lo, hi, i);
            const char *e = elide_chars(a, shrt[i], TF_PLAN_ELIDE[lv - 2], tail);
            if (!e)
                return false;
            out->text[lv * n + i] = e;
        }
    return true;
}

void tf_label_levels_fini(struct tf_label_levels *l)
{
    free(l->text);
    free(l->header_of);
    free(l->headers);
    memset(l, 0, sizeof *l);
}

/* Words of s into lines of at most `avail` points at `size`. */
bool tf_plan_wrap_lines(struct tf_plan *p, const char *s, double size, double avail)
{
    size_t cap = 4;
    p->annot = calloc(cap, sizeof *p->annot);
    if (!p->annot)
        return false;
    struct tf_buf line;
    tf_buf_init(&line);
    const char *w = s;
    while (*w) {
        while (*w == ' ')
            w++;
        if (!*w)
            break;
        const char *e = w;
        while (*e && *e != ' ')
            e++;
        size_t keep = line.len;
        if (line.len)
            tf_buf_putc(&line, ' ');
        tf_buf_putn(&line, w, (size_t)(e - w));
        if (line.oom)
            break;
        if (keep && tf_plan_text_width(line.data, size, false) > avail) {
            line.len = keep;
            line.data[keep] = '\0';
            if (!TF_GROW(p->annot, p->n_annot, cap))
                break;
            p->annot[p->n_annot++] = tf_arena_buf(&p->arena, &line);
            tf_buf_clear(&line);
            continue; /* the word again, on the next line */
        }
        w = e;
    }
    bool ok = !line.oom;
    if (ok && line.len) {
        ok = TF_GROW(p->annot, p->n_annot, cap);
        if (ok)
            p->annot[p->n_annot++] = tf_arena_buf(&p->arena, &line);
    }
    tf_buf_fini(&line);
    for (size_t i = 0; ok && i < p->n_annot; i++)
        ok = p->annot[i] != NULL;
    return ok;
}
