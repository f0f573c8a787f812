/* load.c - opening inputs, telling trace kinds apart, and the jansson
 * helpers every loader shares.  Knows nothing of figure rules. */
#include "load_internal.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

const char *tf_jtype(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "something else";
}

FILE *tf_open_input(const char *path, struct tf_diag *d)
{
    if (strcmp(path, "-") == 0)
        return stdin;
    FILE *f = fopen(path, "rb");
    if (!f) {
        tf_diag_error(d, TF_EBADINPUT, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        tf_diag_error(d, TF_EBADINPUT, "%s: cannot read: %s", path, strerror(EISDIR));
        return NULL;
    }
    return f;
}

void tf_close_input(FILE *f)
{
    if (f && f != stdin)
        fclose(f);
}

json_t *tf_parse_file(FILE *f, const char *path, struct tf_diag *d)
{
    json_error_t err;
    json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        if (ferror(f))
            tf_diag_error(d, TF_EBADINPUT, "%s: cannot read: %s", tf_diag_name(path),
                          strerror(errno ? errno : EIO));
        else
            tf_diag_error(d, TF_EBADINPUT, "%s:%d:%d: %s", tf_diag_name(path), err.line,
                          err.column, err.text);
    }
    return root;
}

bool tf_jtime(const json_t *v, const char *file, const char *where, double *out,
              struct tf_diag *d)
{
    if (!v)
        return tf_diag_error(d, TF_EBADINPUT, "%s: %s: missing", file, where);
    if (!json_is_number(v))
        return tf_diag_error(d, TF_EBADINPUT, "%s: %s: expected a number, got %s", file, where,
                             tf_jtype(v));
    double x = json_number_value(v);
    if (!isfinite(x) || fabs(x) > TF_MAX_ABS_TIME)
        return tf_diag_error(d, TF_EBADINPUT, "%s: %s: out of range (|value| > 1e18)", file,
                             where);
    *out = x;
    return true;
}

bool tf_jint(const json_t *v, const char *file, const char *where, long long *out,
             struct tf_diag *d)
{
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);
        if (i < -1000000000000000LL || i > 1000000000000000LL)
            return tf_diag_error(d, TF_EBADINPUT, "%s: %s: out of range", file, where);
        *out = (long long)i;
        return true;
    }
    if (json_is_real(v)) {
        double x = json_real_value(v);
        if (isfinite(x) && x == floor(x) && fabs(x) <= 1e15) {
            *out = (long long)x;
            return true;
        }
        return tf_diag_error(d, TF_EBADINPUT, "%s: %s: expected an integer, got %g", file, where,
                             x);
    }
    return tf_diag_error(d, TF_EBADINPUT, "%s: %s: expected an integer, got %s", file, where,
                         tf_jtype(v));
}

bool tf_jopt_int(const json_t *obj, const char *key, const char *file, struct tf_opt_int *out,
                 struct tf_diag *d)
{
    const json_t *v = json_object_get(obj, key);
    out->set = false;
    if (!v || json_is_null(v))
        return true;
    if (!tf_jint(v, file, key, &out->v, d))
        return false;
    out->set = true;
    return true;
}

bool tf_load_trace(const char *path, const struct tf_load_opts *opts, struct tf_trace *out,
                   struct tf_diag *d)
{
    const char *file = tf_diag_name(path);
    FILE *f = tf_open_input(path, d);
    if (!f)
        return false;
    /* TODO(streaming): detect the kind without building the whole document. */
    json_t *root = tf_parse_file(f, path, d);
    tf_close_input(f);
    if (!root)
        return false;
    bool ok;
    const json_t *fmt = json_is_object(root) ? json_object_get(root, "format") : NULL;
    if (json_is_object(root) && json_is_string(fmt) &&
        (strcmp(json_string_value(fmt), "pipelined_timeline_v1") == 0 ||
         strcmp(json_string_value(fmt), "pipelined_timeline_v2") == 0)) {
        out->kind = TF_TRACE_TIMELINE;
        ok = tf_timeline_from_json(root, file, &out->timeline, d);
    } else if (json_is_object(root) && fmt && !json_object_get(root, "traceEvents")) {
        if (json_is_string(fmt))
            ok = tf_diag_error(d, TF_EBADINPUT,
                               "%s: format: expected pipelined_timeline_v1 or "
                               "pipelined_timeline_v2, got \"%.100s\"",
                               file, json_string_value(fmt));
        else
            ok = tf_diag_error(d, TF_EBADINPUT, "%s: format: expected a string, got %s", file,
                               tf_jtype(fmt));
    } else if (json_is_array(root) ||
               (json_is_object(root) && json_object_get(root, "traceEvents"))) {
        json_decref(root);
        root = NULL;
        out->kind = TF_TRACE_PYTORCH;
        f = tf_open_input(path, d);
        if (!f)
            return false;
        ok = tf_load_chrome(f, path, opts, &out->pytorch, d);
        tf_close_input(f);
    } else {
        ok = tf_diag_error(d, TF_EBADINPUT,
                           "%s: not a trace: expected an object with \"format\": "
                           "\"pipelined_timeline_v1\"/\"_v2\" or a Chrome trace "
                           "(\"traceEvents\"), got %s",
                           file, tf_jtype(root));
    }
    json_decref(root);
    if (!ok) {
        tf_trace_fini(out);
        tf_trace_init(out);
    }
    return ok;
}
