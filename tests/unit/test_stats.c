/* The overlap statistics: the interval algebra on hand-made sets, the
 * figure's stats from hand-made lanes and groups, and the derived figures
 * of golden inputs built through their modes (expected values worked out
 * by hand in the comments). */
#include "support.h"
#include "harness.h"
#include "rules/stats.h"

/* A set from pairs lo, hi, ... (n pairs), normalized. */
static void set_of(struct tf_ivset *s, const int64_t *v, size_t n)
{
    tf_ivset_init(s);
    for (size_t i = 0; i < n; i++)
        TF_CHECK(tf_ivset_add(s, v[2 * i], v[2 * i + 1]));
    tf_ivset_normalize(s);
}

static bool is(const struct tf_ivset *s, const int64_t *v, size_t n)
{
    if (s->n != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (s->v[i].lo != v[2 * i] || s->v[i].hi != v[2 * i + 1])
            return false;
    return true;
}

#define PAIRS(a) (sizeof(a) / sizeof(a)[0] / 2)

TF_TEST(stats_nested_slices_count_once)
{
    /* [0,100) holds [10,20) and [30,90), which holds [40,50): one interval. */
    static const int64_t in[] = {0, 100, 10, 20, 30, 90, 40, 50};
    static const int64_t out[] = {0, 100};
    struct tf_ivset s;
    set_of(&s, in, PAIRS(in));
    TF_CHECK(is(&s, out, PAIRS(out)));
    TF_CHECK(tf_ivset_len(&s) == 100);
    tf_ivset_fini(&s);
}

TF_TEST(stats_touching_and_overlapping_merge)
{
    /* [0,5) touches [5,10); [20,26) overlaps [24,30); [40,41) stands alone:
     * 10 + 10 + 1 = 21. */
    static const int64_t in[] = {24, 30, 5, 10, 40, 41, 0, 5, 20, 26};
    static const int64_t out[] = {0, 10, 20, 30, 40, 41};
    struct tf_ivset s;
    set_of(&s, in, PAIRS(in));
    TF_CHECK(is(&s, out, PAIRS(out)));
    TF_CHECK(tf_ivset_len(&s) == 21);
    tf_ivset_fini(&s);
}

TF_TEST(stats_zero_and_negative_length_are_empty)
{
    /* [5,5) and [9,3) cover nothing; only [1,2) stays. */
    static const int64_t in[] = {5, 5, 9, 3, 1, 2};
    static const int64_t out[] = {1, 2};
    struct tf_ivset s;
    set_of(&s, in, PAIRS(in));
    TF_CHECK(is(&s, out, PAIRS(out)));
    TF_CHECK(tf_ivset_len(&s) == 1);
    tf_ivset_clear(&s);
    TF_CHECK(tf_ivset_len(&s) == 0);
    tf_ivset_fini(&s);
}

TF_TEST(stats_clip_to_window)
{
    /* {[0,10), [20,30), [40,50)} clipped to [5,25): {[5,10), [20,25)}: 10. */
    static const int64_t in[] = {0, 10, 20, 30, 40, 50};
    static const int64_t out[] = {5, 10, 20, 25};
    struct tf_ivset s;
    set_of(&s, in, PAIRS(in));
    tf_ivset_clip(&s, 5, 25);
    TF_CHECK(is(&s, out, PAIRS(out)));
    TF_CHECK(tf_ivset_len(&s) == 10);
    /* A window that misses every interval leaves nothing. */
    tf_ivset_clip(&s, 100, 200);
    TF_CHECK(s.n == 0);
    tf_ivset_fini(&s);
}

TF_TEST(stats_overlap_and_union)
{
    /* a = {[0,10), [20,30)}, b = {[5,25), [30,35)}:
     * a & b = [5,10) + [20,25) = 10 (touching at 30 adds nothing);
     * a | b = [0,35) = 35. */
    static const int64_t av[] = {0, 10, 20, 30};
    static const int64_t bv[] = {5, 25, 30, 35};
    static const int64_t uv[] = {0, 35};
    struct tf_ivset a, b, u;
    set_of(&a, av, PAIRS(av));
    set_of(&b, bv, PAIRS(bv));
    tf_ivset_init(&u);
    TF_CHECK(tf_ivset_overlap(&a, &b) == 10);
    TF_CHECK(tf_ivset_overlap(&b, &a) == 10);
    TF_CHECK(tf_ivset_overlap(&a, &a) == tf_ivset_len(&a));
    TF_CHECK(tf_ivset_union(&a, &b, &u));
    TF_CHECK(is(&u, uv, PAIRS(uv)));
    /* With an empty set: overlap 0, union the other set. */
    struct tf_ivset e;
    tf_ivset_init(&e);
    TF_CHECK(tf_ivset_overlap(&a, &e) == 0);
    TF_CHECK(tf_ivset_union(&e, &a, &u));
    TF_CHECK(is(&u, av, PAIRS(av)));
    tf_ivset_fini(&a);
    tf_ivset_fini(&b);
    tf_ivset_fini(&u);
    tf_ivset_fini(&e);
}

TF_TEST(stats_dense_span_keeps_exact_union)
{
    /* 100 slices of 2 ns every 5 ns (as a flame chart merges into one
     * dense span from 0 to 497): busy is 200, not the span's 497.  Two of
     * them nest inside others and one duplicates another: still 200. */
    struct tf_ivset s;
    tf_ivset_init(&s);
    for (int64_t i = 99; i >= 0; i--)
        TF_CHECK(tf_ivset_add(&s, 5 * i, 5 * i + 2));
    TF_CHECK(tf_ivset_add(&s, 10, 11));
    TF_CHECK(tf_ivset_add(&s, 21, 22));
    TF_CHECK(tf_ivset_add(&s, 30, 32));
    tf_ivset_normalize(&s);
    TF_CHECK(s.n == 100);
    TF_CHECK(tf_ivset_len(&s) == 200);
    TF_CHECK(s.v[0].lo == 0 && s.v[99].hi == 497);
    tf_ivset_fini(&s);
}

TF_TEST(stats_clock_ns_and_coarse)
{
    struct tf_stats_clock c;
    tf_stats_clock_init(&c, 1165.767);
    TF_CHECK(c.ticks_per_ms == 1e6);
    TF_CHECK(c.lo == 0 && c.hi == 1165767000);
    TF_CHECK(tf_stats_ticks(&c, 0.0000004) == 0);  /* 0.4 ns */
    TF_CHECK(tf_stats_ticks(&c, 0.0000006) == 1);  /* 0.6 ns */
    TF_CHECK(tf_stats_ticks(&c, -0.0000006) == -1);
    TF_CHECK(tf_stats_ticks(&c, NAN) == 0);
    TF_CHECK_NEAR(tf_stats_ms(&c, 1500000), 1.5, 0);
    /* 1e17 ms (the extreme golden's window) in ns is 1e23 ticks, over 2^61
     * (2.3e18); the finest clock that fits has 10 ticks to the ms:
     * 1e17 * 10 = 1e18, where 100 would give 1e19. */
    tf_stats_clock_init(&c, 1e17);
    TF_CHECK_NEAR(c.ticks_per_ms, 10.0, 1e-9);
    TF_CHECK(c.hi == 1000000000000000000LL);
    /* Values past the range clamp instead of overflowing. */
    TF_CHECK(tf_stats_ticks(&c, 1e300) == 2305843009213693952LL);
    TF_CHECK(tf_stats_ticks(&c, -1e300) == -2305843009213693952LL);
}

/* A figure of four lanes (labels as the Chrome mode might give them). */
static void four_lanes(struct tf_figure *f)
{
    tf_figure_init(f);
    tf_test_lane(f, NULL, "python / MainThread");
    tf_test_lane(f, NULL, "python / pt_autograd_0");
    tf_test_lane(f, NULL, "GPU 0 / stream 7");
    tf_test_lane(f, NULL, "GPU 0 / stream 20");
}

TF_TEST(stats_fill_lanes_groups_matrix)
{
    /* Window [0, 100) ns.
     *   lane 0: [0,40)            busy 40
     *   lane 1: [30,50)           busy 20
     *   lane 2: [10,20) [60,80)   busy 30
     *   lane 3: [15,30) [70,90)   busy 35
     * groups: cpu = {0,1}: [0,50) = 50; gpu = {2,3}: [10,30) [60,90) = 50;
     * --group streams="GPU*" (lanes 2, 3) = gpu; --group none="nothing*"
     * (no lane) = 0.
     * overlap(cpu, gpu) = [10,30) = 20; with none: 0. */
    struct tf_figure f;
    four_lanes(&f);
    static const int64_t l0[] = {0, 40}, l1[] = {30, 50}, l2[] = {10, 20, 60, 80},
                         l3[] = {15, 30, 70, 90};
    struct tf_ivset lanes[4];
    set_of(&lanes[0], l0, PAIRS(l0));
    set_of(&lanes[1], l1, PAIRS(l1));
    set_of(&lanes[2], l2, PAIRS(l2));
    set_of(&lanes[3], l3, PAIRS(l3));
    struct tf_stats_clock c = {1e6, 0, 100};
    static const size_t cpu[] = {0, 1}, gpu[] = {2, 3};
    struct tf_stats_group_in groups[] = {{"cpu", cpu, 2}, {"gpu", gpu, 2}};
    static const char *const streams_pat[] = {"GPU*"}, *const none_pat[] = {"nothing*"};
    struct tf_group_opt user[] = {{"streams", streams_pat, 1}, {"none", none_pat, 1}};
    struct tf_opts o;
    memset(&o, 0, sizeof o);
    o.groups = user;
    o.n_groups = 2;
    TF_CHECK(tf_stats_fill(&f, &c, lanes, groups, 2, &o));
    const struct tf_stats *s = &f.stats;
    TF_CHECK(s->on);
    TF_CHECK_NEAR(s->window_ms, 100e-6, 1e-15);
    TF_CHECK_NEAR(s->lane_busy_ms[0], 40e-6, 1e-15);
    TF_CHECK_NEAR(s->lane_busy_ms[1], 20e-6, 1e-15);
    TF_CHECK_NEAR(s->lane_busy_ms[2], 30e-6, 1e-15);
    TF_CHECK_NEAR(s->lane_busy_ms[3], 35e-6, 1e-15);
    TF_CHECK(s->n_groups == 4);
    if (s->n_groups == 4) {
        TF_CHECK_STR(s->groups[0].label, "cpu");
        TF_CHECK_STR(s->groups[2].label, "streams");
        TF_CHECK(s->groups[2].n_lanes == 2 && s->groups[2].lanes[0] == 2 &&
                 s->groups[2].lanes[1] == 3);
        TF_CHECK(s->groups[3].n_lanes == 0);
        TF_CHECK_NEAR(s->groups[0].busy_ms, 50e-6, 1e-15);
        TF_CHECK_NEAR(s->groups[1].busy_ms, 50e-6, 1e-15);
        TF_CHECK_NEAR(s->groups[3].busy_ms, 0, 0);
        /* The matrix: symmetric, busy on the diagonal. */
        TF_CHECK_NEAR(s->overlap_ms[0 * 4 + 1], 20e-6, 1e-15);
        TF_CHECK_NEAR(s->overlap_ms[1 * 4 + 0], 20e-6, 1e-15);
        TF_CHECK_NEAR(s->overlap_ms[1 * 4 + 2], 50e-6, 1e-15);
        TF_CHECK_NEAR(s->overlap_ms[0 * 4 + 0], 50e-6, 1e-15);
        TF_CHECK_NEAR(s->overlap_ms[3 * 4 + 0], 0, 0);
    }
    for (int i = 0; i < 4; i++)
        tf_ivset_fini(&lanes[i]);
    tf_figure_fini(&f);
}

TF_TEST(stats_pipelined_and_candidates)
{
    /* Window [0, 1000) ns; io = [100,400) [500,700); gpu = [0,300) [600,900).
     * io & gpu = [100,300) + [600,700) = 300 of io's 500: 60 % hidden;
     * GPU idle = 1000 - 600 = 400.  Candidate 7's I/O [500,700): 200, of
     * which [500,600) = 100 uncovered. */
    struct tf_figure f;
    tf_figure_init(&f);
    static const int64_t iov[] = {100, 400, 500, 700}, gv[] = {0, 300, 600, 900},
                         c7[] = {500, 700};
    struct tf_ivset io, gpu, cand;
    set_of(&io, iov, PAIRS(iov));
    set_of(&gpu, gv, PAIRS(gv));
    set_of(&cand, c7, PAIRS(c7));
    struct tf_stats_clock c = {1e6, 0, 1000};
    f.stats.window_ms = 1000e-6;
    tf_stats_pipelined(&f, &c, &io, &gpu);
    TF_CHECK(f.stats.pipelined && f.stats.has_io_hidden);
    TF_CHECK_NEAR(f.stats.io_hidden_pct, 60.0, 1e-12);
    TF_CHECK_NEAR(f.stats.gpu_idle_ms, 400e-6, 1e-15);
    TF_CHECK(tf_stats_add_candidate(&f, &c, 7, &cand, &gpu));
    TF_CHECK(f.stats.n_candidates == 1);
    TF_CHECK(f.stats.candidates[0].candidate == 7);
    TF_CHECK_NEAR(f.stats.candidates[0].io_ms, 200e-6, 1e-15);
    TF_CHECK_NEAR(f.stats.candidates[0].uncovered_io_ms, 100e-6, 1e-15);
    TF_CHECK(tf_stats_summary(&f));
    TF_CHECK_STR(f.stats.summary, "I/O hidden 60 %, GPU idle 40 %");
    /* No I/O at all: io_hidden is null, the summary says only GPU idle. */
    tf_ivset_clear(&io);
    tf_stats_pipelined(&f, &c, &io, &gpu);
    TF_CHECK(!f.stats.has_io_hidden);
    TF_CHECK(tf_stats_summary(&f));
    TF_CHECK_STR(f.stats.summary, "GPU idle 40 %");
    tf_ivset_fini(&io);
    tf_ivset_fini(&gpu);
    tf_ivset_fini(&cand);
    tf_figure_fini(&f);
}

TF_TEST(stats_kernel_classes)
{
    TF_CHECK(tf_kernel_classify("ncclKernel_AllReduce_RING_LL_Sum_float", "kernel") ==
             TF_KERNEL_COMM);
    TF_CHECK(tf_kernel_classify("ncclDevKernel_AllGather_RING_LL", "kernel") ==
             TF_KERNEL_COMM);
    TF_CHECK(tf_kernel_classify("void foo<ncclKernel>(int)", "kernel") == TF_KERNEL_COMM);
    TF_CHECK(tf_kernel_classify("hccl_allreduce", "kernel") == TF_KERNEL_COMM);
    TF_CHECK(tf_kernel_classify("hipKernel", "kernel") == TF_KERNEL_COMM);
    TF_CHECK(tf_kernel_classify("Memcpy HtoD (Pageable -> Device)", "gpu_memcpy") ==
             TF_KERNEL_MEMORY);
    TF_CHECK(tf_kernel_classify("Memset (Device)", "gpu_memset") == TF_KERNEL_MEMORY);
    TF_CHECK(tf_kernel_classify("dma_request", "mtia_ccp_events") == TF_KERNEL_MEMORY);
    TF_CHECK(tf_kernel_classify("Context Sync", "cuda_sync") == TF_KERNEL_NONE);
    TF_CHECK(tf_kernel_classify("Stream Wait Event", "cuda_sync") == TF_KERNEL_NONE);
    TF_CHECK(tf_kernel_classify("Device Sync", NULL) == TF_KERNEL_NONE);
    TF_CHECK(tf_kernel_classify("ampere_sgemm_32x128_tn", "kernel") == TF_KERNEL_COMPUTE);
    TF_CHECK(tf_kernel_classify("", NULL) == TF_KERNEL_COMPUTE);
}

TF_TEST(kernels_comm_is_the_breakdowns_class)
{
    /* The Chrome mode colours "NCCL kernel" what the breakdown counts as
     * communication, and nothing else. */
    const char *names[] = {"ncclKernel_AllReduce", "void foo<ncclKernel>(int)", "hccl_allreduce",
                           "rcclKernel_x", "void f() nccl_x", "ampere_sgemm", ""};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        TF_CHECK(tf_kernel_is_comm(names[i]) ==
                 (tf_kernel_classify(names[i], "kernel") == TF_KERNEL_COMM));
    TF_CHECK(tf_kernel_is_comm("hccl_allreduce"));
    TF_CHECK(!tf_kernel_is_comm("rcclKernel_x"));
}

TF_TEST(stats_gpu_breakdown_hand_case)
{
    /* compute [0,10) [5,20) on one stream, communication [15,30) on
     * another, a memcpy [40,45):
     *   all     = [0,30) [40,45): span 0..45 = 45, busy 35, idle 10
     *   compute = [0,20) = 20; non-compute = 45 - 20 - 10 = 15
     *   comm    = [15,30) = 15; comm & compute = [15,20) = 5: 33.33 %. */
    struct tf_figure f;
    tf_figure_init(&f);
    static const int64_t allv[] = {0, 10, 5, 20, 15, 30, 40, 45}, compv[] = {0, 10, 5, 20},
                         commv[] = {15, 30};
    struct tf_ivset all, comp, comm;
    set_of(&all, allv, PAIRS(allv));
    set_of(&comp, compv, PAIRS(compv));
    set_of(&comm, commv, PAIRS(commv));
    struct tf_stats_clock c = {1e6, 0, 100};
    tf_stats_gpu_breakdown(&f, &c, &all, &comp, &comm);
    const struct tf_gpu_breakdown *g = &f.stats.gpu;
    TF_CHECK(f.stats.has_gpu && g->has_comm);
    TF_CHECK_NEAR(g->kernel_span_ms, 45e-6, 1e-15);
    TF_CHECK_NEAR(g->idle_ms, 10e-6, 1e-15);
    TF_CHECK_NEAR(g->compute_ms, 20e-6, 1e-15);
    TF_CHECK_NEAR(g->non_compute_ms, 15e-6, 1e-15);
    TF_CHECK_NEAR(g->comm_comp_overlap_pct, 100.0 / 3.0, 1e-12);
    tf_ivset_clear(&comm);
    tf_stats_gpu_breakdown(&f, &c, &all, &comp, &comm);
    TF_CHECK(!f.stats.gpu.has_comm);
    tf_ivset_fini(&all);
    tf_ivset_fini(&comp);
    tf_ivset_fini(&comm);
    tf_figure_fini(&f);
}

/* --- the golden inputs through their modes -------------------------------------- */

static bool golden(const char *path, const struct tf_mode *mode, struct tf_figure *f)
{
    struct tf_opts o;
    memset(&o, 0, sizeof o);
    struct tf_trace t;
    tf_trace_init(&t);
    struct tf_diag d;
    tf_diag_init(&d);
    tf_figure_init(f);
    bool ok = tf_test_load(path, mode, &o, &t, &d);
    struct tf_mode_input in = {&t, NULL, path, NULL};
    ok = ok && mode->build(&in, &o, f, &d);
    if (mode->release)
        mode->release(&t);
    tf_trace_fini(&t);
    return ok;
}

TF_TEST(stats_golden_sample_v1)
{
    /* tests/golden/sample_v1: start candidate 3, times to 0.1 us (ms):
     *   window  440.2985 (GPU 3 start) .. 1328.0857 (GPU 6 end) + 3 % of
     *           887.7872 = 1354.7193: 914.4208 ms
     *   I/O     4 [441.0995, 658.0827] 216.9833   5 [659.1221, 884.8558] 225.7337
     *           6 [886.0267, 1136.9797] 250.9530  7 [1139.1057, cut 1354.7193] 215.6136
     *           busy 909.2836
     *   GPU     gpu0: 2 [cut 440.2985, 507.1425], 4 [658.1215, 868.1004],
     *                 6 [1136.9921, 1328.0857];
     *           gpu1: 3 [440.2985, 684.8481], 5 [884.8648, 1047.0302]
     *           union [440.2985, 868.1004] 427.8019 + 162.1654 + 191.0936 = 781.0609
     *   I/O under GPU: 4 all 216.9833; 5 868.1004 - 659.1221 = 208.9783;
     *           6 1047.0302 - 886.0267 = 161.0035; 7 1328.0857 - 1139.1057 = 188.98
     *           total 775.9451; uncovered 0, 16.7554, 89.9495, 26.6336
     *   I/O hidden 775.9451 / 909.2836 = 85.336 %; GPU idle 914.4208 - 781.0609
     *           = 133.3599 ms (14.58 %). */
    struct tf_figure f;
    TF_CHECK(golden("tests/golden/sample_v1/trace.json", &tf_mode_timeline, &f));
    const struct tf_stats *s = &f.stats;
    TF_CHECK(s->on && s->pipelined && s->has_io_hidden && !s->has_gpu);
    TF_CHECK_NEAR(s->window_ms, 914.4208, 1e-3);
    TF_CHECK(s->n_groups == 2); /* io, gpu: v1 has no main lane */
    if (s->n_groups == 2) {
        TF_CHECK_STR(s->groups[0].label, "io");
        TF_CHECK_STR(s->groups[1].label, "gpu");
        TF_CHECK_NEAR(s->groups[0].busy_ms, 909.2836, 1e-3);
        TF_CHECK_NEAR(s->groups[1].busy_ms, 781.0609, 1e-3);
        TF_CHECK_NEAR(s->overlap_ms[1], 775.9451, 1e-3);
    }
    TF_CHECK_NEAR(s->io_hidden_pct, 85.336, 1e-3);
    TF_CHECK_NEAR(s->gpu_idle_ms, 133.3599, 1e-3);
    static const double uncovered[4] = {0, 16.7554, 89.9495, 26.6336};
    TF_CHECK(s->n_candidates == 4);
    for (size_t i = 0; i < s->n_candidates && i < 4; i++) {
        TF_CHECK(s->candidates[i].candidate == (long long)(4 + i));
        TF_CHECK_NEAR(s->candidates[i].uncovered_io_ms, uncovered[i], 1e-3);
    }
    TF_CHECK_STR(s->summary, "I/O hidden 85 %, GPU idle 15 %");
    tf_figure_fini(&f);
}

TF_TEST(stats_golden_pytorch_sample)
{
    /* tests/golden/pytorch_sample, times in us after 7260215000:
     *   window  Candidate_Eval_0 [101.571, 1175.934], padded by 2 % / 5 % of
     *           1074.363: [80.08374, 1229.65215], 1149.56841 us
     *   I/O     IO_Wait [216.203, 227.252] 11.049, Lustre [242.515, cut
     *           1229.65215] 987.13715: busy 998.18615
     *   GPU     H2D [236.099, 382.430], Math [386.291, 1150.224], H2D
     *           [259.828, cut 1229.65215]: union [236.099, 1229.65215]
     *           993.55315
     *   I/O under GPU: the Lustre read, all of it: 987.13715
     *   I/O hidden 987.13715 / 998.18615 = 98.893 %; GPU idle
     *           1149.56841 - 993.55315 = 156.01526 us (13.57 %). */
    struct tf_figure f;
    TF_CHECK(golden("tests/golden/pytorch_sample/trace.json", &tf_mode_pytorch, &f));
    const struct tf_stats *s = &f.stats;
    TF_CHECK(s->on && s->pipelined && s->has_io_hidden);
    TF_CHECK_NEAR(s->window_ms, 1.14956841, 1e-6);
    TF_CHECK(s->n_groups == 2 && s->n_candidates == 0);
    if (s->n_groups == 2) {
        TF_CHECK_NEAR(s->groups[0].busy_ms, 0.99818615, 1e-6);
        TF_CHECK_NEAR(s->groups[1].busy_ms, 0.99355315, 1e-6);
    }
    TF_CHECK_NEAR(s->io_hidden_pct, 98.893, 1e-3);
    TF_CHECK_NEAR(s->gpu_idle_ms, 0.15601526, 1e-6);
    TF_CHECK_STR(s->summary, "I/O hidden 99 %, GPU idle 14 %");
    tf_figure_fini(&f);
}
