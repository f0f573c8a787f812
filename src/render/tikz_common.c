/* tikz_common.c - what the two TikZ writers share (tikz_int.h): free text
 * and comments for TeX, numbers and the x unit, the style table of a
 * figure, the file's header, and the primitives both draw the same way:
 * a bar, an in-bar label, the breakdown panel's legend.  The layouts
 * themselves are tikz.c's (the reference's) and tikz_fit.c's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/num.h"
#include "base/str.h"
#include "base/utf8.h"
#include "render/render.h"
#include "render/style.h"
#include "render/templates.h"
#include "render/tikz_int.h"

#define MAX_SPAN_UNITS 10000.0
#define MIN_SPAN_UNITS 10.0

/* --- text ------------------------------------------------------------------ */

/* Latin-1 letters U+00C0..U+00FF as accent commands (NULL: no pdfTeX form in
 * the default OT1 encoding, or not a letter). */
static const char *const latin1[64] = {
    "\\`{A}", "\\'{A}", "\\^{A}", "\\~{A}", "\\\"{A}", "\\AA{}", "\\AE{}", "\\c{C}",
    "\\`{E}", "\\'{E}", "\\^{E}", "\\\"{E}", "\\`{I}", "\\'{I}", "\\^{I}", "\\\"{I}",
    NULL,     "\\~{N}", "\\`{O}", "\\'{O}", "\\^{O}", "\\~{O}", "\\\"{O}", "$\\times$",
    "\\O{}",  "\\`{U}", "\\'{U}", "\\^{U}", "\\\"{U}", "\\'{Y}", NULL,     "\\ss{}",
    "\\`{a}", "\\'{a}", "\\^{a}", "\\~{a}", "\\\"{a}", "\\aa{}", "\\ae{}", "\\c{c}",
    "\\`{e}", "\\'{e}", "\\^{e}", "\\\"{e}", "\\`{\\i}", "\\'{\\i}", "\\^{\\i}", "\\\"{\\i}",
    NULL,     "\\~{n}", "\\`{o}", "\\'{o}", "\\^{o}", "\\~{o}", "\\\"{o}", "$\\div$",
    "\\o{}",  "\\`{u}", "\\'{u}", "\\^{u}", "\\\"{u}", "\\'{y}", NULL,     "\\\"{y}",
};

static const struct {
    uint32_t cp;
    const char *tex;
} symbols[] = {
    {0x00A0, "~"},
    {0x00A7, "\\S{}"},
    {0x00A9, "\\copyright{}"},
    {0x00AE, "\\textregistered{}"},
    {0x00B0, "$^\\circ$"},
    {0x00B1, "$\\pm$"},
    {0x00B5, "$\\mu$"},
    {0x00B6, "\\P{}"},
    {0x00B7, "$\\cdot$"},
    {0x03BC, "$\\mu$"},
    {0x2013, "\\textendash{}"},
    {0x2014, "\\textemdash{}"},
    {0x2018, "\\textquoteleft{}"},
    {0x2019, "\\textquoteright{}"},
    {0x201C, "\\textquotedblleft{}"},
    {0x201D, "\\textquotedblright{}"},
    {0x2022, "$\\bullet$"},
    {0x2026, "\\dots{}"},
    {0x2122, "\\texttrademark{}"},
    {0x2190, "$\\leftarrow$"},
    {0x2192, "$\\rightarrow$"},
    {0x2194, "$\\leftrightarrow$"},
    {0x21D2, "$\\Rightarrow$"},
    {0x2212, "-"},
    {0x221E, "$\\infty$"},
    {0x2248, "$\\approx$"},
    {0x2260, "$\\neq$"},
    {0x2264, "$\\leq$"},
    {0x2265, "$\\geq$"},
};

static const char *tex_for(uint32_t cp)
{
    if (cp >= 0xC0 && cp <= 0xFF)
        return latin1[cp - 0xC0];
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++)
        if (symbols[i].cp == cp)
            return symbols[i].tex;
    return NULL;
}

