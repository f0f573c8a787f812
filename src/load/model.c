/* model.c - figure models read back; see model.h.
 *
 * The model is parsed whole by jansson (through the input layer, so a
 * gzip'd model reads too) and copied member by member into a struct
 * tf_figure, with the same checks everywhere: a member of the wrong type
 * is an error naming its path ("bars[12].x0: expected a number"), a
 * member the schema does not have is passed over (a later tracefig may
 * write more).  Categories of schema 2 take the keys the Chrome mode gives
 * them ("cat/NAME"); schema 1 bars take their lane's ("io", "main/NAME").
 * Nothing here makes texts or picks sizes: that is the rules' part
 * (rules/remodel.c).
 */
#include "load/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/input.h"
#include "load/model_int.h"
#include "load/otf2.h"

/* --- is it a model ---------------------------------------------------------------- */

bool tf_load_is_model(const char *path, bool *is_model, struct tf_diag *d)
{
    *is_model = false;
    if (tf_otf2_is_archive(path))
        return true; /* a folder of binary files: the OTF2 loader's */
    /* An open error is reported; a read error is the loader's to report,
     * with its place. */
    struct tf_diag q;
    tf_diag_init(&q);
    struct tf_input *in = tf_input_open(path, NULL, &q);
    if (!in)
        return tf_diag_error(d, q.code, "%s", q.msg);
    char buf[256];
    size_t n = 0;
    ssize_t r;
    while (n < sizeof buf - 1 && (r = tf_input_read(in, buf + n, sizeof buf - 1 - n)) > 0)
        n += (size_t)r;
    tf_input_close(in);
    buf[n] = '\0';
    const char *p = buf;
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
        p++;
    if (*p++ != '{')
        return true;
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
        p++;
    static const char key[] = "\"schema\"";
    if (strncmp(p, key, sizeof key - 1) != 0)
        return true;
    p += sizeof key - 1;
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t' || *p == ':')
        p++;
    *is_model = strncmp(p, "\"tracefig-", 10) == 0;
    return true;
}

/* --- the figure ------------------------------------------------------------------------- */

/* The window: start_UNIT and end_UNIT. */
static bool read_window(struct reader *r, const json_t *root)
{
    const json_t *w = json_object_get(root, "window");
    if (!json_is_object(w))
        return type_error(r, "window", "an object", w);
    static const char *const units[] = {"us", "ms", "s", "ns"};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        char k0[16], k1[16];
        snprintf(k0, sizeof k0, "start_%s", units[i]);
        snprintf(k1, sizeof k1, "end_%s", units[i]);
        if (!json_object_get(w, k0))
            continue;
        r->f->clock_unit = units[i];
        return get_num(r, w, k0, "window", &r->f->window_start) &&
               get_num(r, w, k1, "window", &r->f->window_end);
    }
    return type_error(r, "window", "start_us and end_us (or _ms)", NULL);
}

/* A time the model writes in `unit` ns with at most three decimals
 * (json.c's ns_us) back to integer nanoseconds: its whole part and its
 * fraction apart, so that it is exact while the double holds the decimal
 * within half a nanosecond (microseconds below 2^43, 101 days: Kineto's
 * times from its base); beyond that, what the double holds.  Clamped to
 * what an int64_t holds. */
static int64_t exact_ns(double v, double unit)
{
    if (!(fabs(v) * unit < 9.2e18))
        return v < 0 ? -INT64_MAX : isnan(v) ? 0 : INT64_MAX;
    double i = floor(v);
    return (int64_t)i * (int64_t)unit + (int64_t)round((v - i) * unit);
}

static int64_t us_to_ns(double us)
{
    return exact_ns(us, 1e3);
}

/* Schema 2's counter lane: its unit, colour, range and samples ([t_us,
 * value or null]); each sample's x is made once the traces are known
 * (place_samples). */
static bool read_counter(struct reader *r, const json_t *e, size_t i, struct tf_lane *l)
{
    struct tf_counter *k = &l->counter;
    l->kind = TF_LANE_COUNTER;
    if (!get_str(r, e, "unit", at(r, "lanes", i, "unit"), true, &k->unit) ||
        !get_color(r, e, "color", at(r, "lanes", i, "color"), &k->color))
        return false;
    const json_t *range = json_object_get(e, "range");
    if (range && !json_is_null(range)) {
        if (!json_is_array(range) || json_array_size(range) != 2 ||
            !json_is_number(json_array_get(range, 0)) || !json_is_number(json_array_get(range, 1)))
            return type_error(r, at(r, "lanes", i, "range"), "[least, greatest] or null", range);
        k->has_range = true;
        k->lo = json_number_value(json_array_get(range, 0));
        k->hi = json_number_value(json_array_get(range, 1));
    }
    const json_t *samples = json_object_get(e, "samples");
    if (!json_is_array(samples))
        return type_error(r, at(r, "lanes", i, "samples"), "an array", samples);
    for (size_t j = 0; j < json_array_size(samples); j++) {
        const json_t *p = json_array_get(samples, j), *t = json_array_get(p, 0),
                     *v = json_array_get(p, 1);
        if (!json_is_array(p) || json_array_size(p) != 2 || !json_is_number(t) ||
            fabs(json_number_value(t)) > TF_MAX_ABS_TIME || !(json_is_number(v) || json_is_null(v)))
            return type_error(r, at(r, "lanes", i, "samples"), "[t_us, value or null] pairs", p);
        double val = json_is_null(v) ? (double)NAN : json_number_value(v);
        if (!tf_counter_add(l, us_to_ns(json_number_value(t)), 0, val))
            return tf_diag_oom(r->d, r->file);
    }
    return true;
}

