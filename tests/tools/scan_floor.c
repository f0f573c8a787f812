/* scan_floor.c - tracefig's scanner alone on a Chrome trace: the same
 * walk the loader makes (each element of "traceEvents" validated whole,
 * its 16 members located; the other top-level values validated), with no
 * converter behind it.  make bench prints its time beside simdjson's
 * (floor_simdjson.cpp) and beside the whole figure's, to tell the scan's
 * share of a run from the rest.
 *
 *   scan_floor TRACE.json [RUNS]
 *
 * Best of RUNS (default 3), one scanning thread, the file read ahead on a
 * second one as the loader does.  Prints "scan S events N" (seconds).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/diag.h"
#include "load/input.h"
#include "load/scan.h"
#include "load/tef.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One scan of the file; false (with the message printed) on an error. */
static bool scan_once(const char *path, size_t *events)
{
    struct tf_diag d;
    tf_diag_init(&d);
    struct tf_input_opts opts = {.thread = true};
    struct tf_input *in = tf_input_open(path, &opts, &d);
    struct tf_scan s;
    bool ok = in && tf_scan_init(&s, in, path, 0, TF_SCAN_LENIENT, &d);
    bool inited = ok;
    enum tf_jtok k = TF_JT_NONE;
    ok = ok && tf_scan_begin(&s, &k) && k == TF_JT_OBJECT;
    struct tf_scan_field f[TF_TEF_N_FIELDS];
    memset(f, 0, sizeof f);
    for (size_t i = 0; i < TF_TEF_N_FIELDS; i++)
        f[i].name = tf_tef_field_names[i];
    *events = 0;
    while (ok) {
        char key[32];
        size_t kl;
        bool more;
        ok = tf_scan_key(&s, key, sizeof key, &kl, &more);
        if (!ok || !more)
            break;
        if (strcmp(key, "traceEvents") != 0 || tf_scan_peek(&s) != TF_JT_ARRAY) {
            ok = tf_scan_skip(&s);
            continue;
        }
        ok = tf_scan_enter(&s);
        while (ok && (ok = tf_scan_next(&s, &more)) && more) {
            const unsigned char *data;
            size_t len;
            ok = tf_scan_value(&s, &data, &len, f, TF_TEF_N_FIELDS);
            ++*events;
        }
    }
    ok = ok && tf_scan_finish(&s);
    if (!ok)
        fprintf(stderr, "scan_floor: %s\n", d.msg[0] ? d.msg : "not a Chrome trace object");
    if (inited)
        tf_scan_fini(&s);
    tf_input_close(in);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: scan_floor TRACE.json [RUNS]\n");
        return 2;
    }
    int runs = argc > 2 ? atoi(argv[2]) : 3;
    double best = 1e30;
    size_t events = 0;
    for (int r = 0; r < (runs > 0 ? runs : 1); r++) {
        double t0 = now();
        if (!scan_once(argv[1], &events))
            return 1;
        double t = now() - t0;
        best = t < best ? t : best;
    }
    printf("scan %.3f events %zu\n", best, events);
    return 0;
}
