/* window.c - the generic Chrome mode's window: which stretch of the trace
 * the figure shows.  Pass 1 hands it every drawn event's extent, by the
 * thread whose lane draws it, the instants of processes and of the trace,
 * and every complete event when --window-event is given; once the pass is
 * over it fixes the window from --window-event (the K-th occurrence; the
 * nearest names when none matches), or --from/--to, or the main run of
 * time of the lanes the figure draws, and pads it by --pad.  It parses the
 * times of --from and --to (tf_chrome_parse_time, rules/chrome.h).  It
 * does not choose lanes (lanes.c says which a figure would draw) or clip
 * slices to the window (events.c and rows.c do).
 *
 * Clusters.  A few events on another clock (days away) must not squash the
 * default window.  Pass 1 keeps each thread's extents as at most
 * TF_CHROME_CLUSTERS disjoint intervals, merging any two closer than a gap
 * that doubles whenever there would be more.  For a set of threads their
 * clusters are gathered and bounded the same way; the window then keeps
 * them all but a part on another clock: fewer than 1 % of the events and
 * of their time, farther from the rest than FAR_RUNS times the rest's
 * span.  The parts are cut at the widest gaps, from the outside in, so a
 * part holding more than 1 % of the events or of the time is never left
 * out and of two parts far apart the larger is kept (an idle lead-in, a
 * host's setup calls a second before its work, stay in; only a clock days
 * away is cut); what is left out is counted (c->n_stray) and reported
 * once by build().  The default window is the main run of
 * the threads whose lanes the figure draws (so hidden lanes do not
 * stretch it); the origin of --from and --to that of the lanes drawn by
 * default, whatever --lanes and --hide say, or the trace's own clock
 * origin (an export's session start).  Instants of a process or of the
 * trace set the window only when nothing else would.
 */
#include "rules/chrome/chrome_int.h"

/* Distinct names kept for the message of a --window-event that matches
 * none, and the longest compared by edit distance. */
#define WINDOW_NAMES_MAX 100000
#define WINDOW_NAME_LEN 400

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sat.h"

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

/* Merges the intervals of v closer than gap (v sorted by lo). */
static void merge_close(struct cluster *v, size_t *n, int64_t gap)
{
    size_t k = 0;
    for (size_t i = 0; i < *n; i++) {
        if (k && tf_sub_sat(v[i].lo, v[k - 1].hi) <= gap) {
            if (v[i].hi > v[k - 1].hi)
                v[k - 1].hi = v[i].hi;
            v[k - 1].count += v[i].count;
        } else {
            v[k++] = v[i];
        }
    }
    *n = k;
}

/* Keeps at most TF_CHROME_CLUSTERS intervals, doubling the gap. */
static void bound(struct cluster *v, size_t *n, int64_t *gap)
{
    while (*n > TF_CHROME_CLUSTERS) {
        *gap = !*gap ? 1000 : *gap > INT64_MAX / 2 ? INT64_MAX : *gap * 2;
        merge_close(v, n, *gap);
    }
}

void tf_chrome_add_extent(struct chrome *c, size_t t, int64_t lo, int64_t hi)
{
    struct extent *e = &c->thrs[t].ext;
    e->count++;
    size_t n = e->n;
    /* The common case: inside or next to the last cluster touched. */
    for (size_t i = n; i-- > 0;) {
        struct cluster *k = &e->v[i];
        if (lo > tf_add_sat(k->hi, e->gap))
            break;
        if (hi >= tf_sub_sat(k->lo, e->gap)) {
            if (lo < k->lo)
                k->lo = lo;
            if (hi > k->hi)
                k->hi = hi;
            k->count++;
            /* It may now touch its neighbours. */
            if ((i > 0 && tf_sub_sat(k->lo, e->v[i - 1].hi) <= e->gap) ||
                (i + 1 < n && tf_sub_sat(e->v[i + 1].lo, k->hi) <= e->gap))
                merge_close(e->v, &e->n, e->gap);
            return;
        }
    }
    /* A new cluster, in order. */
    if (!TF_GROW(e->v, e->n, e->cap)) {
        c->oom = true;
        return;
    }
    size_t at = n;
    while (at > 0 && e->v[at - 1].lo > lo)
        at--;
    memmove(&e->v[at + 1], &e->v[at], (n - at) * sizeof e->v[0]);
    e->v[at] = (struct cluster){lo, hi, 1};
    e->n++;
    bound(e->v, &e->n, &e->gap);
}

