/* tikz.c - the TikZ back-end's entry: the figure model as a TikZ picture
 * that TeX lays out, for `\input{fig.tex}` in a paper (or, with
 * --standalone, a whole document).
 *
 * IMPLEMENTATION NOTES
 *
 * One layout.  TeX gives every TikZ picture its width (\tracefigwidth,
 * else \linewidth), so every figure is fit to it: tikz_fit.c writes the
 * plan's candidates and templates/tikz-fit.tex picks among them in the
 * document's fonts, by the plan's rules.  The back-end is marked fit_always
 * (render.h), so it always draws the fit plan, also of a seed figure whose
 * SVG, PDF, PNG and JSON keep the reference's layout (no size option).
 *
 * Numbers TeX can hold.  TeX dimensions stop at 16383.99998pt and TikZ
 * parses coordinates as dimensions, so the x coordinates are kept below
 * 10000: when the span is outside 10 .. 10000 ms, x is written in units of
 * 10^k ms with k chosen so that the span is 1000 .. 10000 units, and the file
 * says so in a comment (tz_pick_unit).  The x unit itself is computed by TeX
 * with \dimexpr (plot width * 65536 / span in sp), which never overflows.
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
 * Text.  Free text goes through tz_text(): tf_buf_tex_escape for ASCII, and
 * a table for the non-ASCII characters that need a command under pdfTeX
 * ("->" is U+2192, written $\rightarrow$), so the file compiles under
 * pdflatex, lualatex and xelatex alike.  This file knows nothing about JSON
 * traces, modes or their rules: only the figure model.
 */
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/templates.h"
#include "render/tikz_int.h"


static bool render_fragment(const struct tf_figure *f, const struct tf_render_opts *o,
                            struct tf_buf *b, struct tf_diag *d);

/* The gap between two zoom panels and the connectors' run, in ems. */
#define ZOOM_GAP_EM "1.2em"
#define ZOOM_DROP_EM "1.6em"

/* --zoom: the row under the figure.  Each panel is the fragment of its
 * figure (no legend: the figure's holds its classes) at its share of the
 * main plot's width, set in a box first; then one picture places them,
 * their tops ZOOM_DROP_EM under the figure, and draws the connectors from
 * the bands' lower corners (noted by the main picture) to the panels'
 * plots' upper corners. */
static bool zoom_row(const struct tf_figure *f, const struct tf_render_opts *o,
                     const struct tf_plan *plan, struct tf_buf *b, struct tf_diag *d)
{
    size_t n = plan->n_zooms;
    tf_buf_printf(b, "%% --- Zoom panels -----------------------------------------------------------\n"
                     "\\begingroup\\par\\nointerlineskip\\noindent\\ifdefined\\tracefigzoomboxa\\else"
                     "\\newbox\\tracefigzoomboxa\\newbox\\tracefigzoomboxb\\newbox\\tracefigzoomboxc\\fi\n"
                     "\\edef\\tracefigzoomgap{\\the\\dimexpr%s\\relax}%%\n"
                     "\\edef\\tracefigzoomdrop{\\the\\dimexpr%s\\relax}%%\n"
                     "\\edef\\tracefigzoomw{\\the\\dimexpr(\\tracefigzoompw-%zu\\dimexpr"
                     "\\tracefigzoomgap\\relax)/%zu\\relax}%%\n",
                  n > 1 ? ZOOM_GAP_EM : "0pt", ZOOM_DROP_EM, n - 1, n);
    bool ok = true;
    for (size_t k = 0; k < n && ok; k++) {
        const struct tf_plan_zoom *pz = &plan->zooms[k];
        struct tf_figure zf = *f->zooms[pz->zoom].fig;
        zf.n_legend = 0;
        zf.annotate = false;
        zf.has_panel = false;
        zf.n_zooms = 0;
        struct tf_render_opts zo = *o;
        zo.plan = NULL;
        zo.plans_made = NULL;
        zo.standalone = false;
        zo.size = pz->size;
        zo.zoom_panel = k + 1;
        tf_buf_printf(b, "\\setbox\\tracefigzoombox%c\\hbox{\\def\\tracefigwidth{\\tracefigzoomw}%%\n",
                      (char)('a' + k));
        ok = render_fragment(&zf, &zo, b, d);
        tf_buf_puts(b, "}%\n");
    }
    if (!ok)
        return false;
    tf_buf_puts(b, "\\pgfkeysifdefined{/tikz/tracefig/zoom connector/.@cmd}{}{\\tikzset{tracefig/zoom "
                   "connector/.style={draw=black!67, line width=0.5pt}}}%\n"
                   "\\begin{tikzpicture}[x=1pt,y=1pt]\n"
                   "\\path(0pt,0pt)(\\tracefigzoomtw,-\\tracefigzoomdrop);\n");
    for (size_t k = 0; k < n; k++) {
        char c = (char)('a' + k);
        tf_buf_printf(b, "\\edef\\tracefigzoomx{\\the\\dimexpr\\tracefigzoompl+%zu\\dimexpr"
                         "\\tracefigzoomw+\\tracefigzoomgap\\relax\\relax}%%\n"
                         "\\node[anchor=north west,inner sep=0pt,outer sep=0pt] at "
                         "(\\tracefigzoomx,-\\tracefigzoomdrop) {\\usebox\\tracefigzoombox%c};\n"
                         "\\draw[tracefig/zoom connector,overlay] (\\tracefigzoomba%c,\\tracefigzoomrise)--"
                         "(\\tracefigzoomx+\\tracefigzoompa%c,-\\tracefigzoomdrop-\\tracefigzoompt%c);\n"
                         "\\draw[tracefig/zoom connector,overlay] (\\tracefigzoombb%c,\\tracefigzoomrise)--"
                         "(\\tracefigzoomx+\\tracefigzoompb%c,-\\tracefigzoomdrop-\\tracefigzoompt%c);\n",
                      k, c, c, c, c, c, c, c);
    }
    tf_buf_puts(b, "\\end{tikzpicture}%\n");
    /* The legend under the row (tikz_fit.c kept the main panel's entries
     * aside), wrapped to the figure's width and centred under it. */
    if (!f->has_panel && f->n_legend)
        tf_buf_puts(b, "\\par\\nointerlineskip\\noindent\\begin{tikzpicture}[x=1pt,y=1pt]\n"
                       "\\path(0pt,0pt)(\\tracefigzoomtw,0pt);\n"
                       "\\node[inner sep=0pt,outer sep=0pt,anchor=north] at "
                       "(\\tracefigzoomtw/2,-0.5em) {\\usebox\\tracefigzoomleg};\n"
                       "\\end{tikzpicture}%\n");
    tf_buf_puts(b, "\\endgroup%\n");
    return true;
}