/* Free text for TeX: ASCII through tf_buf_tex_escape, other characters as
 * TeX commands, or as \tracefigutf{...} (the character itself under XeTeX
 * and LuaTeX, "?" under pdfTeX).  Invalid UTF-8 is U+FFFD (base/utf8.h). */
void tz_text(struct tf_buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    struct tf_buf run;
    tf_buf_init(&run);
    while (*p) {
        size_t n = 0;
        while (p[n] && p[n] < 0x80)
            n++;
        if (n) {
            tf_buf_clear(&run);
            tf_buf_putn(&run, (const char *)p, n);
            if (run.oom)
                b->oom = true;
            else
                tf_buf_tex_escape(b, run.data);
            p += n;
            continue;
        }
        uint32_t cp;
        size_t len = tf_utf8_next(p, &cp);
        const char *tex = tex_for(cp);
        if (tex) {
            tf_buf_puts(b, tex);
        } else {
            tf_buf_puts(b, "\\tracefigutf{");
            if (cp == TF_UTF8_REPLACEMENT && len == 1)
                tf_buf_puts(b, "\xEF\xBF\xBD");
            else
                tf_buf_putn(b, (const char *)p, len);
            tf_buf_putc(b, '}');
        }
        p += len;
    }
    tf_buf_fini(&run);
}

/* Text inside a TeX comment: printable ASCII only, so nothing can end the
 * comment line or upset an engine's input decoding. */
static void tz_comment(struct tf_buf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        tf_buf_putc(b, *p >= 0x20 && *p < 0x7F ? (char)*p : '?');
}

/* --- numbers ----------------------------------------------------------------- */

void tz_num(struct tikz *t, double v)
{
    tf_buf_num(t->b, v, DEC);
}

/* ms from the window start -> x units, kept inside the window. */
double tz_xu(const struct tikz *t, double ms)
{
    double v = t->exp10 >= 0 ? ms / pow(10.0, t->exp10) : ms * pow(10.0, -t->exp10);
    if (!(v > 0.0))
        return 0.0;
    return v > t->span ? t->span : v;
}

/* The power of ten that brings the span into [MIN, MAX] units. */
bool tz_pick_unit(struct tikz *t, double span_ms, struct tf_diag *d)
{
    if (!isfinite(span_ms) || !(span_ms > 1e-250) || span_ms > 1e250)
        return tf_diag_error(d, TF_EBADINPUT, "tikz: the time window cannot be drawn (span %g ms)",
                             span_ms);
    int k = 0;
    if (span_ms < MIN_SPAN_UNITS || span_ms > MAX_SPAN_UNITS) {
        k = (int)floor(log10(span_ms)) - 3;
        for (int i = 0; i < 3; i++) {
            double s = k >= 0 ? span_ms / pow(10.0, k) : span_ms * pow(10.0, -k);
            if (s >= MAX_SPAN_UNITS)
                k++;
            else if (s < 1000.0)
                k--;
        }
    }
    t->exp10 = k;
    t->span = k >= 0 ? span_ms / pow(10.0, k) : span_ms * pow(10.0, -k);
    /* The span as TeX reads it (3 decimals) must stay positive and small. */
    if (t->span < 0.001)
        t->span = 0.001;
    return true;
}

/* Decimals that show every tick exactly (at most 6). */
/* --- styles ------------------------------------------------------------------ */

/* Copies an identifier, keeping only characters safe in TikZ keys and colour
 * names. */
static void ident(char *out, size_t n, const char *s)
{
    size_t i = 0;
    for (; *s && i + 1 < n; s++) {
        char c = *s;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '-' || c == '/';
        out[i++] = ok ? c : 'x';
    }
    out[i] = '\0';
}

static struct style *find_style(struct tikz *t, const char *key)
{
    for (size_t i = 0; i < t->n_styles; i++)
        if (strcmp(t->styles[i].key, key) == 0)
            return &t->styles[i];
    return NULL;
}

