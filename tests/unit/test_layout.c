/* The layout (figure model -> scene) and the metrics table, on hand-made
 * figures: text widths, text kept on the canvas and apart, the legend row,
 * lanes beyond four, pytorch-mode figures, determinism. */
#include <string.h>

#include "support.h"
#include "base/utf8.h"
#include "harness.h"
#include "render/layout.h"
#include "render/metrics.h"
#include "render/scene.h"

/* --- figures ------------------------------------------------------------- */

static void add_lane(struct tf_figure *f, const char *id, const char *label)
{
    tf_test_lane(f, id, label);
}

static void add_bar(struct tf_figure *f, size_t lane, const char *name, long long cand, double x0,
                    double x1, uint32_t color, uint32_t label_color)
{
    tf_test_bar(f, lane, name, cand, x0, x1, color, label_color, cand >= 0);
}

/* The four reference lanes, a bar per lane and candidate, a bottom legend. */
static void sample(struct tf_figure *f, bool breakdown)
{
    tf_figure_init(f);
    f->mode = "timeline";
    f->window_start = 1000;
    f->window_end = 2200;
    f->zigzag_amp = 14;
    add_lane(f, "main", "Main Thread");
    add_lane(f, "io", "I/O Thread");
    add_lane(f, "gpu0", "GPU Stream 0");
    add_lane(f, "gpu1", "GPU Stream 1");
    for (int c = 0; c < 4; c++) {
        double x = 300.0 * c;
        add_bar(f, 1, "hdf5_io", 5 + c, x, x + 280, TF_COLOR_IO, TF_COLOR_BLACK);
        add_bar(f, 0, "wait_for_io", 5 + c, x, x + 280, TF_COLOR_WAIT_FOR_IO, TF_COLOR_WHITE);
        add_bar(f, 2 + c % 2, "compute", 5 + c, x + 280, x + 450, TF_COLOR_GPU0, TF_COLOR_WHITE);
    }
    f->bars[f->n_bars - 1].x1 = 1200;
    f->bars[f->n_bars - 1].clip_right = true;
    tf_test_frame(f, true, 200.0, 7);
    if (breakdown) {
        f->has_panel = true;
        struct tf_panel *bd = &f->panel;
        bd->title = "Candidate 5";
        bd->axis_title = "GPU Runtime Breakdown (%)";
        static const struct {
            const char *key, *label;
            double pct;
            uint32_t color;
        } s[3] = {{"cast", "Preprocess", 18.4, TF_COLOR_CAST},
                  {"trsm", "Triangular Solve", 80.4, TF_COLOR_TRSM},
                  {"gemm_chol", "Cholesky + Schur Complement", 1.2, TF_COLOR_GEMM_CHOL}};
        for (int i = 0; i < 3; i++) {
            struct tf_slice *sl = tf_panel_add_slice(f);
            sl->key = s[i].key;
            sl->label = s[i].label;
            sl->pct = sl->width_pct = s[i].pct;
            sl->color = s[i].color;
            char text[32];
            snprintf(text, sizeof text, "%.0f%%", s[i].pct);
            sl->text = s[i].pct >= 10 ? tf_figure_str(f, text) : NULL;
            sl->text_color = s[i].pct > 20 ? TF_COLOR_WHITE : TF_COLOR_BLACK;
        }
    } else {
        tf_test_legend(f, "TRSM (host)", TF_COLOR_TRSM_HOST, "main/trsm_host");
        tf_test_legend(f, "Wait for prefetch", TF_COLOR_WAIT_FOR_IO, "main/wait_for_io");
        tf_test_legend(f, "HDF5 read", TF_COLOR_IO, "io");
        tf_test_legend(f, "GPU compute", TF_COLOR_GPU0, "gpu0");
    }
}

/* --- scene queries -------------------------------------------------------- */

struct tbox {
    double x0, y0, x1, y1;
};

static struct tbox text_box(const struct tf_text *t)
{
    double w = tf_text_width(t->s, t->size, t->bold);
    double x0 = t->anchor == TF_ANCHOR_START    ? t->x
                : t->anchor == TF_ANCHOR_MIDDLE ? t->x - w / 2
                                                : t->x - w;
    return (struct tbox){x0, t->y - tf_text_ascent(t->size, t->bold), x0 + w,
                         t->y + tf_text_descent(t->size, t->bold)};
}

