/* Counter tracks outside the mode: the scale labels' numbers, the band's
 * scale, the statistics' digits, and what the layout draws of a counter
 * lane (its area and line per stretch, a stop breaking them, its labels
 * inside its band). */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "render/layout.h"
#include "render/plan.h"
#include "render/scene.h"
#include "render/stats.h"

TF_TEST(counter_value_three_significant_digits_and_prefixes)
{
    char b[TF_PLAN_VALUE_MAX];
    TF_CHECK_STR(tf_plan_counter_value(b, 0, "B"), "0 B");
    TF_CHECK_STR(tf_plan_counter_value(b, 4, "B"), "4 B");
    TF_CHECK_STR(tf_plan_counter_value(b, 999, NULL), "999");
    TF_CHECK_STR(tf_plan_counter_value(b, 999.6, NULL), "1k");
    TF_CHECK_STR(tf_plan_counter_value(b, 1234, NULL), "1.23k");
    TF_CHECK_STR(tf_plan_counter_value(b, 57803264, "B"), "57.8 MB");
    TF_CHECK_STR(tf_plan_counter_value(b, 2791636480.0, "B"), "2.79 GB");
    TF_CHECK_STR(tf_plan_counter_value(b, -8, "B"), "-8 B");
    TF_CHECK_STR(tf_plan_counter_value(b, -2500000, NULL), "-2.5M");
    TF_CHECK_STR(tf_plan_counter_value(b, 0.5, NULL), "0.5");
    TF_CHECK_STR(tf_plan_counter_value(b, 0.001234, NULL), "0.00123");
    TF_CHECK_STR(tf_plan_counter_value(b, 57.26, NULL), "57.3");
}

TF_TEST(counter_y_runs_from_least_at_the_bottom_to_greatest_at_the_top)
{
    struct tf_counter k = {.has_range = true, .lo = 10, .hi = 30};
    TF_CHECK_NEAR(tf_plan_counter_y(&k, 10), 1.0 - TF_PLAN_COUNTER_PAD, 1e-12);
    TF_CHECK_NEAR(tf_plan_counter_y(&k, 30), TF_PLAN_COUNTER_PAD, 1e-12);
    TF_CHECK_NEAR(tf_plan_counter_y(&k, 20), 0.5, 1e-12);
    struct tf_counter flat = {.has_range = true, .lo = 7, .hi = 7};
    TF_CHECK_NEAR(tf_plan_counter_y(&flat, 7), 0.5, 1e-12);
}

TF_TEST(counter_stats_six_significant_digits)
{
    TF_CHECK(tf_stats_value_decimals(0, 0) == 0);
    TF_CHECK(tf_stats_value_decimals(0, 2791636480.0) == 0);
    TF_CHECK(tf_stats_value_decimals(3, 3) == 5);
    TF_CHECK(tf_stats_value_decimals(55, 60) == 4);
    TF_CHECK(tf_stats_value_decimals(-100, 10) == 3);
    TF_CHECK(tf_stats_value_decimals(0, 0.5) == 6);
    TF_CHECK(tf_stats_value_decimals(0, 1e-12) == 9);
}

/* One slice lane and a counter lane: 10 for x 0..4, a stop at 4, 30 from
 * 6 to the end (span 10). */
static void counter_figure(struct tf_figure *f)
{
    tf_figure_init(f);
    f->mode = "chrome";
    f->schema = "tracefig-figure-2";
    f->clock_unit = "us";
    f->window_start = 0;
    f->window_end = 10;
    f->x_span = 10;
    f->axis.title = "Time (µs)";
    f->axis.unit = "µs";
    f->flame = true;
    double ticks[3] = {0, 5, 10};
    TF_CHECK(tf_figure_set_ticks(f, ticks, 3));
    struct tf_lane *c = tf_figure_add_counter(f, "p / mem allocated", "B", 0x4477AA);
    TF_CHECK(c != NULL);
    TF_CHECK(tf_counter_add(c, 0, 0, 10));
    TF_CHECK(tf_counter_add(c, 4000, 4, NAN));
    TF_CHECK(tf_counter_add(c, 6000, 6, 30));
    c->counter.has_range = true;
    c->counter.lo = 10;
    c->counter.hi = 30;
    TF_CHECK(tf_figure_add_lane(f, NULL, "p / main") != NULL);
}

TF_TEST(counter_lane_draws_a_stretch_per_value_and_its_labels)
{
    struct tf_figure f;
    counter_figure(&f);
    struct tf_size size = {.width_pt = 300, .given = true};
    struct tf_plan p;
    TF_CHECK(tf_plan_make(&f, &size, &p));
    TF_CHECK(p.lanes[0].rows == TF_PLAN_COUNTER_ROWS);
    TF_CHECK(p.lanes[0].hi_text && strcmp(p.lanes[0].hi_text, "30 B") == 0);
    double band_top = p.lanes[0].top, band_bottom = p.lanes[0].bottom;
    /* Taller than the slice lane's single row. */
    TF_CHECK(band_bottom - band_top > p.lanes[1].bottom - p.lanes[1].top);
    struct tf_scene s;
    tf_scene_init(&s);
    TF_CHECK(tf_layout_plan(&f, &p, &s));
    size_t areas = 0, lines = 0, values = 0;
    double x_plot1 = p.plot.x1;
    for (size_t i = 0; i < s.n_items; i++) {
        const struct tf_item *it = &s.items[i];
        if (it->kind == TF_ITEM_PATH && it->u.path.cls &&
            strcmp(it->u.path.cls, "counter-area") == 0) {
            areas++;
            for (size_t k = 0; k < it->u.path.n; k++)
                TF_CHECK(it->u.path.ys[k] >= band_top - 1e-9 && it->u.path.ys[k] <= band_bottom + 1e-9);
        }
        if (it->kind == TF_ITEM_PATH && it->u.path.cls &&
            strcmp(it->u.path.cls, "counter-line") == 0) {
            lines++;
            /* The second stretch runs to the plot's end. */
            if (lines == 2)
                TF_CHECK_NEAR(it->u.path.xs[it->u.path.n - 1], x_plot1, 1e-9);
        }
        if (it->kind == TF_ITEM_TEXT && (strcmp(it->u.text.s, "30 B") == 0 ||
                                         strcmp(it->u.text.s, "10 B") == 0)) {
            values++;
            TF_CHECK(it->u.text.y > band_top && it->u.text.y <= band_bottom);
        }
    }
    TF_CHECK(areas == 2); /* the stop breaks the line: two stretches */
    TF_CHECK(lines == 2);
    TF_CHECK(values >= 1);
    tf_scene_fini(&s);
    tf_plan_fini(&p);
    tf_figure_fini(&f);
}
