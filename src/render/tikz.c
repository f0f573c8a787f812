/* tikz.c - the TikZ back-end: the figure model as a TikZ picture that TeX
 * lays out, for `\input{fig.tex}` in a paper (or, with --standalone, a whole
 * document).
 *
 * IMPLEMENTATION NOTES
 *
 * What C decides and what TeX decides.  This file writes data: lanes, bars
 * (x in ms from the window start, y in lanes), in-bar labels, ticks, legend
 * entries and breakdown slices, each as one line.  Everything that depends on
 * text size is left to TeX, through the macros of templates/tikz-style.tex:
 * the figure is \tracefigwidth wide (else \linewidth); TeX measures the lane
 * labels, tick labels and legends, places the breakdown panel beside the plot
 * or below it, sets the x unit to plot width / span, and drops any in-bar
 * label wider than its bar and any tick label that would collide.
 *
 * Numbers TeX can hold.  TeX dimensions stop at 16383.99998pt and TikZ
 * parses coordinates as dimensions, so the x coordinates are kept below
 * 10000: when the span is outside 10 .. 10000 ms, x is written in units of
 * 10^k ms with k chosen so that the span is 1000 .. 10000 units, and the file
 * says so in a comment.  The x unit itself is computed by TeX with \dimexpr
 * (plot width * 65536 / span in sp), which never overflows.
 *
 * Names.  Everything the file defines is local to one group, so figures never
 * clash; styles and fonts are only defined when the document has not already
 * defined them, so a document can restyle every figure before \input.  Bar
 * styles are named after the model's categories: tracefig/<category key>
 * (the pipelined mode's are tracefig/io, tracefig/gpu0, tracefig/main/<event>,
 * ...); a bar whose colour differs from its category's gets
 * tracefig/color/RRGGBB; side-panel slices are tracefig/breakdown/<key>;
 * each gets a colour tracefig-<name>.
 *
 * The summary line (--annotate) is a node below everything else, in a font
 * relative to the document's (font "annotation", style tracefig/annotation).
 * TeX sets it once the layout is known, at most as wide as the figure
 * (wrapped, or scaled down if one word is wider: the template's
 * \tracefigfit), and centres it under the plot as far as the figure's width
 * allows, as the layout does.  Its macros are written only for annotated
 * figures, so other figures keep their bytes.
 *
 * Text.  Free text goes through tz_text(): tf_buf_tex_escape for ASCII, and
 * a table for the non-ASCII characters that need a command under pdfTeX
 * ("->" is U+2192, written $\rightarrow$), so the file compiles under
 * pdflatex, lualatex and xelatex alike.  This file knows nothing about JSON
 * traces, modes or their rules: only the figure model.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/num.h"
#include "base/utf8.h"
#include "render/render.h"
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
void tz_comment(struct tf_buf *b, const char *s)
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
    struct style *s = add_style(t, key, c->color, "fill");
    if (s && s->rgb != r->color) {
        snprintf(key, sizeof key, "color/%06X", (unsigned)(r->color & 0xFFFFFFu));
        s = add_style(t, key, r->color, "fill");
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
    return add_style(t, key, c->color, "fill");
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

/* Every style the figure uses, in a stable order (counters, bars, legend,
 * slices). */