static bool read_lanes(struct reader *r, const json_t *root)
{
    const json_t *lanes = get_array(r, root, "lanes", true);
    if (!lanes)
        return false;
    for (size_t i = 0; i < json_array_size(lanes); i++) {
        const json_t *e = json_array_get(lanes, i);
        const char *key = NULL, *label;
        if (!json_is_object(e))
            return type_error(r, at(r, "lanes", i, NULL), "an object", e);
        if ((r->schema == 1 && !get_str(r, e, "id", at(r, "lanes", i, "id"), true, &key)) ||
            !get_str(r, e, "label", at(r, "lanes", i, "label"), false, &label))
            return false;
        struct tf_lane *l = tf_figure_add_lane(r->f, key, label);
        if (!l)
            return tf_diag_oom(r->d, r->file);
        long long rows = 1, trace = 0;
        if (json_object_get(e, "trace") &&
            !get_int(r, e, "trace", at(r, "lanes", i, "trace"), &trace))
            return false;
        l->trace = trace < 0 ? 0 : (size_t)trace;
        if (r->schema == 2) {
            if (!get_int(r, e, "rows", at(r, "lanes", i, "rows"), &rows) ||
                !get_id(r, e, "pid", at(r, "lanes", i, "pid"), &l->pid) ||
                !get_id(r, e, "tid", at(r, "lanes", i, "tid"), &l->tid))
                return false;
            l->rows = rows < 1 ? 1 : rows > 100000 ? 100000 : (unsigned)rows;
            const json_t *kind = json_object_get(e, "kind");
            const char *kv = json_is_string(kind) ? json_string_value(kind) : "";
            if (kind && strcmp(kv, "slices") != 0 && strcmp(kv, "counter") != 0)
                return type_error(r, at(r, "lanes", i, "kind"), "\"slices\" or \"counter\"",
                                  kind);
            if (strcmp(kv, "counter") == 0 && !read_counter(r, e, i, l))
                return false;
        }
    }
    return true;
}

/* Schema 2: categories, named; keyed as the Chrome mode keys them. */
static bool read_categories(struct reader *r, const json_t *root, const json_t *legend)
{
    const json_t *cats = get_array(r, root, "categories", true);
    if (!cats)
        return false;
    bool one_to_one = legend && json_array_size(legend) == json_array_size(cats);
    struct tf_buf key;
    tf_buf_init(&key);
    bool ok = true;
    for (size_t i = 0; ok && i < json_array_size(cats); i++) {
        const json_t *e = json_array_get(cats, i);
        const char *name, *label = NULL;
        uint32_t rgb = 0;
        ok = get_str(r, e, "name", at(r, "categories", i, "name"), false, &name) &&
             get_color(r, e, "color", at(r, "categories", i, "color"), &rgb) &&
             get_str(r, e, "class", at(r, "categories", i, "class"), true, &label);
        /* Without its class (a model before classes were listed): the
         * legend's label when the legend has one entry per category. */
        if (ok && !label && one_to_one)
            ok = get_str(r, json_array_get(legend, i), "label",
                         at(r, "legend", i, "label"), false, &label);
        if (!ok)
            break;
        tf_buf_clear(&key);
        tf_buf_printf(&key, "cat/%s", *name ? name : "none");
        if (label && strcmp(label, "NCCL kernel") == 0)
            tf_buf_puts(&key, "/nccl");
        for (size_t k = 0; k < r->f->n_cats; k++)
            if (key.data && strcmp(r->f->cats[k].key, key.data) == 0)
                tf_buf_printf(&key, "/%zu", i);
        size_t ci = key.oom ? (size_t)-1 : tf_figure_category(r->f, key.data, rgb);
        if (ci == (size_t)-1) {
            ok = tf_diag_oom(r->d, r->file);
            break;
        }
        r->f->cats[ci].name = name;
        r->f->cats[ci].label = label ? label : name;
    }
    tf_buf_fini(&key);
    return ok;
}

/* The category of a schema 2 bar: the first of that name, or the one
 * whose label a dense bar is named after. */
static size_t category_named(const struct tf_figure *f, const char *name, const char *bar)
{
    size_t first = (size_t)-1;
    for (size_t i = 0; i < f->n_cats; i++) {
        const struct tf_category *c = &f->cats[i];
        if (!c->name || strcmp(c->name, name) != 0)
            continue;
        if (first == (size_t)-1)
            first = i;
        if (bar && c->label && strcmp(c->label, bar) == 0)
            return i;
    }
    return first;
}

/* The category of a bar of category `name` and class `cls` (its "class",
 * or its category's name): the one of both, else a new one of that name
 * in the class's colour (a class over several of the trace's categories
 * is listed once, as the first's).  (size_t)-1 when the model has no such
 * class, or when out of memory (r->oom). */
static size_t category_of_class(struct reader *r, const char *name, const char *cls)
{
    struct tf_figure *f = r->f;
    size_t same = (size_t)-1;
    for (size_t i = 0; i < f->n_cats; i++) {
        if (strcmp(tf_category_class(&f->cats[i]), cls) != 0)
            continue;
        if (f->cats[i].name && strcmp(f->cats[i].name, name) == 0)
            return i;
        if (same == (size_t)-1)
            same = i;
    }
    if (same == (size_t)-1)
        return same;
    struct tf_buf key;
    tf_buf_init(&key);
    tf_buf_printf(&key, "%s/%zu", f->cats[same].key, f->n_cats);
    size_t ci = key.oom ? (size_t)-1 : tf_figure_category(f, key.data, f->cats[same].color);
    tf_buf_fini(&key);
    if (ci == (size_t)-1) {
        r->oom = true;
        return ci;
    }
    f->cats[ci].name = name;
    f->cats[ci].label = f->cats[same].label;
    return ci;
}