void tf_chrome_add_mark(struct chrome *c, int64_t ts)
{
    if (!c->n_marks || ts < c->marks_lo)
        c->marks_lo = ts;
    if (!c->n_marks || ts > c->marks_hi)
        c->marks_hi = ts;
    c->n_marks++;
}

static int by_lo(const void *x, const void *y)
{
    const struct cluster *a = x, *b = y;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    return (a->hi > b->hi) - (a->hi < b->hi);
}

/* The clusters of threads ts[0 .. n) together, in *v (caller frees),
 * bounded as one thread's are; *total: their events.  False when out of
 * memory. */
static bool gather(const struct chrome *c, const size_t *ts, size_t n, struct cluster **v,
                   size_t *nv, size_t *total)
{
    size_t all = 0;
    int64_t gap = 0;
    *total = 0;
    for (size_t i = 0; i < n; i++) {
        all += c->thrs[ts[i]].ext.n;
        if (c->thrs[ts[i]].ext.gap > gap)
            gap = c->thrs[ts[i]].ext.gap;
    }
    *v = malloc((all ? all : 1) * sizeof **v);
    if (!*v)
        return false;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const struct extent *e = &c->thrs[ts[i]].ext;
        memcpy(*v + k, e->v, e->n * sizeof *e->v);
        k += e->n;
        *total += e->count;
    }
    if (k > 1)
        qsort(*v, k, sizeof **v, by_lo);
    merge_close(*v, &k, gap);
    bound(*v, &k, &gap);
    *nv = k;
    return true;
}

/* A part farther from the rest than this many times the rest's span is on
 * another clock. */
#define FAR_RUNS 1000

/* gap > FAR_RUNS * span, without leaving int64_t (span >= 0). */
static bool far_run(int64_t gap, int64_t span)
{
    return span <= INT64_MAX / FAR_RUNS && gap > FAR_RUNS * span;
}

/* Clusters v[a .. b] (sorted, disjoint) as the main run sees them. */
struct runs {
    const struct cluster *v;
    size_t total;    /* events of all the clusters */
    int64_t time;    /* their time: the clusters' spans summed */
    size_t a, b;     /* the run kept so far */
};

static size_t part_count(const struct runs *r, size_t a, size_t b)
{
    size_t n = 0;
    for (size_t i = a; i <= b; i++)
        n += r->v[i].count;
    return n;
}

static int64_t part_time(const struct runs *r, size_t a, size_t b)
{
    int64_t t = 0;
    for (size_t i = a; i <= b; i++)
        t = tf_add_sat(t, tf_sub_sat(r->v[i].hi, r->v[i].lo));
    return t;
}

/* The widest gap between clusters a .. b (a < b): the last cluster before it. */
static size_t widest_gap(const struct runs *r, size_t a, size_t b)
{
    size_t m = a;
    for (size_t i = a; i < b; i++)
        if (tf_sub_sat(r->v[i + 1].lo, r->v[i].hi) > tf_sub_sat(r->v[m + 1].lo, r->v[m].hi))
            m = i;
    return m;
}

/* Whether clusters [a, b] are another clock's, beside the rest [ra, rb]
 * across gap: fewer than 1 % of the events and of the time, and farther
 * from the rest than FAR_RUNS times the rest's span. */