static const struct tf_text *find_text(const struct tf_scene *s, const char *str)
{
    for (size_t i = 0; i < s->n_items; i++)
        if (s->items[i].kind == TF_ITEM_TEXT && strcmp(s->items[i].u.text.s, str) == 0)
            return &s->items[i].u.text;
    return NULL;
}

static size_t count_groups(const struct tf_scene *s, const char *cls_prefix)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n_items; i++)
        if (s->items[i].kind == TF_ITEM_GROUP_BEGIN && s->items[i].u.group.cls &&
            strncmp(s->items[i].u.group.cls, cls_prefix, strlen(cls_prefix)) == 0)
            n++;
    return n;
}

/* Every text inside the canvas, no two text boxes overlapping. */
static void check_texts(const struct tf_scene *s)
{
    for (size_t i = 0; i < s->n_items; i++) {
        if (s->items[i].kind != TF_ITEM_TEXT)
            continue;
        const struct tf_text *a = &s->items[i].u.text;
        struct tbox ba = text_box(a);
        if (ba.x0 < 0 || ba.y0 < 0 || ba.x1 > s->width || ba.y1 > s->height)
            tf_test_failf(__FILE__, __LINE__, "text \"%s\" leaves the canvas", a->s);
        for (size_t j = i + 1; j < s->n_items; j++) {
            if (s->items[j].kind != TF_ITEM_TEXT)
                continue;
            struct tbox bb = text_box(&s->items[j].u.text);
            if (ba.x0 < bb.x1 && bb.x0 < ba.x1 && ba.y0 < bb.y1 && bb.y0 < ba.y1)
                tf_test_failf(__FILE__, __LINE__, "texts \"%s\" and \"%s\" overlap", a->s,
                              s->items[j].u.text.s);
        }
    }
}

/* --- metrics --------------------------------------------------------------- */

TF_TEST(metrics_widths_from_the_table)
{
    /* DejaVu Sans Bold: "0" is 1425 units, space 713, of 2048 per em. */
    TF_CHECK_NEAR(tf_text_width("0", 2048, true), 1425, 1e-9);
    TF_CHECK_NEAR(tf_text_width(" ", 2048, true), 713, 1e-9);
    TF_CHECK_NEAR(tf_text_width("Time (ms)", 12.48, true), 70.44375, 1e-6);
    TF_CHECK_NEAR(tf_text_width("", 12, true), 0, 0);
    /* The characters tracefig writes are in the table, not the fallback. */
    TF_CHECK(tf_metrics_advance(0x2192, true) < TF_METRICS_FALLBACK); /* → */
    TF_CHECK(tf_metrics_advance(0x00B7, true) < TF_METRICS_FALLBACK); /* · */
    TF_CHECK(tf_metrics_advance(0x2013, true) < TF_METRICS_FALLBACK); /* – */
    TF_CHECK(tf_metrics_advance('%', true) > 0);
    /* Book is narrower than Bold. */
    TF_CHECK(tf_text_width("GPU Stream 1", 10, false) < tf_text_width("GPU Stream 1", 10, true));
}

TF_TEST(metrics_units_sum_every_code_point)
{
    /* ASCII from the table's head, the rest decoded: the same sum as one
     * tf_metrics_advance per code point (invalid bytes one U+FFFD each). */
    static const char *const texts[] = {"Time (ms)", "caf\xC3\xA9 \xE2\x86\x92 \xC2\xB7",
                                        "\x01tab\tDEL\x7F", "bad \xFF\xC3", ""};
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++) {
        for (int bold = 0; bold < 2; bold++) {
            long want = 0;
            const unsigned char *p = (const unsigned char *)texts[k];
            uint32_t cp;
            for (size_t n; (n = tf_utf8_next(p, &cp)) > 0; p += n)
                want += tf_metrics_advance(cp, bold);
            TF_CHECK(tf_text_units(texts[k], bold) == want);
            TF_CHECK(tf_text_units_width(want, 7.5) == tf_text_width(texts[k], 7.5, bold));
        }
    }
}