/* The category a dense bar's "busy" names CLASS (tf_category_class), else
 * the bar's own. */
static size_t class_named(const struct tf_figure *f, const char *cls, size_t own)
{
    for (size_t i = 0; i < f->n_cats; i++)
        if (strcmp(tf_category_class(&f->cats[i]), cls) == 0)
            return i;
    for (size_t i = 0; i < f->n_cats; i++)
        if (f->cats[i].name && strcmp(f->cats[i].name, cls) == 0)
            return i;
    return own;
}

/* A dense bar's "busy": {"CLASS": share, ...}, shares from 0 to 1. */
static bool read_busy(struct reader *r, const json_t *busy, size_t i, struct tf_bar *b)
{
    struct tf_figure *f = r->f;
    if (!json_is_object(busy))
        return type_error(r, at(r, "bars", i, "busy"), "an object", busy);
    struct tf_share sh[TF_SHARES_MAX];
    size_t n = 0;
    double total = 0;
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)busy, k, v) {
        double s = json_is_number(v) ? json_number_value(v) : -1;
        if (!(s >= 0 && s <= 1))
            return tf_diag_error(r->d, TF_EBADINPUT,
                                 "%s: bars[%zu].busy.%.80s: expected a share from 0 to 1",
                                 r->file, i, k);
        size_t ci = class_named(f, k, b->cat), j = 0;
        while (j < n && sh[j].cat != ci)
            j++;
        if (j == n && n == TF_SHARES_MAX)
            j = n - 1;
        if (j == n)
            sh[n++] = (struct tf_share){ci, 0};
        sh[j].share += s;
        total += s;
    }
    b->busy = total * (b->x1 - b->x0);
    return tf_figure_bar_shares(f, b, sh, n) || tf_diag_oom(r->d, r->file);
}

static bool read_bar2(struct reader *r, const json_t *e, size_t i)
{
    struct tf_figure *f = r->f;
    struct tf_bar *b = tf_figure_add_bar(f);
    if (!b)
        return tf_diag_oom(r->d, r->file);
    long long row = 0, merged = 0;
    const char *cat, *shape;
    if (!get_index(r, e, "lane", at(r, "bars", i, "lane"), f->n_lanes, &b->lane) ||
        !get_int(r, e, "row", at(r, "bars", i, "row"), &row) ||
        !get_num(r, e, "x0", at(r, "bars", i, "x0"), &b->x0) ||
        !get_num(r, e, "x1", at(r, "bars", i, "x1"), &b->x1) ||
        !get_str(r, e, "name", at(r, "bars", i, "name"), false, &b->name) ||
        !get_str(r, e, "category", at(r, "bars", i, "category"), false, &cat) ||
        !get_bool(r, e, "clip_left", at(r, "bars", i, "clip_left"), &b->clip_left) ||
        !get_bool(r, e, "clip_right", at(r, "bars", i, "clip_right"), &b->clip_right) ||
        !get_int(r, e, "merged", at(r, "bars", i, "merged"), &merged) ||
        !get_str(r, e, "shape", at(r, "bars", i, "shape"), false, &shape))
        return false;
    if (row < 0 || (unsigned long long)row >= f->lanes[b->lane].rows)
        return tf_diag_error(r->d, TF_EBADINPUT, "%s: bars[%zu].row: %lld is not a row of its lane",
                             r->file, i, row);
    b->row = (unsigned)row;
    b->merged = merged > 0 ? (size_t)merged : 0;
    b->shape = strcmp(shape, "dense") == 0 ? TF_SHAPE_DENSE
               : strcmp(shape, "instant") == 0 ? TF_SHAPE_INSTANT : TF_SHAPE_SLICE;
    const char *cls;
    if (!get_str(r, e, "class", at(r, "bars", i, "class"), true, &cls))
        return false;
    size_t ci;
    if (cls) {
        if ((ci = category_of_class(r, cat, cls)) == (size_t)-1)
            return r->oom ? tf_diag_oom(r->d, r->file)
                          : tf_diag_error(r->d, TF_EBADINPUT,
                                          "%s: bars[%zu].class: \"%.80s\" is not the class of "
                                          "a category",
                                          r->file, i, cls);
    } else if ((ci = category_named(f, cat, b->shape == TF_SHAPE_DENSE ? b->name : NULL)) ==
               (size_t)-1) {
        return tf_diag_error(r->d, TF_EBADINPUT,
                             "%s: bars[%zu].category: \"%.80s\" is not one of the categories",
                             r->file, i, cat);
    }
    b->cat = ci;
    b->color = f->cats[ci].color;
    b->label_color = tf_color_text_on(b->color);
    b->busy = b->shape == TF_SHAPE_DENSE ? b->x1 - b->x0 : 0;
    const json_t *busy = json_object_get(e, "busy");
    return !busy || b->shape != TF_SHAPE_DENSE || read_busy(r, busy, i, b);
}

