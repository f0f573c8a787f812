/* test_frame.c - the timeline frame (model/frame.c) and tf_strdup. */
#include "harness.h"
#include "support.h"

#include "base/str.h"

TF_TEST(frame_unit_by_span)
{
    const char *u;
    double per;
    tf_frame_unit(20000000000LL, &u, &per);
    TF_CHECK_STR(u, "s");
    TF_CHECK(per == 1e9);
    tf_frame_unit(10000000LL, &u, &per);
    TF_CHECK_STR(u, "ms");
    tf_frame_unit(9999999LL, &u, &per);
    TF_CHECK_STR(u, "\xC2\xB5s");
    TF_CHECK(per == 1e3);
}

TF_TEST(frame_axis_ticks_and_size)
{
    struct tf_figure f;
    tf_figure_init(&f);
    struct tf_frame fr = {1000000, 51000000, 50000000, "ms", 1e6, 8};
    TF_CHECK(tf_figure_frame(&f, &fr));
    TF_CHECK_STR(f.axis.title, "Time (ms)");
    TF_CHECK(f.x_span == 50.0);
    TF_CHECK(f.window_start == 1000.0 && f.window_end == 51000.0);
    TF_CHECK(f.axis.n_ticks >= 2 && f.axis.ticks[0] == 0.0);
    tf_figure_frame_size(&f, 0, 2);
    TF_CHECK(f.width_pt == 720.0 && f.height_pt == 160.0);
    tf_figure_frame_size(&f, 300, 10);
    TF_CHECK(f.width_pt == 300.0 && f.height_pt == 250.0);
    tf_figure_fini(&f);
}

TF_TEST(str_dup)
{
    bool oom = false;
    TF_CHECK(tf_strdup_oom(NULL, &oom) == NULL && !oom);
    char *p = tf_strdup_oom("lane 7", &oom);
    TF_CHECK_STR(p, "lane 7");
    TF_CHECK(!oom);
    free(p);
    TF_CHECK_STR(tf_base_name("a/b/trace.json"), "trace.json");
    TF_CHECK_STR(tf_base_name("archive/"), "archive/");
}