/* The style called key, added with colour rgb when new (NULL when out of
 * memory). */
static struct style *add_style(struct tikz *t, const char *key, uint32_t rgb, const char *prop)
{
    struct style *s = find_style(t, key);
    if (s)
        return s;
    if (!TF_GROW(t->styles, t->n_styles, t->cap_styles)) {
        t->oom = true;
        return NULL;
    }
    s = &t->styles[t->n_styles++];
    snprintf(s->key, sizeof s->key, "%s", key);
    char *c = s->color + snprintf(s->color, sizeof s->color, "tracefig-");
    for (const char *k = key; *k && c + 1 < s->color + sizeof s->color; k++)
        *c++ = *k == '/' || *k == '_' ? '-' : *k;
    *c = '\0';
    s->rgb = rgb;
    s->prop = prop;
    s->lost = false;
    return s;
}

/* Marks the style of a category of lost events (TF_LOST_CAT): its bars and
 * its legend swatch are hatched, as the scene draws them. */
static struct style *mark_lost(struct style *s, const struct tf_category *c)
{
    if (s && c->name && strcmp(c->name, TF_LOST_CAT) == 0)
        s->lost = true;
    return s;
}

/* Each category's style name: its key with only the characters TikZ keys
 * allow, made unique: two categories whose keys clean alike ("v8.execute",
 * "v8,execute") or are cut alike get "-2", "-3", ... after the second. */
bool tz_cat_keys(struct tikz *t)
{
    const struct tf_figure *f = t->f;
    t->cat_key = calloc(f->n_cats ? f->n_cats : 1, sizeof *t->cat_key);
    if (!t->cat_key)
        return false;
    for (size_t i = 0; i < f->n_cats; i++) {
        char *k = t->cat_key[i];
        ident(k, KEY_LEN, f->cats[i].key);
        for (unsigned n = 2;; n++) {
            bool taken = false;
            for (size_t j = 0; j < i && !taken; j++)
                taken = strcmp(t->cat_key[j], k) == 0;
            if (!taken)
                break;
            char base[KEY_LEN - 12];
            ident(base, sizeof base, f->cats[i].key);
            snprintf(k, KEY_LEN, "%s-%u", base, n % 100000000u);
        }
    }
    return true;
}

/* The style of a bar: its category's, or a colour-only style when the
 * bar's colour differs from its category's. */
struct style *tz_bar_style(struct tikz *t, const struct tf_bar *r)
{
    char key[KEY_LEN];
    const struct tf_category *c = &t->f->cats[r->cat];
    snprintf(key, sizeof key, "%s", t->cat_key[r->cat]);
    struct style *s = mark_lost(add_style(t, key, c->color, "fill"), c);
    if (s && s->rgb != r->color) {
        bool lost = s->lost;
        snprintf(key, sizeof key, "color/%06X%s", (unsigned)(r->color & 0xFFFFFFu),
                 lost ? "/lost" : "");
        s = add_style(t, key, r->color, "fill");
        if (s && lost)
            s->lost = true;
    }
    return s;
}

void tz_share_key_entry(struct tikz *t)
{
    /* As the layout's key: a row high, outlined, two classes stacked from
     * the bottom at 40 % and 30 % of it (the swatch is 0.7em high). */
    tf_buf_puts(t->b, "% The key to share bars: a bar's height is its classes' busy share.\n"
                      "\\tracefigdefaultstyle{share key}{fill=white, path picture={"
                      "\\fill[black!53] (path picture bounding box.south west) rectangle "
                      "([yshift=0.28em]path picture bounding box.south east); "
                      "\\fill[black!27] ([yshift=0.28em]path picture bounding box.south west) "
                      "rectangle ([yshift=0.49em]path picture bounding box.south east);}}%\n"
                      "\\tracefiglegendentry{share key}{");
    tz_text(t->b, TF_SHARE_KEY_TEXT);
    tf_buf_puts(t->b, "}");
}

