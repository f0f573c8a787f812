/* The statistics' folded past (rules/ivfold.h): lanes whose slices come in
 * time order, folded every so often while they are added, give exactly the
 * busy, group and overlap times of the same lanes kept whole; and so does
 * the GPU breakdown folded as it goes. */
#include "support.h"
#include "harness.h"
#include "rules/ivfold.h"
#include "rules/stats.h"

#define N_LANES 6
#define N_SLICES 3000

/* A fixed linear congruential sequence: the same cases on every machine. */
static uint32_t next(uint32_t *x)
{
    *x = *x * 1664525u + 1013904223u;
    return *x >> 8;
}

/* Lane i's slices in start order: gaps and lengths that make the lanes
 * overlap in every combination, some slices touching the one before. */
static void slices(int64_t (*lo)[N_SLICES], int64_t (*hi)[N_SLICES])
{
    uint32_t x = 12345u;
    for (int i = 0; i < N_LANES; i++) {
        int64_t t = (int64_t)(next(&x) % 50);
        for (int k = 0; k < N_SLICES; k++) {
            uint32_t g = next(&x) % 7;
            t += g < 2 ? 0 : (int64_t)(next(&x) % (40 * (i + 1)));
            lo[i][k] = t;
            t += 1 + (int64_t)(next(&x) % 90);
            hi[i][k] = t;
            /* a slice nested in the one before, now and then */
            if (g == 3 && k > 0 && hi[i][k - 1] - lo[i][k - 1] > 4) {
                lo[i][k] = lo[i][k - 1] + 1;
                hi[i][k] = lo[i][k] + 2;
                t = hi[i][k - 1];
            }
        }
    }
}

static void six_lanes(struct tf_figure *f)
{
    tf_figure_init(f);
    static const char *const names[N_LANES] = {"p1 / main", "p1 / io",    "GPU 0 / stream 7",
                                               "GPU 0 / stream 8", "p2 / main", "GPU 1 / stream 3"};
    for (int i = 0; i < N_LANES; i++)
        tf_test_lane(f, NULL, names[i]);
}

static int64_t g_lo[N_LANES][N_SLICES], g_hi[N_LANES][N_SLICES];

/* The stats of the lanes, whole (fold_every 0) or folded every
 * fold_every slices at the start of the next one. */
static void stats_of(struct tf_figure *f, size_t fold_every)
{
    six_lanes(f);
    struct tf_ivset lanes[N_LANES];
    struct tf_ivset *ptr[N_LANES];
    for (int i = 0; i < N_LANES; i++) {
        tf_ivset_init(&lanes[i]);
        ptr[i] = &lanes[i];
    }
    struct tf_ivfold fold;
    tf_ivfold_init(&fold);
    size_t at[N_LANES] = {0}, added = 0;
    for (;;) { /* all lanes merged in start order */
        int best = -1;
        for (int i = 0; i < N_LANES; i++)
            if (at[i] < N_SLICES && (best < 0 || g_lo[i][at[i]] < g_lo[best][at[best]]))
                best = i;
        if (best < 0)
            break;
        if (fold_every && ++added % fold_every == 0) {
            for (int i = 0; i < N_LANES; i++)
                tf_ivset_normalize(&lanes[i]);
            TF_CHECK(tf_ivfold_cut(&fold, ptr, N_LANES, g_lo[best][at[best]]));
        }
        TF_CHECK(tf_ivset_add(&lanes[best], g_lo[best][at[best]], g_hi[best][at[best]]));
        at[best]++;
    }
    for (int i = 0; i < N_LANES; i++)
        tf_ivset_normalize(&lanes[i]);
    struct tf_stats_clock c = {1e6, 0, INT64_C(1) << 40};
    static const size_t p1[] = {0, 1, 2, 3}, p2[] = {4, 5};
    struct tf_stats_group_in groups[] = {{"p1", p1, 4}, {"p2", p2, 2}};
    static const char *const gpu_pat[] = {"GPU*"}, *const main_pat[] = {"*main"};
    struct tf_group_opt user[] = {{"gpus", gpu_pat, 1}, {"mains", main_pat, 1}};
    struct tf_opts o;
    memset(&o, 0, sizeof o);
    o.groups = user;
    o.n_groups = 2;
    TF_CHECK(tf_stats_fill_folded(f, &c, lanes, fold_every ? &fold : NULL, groups, 2, &o));
    if (fold_every)
        TF_CHECK(fold.any && fold.n_combo > N_LANES);
    tf_ivfold_fini(&fold);
    for (int i = 0; i < N_LANES; i++)
        tf_ivset_fini(&lanes[i]);
}

TF_TEST(fold_lanes_give_the_whole_sets_times)
{
    slices(g_lo, g_hi);
    struct tf_figure whole, folded;
    stats_of(&whole, 0);
    static const size_t every[] = {1, 7, 100, 2999};
    for (size_t e = 0; e < sizeof every / sizeof *every; e++) {
        stats_of(&folded, every[e]);
        const struct tf_stats *a = &whole.stats, *b = &folded.stats;
        for (int i = 0; i < N_LANES; i++)
            TF_CHECK(a->lane_busy_ms[i] == b->lane_busy_ms[i]);
        TF_CHECK(a->n_groups == 4 && b->n_groups == 4);
        for (size_t k = 0; k < a->n_groups && k < b->n_groups; k++)
            TF_CHECK(a->groups[k].busy_ms == b->groups[k].busy_ms);
        for (size_t k = 0; k < 16; k++)
            TF_CHECK(a->overlap_ms[k] == b->overlap_ms[k]);
        tf_figure_fini(&folded);
    }
    /* The sets do overlap: the groups' times are not sums of their lanes'. */
    TF_CHECK(whole.stats.overlap_ms[0 * 4 + 1] > 0);
    TF_CHECK(whole.stats.groups[0].busy_ms < whole.stats.lane_busy_ms[0] +
                                                 whole.stats.lane_busy_ms[1] +
                                                 whole.stats.lane_busy_ms[2] +
                                                 whole.stats.lane_busy_ms[3]);
    tf_figure_fini(&whole);
}

