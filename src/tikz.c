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
 * styles are tracefig/<lane> (tracefig/io, tracefig/gpu0, ...) and
 * tracefig/main/<event> on the main lane; breakdown slices are
 * tracefig/breakdown/<key>; each gets a colour tracefig-<name>.
 *
 * Text.  Free text goes through tex_text(): tf_buf_tex_escape for ASCII, and
 * a table for the non-ASCII characters that need a command under pdfTeX
 * ("->" is U+2192, written $\rightarrow$), so the file compiles under
 * pdflatex, lualatex and xelatex alike.  This file knows nothing about JSON
 * traces or the reference's rules: only the figure model.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render.h"
#include "templates.h"

#define DEC 3
#define MAX_SPAN_UNITS 10000.0
#define MIN_SPAN_UNITS 10.0

enum { MAX_STYLES = 96, KEY_LEN = 64 };

/* A named style: tracefig/<key> = {<prop>=tracefig-<colour name>}. */
struct style {
    char key[KEY_LEN];
    char color[KEY_LEN + 16];
    const char *prop; /* "fill" or "text" */
    uint32_t rgb;
};

struct tikz {
    const struct tf_figure *f;
    struct tf_buf *b;
    int exp10;       /* x unit = 10^exp10 ms */
    double span;     /* in x units */
    struct style styles[MAX_STYLES];
    size_t n_styles;
    bool full;       /* the style table overflowed */
};

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

/* Decodes one UTF-8 sequence at s; returns its length (0 when invalid). */
static size_t utf8_decode(const unsigned char *s, uint32_t *cp)
{
    size_t n;
    uint32_t c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF)
        n = 2, c &= 0x1F;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, c &= 0x0F;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, c &= 0x07;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3Fu);
    }
    if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10FFFF)) ||
        (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return n;
}

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
 * and LuaTeX, "?" under pdfTeX).  Invalid UTF-8 is dropped. */
static void tex_text(struct tf_buf *b, const char *s)
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
        size_t len = utf8_decode(p, &cp);
        if (len == 0) {
            p++;
            continue;
        }
        const char *tex = tex_for(cp);
        if (tex) {
            tf_buf_puts(b, tex);
        } else {
            tf_buf_puts(b, "\\tracefigutf{");
            tf_buf_putn(b, (const char *)p, len);
            tf_buf_putc(b, '}');
        }
        p += len;
    }
    tf_buf_fini(&run);
}

/* Text inside a TeX comment: printable ASCII only, so nothing can end the
 * comment line or upset an engine's input decoding. */
static void comment_text(struct tf_buf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        tf_buf_putc(b, *p >= 0x20 && *p < 0x7F ? (char)*p : '?');
}

/* --- numbers ----------------------------------------------------------------- */

static void num(struct tikz *t, double v)
{
    tf_buf_num(t->b, v, DEC);
}

/* ms from the window start -> x units, kept inside the window. */
static double xu(const struct tikz *t, double ms)
{
    double v = t->exp10 >= 0 ? ms / pow(10.0, t->exp10) : ms * pow(10.0, -t->exp10);
    if (!(v > 0.0))
        return 0.0;
    return v > t->span ? t->span : v;
}

/* The power of ten that brings the span into [MIN, MAX] units. */
static bool pick_unit(struct tikz *t, double span_ms, struct tf_diag *d)
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