/* Schema 1 bars: the lane by its id (and trace), the category its lane's. */
static bool read_bar1(struct reader *r, const json_t *e, size_t i)
{
    struct tf_figure *f = r->f;
    const char *lane;
    long long trace = 0;
    if (!get_str(r, e, "lane", at(r, "bars", i, "lane"), true, &lane))
        return false;
    if (json_object_get(e, "trace") && !get_int(r, e, "trace", at(r, "bars", i, "trace"), &trace))
        return false;
    size_t li = (size_t)-1;
    for (size_t k = 0; k < f->n_lanes && li == (size_t)-1; k++)
        if (f->lanes[k].trace == (size_t)trace &&
            ((!lane && !f->lanes[k].key) ||
             (lane && f->lanes[k].key && strcmp(lane, f->lanes[k].key) == 0)))
            li = k;
    if (li == (size_t)-1)
        return tf_diag_error(r->d, TF_EBADINPUT, "%s: bars[%zu].lane: \"%.80s\" is not a lane",
                             r->file, i, lane ? lane : "null");
    struct tf_bar *b = tf_figure_add_bar(f);
    if (!b)
        return tf_diag_oom(r->d, r->file);
    b->lane = li;
    if (!get_str(r, e, "name", at(r, "bars", i, "name"), false, &b->name) ||
        !get_num(r, e, "start_ms", at(r, "bars", i, "start_ms"), &b->start_ms) ||
        !get_num(r, e, "dur_ms", at(r, "bars", i, "dur_ms"), &b->dur_ms) ||
        !get_num(r, e, "x0", at(r, "bars", i, "x0"), &b->x0) ||
        !get_num(r, e, "x1", at(r, "bars", i, "x1"), &b->x1) ||
        !get_bool(r, e, "clip_left", at(r, "bars", i, "clip_left"), &b->clip_left) ||
        !get_bool(r, e, "clip_right", at(r, "bars", i, "clip_right"), &b->clip_right) ||
        !get_str(r, e, "label", at(r, "bars", i, "label"), true, &b->label) ||
        !get_color(r, e, "color", at(r, "bars", i, "color"), &b->color))
        return false;
    /* The members between name and start_ms are the bar's props. */
    static const char *const fixed[] = {"lane", "trace", "name", "start_ms", "dur_ms", "x0", "x1",
                                        "clip_left", "clip_right", "label", "color"};
    struct tf_prop props[16];
    size_t n = 0;
    char numtext[64];
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)e, k, v) {
        bool known = false;
        for (size_t j = 0; j < sizeof fixed / sizeof fixed[0] && !known; j++)
            known = strcmp(k, fixed[j]) == 0;
        if (known || n == sizeof props / sizeof props[0])
            continue;
        struct tf_prop p = {k, NULL, false};
        if (json_is_integer(v)) {
            snprintf(numtext, sizeof numtext, "%lld", (long long)json_integer_value(v));
            p.value = tf_figure_str(f, numtext), p.number = true;
        } else if (json_is_string(v)) {
            p.value = json_string_value(v);
        }
        props[n++] = p;
    }
    /* In the order the model lists them (jansson keeps insertion order). */
    if (!tf_figure_bar_props(f, b, props, n))
        return tf_diag_oom(r->d, r->file);
    char key[96];
    const char *lk = f->lanes[li].key ? f->lanes[li].key : "lane";
    if (strcmp(lk, "main") == 0)
        snprintf(key, sizeof key, "main/%s", b->name);
    else
        snprintf(key, sizeof key, "%s", lk);
    size_t ci = tf_figure_category(f, key, b->color);
    if (ci == (size_t)-1)
        return tf_diag_oom(r->d, r->file);
    b->cat = ci;
    b->label_color = tf_color_text_on(b->color);
    return true;
}

static bool read_legend(struct reader *r, const json_t *root)
{
    const json_t *legend = get_array(r, root, "legend", true);
    if (!legend)
        return false;
    struct tf_figure *f = r->f;
    for (size_t i = 0; i < json_array_size(legend); i++) {
        const json_t *e = json_array_get(legend, i);
        const char *label;
        uint32_t rgb = 0;
        if (!get_str(r, e, "label", at(r, "legend", i, "label"), false, &label) ||
            !get_color(r, e, "color", at(r, "legend", i, "color"), &rgb))
            return false;
        size_t ci = (size_t)-1;
        if (r->schema == 2 && i < f->n_cats && f->cats[i].color == rgb)
            ci = i;
        for (size_t k = 0; ci == (size_t)-1 && k < f->n_cats; k++)
            if (f->cats[k].color == rgb)
                ci = k;
        if (ci == (size_t)-1)
            ci = tf_figure_category(f, label, rgb);
        if (ci == (size_t)-1 || !tf_figure_add_legend(f, label, ci))
            return tf_diag_oom(r->d, r->file);
        if (r->schema == 1 && !f->cats[ci].label)
            f->cats[ci].label = f->legend[f->n_legend - 1].label;
    }
    return true;
}

