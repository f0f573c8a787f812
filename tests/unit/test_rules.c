/* The reference's figure rules, on hand-made traces. */
#include "support.h"
#include "harness.h"

static struct tf_event ev(enum tf_in_lane lane, enum tf_ev_name name, long long cand,
                          double start, double dur)
{
    struct tf_event e = {start, dur, cand, 0, (unsigned char)lane, (unsigned char)name, false};
    return e;
}

static void push(struct tf_timeline *t, struct tf_event e)
{
    TF_CHECK(tf_timeline_push(t, &e));
}

/* A regular pipeline: candidate c reads on I/O, then computes on GPU. */
static void pipeline(struct tf_timeline *t, int n, bool v2)
{
    tf_timeline_init(t);
    t->version = v2 ? 2 : 1;
    for (int c = 0; c < n; c++) {
        double t0 = 300.0 * c;
        if (v2)
            push(t, ev(TF_IN_IO, TF_EV_GPU_BUFFER_WAIT, c, t0, 20.0));
        push(t, ev(TF_IN_IO, TF_EV_HDF5_READ, c, t0 + 1.0, 250.0));
        push(t, ev(TF_IN_GPU, TF_EV_COMPUTE, c, t0 + 251.5, 350.0));
        if (v2 && c > 0)
            push(t, ev(TF_IN_MAIN, TF_EV_WAIT_FOR_IO, c, t0 + 5.0, 246.0));
    }
}

static const struct tf_bar *find(const struct tf_figure *f, const char *lane, long long c)
{
    for (size_t i = 0; i < f->n_bars; i++)
        if (strcmp(f->lanes[f->bars[i].lane].key, lane) == 0 && tf_test_cand(&f->bars[i]) == c)
            return &f->bars[i];
    return NULL;
}

static bool build(const struct tf_timeline *t, long long start, struct tf_figure *f)
{
    struct tf_opts o;
    memset(&o, 0, sizeof o);
    o.start_candidate.set = start >= 0;
    o.start_candidate.v = start;
    struct tf_diag d;
    tf_diag_init(&d);
    tf_figure_init(f);
    return tf_test_timeline(t, NULL, &o, f, &d);
}

TF_TEST(rules_io_merge_starts_after_buffer_wait)
{
    struct tf_timeline t;
    pipeline(&t, 10, true);
    struct tf_figure f;
    TF_CHECK(build(&t, 3, &f));
    const struct tf_bar *b = find(&f, "io", 4);
    TF_CHECK(b != NULL);
    if (b) {
        TF_CHECK_NEAR(b->start_ms, 1200.0 + 20.0, 1e-9); /* wait end, not read start */
        TF_CHECK_NEAR(b->dur_ms, 251.0 - 20.0, 1e-9);
        TF_CHECK_STR(b->name, "hdf5_io");
    }
    tf_figure_fini(&f);
    tf_timeline_fini(&t);
}

TF_TEST(rules_window_anchors_and_padding)
{
    struct tf_timeline t;
    pipeline(&t, 10, false);
    struct tf_figure f;
    TF_CHECK(build(&t, 3, &f));
    /* left: min(GPU 3 start, I/O 4 start); right: latest end of 3..6 + 3 %. */
    double left = 300.0 * 3 + 251.5, io4 = 1201.0;
    if (io4 < left)
        left = io4;
    double right = 300.0 * 6 + 251.5 + 350.0;
    TF_CHECK_NEAR(f.window_start, left, 1e-9);
    TF_CHECK_NEAR(f.window_end, right + 0.03 * (right - left), 1e-9);
    tf_figure_fini(&f);
    tf_timeline_fini(&t);
}

TF_TEST(rules_lanes_from_buffer_or_parity)
{
    struct tf_timeline t;
    pipeline(&t, 8, false);
    t.events[1].has_buffer = true; /* candidate 0's compute on stream 2 */
    t.events[1].buffer = 2;
    struct tf_figure f;
    TF_CHECK(build(&t, 0, &f));
    TF_CHECK(f.n_lanes == 4);
    TF_CHECK_STR(f.lanes[0].key, "io");
    TF_CHECK_STR(f.lanes[1].key, "gpu0");
    TF_CHECK_STR(f.lanes[2].key, "gpu1");
    TF_CHECK_STR(f.lanes[3].key, "gpu2");
    TF_CHECK_STR(f.lanes[3].label, "GPU Stream 2");
    TF_CHECK(find(&f, "gpu2", 0) != NULL);
    TF_CHECK(find(&f, "gpu1", 1) != NULL);
    tf_figure_fini(&f);
    tf_timeline_fini(&t);
}

