/* test_align.c - several traces on one axis (rules/align.h): the default
 * alignment, offsets, the common window and what each trace draws; and
 * the composition of two figures (model/compose.c). */
#include "harness.h"
#include "support.h"

#include "rules/align.h"

static struct tf_align_in trace(int64_t w0, int64_t w1, int64_t event, int64_t origin, int64_t end)
{
    struct tf_align_in in;
    memset(&in, 0, sizeof in);
    in.span = (struct tf_span){w0, w1, event, origin, end};
    return in;
}

TF_TEST(align_clock_union)
{
    /* Two ranks of one job: their steps 190 apart on one clock. */
    struct tf_align_in in[2] = {trace(1000, 1600, 1000, 0, 5000), trace(1190, 1800, 1190, 10, 5100)};
    for (int i = 0; i < 2; i++) {
        in[i].has_world_size = in[i].has_rank = true;
        in[i].world_size = 2;
        in[i].rank = i;
    }
    struct tf_align_out out[2];
    struct tf_align_plan p;
    TF_CHECK(tf_align_make(TF_ALIGN_AUTO, in, 2, out, &p));
    TF_CHECK(p.align == TF_ALIGN_CLOCK && !p.apart);
    TF_CHECK(p.w0 == 1000 && p.w1 == 1800);
    TF_CHECK(out[0].offset == 0 && out[1].offset == 0);
    TF_CHECK(out[0].w0 == 1000 && out[0].w1 == 1800 && out[1].w0 == 1000 && out[1].x0 == 1000);
}

TF_TEST(align_event_longest_own_window)
{
    /* Unrelated runs (no world size, a week apart): each step at 0. */
    struct tf_align_in in[2] = {trace(5000, 5700, 5000, 4000, 9000),
                                trace(900000, 900400, 900000, 899000, 901000)};
    struct tf_align_out out[2];
    struct tf_align_plan p;
    TF_CHECK(tf_align_make(TF_ALIGN_AUTO, in, 2, out, &p));
    TF_CHECK(p.align == TF_ALIGN_EVENT);
    TF_CHECK(p.w0 == 0 && p.w1 == 700);
    TF_CHECK(out[0].offset == -5000 && out[1].offset == -900000);
    TF_CHECK(out[1].w0 == 900000 && out[1].w1 == 900400); /* its own step only */
    TF_CHECK(out[1].x0 == 900000);
}

TF_TEST(align_ranks_need_distinct_ranks)
{
    /* Two traces that both say rank 0 of 8 are no job's ranks. */
    struct tf_align_in in[2] = {trace(0, 10, 0, 0, 10), trace(100, 110, 100, 100, 110)};
    for (int i = 0; i < 2; i++) {
        in[i].has_world_size = in[i].has_rank = true;
        in[i].world_size = 8;
    }
    struct tf_align_out out[2];
    struct tf_align_plan p;
    TF_CHECK(tf_align_make(TF_ALIGN_AUTO, in, 2, out, &p));
    TF_CHECK(p.align == TF_ALIGN_EVENT);
    in[1].rank = 1;
    TF_CHECK(tf_align_make(TF_ALIGN_AUTO, in, 2, out, &p));
    TF_CHECK(p.align == TF_ALIGN_CLOCK && p.apart && p.spread == 100 && p.first == 0 && p.last == 1);
}

TF_TEST(align_base_time)
{
    /* Kineto's bases a quarter apart: the later base shifts its trace. */
    struct tf_align_in in[2] = {trace(500, 600, 500, 0, 1000), trace(400, 520, 400, 0, 900)};
    in[0].has_base = in[1].has_base = true;
    in[0].base_ns = 7000;
    in[1].base_ns = 7100;
    struct tf_align_out out[2];
    struct tf_align_plan p;
    TF_CHECK(tf_align_make(TF_ALIGN_CLOCK, in, 2, out, &p));
    TF_CHECK(out[0].offset == 0 && out[1].offset == 100);
    TF_CHECK(p.w0 == 500 && p.w1 == 620);
    TF_CHECK(out[1].w0 == 400 && out[1].w1 == 520 && out[1].x0 == 400);
}

TF_TEST(align_start_and_own_clocks)
{
    struct tf_align_in in[2] = {trace(100, 300, 100, 50, 400), trace(10, 90, 10, 0, 100)};
    in[0].own_clock = in[1].own_clock = true; /* pipelined timelines */
    struct tf_align_out out[2];
    struct tf_align_plan p;
    TF_CHECK(tf_align_make(TF_ALIGN_AUTO, in, 2, out, &p));
    TF_CHECK(p.align == TF_ALIGN_EVENT); /* their spans overlap, their clocks are their own */
    TF_CHECK(tf_align_make(TF_ALIGN_START, in, 2, out, &p));
    TF_CHECK(out[0].offset == -50 && out[1].offset == 0);
    TF_CHECK(p.w0 == 10 && p.w1 == 250);
    enum tf_align a;
    TF_CHECK(tf_align_parse("start", &a) && a == TF_ALIGN_START && !tf_align_parse("wall", &a));
}

/* A figure of one lane and a bar [x0, x1] in category key. */
static void one_bar(struct tf_figure *f, const char *label, const char *key, uint32_t rgb,
                    double x0, double x1)
{
    tf_figure_init(f);
    f->x_span = 10;
    f->axis.unit = "ms";
    tf_figure_add_lane(f, NULL, label);
    size_t c = tf_figure_category(f, key, rgb);
    f->cats[c].name = tf_figure_str(f, key);
    struct tf_bar *b = tf_figure_add_bar(f);
    b->x0 = x0;
    b->x1 = x1;
    b->cat = c;
    b->color = rgb;
    b->name = tf_figure_str(f, "k");
    tf_figure_add_legend(f, key, c);
    tf_figure_add_note(f, "a note");
}

TF_TEST(compose_two_figures)
{
    struct tf_figure a, b, all;
    one_bar(&a, "GPU 0 / stream 7", "cat/kernel", 0x112233, 1, 2);
    one_bar(&b, "GPU 1 / stream 7", "cat/kernel", 0x445566, 3, 12); /* past its axis */
    tf_figure_init(&all);
    struct tf_trace_ref r0 = {.title = "rank 0", .file = "r0.json"}, r1 = {.title = "rank 1"};
    TF_CHECK(tf_figure_append(&all, &a, &r0, 1.0, 0.0));
    TF_CHECK(tf_figure_append(&all, &b, &r1, 1000.0, 5.0)); /* ms -> us, shifted */
    TF_CHECK(all.n_traces == 2 && all.n_lanes == 2 && all.n_bars == 2);
    TF_CHECK(all.lanes[1].trace == 1 && all.traces[1].first_lane == 1);
    TF_CHECK(all.n_cats == 1 && all.n_legend == 1);
    /* b's bar: cut to b's own axis (10), then mapped; drawn in the one colour. */
    TF_CHECK_NEAR(all.bars[1].x0, 3005, 1e-9);
    TF_CHECK_NEAR(all.bars[1].x1, 10005, 1e-9);
    TF_CHECK(all.bars[1].color == 0x112233);
    TF_CHECK(all.n_notes == 2);
    TF_CHECK_STR(all.notes[1], "rank 1: a note");
    TF_CHECK_STR(all.traces[0].file, "r0.json");
    tf_figure_fini(&a);
    tf_figure_fini(&b);
    tf_figure_fini(&all);
}