/* The style of a legend entry: its category's. */
struct style *tz_legend_style(struct tikz *t, size_t i)
{
    char key[KEY_LEN];
    const struct tf_category *c = &t->f->cats[t->f->legend[i].cat];
    snprintf(key, sizeof key, "%s", t->cat_key[t->f->legend[i].cat]);
    return mark_lost(add_style(t, key, c->color, "fill"), c);
}

struct style *tz_slice_style(struct tikz *t, const struct tf_slice *s)
{
    char raw[KEY_LEN], key[KEY_LEN];
    snprintf(raw, sizeof raw, "breakdown/%s", s->key ? s->key : "slice");
    ident(key, sizeof key, raw);
    struct style *st = add_style(t, key, s->color, "fill");
    if (st && st->rgb != s->color) {
        snprintf(key, sizeof key, "color/%06X", (unsigned)(s->color & 0xFFFFFFu));
        st = add_style(t, key, s->color, "fill");
    }
    return st;
}

/* The colour of a counter's line and area: tracefig-counter-RRGGBB. */
struct style *tz_counter_style(struct tikz *t, uint32_t rgb)
{
    char key[KEY_LEN];
    snprintf(key, sizeof key, "counter/%06X", (unsigned)(rgb & 0xFFFFFFu));
    return add_style(t, key, rgb, "draw");
}

/* The label colour as the suffix of tracefig/label/...: white, black, or a
 * style of its own. */
const char *tz_label_style(struct tikz *t, uint32_t rgb)
{
    if ((rgb & 0xFFFFFFu) == 0xFFFFFFu)
        return "white";
    if ((rgb & 0xFFFFFFu) == 0)
        return "black";
    char key[KEY_LEN];
    snprintf(key, sizeof key, "label/%06X", (unsigned)(rgb & 0xFFFFFFu));
    struct style *s = add_style(t, key, rgb, "text");
    return s ? s->key + 6 : "black";
}

static struct style *share_style(struct tikz *t, const struct tf_bar *r, size_t cat);

/* Every style the figure uses, in a stable order (counters, bars, legend,
 * slices). */
void tz_collect_styles(struct tikz *t)
{
    const struct tf_figure *f = t->f;
    for (size_t i = 0; i < f->n_lanes; i++)
        if (f->lanes[i].kind == TF_LANE_COUNTER)
            tz_counter_style(t, f->lanes[i].counter.color);
    for (size_t i = 0; i < f->n_bars; i++) {
        const struct tf_bar *r = &f->bars[i];
        tz_bar_style(t, r);
        if (r->label)
            tz_label_style(t, r->label_color);
        /* a busy share is drawn in its class's style (tz_emit_shares) */
        if (r->shape == TF_SHAPE_DENSE && f->flame) {
            if (!r->n_shares)
                share_style(t, r, r->cat);
            for (size_t k = 0; k < r->n_shares; k++)
                share_style(t, r, r->shares[k].cat);
        }
    }
    if (f->has_panel) {
        for (size_t i = 0; i < f->panel.n_slices; i++) {
            tz_slice_style(t, &f->panel.slices[i]);
            if (f->panel.slices[i].text)
                tz_label_style(t, f->panel.slices[i].text_color);
        }
    } else {
        for (size_t i = 0; i < f->n_legend; i++)
            tz_legend_style(t, i);
    }
}

/* Whether a style hatches lost events (its template is written then). */
bool tz_any_lost(const struct tikz *t)
{
    for (size_t i = 0; i < t->n_styles; i++)
        if (t->styles[i].lost)
            return true;
    return false;
}

