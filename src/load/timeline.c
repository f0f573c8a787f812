/* timeline.c - pipelined_timeline_v1/_v2 events into struct tf_timeline;
 * see timeline.h.  Knows the format (field names and types), not which
 * events a figure uses: that is the mode's filter. */
#include "load/timeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void cand_range_add(struct tf_cand_range *r, long long c)
{
    if (!r->any || c < r->lo)
        r->lo = c;
    if (!r->any || c > r->hi)
        r->hi = c;
    r->any = true;
}

bool tf_load_timeline_meta(const json_t *obj, const char *file, struct tf_timeline *t,
                           struct tf_diag *d)
{
    const char *fmt = json_string_value(json_object_get(obj, "format"));
    t->version = fmt && strcmp(fmt, "pipelined_timeline_v2") == 0 ? 2 : 1;
    t->seen = TF_META_START | TF_META_RECORD_FROM | TF_META_FOCUS | TF_META_NUM;
    return tf_jopt_int(obj, "start_candidate", file, &t->start_candidate, d) &&
           tf_jopt_int(obj, "timeline_record_from", file, &t->timeline_record_from, d) &&
           tf_jopt_int(obj, "focus_candidate", file, &t->focus_candidate, d) &&
           tf_jopt_int(obj, "num_candidates", file, &t->num_candidates, d);
}

static bool get_string(const json_t *e, const char *key, size_t idx, const char *file,
                       const char **out, struct tf_diag *d)
{
    const json_t *v = json_object_get(e, key);
    if (!v)
        return tf_diag_error(d, TF_EBADINPUT, "%s: events[%zu].%s: missing", file, idx, key);
    if (!json_is_string(v))
        return tf_diag_error(d, TF_EBADINPUT, "%s: events[%zu].%s: expected a string, got %s",
                             file, idx, key, tf_jtype(v));
    *out = json_string_value(v);
    return true;
}

/* What an element is to the figure. */
enum conv { CONV_SKIP, CONV_NULL_CANDIDATE, CONV_EVENT };

static bool convert(const json_t *e, size_t idx, const char *file,
                    const struct tf_timeline_filter *flt, struct tf_event *ev, enum conv *what,
                    struct tf_diag *d)
{
    *what = CONV_SKIP;
    if (!json_is_object(e))
        return tf_diag_error(d, TF_EBADINPUT, "%s: events[%zu]: expected an object, got %s",
                             file, idx, tf_jtype(e));
    const char *lane_s, *name_s;
    if (!get_string(e, "lane", idx, file, &lane_s, d) ||
        !get_string(e, "name", idx, file, &name_s, d))
        return false;
    memset(ev, 0, sizeof *ev);
    enum tf_in_lane lane = tf_in_lane_from(lane_s);
    enum tf_ev_name name = tf_ev_name_from(name_s);
    if (!flt->uses || !flt->uses(lane, name))
        return true;
    ev->lane = (unsigned char)lane;
    ev->name = (unsigned char)name;

    char where[64];
    snprintf(where, sizeof where, "events[%zu].start_ms", idx);
    if (!tf_jtime(json_object_get(e, "start_ms"), file, where, &ev->start_ms, d))
        return false;
    snprintf(where, sizeof where, "events[%zu].dur_ms", idx);
    if (!tf_jtime(json_object_get(e, "dur_ms"), file, where, &ev->dur_ms, d))
        return false;

    const json_t *cand = json_object_get(e, "candidate");
    if (!cand || json_is_null(cand)) {
        *what = CONV_NULL_CANDIDATE;
        return true;
    }
    snprintf(where, sizeof where, "events[%zu].candidate", idx);
    if (!tf_jint(cand, file, where, &ev->candidate, d))
        return false;

    const json_t *buf = json_object_get(e, "buffer");
    if (lane == TF_IN_GPU && buf && !json_is_null(buf)) {
        snprintf(where, sizeof where, "events[%zu].buffer", idx);
        if (!tf_jint(buf, file, where, &ev->buffer, d))
            return false;
        ev->has_buffer = true;
    }
    snprintf(where, sizeof where, "events[%zu]", idx);
    if (flt->check && !flt->check(ev, file, where, d))
        return false;
    *what = CONV_EVENT;
    return true;
}

/* Keeps a converted element. */
static bool keep(const struct tf_event *ev, enum conv what, const char *file,
                 const struct tf_cand_filter *cands, struct tf_timeline *t,
                 struct tf_cand_range *seen, struct tf_diag *d)
{
    if (what == CONV_NULL_CANDIDATE)
        t->n_null_candidate++;
    if (what != CONV_EVENT)
        return true;
    if (seen)
        cand_range_add(seen, ev->candidate);
    if (!cands->all && (ev->candidate < cands->lo || ev->candidate > cands->hi))
        return true;
    if (!tf_timeline_push(t, ev))
        return tf_diag_oom(d, file);
    return true;
}

bool tf_load_timeline_event(const json_t *e, size_t idx, const char *file,
                            const struct tf_timeline_filter *flt,
                            const struct tf_cand_filter *cands, struct tf_timeline *t,
                            struct tf_cand_range *seen, struct tf_diag *d)
{
    struct tf_event ev;
    enum conv what;
    return convert(e, idx, file, flt, &ev, &what, d) &&
           keep(&ev, what, file, cands, t, seen, d);
}

/* --- streaming -------------------------------------------------------------------- */

const char *const tf_tl_field_names[TF_TL_N_FIELDS] = {
    "lane", "name", "candidate", "start_ms", "dur_ms", "buffer",
};

