/* libFuzzer target: breakdown loader and panel rules, drawn on a fixed small
 * timeline by every back-end. */
#include "fuzz_common.h"
#include "load/load.h"
#include "rules/mode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fixed_timeline(struct tf_timeline *t)
{
    tf_timeline_init(t);
    for (int c = 0; c < 6; c++) {
        struct tf_event io = {300.0 * c, 250.0, c, 0, TF_IN_IO, TF_EV_HDF5_READ, false};
        struct tf_event gpu = {300.0 * c + 251.0, 200.0, c, 0, TF_IN_GPU, TF_EV_COMPUTE, false};
        tf_timeline_push(t, &io);
        tf_timeline_push(t, &gpu);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_path("breakdown");
    if (fuzz_write(path, data, size) != 0)
        return 0;
    struct tf_breakdown_in bd;
    tf_breakdown_in_init(&bd);
    struct tf_diag d;
    tf_diag_init(&d);
    d.quiet = true;
    if (tf_load_breakdown(path, &bd, &d)) {
        struct tf_timeline t;
        fixed_timeline(&t);
        struct tf_opts ro;
        memset(&ro, 0, sizeof ro);
        ro.start_candidate = (struct tf_opt_int){true, 1};
        struct tf_figure f;
        tf_figure_init(&f);
        struct tf_trace tr;
        tf_trace_init(&tr);
        tr.kind = TF_TRACE_TIMELINE;
        tr.timeline = t;
        struct tf_mode_input in = {&tr, &bd, "trace.json", "breakdown.json"};
        if (!tf_mode_timeline.build(&in, &ro, &f, &d))
            abort(); /* the fixed timeline always has a window */
        fuzz_render_all(&f);
        tf_figure_fini(&f);
        tf_timeline_fini(&t);
    }
    tf_breakdown_in_fini(&bd);
    return 0;
}