void tz_emit_styles(struct tikz *t)
{
    struct tf_buf *b = t->b;
    tf_buf_puts(b, "% Colours of this figure (local to it) and the styles that use them.\n");
    for (size_t i = 0; i < t->n_styles; i++) {
        const struct style *s = &t->styles[i];
        tf_buf_printf(b, "\\definecolor{%s}{HTML}{%06X}%%\n", s->color,
                      (unsigned)(s->rgb & 0xFFFFFFu));
        tf_buf_printf(b, "\\tracefigdefaultstyle{%s}{%s=%s", s->key, s->prop, s->color);
        /* A flame chart's bar: its edge in a darker shade of its fill, as
         * the scene draws it (render/style.h). */
        if (t->f->flame && strcmp(s->prop, "fill") == 0)
            tf_buf_printf(b, ", draw=%s!%u!black", s->color, tf_style.flame_edge_pct);
        /* Lost events: hatched, never a plain bar that reads as work or
         * idle (templates/tikz-fit.tex). */
        if (s->lost)
            tf_buf_puts(b, ", path picture={\\tracefighatch}");
        tf_buf_puts(b, "}%\n");
    }
}

/* --- the figure ---------------------------------------------------------------- */

/* Whether the figure shows the statistics' summary line. */
bool tz_annotated(const struct tf_figure *f)
{
    return f->annotate && f->stats.summary && f->stats.summary[0];
}


void tz_emit_header(struct tikz *t, const struct tf_render_opts *o)
{
    struct tf_buf *b = t->b;
    tf_buf_puts(b, "% A tracefig figure for \\input{...} in a LaTeX document.  It needs only\n"
                   "% \\usepackage{tikz} in the preamble.\n"
                   "% Made with: ");
    tz_comment(b, o->cmdline ? o->cmdline : "tracefig");
    tf_buf_puts(b, "\n"
                   "% Width: \\tracefigwidth when defined, e.g. \\newcommand\\tracefigwidth{8cm},\n"
                   "% else \\linewidth.  Text is in the document's fonts (\\footnotesize,\n"
                   "% \\scriptsize); restyle with \\tikzset{tracefig/...} before \\input.\n");
}

void tz_coord(struct tikz *t, double x, double y)
{
    tf_buf_putc(t->b, '(');
    tz_num(t, x);
    tf_buf_putc(t->b, ',');
    tz_num(t, y);
    tf_buf_putc(t->b, ')');
}

/* --- classes and runs ------------------------------------------------------- */

size_t tz_class(struct tikz *t, const char *opts)
{
    for (size_t i = 0; i < t->n_classes; i++)
        if (strcmp(t->classes[i], opts) == 0)
            return i;
    bool oom = false;
    char *c = tf_strdup_oom(opts, &oom);
    if (!c || !TF_GROW(t->classes, t->n_classes, t->cap_classes)) {
        free(c);
        t->oom = true;
        return TZ_NO_RUN;
    }
    t->classes[t->n_classes] = c;
    return t->n_classes++;
}

void tz_run_end(struct tikz *t)
{
    if (t->run != TZ_NO_RUN)
        tf_buf_puts(t->b, "}%\n");
    t->run = TZ_NO_RUN;
}

void tz_run(struct tikz *t, size_t cls)
{
    if (cls == t->run)
        return;
    tz_run_end(t);
    if (cls == TZ_NO_RUN)
        return;
    tf_buf_printf(t->b, "\\tracefigrun{%zu}{", cls);
    t->run = cls;
    t->run_n = 0;
}

void tz_run_item(struct tikz *t)
{
    if (t->run_n && t->run_n % 6 == 0)
        tf_buf_puts(t->b, "%\n");
    t->run_n++;
}

void tz_emit_classes(struct tikz *t)
{
    tf_buf_puts(t->b, "% Classes of ink {id}{the options of a TikZ path}: TeX reads each once.\n");
    for (size_t i = 0; i < t->n_classes; i++)
        tf_buf_printf(t->b, "\\tracefigclass{%zu}{%s}%%\n", i, t->classes[i]);
}