TF_TEST(metrics_unknown_and_invalid_code_points)
{
    /* CJK: 1 em; invalid UTF-8 and a lone continuation byte count as U+FFFD. */
    TF_CHECK_NEAR(tf_text_width("\xE6\x97\xA5", 10, true), 10, 1e-9);
    double fffd = tf_metrics_advance(0xFFFD, true) * 10.0 / TF_METRICS_UPEM;
    TF_CHECK_NEAR(tf_text_width("\xFF", 10, true), fffd, 1e-9);
    TF_CHECK_NEAR(tf_text_width("\x80", 10, true), fffd, 1e-9);
    TF_CHECK_NEAR(tf_text_width("\xC3", 10, true), fffd, 1e-9); /* truncated */
    /* Overlong and surrogate encodings are invalid. */
    TF_CHECK_NEAR(tf_text_width("\xE0\x80\xAF", 10, true), fffd * 3, 1e-9);
    TF_CHECK_NEAR(tf_text_width("\xED\xA0\x80", 10, true), fffd * 3, 1e-9);
}

TF_TEST(metrics_baseline_centres_the_box)
{
    double y = tf_text_center_baseline(100, 10, true);
    double top = y - tf_text_ascent(10, true), bottom = y + tf_text_descent(10, true);
    TF_CHECK_NEAR((top + bottom) / 2, 100, 1e-9);
    TF_CHECK_NEAR(tf_text_ascent(2048, true), 1901, 1e-9);
    TF_CHECK_NEAR(tf_text_descent(2048, true), 483, 1e-9);
}

/* --- layout -------------------------------------------------------------------- */

TF_TEST(layout_canvas_size_follows_the_reference)
{
    struct tf_figure f;
    struct tf_scene s;
    sample(&f, true);
    tf_scene_init(&s);
    TF_CHECK(tf_layout(&f, &s));
    TF_CHECK_NEAR(s.width, 720, 1e-9);
    TF_CHECK_NEAR(s.height, 72 * (2.2 + 0.55 + 0.42), 1e-9);
    tf_scene_fini(&s);
    TF_CHECK(tf_seed_frame(&f, false, f.x_span)); /* no main lane */
    tf_scene_init(&s);
    TF_CHECK(tf_layout(&f, &s));
    TF_CHECK_NEAR(s.height, 72 * (2.2 + 0.42), 1e-9);
    tf_scene_fini(&s);
    tf_figure_fini(&f);
}

TF_TEST(layout_lane_labels_are_never_clipped)
{
    struct tf_figure f;
    struct tf_scene s;
    sample(&f, false);
    /* A long label must push the plot right, not leave the canvas. */
    f.lanes[3].label = "GPU Stream 1 (very long name)";
    tf_scene_init(&s);
    TF_CHECK(tf_layout(&f, &s));
    const struct tf_text *t = find_text(&s, "GPU Stream 1 (very long name)");
    TF_CHECK(t != NULL);
    if (t) {
        TF_CHECK(t->anchor == TF_ANCHOR_END);
        TF_CHECK(t->x - t->width >= 0);
        TF_CHECK_NEAR(t->width, tf_text_width(t->s, t->size, true), 1e-9);
    }
    check_texts(&s);
    tf_scene_fini(&s);
    tf_figure_fini(&f);
}

TF_TEST(layout_bottom_legend_is_below_the_axis_label)
{
    double prev_axis_y = 1e9;
    static const double ys[] = {-1, 0.0, 0.10, 0.16, 0.5, 1.0, 3.0};
    for (size_t k = 0; k < sizeof ys / sizeof ys[0]; k++) {
        struct tf_figure f;
        struct tf_scene s;
        sample(&f, false);
        f.has_legend_y = ys[k] >= 0;
        f.legend_y = ys[k];
        if (k == 1)
            prev_axis_y = 1e9; /* after the default (0.16): start again at 0.0 */
        tf_scene_init(&s);
        TF_CHECK(tf_layout(&f, &s));
        const struct tf_text *axis = find_text(&s, "Time (ms)");
        const struct tf_text *leg = find_text(&s, "HDF5 read");
        TF_CHECK(axis && leg);
        if (axis && leg) {
            TF_CHECK(text_box(leg).y0 > text_box(axis).y1);
            /* A taller legend row lifts the plot and its axis label. */
            TF_CHECK(axis->y <= prev_axis_y + 1e-9);
            prev_axis_y = axis->y;
        }
        TF_CHECK(count_groups(&s, "legend") == 1);
        check_texts(&s);
        tf_scene_fini(&s);
        tf_figure_fini(&f);
    }
}

