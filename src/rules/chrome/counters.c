/* counters.c - the generic Chrome mode's counter tracks: the series of C
 * events and of Kineto's [memory] instants, each clipped to the window,
 * thinned to what a figure can show, with its least, greatest and
 * time-weighted mean value; one lane per series, under its process.  It
 * does not choose which lanes are drawn (lanes.c picks counter lanes as it
 * picks the others) or draw anything.
 *
 * IMPLEMENTATION NOTES
 *
 * Series.  A C event {"name": N, "id": I, "args": {K: V, ...}} of process
 * P gives one sample to each series (P, N, I, K), labelled "N K" ("N id: I
 * K" with an id), as Perfetto's importer names them.  V is a number or a
 * string holding one (Perfetto reads both); null stops the series (it has
 * no value until its next number: a gap); any other value is counted and
 * skipped.  A series left out of an event keeps its value, as in Perfetto
 * (chrome://tracing would draw 0), until the window's end or the trace's
 * own (its main run's) when that comes first (a window past it: --pad,
 * --to, a figure of several traces).  A [memory] instant (Kineto) gives one
 * sample to the series "memory DEVICE allocated" of its process, and one to
 * "memory DEVICE reserved" when it has "Total Reserved": the totals when
 * the trace has them (PyTorch 1.10 on), else the running sum of "Bytes"
 * from the trace's start (PyTorch 1.8, 1.9), which a note then says.
 *
 * The value at the window's start is the last sample before it, which may
 * lie anywhere in the trace.  Pass 1 therefore keeps, per series and per
 * block of the loader (model/trace.h, tf_tef_sink), a summary of the
 * block's samples: their earliest and latest time, the latest value and
 * the sum of the steps.  Once the window is known, a block wholly before
 * it gives its summary, a block wholly after it nothing, and a block that
 * holds samples on both sides of the start is one the loader revisits:
 * pass 2 hands over its samples one by one.  Memory: a few words per block
 * and series, not per sample.
 *
 * Pass 2 keeps a series' samples inside the window in batches of REORDER,
 * sorted by time (ties: file order), and folds them in order: the running
 * value, min, max, the time-weighted sum for the mean, and the thinned
 * samples (per stretch of the level of detail, the first, least, greatest
 * and last value; a value equal to the one before is no step and is
 * dropped), per fine bin of the model (TF_LOD_FINE_BINS across the axis:
 * the plan thins them again at the plot's real width, render/plan_counters.c).
 * A sample that comes more than a batch after its time is left out and
 * counted (said once).  Once the lanes are picked, the drawn tracks are
 * thinned coarser (stretches twice as wide, as often as needed) until
 * they fit TF_CHROME_COUNTER_MODEL_SAMPLES (a trace of a figure of
 * several: its share of it).
 */
#include "rules/chrome/chrome_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonlite.h"

#define REORDER 4096
/* The colour of every counter's line (Paul Tol's bright blue). */
#define COUNTER_COLOR 0x4477AAu

/* --- series ------------------------------------------------------------------------ */

/* Its summary of one block's samples (pass 1). */
struct chunk {
    size_t block;
    int64_t lo, hi;   /* earliest and latest sample */
    bool has_abs;     /* a value (not a step) */
    int64_t abs_t;    /* ... the latest one's time */
    size_t abs_idx;   /* ... and place in the file */
    double abs_v;     /* ... and value (NaN: a stop) */
    bool has_steps;
    double steps;     /* the sum of its steps ([memory] Bytes) */
    bool straddles;   /* samples on both sides of the window's start */
};

struct csample {
    int64_t t;
    size_t idx;
    double v;
    bool step; /* v is added to the running value ([memory] Bytes) */
};

/* A thinned sample on its way out. */
struct osample {
    int64_t t;
    double v;
};

/* Thinning: per stretch of `width` ns from w0, the first, least, greatest
 * and last sample, in time order; a repeat of the value before is no step. */
struct thinner {
    int64_t w0, width;
    bool open;
    int64_t bucket;
    struct osample pick[4];
    size_t pick_seq[4];
    size_t seq;
    double last_out; /* the value last written out (NaN: a stop or none) */
    bool any_out;
    struct osample *out;
    size_t n_out, cap_out;
};

