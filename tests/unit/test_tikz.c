/* test_tikz.c - the TikZ back-end on hand-made figure models: escaping,
 * the x unit that keeps TeX's numbers small, styles, the header, standalone. */
#include <stdlib.h>

#include "support.h"
#include "harness.h"
#include "render/render.h"

/* A two-lane figure over [0, span] ms with a bar cut on the right. */
static void make_figure(struct tf_figure *f, double span)
{
    tf_figure_init(f);
    f->mode = "timeline";
    f->window_start = 1000.0;
    f->window_end = 1000.0 + span;
    f->zigzag_amp = fmin(14.0, fmax(6.0, 0.012 * span));
    tf_test_lane(f, "main", "Main_Thread #1");
    tf_test_lane(f, "gpu2", "GPU Stream 2");
    tf_test_bar(f, 0, "await_dispatch", 7, 0.0, span * 0.4, TF_COLOR_AWAIT_DISPATCH,
                TF_COLOR_WHITE, true);
    struct tf_bar *b =
        tf_test_bar(f, 1, "compute", 7, span * 0.5, span, TF_COLOR_GPU0, TF_COLOR_WHITE, true);
    b->clip_right = true;
    tf_test_frame(f, true, 0.0, 0);
    double t[TF_TICKS_MAX];
    size_t n = tf_nice_ticks(0.0, span, 5, t, TF_TICKS_MAX);
    TF_CHECK(tf_figure_set_ticks(f, t, n));
    tf_test_legend(f, "Ready \xE2\x86\x92 launch", TF_COLOR_AWAIT_DISPATCH, "main/await_dispatch");
    tf_test_legend(f, "GPU compute", TF_COLOR_GPU0, "gpu0");
}

static char *render(const struct tf_figure *f, const char *cmdline, bool standalone)
{
    struct tf_render_opts o = {.cmdline = cmdline, .standalone = standalone, .dpi = 200.0};
    struct tf_buf b;
    struct tf_diag d;
    tf_buf_init(&b);
    tf_diag_init(&d);
    bool ok = tf_backend_tikz.render(f, &o, &b, &d);
    TF_CHECK(ok);
    TF_CHECK(!b.oom);
    if (!ok) {
        tf_buf_fini(&b);
        return NULL;
    }
    return b.data; /* caller frees */
}

static bool has(const char *text, const char *needle)
{
    return text && strstr(text, needle) != NULL;
}

/* The largest |number| in any "(x,y)" coordinate of the picture. */
static double max_coordinate(const char *s)
{
    double m = 0.0;
    for (const char *p = strstr(s, "\\begin{tikzpicture}"); p && *p; p++) {
        if (*p != '(' || !((p[1] >= '0' && p[1] <= '9') || p[1] == '-'))
            continue;
        char *end;
        double x = strtod(p + 1, &end);
        if (*end != ',')
            continue;
        double y = strtod(end + 1, &end);
        m = fmax(m, fmax(fabs(x), fabs(y)));
    }
    return m;
}

static double span_units(const char *s)
{
    const char *p = strstr(s, "\\def\\tracefigspan{");
    return p ? strtod(p + strlen("\\def\\tracefigspan{"), NULL) : -1.0;
}

TF_TEST(tikz_fragment_shape)
{
    struct tf_figure f;
    make_figure(&f, 1165.767);
    char *s = render(&f, "tracefig --trace trace.json", false);
    TF_CHECK(has(s, "needs only\n% \\usepackage{tikz}"));
    TF_CHECK(has(s, "% Made with: tracefig --trace trace.json\n"));
    TF_CHECK(!has(s, "\\documentclass"));
    TF_CHECK(!has(s, "\\fontsize"));
    TF_CHECK(!has(s, "\\usetikzlibrary"));
    TF_CHECK(has(s, "\\begingroup\n"));
    TF_CHECK(has(s, "\\end{tikzpicture}%\n\\endgroup%\n"));
    TF_CHECK(has(s, "\\definecolor{tracefig-main-await-dispatch}{HTML}{E67E22}"));
    TF_CHECK(has(s, "\\tracefigdefaultstyle{main/await_dispatch}{fill=tracefig-main-await-dispatch}"));
    TF_CHECK(has(s, "\\tracefigdefaultstyle{gpu2}{fill=tracefig-gpu2}"));
    /* x in ms: the span is written as it is; each class's TikZ options
     * read once (\tracefigclass), then its bars in runs (\tracefigrun) as
     * basic-layer boxes or outlines, y in rows down from their lane's top,
     * each lane in its scope */
    TF_CHECK(has(s, "\\def\\tracefigspan{1165.767}"));
    TF_CHECK(has(s, "}{draw,tracefig/bar,tracefig/main/await_dispatch}%\n"));
    TF_CHECK(has(s, "}{draw,tracefig/bar,tracefig/gpu2}%\n"));
    TF_CHECK(has(s, "\\tracefiglanescope{0}\n\\tracefigrun{"));
    TF_CHECK(has(s, "{\\tracefigB{0}{0}{466.307}{1}}%\n"));
    TF_CHECK(has(s, "\\tracefigM{582.884}{1}\\tracefigL{1165.767}{1}\\tracefigL{1151.778}{0.875}"));
    TF_CHECK(has(s, "\\tracefigZ\\tracefigU}%\n"));
    TF_CHECK(!has(s, "\\draw[tracefig/bar"));
    TF_CHECK(has(s, "\\tracefiglabel{white}{233.153}{0.5}{466.307}{7}"));
    /* the legend swatches use the bar styles of the same colour */
    TF_CHECK(has(s, "\\tracefiglegendentry{main/await_dispatch}{Ready $\\rightarrow$ launch}"));
    TF_CHECK(has(s, "\\tracefiglegendentry{gpu2}{GPU compute}"));
    /* a lane: its rows, no header, its label at every level */
    TF_CHECK(has(s, "\\tracefiglane{1}{-1}{Main\\_Thread \\#1}{Main\\_Thread \\#1}"));
    free(s);
    tf_figure_fini(&f);
}

