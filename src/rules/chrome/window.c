/* window.c - the generic Chrome mode's window: which stretch of the trace
 * the figure shows.  Pass 1 hands it every event's extent and every
 * occurrence of --window-event; once the pass is over it fixes the window
 * from --window-event (the K-th occurrence), or --from/--to, or the
 * trace's main run of time, and pads it by --pad.  It parses the times of
 * --from and --to (tf_chrome_parse_time, rules/chrome.h).  It does not
 * choose lanes or clip slices to the window (events.c and rows.c do).
 *
 * Clusters.  A few events on another clock (days away) must not squash the
 * default window.  Pass 1 keeps the events' extents as at most
 * TF_CHROME_CLUSTERS disjoint intervals, merging any two closer than a gap
 * that doubles whenever there would be more.  The default window is then
 * grown from the cluster holding the most events towards its neighbours,
 * taking in each one that holds at least 1 % of the events or lies closer
 * than the span already taken; what is left out is counted (c->n_stray)
 * and reported once by build().  The origin of --from and --to is the
 * start of that window.
 */
#include "rules/chrome/chrome_int.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- times with units -------------------------------------------------------------------- */

bool tf_chrome_parse_time(const char *s, int64_t *ns)
{
    char *end;
    if (!s || !*s || !(s[0] == '-' || s[0] == '.' || (s[0] >= '0' && s[0] <= '9')))
        return false;
    /* Digits only, so no locale can change what strtod reads. */
    size_t k = 0;
    while (s[k] == '-' || s[k] == '.' || (s[k] >= '0' && s[k] <= '9'))
        k++;
    char num[64];
    if (k == 0 || k >= sizeof num)
        return false;
    memcpy(num, s, k);
    num[k] = '\0';
    double v = strtod(num, &end);
    if (end != num + k || !isfinite(v))
        return false;
    const char *u = s + k;
    double scale;
    if (*u == '\0' || strcmp(u, "ms") == 0)
        scale = 1e6;
    else if (strcmp(u, "us") == 0 || strcmp(u, "\xC2\xB5s") == 0)
        scale = 1e3;
    else if (strcmp(u, "ns") == 0)
        scale = 1.0;
    else if (strcmp(u, "s") == 0)
        scale = 1e9;
    else
        return false;
    double x = v * scale;
    if (!(fabs(x) < 9e18))
        return false;
    *ns = (int64_t)llround(x);
    return true;
}

/* --- pass 1: where the time lies --------------------------------------------------- */

static void merge_clusters(struct chrome *c)
{
    size_t k = 0;
    for (size_t i = 0; i < c->n_clusters; i++) {
        if (k && c->clusters[i].lo - c->clusters[k - 1].hi <= c->gap) {
            if (c->clusters[i].hi > c->clusters[k - 1].hi)
                c->clusters[k - 1].hi = c->clusters[i].hi;
            c->clusters[k - 1].count += c->clusters[i].count;
        } else {
            c->clusters[k++] = c->clusters[i];
        }
    }
    c->n_clusters = k;
}

void tf_chrome_add_extent(struct chrome *c, int64_t lo, int64_t hi)
{
    c->n_drawable++;
    size_t n = c->n_clusters;
    /* The common case: inside or next to the last cluster touched. */
    for (size_t i = n; i-- > 0;) {
        if (lo > c->clusters[i].hi + c->gap)
            break;
        if (hi >= c->clusters[i].lo - c->gap) {
            if (lo < c->clusters[i].lo)
                c->clusters[i].lo = lo;
            if (hi > c->clusters[i].hi)
                c->clusters[i].hi = hi;
            c->clusters[i].count++;
            /* It may now touch its neighbours. */
            if ((i > 0 && c->clusters[i].lo - c->clusters[i - 1].hi <= c->gap) ||
                (i + 1 < n && c->clusters[i + 1].lo - c->clusters[i].hi <= c->gap))
                merge_clusters(c);
            return;
        }
    }
    /* A new cluster, in order. */
    size_t at = n;
    while (at > 0 && c->clusters[at - 1].lo > lo)
        at--;
    memmove(&c->clusters[at + 1], &c->clusters[at], (n - at) * sizeof c->clusters[0]);
    c->clusters[at].lo = lo;
    c->clusters[at].hi = hi;
    c->clusters[at].count = 1;
    c->n_clusters++;
    while (c->n_clusters > TF_CHROME_CLUSTERS) {
        c->gap = c->gap ? c->gap * 2 : 1000;
        merge_clusters(c);
    }
}