/* Schema 1's breakdown panel. */
static bool read_panel(struct reader *r, const json_t *root)
{
    const json_t *bd = json_object_get(root, "breakdown");
    if (!bd || json_is_null(bd))
        return true;
    if (!json_is_object(bd))
        return type_error(r, "breakdown", "an object or null", bd);
    struct tf_figure *f = r->f;
    f->has_panel = true;
    f->panel.subject = "GPU runtime breakdown";
    f->panel.axis_title = "GPU Runtime Breakdown (%)";
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)bd, k, v) {
        if (strcmp(k, "title") == 0 || strcmp(k, "slices") == 0)
            continue;
        char num[64];
        bool ok;
        if (json_is_integer(v)) {
            snprintf(num, sizeof num, "%lld", (long long)json_integer_value(v));
            ok = tf_panel_add_prop(f, k, num, true);
        } else if (json_is_real(v)) {
            snprintf(num, sizeof num, "%.17g", json_real_value(v));
            ok = tf_panel_add_prop(f, k, num, true);
        } else {
            ok = tf_panel_add_prop(f, k, json_is_string(v) ? json_string_value(v) : NULL, false);
        }
        if (!ok)
            return tf_diag_oom(r->d, r->file);
    }
    if (!get_str(r, bd, "title", "breakdown.title", true, &f->panel.title))
        return false;
    const json_t *slices = json_object_get(bd, "slices");
    if (!json_is_array(slices))
        return type_error(r, "breakdown.slices", "an array", slices);
    for (size_t i = 0; i < json_array_size(slices); i++) {
        const json_t *e = json_array_get(slices, i);
        struct tf_slice *s = tf_panel_add_slice(f);
        if (!s)
            return tf_diag_oom(r->d, r->file);
        if (!get_str(r, e, "key", at(r, "breakdown.slices", i, "key"), true, &s->key) ||
            !get_str(r, e, "label", at(r, "breakdown.slices", i, "label"), true, &s->label) ||
            !get_num(r, e, "pct", at(r, "breakdown.slices", i, "pct"), &s->pct) ||
            !get_num(r, e, "width_pct", at(r, "breakdown.slices", i, "width_pct"),
                     &s->width_pct) ||
            !get_color(r, e, "color", at(r, "breakdown.slices", i, "color"), &s->color) ||
            !get_str(r, e, "text", at(r, "breakdown.slices", i, "text"), true, &s->text))
            return false;
        s->text_color = tf_color_text_on(s->color);
    }
    return true;
}

/* The axis: schema 2's "axis" (ticks as their labels), schema 1's ms and
 * "xticks". */
static bool read_axis(struct reader *r, const json_t *root)
{
    struct tf_figure *f = r->f;
    double ticks[64];
    size_t n = 0;
    if (r->schema == 2) {
        const json_t *ax = json_object_get(root, "axis");
        const char *unit;
        if (!json_is_object(ax))
            return type_error(r, "axis", "an object", ax);
        if (!get_str(r, ax, "title", "axis.title", false, &f->axis.title) ||
            !get_str(r, ax, "unit", "axis.unit", false, &unit) ||
            !get_num(r, ax, "span", "axis.span", &f->x_span))
            return false;
        f->axis.unit = unit;
        const json_t *tk = json_object_get(ax, "ticks");
        for (size_t i = 0; json_is_array(tk) && i < json_array_size(tk) && n < 64; i++) {
            const json_t *t = json_array_get(tk, i);
            if (!json_is_string(t))
                return type_error(r, "axis.ticks", "strings", t);
            ticks[n++] = strtod(json_string_value(t), NULL);
        }
    } else {
        f->axis.title = "Time (ms)";
        f->axis.unit = "ms";
        f->x_span = f->window_end - f->window_start;
        const json_t *tk = get_array(r, root, "xticks", true);
        if (!tk)
            return false;
        for (size_t i = 0; i < json_array_size(tk) && n < 64; i++) {
            const json_t *t = json_array_get(tk, i);
            if (!json_is_number(t))
                return type_error(r, "xticks", "numbers", t);
            ticks[n++] = json_number_value(t);
        }
    }
    if (!(f->x_span > 0))
        return tf_diag_error(r->d, TF_EBADINPUT, "%s: the window is empty", r->file);
    return tf_figure_set_ticks(f, ticks, n) || tf_diag_oom(r->d, r->file);
}

/* The facts before "window": the figure's props (schema 1's
 * start_candidate, schema 2's color_by). */
static bool read_props(struct reader *r, const json_t *root)
{
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)root, k, v) {
        if (strcmp(k, "window") == 0)
            break;
        if (strcmp(k, "schema") == 0 || strcmp(k, "mode") == 0)
            continue;
        char num[64];
        bool ok;
        if (json_is_integer(v)) {
            snprintf(num, sizeof num, "%lld", (long long)json_integer_value(v));
            ok = tf_figure_add_prop(r->f, k, num, true);
        } else {
            ok = tf_figure_add_prop(r->f, k, json_is_string(v) ? json_string_value(v) : NULL,
                                    false);
        }
        if (!ok)
            return tf_diag_oom(r->d, r->file);
    }
    return true;
}