/* A plain unescaped string member, copied NUL-ended (false: absent, not a
 * string, escaped, or too long to be a lane or name the format knows). */
static bool plain_string(const unsigned char *data, const struct tf_scan_field *f, char *out,
                         size_t n)
{
    if (f->type != TF_JT_STRING || f->escaped || f->len >= n)
        return false;
    memcpy(out, data + f->off, f->len);
    out[f->len] = '\0';
    return true;
}

/* A number member tf_jtime would accept without a doubt: at most 17
 * integer digits and no exponent anywhere (after a fraction too: 1.8e85),
 * so |x| < 1e17. */
static bool plain_time(const unsigned char *data, const struct tf_scan_field *f)
{
    if (f->type != TF_JT_NUMBER)
        return false;
    size_t digits = 0;
    bool fraction = false;
    for (size_t i = 0; i < f->len; i++) {
        unsigned char c = data[f->off + i];
        if (c == 'e' || c == 'E')
            return false;
        if (c == '.')
            fraction = true;
        else if (!fraction)
            digits += c >= '0' && c <= '9';
    }
    return digits <= 17;
}

/* A plain number member's value (see plain_time), read with strtod: the
 * C locale is never changed, so '.' is the decimal point. */
static bool plain_value(const unsigned char *data, const struct tf_scan_field *f, double *v)
{
    char text[64];
    if (f->len >= sizeof text)
        return false;
    memcpy(text, data + f->off, f->len);
    text[f->len] = '\0';
    char *end;
    *v = strtod(text, &end);
    return *end == '\0';
}

/* An integer member of at most 15 digits (tf_jint's range), as a value. */
static bool plain_int(const unsigned char *data, const struct tf_scan_field *f, long long *v)
{
    if (f->type != TF_JT_NUMBER || !f->is_int || f->len > 16)
        return false;
    char text[20];
    memcpy(text, data + f->off, f->len);
    text[f->len] = '\0';
    char *end;
    *v = strtoll(text, &end, 10);
    return *v >= -1000000000000000LL && *v <= 1000000000000000LL;
}

/* Parses the element with jansson and converts it like the whole-document
 * path does. */
static bool add_parsed(const unsigned char *data, size_t len, size_t idx, const char *file,
                       const struct tf_timeline_filter *flt,
                       const struct tf_cand_filter *cands, struct tf_timeline *t,
                       struct tf_cand_range *seen, struct tf_diag *d)
{
    json_error_t err;
    json_t *e = json_loadb((const char *)data, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY,
                           &err);
    if (!e)
        return tf_diag_error(d, TF_EBADINPUT, "%s: events[%zu]: %s", file, idx, err.text);
    bool ok = tf_load_timeline_event(e, idx, file, flt, cands, t, seen, d);
    json_decref(e);
    return ok;
}

bool tf_load_timeline_scanned(const unsigned char *data, size_t len,
                              const struct tf_scan_field *f, size_t idx, const char *file,
                              const struct tf_timeline_filter *flt,
                              const struct tf_cand_filter *cands, struct tf_timeline *t,
                              struct tf_cand_range *seen, struct tf_diag *d)
{
    char lane_s[16], name_s[24];
    if (data[0] != '{' || cands->all ||
        !plain_string(data, &f[TF_TL_F_LANE], lane_s, sizeof lane_s) ||
        !plain_string(data, &f[TF_TL_F_NAME], name_s, sizeof name_s))
        goto parse;
    struct tf_event ev;
    memset(&ev, 0, sizeof ev);
    enum tf_in_lane lane = tf_in_lane_from(lane_s);
    enum tf_ev_name name = tf_ev_name_from(name_s);
    if (!flt->uses || !flt->uses(lane, name))
        return true;
    ev.lane = (unsigned char)lane;
    ev.name = (unsigned char)name;
    /* From here the whole-document path checks start_ms and dur_ms, then
     * the candidate, then (GPU events) the buffer. */
    if (!plain_time(data, &f[TF_TL_F_START]) || !plain_time(data, &f[TF_TL_F_DUR]))
        goto parse;
    const struct tf_scan_field *cf = &f[TF_TL_F_CANDIDATE];
    if (cf->type == TF_JT_NONE || cf->type == TF_JT_NULL) {
        t->n_null_candidate++;
        return true;
    }
    if (!plain_int(data, cf, &ev.candidate))
        goto parse;
    bool keep_it = ev.candidate >= cands->lo && ev.candidate <= cands->hi;
    const struct tf_scan_field *bf = &f[TF_TL_F_BUFFER];
    if (lane == TF_IN_GPU && bf->type != TF_JT_NONE && bf->type != TF_JT_NULL) {
        if (!plain_int(data, bf, &ev.buffer))
            goto parse;
        ev.has_buffer = true;
    }
    if (flt->check) {
        struct tf_diag quiet;
        tf_diag_init(&quiet);
        if (!flt->check(&ev, file, "", &quiet))
            goto parse;
    }
    if (seen)
        cand_range_add(seen, ev.candidate);
    if (!keep_it)
        return true; /* valid, and outside the window */
    /* Valid and plain: the numbers read as jansson reads them (strtod for
     * reals and integers alike gives the same double below 2^53 and rounds
     * the same beyond), without parsing the element. */
    if (!plain_value(data, &f[TF_TL_F_START], &ev.start_ms) ||
        !plain_value(data, &f[TF_TL_F_DUR], &ev.dur_ms))
        goto parse;
    if (!tf_timeline_push(t, &ev))
        return tf_diag_oom(d, file);
    return true;
parse:
    return add_parsed(data, len, idx, file, flt, cands, t, seen, d);
}