static bool stray_part(const struct runs *r, size_t a, size_t b, size_t ra, size_t rb,
                       int64_t gap)
{
    size_t n = part_count(r, a, b);
    int64_t t = part_time(r, a, b);
    bool few = n < (r->total + 99) / 100; /* n * 100 < total */
    bool brief = t == 0 || (double)t * 100.0 < (double)r->time;
    return few && brief && far_run(gap, tf_sub_sat(r->v[rb].hi, r->v[ra].lo));
}

/* Trims the outer end of [a, b] (its start when left, else its end), the
 * other end being next to the run kept: at its widest gap the outer part
 * is left out when it is another clock's, and the rest trimmed again;
 * otherwise the outer part is trimmed instead, the inner one kept whole. */
static void trim(struct runs *r, size_t a, size_t b, bool left)
{
    while (a < b) {
        size_t m = widest_gap(r, a, b);
        int64_t gap = tf_sub_sat(r->v[m + 1].lo, r->v[m].hi);
        if (left && stray_part(r, a, m, m + 1, r->b, gap)) {
            a = r->a = m + 1;
        } else if (!left && stray_part(r, m + 1, b, r->a, m, gap)) {
            b = r->b = m;
        } else if (left) {
            b = m;
        } else {
            a = m + 1;
        }
    }
}

/* The main run of clusters v[0 .. n) (sorted, disjoint) of total events:
 * every part is kept but one on another clock (stray_part), so a part of
 * more than 1 % of the events or of the time is never left out, and of two
 * parts far apart the larger is kept.  At the widest gap, a side on
 * another clock is left out and the other looked at again; when neither
 * side is, each is trimmed at its outer end.  [*lo, *hi], and the events
 * left out. */
static void main_run(const struct cluster *v, size_t n, size_t total, int64_t *lo, int64_t *hi,
                     size_t *stray)
{
    struct runs r = {v, total, 0, 0, n - 1};
    r.time = part_time(&r, 0, n - 1);
    while (r.a < r.b) {
        size_t m = widest_gap(&r, r.a, r.b);
        int64_t gap = tf_sub_sat(v[m + 1].lo, v[m].hi);
        bool left = stray_part(&r, r.a, m, m + 1, r.b, gap);
        bool right = stray_part(&r, m + 1, r.b, r.a, m, gap);
        if (left && right) /* both small: keep the one with more events */
            left = part_count(&r, r.a, m) < part_count(&r, m + 1, r.b);
        if (left) {
            r.a = m + 1;
        } else if (right) {
            r.b = m;
        } else {
            size_t a = r.a, b = r.b;
            trim(&r, a, m, true);
            trim(&r, m + 1, b, false);
            break;
        }
    }
    *stray = total - part_count(&r, r.a, r.b);
    *lo = v[r.a].lo;
    *hi = v[r.b].hi;
}

/* The main run of the events of threads ts[0 .. n): false when they have
 * none (or out of memory: c->oom). */
static bool run_of(struct chrome *c, const size_t *ts, size_t n, int64_t *lo, int64_t *hi,
                   size_t *stray)
{
    struct cluster *v;
    size_t nv, total;
    if (!gather(c, ts, n, &v, &nv, &total)) {
        c->oom = true;
        return false;
    }
    bool any = nv > 0;
    if (any && c->hpc) {
        /* An HPC job's archive is on one clock (its clock properties): no
         * event is far from the rest by mistake, and a phase of few events
         * (an iteration after a long MPI_Init) is still the job's. */
        *lo = v[0].lo;
        *hi = v[0].hi;
        for (size_t i = 1; i < nv; i++) {
            *lo = v[i].lo < *lo ? v[i].lo : *lo;
            *hi = v[i].hi > *hi ? v[i].hi : *hi;
        }
        *stray = 0;
    } else if (any) {
        main_run(v, nv, total, lo, hi, stray);
    }
    free(v);
    return any;
}