TF_TEST(layout_legend_y_sets_the_legend_row)
{
    /* legend_y 1.0: the legend row is as tall as the plot, so the
     * legend's centre sits about half a plot height below the axis label. */
    struct tf_figure f;
    struct tf_scene s1, s2;
    sample(&f, false);
    tf_scene_init(&s1);
    TF_CHECK(tf_layout(&f, &s1));
    f.has_legend_y = true;
    f.legend_y = 1.0;
    tf_scene_init(&s2);
    TF_CHECK(tf_layout(&f, &s2));
    const struct tf_text *m1 = find_text(&s1, "Main Thread"), *m2 = find_text(&s2, "Main Thread");
    const struct tf_text *g1 = find_text(&s1, "GPU Stream 1"), *g2 = find_text(&s2, "GPU Stream 1");
    TF_CHECK(m1 && m2 && g1 && g2);
    if (m1 && m2 && g1 && g2)
        TF_CHECK(g2->y - m2->y < g1->y - m1->y); /* lanes got thinner */
    TF_CHECK_NEAR(s1.height, s2.height, 1e-9);   /* the canvas did not */
    check_texts(&s2);
    tf_scene_fini(&s1);
    tf_scene_fini(&s2);
    tf_figure_fini(&f);
}

TF_TEST(layout_no_legend_when_there_is_none)
{
    struct tf_figure f;
    struct tf_scene s;
    sample(&f, false);
    f.n_legend = 0;
    tf_scene_init(&s);
    TF_CHECK(tf_layout(&f, &s));
    TF_CHECK(count_groups(&s, "legend") == 0);
    TF_CHECK(count_groups(&s, "breakdown") == 0);
    tf_scene_fini(&s);
    tf_figure_fini(&f);
}

TF_TEST(layout_one_group_per_bar_with_data)
{
    struct tf_figure f;
    struct tf_scene s;
    sample(&f, true);
    tf_scene_init(&s);
    TF_CHECK(tf_layout(&f, &s));
    TF_CHECK(count_groups(&s, "bar ") == f.n_bars);
    size_t k = 0;
    for (size_t i = 0; i < s.n_items; i++) {
        const struct tf_item *it = &s.items[i];
        if (it->kind != TF_ITEM_GROUP_BEGIN || strncmp(it->u.group.cls, "bar ", 4) != 0)
            continue;
        const struct tf_bar *b = &f.bars[k++];
        TF_CHECK_STR(it->u.group.title, b->title);
        TF_CHECK_STR(it->u.group.attrs[0].key, "lane");
        TF_CHECK_STR(it->u.group.attrs[0].value, f.lanes[b->lane].key);
        TF_CHECK_STR(it->u.group.attrs[1].key, "candidate");
        /* The next item is the outline: closed, filled, 0.6 pt black edge. */
        const struct tf_path *p = &s.items[i + 1].u.path;
        TF_CHECK(s.items[i + 1].kind == TF_ITEM_PATH);
        TF_CHECK(p->closed && p->has_fill && p->fill == b->color);
        TF_CHECK_NEAR(p->stroke_width, 0.6, 0);
        TF_CHECK((p->n > 5) == b->clip_right);
    }
    TF_CHECK(find_text(&s, "GPU Runtime Breakdown (%)") != NULL);
    TF_CHECK(find_text(&s, "Candidate 5") != NULL);
    TF_CHECK(find_text(&s, "80%") != NULL);
    check_texts(&s);
    tf_scene_fini(&s);
    tf_figure_fini(&f);
}