TF_TEST(rules_clip_flags_and_labels)
{
    struct tf_timeline t;
    pipeline(&t, 12, false);
    struct tf_figure f;
    TF_CHECK(build(&t, 4, &f));
    const struct tf_bar *prev = find(&f, "gpu1", 3); /* x-1: cut at the left edge */
    TF_CHECK(prev && prev->clip_left && !prev->clip_right);
    TF_CHECK(prev && prev->label); /* the x-1 GPU bar is labelled only when clipped */
    TF_CHECK(prev && prev->x0 == 0.0);
    const struct tf_bar *last_io = find(&f, "io", 9); /* x+5 I/O: cut on the right */
    TF_CHECK(last_io && last_io->clip_right && !last_io->label);
    const struct tf_bar *mid = find(&f, "gpu0", 4);
    TF_CHECK(mid && !mid->clip_left && !mid->clip_right && mid->label);
    TF_CHECK(mid && strcmp(mid->label, "4") == 0 && mid->label_color == TF_COLOR_WHITE);
    const struct tf_bar *io = find(&f, "io", 5);
    TF_CHECK(io && io->label_color == TF_COLOR_BLACK && io->color == TF_COLOR_IO);
    tf_figure_fini(&f);
    tf_timeline_fini(&t);
}

TF_TEST(rules_short_bars_have_no_label)
{
    struct tf_timeline t;
    pipeline(&t, 8, false);
    push(&t, ev(TF_IN_MAIN, TF_EV_TRSM_HOST, 4, 1460.0, 39.0)); /* < 40 ms */
    struct tf_figure f;
    TF_CHECK(build(&t, 3, &f));
    const struct tf_bar *b = find(&f, "main", 4);
    TF_CHECK(b && !b->label && b->color == TF_COLOR_TRSM_HOST);
    tf_figure_fini(&f);
    tf_timeline_fini(&t);
}

TF_TEST(rules_dispatch_gap_synthesized_once)
{
    struct tf_timeline t;
    tf_timeline_init(&t);
    for (int c = 0; c < 8; c++) {
        double t0 = 400.0 * c;
        push(&t, ev(TF_IN_IO, TF_EV_HDF5_READ, c, t0, 200.0));
        /* GPU starts 30 ms after the read: a dispatch gap, except for 5,
         * whose gap a main-lane bar already covers. */
        push(&t, ev(TF_IN_GPU, TF_EV_COMPUTE, c, t0 + 230.0, 150.0));
    }
    push(&t, ev(TF_IN_MAIN, TF_EV_TRSM_HOST, 5, 2200.0, 30.0));
    struct tf_figure f;
    TF_CHECK(build(&t, 3, &f));
    int n_await = 0;
    for (size_t i = 0; i < f.n_bars; i++)
        if (strcmp(f.bars[i].name, "await_dispatch") == 0) {
            n_await++;
            TF_CHECK(tf_test_cand(&f.bars[i]) != 5);
            TF_CHECK_NEAR(f.bars[i].dur_ms, 30.0, 1e-9);
            TF_CHECK(f.bars[i].color == TF_COLOR_AWAIT_DISPATCH);
        }
    /* 4 and 6 are drawn; 3's gap ends where the window starts, 7's lies
     * past its end. */
    TF_CHECK(n_await == 2);
    /* Legend: main names seen, in the reference's order, then the two fixed. */
    TF_CHECK(f.n_legend == 4);
    TF_CHECK_STR(f.legend[0].label, "TRSM (host)");
    TF_CHECK_STR(f.legend[1].label, "Ready \xE2\x86\x92 launch");
    TF_CHECK_STR(f.legend[2].label, "HDF5 read");
    TF_CHECK_STR(f.legend[3].label, "GPU compute");
    tf_figure_fini(&f);
    tf_timeline_fini(&t);
}