void tz_collect_styles(struct tikz *t)
{
    const struct tf_figure *f = t->f;
    for (size_t i = 0; i < f->n_lanes; i++)
        if (f->lanes[i].kind == TF_LANE_COUNTER)
            tz_counter_style(t, f->lanes[i].counter.color);
    for (size_t i = 0; i < f->n_bars; i++) {
        tz_bar_style(t, &f->bars[i]);
        if (f->bars[i].label)
            tz_label_style(t, f->bars[i].label_color);
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

void tz_emit_styles(struct tikz *t)
{
    struct tf_buf *b = t->b;
    tf_buf_puts(b, "% Colours of this figure (local to it) and the styles that use them.\n");
    for (size_t i = 0; i < t->n_styles; i++) {
        const struct style *s = &t->styles[i];
        tf_buf_printf(b, "\\definecolor{%s}{HTML}{%06X}%%\n", s->color,
                      (unsigned)(s->rgb & 0xFFFFFFu));
        tf_buf_printf(b, "\\tracefigdefaultstyle{%s}{%s=%s}%%\n", s->key, s->prop, s->color);
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

static void emit_data(struct tikz *t)
{
    const struct tf_figure *f = t->f;
    struct tf_buf *b = t->b;
    tf_buf_puts(b, "% Lanes, top to bottom: the y of each lane's centre, and its label.\n"
                   "\\def\\tracefiglanes{");
    tz_num(t, t->rows);
    tf_buf_puts(b, "}%\n");
    double above = 0;
    for (size_t i = 0; i < f->n_lanes; i++) {
        double rows = f->lanes[i].rows ? f->lanes[i].rows : 1;
        tf_buf_puts(b, "\\tracefiglane{");
        tz_num(t, t->rows - above - rows / 2);
        tf_buf_puts(b, "}{");
        tz_text(b, f->lanes[i].label);
        tf_buf_puts(b, "}%\n");
        above += rows;
    }
    const char *clock = f->clock_unit ? f->clock_unit : "ms";
    const char *unit = f->axis.unit ? f->axis.unit : clock;
    char start[TF_NUM_MAX], span[TF_NUM_MAX];
    tf_fmt_num(start, f->window_start, DEC);
    tf_fmt_num(span, f->x_span, DEC);
    tf_buf_printf(b, "%% Time axis: x is the time from the window start (%s %s on the trace\n"
                     "%% clock); the window is %s %s wide.\n",
                  start, clock, span, unit);
    if (t->exp10 != 0)
        tf_buf_printf(b, "%% x unit: 1e%d %s, so that every coordinate stays far below TeX's\n"
                         "%% largest dimension (16384pt).  Tick labels are in %s.\n",
                      t->exp10, unit, unit);
    else
        tf_buf_printf(b, "%% x unit: 1 %s.\n", unit);
    tf_buf_puts(b, "\\def\\tracefigspan{");
    tz_num(t, t->span);
    tf_buf_puts(b, "}%\n");
    for (size_t i = 0; i < f->axis.n_ticks; i++) {
        tf_buf_puts(b, "\\tracefigxtick{");
        tz_num(t, tz_xu(t, f->axis.ticks[i]));
        tf_buf_puts(b, "}{");
        tf_buf_puts(b, f->axis.labels[i]);
        tf_buf_puts(b, "}%\n");
    }
    tf_buf_puts(b, "\\def\\tracefigxtitle{");
    tz_text(b, f->axis.title ? f->axis.title : "");
    tf_buf_puts(b, "}%\n");
    if (f->has_panel) {
        const struct tf_panel *bd = &f->panel;
        tf_buf_puts(b, "% Breakdown panel: its title, and its legend's title and entries.\n"
                       "\\tracefigbreakdowntrue\n"
                       "\\def\\tracefigpaneltitle{");
        tz_text(b, bd->axis_title ? bd->axis_title : "");
        tf_buf_puts(b, "}%\n\\def\\tracefiglegtitle{");
        tz_text(b, bd->title ? bd->title : "");
        tf_buf_puts(b, "}%\n");
        for (size_t i = 0; i < bd->n_slices; i++) {
            struct style *s = tz_slice_style(t, &bd->slices[i]);
            tf_buf_printf(b, "\\tracefiglegendentry{%s}{", s ? s->key : "bar");
            tz_text(b, bd->slices[i].label ? bd->slices[i].label : "");
            tf_buf_puts(b, "}%\n");
        }
    } else if (f->n_legend) {
        tf_buf_puts(b, "% Legend entries: the style of the swatch, and the label.\n");
        for (size_t i = 0; i < f->n_legend; i++) {
            struct style *s = tz_legend_style(t, i);
            tf_buf_printf(b, "\\tracefiglegendentry{%s}{", s ? s->key : "bar");
            tz_text(b, f->legend[i].label ? f->legend[i].label : "");
            tf_buf_puts(b, "}%\n");
        }
        if (t->share_key) {
            tz_share_key_entry(t);
            tf_buf_puts(b, "%\n");
        }
    }
    tf_buf_puts(b, "\\tracefiglayout\n");
    if (tz_annotated(f)) {
        tf_buf_puts(b, "% The summary line, at most as wide as the figure.\n"
                       "\\tracefigfit\\tracefigannotbox{annotation}{\\tracefigW}{");
        tz_text(b, f->stats.summary);
        tf_buf_puts(b, "}%\n");
    }
    if (f->has_legend_y && !f->has_panel && f->n_legend) {
        /* As the layout: the legend row is legend_y times the plot's
         * height (clamped to 0.10 .. 2, at least the box and 4 pt), the
         * legend centred in it, below the axis title. */
        double r = f->legend_y < 0.10 ? 0.10 : f->legend_y > 2.0 ? 2.0 : f->legend_y;
        tf_buf_puts(b, "% --legend-y: the legend row's height relative to the plot's.\n"
                       "\\tracefigdim=\\dimexpr\\tracefigtitletop+\\ht\\tracefigtitlebox"
                       "+\\dp\\tracefigtitlebox\\relax\n"
                       "\\tracefigdimb=\\dimexpr\\ht\\tracefiglegendbox+\\dp\\tracefiglegendbox"
                       "+2\\tracefiglegsep\\relax\n"
                       "\\tracefigdimc=\\tracefiglanes\\tracefiglaneh \\tracefigdimc=");
        tz_num(t, r);
        tf_buf_puts(b, "\\tracefigdimc\n"
                       "\\ifdim\\tracefigdimc<\\dimexpr\\tracefigdimb+4pt\\relax"
                       "\\tracefigdimc=\\dimexpr\\tracefigdimb+4pt\\relax\\fi\n"
                       "\\tracefiglegy=\\dimexpr-\\tracefigdim-(\\tracefigdimc-\\tracefigdimb)/2"
                       "\\relax\n");
    }
    if (f->flame)
        tf_buf_puts(b, "\\tracefiglaneh=0.65\\tracefiglaneh\n");
}

/* The bottom of a bar's row, y up, in rows. */
static double bar_y0(const struct tikz *t, const struct tf_bar *r)
{
    const struct tf_lane *ln = &t->f->lanes[r->lane];
    unsigned row = r->row < (ln->rows ? ln->rows : 1) ? r->row : 0;
    return t->rows - t->above[r->lane] - (double)row - 1.0;
}

void tz_emit_shares(struct tikz *t, const struct tf_bar *r, double y_bottom, double up)
{
    struct tf_buf *b = t->b;
    const struct tf_figure *f = t->f;
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
        uint32_t rgb = sh[i].cat < f->n_cats ? f->cats[sh[i].cat].color : r->color;
        tf_buf_printf(b, "\\fill[tracefig/share,fill={rgb,255:red,%u;green,%u;blue,%u}] (",
                      (unsigned)(rgb >> 16 & 0xFF), (unsigned)(rgb >> 8 & 0xFF),
                      (unsigned)(rgb & 0xFF));
        tz_num(t, tz_xu(t, x0));
        tf_buf_putc(b, ',');
        tz_num(t, y);
        tf_buf_puts(b, ") rectangle (");
        tz_num(t, tz_xu(t, x1));
        tf_buf_putc(b, ',');
        tz_num(t, y + up * h);
        tf_buf_puts(b, ");\n");
        y += up * h;
    }
}

static void emit_bar(struct tikz *t, const struct tf_bar *r)
{
    struct tf_buf *b = t->b;
    const struct tf_figure *f = t->f;
    struct style *s = tz_bar_style(t, r);
    double y0 = bar_y0(t, r);
    if (r->shape == TF_SHAPE_INSTANT) {
        tf_buf_printf(b, "\\draw[tracefig/instant,draw=%s] (", s ? s->color : "black");
        tz_num(t, tz_xu(t, r->x0));
        tf_buf_putc(b, ',');
        tz_num(t, y0 + 0.1);
        tf_buf_puts(b, ")--(");
        tz_num(t, tz_xu(t, r->x0));
        tf_buf_putc(b, ',');
        tz_num(t, y0 + 0.9);
        tf_buf_puts(b, ");\n");
        return;
    }
    if (r->shape == TF_SHAPE_DENSE && f->flame) {
        tz_emit_shares(t, r, y0, 1.0);
        return;
    }
    if (r->shape == TF_SHAPE_DENSE)
        tf_buf_printf(b, "\\draw[tracefig/bar,tracefig/flame,tracefig/%s,tracefig/dense,draw=%s] ",
                      s ? s->key : "bar", s ? s->color : "black");
    else if (f->flame)
        tf_buf_printf(b, "\\draw[tracefig/bar,tracefig/flame,tracefig/%s] ", s ? s->key : "bar");
    else
        tf_buf_printf(b, "\\draw[tracefig/bar,tracefig/%s] ", s ? s->key : "bar");
    if (!r->clip_left && !r->clip_right) {
        double x0, x1;
        tf_bar_drawn_extent(f, r, &x0, &x1);
        tf_buf_putc(b, '(');
        tz_num(t, tz_xu(t, x0));
        tf_buf_putc(b, ',');
        tz_num(t, y0);
        tf_buf_puts(b, ") rectangle (");
        tz_num(t, tz_xu(t, x1));
        tf_buf_putc(b, ',');
        tz_num(t, y0 + 1.0);
        tf_buf_puts(b, ");\n");
        return;
    }
    double xs[TF_BAR_OUTLINE_MAX], ys[TF_BAR_OUTLINE_MAX];
    size_t n = tf_bar_outline(f, r, y0, y0 + 1.0, xs, ys);
    if (n > 1 && xs[n - 1] == xs[0] && ys[n - 1] == ys[0])
        n--; /* "cycle" closes it */
    for (size_t i = 0; i < n; i++) {
        tf_buf_putc(b, '(');
        tz_num(t, tz_xu(t, xs[i]));
        tf_buf_putc(b, ',');
        tz_num(t, ys[i]);
        tf_buf_puts(b, ")--");
    }
    tf_buf_puts(b, "cycle;\n");
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

static void emit_breakdown(struct tikz *t)
{
    const struct tf_panel *bd = &t->f->panel;
    struct tf_buf *b = t->b;
    tf_buf_puts(b, "% The breakdown panel: x in % of the GPU runtime, the bar spans y = 0..1\n"
                   "% (slices at their drawn widths, tiny ones widened to stay visible).\n"
                   "\\begin{scope}[shift={(\\tracefigpanelx,\\tracefigpanely)},x=\\tracefigpctunit,"
                   "y=\\tracefigbarh]\n"
                   "\\tracefigpanelbackground\n");
    double left = 0.0;
    for (size_t i = 0; i < bd->n_slices; i++) {
        const struct tf_slice *s = &bd->slices[i];
        double w = isfinite(s->width_pct) && s->width_pct > 0 ? s->width_pct : 0.0;
        double right = fmin(left + w, 100.0);
        struct style *st = tz_slice_style(t, s);
        tf_buf_printf(b, "\\draw[tracefig/breakdown/bar,tracefig/%s] (", st ? st->key : "bar");
        tz_num(t, left);
        tf_buf_puts(b, ",0) rectangle (");
        tz_num(t, right);
        tf_buf_puts(b, ",1);\n");
        left = right;
    }
    left = 0.0;
    for (size_t i = 0; i < bd->n_slices; i++) {
        const struct tf_slice *s = &bd->slices[i];
        double w = isfinite(s->width_pct) && s->width_pct > 0 ? s->width_pct : 0.0;
        double right = fmin(left + w, 100.0);
        if (s->text)
            tz_emit_label(t, tz_label_style(t, s->text_color), left, right, 0.5, s->text);
        left = right;
    }
    tf_buf_puts(b, "\\tracefigpanelforeground\n"
                   "\\end{scope}\n");
}

static void emit_picture(struct tikz *t)
{
    const struct tf_figure *f = t->f;
    struct tf_buf *b = t->b;
    tf_buf_puts(b, "\\begin{tikzpicture}[x=\\tracefigxunit,y=\\tracefiglaneh,tracefig/figure]\n"
                   "% Grid lines at the ticks, and the axes.\n"
                   "\\tracefigbackground\n"
                   "% Bars in drawing order; a torn (zigzag) side marks a bar cut by the window.\n");
    if (f->flame) {
        tf_buf_puts(b, "% Lines between the lanes.\n");
        double above = 0;
        for (size_t i = 0; i + 1 < f->n_lanes; i++) {
            above += f->lanes[i].rows ? f->lanes[i].rows : 1;
            tf_buf_puts(b, "\\draw[tracefig/lane rule](0,");
            tz_num(t, t->rows - above);
            tf_buf_puts(b, ")--(\\tracefigspan,");
            tz_num(t, t->rows - above);
            tf_buf_puts(b, ");\n");
        }
    }
    for (size_t i = 0; i < f->n_bars; i++)
        emit_bar(t, &f->bars[i]);
    if (f->n_arrows)
        tf_buf_puts(b, "% Flow arrows.\n");
    for (size_t i = 0; i < f->n_arrows; i++) {
        const struct tf_arrow *a = &f->arrows[i];
        if (a->lane0 >= f->n_lanes || a->lane1 >= f->n_lanes)
            continue;
        tf_buf_puts(b, "\\draw[tracefig/arrow](");
        tz_num(t, tz_xu(t, a->x0));
        tf_buf_putc(b, ',');
        tz_num(t, t->rows - t->above[a->lane0] - (double)a->row0 - 0.5);
        tf_buf_puts(b, ")--(");
        tz_num(t, tz_xu(t, a->x1));
        tf_buf_putc(b, ',');
        tz_num(t, t->rows - t->above[a->lane1] - (double)a->row1 - 0.5);
        tf_buf_puts(b, ");\n");
    }
    bool any = false;
    for (size_t i = 0; i < f->n_bars; i++) {
        const struct tf_bar *r = &f->bars[i];
        if (!r->label || r->shape != TF_SHAPE_SLICE)
            continue;
        if (!any)
            tf_buf_puts(b, "% In-bar labels {colour}{x}{y}{bar width}{text}: TeX leaves out a "
                           "label wider than its bar.\n");
        any = true;
        double y = bar_y0(t, r) + 0.5;
        double x0, x1;
        tf_bar_drawn_extent(f, r, &x0, &x1);
        tz_emit_label(t, tz_label_style(t, r->label_color), tz_xu(t, x0), tz_xu(t, x1), y, r->label);
    }
    tf_buf_puts(b, "% Lane labels, tick labels, the axis title and the legend.\n"
                   "\\tracefigforeground\n");
    if (f->has_panel)
        emit_breakdown(t);
    if (tz_annotated(f)) {
        tf_buf_puts(b, "% The statistics' summary below the figure, centred under the plot as far\n"
                       "% as the figure's width allows.\n"
                       "\\tracefigdim=.5\\tracefigplotw\n"
                       "\\tracefigdimb=\\dimexpr.5\\wd\\tracefigannotbox-\\tracefigleft\\relax\n"
                       "\\ifdim\\tracefigdim<\\tracefigdimb \\tracefigdim=\\tracefigdimb\\fi\n"
                       "\\tracefigdimb=\\dimexpr\\tracefigright-.5\\wd\\tracefigannotbox\\relax\n"
                       "\\ifdim\\tracefigdim>\\tracefigdimb \\tracefigdim=\\tracefigdimb\\fi\n"
                       "\\node[tracefig/annotation,yshift=-\\tracefigsep] at "
                       "(\\the\\tracefigdim,0 |- current bounding box.south) "
                       "{\\usebox\\tracefigannotbox};\n");
    }
    tf_buf_puts(b, "\\end{tikzpicture}%\n");
}

/* The fragment, once the unit and the lane rows are known. */
static bool render_body(struct tikz *t, const struct tf_template *style,
                        const struct tf_render_opts *o, struct tf_diag *d)
{
    struct tf_buf *b = t->b;
    tz_collect_styles(t);
    if (t->oom)
        return tf_diag_oom(d, "tikz");
    tz_emit_header(t, o);
    tf_buf_puts(b, "\\begingroup\n");
    tf_buf_putn(b, style->data, style->len);
    tf_buf_puts(b, "% --- This figure -----------------------------------------------------------\n");
    if (t->f->flame)
        tf_buf_puts(b, "% A flame chart: thin edges, rows closer together, lines between the lanes.\n"
                       "\\tracefigdefaultstyle{flame}{line width=0.25pt, draw=black!60}%\n"
                       "\\tracefigdefaultstyle{dense}{fill opacity=0.55, draw opacity=0.55}%\n"
                       "\\tracefigdefaultstyle{share}{draw=none}%\n"
                       "\\tracefigdefaultstyle{instant}{line width=0.8pt}%\n"
                       "\\tracefigdefaultstyle{arrow}{draw=black!67, line width=0.4pt, ->, >=latex}%\n"
                       "\\tracefigdefaultstyle{lane rule}{draw=black!20, line width=0.4pt}%\n"
                       "\\tikzset{tracefig/lane grid/.append style={draw=none}}%\n");
    if (tz_annotated(t->f))
        tf_buf_puts(b, "% The summary line under the figure (--annotate).\n"
                       "\\ifdefined\\tracefigannotbox\\else\\newbox\\tracefigannotbox\\fi\n"
                       "\\tracefigdefaultfont{annotation}{\\scriptsize\\bfseries}%\n"
                       "\\tracefigdefaultstyle{annotation}{inner sep=0pt, outer sep=0pt, "
                       "anchor=north}%\n");
    tz_emit_styles(t);
    emit_data(t);
    emit_picture(t);
    tf_buf_puts(b, "\\endgroup%\n");
    if (t->oom)
        return tf_diag_oom(d, "tikz");
    return true;
}

static bool render_fragment(const struct tf_figure *f, const struct tf_render_opts *o,
                            struct tf_buf *b, struct tf_diag *d)
{
    const struct tf_template *style = tf_template_get("tikz-style.tex");
    if (!style)
        return tf_diag_error(d, TF_EIO, "tikz: the style template is missing from the build");
    for (size_t i = 0; i < f->n_bars; i++)
        if (f->bars[i].lane >= f->n_lanes || f->bars[i].cat >= f->n_cats)
            return tf_diag_error(d, TF_EBADINPUT, "tikz: bar %zu has no lane or category", i);
    /* The bars as drawn at the plan's plot width (plan_busy.c). */
    struct tf_plan own;
    struct tf_figure drawn;
    const struct tf_plan *plan = tf_render_plan(f, o, &own);
    if (!plan) {
        tf_plan_fini(&own);
        return tf_diag_oom(d, "tikz");
    }
    f = tf_plan_drawn(plan, f, &drawn);
    struct tikz t;
    memset(&t, 0, sizeof t);
    t.f = f;
    t.share_key = plan->legend.share_key;
    t.b = b;
    t.rows = tf_figure_rows(f);
    t.above = malloc((f->n_lanes ? f->n_lanes : 1) * sizeof *t.above);
    if (!t.above) {
        tf_plan_fini(&own);
        return tf_diag_oom(d, "tikz");
    }
    double above = 0;
    for (size_t i = 0; i < f->n_lanes; i++) {
        t.above[i] = above;
        above += f->lanes[i].rows ? f->lanes[i].rows : 1;
    }
    bool ok = tz_pick_unit(&t, f->x_span, d);
    if (ok && !tz_cat_keys(&t))
        ok = tf_diag_oom(d, "tikz");
    if (ok)
        ok = tf_plan_fits(f, &o->size) ? tz_render_fit(&t, o, plan, d) : render_body(&t, style, o, d);
    free(t.above);
    free(t.styles);
    free(t.cat_key);
    tf_plan_fini(&own);
    return ok;
}

static bool render_tikz(const struct tf_figure *f, const struct tf_render_opts *o,
                        struct tf_buf *b, struct tf_diag *d)
{
    if (!o->standalone)
        return render_fragment(f, o, b, d);
    const struct tf_template *doc = tf_template_get("tikz-standalone.tex");
    static const char marker[] = "%%TRACEFIG-FIGURE%%\n";
    const char *at = doc ? strstr(doc->data, marker) : NULL;
    if (!at)
        return tf_diag_error(d, TF_EIO, "tikz: the standalone template is missing from the build");
    tf_buf_putn(b, doc->data, (size_t)(at - doc->data));
    if (!render_fragment(f, o, b, d))
        return false;
    tf_buf_puts(b, at + sizeof marker - 1);
    return true;
}

const struct tf_backend tf_backend_tikz = {
    .name = "tikz",
    .exts = {".tex", NULL},
    .description = "TikZ picture for \\input (--standalone: a whole document)",
    .available = true,
    .render = render_tikz,
};