TF_TEST(layout_in_bar_labels_that_do_not_fit_are_left_out)
{
    struct tf_figure f;
    struct tf_scene s;
    sample(&f, false);
    /* Two 3 ms bars labelled with long numbers, side by side. */
    add_bar(&f, 0, "trsm_host", 123456, 900, 903, TF_COLOR_TRSM_HOST, TF_COLOR_WHITE);
    add_bar(&f, 0, "trsm_host", 654321, 903, 906, TF_COLOR_TRSM_HOST, TF_COLOR_WHITE);
    tf_scene_init(&s);
    TF_CHECK(tf_layout(&f, &s));
    TF_CHECK(find_text(&s, "123456") == NULL);
    TF_CHECK(find_text(&s, "654321") == NULL);
    check_texts(&s);
    tf_scene_fini(&s);
    tf_figure_fini(&f);
}

TF_TEST(layout_more_lanes_make_a_taller_canvas)
{
    struct tf_figure f;
    struct tf_scene s4, s6;
    sample(&f, false);
    tf_scene_init(&s4);
    TF_CHECK(tf_layout(&f, &s4));
    add_lane(&f, "gpu2", "GPU Stream 2");
    add_lane(&f, "gpu3", "GPU Stream 3");
    add_bar(&f, 4, "compute", 9, 100, 300, TF_COLOR_GPU0, TF_COLOR_WHITE);
    add_bar(&f, 5, "compute", 10, 300, 500, TF_COLOR_GPU1, TF_COLOR_WHITE);
    tf_test_frame(&f, true, 200.0, 7); /* the rules' canvas for six lanes */
    tf_scene_init(&s6);
    TF_CHECK(tf_layout(&f, &s6));
    TF_CHECK_NEAR(s6.height - s4.height, 60, 1e-9);
    TF_CHECK(find_text(&s6, "GPU Stream 3") != NULL);
    TF_CHECK(count_groups(&s6, "bar gpu3") == 1);
    check_texts(&s6);
    tf_scene_fini(&s4);
    tf_scene_fini(&s6);
    tf_figure_fini(&f);
}

TF_TEST(layout_pytorch_mode_renders)
{
    struct tf_figure f;
    struct tf_scene s;
    tf_figure_init(&f);
    f.mode = "pytorch";
    f.window_start = 0;
    f.window_end = 50;
    f.zigzag_amp = 6;
    add_lane(&f, "gpu", "GPU compute");
    add_lane(&f, "io", "I/O");
    add_bar(&f, 0, "compute", -1, 1, 20, TF_COLOR_GPU0, TF_COLOR_WHITE);
    add_bar(&f, 1, "io", -1, 0, 12, TF_COLOR_IO, TF_COLOR_BLACK);
    tf_test_frame(&f, false, 10.0, 6);
    tf_test_legend(&f, "GPU compute", TF_COLOR_GPU0, "gpu");
    tf_test_legend(&f, "I/O", TF_COLOR_IO, "io");
    TF_CHECK(tf_figure_describe(&f, "PyTorch trace timeline", "PyTorch trace timeline"));
    tf_scene_init(&s);
    TF_CHECK(tf_layout(&f, &s));
    TF_CHECK(count_groups(&s, "bar ") == 2);
    for (size_t i = 0; i < s.n_items; i++)
        if (s.items[i].kind == TF_ITEM_GROUP_BEGIN &&
            strncmp(s.items[i].u.group.cls, "bar ", 4) == 0)
            for (size_t a = 0; a < s.items[i].u.group.n_attrs; a++)
                TF_CHECK(strcmp(s.items[i].u.group.attrs[a].key, "candidate") != 0);
    TF_CHECK(s.title && strstr(s.title, "PyTorch"));
    check_texts(&s);
    tf_scene_fini(&s);
    tf_figure_fini(&f);
}

TF_TEST(layout_survives_degenerate_figures)
{
    /* No lanes, no ticks, a zero span, a bar on a missing lane. */
    struct tf_figure f;
    struct tf_scene s;
    tf_figure_init(&f);
    add_bar(&f, 3, "compute", 1, 0, 0, TF_COLOR_GPU0, TF_COLOR_WHITE);
    tf_scene_init(&s);
    TF_CHECK(tf_layout(&f, &s));
    TF_CHECK(s.depth == 0);
    tf_scene_fini(&s);
    tf_figure_fini(&f);
}