static bool read_figure(struct reader *r, const json_t *root)
{
    struct tf_figure *f = r->f;
    const char *mode;
    if (!get_str(r, root, "mode", "mode", false, &mode))
        return false;
    f->mode = mode;
    f->schema = r->schema == 2 ? "tracefig-figure-2" : "tracefig-figure-1";
    if (!read_props(r, root) || !read_window(r, root) || !read_lanes(r, root))
        return false;
    const json_t *legend = get_array(r, root, "legend", true);
    if (!legend || (r->schema == 2 && !read_categories(r, root, legend)))
        return false;
    const json_t *bars = get_array(r, root, "bars", true);
    if (!bars)
        return false;
    for (size_t i = 0; i < json_array_size(bars); i++) {
        const json_t *e = json_array_get(bars, i);
        if (!json_is_object(e))
            return type_error(r, at(r, "bars", i, NULL), "an object", e);
        if (!(r->schema == 2 ? read_bar2(r, e, i) : read_bar1(r, e, i)))
            return false;
    }
    if (!read_legend(r, root) || !read_axis(r, root) || (r->schema == 1 && !read_panel(r, root)))
        return false;
    const json_t *arrows = get_array(r, root, "arrows", false);
    for (size_t i = 0; arrows && i < json_array_size(arrows); i++) {
        const json_t *e = json_array_get(arrows, i), *a = json_object_get(e, "from"),
                     *b = json_object_get(e, "to");
        struct tf_arrow ar;
        long long r0 = 0, r1 = 0;
        if (!get_index(r, a, "lane", at(r, "arrows", i, "from.lane"), f->n_lanes, &ar.lane0) ||
            !get_index(r, b, "lane", at(r, "arrows", i, "to.lane"), f->n_lanes, &ar.lane1) ||
            !get_int(r, a, "row", at(r, "arrows", i, "from.row"), &r0) ||
            !get_int(r, b, "row", at(r, "arrows", i, "to.row"), &r1) ||
            !get_num(r, a, "x", at(r, "arrows", i, "from.x"), &ar.x0) ||
            !get_num(r, b, "x", at(r, "arrows", i, "to.x"), &ar.x1))
            return false;
        ar.row0 = r0 < 0 ? 0 : (unsigned)r0;
        ar.row1 = r1 < 0 ? 0 : (unsigned)r1;
        if (!tf_figure_add_arrow(f, &ar))
            return tf_diag_oom(r->d, r->file);
    }
    const json_t *notes = get_array(r, root, "notes", false);
    for (size_t i = 0; notes && i < json_array_size(notes); i++) {
        const json_t *n = json_array_get(notes, i);
        if (!json_is_string(n))
            return type_error(r, "notes", "strings", n);
        if (!tf_figure_add_note(f, json_string_value(n)))
            return tf_diag_oom(r->d, r->file);
    }
    return true;
}

/* The x of every counter sample: its time on the figure's clock (its
 * trace's offset added; refs NULL: one trace) from the window's start w0
 * (ns), per ns to an axis unit, kept on the axis. */
static void place_samples(struct tf_figure *f, const struct tf_trace_ref *refs, size_t n_refs,
                          double w0_ns, double per)
{
    for (size_t i = 0; i < f->n_lanes; i++) {
        struct tf_lane *l = &f->lanes[i];
        int64_t off = refs && l->trace < n_refs ? refs[l->trace].offset_ns : 0;
        for (size_t j = 0; l->kind == TF_LANE_COUNTER && j < l->counter.n_samples; j++) {
            struct tf_sample *p = &l->counter.samples[j];
            double x = ((double)(p->t_ns + off) - w0_ns) / per;
            p->x = x < 0 ? 0 : x > f->x_span ? f->x_span : x;
        }
    }
}

/* The traces of a model of several: its entries, into ts[] (strings in
 * the figure's arena). */
static bool read_traces(struct reader *r, const json_t *arr, struct tf_trace_ref *ts, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(arr, i);
        struct tf_trace_ref *t = &ts[i];
        memset(t, 0, sizeof *t);
        double rank = 0, ws = 0, off = 0, ev = 0;
        const json_t *w = json_object_get(e, "window_us"), *sp = json_object_get(e, "span_us");
        if (!json_is_object(e))
            return type_error(r, at(r, "traces", i, NULL), "an object", e);
        if (!get_str(r, e, "file", at(r, "traces", i, "file"), true, &t->file) ||
            !get_str(r, e, "title", at(r, "traces", i, "title"), true, &t->title) ||
            !get_str(r, e, "mode", at(r, "traces", i, "mode"), true, &t->mode) ||
            !get_opt_num(r, e, "rank", at(r, "traces", i, "rank"), &t->has_rank, &rank) ||
            !get_opt_num(r, e, "world_size", at(r, "traces", i, "world_size"),
                         &t->has_world_size, &ws) ||
            !get_num(r, e, "offset_us", at(r, "traces", i, "offset_us"), &off) ||
            !get_num(r, e, "event_us", at(r, "traces", i, "event_us"), &ev))
            return false;
        t->rank = (long long)rank;
        t->world_size = (long long)ws;
        const json_t *bt = json_object_get(e, "base_time_ns");
        if ((t->has_base_time = json_is_integer(bt)))
            t->base_time_ns = (long long)json_integer_value(bt);
        if (!json_is_array(w) || json_array_size(w) != 2 || !json_is_number(json_array_get(w, 0)) ||
            !json_is_number(json_array_get(w, 1)))
            return type_error(r, at(r, "traces", i, "window_us"), "[start, end]", w);
        if (!json_is_array(sp) || json_array_size(sp) != 2 ||
            !json_is_number(json_array_get(sp, 0)) ||
            !json_is_number(json_array_get(sp, 1)))
            return type_error(r, at(r, "traces", i, "span_us"), "[start, end]", sp);
        t->offset_ns = us_to_ns(off);
        t->event_ns = us_to_ns(ev);
        t->w0_ns = us_to_ns(json_number_value(json_array_get(w, 0)));
        t->w1_ns = us_to_ns(json_number_value(json_array_get(w, 1)));
        t->origin_ns = us_to_ns(json_number_value(json_array_get(sp, 0)));
        t->end_ns = us_to_ns(json_number_value(json_array_get(sp, 1)));
    }
    return true;
}

