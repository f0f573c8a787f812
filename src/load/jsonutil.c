/* jsonutil.c - see jsonutil.h. */
#include "load/jsonutil.h"

#include "base/buf.h"

#include <errno.h>
#include <math.h>
#include <string.h>

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

json_t *tf_parse_file(FILE *f, const char *path, struct tf_diag *d)
{
    /* Read whole, then parse the buffer: jansson reads a FILE a byte at a
     * time through fgetc, which cost as much as the rest of a figure. */
    struct tf_buf b;
    tf_buf_init(&b);
    char chunk[1 << 16];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        tf_buf_putn(&b, chunk, n);
    if (b.oom) {
        tf_buf_fini(&b);
        tf_diag_oom(d, tf_diag_name(path));
        return NULL;
    }
    json_error_t err;
    json_t *root = ferror(f) ? NULL
                             : json_loadb(b.data ? b.data : "", b.len, JSON_REJECT_DUPLICATES,
                                          &err);
    tf_buf_fini(&b);
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
