/* model_int.h - what the files of the figure-model reader share: the
 * state of one model being read, and the typed readers of its members,
 * each of which checks its member's type and names its path in the
 * message when it is wrong (load/model.c reads the figure, model_stats.c
 * its statistics).  Private to load/. */
#ifndef TF_LOAD_MODEL_INT_H
#define TF_LOAD_MODEL_INT_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/jsonutil.h"
#include "load/model.h"

struct reader {
    const char *file;
    struct tf_diag *d;
    struct tf_figure *f;
    int schema;         /* 1 or 2 */
    char where[160];
    bool oom;
};

/* "PREFIX[i].MEMBER" (or "PREFIX[i]"), for messages. */
static inline const char *at(struct reader *r, const char *prefix, size_t i, const char *member)
{
    if (member)
        snprintf(r->where, sizeof r->where, "%s[%zu].%s", prefix, i, member);
    else
        snprintf(r->where, sizeof r->where, "%s[%zu]", prefix, i);
    return r->where;
}

static inline bool type_error(struct reader *r, const char *where, const char *want,
                              const json_t *v)
{
    return tf_diag_error(r->d, TF_EBADINPUT, "%s: %s: expected %s, got %s", r->file, where, want,
                         v ? tf_jtype(v) : "nothing");
}

static inline bool get_num(struct reader *r, const json_t *o, const char *k, const char *where,
                    double *out)
{
    const json_t *v = json_object_get(o, k);
    if (!json_is_number(v) || !isfinite(json_number_value(v)) ||
        fabs(json_number_value(v)) > TF_MAX_ABS_TIME)
        return type_error(r, where, "a number", v);
    *out = json_number_value(v);
    return true;
}

/* A number or null (*has false). */
static inline bool get_opt_num(struct reader *r, const json_t *o, const char *k, const char *where,
                        bool *has, double *out)
{
    const json_t *v = json_object_get(o, k);
    *has = v && !json_is_null(v);
    if (!*has)
        return true;
    return get_num(r, o, k, where, out);
}

static inline bool get_int(struct reader *r, const json_t *o, const char *k, const char *where,
                    long long *out)
{
    const json_t *v = json_object_get(o, k);
    if (!json_is_integer(v))
        return type_error(r, where, "an integer", v);
    *out = (long long)json_integer_value(v);
    return true;
}

static inline bool get_index(struct reader *r, const json_t *o, const char *k, const char *where,
                      size_t n, size_t *out)
{
    long long v = 0;
    if (!get_int(r, o, k, where, &v))
        return false;
    if (v < 0 || (unsigned long long)v >= n)
        return tf_diag_error(r->d, TF_EBADINPUT, "%s: %s: %lld is not one of the %zu listed",
                             r->file, where, v, n);
    *out = (size_t)v;
    return true;
}

/* A string copied into the figure, or NULL for null (when `null_ok`). */
static inline bool get_str(struct reader *r, const json_t *o, const char *k, const char *where,
                    bool null_ok, const char **out)
{
    const json_t *v = json_object_get(o, k);
    if (null_ok && (!v || json_is_null(v))) {
        *out = NULL;
        return true;
    }
    if (!json_is_string(v))
        return type_error(r, where, null_ok ? "a string or null" : "a string", v);
    if (!(*out = tf_figure_str(r->f, json_string_value(v))))
        return tf_diag_oom(r->d, r->file);
    return true;
}

static inline bool get_bool(struct reader *r, const json_t *o, const char *k, const char *where,
                     bool *out)
{
    const json_t *v = json_object_get(o, k);
    if (!json_is_boolean(v))
        return type_error(r, where, "true or false", v);
    *out = json_is_true(v);
    return true;
}

static inline bool get_color(struct reader *r, const json_t *o, const char *k, const char *where,
                      uint32_t *out)
{
    const json_t *v = json_object_get(o, k);
    const char *s = json_is_string(v) ? json_string_value(v) : NULL;
    if (!s || s[0] != '#' || strlen(s) != 7 || strspn(s + 1, "0123456789abcdefABCDEF") != 6)
        return type_error(r, where, "a colour \"#RRGGBB\"", v);
    *out = (uint32_t)strtoul(s + 1, NULL, 16);
    return true;
}

static inline const json_t *get_array(struct reader *r, const json_t *o, const char *k, bool need)
{
    const json_t *v = json_object_get(o, k);
    if (!v && !need)
        return NULL;
    if (!json_is_array(v)) {
        type_error(r, k, "an array", v);
        return NULL;
    }
    return v;
}

static inline bool get_id(struct reader *r, const json_t *o, const char *k, const char *where,
                   struct tf_id *out)
{
    const json_t *v = json_object_get(o, k);
    memset(out, 0, sizeof *out);
    if (!v || json_is_null(v))
        return true;
    if (json_is_integer(v)) {
        out->kind = TF_ID_NUM;
        out->num = (long long)json_integer_value(v);
        return true;
    }
    out->kind = TF_ID_STR;
    return get_str(r, o, k, where, false, &out->str);
}

/* A "stats" object (or null: none) of a figure of n_lanes lanes (r->f's)
 * into *s (zeroed first; tf_stats_fini frees it); its strings go to r->f.
 * Its counters name the model's lanes lane0 to lane0 + n_lanes - 1 (a
 * trace of a model of several) and are made r->f's. */
bool tf_model_read_stats(struct reader *r, const json_t *o, size_t n_lanes, size_t lane0,
                         struct tf_stats *s);

/* A job's overview (model_overview.c): "overview", the rows' ranks, its
 * ranks' entries (refs, read already) and its "stats", into r->f. */
bool tf_model_read_overview(struct reader *r, const json_t *root, const struct tf_trace_ref *refs,
                            size_t n_refs);

#endif