TF_TEST(rules_num_candidates_widens_window)
{
    struct tf_timeline t;
    pipeline(&t, 20, false);
    struct tf_figure f3, f6;
    TF_CHECK(build(&t, 2, &f3));
    struct tf_opts o;
    memset(&o, 0, sizeof o);
    o.start_candidate = (struct tf_opt_int){true, 2};
    o.num_candidates = (struct tf_opt_int){true, 6};
    struct tf_diag d;
    tf_diag_init(&d);
    tf_figure_init(&f6);
    TF_CHECK(tf_test_timeline(&t, NULL, &o, &f6, &d));
    TF_CHECK_NEAR(f3.window_start, f6.window_start, 1e-9);
    TF_CHECK(f6.window_end > f3.window_end + 800.0);
    TF_CHECK(find(&f6, "gpu1", 9) != NULL);  /* x+N+1 */
    TF_CHECK(find(&f3, "gpu1", 9) == NULL);
    tf_figure_fini(&f3);
    tf_figure_fini(&f6);
    tf_timeline_fini(&t);
}

TF_TEST(rules_start_candidate_fallbacks)
{
    struct tf_timeline t;
    pipeline(&t, 12, false);
    struct tf_figure f;
    t.focus_candidate = (struct tf_opt_int){true, 6};
    TF_CHECK(build(&t, -1, &f));
    TF_CHECK(tf_test_start_candidate(&f) == 6);
    tf_figure_fini(&f);
    t.timeline_record_from = (struct tf_opt_int){true, 5};
    TF_CHECK(build(&t, -1, &f));
    TF_CHECK(tf_test_start_candidate(&f) == 5);
    tf_figure_fini(&f);
    t.start_candidate = (struct tf_opt_int){true, 4};
    TF_CHECK(build(&t, -1, &f));
    TF_CHECK(tf_test_start_candidate(&f) == 4);
    tf_figure_fini(&f);
    TF_CHECK(build(&t, 2, &f)); /* the command line wins */
    TF_CHECK(tf_test_start_candidate(&f) == 2);
    tf_figure_fini(&f);
    tf_timeline_fini(&t);
}

TF_TEST(rules_no_events_is_an_error)
{
    struct tf_timeline t;
    pipeline(&t, 5, false);
    struct tf_figure f;
    TF_CHECK(!build(&t, 40, &f));
    tf_figure_fini(&f);
    tf_timeline_fini(&t);
}

TF_TEST(rules_zero_and_negative_durations_anchor_but_do_not_draw)
{
    struct tf_timeline t;
    pipeline(&t, 8, false);
    push(&t, ev(TF_IN_GPU, TF_EV_COMPUTE, 4, 1300.0, -5.0));
    push(&t, ev(TF_IN_GPU, TF_EV_COMPUTE, 5, 1600.0, 0.0));
    struct tf_figure f;
    TF_CHECK(build(&t, 3, &f));
    for (size_t i = 0; i < f.n_bars; i++)
        TF_CHECK(f.bars[i].x1 > f.bars[i].x0);
    tf_figure_fini(&f);
    tf_timeline_fini(&t);
}

static void bd_add(struct tf_breakdown_in *b, const char *key, double ms)
{
    static char keys[32][32];
    snprintf(keys[b->n_ops], sizeof keys[0], "%s", key);
    b->ops[b->n_ops].key = keys[b->n_ops];
    b->ops[b->n_ops].ms = ms;
    b->n_ops++;
}