TF_TEST(fold_remap_renames_and_drops)
{
    /* lane 0 [0,10), lane 1 [5,20), lane 2 [8,9), cut at 15: {0} 5,
     * {0,1} 3 + 1, {0,1,2} 1, {1} 5; lane 1 keeps [15,20).  Renamed 0->1,
     * 1 dropped, 2->0: {1} 5 + 4 = 9, {0,1} 1, and {1} alone is gone. */
    struct tf_ivset s[3], *ptr[3] = {&s[0], &s[1], &s[2]};
    static const int64_t v[3][2] = {{0, 10}, {5, 20}, {8, 9}};
    for (int i = 0; i < 3; i++) {
        tf_ivset_init(&s[i]);
        TF_CHECK(tf_ivset_add(&s[i], v[i][0], v[i][1]));
    }
    struct tf_ivfold f, g;
    tf_ivfold_init(&f);
    TF_CHECK(tf_ivfold_cut(&f, ptr, 3, 15));
    TF_CHECK(s[0].n == 0 && s[1].n == 1 && s[1].v[0].lo == 15 && s[2].n == 0);
    TF_CHECK(tf_ivfold_len(&f, 0) == 10 && tf_ivfold_len(&f, 1) == 10 &&
             tf_ivfold_len(&f, 2) == 1);
    static const uint32_t map[3] = {1, UINT32_MAX, 0};
    TF_CHECK(tf_ivfold_remap(&f, map, 3, &g));
    TF_CHECK(tf_ivfold_len(&g, 1) == 10 && tf_ivfold_len(&g, 0) == 1);
    TF_CHECK(g.n_combo == 2);
    tf_ivfold_fini(&f);
    tf_ivfold_fini(&g);
    for (int i = 0; i < 3; i++)
        tf_ivset_fini(&s[i]);
}

TF_TEST(fold_gpu_breakdown_as_it_goes)
{
    /* compute on two streams, communication on a third, in start order;
     * folded at every 5th interval, the breakdown is the whole one. */
    struct tf_ivset all, comp, comm;
    struct tf_ivset fall, fcomp, fcomm;
    tf_ivset_init(&all), tf_ivset_init(&comp), tf_ivset_init(&comm);
    tf_ivset_init(&fall), tf_ivset_init(&fcomp), tf_ivset_init(&fcomm);
    struct tf_stats_gpu_past past;
    memset(&past, 0, sizeof past);
    uint32_t x = 99u;
    int64_t t = 1000;
    for (int k = 0; k < 4000; k++) {
        t += (int64_t)(next(&x) % 30);
        int64_t hi = t + 1 + (int64_t)(next(&x) % 80);
        bool is_comm = next(&x) % 3 == 0;
        if (k % 5 == 0) {
            tf_ivset_normalize(&fall), tf_ivset_normalize(&fcomp), tf_ivset_normalize(&fcomm);
            TF_CHECK(tf_stats_gpu_fold(&past, &fall, &fcomp, &fcomm, t));
        }
        TF_CHECK(tf_ivset_add(&all, t, hi) && tf_ivset_add(&fall, t, hi));
        if (is_comm)
            TF_CHECK(tf_ivset_add(&comm, t, hi) && tf_ivset_add(&fcomm, t, hi));
        else
            TF_CHECK(tf_ivset_add(&comp, t, hi) && tf_ivset_add(&fcomp, t, hi));
    }
    tf_ivset_normalize(&all), tf_ivset_normalize(&comp), tf_ivset_normalize(&comm);
    tf_ivset_normalize(&fall), tf_ivset_normalize(&fcomp), tf_ivset_normalize(&fcomm);
    struct tf_figure a, b;
    tf_figure_init(&a);
    tf_figure_init(&b);
    struct tf_stats_clock c = {1e6, 0, INT64_C(1) << 40};
    tf_stats_gpu_breakdown(&a, &c, &all, &comp, &comm);
    tf_stats_gpu_breakdown_folded(&b, &c, &fall, &fcomp, &fcomm, &past);
    TF_CHECK(past.any && fall.n < all.n / 10);
    const struct tf_gpu_breakdown *ga = &a.stats.gpu, *gb = &b.stats.gpu;
    TF_CHECK(ga->kernel_span_ms == gb->kernel_span_ms && ga->idle_ms == gb->idle_ms);
    TF_CHECK(ga->compute_ms == gb->compute_ms && ga->non_compute_ms == gb->non_compute_ms);
    TF_CHECK(ga->comm_ms == gb->comm_ms && ga->comm_comp_overlap_pct == gb->comm_comp_overlap_pct);
    TF_CHECK(ga->comm_comp_overlap_pct > 0 && ga->idle_ms > 0);
    tf_ivset_fini(&all), tf_ivset_fini(&comp), tf_ivset_fini(&comm);
    tf_ivset_fini(&fall), tf_ivset_fini(&fcomp), tf_ivset_fini(&fcomm);
    tf_figure_fini(&a);
    tf_figure_fini(&b);
}