void tz_path(struct tikz *t, const char *cmd, double x, double y)
{
    tf_buf_printf(t->b, "\\tracefig%s{", cmd);
    tz_num(t, x);
    tf_buf_puts(t->b, "}{");
    tz_num(t, y);
    tf_buf_putc(t->b, '}');
}

void tz_rect(struct tikz *t, bool own, double x0, double y0, double x1, double y1)
{
    tf_buf_puts(t->b, own ? "\\tracefigB{" : "\\tracefigR{");
    tz_num(t, x0);
    tf_buf_puts(t->b, "}{");
    tz_num(t, y0);
    tf_buf_puts(t->b, "}{");
    tz_num(t, x1);
    tf_buf_puts(t->b, "}{");
    tz_num(t, y1);
    tf_buf_putc(t->b, '}');
}

/* The class of options printf'd from a literal format (TZ_NO_RUN when out
 * of memory). */
#define CLASS_OF(t, ...)                                                                   \
    (snprintf((t)->opts, sizeof (t)->opts, __VA_ARGS__), tz_class((t), (t)->opts))

/* --- bars -------------------------------------------------------------------- */

/* The style of a busy share of category cat (the bar's own colour when the
 * category is not the figure's). */
static struct style *share_style(struct tikz *t, const struct tf_bar *r, size_t cat)
{
    const struct tf_figure *f = t->f;
    if (cat >= f->n_cats)
        return tz_bar_style(t, r);
    return add_style(t, t->cat_key[cat], f->cats[cat].color, "fill");
}

/* A dense bar's busy shares: a box per class from the row's bottom
 * y_bottom, `up` (+1 or -1) the direction of its top, each as high as its
 * share of the row (at least TZ_SHARE_FLOOR rows in all).  The boxes are
 * kept per class and written by tz_flush_shares as one path each, in the
 * class's own style (so a restyled class restyles its shares too): a path
 * is what TeX pays for, and the boxes of one lane never overlap. */
#define TZ_SHARE_FLOOR 0.03
static struct tz_fill *share_fill(struct tikz *t, size_t cls)
{
    for (size_t i = 0; i < t->n_fills; i++)
        if (t->fills[i].cls == cls)
            return &t->fills[i];
    if (!TF_GROW(t->fills, t->n_fills, t->cap_fills)) {
        t->oom = true;
        return NULL;
    }
    struct tz_fill *fl = &t->fills[t->n_fills++];
    fl->cls = cls;
    fl->n = 0;
    tf_buf_init(&fl->path);
    return fl;
}

static void tz_emit_shares(struct tikz *t, const struct tf_bar *r, double y_bottom, double up)
{
    const struct tf_figure *f = t->f;
    struct tf_buf *out = t->b;
    double x0, x1;
    tf_bar_drawn_extent(f, r, &x0, &x1);
    struct tf_share one = {r->cat, r->x1 > r->x0 ? r->busy / (r->x1 - r->x0) : 0};
    const struct tf_share *sh = r->n_shares ? r->shares : &one;
    size_t n = r->n_shares ? r->n_shares : 1;
    double total = 0;
    for (size_t i = 0; i < n; i++)
        total += sh[i].share;
    bool floor = total < TZ_SHARE_FLOOR;
    double y = y_bottom;
    for (size_t i = 0; i < n; i++) {
        double h = floor ? (i == 0 ? TZ_SHARE_FLOOR : 0) : sh[i].share;
        if (!(h > 0))
            continue;
        struct style *s = share_style(t, r, sh[i].cat);
        bool fd = sh[i].cat < f->n_cats && f->cats[sh[i].cat].faded;
        size_t cls = s ? CLASS_OF(t, "fill,tracefig/%s,tracefig/share%s", s->key,
                                  fd ? ",tracefig/faded" : "")
                       : TZ_NO_RUN;
        struct tz_fill *fl = cls == TZ_NO_RUN ? NULL : share_fill(t, cls);
        if (!fl)
            return;
        t->b = &fl->path; /* tz_num writes to t->b */
        if (fl->n && fl->n % 6 == 0)
            tf_buf_puts(t->b, "%\n");
        tz_rect(t, false, tz_xu(t, x0), y, tz_xu(t, x1), y + up * h);
        t->b = out;
        fl->n++;
        y += up * h;
    }
}