struct series {
    size_t proc;
    char *label;
    char *unit; /* owned, or NULL */
    bool absolute; /* any of its samples is a value: steps are ignored */
    bool steps;    /* any is a step */
    struct chunk *chunks;
    size_t n_chunks, cap_chunks;
    /* the window's start (tf_chrome_counters_window) */
    size_t *straddle; /* blocks holding samples on both sides, ascending */
    size_t n_straddle;
    bool start_has;   /* a sample before the start */
    int64_t start_t;
    size_t start_idx;
    double start_v;   /* the last one's value (NaN: stopped) */
    double sum;       /* steps: their sum before the start */
    bool start_steps; /* steps before the start */
    /* pass 2 */
    bool started;      /* the value at the start is folded */
    struct csample *buf;
    size_t n_buf, cap_buf;
    bool folded_any;
    int64_t watermark; /* time of the last sample folded */
    /* the fold */
    bool has, seen;    /* a value now; any value in the window */
    double cur;
    int64_t cur_t;
    double lo, hi, wsum;
    double wsq; /* the squares' time-weighted sum (its variation) */
    int64_t wtime;
    struct thinner th; /* the thinned samples */
    size_t lane; /* its lane in c->lanes + 1, once it has one */
    size_t thr;  /* its pseudo-thread in c->thrs (its samples' extent) */
};

void tf_chrome_counters_free(struct chrome *c)
{
    for (size_t i = 0; i < c->n_series; i++) {
        struct series *s = &c->series[i];
        free(s->label);
        free(s->unit);
        free(s->chunks);
        free(s->straddle);
        free(s->buf);
        free(s->th.out);
    }
    free(c->series);
    free(c->ctr_straddle);
    tf_strtab_fini(&c->series_keys);
    tf_buf_fini(&c->ctr_key);
}

bool tf_chrome_counters_on(const struct chrome *c)
{
    return c->o->counters >= 0;
}

/* How a new series is labelled (built only when the series is new). */
struct label_parts {
    const char *name, *id, *key; /* a C event's: "NAME id: ID KEY" */
    const char *which;           /* a [memory] event's: "memory DEVICE WHICH" */
    long long type, dev_id;      /* ... its device */
};

static void device_name(long long type, long long id, char *out, size_t n);

static void build_label(const struct label_parts *lp, struct tf_buf *b)
{
    tf_buf_clear(b);
    if (lp->which) {
        char dev[64];
        device_name(lp->type, lp->dev_id, dev, sizeof dev);
        tf_buf_puts(b, "memory ");
        tf_buf_puts(b, dev);
        tf_buf_putc(b, ' ');
        tf_buf_puts(b, lp->which);
        return;
    }
    if (lp->name && *lp->name)
        tf_buf_puts(b, lp->name);
    if (lp->id) {
        tf_buf_puts(b, b->len ? " id: " : "id: ");
        tf_buf_puts(b, lp->id);
    }
    if (lp->key && *lp->key) {
        if (b->len)
            tf_buf_putc(b, ' ');
        tf_buf_puts(b, lp->key);
    }
    if (!b->len)
        tf_buf_puts(b, "counter");
}

/* The series of the key in c->tmp, created when new (labelled from lp);
 * NULL when out of memory or past the cap (counted). */
static struct series *series_of(struct chrome *c, const struct tf_id *pid,
                                const struct label_parts *lp, const char *unit)
{
    uint32_t id;
    if (c->tmp.oom || !tf_strtab_id(&c->series_keys, c->tmp.data, &id)) {
        c->oom = true;
        return NULL;
    }
    if (id < c->n_series)
        return &c->series[id];
    if (c->n_series >= TF_CHROME_MAX_SERIES) {
        c->n_series_cut++;
        return NULL;
    }
    size_t p = tf_chrome_process(c, pid);
    if (p == SIZE_MAX || !TF_GROW(c->series, c->n_series, c->cap_series)) {
        c->oom = true;
        return NULL;
    }
    struct series *s = &c->series[c->n_series];
    memset(s, 0, sizeof *s);
    s->proc = p;
    s->unit = unit ? tf_strdup_oom(unit, &c->oom) : NULL;
    if (unit && !s->unit)
        return c->oom = true, NULL;
    s->th.last_out = (double)NAN;
    s->th.w0 = c->w0;
    s->th.width = c->bin_ns > 0 ? c->bin_ns : 1; /* the model's fine bins */
    struct tf_buf label;
    tf_buf_init(&label);
    build_label(lp, &label);
    s->label = label.oom ? NULL : tf_strdup_oom(label.data, &c->oom);
    tf_buf_fini(&label);
    if (!s->label)
        return c->oom = true, NULL;
    /* Its lane's thread from the start: its samples set the default
     * window only when the lane is drawn (window.c). */
    s->thr = tf_chrome_counter_thread(c, p, c->n_series, s->label);
    if (s->thr == SIZE_MAX) {
        free(s->label);
        return c->oom = true, NULL;
    }
    c->n_series++;
    return s;
}