/* A --window-event occurrence: keep the K earliest starts. */
void tf_chrome_add_occurrence(struct chrome *c, int64_t t0, int64_t t1)
{
    size_t k = c->o->occurrence > 0 ? (size_t)c->o->occurrence : 1;
    c->n_occ_all++;
    if (c->n_occ == k) {
        if (t0 >= c->occ[0].t0)
            return;
        /* Replace the root and sift down. */
        c->occ[0].t0 = t0;
        c->occ[0].t1 = t1;
        for (size_t i = 0;;) {
            size_t l = 2 * i + 1, r = l + 1, m = i;
            if (l < c->n_occ && c->occ[l].t0 > c->occ[m].t0)
                m = l;
            if (r < c->n_occ && c->occ[r].t0 > c->occ[m].t0)
                m = r;
            if (m == i)
                break;
            struct occ tmp = c->occ[i];
            c->occ[i] = c->occ[m];
            c->occ[m] = tmp;
            i = m;
        }
        return;
    }
    if (!TF_GROW(c->occ, c->n_occ, c->cap_occ)) {
        c->oom = true;
        return;
    }
    size_t i = c->n_occ++;
    c->occ[i].t0 = t0;
    c->occ[i].t1 = t1;
    while (i > 0 && c->occ[(i - 1) / 2].t0 < c->occ[i].t0) {
        struct occ tmp = c->occ[i];
        c->occ[i] = c->occ[(i - 1) / 2];
        c->occ[(i - 1) / 2] = tmp;
        i = (i - 1) / 2;
    }
}

/* --- --window-event: a name or a glob ------------------------------------------- */

/* Names kept for the message at most, and their bytes. */
#define NEAR_MAX_NAMES 4096
#define NEAR_MAX_BYTES (1u << 20)
/* Names listed in the message. */
#define NEAR_SHOWN 5

void tf_chrome_window_event_init(struct chrome *c)
{
    const char *p = c->o->window_event;
    if (!p)
        return;
    size_t head = strcspn(p, "*?[\\");
    c->we_glob = p[head] != '\0';
    c->we_head = head;
}

/* A name kept for the message: one of about the pattern's length. */
static void keep_near(struct chrome *c, const char *name)
{
    size_t n = strlen(name), p = strlen(c->o->window_event);
    if (n + 3 < p / 2 || n > 2 * p + 8)
        return;
    uint32_t id;
    size_t before = c->near.n;
    if (!tf_strtab_id(&c->near, name, &id)) {
        c->oom = true;
        return;
    }
    if (c->near.n > before)
        c->near_bytes += n + 1;
    if (c->near.n >= NEAR_MAX_NAMES || c->near_bytes >= NEAR_MAX_BYTES)
        c->near_off = true;
}

bool tf_chrome_is_window_event(struct chrome *c, const char *name)
{
    const char *p = c->o->window_event;
    bool hit = strcmp(name, p) == 0 ||
               (c->we_glob && strncmp(name, p, c->we_head) == 0 && fnmatch(p, name, 0) == 0);
    if (hit && !c->near_off) {
        /* Found: the names are not needed any more. */
        tf_strtab_fini(&c->near);
        tf_strtab_init(&c->near);
        c->near_off = true;
    } else if (!hit && !c->near_off) {
        keep_near(c, name);
    }
    return hit;
}

static bool gocc_later(const struct gocc *a, const struct gocc *b)
{
    return a->t0 > b->t0 || (a->t0 == b->t0 && a->name > b->name);
}

static void gocc_swap(struct gocc *a, struct gocc *b)
{
    struct gocc t = *a;
    *a = *b;
    *b = t;
}