void tz_flush_shares(struct tikz *t)
{
    tz_run_end(t);
    for (size_t i = 0; i < t->n_fills; i++) {
        struct tz_fill *fl = &t->fills[i];
        tf_buf_printf(t->b, "\\tracefigrun{%zu}{", fl->cls);
        tf_buf_putn(t->b, fl->path.data, fl->path.len);
        tf_buf_puts(t->b, "\\tracefigU}%\n");
        t->oom = t->oom || fl->path.oom;
        tf_buf_fini(&fl->path);
    }
    t->n_fills = 0;
}

void tz_fini(struct tikz *t)
{
    for (size_t i = 0; i < t->n_fills; i++)
        tf_buf_fini(&t->fills[i].path);
    free(t->fills);
    for (size_t i = 0; i < t->n_classes; i++)
        free(t->classes[i]);
    free(t->classes);
    free(t->styles);
    free(t->cat_key);
}

/* One bar, as an item of a run of its class: the bars of a lane keep their
 * drawing order, and consecutive bars of one class share one path. */
void tz_emit_bar(struct tikz *t, const struct tf_bar *r, double y0)
{
    const struct tf_figure *f = t->f;
    struct style *s = tz_bar_style(t, r);
    const char *key = s ? s->key : "bar";
    const char *color = s ? s->color : "black";
    if (r->shape == TF_SHAPE_INSTANT) {
        tz_run(t, CLASS_OF(t, "draw,tracefig/instant,draw=%s", color));
        tz_run_item(t);
        tz_path(t, "M", tz_xu(t, r->x0), y0 + 0.1);
        tz_path(t, "L", tz_xu(t, r->x0), y0 + 0.9);
        tf_buf_puts(t->b, "\\tracefigU");
        return;
    }
    if (r->shape == TF_SHAPE_DENSE && f->flame) {
        /* busy shares up from the row's bottom (rows count down) */
        tz_run_end(t);
        tz_emit_shares(t, r, y0 + 1.0, -1.0);
        return;
    }
    size_t cls;
    /* a bar a --highlight fades: tracefig/faded after its own styles */
    const char *faded = r->cat < f->n_cats && f->cats[r->cat].faded ? ",tracefig/faded" : "";
    if (r->shape == TF_SHAPE_DENSE)
        cls = CLASS_OF(t, "draw,tracefig/bar,tracefig/flame,tracefig/%s,tracefig/dense,draw=%s%s",
                       key, color, faded);
    else if (f->flame)
        cls = CLASS_OF(t, "draw,tracefig/bar,tracefig/flame,tracefig/%s%s", key, faded);
    else
        cls = CLASS_OF(t, "draw,tracefig/bar,tracefig/%s%s", key, faded);
    tz_run(t, cls);
    tz_run_item(t);
    if (!r->clip_left && !r->clip_right) {
        double x0, x1;
        tf_bar_drawn_extent(f, r, &x0, &x1);
        tz_rect(t, true, tz_xu(t, x0), y0, tz_xu(t, x1), y0 + 1.0);
        return;
    }
    double xs[TF_BAR_OUTLINE_MAX], ys[TF_BAR_OUTLINE_MAX];
    size_t n = tf_bar_outline(f, r, y0 + 1.0, y0, xs, ys);
    if (n > 1 && xs[n - 1] == xs[0] && ys[n - 1] == ys[0])
        n--; /* the path's close ends it */
    for (size_t i = 0; i < n; i++)
        tz_path(t, i ? "L" : "M", tz_xu(t, xs[i]), ys[i]);
    tf_buf_puts(t->b, "\\tracefigZ\\tracefigU");
}