/* The style called key, added with colour rgb when new (NULL when full). */
static struct style *add_style(struct tikz *t, const char *key, uint32_t rgb, const char *prop)
{
    struct style *s = find_style(t, key);
    if (s)
        return s;
    if (t->n_styles == MAX_STYLES) {
        t->full = true;
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

static void bar_key(const struct tikz *t, const struct tf_bar *r, char *out, size_t n)
{
    char raw[KEY_LEN];
    const char *lane = t->f->lanes[r->lane].id;
    if (strcmp(lane, "main") == 0)
        snprintf(raw, sizeof raw, "main/%s", r->name ? r->name : "event");
    else
        snprintf(raw, sizeof raw, "%s", lane);
    ident(out, n, raw);
}

/* The style of a bar, or of a colour-only style when the bar's colour differs
 * from the one its kind already has. */
static struct style *bar_style(struct tikz *t, const struct tf_bar *r)
{
    char key[KEY_LEN];
    bar_key(t, r, key, sizeof key);
    struct style *s = add_style(t, key, r->color, "fill");
    if (s && s->rgb != r->color) {
        snprintf(key, sizeof key, "color/%06X", (unsigned)(r->color & 0xFFFFFFu));
        s = add_style(t, key, r->color, "fill");
    }
    return s;
}

/* The style of a legend entry: the bar style of the same colour, else the
 * reference palette's name for it, else legend/<i>. */
static struct style *legend_style(struct tikz *t, size_t i)
{
    uint32_t rgb = t->f->legend[i].color;
    for (size_t j = 0; j < t->n_styles; j++)
        if (t->styles[j].rgb == rgb && strcmp(t->styles[j].prop, "fill") == 0 &&
            strncmp(t->styles[j].key, "breakdown/", 10) != 0)
            return &t->styles[j];
    static const struct {
        uint32_t rgb;
        const char *key;
    } palette[] = {
        {TF_COLOR_IO, "io"},
        {TF_COLOR_GPU0, "gpu0"},
        {TF_COLOR_GPU1, "gpu1"},
        {TF_COLOR_WAIT_FOR_IO, "main/wait_for_io"},
        {TF_COLOR_AWAIT_DISPATCH, "main/await_dispatch"},
        {TF_COLOR_TRSM_HOST, "main/trsm_host"},
    };
    for (size_t j = 0; j < sizeof palette / sizeof palette[0]; j++)
        if (palette[j].rgb == rgb && !find_style(t, palette[j].key))
            return add_style(t, palette[j].key, rgb, "fill");
    char key[KEY_LEN];
    snprintf(key, sizeof key, "legend/%zu", i + 1);
    return add_style(t, key, rgb, "fill");
}

static struct style *slice_style(struct tikz *t, const struct tf_slice *s)
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

/* The label colour as the suffix of tracefig/label/...: white, black, or a
 * style of its own. */
static const char *label_style(struct tikz *t, uint32_t rgb)
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

/* Every style the figure uses, in a stable order (bars, legend, slices). */
static void collect_styles(struct tikz *t)
{
    const struct tf_figure *f = t->f;
    for (size_t i = 0; i < f->n_bars; i++) {
        bar_style(t, &f->bars[i]);
        if (f->bars[i].has_label)
            label_style(t, f->bars[i].label_color);
    }
    if (f->has_breakdown) {
        for (size_t i = 0; i < f->breakdown.n_slices; i++) {
            slice_style(t, &f->breakdown.slices[i]);
            if (f->breakdown.slices[i].has_text)
                label_style(t, f->breakdown.slices[i].text_color);
        }
    } else {
        for (size_t i = 0; i < f->n_legend; i++)
            legend_style(t, i);
    }
}

static void emit_styles(struct tikz *t)
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

static void emit_header(struct tikz *t, const struct tf_render_opts *o)
{
    struct tf_buf *b = t->b;
    tf_buf_puts(b, "% A tracefig figure for \\input{...} in a LaTeX document.  It needs only\n"
                   "% \\usepackage{tikz} in the preamble.\n"
                   "% Made with: ");
    comment_text(b, o->cmdline ? o->cmdline : "tracefig");
    tf_buf_puts(b, "\n"
                   "% Width: \\tracefigwidth when defined, e.g. \\newcommand\\tracefigwidth{8cm},\n"
                   "% else \\linewidth.  Text is in the document's fonts (\\footnotesize,\n"
                   "% \\scriptsize); restyle with \\tikzset{tracefig/...} before \\input.\n");
}

static void emit_data(struct tikz *t)
{
    const struct tf_figure *f = t->f;
    struct tf_buf *b = t->b;
    tf_buf_printf(b, "%% Lanes, top to bottom: the y of each lane's centre, and its label.\n"
                     "\\def\\tracefiglanes{%zu}%%\n",
                  f->n_lanes);
    for (size_t i = 0; i < f->n_lanes; i++) {
        tf_buf_puts(b, "\\tracefiglane{");
        num(t, (double)(f->n_lanes - 1 - i) + 0.5);
        tf_buf_puts(b, "}{");
        tex_text(b, f->lanes[i].label);
        tf_buf_puts(b, "}%\n");
    }
    char start[TF_NUM_MAX], span[TF_NUM_MAX];
    tf_fmt_num(start, f->window_start_ms, DEC);
    tf_fmt_num(span, tf_figure_span(f), DEC);
    tf_buf_printf(b, "%% Time axis: x is the time from the window start (%s ms on the trace\n"
                     "%% clock); the window is %s ms wide.\n",
                  start, span);
    if (t->exp10 != 0)
        tf_buf_printf(b, "%% x unit: 1e%d ms, so that every coordinate stays far below TeX's\n"
                         "%% largest dimension (16384pt).  Tick labels are in ms.\n",
                      t->exp10);
    else
        tf_buf_puts(b, "% x unit: 1 ms.\n");
    tf_buf_puts(b, "\\def\\tracefigspan{");
    num(t, t->span);
    tf_buf_puts(b, "}%\n");
    int dec = tf_tick_decimals(f->xticks, f->n_xticks);
    for (size_t i = 0; i < f->n_xticks; i++) {
        tf_buf_puts(b, "\\tracefigxtick{");
        num(t, xu(t, f->xticks[i]));
        tf_buf_puts(b, "}{");
        tf_buf_num(b, f->xticks[i], dec);
        tf_buf_puts(b, "}%\n");
    }
    tf_buf_puts(b, "\\def\\tracefigxtitle{");
    tex_text(b, "Time (ms)");
    tf_buf_puts(b, "}%\n");
    if (f->has_breakdown) {
        const struct tf_breakdown *bd = &f->breakdown;
        tf_buf_puts(b, "% Breakdown panel: its title, and its legend's title and entries.\n"
                       "\\tracefigbreakdowntrue\n"
                       "\\def\\tracefigpaneltitle{");
        tex_text(b, "GPU Runtime Breakdown (%)");
        tf_buf_puts(b, "}%\n\\def\\tracefiglegtitle{");
        tex_text(b, bd->title);
        tf_buf_puts(b, "}%\n");
        for (size_t i = 0; i < bd->n_slices; i++) {
            struct style *s = slice_style(t, &bd->slices[i]);
            tf_buf_printf(b, "\\tracefiglegendentry{%s}{", s ? s->key : "bar");
            tex_text(b, bd->slices[i].label ? bd->slices[i].label : "");
            tf_buf_puts(b, "}%\n");
        }
    } else if (f->n_legend) {
        tf_buf_puts(b, "% Legend entries: the style of the swatch, and the label.\n");
        for (size_t i = 0; i < f->n_legend; i++) {
            struct style *s = legend_style(t, i);
            tf_buf_printf(b, "\\tracefiglegendentry{%s}{", s ? s->key : "bar");
            tex_text(b, f->legend[i].label ? f->legend[i].label : "");
            tf_buf_puts(b, "}%\n");
        }
    }
    tf_buf_puts(b, "\\tracefiglayout\n");
}

static void emit_bar(struct tikz *t, const struct tf_bar *r)
{
    struct tf_buf *b = t->b;
    const struct tf_figure *f = t->f;
    struct style *s = bar_style(t, r);
    double y0 = (double)(f->n_lanes - 1 - (size_t)r->lane);
    tf_buf_printf(b, "\\draw[tracefig/bar,tracefig/%s] ", s ? s->key : "bar");
    if (!r->clip_left && !r->clip_right) {
        double x0, x1;
        tf_bar_drawn_extent(f, r, &x0, &x1);
        tf_buf_putc(b, '(');
        num(t, xu(t, x0));
        tf_buf_putc(b, ',');
        num(t, y0);
        tf_buf_puts(b, ") rectangle (");
        num(t, xu(t, x1));
        tf_buf_putc(b, ',');
        num(t, y0 + 1.0);
        tf_buf_puts(b, ");\n");
        return;
    }
    double xs[TF_BAR_OUTLINE_MAX], ys[TF_BAR_OUTLINE_MAX];
    size_t n = tf_bar_outline(f, r, y0, y0 + 1.0, xs, ys);
    if (n > 1 && xs[n - 1] == xs[0] && ys[n - 1] == ys[0])
        n--; /* "cycle" closes it */
    for (size_t i = 0; i < n; i++) {
        tf_buf_putc(b, '(');
        num(t, xu(t, xs[i]));
        tf_buf_putc(b, ',');
        num(t, ys[i]);
        tf_buf_puts(b, ")--");
    }
    tf_buf_puts(b, "cycle;\n");
}

static void emit_label(struct tikz *t, const char *style, double x0, double x1, double y,
                       const char *text)
{
    struct tf_buf *b = t->b;
    tf_buf_printf(b, "\\tracefiglabel{%s}{", style);
    num(t, (x0 + x1) / 2.0);
    tf_buf_puts(b, "}{");
    num(t, y);
    tf_buf_puts(b, "}{");
    num(t, x1 - x0);
    tf_buf_puts(b, "}{");
    tex_text(b, text);
    tf_buf_puts(b, "}\n");
}

static void emit_breakdown(struct tikz *t)
{
    const struct tf_breakdown *bd = &t->f->breakdown;
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
        struct style *st = slice_style(t, s);
        tf_buf_printf(b, "\\draw[tracefig/breakdown/bar,tracefig/%s] (", st ? st->key : "bar");
        num(t, left);
        tf_buf_puts(b, ",0) rectangle (");
        num(t, right);
        tf_buf_puts(b, ",1);\n");
        left = right;
    }
    left = 0.0;
    for (size_t i = 0; i < bd->n_slices; i++) {
        const struct tf_slice *s = &bd->slices[i];
        double w = isfinite(s->width_pct) && s->width_pct > 0 ? s->width_pct : 0.0;
        double right = fmin(left + w, 100.0);
        if (s->has_text)
            emit_label(t, label_style(t, s->text_color), left, right, 0.5, s->text);
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
    for (size_t i = 0; i < f->n_bars; i++)
        emit_bar(t, &f->bars[i]);
    bool any = false;
    for (size_t i = 0; i < f->n_bars; i++) {
        const struct tf_bar *r = &f->bars[i];
        if (!r->has_label)
            continue;
        if (!any)
            tf_buf_puts(b, "% In-bar labels {colour}{x}{y}{bar width}{text}: TeX leaves out a "
                           "label wider than its bar.\n");
        any = true;
        double y = (double)(f->n_lanes - 1 - (size_t)r->lane) + 0.5;
        double x0, x1;
        tf_bar_drawn_extent(f, r, &x0, &x1);
        emit_label(t, label_style(t, r->label_color), xu(t, x0), xu(t, x1), y, r->label);
    }
    tf_buf_puts(b, "% Lane labels, tick labels, the axis title and the legend.\n"
                   "\\tracefigforeground\n");
    if (f->has_breakdown)
        emit_breakdown(t);
    tf_buf_puts(b, "\\end{tikzpicture}%\n");
}

static bool render_fragment(const struct tf_figure *f, const struct tf_render_opts *o,
                            struct tf_buf *b, struct tf_diag *d)
{
    const struct tf_template *style = tf_template_get("tikz-style.tex");
    if (!style)
        return tf_diag_error(d, TF_EIO, "tikz: the style template is missing from the build");
    for (size_t i = 0; i < f->n_bars; i++)
        if (f->bars[i].lane < 0 || (size_t)f->bars[i].lane >= f->n_lanes)
            return tf_diag_error(d, TF_EBADINPUT, "tikz: bar %zu has no lane", i);
    struct tikz t;
    memset(&t, 0, sizeof t);
    t.f = f;
    t.b = b;
    if (!pick_unit(&t, tf_figure_span(f), d))
        return false;
    collect_styles(&t);
    if (t.full)
        return tf_diag_error(d, TF_EBADINPUT, "tikz: more than %d bar styles", MAX_STYLES);
    emit_header(&t, o);
    tf_buf_puts(b, "\\begingroup\n");
    tf_buf_putn(b, style->data, style->len);
    tf_buf_puts(b, "% --- This figure -----------------------------------------------------------\n");
    emit_styles(&t);
    emit_data(&t);
    emit_picture(&t);
    tf_buf_puts(b, "\\endgroup%\n");
    return true;
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