void tf_chrome_window_match(struct chrome *c, const char *name, int64_t t0, int64_t t1)
{
    if (!c->we_glob) {
        tf_chrome_add_occurrence(c, t0, t1);
        return;
    }
    uint32_t id;
    if (!tf_strtab_id(&c->we_names, name, &id)) {
        c->oom = true;
        return;
    }
    c->n_we_all++;
    size_t k = c->o->occurrence > 0 ? (size_t)c->o->occurrence : 1;
    size_t room = 4 * k + 16;
    struct gocc g = {t0, t1, id};
    if (c->n_we_occ == room) {
        /* Full: keep it only if it is earlier than the latest kept. */
        if (!gocc_later(&c->we_occ[0], &g))
            return;
        c->we_occ[0] = g;
        for (size_t i = 0;;) {
            size_t l = 2 * i + 1, r = l + 1, m = i;
            if (l < c->n_we_occ && gocc_later(&c->we_occ[l], &c->we_occ[m]))
                m = l;
            if (r < c->n_we_occ && gocc_later(&c->we_occ[r], &c->we_occ[m]))
                m = r;
            if (m == i)
                break;
            gocc_swap(&c->we_occ[i], &c->we_occ[m]);
            i = m;
        }
        return;
    }
    if (!TF_GROW(c->we_occ, c->n_we_occ, c->cap_we_occ)) {
        c->oom = true;
        return;
    }
    size_t i = c->n_we_occ++;
    c->we_occ[i] = g;
    while (i > 0 && gocc_later(&c->we_occ[i], &c->we_occ[(i - 1) / 2])) {
        gocc_swap(&c->we_occ[i], &c->we_occ[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
}

static int gocc_order(const void *x, const void *y)
{
    const struct gocc *a = x, *b = y;
    if (a->t0 != b->t0)
        return a->t0 < b->t0 ? -1 : 1;
    if (a->name != b->name)
        return a->name < b->name ? -1 : 1;
    return (a->t1 > b->t1) - (a->t1 < b->t1);
}

/* A glob's K-th occurrence: its matches in time order, where a match of
 * the same name as an occurrence already counted that starts inside it is
 * that occurrence again (a step's GPU annotation of its host one); false
 * when there are fewer (*n_found: how many). */
static bool kth_match(struct chrome *c, size_t k, struct occ *out, size_t *n_found)
{
    size_t n = c->n_we_occ;
    *n_found = 0;
    if (n > 1)
        qsort(c->we_occ, n, sizeof *c->we_occ, gocc_order); /* the heap is not needed now */
    int64_t *end = malloc((c->we_names.n ? c->we_names.n : 1) * sizeof *end);
    bool *seen = calloc(c->we_names.n ? c->we_names.n : 1, sizeof *seen);
    bool found = false;
    if (!end || !seen) {
        c->oom = true;
    } else {
        for (size_t i = 0; i < n && !found; i++) {
            const struct gocc *g = &c->we_occ[i];
            if (seen[g->name] && g->t0 < end[g->name])
                continue;
            seen[g->name] = true;
            end[g->name] = g->t1;
            if (++*n_found == k) {
                *out = (struct occ){g->t0, g->t1};
                found = true;
            }
        }
    }
    free(end);
    free(seen);
    return found;
}

/* Edit distance between a and b, ignoring case (the first 127 bytes of
 * each). */
static unsigned distance(const char *a, const char *b)
{
    unsigned row[128];
    size_t n = strlen(b) < 127 ? strlen(b) : 127, m = strlen(a) < 127 ? strlen(a) : 127;
    for (size_t j = 0; j <= n; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; i <= m; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= n; j++) {
            unsigned up = row[j];
            int ca = a[i - 1] >= 'A' && a[i - 1] <= 'Z' ? a[i - 1] + 32 : a[i - 1];
            int cb = b[j - 1] >= 'A' && b[j - 1] <= 'Z' ? b[j - 1] + 32 : b[j - 1];
            unsigned best = diag + (ca != cb);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[n];
}

/* The message of a --window-event with no occurrence: what it looked for,
 * and the nearest names of the trace's slices. */
static bool no_window_event(struct chrome *c, struct tf_diag *d)
{
    const char *p = c->o->window_event;
    struct tf_buf *b = &c->tmp;
    tf_buf_clear(b);
    tf_buf_printf(b, "--window-event: no complete event %s \"%.200s\"",
                  c->we_glob ? "matches" : "named", p);
    size_t best[NEAR_SHOWN];
    unsigned dist[NEAR_SHOWN];
    size_t n_best = 0;
    for (size_t i = 0; i < c->near.n; i++) {
        const char *s = tf_strtab_str(&c->near, (uint32_t)i);
        unsigned k = distance(p, s);
        /* Insert in order of distance, then name. */
        size_t at = n_best;
        while (at > 0 && (dist[at - 1] > k ||
                          (dist[at - 1] == k && strcmp(tf_strtab_str(&c->near, (uint32_t)best[at - 1]), s) > 0)))
            at--;
        if (at >= NEAR_SHOWN)
            continue;
        size_t last = n_best < NEAR_SHOWN ? n_best : NEAR_SHOWN - 1;
        memmove(&best[at + 1], &best[at], (last - at) * sizeof best[0]);
        memmove(&dist[at + 1], &dist[at], (last - at) * sizeof dist[0]);
        best[at] = i;
        dist[at] = k;
        if (n_best < NEAR_SHOWN)
            n_best++;
    }
    for (size_t i = 0; i < n_best; i++)
        tf_buf_printf(b, "%s\"%.80s\"", i ? ", " : "; the nearest names: ",
                      tf_strtab_str(&c->near, (uint32_t)best[i]));
    if (b->oom)
        return tf_diag_oom(d, NULL);
    return tf_diag_error(d, TF_EBADINPUT, "%s", b->data);
}

/* --- the window ------------------------------------------------------------------ */

static bool choose_window(struct chrome *c, struct tf_diag *d)
{
    const struct tf_opts *o = c->o;
    /* A loader that can read selectively (index_lean) hands over no
     * extents when the window does not need them. */
    bool explicit_window = o->window_event || (o->has_from && o->has_to);
    if (c->n_drawable == 0 && !(explicit_window && c->has_clock_origin))
        return tf_diag_error(d, TF_EBADINPUT,
                             "nothing to draw: no slices, instants or counters (X, B/E, i, C "
                             "events)");
    /* The main run of clusters: from the fullest one outwards. */
    size_t best = 0;
    for (size_t i = 1; i < c->n_clusters; i++)
        if (c->clusters[i].count > c->clusters[best].count)
            best = i;
    size_t a = best, b = best;
    size_t min_count = c->n_drawable / 100;
    for (; c->n_clusters > 0;) {
        int64_t span = c->clusters[b].hi - c->clusters[a].lo;
        bool grew = false;
        if (a > 0 && (c->clusters[a - 1].count > min_count ||
                      c->clusters[a].lo - c->clusters[a - 1].hi <= span)) {
            a--;
            grew = true;
        }
        span = c->clusters[b].hi - c->clusters[a].lo;
        if (b + 1 < c->n_clusters && (c->clusters[b + 1].count > min_count ||
                                      c->clusters[b + 1].lo - c->clusters[b].hi <= span)) {
            b++;
            grew = true;
        }
        if (!grew)
            break;
    }
    for (size_t i = 0; i < c->n_clusters; i++)
        if (i < a || i > b)
            c->n_stray += c->clusters[i].count;
    int64_t w0 = c->n_clusters ? c->clusters[a].lo : 0, w1 = c->n_clusters ? c->clusters[b].hi : 0;
    c->origin = c->has_clock_origin ? c->clock_origin : w0;
    c->end = w1;
    if (o->window_event) {
        size_t k = o->occurrence > 0 ? (size_t)o->occurrence : 1;
        if (c->n_occ_all == 0 && c->n_we_all == 0)
            return no_window_event(c, d);
        struct occ hit;
        if (c->we_glob) {
            size_t found;
            if (!kth_match(c, k, &hit, &found))
                return c->oom ? tf_diag_oom(d, NULL)
                              : tf_diag_error(d, TF_EBADINPUT,
                                              "--window-event: only %zu occurrences match "
                                              "\"%.200s\", not %zu",
                                              found, o->window_event, k);
        } else {
            if (c->n_occ < k)
                return tf_diag_error(d, TF_EBADINPUT,
                                     "--window-event: only %zu events named \"%.200s\", not %zu",
                                     c->n_occ_all, o->window_event, k);
            hit = c->occ[0]; /* the heap's root: the K-th earliest */
        }
        w0 = hit.t0;
        w1 = hit.t1;
        c->event_t0 = w0;
    } else {
        if (o->has_from)
            w0 = c->origin + o->from_ns;
        if (o->has_to)
            w1 = c->origin + o->to_ns;
    }
    if (o->pad_pct > 0) {
        double pad = (double)(w1 - w0) * o->pad_pct / 100.0;
        w0 -= (int64_t)llround(pad);
        w1 += (int64_t)llround(pad);
    }
    if (w1 <= w0) {
        if (w1 == w0 && !o->has_from && !o->has_to && !o->window_event) {
            /* Only instants at one time: a window of 1 us around them. */
            w0 -= 500;
            w1 += 500;
        } else {
            return tf_diag_error(d, TF_EBADINPUT, "the window is empty (it ends where it starts)");
        }
    }
    if (!o->window_event)
        c->event_t0 = w0;
    c->w0 = w0;
    c->w1 = w1;
    c->x_origin = w0;
    c->axis_ns = w1 - w0;
    c->chosen = true;
    return true;
}

/* The window, and with it the level of detail's merging threshold. */
bool tf_chrome_window(void *ctx, int64_t *lo, int64_t *hi, struct tf_diag *d)
{
    struct chrome *c = ctx;
    if (!c->chosen && !choose_window(c, d))
        return false;
    *lo = c->w0;
    *hi = c->w1;
    if (c->hta && !tf_hta_finish(c->hta, c->o->stats_trace_scope, d))
        return false;
    tf_chrome_lod_threshold(c);
    tf_chrome_counters_window(c);
    return !c->oom || tf_diag_oom(d, NULL);
}

bool tf_chrome_span(void *state, struct tf_span *s, struct tf_diag *d)
{
    struct chrome *c = state;
    if (!c->chosen && !choose_window(c, d))
        return false;
    *s = (struct tf_span){c->w0, c->w1, c->event_t0, c->origin, c->end};
    return true;
}

void tf_chrome_rewindow(void *state, const struct tf_rewindow *w)
{
    struct chrome *c = state;
    c->w0 = w->w0;
    c->w1 = w->w1;
    c->x_origin = w->x0;
    c->axis_ns = w->axis;
    c->budget_share = w->share;
    c->chosen = true;
}