TF_TEST(layout_is_deterministic)
{
    struct tf_figure f;
    struct tf_scene a, b;
    sample(&f, true);
    tf_scene_init(&a);
    tf_scene_init(&b);
    TF_CHECK(tf_layout(&f, &a));
    TF_CHECK(tf_layout(&f, &b));
    TF_CHECK(a.n_items == b.n_items);
    for (size_t i = 0; i < a.n_items && i < b.n_items; i++) {
        TF_CHECK(a.items[i].kind == b.items[i].kind);
        if (a.items[i].kind == TF_ITEM_TEXT) {
            TF_CHECK_STR(a.items[i].u.text.s, b.items[i].u.text.s);
            TF_CHECK(a.items[i].u.text.x == b.items[i].u.text.x);
            TF_CHECK(a.items[i].u.text.y == b.items[i].u.text.y);
        } else if (a.items[i].kind == TF_ITEM_PATH) {
            TF_CHECK(a.items[i].u.path.n == b.items[i].u.path.n);
            for (size_t k = 0; k < a.items[i].u.path.n && k < b.items[i].u.path.n; k++)
                TF_CHECK(a.items[i].u.path.xs[k] == b.items[i].u.path.xs[k] &&
                         a.items[i].u.path.ys[k] == b.items[i].u.path.ys[k]);
        }
    }
    tf_scene_fini(&a);
    tf_scene_fini(&b);
    tf_figure_fini(&f);
}

TF_TEST(layout_annotation_row_grows_the_canvas)
{
    /* With and without the breakdown panel (bottom legend or none): the
     * summary sits below every other text, the canvas grows by its row,
     * and nothing above it moves. */
    for (int panel = 0; panel < 2; panel++) {
        struct tf_figure f;
        struct tf_scene plain, ann;
        sample(&f, panel == 1);
        f.stats.on = true;
        f.stats.summary = "I/O hidden 81 %, GPU idle 7 %";
        tf_scene_init(&plain);
        tf_scene_init(&ann);
        TF_CHECK(tf_layout(&f, &plain));
        f.annotate = true;
        TF_CHECK(tf_layout(&f, &ann));
        TF_CHECK(ann.height > plain.height);
        TF_CHECK_NEAR(ann.width, plain.width, 0);
        TF_CHECK(find_text(&plain, f.stats.summary) == NULL);
        const struct tf_text *sum = find_text(&ann, f.stats.summary);
        TF_CHECK(sum != NULL);
        if (sum) {
            double top = text_box(sum).y0;
            for (size_t i = 0; i < ann.n_items; i++)
                if (ann.items[i].kind == TF_ITEM_TEXT && &ann.items[i].u.text != sum)
                    TF_CHECK(text_box(&ann.items[i].u.text).y1 < top);
            /* The legend frames end above it too. */
            for (size_t i = 0; i < ann.n_items; i++) {
                const struct tf_path *p = &ann.items[i].u.path;
                if (ann.items[i].kind != TF_ITEM_PATH || !p->cls || strcmp(p->cls, "frame") != 0)
                    continue;
                for (size_t k = 0; k < p->n; k++)
                    TF_CHECK(p->ys[k] < top);
            }
        }
        const struct tf_text *a0 = find_text(&plain, "Time (ms)");
        const struct tf_text *a1 = find_text(&ann, "Time (ms)");
        TF_CHECK(a0 && a1 && a0->y == a1->y);
        check_texts(&ann);
        TF_CHECK(count_groups(&ann, "annotation") == 1);
        tf_scene_fini(&plain);
        tf_scene_fini(&ann);
        f.stats.summary = NULL; /* a static string: not the figure's to free */
        tf_figure_fini(&f);
    }
}

TF_TEST(layout_long_annotation_stays_on_the_canvas)
{
    struct tf_figure f;
    struct tf_scene s;
    sample(&f, false);
    f.stats.on = true;
    f.stats.summary = "a summary line far too long for any canvas: I/O hidden 81 %, GPU idle "
                      "7 %, and then many more words that a mode might one day add to it, "
                      "until it is wider than the whole figure";
    f.annotate = true;
    tf_scene_init(&s);
    TF_CHECK(tf_layout(&f, &s));
    TF_CHECK(find_text(&s, f.stats.summary) != NULL);
    check_texts(&s);
    tf_scene_fini(&s);
    f.stats.summary = NULL;
    tf_figure_fini(&f);
}
