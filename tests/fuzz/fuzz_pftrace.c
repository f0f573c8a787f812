/* libFuzzer target: Perfetto protobuf traces (load/pftrace*.c, pb.c)
 * through the generic mode and every back-end.  The first byte picks
 * options (--flows, --stats, a --from/--to window, --lanes 'CPU*',
 * --window-event on a name the project's writer uses); the rest is the
 * trace.  A trace the mode accepts must give a figure whose every bar,
 * arrow and tick lies inside the axis; a refused one is a message, never
 * a crash, a leak or undefined behaviour.  The corpus starts from
 * tests/tools/pfwrite.py's traces. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t sel = data[0];
    const char *path = fuzz_path("pftrace");
    if (fuzz_write(path, data + 1, size - 1) != 0)
        return 0;
    static const char *const cpus[] = {"CPU*"};
    struct tf_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.flows = sel & 1;
    if (sel & 2) {
        ro.has_from = ro.has_to = true;
        ro.from_ns = 1000000;
        ro.to_ns = 9000000;
    }
    if (sel & 4) {
        ro.lanes = cpus;
        ro.n_lanes = 1;
    }
    if ((sel & 24) == 8)
        ro.window_event = "inner";
    struct tf_trace t;
    tf_trace_init(&t);
    struct tf_diag d;
    tf_diag_init(&d);
    d.quiet = true;
    struct tf_figure f;
    tf_figure_init(&f);
    struct tf_run run = {path, NULL, NULL, &ro, NULL};
    if (tf_run(&run, &t, &f, &d)) {
        fuzz_check_figure(&f);
        fuzz_render_all(&f);
    }
    tf_figure_fini(&f);
    tf_trace_fini(&t);
    return 0;
}