/* The key of a series in c->tmp: its kind and process, then its parts. */
static void series_key(struct chrome *c, const struct tf_id *pid, char kind, const char *a,
                       const char *b, const char *k)
{
    struct tf_buf *t = &c->tmp;
    tf_buf_clear(t);
    tf_buf_putc(t, kind);
    tf_id_key(t, pid);
    tf_buf_putc(t, '\x1f');
    tf_buf_puts(t, a);
    tf_buf_putc(t, '\x1f');
    tf_buf_puts(t, b ? b : "\x1e");
    tf_buf_putc(t, '\x1f');
    tf_buf_puts(t, k);
}

/* --- values --------------------------------------------------------------------- */

/* Whether s[0 .. n) is a JSON number, with blanks around it and an
 * optional '+' allowed (as strtod reads a numeric string). */
static bool number_text(const char *s, size_t n, const char **num, size_t *len)
{
    while (n && (*s == ' ' || *s == '\t'))
        s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n && *s == '+')
        s++, n--;
    size_t i = 0;
    if (i < n && s[i] == '-')
        i++;
    size_t d0 = i;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    if (i == d0)
        return false;
    if (i < n && s[i] == '.') {
        size_t f0 = ++i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == f0)
            return false;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        size_t e0 = i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == e0)
            return false;
    }
    *num = s;
    *len = n;
    return i == n;
}

enum value_kind { VALUE_BAD = 0, VALUE_NUMBER, VALUE_STOP };

/* A member's value: a finite number (or a string of one), null (a stop),
 * or neither. */
static enum value_kind read_value(struct chrome *c, const unsigned char *v, size_t n, double *out)
{
    if (n == 4 && memcmp(v, "null", 4) == 0) {
        *out = (double)NAN;
        return VALUE_STOP;
    }
    const char *num = (const char *)v;
    size_t len = n;
    if (v[0] == '"') {
        tf_buf_clear(&c->tmp);
        tf_jl_string(v + 1, n - 2, &c->tmp);
        if (c->tmp.oom || !c->tmp.data || !number_text(c->tmp.data, c->tmp.len, &num, &len))
            return VALUE_BAD;
    } else if (v[0] != '-' && (v[0] < '0' || v[0] > '9')) {
        return VALUE_BAD;
    }
    if (!tf_jl_double((const unsigned char *)num, len, out) || !isfinite(*out))
        return VALUE_BAD;
    return VALUE_NUMBER;
}

/* A member's value as a finite number (not a string); false otherwise. */
static bool plain_number(const unsigned char *v, size_t n, double *out)
{
    return n && (v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) && tf_jl_double(v, n, out) &&
           isfinite(*out);
}

/* PyTorch's device types (c10::DeviceType), as the memory tracks name them. */
static void device_name(long long type, long long id, char *out, size_t n)
{
    static const struct {
        long long type;
        const char *name;
    } table[] = {
        {0, "CPU"}, {1, "CUDA"}, {6, "HIP"}, {9, "XLA"},   {12, "XPU"},
        {13, "MPS"}, {15, "HPU"}, {19, "MTIA"}, {20, "PrivateUse1"},
    };
    const char *name = NULL;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].type == type)
            name = table[i].name;
    if (!name)
        snprintf(out, n, "device type %lld %lld", type, id);
    else if (type == 0 || id < 0)
        snprintf(out, n, "%s", name);
    else
        snprintf(out, n, "%s %lld", name, id);
}