void tz_emit_label(struct tikz *t, const char *style, double x0, double x1, double y,
                       const char *text)
{
    struct tf_buf *b = t->b;
    tf_buf_printf(b, "\\tracefiglabel{%s}{", style);
    tz_num(t, (x0 + x1) / 2.0);
    tf_buf_puts(b, "}{");
    tz_num(t, y);
    tf_buf_puts(b, "}{");
    tz_num(t, x1 - x0);
    tf_buf_puts(b, "}{");
    tz_text(b, text);
    tf_buf_puts(b, "}\n");
}

double tz_slice_right(const struct tf_slice *s, double left)
{
    double w = isfinite(s->width_pct) && s->width_pct > 0 ? s->width_pct : 0.0;
    return fmin(left + w, 100.0);
}

void tz_emit_panel_legend(struct tikz *t, const char *comment)
{
    const struct tf_panel *bd = &t->f->panel;
    struct tf_buf *b = t->b;
    tf_buf_puts(b, comment);
    tf_buf_puts(b, "\\tracefigbreakdowntrue\n\\def\\tracefigpaneltitle{");
    tz_text(b, bd->axis_title ? bd->axis_title : "");
    tf_buf_puts(b, "}%\n\\def\\tracefiglegtitle{");
    tz_text(b, bd->title ? bd->title : "");
    tf_buf_puts(b, "}%\n");
    for (size_t i = 0; i < bd->n_slices; i++) {
        struct style *s = tz_slice_style(t, &bd->slices[i]);
        tf_buf_printf(b, "\\tracefiglegendentry{%s}{", s ? s->key : "bar");
        /* the template's three candidates, alike for a slice */
        for (int k = 0; k < 3; k++) {
            tz_text(b, bd->slices[i].label ? bd->slices[i].label : "");
            tf_buf_puts(b, k < 2 ? "}{" : "}%\n");
        }
    }
}

/* "\tracefigdefaultstyle{name}{" */
static void default_style(struct tikz *t, const char *name)
{
    tf_buf_printf(t->b, "\\tracefigdefaultstyle{%s}{", name);
}

/* A length in pt, as TeX reads it. */
static void pt(struct tikz *t, double v)
{
    char n[TF_NUM_MAX];
    tf_buf_printf(t->b, "%spt", tf_fmt_num(n, v, 3));
}

static void tz_emit_style_defaults(struct tikz *t)
{
    const struct tf_style *S = &tf_style;
    struct tf_buf *b = t->b;
    char n[TF_NUM_MAX];
    default_style(t, "bar");
    tf_buf_puts(b, "draw=black, line width=");
    pt(t, S->tikz_bar_edge_pt);
    tf_buf_puts(b, ", line join=bevel}%\n");
    default_style(t, "flame");
    tf_buf_puts(b, "line width=");
    pt(t, S->flame_edge_pt);
    tf_buf_printf(b, ", draw=black!%u}%%\n", S->tikz_flame_black_pct);
    const char *o = tf_fmt_num(n, S->dense_opacity, 3);
    default_style(t, "dense");
    tf_buf_printf(b, "fill opacity=%s, draw opacity=%s}%%\n", o, o);
    /* a busy share: one class's share of a bin, as high as its share */
    default_style(t, "share");
    tf_buf_puts(b, "draw=none}%\n");
    default_style(t, "instant");
    tf_buf_puts(b, "line width=");
    pt(t, S->tikz_instant_pt);
    tf_buf_puts(b, "}%\n");
}

void tz_put_template(struct tikz *t, const struct tf_template *tpl)
{
    static const char marker[] = "%%TRACEFIG-STYLE%%\n";
    const char *at = strstr(tpl->data, marker);
    if (!at) {
        tf_buf_putn(t->b, tpl->data, tpl->len);
        return;
    }
    tf_buf_putn(t->b, tpl->data, (size_t)(at - tpl->data));
    tz_emit_style_defaults(t);
    tf_buf_puts(t->b, at + sizeof marker - 1);
}