/* Trace t of the whole figure `all`, as a figure of its own (its lanes,
 * bars, arrows, its notes without "TITLE: ", every category and legend
 * entry; append() keeps only what it needs). */
static bool split_trace(const struct tf_figure *all, size_t t, const struct tf_trace_ref *ref,
                        struct tf_figure *f)
{
    size_t first = SIZE_MAX, n = 0;
    for (size_t i = 0; i < all->n_lanes; i++)
        if (all->lanes[i].trace == t) {
            if (first == SIZE_MAX)
                first = i;
            n = i + 1 - first;
        }
    if (first == SIZE_MAX)
        first = 0;
    struct tf_trace_ref none;
    memset(&none, 0, sizeof none);
    f->mode = tf_figure_str(f, ref->mode ? ref->mode : all->mode);
    f->schema = all->schema;
    f->clock_unit = all->clock_unit;
    f->window_start = all->window_start;
    f->window_end = all->window_end;
    f->x_span = all->x_span;
    f->zigzag_amp = all->zigzag_amp;
    f->flame = all->flame;
    f->width_pt = all->width_pt;
    f->axis.unit = all->axis.unit ? tf_figure_str(f, all->axis.unit) : NULL;
    f->axis.title = all->axis.title ? tf_figure_str(f, all->axis.title) : NULL;
    if ((all->axis.unit && !f->axis.unit) || (all->axis.title && !f->axis.title))
        return false;
    if (!tf_figure_set_ticks(f, all->axis.ticks, all->axis.n_ticks))
        return false;
    /* A figure of the trace's lanes only: cut the others off a copy. */
    struct tf_figure part = *all;
    part.n_lanes = n;
    part.lanes = all->lanes + first;
    part.n_bars = 0;
    part.bars = malloc((all->n_bars ? all->n_bars : 1) * sizeof *part.bars);
    part.n_arrows = 0;
    part.arrows = malloc((all->n_arrows ? all->n_arrows : 1) * sizeof *part.arrows);
    part.n_notes = 0;
    part.notes = malloc((all->n_notes ? all->n_notes : 1) * sizeof *part.notes);
    part.n_traces = 0;
    memset(&part.stats, 0, sizeof part.stats);
    bool ok = part.bars && part.arrows && part.notes;
    for (size_t i = 0; ok && i < all->n_bars; i++)
        if (all->bars[i].lane >= first && all->bars[i].lane < first + n) {
            part.bars[part.n_bars] = all->bars[i];
            part.bars[part.n_bars++].lane -= first;
        }
    for (size_t i = 0; ok && i < all->n_arrows; i++) {
        const struct tf_arrow *a = &all->arrows[i];
        if (a->lane0 >= first && a->lane0 < first + n && a->lane1 >= first &&
            a->lane1 < first + n) {
            part.arrows[part.n_arrows] = *a;
            part.arrows[part.n_arrows].lane0 -= first;
            part.arrows[part.n_arrows++].lane1 -= first;
        }
    }
    /* Its notes: those after "TITLE: ", or every note of a model of one
     * trace (no title). */
    size_t tl = ref->title ? strlen(ref->title) : 0;
    for (size_t i = 0; ok && i < all->n_notes; i++)
        if (!ref->title)
            part.notes[part.n_notes++] = all->notes[i];
        else if (strncmp(all->notes[i], ref->title, tl) == 0 &&
                 strncmp(all->notes[i] + tl, ": ", 2) == 0)
            part.notes[part.n_notes++] = all->notes[i] + tl + 2;
    /* Into f as its one trace, then out of the trace list again. */
    ok = ok && tf_figure_append(f, &part, &none, 1.0, 0.0);
    if (ok) {
        f->n_traces = 0;
        tf_stats_fini(&f->traces[0].stats);
        for (size_t i = 0; i < f->n_lanes; i++)
            f->lanes[i].trace = 0;
        /* The trace's notes are its own again ("TITLE: " came from append). */
        for (size_t i = 0; i < f->n_notes && i < part.n_notes; i++)
            f->notes[i] = tf_figure_str(f, part.notes[i]);
    }
    free(part.bars);
    free(part.arrows);
    free(part.notes);
    return ok;
}

/* Moves the stats of lanes [first, first + n) of a model of several. */
static void rebase_stats(struct tf_stats *s, size_t first)
{
    for (size_t g = 0; g < s->n_groups; g++)
        for (size_t i = 0; i < s->groups[g].n_lanes; i++)
            s->groups[g].lanes[i] -= s->groups[g].lanes[i] >= first ? first : s->groups[g].lanes[i];
}

static size_t read_input_cb(void *buf, size_t n, void *in)
{
    ssize_t r = tf_input_read(in, buf, n);
    return r < 0 ? (size_t)-1 : (size_t)r;
}