/* --- pass 1: summaries per block ---------------------------------------------------- */

static void add_to_chunk(struct chrome *c, struct series *s, int64_t t, size_t idx, double v,
                         bool step)
{
    size_t block = tf_tef_block_of(idx);
    struct chunk *k = s->n_chunks ? &s->chunks[s->n_chunks - 1] : NULL;
    if (!k || k->block != block) {
        /* Pass 1 is in file order: blocks come in order. */
        if (!TF_GROW(s->chunks, s->n_chunks, s->cap_chunks)) {
            c->oom = true;
            return;
        }
        k = &s->chunks[s->n_chunks++];
        memset(k, 0, sizeof *k);
        k->block = block;
        k->lo = k->hi = t;
    }
    if (t < k->lo)
        k->lo = t;
    if (t > k->hi)
        k->hi = t;
    if (step) {
        s->steps = true;
        k->has_steps = true;
        k->steps += v;
    } else {
        s->absolute = true;
        if (!k->has_abs || t >= k->abs_t) {
            k->has_abs = true;
            k->abs_t = t;
            k->abs_idx = idx;
            k->abs_v = v;
        }
    }
}

/* --- pass 2: the fold ------------------------------------------------------------- */

static void out_sample(struct chrome *c, struct thinner *h, int64_t t, double v)
{
    bool stop = isnan(v);
    if (h->any_out && (stop ? isnan(h->last_out) : v == h->last_out))
        return; /* no step */
    if (!h->any_out && stop)
        return; /* nothing to stop */
    if (!TF_GROW(h->out, h->n_out, h->cap_out)) {
        c->oom = true;
        return;
    }
    h->out[h->n_out++] = (struct osample){t, v};
    h->last_out = v;
    h->any_out = true;
}

/* The open stretch's picks, in time order, without repeats. */
static void flush_stretch(struct chrome *c, struct thinner *h)
{
    if (!h->open)
        return;
    h->open = false;
    size_t order[4] = {0, 1, 2, 3};
    for (size_t i = 1; i < 4; i++)
        for (size_t j = i; j > 0 && h->pick_seq[order[j]] < h->pick_seq[order[j - 1]]; j--) {
            size_t tmp = order[j];
            order[j] = order[j - 1];
            order[j - 1] = tmp;
        }
    size_t last_seq = SIZE_MAX;
    for (size_t i = 0; i < 4; i++) {
        size_t k = order[i];
        if (h->pick_seq[k] == last_seq)
            continue;
        last_seq = h->pick_seq[k];
        out_sample(c, h, h->pick[k].t, h->pick[k].v);
    }
}

/* A value (or a stop) from t on, into the thinned samples. */
static void thin(struct chrome *c, struct thinner *h, int64_t t, double v)
{
    int64_t bucket = (t - h->w0) / h->width;
    if (isnan(v)) {
        flush_stretch(c, h);
        out_sample(c, h, t, v);
        return;
    }
    size_t seq = h->seq++;
    struct osample o = {t, v};
    if (h->open && bucket == h->bucket) {
        if (v < h->pick[1].v)
            h->pick[1] = o, h->pick_seq[1] = seq;
        if (v > h->pick[2].v)
            h->pick[2] = o, h->pick_seq[2] = seq;
        h->pick[3] = o;
        h->pick_seq[3] = seq;
        return;
    }
    flush_stretch(c, h);
    h->open = true;
    h->bucket = bucket;
    for (int i = 0; i < 4; i++) {
        h->pick[i] = o;
        h->pick_seq[i] = seq;
    }
}

/* The thinned samples of h thinned again, at `width` (the extremes of
 * each stretch stay: they are among the samples kept). */
static void rethin(struct chrome *c, struct thinner *h, int64_t width)
{
    struct thinner n = {.w0 = h->w0, .width = width, .last_out = (double)NAN};
    for (size_t i = 0; i < h->n_out && !c->oom; i++)
        thin(c, &n, h->out[i].t, h->out[i].v);
    flush_stretch(c, &n);
    free(h->out);
    *h = n;
}