static bool render_fragment(const struct tf_figure *f, const struct tf_render_opts *o,
                            struct tf_buf *b, struct tf_diag *d)
{
    for (size_t i = 0; i < f->n_bars; i++)
        if (f->bars[i].lane >= f->n_lanes || f->bars[i].cat >= f->n_cats)
            return tf_diag_error(d, TF_EBADINPUT, "tikz: bar %zu has no lane or category", i);
    /* The fit plan, always; the bars as drawn at its plot width
     * (plan_busy.c). */
    /* The fit template sizes the legend row by its entries at the width
     * TeX gives (issue 40): --legend-y has nothing to scale. */
    if (f->has_legend_y)
        tf_diag_warn(d, "--legend-y is ignored by the TikZ figure: TeX fits its legend to the width");
    struct tf_render_opts fit = *o;
    fit.size = tf_render_size(&tf_backend_tikz, &o->size);
    struct tf_plan own;
    struct tf_figure drawn;
    const struct tf_plan *plan = tf_render_plan(f, &fit, &own);
    if (!plan) {
        tf_plan_fini(&own);
        return tf_diag_oom(d, "tikz");
    }
    f = tf_plan_drawn(plan, f, &drawn);
    struct tikz t;
    memset(&t, 0, sizeof t);
    t.f = f;
    t.run = TZ_NO_RUN;
    t.share_key = plan->legend.share_key;
    t.b = b;
    t.zoom_panel = o->zoom_panel;
    bool ok = tz_pick_unit(&t, f->x_span, d);
    if (ok && !tz_cat_keys(&t))
        ok = tf_diag_oom(d, "tikz");
    if (ok)
        ok = tz_render_fit(&t, &fit, plan, d);
    tz_fini(&t);
    if (ok && plan->n_zooms)
        ok = zoom_row(f, o, plan, b, d);
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
    /* The standalone class sets its page in a horizontal box, where the
     * zoom row's paragraphs cannot start: a vertical box of the figure's
     * width holds them. */
    if (f->n_zooms)
        tf_buf_puts(b, "\\vbox{\\hsize=\\tracefigwidth\\linewidth=\\hsize\\parindent=0pt%\n");
    if (!render_fragment(f, o, b, d))
        return false;
    if (f->n_zooms)
        tf_buf_puts(b, "}%\n");
    tf_buf_puts(b, at + sizeof marker - 1);
    return true;
}

const struct tf_backend tf_backend_tikz = {
    .name = "tikz",
    .exts = {".tex", NULL},
    .description = "TikZ picture for \\input (--standalone: a whole document)",
    .available = true,
    .fit_always = true,
    .render = render_tikz,
};

