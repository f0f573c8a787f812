/* libFuzzer target: the generic Chrome mode, loader and rules.  The first
 * byte picks options (depth, async, flows, all lanes, a window, a window
 * event, a lane and counter cap; a window and a window event together
 * also mean --no-counters, as the event's window wins anyway, and a depth
 * with async --counters; on combinations of those bits also --color-by
 * name or category, a --lanes and a --hide pattern); the input's length
 * picks a paper size (none, a narrow column with labels above, a short
 * wide figure with a small font and a label column, a subfigure with no
 * labels, and one of 3 pt rows), which sets the mode's level of detail as
 * --width does and every back-end's layout; the rest is the
 * trace.  A trace the mode accepts
 * must give a figure whose every bar, arrow and tick lies inside the axis
 * and points at lanes that exist, that every back-end renders, and that
 * is the same when read again with another chunk size. */
#include "fuzz_common.h"

#include "rules/mode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

static void check(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_chrome: %s\n", what);
        abort();
    }
}

/* The model as JSON (and the figure checked), or "ERROR code: message". */
static void figure_of(const char *path, const struct tf_opts *ro, const struct tf_size *size,
                      size_t chunk, bool all, struct tf_buf *out)
{
    char c[32];
    snprintf(c, sizeof c, "%zu", chunk);
    setenv("TRACEFIG_CHUNK", c, 1);
    struct tf_trace t;
    tf_trace_init(&t);
    struct tf_figure f;
    tf_figure_init(&f);
    struct tf_diag d;
    tf_diag_init(&d);
    d.quiet = true;
    struct tf_run run = {path, NULL, &tf_mode_chrome, ro, NULL};
    if (tf_run(&run, &t, &f, &d)) {
        fuzz_check_figure(&f);
        if (all)
            fuzz_render_all_at(&f, size);
        struct tf_render_opts o = {.cmdline = "tracefig", .dpi = 72.0};
        if (!tf_backend_json.render(&f, &o, out, &d))
            tf_buf_printf(out, "RENDER ERROR %d: %s", (int)d.code, d.msg);
    } else {
        check(d.code != 0 && d.msg[0] != '\0', "a failure without a message");
        tf_buf_printf(out, "ERROR %d: %s", (int)d.code, d.msg);
    }
    tf_figure_fini(&f);
    tf_trace_fini(&t);
    unsetenv("TRACEFIG_CHUNK");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    if (n < 1)
        return 0;
    unsigned sel = data[0];
    struct tf_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.depth = sel & 3 ? (long long)(sel & 3) * 2 : 0;
    ro.async = sel & 4;
    ro.flows = sel & 8;
    ro.all_lanes = sel & 16;
    if (sel & 32) {
        ro.has_from = ro.has_to = true;
        ro.from_ns = 1000;
        ro.to_ns = 50000;
    }
    if (sel & 64) {
        ro.window_event = "step";
        ro.occurrence = 1 + (sel >> 7);
        ro.pad_pct = 5;
    }
    if (sel & 128) {
        ro.max_lanes = 2;
        ro.max_counters = 1;
    }
    if ((sel & 96) == 96)
        ro.counters = -1;
    else if ((sel & 7) == 7)
        ro.counters = 1;
    /* Issue 18's options, on combinations of the bits above. */
    if ((sel & 0x30) == 0x30)
        ro.color_by = TF_COLOR_BY_NAME;
    else if ((sel & 0x0C) == 0x0C)
        ro.color_by = TF_COLOR_BY_CATEGORY;
    static const char *const lanes[] = {"*1*", "*stream*=GPU"}, *const hide[] = {"*2*"};
    if ((sel & 0x41) == 0x41) {
        ro.lanes = lanes;
        ro.n_lanes = 2;
    }
    if ((sel & 0x82) == 0x82) {
        ro.hide = hide;
        ro.n_hide = 1;
    }
    /* Paper sizes (--width, --height, --font-size, --label-width, --labels). */
    static const struct tf_size sizes[] = {
        {0},
        {.width_pt = 110, .labels = TF_LABELS_ABOVE, .given = true},
        {.width_pt = 505, .height_pt = 60, .font_pt = 5, .label_w_pt = 40,
         .labels = TF_LABELS_LEFT, .given = true},
        {.width_pt = 160, .height_pt = 400, .labels = TF_LABELS_NONE, .given = true},
        {.width_pt = 240, .height_pt = 24, .font_pt = 3, .given = true},
    };
    const struct tf_size *size = &sizes[n % (sizeof sizes / sizeof sizes[0])];
    const char *path = fuzz_path("chrome");
    if (fuzz_write(path, data + 1, n - 1) != 0)
        return 0;
    struct tf_buf a, b;
    tf_buf_init(&a);
    tf_buf_init(&b);
    figure_of(path, &ro, size, 0, true, &a);
    figure_of(path, &ro, size, 1 + n % 97, false, &b);
    check(!a.oom && !b.oom, "out of memory");
    if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0) {
        fprintf(stderr, "fuzz_chrome: chunk sizes disagree\n--- default:\n%.2000s\n--- small:\n%.2000s\n",
                a.data ? a.data : "", b.data ? b.data : "");
        abort();
    }
    tf_buf_fini(&a);
    tf_buf_fini(&b);
    return 0;
}
