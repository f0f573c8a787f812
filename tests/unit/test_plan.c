/* test_plan.c - the layout policy (render/plan.c) on hand-made figures and
 * small Chrome traces: the bugs issue 17 lists (a long label inverting the
 * plot, a wide legend spilling right, labels measured raw but drawn
 * cleaned, TikZ styles of categories that clean alike, category keys cut
 * at 96 bytes), the label levels, and the seed's layout kept. */
#include <stdlib.h>
#include <unistd.h>

#include "support.h"
#include "harness.h"
#include "render/layout.h"
#include "render/metrics.h"
#include "render/plan.h"
#include "render/render.h"
#include "lib/run.h"

/* A Chrome-mode-like figure (the fit layout): lanes with the given labels,
 * one bar each, one legend entry per label given. */
static void fit_figure(struct tf_figure *f, const char *const *labels, size_t n,
                       const char *const *legend, size_t n_legend)
{
    tf_figure_init(f);
    f->mode = "chrome";
    f->schema = "tracefig-figure-2";
    f->window_start = 0;
    f->window_end = 100;
    f->x_span = 100;
    f->flame = true;
    for (size_t i = 0; i < n; i++) {
        tf_test_lane(f, NULL, labels[i]);
        tf_test_bar(f, i, "work", -1, 10.0 * (double)i, 10.0 * (double)i + 30.0, 0x4477AA,
                    TF_COLOR_WHITE, false);
    }
    double t[TF_TICKS_MAX];
    size_t nt = tf_nice_ticks(0.0, 100.0, 8, t, TF_TICKS_MAX);
    if (!tf_figure_set_ticks(f, t, nt))
        abort();
    f->axis.title = "Time (ms)";
    for (size_t i = 0; i < n_legend; i++) {
        size_t c = tf_figure_category(f, legend[i], 0x228833u + (uint32_t)i);
        if (c == (size_t)-1 || !tf_figure_add_legend(f, legend[i], c))
            abort();
    }
}

/* Every text of the scene inside the canvas (its measured box). */
static bool texts_inside(const struct tf_scene *s)
{
    for (size_t i = 0; i < s->n_items; i++) {
        if (s->items[i].kind != TF_ITEM_TEXT)
            continue;
        const struct tf_text *t = &s->items[i].u.text;
        double x0 = t->anchor == TF_ANCHOR_START    ? t->x
                    : t->anchor == TF_ANCHOR_MIDDLE ? t->x - t->width / 2
                                                    : t->x - t->width;
        if (x0 < -1e-6 || x0 + t->width > s->width + 1e-6 ||
            t->y - tf_text_ascent(t->size, t->bold) < -1e-6 ||
            t->y + tf_text_descent(t->size, t->bold) > s->height + 1e-6) {
            fprintf(stderr, "text '%s' leaves the %gx%g canvas\n", t->s, s->width, s->height);
            return false;
        }
    }
    return true;
}

static const struct tf_text *text_starting(const struct tf_scene *s, const char *prefix)
{
    for (size_t i = 0; i < s->n_items; i++)
        if (s->items[i].kind == TF_ITEM_TEXT &&
            strncmp(s->items[i].u.text.s, prefix, strlen(prefix)) == 0)
            return &s->items[i].u.text;
    return NULL;
}

TF_TEST(plan_long_label_never_inverts_the_plot)
{
    char longl[400];
    memset(longl, 'w', sizeof longl - 1);
    longl[sizeof longl - 1] = '\0';
    const char *labels[] = {"main", longl, "GPU 0 / stream 7"};
    static const double widths[] = {0, 720, 229.5, 110};
    for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
        struct tf_figure f;
        fit_figure(&f, labels, 3, NULL, 0);
        struct tf_size size = {.width_pt = widths[k], .given = widths[k] > 0};
        struct tf_plan p;
        TF_CHECK(tf_plan_make(&f, &size, &p));
        TF_CHECK(p.plot.x1 - p.plot.x0 >= 0.6 * p.W);
        TF_CHECK(p.label_w <= 0.25 * p.W + 1e-9);
        struct tf_scene s;
        tf_scene_init(&s);
        TF_CHECK(tf_layout_plan(&f, &p, &s));
        TF_CHECK(texts_inside(&s));
        tf_scene_fini(&s);
        tf_plan_fini(&p);
        tf_figure_fini(&f);
    }
}

