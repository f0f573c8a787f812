/* test_lib.c - the library's figure (lib/figure.h): one plan per figure,
 * whatever the formats rendered, and the public API's error values. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lib/figure.h"
#include "tracefig.h"

static const char small_trace[] =
    "{\"traceEvents\": ["
    "{\"ph\": \"X\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 100, \"name\": \"step\"},"
    "{\"ph\": \"X\", \"pid\": 1, \"tid\": 1, \"ts\": 10, \"dur\": 50, \"name\": \"aten::mm\"},"
    "{\"ph\": \"X\", \"pid\": 1, \"tid\": 2, \"ts\": 20, \"dur\": 70, \"name\": \"io\"}]}";

TF_TEST(lib_one_plan_for_every_format)
{
    struct tracefig_error err;
    struct tracefig_options *o = tracefig_options_new();
    TF_CHECK(o && tracefig_options_set(o, "width", "3.3in", &err) == 0);
    struct tracefig_figure *f =
        tracefig_figure_from_memory(o, small_trace, sizeof small_trace - 1, "small.json", &err);
    TF_CHECK(f != NULL);
    if (!f) {
        tracefig_options_free(o);
        return;
    }
    TF_CHECK(f->n_plans == 0); /* made at the first drawing format, not before */
    static const char *const formats[] = {"svg", "pdf", "png", "tikz", "json", "stats"};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        char *out = NULL;
        size_t len = 0;
        TF_CHECK(tracefig_render(f, formats[i], &out, &len, &err) == 0);
        TF_CHECK(out && len > 0);
        tracefig_free(out);
    }
    /* One plan, and no back-end made one of its own (that would count). */
    TF_CHECK(f->n_plans == 1);
    tracefig_figure_free(f);
    tracefig_options_free(o);
}

static const char seed_trace[] =
    "{\"format\": \"pipelined_timeline_v2\", \"events\": ["
    "{\"lane\": \"io\", \"name\": \"hdf5_read\", \"start_ms\": 0, \"dur_ms\": 40,"
    " \"candidate\": 4, \"buffer\": 0},"
    "{\"lane\": \"main\", \"name\": \"wait_for_io\", \"start_ms\": 1, \"dur_ms\": 39,"
    " \"candidate\": 4, \"buffer\": 0}]}";

TF_TEST(lib_seed_tikz_is_fit_with_a_plan_of_its_own)
{
    /* A seed figure without a size option keeps the reference layout in
     * SVG and JSON, and TikZ (always fit: TeX gives it its width) draws a
     * second plan, the fit one, made once however often it renders. */
    struct tracefig_error err;
    struct tracefig_options *o = tracefig_options_new();
    struct tracefig_figure *f =
        o ? tracefig_figure_from_memory(o, seed_trace, sizeof seed_trace - 1, "seed.json", &err)
          : NULL;
    TF_CHECK(f != NULL);
    if (!f) {
        tracefig_options_free(o);
        return;
    }
    static const char *const formats[] = {"svg", "tikz", "json", "tikz", "svg"};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        char *out = NULL;
        size_t len = 0;
        TF_CHECK(tracefig_render(f, formats[i], &out, &len, &err) == 0);
        if (i == 1)
            TF_CHECK(out && strstr(out, "\\tracefiglimitshare") != NULL);
        tracefig_free(out);
    }
    TF_CHECK(f->n_plans == 2);
    TF_CHECK(!tf_plan_fits(&f->fig, &f->opts.render.size));
    tracefig_figure_free(f);
    tracefig_options_free(o);
}

TF_TEST(lib_back_end_alone_makes_its_own_plan)
{
    /* Without the figure's plan a back-end makes one, and says so. */
    struct tracefig_figure F;
    struct tf_diag d;
    tf_diag_init(&d);
    d.quiet = true;
    struct tracefig_options o;
    tf_options_init(&o);
    struct tracefig_input in = {"small.json", small_trace, sizeof small_trace - 1};
    TF_CHECK(tf_lib_make(&F, &o, &in, 1, true, &d));
    unsigned made = 0;
    struct tf_render_opts ro = F.opts.render;
    ro.plans_made = &made;
    struct tf_buf b;
    tf_buf_init(&b);
    TF_CHECK(tf_backend_json.render(&F.fig, &ro, &b, &d));
    TF_CHECK(made == 1);
    tf_buf_fini(&b);
    tf_lib_fini(&F);
    tf_options_fini(&o);
}

TF_TEST(lib_errors_are_values)
{
    struct tracefig_error err;
    struct tracefig_options *o = tracefig_options_new();
    TF_CHECK(tracefig_options_set(o, "max_lanes", "0", &err) == TRACEFIG_EUSAGE);
    TF_CHECK_STR(err.message, "--max-lanes: expected 1 to 100000, got '0'");
    TF_CHECK(tracefig_options_set(o, "lanes", NULL, &err) == TRACEFIG_EUSAGE);
    TF_CHECK_STR(err.message, "option '--lanes' needs a value");
    TF_CHECK(tracefig_options_set(o, "flows", "yes", &err) == TRACEFIG_EUSAGE);
    TF_CHECK(tracefig_options_set(o, "help", NULL, &err) == TRACEFIG_EUSAGE);
    TF_CHECK(tracefig_figure_new(o, NULL, 0, &err) == NULL && err.code == TRACEFIG_EUSAGE);
    TF_CHECK_STR(err.message, "no trace given");
    struct tracefig_figure *f = tracefig_figure_from_memory(o, "[", 1, NULL, &err);
    TF_CHECK(!f && err.code == TRACEFIG_EBADINPUT && strncmp(err.message, "<memory>:", 9) == 0);
    f = tracefig_figure_from_memory(o, small_trace, sizeof small_trace - 1, NULL, &err);
    char *out = (char *)1;
    TF_CHECK(f && tracefig_render(f, "bmp", &out, NULL, &err) == TRACEFIG_EUSAGE && !out);
    tracefig_figure_free(f);
    tracefig_options_free(o);
}