TF_TEST(breakdown_groups_fold_and_minimum_width)
{
    struct tf_gpu_op ops[16];
    struct tf_breakdown_in b = {(char *)"5", true, ops, 0};
    bd_add(&b, "h2d_si", 10.0);
    bd_add(&b, "trsm", 85.0);
    bd_add(&b, "schur_gemm", 0.3);
    bd_add(&b, "chol", 0.2);
    bd_add(&b, "mystery_kernel", 4.5); /* unknown: folded into Preprocess */
    struct tf_figure f;
    tf_figure_init(&f);
    tf_breakdown_panel(&b, 1.0, &f);
    TF_CHECK(f.has_panel);
    TF_CHECK(f.panel.n_slices == 3);
    TF_CHECK_STR(f.panel.title, "Candidate 5");
    TF_CHECK_STR(f.panel.slices[0].label, "Preprocess");
    TF_CHECK_NEAR(f.panel.slices[0].pct, 14.5, 1e-9);
    TF_CHECK_STR(f.panel.slices[0].text, "14%");
    TF_CHECK(f.panel.slices[0].text_color == TF_COLOR_BLACK);
    TF_CHECK_STR(f.panel.slices[1].text, "85%");
    TF_CHECK(f.panel.slices[1].text_color == TF_COLOR_WHITE);
    TF_CHECK_NEAR(f.panel.slices[2].pct, 0.5, 1e-9);
    TF_CHECK(!f.panel.slices[2].text);
    /* 0.5 % is drawn 1.2 % wide, then all widths renormalised to 100. */
    double total = 14.5 + 85.0 + 1.2;
    TF_CHECK_NEAR(f.panel.slices[2].width_pct, 100.0 * 1.2 / total, 1e-9);
    TF_CHECK_NEAR(f.panel.slices[0].width_pct + f.panel.slices[1].width_pct +
                      f.panel.slices[2].width_pct,
                  100.0, 1e-9);
    tf_figure_fini(&f);
}

TF_TEST(breakdown_hidden_when_total_not_positive)
{
    struct tf_gpu_op ops[4];
    struct tf_breakdown_in b = {NULL, false, ops, 0};
    bd_add(&b, "trsm", 0.0);
    bd_add(&b, "other", 0.0);
    struct tf_figure f;
    tf_figure_init(&f);
    tf_breakdown_panel(&b, 0.0, &f);
    TF_CHECK(!f.has_panel);
    b.n_ops = 0;
    bd_add(&b, "trsm", 2.0);
    tf_breakdown_panel(&b, 0.0, &f);
    TF_CHECK(f.has_panel);
    TF_CHECK_STR(f.panel.title, "Candidate ?");
    tf_figure_fini(&f);
}

TF_TEST(ticks_match_matplotlib)
{
    double t[TF_TICKS_MAX];
    size_t n = tf_nice_ticks(0, 1165.767, 9, t, TF_TICKS_MAX);
    TF_CHECK(n == 6);
    TF_CHECK_NEAR(t[0], 0, 1e-9);
    TF_CHECK_NEAR(t[5], 1000, 1e-9);
    n = tf_nice_ticks(0, 914.42, 9, t, TF_TICKS_MAX);
    TF_CHECK(n == 5);
    TF_CHECK_NEAR(t[4], 800, 1e-9);
    n = tf_nice_ticks(0, 3.2, 9, t, TF_TICKS_MAX);
    TF_CHECK(n == 7); /* step 0.5: the first step >= 3.2 / 9 */
    TF_CHECK_NEAR(t[1], 0.5, 1e-9);
    TF_CHECK(tf_nice_ticks(0, 0, 9, t, TF_TICKS_MAX) == 0);
}

TF_TEST(bar_outline_zigzag_clamped_to_width)
{
    struct tf_figure f;
    tf_figure_init(&f);
    f.zigzag_amp = 14.0;
    struct tf_bar b;
    memset(&b, 0, sizeof b);
    b.x0 = 0;
    b.x1 = 20;
    b.clip_right = true;
    double xs[TF_BAR_OUTLINE_MAX], ys[TF_BAR_OUTLINE_MAX];
    size_t n = tf_bar_outline(&f, &b, 0, 1, xs, ys);
    TF_CHECK(n == 2 + 8 + 1 + 1);
    TF_CHECK_NEAR(xs[2], 20 - 7.0, 1e-12); /* 35 % of a 20 ms bar */
    TF_CHECK_NEAR(ys[9], 1.0, 1e-12);
    b.clip_left = true;
    TF_CHECK(tf_bar_outline(&f, &b, 0, 1, xs, ys) == 19);
    tf_figure_fini(&f);
}
