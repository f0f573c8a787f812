/* libFuzzer target: trace loader (timeline and Chrome), rules, every
 * back-end.  The first byte picks the command-line window options. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t sel = data[0];
    const char *path = fuzz_path("trace");
    if (fuzz_write(path, data + 1, size - 1) != 0)
        return 0;
    struct tf_opts ro;
    memset(&ro, 0, sizeof ro);
    if (sel & 1)
        ro.start_candidate = (struct tf_opt_int){true, (long long)(sel >> 4) - 2};
    if (sel & 2)
        ro.num_candidates = (struct tf_opt_int){true, 1 + ((sel >> 2) & 3)};
    if (sel & 4) {
        ro.has_legend_y = true;
        ro.legend_y = (sel & 8) ? 0.05 : 0.4;
    }
    struct tf_trace t;
    tf_trace_init(&t);
    struct tf_diag d;
    tf_diag_init(&d);
    d.quiet = true;
    struct tf_figure f;
    tf_figure_init(&f);
    struct tf_run run = {path, NULL, NULL, &ro, NULL};
    if (tf_run(&run, &t, &f, &d))
        fuzz_render_all(&f);
    tf_figure_fini(&f);
    tf_trace_fini(&t);
    return 0;
}