TF_TEST(plan_wide_legend_stays_inside)
{
    char wide[300];
    memset(wide, 'L', sizeof wide - 1);
    wide[sizeof wide - 1] = '\0';
    const char *labels[] = {"a", "b"};
    const char *legend[] = {wide, "short", "another"};
    static const double widths[] = {0, 110};
    for (size_t k = 0; k < 2; k++) {
        struct tf_figure f;
        fit_figure(&f, labels, 2, legend, 3);
        struct tf_size size = {.width_pt = widths[k], .given = widths[k] > 0};
        struct tf_plan p;
        TF_CHECK(tf_plan_make(&f, &size, &p));
        TF_CHECK(p.bottom_legend);
        TF_CHECK(p.legend.x0 >= 0 && p.legend.x0 + p.legend.w <= p.W + 1e-9);
        /* The legend sits right under the axis title, whatever the height. */
        TF_CHECK(p.legend.y0 - p.axis_base < 2 * p.f_axis);
        struct tf_scene s;
        tf_scene_init(&s);
        TF_CHECK(tf_layout_plan(&f, &p, &s));
        TF_CHECK(texts_inside(&s));
        tf_scene_fini(&s);
        tf_plan_fini(&p);
        tf_figure_fini(&f);
    }
}

TF_TEST(plan_measures_labels_as_they_are_drawn)
{
    /* Control characters are drawn as U+FFFD, which is wider: the label
     * column must hold what is drawn. */
    const char *labels[] = {"ok", "\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c"};
    struct tf_figure f;
    fit_figure(&f, labels, 2, NULL, 0);
    struct tf_size size = {.labels = TF_LABELS_LEFT, .given = true};
    struct tf_scene s;
    tf_scene_init(&s);
    TF_CHECK(tf_layout_sized(&f, &size, &s));
    const struct tf_text *t = text_starting(&s, "\xEF\xBF\xBD");
    TF_CHECK(t != NULL);
    if (t)
        TF_CHECK_NEAR(t->width, tf_text_width(t->s, t->size, t->bold), 1e-9);
    TF_CHECK(texts_inside(&s));
    tf_scene_fini(&s);
    tf_figure_fini(&f);
}

TF_TEST(plan_groups_lanes_under_a_header)
{
    const char *labels[] = {"GPU 0 / stream 7", "GPU 0 / stream 20", "python / main"};
    struct tf_figure f;
    fit_figure(&f, labels, 3, NULL, 0);
    f.lanes[0].group = f.lanes[1].group = "GPU 0";
    f.lanes[0].name = "stream 7";
    f.lanes[1].name = "stream 20";
    struct tf_arena a;
    tf_arena_init(&a);
    struct tf_label_levels lv;
    TF_CHECK(tf_plan_label_levels(&f, 3, &a, &lv));
    TF_CHECK(lv.n_headers == 1);
    TF_CHECK_STR(lv.headers[0], "GPU 0");
    TF_CHECK_STR(lv.text[3 + 0], "stream 7");
    TF_CHECK_STR(lv.text[3 + 2], "python / main");
    TF_CHECK(lv.header_of[1] == 0 && lv.header_of[2] == (size_t)-1);
    tf_label_levels_fini(&lv);
    /* Namesakes keep their ids; elision keeps the end that tells them apart. */
    f.lanes[0].name = f.lanes[1].name = "ThreadPoolForegroundWorker";
    f.lanes[0].id = "4037";
    f.lanes[1].id = "23695";
    TF_CHECK(tf_plan_label_levels(&f, 3, &a, &lv));
    TF_CHECK_STR(lv.text[3 + 1], "ThreadPoolForegroundWorker 23695");
    TF_CHECK(strstr(lv.text[4 * 3 + 0], "4037") != NULL);
    TF_CHECK(strstr(lv.text[4 * 3 + 1], "23695") != NULL);
    TF_CHECK(strcmp(lv.text[4 * 3 + 0], lv.text[4 * 3 + 1]) != 0);
    tf_label_levels_fini(&lv);
    tf_arena_fini(&a);
    tf_figure_fini(&f);
}

TF_TEST(plan_keeps_the_seed_layout_without_a_size)
{
    struct tf_figure f;
    tf_figure_init(&f);
    f.window_end = 900;
    tf_test_lane(&f, "io", "I/O Thread");
    tf_test_bar(&f, 0, "io", 1, 0, 300, 0x888888, TF_COLOR_BLACK, true);
    tf_test_frame(&f, false, 0, 0);
    struct tf_plan p;
    TF_CHECK(tf_plan_make(&f, NULL, &p));
    TF_CHECK(!p.fit);
    TF_CHECK_NEAR(p.W, 720, 1e-9);
    tf_plan_fini(&p);
    struct tf_size size = {.width_pt = 229.5 * 72 / 72.27, .given = true};
    TF_CHECK(tf_plan_make(&f, &size, &p));
    TF_CHECK(p.fit);
    TF_CHECK_NEAR(p.W, 228.643, 1e-3);
    tf_plan_fini(&p);
    tf_figure_fini(&f);
}