/* A --window-event occurrence: keep the K earliest starts. */
static void add_occurrence(struct chrome *c, int64_t t0, int64_t t1)
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

void tf_chrome_window_event_init(struct chrome *c)
{
    const char *p = c->o->window_event;
    if (!p)
        return;
    size_t head = strcspn(p, "*?[\\");
    c->we_glob = p[head] != '\0';
    c->we_head = head;
    c->we_sub = !c->we_glob && c->o->critical_path && *p;
}

/* Whether a slice's name is --window-event's: the name itself, a name its
 * glob matches, or (we_sub) a name that contains it. */
static bool is_window_event(const struct chrome *c, const char *name)
{
    const char *p = c->o->window_event;
    return strcmp(name, p) == 0 ||
           (c->we_glob && strncmp(name, p, c->we_head) == 0 && fnmatch(p, name, 0) == 0) ||
           (c->we_sub && strstr(name, p));
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

/* An event --window-event matches: a glob keeps each name's earliest, a
 * name the K earliest events.  A glob that is also an event's own name
 * ("[param|...|forward]", HTA's annotations) keeps those events as a
 * name's too, and they win (kth_match is not asked). */
static void window_match(struct chrome *c, const char *name, int64_t t0, int64_t t1)
{
    if (strcmp(name, c->o->window_event) == 0)
        add_occurrence(c, t0, t1);
    if (!c->we_glob && !c->we_sub)
        return;
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

void tf_chrome_window_name(struct chrome *c, const char *name, int64_t t0, int64_t t1)
{
    c->n_complete++;
    if (is_window_event(c, name)) {
        window_match(c, name, t0, t1);
        return;
    }
    /* The other names, with their counts, for the message on a miss (not
     * needed once the name is found). */
    if (c->n_occ_all || c->n_we_all || c->wnames.n >= WINDOW_NAMES_MAX)
        return;
    uint32_t id;
    if (!tf_strtab_id(&c->wnames, name, &id)) {
        c->oom = true;
        return;
    }
    while (c->n_wname_count <= id) {
        if (!TF_GROW(c->wname_count, c->n_wname_count, c->cap_wname_count)) {
            c->oom = true;
            return;
        }
        c->wname_count[c->n_wname_count++] = 0;
    }
    c->wname_count[id]++;
}

void tf_chrome_window_rank(struct chrome *c, size_t t, const char *name, int64_t t0, int64_t t1)
{
    if (!is_window_event(c, name)) {
        tf_chrome_window_name(c, name, t0, t1); /* counted for the message on a miss */
        return;
    }
    c->n_complete++;
    c->n_occ_all++;
    size_t k = c->o->occurrence > 0 ? (size_t)c->o->occurrence : 1;
    size_t n = ++c->thrs[t].we_count;
    if (n > c->we_rank_most)
        c->we_rank_most = n;
    if (n != k)
        return;
    if (!c->we_rank_found || t0 < c->we_rank_lo)
        c->we_rank_lo = t0;
    if (!c->we_rank_found || t1 > c->we_rank_hi)
        c->we_rank_hi = t1;
    c->we_rank_found = true;
}

/* --- near misses --------------------------------------------------------------------- */

static unsigned char fold(unsigned char ch)
{
    return ch >= 'A' && ch <= 'Z' ? (unsigned char)(ch - 'A' + 'a') : ch;
}

/* Levenshtein's distance between a and b (ASCII letters case-folded when
 * `folded`), or SIZE_MAX when it exceeds max. */
static size_t edit_distance(const char *a, size_t na, const char *b, size_t nb, size_t max,
                            bool folded, size_t *row)
{
    if ((na > nb ? na - nb : nb - na) > max)
        return SIZE_MAX;
    for (size_t j = 0; j <= nb; j++)
        row[j] = j;
    for (size_t i = 1; i <= na; i++) {
        size_t diag = row[0], low = row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            unsigned char x = (unsigned char)a[i - 1], y = (unsigned char)b[j - 1];
            size_t cost = (folded ? fold(x) != fold(y) : x != y) ? 1 : 0;
            size_t v = diag + cost;
            if (row[j] + 1 < v)
                v = row[j] + 1;
            if (row[j - 1] + 1 < v)
                v = row[j - 1] + 1;
            diag = row[j];
            row[j] = v;
            if (v < low)
                low = v;
        }
        if (low > max)
            return SIZE_MAX;
    }
    return row[nb] <= max ? row[nb] : SIZE_MAX;
}

struct near {
    uint32_t id;
    size_t dist, exact, prefix;
    const char *name;
};

static int by_nearness(const void *x, const void *y)
{
    const struct near *a = x, *b = y;
    if (a->dist != b->dist)
        return a->dist < b->dist ? -1 : 1;
    if (a->exact != b->exact)
        return a->exact < b->exact ? -1 : 1;
    if (a->prefix != b->prefix)
        return a->prefix > b->prefix ? -1 : 1;
    return tf_chrome_natural_cmp(a->name, b->name);
}

/* Whether the shorter of a and b (at least 3 bytes) is inside the other,
 * ASCII letters case-folded. */
static bool contains_folded(const char *a, size_t na, const char *b, size_t nb)
{
    if (na < nb) {
        const char *t = a;
        a = b, b = t;
        size_t m = na;
        na = nb, nb = m;
    }
    if (nb < 3)
        return false;
    for (size_t i = 0; i + nb <= na; i++) {
        size_t k = 0;
        while (k < nb && fold((unsigned char)a[i + k]) == fold((unsigned char)b[k]))
            k++;
        if (k == nb)
            return true;
    }
    return false;
}

/* The message for a --window-event that names no complete event: the
 * nearest names of the trace (a small edit distance, case aside, the same
 * beginning, or one inside the other), with their counts, and how many
 * events there are. */
static bool window_event_miss(struct chrome *c, struct tf_diag *d)
{
    const char *want = c->o->window_event;
    size_t nw = strlen(want), n = c->wnames.n;
    const char *how = c->we_glob ? "matches" : "named";
    if (!c->n_complete) /* none seen (a loader that reads by name gives none) */
        return tf_diag_error(d, TF_EBADINPUT, "--window-event: no complete event %s \"%.200s\"",
                             how, want);
    size_t max = nw / 3 > 2 ? nw / 3 : 2;
    struct near *v = malloc((n ? n : 1) * sizeof *v);
    size_t *row = malloc((WINDOW_NAME_LEN + 2) * sizeof *row);
    if (!v || !row) {
        free(v);
        free(row);
        return tf_diag_oom(d, NULL);
    }
    size_t k = 0;
    for (uint32_t id = 0; id < n; id++) {
        const char *name = tf_strtab_str(&c->wnames, id);
        size_t nn = strlen(name), prefix = 0;
        while (prefix < nn && prefix < nw && fold((unsigned char)name[prefix]) ==
                                                 fold((unsigned char)want[prefix]))
            prefix++;
        bool fits = nn <= WINDOW_NAME_LEN && nw <= WINDOW_NAME_LEN;
        size_t dist = fits ? edit_distance(want, nw, name, nn, max, true, row) : SIZE_MAX;
        /* Else the same beginning (most of the name asked for), or one
         * name inside the other ("step" and "ProfilerStep#9"). */
        if (dist == SIZE_MAX && !(prefix >= 3 && prefix * 3 >= nw * 2) &&
            !contains_folded(want, nw, name, nn))
            continue;
        if (dist == SIZE_MAX && fits)
            dist = edit_distance(want, nw, name, nn, SIZE_MAX - 1, true, row);
        size_t exact = fits ? edit_distance(want, nw, name, nn, SIZE_MAX - 1, false, row) : SIZE_MAX;
        v[k++] = (struct near){id, dist, exact, prefix, name};
    }
    if (k > 1)
        qsort(v, k, sizeof *v, by_nearness);
    struct tf_buf msg;
    tf_buf_init(&msg);
    tf_buf_printf(&msg,
                  "--window-event: no complete event %s \"%.200s\" among the trace's %zu "
                  "complete event%s (%zu name%s%s)",
                  how, want, c->n_complete, c->n_complete == 1 ? "" : "s", n, n == 1 ? "" : "s",
                  n >= WINDOW_NAMES_MAX ? " or more" : "");
    for (size_t i = 0; i < k && i < 5; i++) {
        size_t cnt = c->wname_count[v[i].id];
        tf_buf_printf(&msg, "%s \"%.120s\" (%zu event%s)", i ? "," : "; nearest:",
                      tf_strtab_str(&c->wnames, v[i].id), cnt, cnt == 1 ? "" : "s");
    }
    if (k > 5)
        tf_buf_printf(&msg, ", and %zu more", k - 5);
    bool ok = !msg.oom;
    if (ok)
        tf_diag_error(d, TF_EBADINPUT, "%s", msg.data);
    tf_buf_fini(&msg);
    free(v);
    free(row);
    return ok ? false : tf_diag_oom(d, NULL);
}

/* --- the window ------------------------------------------------------------------ */

static bool choose_window(struct chrome *c, struct tf_diag *d)
{
    const struct tf_opts *o = c->o;
    /* The origin of --from and --to: the main run of the lanes drawn by
     * default (whatever --lanes and --hide say), or the trace's own (an
     * export's session start); the default window: the main run of the
     * lanes this figure draws, so hidden lanes stretch neither.  A loader
     * that can read selectively (index_lean) hands over no extents when
     * the window does not need them. */
    bool explicit_window = o->window_event || (o->has_from && o->has_to);
    size_t *def = NULL, *shown = NULL, n_def = 0, n_shown = 0, stray = 0;
    int64_t end = 0;
    bool any = tf_chrome_window_threads(c, o, &def, &n_def, &shown, &n_shown);
    bool have_origin = any && run_of(c, def, n_def, &c->origin, &end, &stray);
    bool have_end = any && run_of(c, shown, n_shown, &c->w0, &end, &c->n_stray);
    free(def);
    free(shown);
    if (c->oom)
        return tf_diag_oom(d, NULL);
    if (!have_origin || !have_end) {
        /* All lanes hidden by the rules, or none at all: every thread's
         * events, else the instants of processes and of the trace. */
        size_t *all = malloc((c->n_thrs ? c->n_thrs : 1) * sizeof *all), n_all = 0;
        if (!all)
            return tf_diag_oom(d, NULL);
        for (size_t t = 0; t < c->n_thrs; t++)
            if (c->thrs[t].ext.count)
                all[n_all++] = t;
        bool got = run_of(c, all, n_all, &c->w0, &end, &c->n_stray);
        free(all);
        if (c->oom)
            return tf_diag_oom(d, NULL);
        if (!got && !c->n_marks && !(explicit_window && c->has_clock_origin))
            return tf_diag_error(d, TF_EBADINPUT,
                                 "nothing to draw: no slices, instants or counters (X, B/E, i, "
                                 "C events)");
        if (!got) {
            c->w0 = c->n_marks ? c->marks_lo : 0;
            end = c->n_marks ? c->marks_hi : 0;
        }
        if (!have_origin)
            c->origin = c->w0;
    }
    if (c->has_clock_origin)
        c->origin = c->clock_origin;
    int64_t w0 = c->w0, w1 = end;
    c->end = end;
    if (o->window_event) {
        size_t k = o->occurrence > 0 ? (size_t)o->occurrence : 1;
        struct occ hit;
        bool hta_inst = c->cp && o->stats_compat_hta && !c->hpc;
        size_t found;
        bool oom;
        if (hta_inst) {
            /* HTA's instance K-1 (critpath_inst.c): the names holding NAME */
            if (!tf_cp_instance(c->cp, k, &hit.t0, &hit.t1, &found, &oom)) {
                if (oom)
                    return tf_diag_oom(d, NULL);
                if (!found && c->n_occ_all == 0 && c->n_we_all == 0)
                    return window_event_miss(c, d);
                return tf_diag_error(d, TF_EBADINPUT,
                                     "--window-event: only %zu instance%s of \"%.200s\" as HTA "
                                     "counts them (the names that hold it, in its order), not "
                                     "%zu",
                                     found, found == 1 ? "" : "s", o->window_event, k);
            }
        } else if (c->n_occ_all == 0 && c->n_we_all == 0) {
            return window_event_miss(c, d);
        } else if (c->hpc) {
            if (!c->we_rank_found)
                return tf_diag_error(d, TF_EBADINPUT,
                                     "--window-event: no location has %zu occurrences of "
                                     "\"%.200s\" (at most %zu)",
                                     k, o->window_event, c->we_rank_most);
            hit = (struct occ){c->we_rank_lo, c->we_rank_hi};
        } else if ((c->we_glob || c->we_sub) && !c->n_occ_all) {
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
        if (hta_inst) {
            /* the path's window is HTA's, whatever --pad; one of no
             * length (HTA's [t, t]) is drawn 1 us wide */
            c->cp_own = true;
            c->cp_w0 = w0;
            c->cp_w1 = w1;
            if (w1 == w0) {
                w0 -= 500;
                w1 += 500;
            }
        }
    } else {
        if (o->has_from)
            w0 = tf_add_sat(c->origin, o->from_ns);
        if (o->has_to)
            w1 = tf_add_sat(c->origin, o->to_ns);
    }
    /* A damaged trace's times may lie centuries apart: no axis holds them. */
    if (tf_sub_sat(w1, w0) == INT64_MAX)
        return tf_diag_error(d, TF_EBADINPUT,
                             "the window is too long to draw (its times lie over 292 years "
                             "apart)");
    if (o->pad_pct > 0) {
        double pad = (double)(w1 - w0) * o->pad_pct / 100.0;
        int64_t p = pad >= 9e18 ? INT64_MAX : (int64_t)llround(pad);
        w0 = tf_sub_sat(w0, p);
        w1 = tf_add_sat(w1, p);
        if (tf_sub_sat(w1, w0) == INT64_MAX)
            return tf_diag_error(d, TF_EBADINPUT, "the window with its padding is too long to "
                                                  "draw (over 292 years)");
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

bool tf_chrome_window_fix(struct chrome *c, struct tf_diag *d)
{
    return c->chosen || choose_window(c, d);
}

bool tf_chrome_span(void *state, struct tf_span *s, struct tf_diag *d)
{
    struct chrome *c = state;
    if (!tf_chrome_window_fix(c, d))
        return false;
    *s = (struct tf_span){c->w0, c->w1, c->event_t0, c->origin, c->end};
    /* The window is chosen: what pass 1 kept to choose it can go, as the
     * trace waits for the others' first passes (a figure of thousands of
     * traces holds every one's state until then).  The threads' event
     * counts stay: they say which lanes a figure would draw. */
    for (size_t i = 0; i < c->n_thrs; i++) {
        free(c->thrs[i].ext.v);
        c->thrs[i].ext.v = NULL;
        c->thrs[i].ext.n = c->thrs[i].ext.cap = 0;
    }
    tf_strtab_fini(&c->wnames);
    tf_strtab_init(&c->wnames);
    free(c->wname_count);
    c->wname_count = NULL;
    c->n_wname_count = c->cap_wname_count = 0;
    tf_strtab_fini(&c->we_names);
    tf_strtab_init(&c->we_names);
    free(c->we_occ);
    c->we_occ = NULL;
    c->n_we_occ = c->cap_we_occ = 0;
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
