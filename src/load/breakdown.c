/* breakdown.c - candidate_breakdown_v1 into struct tf_breakdown_in.
 * gpu_ms keeps its file order; io_ms is not used by any figure. */
#include "load/load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "load/input.h"
#include "load/jsonutil.h"

/* The candidate, any scalar: an integer as its digits, a real as Python
 * prints it (the reference titles the legend with Python's str()), a
 * string as it is; null or missing: none.  Arrays and objects are errors. */
static bool candidate_text(const json_t *v, const char *file, struct tf_breakdown_in *out,
                           struct tf_diag *d)
{
    char num[40];
    const char *text = NULL;
    out->candidate_is_number = false;
    if (!v || json_is_null(v))
        return true;
    if (json_is_integer(v)) {
        snprintf(num, sizeof num, "%lld", (long long)json_integer_value(v));
        text = num;
        out->candidate_is_number = true;
    } else if (json_is_real(v)) {
        text = tf_fmt_repr(num, json_real_value(v));
        out->candidate_is_number = true;
    } else if (json_is_string(v)) {
        text = json_string_value(v);
    } else if (json_is_true(v) || json_is_false(v)) {
        text = json_is_true(v) ? "True" : "False"; /* Python's spelling */
    } else {
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: candidate: expected a number, a string or null, got %s", file,
                             tf_jtype(v));
    }
    out->candidate = strdup(text);
    if (!out->candidate)
        return tf_diag_oom(d, file);
    return true;
}

bool tf_load_breakdown(const char *path, struct tf_breakdown_in *out, struct tf_diag *d)
{
    const char *file = tf_diag_name(path);
    FILE *f = tf_open_input(path, d);
    if (!f)
        return false;
    json_t *root = tf_parse_file(f, path, d);
    tf_close_input(f);
    if (!root)
        return false;
    bool ok = false;
    const json_t *fmt = json_object_get(root, "format");
    const json_t *gpu = json_object_get(root, "gpu_ms");
    if (!json_is_object(root)) {
        tf_diag_error(d, TF_EBADINPUT, "%s: expected a candidate_breakdown_v1 object, got %s",
                      file, tf_jtype(root));
    } else if (!json_is_string(fmt) ||
               strcmp(json_string_value(fmt), "candidate_breakdown_v1") != 0) {
        if (json_is_string(fmt))
            tf_diag_error(d, TF_EBADINPUT,
                          "%s: format: expected candidate_breakdown_v1, got \"%.100s\"", file,
                          json_string_value(fmt));
        else
            tf_diag_error(d, TF_EBADINPUT, "%s: format: expected candidate_breakdown_v1, got %s",
                          file, fmt ? tf_jtype(fmt) : "nothing");
    } else if (!candidate_text(json_object_get(root, "candidate"), file, out, d)) {
        /* reported */
    } else if (gpu && !json_is_null(gpu) && !json_is_object(gpu)) {
        tf_diag_error(d, TF_EBADINPUT, "%s: gpu_ms: expected an object, got %s", file,
                      tf_jtype(gpu));
    } else {
        size_t n = gpu ? json_object_size(gpu) : 0;
        out->ops = n ? calloc(n, sizeof *out->ops) : NULL;
        ok = n == 0 || out->ops != NULL;
        if (!ok)
            tf_diag_oom(d, file);
        const char *key;
        const json_t *v;
        if (ok && gpu) {
            json_object_foreach((json_t *)gpu, key, v) {
                char where[300];
                snprintf(where, sizeof where, "gpu_ms.%.200s", key);
                double ms;
                if (!tf_jtime(v, file, where, &ms, d)) {
                    ok = false;
                    break;
                }
                char *k = strdup(key);
                if (!k) {
                    ok = tf_diag_oom(d, file);
                    break;
                }
                out->ops[out->n_ops].key = k;
                out->ops[out->n_ops].ms = ms;
                out->n_ops++;
            }
        }
    }
    json_decref(root);
    if (!ok) {
        tf_breakdown_in_fini(out);
        tf_breakdown_in_init(out);
    }
    return ok;
}