TF_TEST(tikz_categories_that_clean_alike_keep_their_colours)
{
    const char *labels[] = {"a"};
    const char *legend[] = {"v8.execute", "v8,execute"};
    struct tf_figure f;
    fit_figure(&f, labels, 1, legend, 2);
    f.cats[1].color = 0x112233;
    f.cats[2].color = 0x445566;
    struct tf_render_opts o = {.cmdline = "tracefig", .dpi = 200};
    struct tf_buf b;
    struct tf_diag d;
    tf_buf_init(&b);
    tf_diag_init(&d);
    TF_CHECK(tf_backend_tikz.render(&f, &o, &b, &d));
    TF_CHECK(b.data && strstr(b.data, "{HTML}{112233}"));
    TF_CHECK(b.data && strstr(b.data, "{HTML}{445566}"));
    TF_CHECK(b.data && strstr(b.data, "\\tracefigdefaultstyle{v8xexecute}"));
    TF_CHECK(b.data && strstr(b.data, "\\tracefigdefaultstyle{v8xexecute-2}"));
    tf_buf_fini(&b);
    tf_figure_fini(&f);
}

TF_TEST(chrome_long_category_names_stay_apart)
{
    /* Two categories of 130 bytes that share their first 120. */
    char cat[2][140], json[1200];
    for (int i = 0; i < 2; i++) {
        memset(cat[i], 'c', 120);
        snprintf(cat[i] + 120, 20, "-%d-end", i);
    }
    snprintf(json, sizeof json,
             "[{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10,\"name\":\"a\",\"cat\":\"%s\"},"
             "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":20,\"dur\":10,\"name\":\"b\",\"cat\":\"%s\"}]",
             cat[0], cat[1]);
    struct tf_figure f;
    struct tf_trace t;
    tf_figure_init(&f);
    tf_trace_init(&t);
    TF_CHECK(tf_test_chrome_text(json, NULL, &f, &t));
    TF_CHECK(f.n_cats == 2);
    TF_CHECK(f.n_legend == 2);
    if (f.n_cats == 2)
        TF_CHECK(strcmp(f.cats[0].name, f.cats[1].name) != 0);
    tf_figure_fini(&f);
    tf_trace_fini(&t);
}

TF_TEST(chrome_lanes_keep_process_and_thread_apart)
{
    static const char json[] =
        "[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"trainer\"}},"
        "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":7,"
        "\"args\":{\"name\":\"thread 7 (python3.8)\"}},"
        "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":9,"
        "\"args\":{\"name\":\"thread 9 (python3.8)\"}},"
        "{\"ph\":\"X\",\"pid\":1,\"tid\":7,\"ts\":0,\"dur\":10,\"name\":\"a\"},"
        "{\"ph\":\"X\",\"pid\":1,\"tid\":9,\"ts\":5,\"dur\":10,\"name\":\"b\"}]";
    struct tf_figure f;
    struct tf_trace t;
    tf_figure_init(&f);
    tf_trace_init(&t);
    TF_CHECK(tf_test_chrome_text(json, NULL, &f, &t));
    TF_CHECK(f.n_lanes == 2);
    if (f.n_lanes == 2) {
        TF_CHECK_STR(f.lanes[0].label, "trainer / thread 7 (python3.8)");
        TF_CHECK_STR(f.lanes[0].group, "trainer");
        TF_CHECK_STR(f.lanes[0].name, "python3.8");
        TF_CHECK_STR(f.lanes[0].id, "7");
    }
    tf_figure_fini(&f);
    tf_trace_fini(&t);
}

TF_TEST(plan_height_budget_thins_rows_then_cuts)
{
    const char *labels[40];
    char names[40][24];
    for (int i = 0; i < 40; i++) {
        snprintf(names[i], sizeof names[i], "lane %d", i);
        labels[i] = names[i];
    }
    struct tf_figure f;
    fit_figure(&f, labels, 40, NULL, 0);
    for (size_t i = 0; i < f.n_lanes; i++)
        f.lanes[i].rows = 6;
    /* The default budget: 1.25 x the width, within 160 .. 400 pt. */
    struct tf_plan p;
    TF_CHECK(tf_plan_make(&f, NULL, &p));
    TF_CHECK(p.H <= 300.0 + 1e-6);
    TF_CHECK(p.row_h >= 0.375 * p.font - 1e-9);
    TF_CHECK(p.depth < 6 || p.n_lanes < 40);
    TF_CHECK(p.note != NULL);
    tf_plan_fini(&p);
    /* --height: the rows fill it. */
    struct tf_size tall = {.height_pt = 2000, .given = true};
    TF_CHECK(tf_plan_make(&f, &tall, &p));
    TF_CHECK_NEAR(p.H, 2000, 1e-6);
    TF_CHECK(p.depth == 6 && p.n_lanes == 40 && p.note == NULL);
    tf_plan_fini(&p);
    tf_figure_fini(&f);
}
