/* libFuzzer target: the whole-document and the streaming load paths must
 * agree.  The same input goes through both (TRACEFIG_LOAD=whole, then
 * =stream with a chunk size from 1 byte up, taken from the input's first
 * two bytes) and then through the rules and the JSON back-end: both must
 * give the same figure model, or fail with the same exit code and the
 * same message.  (Chrome traces always stream; for them this compares
 * chunk sizes.)  Then the streaming path again with the default chunk
 * (where values lie whole in the buffer, so the scanner's fast path runs)
 * under each set of scanner kernels this CPU has (TRACEFIG_SIMD=portable,
 * sse2, avx2, avx512): the same again.  And the streamed path once more
 * with the scanner on its own thread (TRACEFIG_PIPE=on, src/load/pipe.c)
 * at the input's chunk size: the same again. */
#include "fuzz_common.h"

#include "load/scan_simd.h"
#include "rules/mode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The model as JSON, or the error as "ERROR code: message". */
static void figure_of(const char *path, const char *load, size_t chunk, struct tf_buf *out,
                      const char *simd, bool pipe)
{
    if (pipe)
        setenv("TRACEFIG_PIPE", "on", 1);
    else
        setenv("TRACEFIG_PIPE", "off", 1);
    if (simd)
        setenv("TRACEFIG_SIMD", simd, 1);
    else
        unsetenv("TRACEFIG_SIMD");
    char c[32];
    snprintf(c, sizeof c, "%zu", chunk);
    setenv("TRACEFIG_LOAD", load, 1);
    if (chunk)
        setenv("TRACEFIG_CHUNK", c, 1);
    else
        unsetenv("TRACEFIG_CHUNK");
    struct tf_opts ro;
    memset(&ro, 0, sizeof ro);
    struct tf_trace t;
    tf_trace_init(&t);
    struct tf_figure f;
    tf_figure_init(&f);
    struct tf_diag d;
    tf_diag_init(&d);
    d.quiet = true;
    struct tf_run run = {path, NULL, NULL, &ro, NULL};
    if (tf_run(&run, &t, &f, &d)) {
        struct tf_render_opts o = {.cmdline = "tracefig", .dpi = 72.0};
        if (!tf_backend_json.render(&f, &o, out, &d))
            tf_buf_printf(out, "RENDER ERROR %d: %s", (int)d.code, d.msg);
    } else {
        tf_buf_printf(out, "ERROR %d: %s", (int)d.code, d.msg);
    }
    tf_figure_fini(&f);
    tf_trace_fini(&t);
    unsetenv("TRACEFIG_LOAD");
    unsetenv("TRACEFIG_CHUNK");
    unsetenv("TRACEFIG_SIMD");
    unsetenv("TRACEFIG_PIPE");
}

static void same(const struct tf_buf *a, const struct tf_buf *b, const char *what, size_t chunk)
{
    if (a->oom || b->oom)
        abort();
    if (a->len != b->len || memcmp(a->data, b->data, a->len) != 0) {
        fprintf(stderr, "fuzz_stream: the paths disagree (%s, chunk %zu)\n--- whole:\n%.2000s\n"
                        "--- stream:\n%.2000s\n",
                what, chunk, a->data ? a->data : "", b->data ? b->data : "");
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t chunk = 1 + (((size_t)data[0] << 8 | data[1]) % 4096);
    const char *path = fuzz_path("stream");
    if (fuzz_write(path, data + 2, size - 2) != 0)
        return 0;
    struct tf_buf whole, stream;
    tf_buf_init(&whole);
    tf_buf_init(&stream);
    figure_of(path, "whole", 0, &whole, NULL, false);
    figure_of(path, "stream", chunk, &stream, "portable", false);
    same(&whole, &stream, "portable", chunk);
    tf_buf_clear(&stream);
    figure_of(path, "stream", chunk, &stream, NULL, true);
    same(&whole, &stream, "pipe", chunk);
    for (int level = 0; level < TF_SIMD_N; level++) {
        const struct tf_scan_kernels *k = tf_scan_kernels_of((enum tf_simd)level);
        if (!k)
            continue;
        tf_buf_clear(&stream);
        figure_of(path, "stream", 0, &stream, k->name, false);
        same(&whole, &stream, k->name, 0);
    }
    tf_buf_fini(&whole);
    tf_buf_fini(&stream);
    return 0;
}