TF_TEST(tikz_huge_span_stays_small)
{
    struct tf_figure f;
    make_figure(&f, 1.2e17);
    char *s = render(&f, "tracefig", false);
    TF_CHECK(s != NULL);
    if (s) {
        double span = span_units(s);
        TF_CHECK(span >= 1000.0 && span < 10000.0);
        TF_CHECK(max_coordinate(s) < 10000.0);
        TF_CHECK(has(s, "; x unit: 1e14 ms.\n"));
        /* tick labels stay in ms */
        TF_CHECK(has(s, "\\tracefigxtick{0}{0}\\tracefigxtick{250}{25000000000000000}"));
    }
    free(s);
    tf_figure_fini(&f);
}

TF_TEST(tikz_tiny_span_stays_precise)
{
    struct tf_figure f;
    make_figure(&f, 0.004);
    char *s = render(&f, "tracefig", false);
    TF_CHECK(s != NULL);
    if (s) {
        double span = span_units(s);
        TF_CHECK(span >= 1000.0 && span < 10000.0);
        TF_CHECK(has(s, "; x unit: 1e-6 ms.\n"));
        TF_CHECK(has(s, "\\tracefigxtick{1000}{0.001}")); /* a tick label, in ms */
    }
    free(s);
    tf_figure_fini(&f);
}

TF_TEST(tikz_header_cannot_escape_its_comment)
{
    struct tf_figure f;
    make_figure(&f, 100.0);
    char *s = render(&f, "tracefig --trace a\n\\input{evil}\r.json", false);
    TF_CHECK(has(s, "% Made with: tracefig --trace a?\\input{evil}?.json\n"));
    TF_CHECK(!has(s, "\n\\input{evil}"));
    free(s);
    tf_figure_fini(&f);
}

TF_TEST(tikz_text_escaping)
{
    struct tf_figure f;
    make_figure(&f, 100.0);
    /* lane labels are free text in the model */
    f.lanes[0].label = "$&_{}~^\\ \xC3\xA9\xC2\xB7\xE4\xB8\xAD";
    f.lanes[1].label = "a--b [x] \xFF bad";
    char *s = render(&f, "tracefig", false);
    TF_CHECK(has(s, "{\\$\\&\\_\\{\\}\\textasciitilde{}\\^{}\\textbackslash{} \\'{e}$\\cdot$"
                    "\\tracefigutf{\xE4\xB8\xAD}}"));
    TF_CHECK(has(s, "{a-{}-b {[}x{]} \\tracefigutf{\xEF\xBF\xBD} bad}"));
    free(s);
    tf_figure_fini(&f);
}

TF_TEST(tikz_breakdown_panel)
{
    struct tf_figure f;
    make_figure(&f, 1000.0);
    f.n_legend = 0;
    f.has_panel = true;
    struct tf_panel *bd = &f.panel;
    bd->title = "Candidate 5";
    bd->axis_title = "GPU Runtime Breakdown (%)";
    *tf_panel_add_slice(&f) = (struct tf_slice){"cast", "Preprocess", 18.42, 18.42, TF_COLOR_CAST,
                                                "18%", TF_COLOR_BLACK};
    *tf_panel_add_slice(&f) = (struct tf_slice){"trsm", "Triangular Solve", 81.58, 81.58,
                                                TF_COLOR_TRSM, "82%", TF_COLOR_WHITE};
    char *s = render(&f, "tracefig", false);
    TF_CHECK(has(s, "\\tracefigbreakdowntrue"));
    TF_CHECK(has(s, "\\def\\tracefigpaneltitle{GPU Runtime Breakdown (\\%)}"));
    TF_CHECK(has(s, "\\def\\tracefiglegtitle{Candidate 5}"));
    TF_CHECK(has(s, "\\tracefiglegendentry{breakdown/cast}{Preprocess}"));
    /* a slice: {style}{left}{right}{middle}{width}{label colour}{text} */
    TF_CHECK(has(s, "\\tracefigslice{breakdown/trsm}{18.42}{100}{59.21}{81.58}{white}{82\\%}"));
    TF_CHECK(has(s, "\\tracefigslice{breakdown/cast}{0}{18.42}{9.21}{18.42}{black}{18\\%}"));
    free(s);
    tf_figure_fini(&f);
}

TF_TEST(tikz_standalone_document)
{
    struct tf_figure f;
    make_figure(&f, 500.0);
    char *s = render(&f, "tracefig", true);
    TF_CHECK(has(s, "\\documentclass[border=1pt]{standalone}"));
    TF_CHECK(has(s, "\\usepackage{tikz}"));
    TF_CHECK(has(s, "\\begin{document}\n% A tracefig figure"));
    TF_CHECK(has(s, "\\endgroup%\n\\end{document}\n"));
    free(s);
    tf_figure_fini(&f);
}

TF_TEST(tikz_output_is_deterministic)
{
    struct tf_figure f;
    make_figure(&f, 777.5);
    char *a = render(&f, "tracefig", false);
    char *b = render(&f, "tracefig", false);
    TF_CHECK(a && b && strcmp(a, b) == 0);
    free(a);
    free(b);
    tf_figure_fini(&f);
}