bool tf_load_model(const char *path, struct tf_model_trace **out, size_t *n_out,
                   struct tf_diag *d)
{
    *out = NULL;
    *n_out = 0;
    const char *file = tf_diag_name(path);
    struct tf_input *in = tf_input_open(path, NULL, d);
    if (!in)
        return false;
    json_error_t err;
    json_t *root = json_load_callback(read_input_cb, in, JSON_REJECT_DUPLICATES, &err);
    tf_input_close(in);
    if (!root) {
        if (!tf_diag_failed(d))
            tf_diag_error(d, TF_EBADINPUT, "%s:%d:%d: %s", file, err.line, err.column, err.text);
        return false;
    }
    const json_t *schema = json_object_get(root, "schema");
    const char *sv = json_is_string(schema) ? json_string_value(schema) : "";
    int sn = strcmp(sv, "tracefig-figure-1") == 0 ? 1 : 0;
    if (strcmp(sv, "tracefig-figure-2") == 0)
        sn = 2;
    if (!sn) {
        tf_diag_error(d, TF_EBADINPUT,
                      "%s: a figure model of schema \"%.80s\", which this tracefig does not read "
                      "(it reads tracefig-figure-1 and tracefig-figure-2)",
                      file, sv);
        json_decref(root);
        return false;
    }
    struct tf_figure all;
    tf_figure_init(&all);
    struct reader r = {.file = file, .d = d, .f = &all, .schema = sn};
    bool ok = read_figure(&r, root);
    const json_t *tr = json_object_get(root, "traces");
    const json_t *st = json_object_get(root, "stats");
    size_t nt = json_is_array(tr) ? json_array_size(tr) : 0;
    if (ok && tr && !json_is_array(tr))
        ok = type_error(&r, "traces", "an array", tr);
    struct tf_model_trace *mt = calloc(nt ? nt : 1, sizeof *mt);
    if (ok && !mt)
        ok = tf_diag_oom(d, file);
    double per = strcmp(all.axis.unit ? all.axis.unit : "ms", "s") == 0 ? 1e9
                 : strcmp(all.axis.unit ? all.axis.unit : "ms", "ms") == 0 ? 1e6 : 1e3;
    int64_t w0 = exact_ns(all.window_start,
                          strcmp(all.clock_unit ? all.clock_unit : "us", "ms") == 0 ? 1e6 : 1e3);
    double w0_ns = (double)w0;
    if (ok && json_object_get(root, "overview")) {
        /* A job's overview: one figure of rows, as it was. */
        struct tf_trace_ref *refs = tf_arena_alloc(&all.arena, (nt ? nt : 1) * sizeof *refs);
        ok = refs && read_traces(&r, tr, refs, nt) && tf_model_read_overview(&r, root, refs, nt);
        if (ok) {
            mt[0].fig = all;
            tf_figure_init(&all);
            *out = mt;
            *n_out = 1;
            mt = NULL;
        }
    } else if (ok && nt == 0) {
        /* One trace: the figure as it is. */
        place_samples(&all, NULL, 0, w0_ns, per);
        ok = tf_model_read_stats(&r, st, all.n_lanes, 0, &all.stats);
        mt[0].fig = all;
        tf_figure_init(&all);
        mt[0].xo_ns = 0;
        *out = mt;
        *n_out = 1;
        mt = NULL;
    } else if (ok) {
        struct tf_trace_ref *refs = tf_arena_alloc(&all.arena, nt * sizeof *refs);
        ok = refs && read_traces(&r, tr, refs, nt);
        /* A model of one trace with its entry keeps its "stats" object. */
        bool one = nt == 1 && json_is_object(st);
        if (ok && st && !json_is_null(st) && !one &&
            (!json_is_array(st) || json_array_size(st) != nt))
            ok = type_error(&r, "stats", "one entry per trace", st);
        if (ok)
            place_samples(&all, refs, nt, w0_ns, per);
        for (size_t t = 0; ok && t < nt; t++) {
            struct tf_model_trace *m = &mt[t];
            tf_figure_init(&m->fig);
            ok = split_trace(&all, t, &refs[t], &m->fig);
            size_t first = 0;
            while (ok && first < all.n_lanes && all.lanes[first].trace != t)
                first++;
            /* The trace's statistics, their strings in its own figure. */
            r.f = &m->fig;
            ok = ok && tf_model_read_stats(&r, one ? st : st ? json_array_get(st, t) : NULL,
                                           m->fig.n_lanes, first, &m->fig.stats);
            r.f = &all;
            if (!ok)
                break;
            rebase_stats(&m->fig.stats, first);
            m->has_ref = true;
            m->ref = refs[t];
            m->ref.file = m->ref.file ? tf_figure_str(&m->fig, m->ref.file) : NULL;
            m->ref.title = m->ref.title ? tf_figure_str(&m->fig, m->ref.title) : NULL;
            m->ref.mode = m->ref.mode ? tf_figure_str(&m->fig, m->ref.mode) : NULL;
            m->xo_ns = w0 - m->ref.offset_ns;
            m->per_ns = per;
        }
        if (ok) {
            *out = mt;
            *n_out = nt;
            mt = NULL;
        }
    }
    if (mt)
        tf_model_traces_free(mt, nt ? nt : 1);
    tf_figure_fini(&all);
    json_decref(root);
    return ok;
}

void tf_model_traces_free(struct tf_model_trace *t, size_t n)
{
    if (!t)
        return;
    for (size_t i = 0; i < n; i++)
        tf_figure_fini(&t[i].fig);
    free(t);
}

bool tf_load_model_figure(const char *path, struct tf_figure *fig, bool *several,
                          struct tf_diag *d)
{
    struct tf_model_trace *mt;
    size_t n;
    *several = false;
    if (!tf_load_model(path, &mt, &n, d))
        return false;
    if (n == 1) {
        /* One trace, with its entry when the model has one: as it is. */
        tf_figure_fini(fig);
        *fig = mt[0].fig;
        tf_figure_init(&mt[0].fig);
        if ((fig->has_one_trace = mt[0].has_ref))
            fig->one_trace = mt[0].ref;
    } else {
        *several = true;
    }
    tf_model_traces_free(mt, n);
    return true;
}