/* The value from t on is v (NaN: none). */
static void fold_value(struct chrome *c, struct series *s, int64_t t, double v)
{
    if (s->has) {
        s->wsum += s->cur * (double)(t - s->cur_t);
        s->wsq += s->cur * s->cur * (double)(t - s->cur_t);
        s->wtime += t - s->cur_t;
    }
    s->cur_t = t;
    s->has = !isnan(v);
    if (s->has) {
        s->cur = v;
        if (!s->seen || v < s->lo)
            s->lo = v;
        if (!s->seen || v > s->hi)
            s->hi = v;
        s->seen = true;
    }
    thin(c, &s->th, t, v);
}

static int by_time(const void *x, const void *y)
{
    const struct csample *a = x, *b = y;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* The value at the window's start opens the fold. */
static void fold_start(struct chrome *c, struct series *s)
{
    if (s->started)
        return;
    s->started = true;
    if (s->absolute ? s->start_has : s->start_steps)
        fold_value(c, s, c->w0, s->absolute ? s->start_v : s->sum);
}

/* Folds the earliest n of the buffered samples (sorted). */
static void fold_batch(struct chrome *c, struct series *s, size_t n)
{
    fold_start(c, s);
    if (s->n_buf > 1)
        qsort(s->buf, s->n_buf, sizeof *s->buf, by_time);
    for (size_t i = 0; i < n; i++) {
        const struct csample *x = &s->buf[i];
        if (x->step) {
            if (s->absolute)
                continue; /* the series has values */
            s->sum += x->v;
            fold_value(c, s, x->t, s->sum);
        } else if (s->absolute) {
            fold_value(c, s, x->t, x->v);
        }
        s->watermark = x->t;
        s->folded_any = true;
    }
    if (n < s->n_buf)
        memmove(s->buf, s->buf + n, (s->n_buf - n) * sizeof *s->buf);
    s->n_buf -= n;
}

static bool in_straddle(const struct series *s, size_t block)
{
    size_t lo = 0, hi = s->n_straddle;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->straddle[mid] == block)
            return true;
        if (s->straddle[mid] < block)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

static void add_sample(struct chrome *c, struct series *s, int64_t t, size_t idx, double v,
                       bool step)
{
    if (!c->pass2) {
        /* A sample is drawn like a slice: it widens the default window. */
        tf_chrome_add_extent(c, s->thr, t, t);
        add_to_chunk(c, s, t, idx, v, step);
        return;
    }
    if (t > c->w1)
        return;
    if (t < c->w0) {
        /* Before the window: only the blocks pass 1 could not summarise. */
        if (!in_straddle(s, tf_tef_block_of(idx)))
            return;
        if (step) {
            s->sum += v;
            s->start_steps = true;
        } else if (!s->start_has || t > s->start_t || (t == s->start_t && idx > s->start_idx)) {
            s->start_has = true;
            s->start_t = t;
            s->start_idx = idx;
            s->start_v = v;
        }
        return;
    }
    if (s->folded_any && t < s->watermark) {
        c->n_ctr_late++;
        return;
    }
    if (!TF_GROW(s->buf, s->n_buf, s->cap_buf)) {
        c->oom = true;
        return;
    }
    s->buf[s->n_buf++] = (struct csample){t, idx, v, step};
    /* A batch, once no block left can change the value at the start. */
    if (s->n_buf >= 2 * REORDER &&
        (!s->n_straddle || tf_tef_block_of(idx) > s->straddle[s->n_straddle - 1]))
        fold_batch(c, s, REORDER);
}

/* --- the records ---------------------------------------------------------------- */

bool tf_chrome_is_memory(const struct tf_tef_rec *r)
{
    return r->kind == TF_TEF_INSTANT && strcmp(r->name, "[memory]") == 0;
}

/* A C event: one sample per member of its args.  Whether it had any. */
static bool counter_event(struct chrome *c, const struct tf_tef_rec *r)
{
    if (!r->args)
        return false;
    bool any = false;
    size_t pos = 0, kl, vl;
    const unsigned char *k, *v;
    while (!c->oom && tf_jl_member(r->args, r->args_len, &pos, &k, &kl, &v, &vl)) {
        double x;
        enum value_kind vk = read_value(c, v, vl, &x);
        if (vk == VALUE_BAD) {
            if (c->pass2 && r->ts >= c->w0 && r->ts <= c->w1)
                c->n_ctr_bad++;
            continue;
        }
        tf_jl_string(k, kl, &c->ctr_key);
        if (c->ctr_key.oom) {
            c->oom = true;
            break;
        }
        const char *key = c->ctr_key.data ? c->ctr_key.data : "";
        series_key(c, &r->pid, 'C', r->name, r->id, key);
        struct label_parts lp = {.name = r->name, .id = r->id, .key = key};
        struct series *s = series_of(c, &r->pid, &lp, r->unit);
        if (s)
            add_sample(c, s, r->ts, r->idx, x, false);
        any = true;
    }
    return any;
}

/* "A.B" for two integers, without printf (this runs per [memory] event). */
static void int_text(int64_t a, int64_t b, char out[48])
{
    char *p = out;
    for (int k = 0; k < 2; k++) {
        uint64_t v = k ? (b < 0 ? 0 - (uint64_t)b : (uint64_t)b) : (a < 0 ? 0 - (uint64_t)a : (uint64_t)a);
        if ((k ? b : a) < 0)
            *p++ = '-';
        char d[24];
        int n = 0;
        do
            d[n++] = (char)('0' + v % 10);
        while ((v /= 10) > 0);
        while (n)
            *p++ = d[--n];
        if (!k)
            *p++ = '.';
    }
    *p = '\0';
}

/* Whether the raw key k[0 .. n) of a member is the plain name s. */
static bool key_is(const unsigned char *k, size_t n, const char *s)
{
    return strlen(s) == n && memcmp(k, s, n) == 0;
}

/* A [memory] instant: Total Allocated (and Total Reserved) of its device,
 * or its Bytes as a step; its args read in one walk.  Whether it had any. */
static bool memory_event(struct chrome *c, const struct tf_tef_rec *r)
{
    if (!r->args)
        return false;
    double alloc = 0, reserved = 0, bytes = 0, x;
    bool has_alloc = false, has_reserved = false, has_bytes = false;
    int64_t type = 0, dev_id = -1, iv;
    size_t pos = 0, kl, vl;
    const unsigned char *k, *v;
    while (tf_jl_member(r->args, r->args_len, &pos, &k, &kl, &v, &vl)) {
        if (key_is(k, kl, "Total Allocated"))
            has_alloc = plain_number(v, vl, &alloc);
        else if (key_is(k, kl, "Total Reserved"))
            has_reserved = plain_number(v, vl, &reserved);
        else if (key_is(k, kl, "Bytes"))
            has_bytes = plain_number(v, vl, &bytes);
        else if (key_is(k, kl, "Device Type") && plain_number(v, vl, &x) &&
                 tf_jl_fixed(v, vl, 0, &iv))
            type = iv;
        else if (key_is(k, kl, "Device Id") && plain_number(v, vl, &x) &&
                 tf_jl_fixed(v, vl, 0, &iv))
            dev_id = iv;
    }
    if (!has_alloc && !has_bytes && !has_reserved)
        return false;
    /* The key names the device by its numbers; its name is the label's. */
    char num[48];
    int_text(type, dev_id, num);
    struct label_parts lp = {.type = type, .dev_id = dev_id};
    if (has_alloc || has_bytes) {
        series_key(c, &r->pid, 'M', num, NULL, "allocated");
        lp.which = "allocated";
        struct series *s = series_of(c, &r->pid, &lp, "B");
        if (s)
            add_sample(c, s, r->ts, r->idx, has_alloc ? alloc : bytes, !has_alloc);
    }
    if (has_reserved) {
        series_key(c, &r->pid, 'M', num, NULL, "reserved");
        lp.which = "reserved";
        struct series *s = series_of(c, &r->pid, &lp, "B");
        if (s)
            add_sample(c, s, r->ts, r->idx, reserved, false);
    }
    return true;
}

/* Whether any series has samples on both sides of the window's start in
 * block b (only those blocks' samples before the window count). */
static bool any_straddle(const struct chrome *c, size_t b)
{
    size_t lo = 0, hi = c->n_ctr_straddle;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->ctr_straddle[mid] == b)
            return true;
        if (c->ctr_straddle[mid] < b)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

bool tf_chrome_counter_record(struct chrome *c, const struct tf_tef_rec *r)
{
    if (!tf_chrome_counters_on(c))
        return true;
    /* Pass 2 reads no args it cannot use. */
    if (c->pass2 && (r->ts > c->w1 ||
                     (r->ts < c->w0 && !any_straddle(c, tf_tef_block_of(r->idx)))))
        return true;
    if (r->kind == TF_TEF_COUNTER)
        counter_event(c, r);
    else
        memory_event(c, r);
    return !c->oom;
}

/* --- the window and the end ------------------------------------------------------- */

static int by_size(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    return (a > b) - (a < b);
}

void tf_chrome_counters_window(struct chrome *c)
{
    c->pass2 = true;
    for (size_t i = 0; i < c->n_series && !c->oom; i++) {
        struct series *s = &c->series[i];
        s->th.w0 = c->w0;
        s->th.width = c->bin_ns > 0 ? c->bin_ns : 1; /* the model's fine bins */
        size_t n = 0;
        for (size_t k = 0; k < s->n_chunks; k++) {
            const struct chunk *ch = &s->chunks[k];
            if (ch->hi < c->w0) {
                s->sum += ch->steps;
                s->start_steps = s->start_steps || ch->has_steps;
                if (ch->has_abs && (!s->start_has || ch->abs_t >= s->start_t)) {
                    s->start_has = true;
                    s->start_t = ch->abs_t;
                    s->start_idx = ch->abs_idx;
                    s->start_v = ch->abs_v;
                }
            } else if (ch->lo < c->w0) {
                n++;
            }
        }
        s->straddle = malloc((n ? n : 1) * sizeof *s->straddle);
        if (!s->straddle) {
            c->oom = true;
            break;
        }
        for (size_t k = 0; k < s->n_chunks; k++)
            if (s->chunks[k].hi >= c->w0 && s->chunks[k].lo < c->w0)
                s->straddle[s->n_straddle++] = s->chunks[k].block;
        free(s->chunks);
        s->chunks = NULL;
        s->n_chunks = s->cap_chunks = 0;
    }
    /* The union of the series' straddling blocks, sorted, for pass 2. */
    size_t n = 0;
    for (size_t i = 0; i < c->n_series; i++)
        n += c->series[i].n_straddle;
    c->ctr_straddle = malloc((n ? n : 1) * sizeof *c->ctr_straddle);
    if (!c->ctr_straddle) {
        c->oom = true;
        return;
    }
    for (size_t i = 0; i < c->n_series; i++)
        for (size_t k = 0; k < c->series[i].n_straddle; k++)
            c->ctr_straddle[c->n_ctr_straddle++] = c->series[i].straddle[k];
    if (c->n_ctr_straddle > 1)
        qsort(c->ctr_straddle, c->n_ctr_straddle, sizeof *c->ctr_straddle, by_size);
}

/* How much a series varies in the window: its time-weighted standard
 * deviation over its largest magnitude (0: flat; a value that switches
 * between 0 and its top half the time: 0.5).  A system trace's figure
 * picks its counter tracks by it (system.c). */
static double variation(const struct series *s)
{
    double top = fmax(fabs(s->lo), fabs(s->hi));
    if (s->wtime <= 0 || !(top > 0) || !isfinite(top))
        return 0;
    double mean = s->wsum / (double)s->wtime;
    double var = s->wsq / (double)s->wtime - mean * mean;
    return var > 0 && isfinite(var) ? sqrt(var) / top : 0;
}

bool tf_chrome_counters_finish(struct chrome *c)
{
    for (size_t i = 0; i < c->n_series && !c->oom; i++) {
        struct series *s = &c->series[i];
        fold_batch(c, s, s->n_buf);
        /* The last value holds until the window's end, or until the
         * trace's own end when that comes first (a trace drawn over a
         * figure of several's longer window): nothing is known after it. */
        if (s->has && c->end >= s->cur_t && c->end < c->w1)
            fold_value(c, s, c->end, (double)NAN);
        if (s->has) {
            s->wsum += s->cur * (double)(c->w1 - s->cur_t);
            s->wsq += s->cur * s->cur * (double)(c->w1 - s->cur_t);
            s->wtime += c->w1 - s->cur_t;
        }
        flush_stretch(c, &s->th);
        free(s->buf);
        s->buf = NULL;
        free(s->straddle);
        s->straddle = NULL;
        if (!s->seen)
            continue;
        /* A lane of its own, under its process. */
        struct lane *ln = tf_chrome_lane_for(c, s->thr);
        if (!ln)
            return false;
        ln->counter = i + 1;
        ln->vary = variation(s);
        s->lane = (size_t)(ln - c->lanes) + 1;
    }
    return !c->oom;
}

/* --- the figure ------------------------------------------------------------------- */

size_t tf_chrome_counters_fit(struct chrome *c, const size_t *pick, size_t n_pick)
{
    /* A trace of a figure of several has its share of the counters' part. */
    size_t budget = (size_t)(TF_CHROME_COUNTER_MODEL_SAMPLES * c->budget_share);
    for (int round = 0; round < 40; round++) {
        size_t n = 0;
        for (size_t i = 0; i < n_pick; i++)
            if (c->lanes[pick[i]].counter)
                n += c->series[c->lanes[pick[i]].counter - 1].th.n_out;
        if (n <= budget || c->oom)
            return n;
        for (size_t i = 0; i < n_pick; i++)
            if (c->lanes[pick[i]].counter) {
                struct thinner *h = &c->series[c->lanes[pick[i]].counter - 1].th;
                rethin(c, h, h->width * 2);
            }
    }
    return budget;
}

bool tf_chrome_add_counter_lane(struct chrome *c, struct tf_figure *f, const struct lane *ln,
                                const char *label, double per)
{
    const struct series *s = &c->series[ln->counter - 1];
    struct tf_lane *fl = tf_figure_add_counter(f, label, s->unit, COUNTER_COLOR);
    if (!fl)
        return false;
    fl->pid = c->procs[s->proc].pid;
    if (fl->pid.kind == TF_ID_STR && !(fl->pid.str = tf_figure_str(f, fl->pid.str)))
        return false;
    fl->counter.has_range = s->seen;
    fl->counter.lo = s->lo;
    fl->counter.hi = s->hi;
    const struct thinner *h = &s->th;
    for (size_t i = 0; i < h->n_out; i++)
        if (!tf_counter_add(fl, h->out[i].t, (double)(h->out[i].t - c->x_origin) / per, h->out[i].v))
            return false;
    return true;
}

bool tf_chrome_counter_stats(struct chrome *c, struct tf_figure *f, const size_t *fig_lane)
{
    size_t n = tf_figure_counters(f);
    free(f->stats.counters);
    f->stats.counters = calloc(n ? n : 1, sizeof *f->stats.counters);
    f->stats.n_counters = 0;
    if (!f->stats.counters)
        return false;
    for (size_t i = 0; i < c->n_series; i++) {
        const struct series *s = &c->series[i];
        if (!s->lane || fig_lane[s->lane - 1] == SIZE_MAX || f->stats.n_counters == n)
            continue;
        struct tf_stat_counter *k = &f->stats.counters[f->stats.n_counters++];
        k->lane = fig_lane[s->lane - 1];
        k->has_value = s->seen;
        k->min = s->lo;
        k->max = s->hi;
        /* No time with a value (a sample at the window's very end): its value. */
        k->mean = s->wtime > 0 ? s->wsum / (double)s->wtime : s->cur;
    }
    /* In lane order. */
    for (size_t i = 1; i < f->stats.n_counters; i++)
        for (size_t j = i; j > 0 && f->stats.counters[j].lane < f->stats.counters[j - 1].lane; j--) {
            struct tf_stat_counter tmp = f->stats.counters[j];
            f->stats.counters[j] = f->stats.counters[j - 1];
            f->stats.counters[j - 1] = tmp;
        }
    return true;
}

bool tf_chrome_counters_relative(const struct chrome *c, const size_t *fig_lane)
{
    for (size_t i = 0; i < c->n_series; i++) {
        const struct series *s = &c->series[i];
        if (s->lane && fig_lane[s->lane - 1] != SIZE_MAX && !s->absolute)
            return true;
    }
    return false;
}
