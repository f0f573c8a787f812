/* load_timeline.c - pipelined_timeline_v1/_v2 documents into struct
 * tf_timeline.  Only events the rules can use are kept (lanes io/main/gpu
 * with the names the reference plots); they are validated, the rest are
 * passed over unread. */
#include "load_internal.h"
#include "load_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GPU streams beyond this many would not fit the figure's lanes. */
#define TF_MAX_GPU_BUFFER 11

static bool relevant(enum tf_in_lane lane, enum tf_ev_name name)
{
    switch (lane) {
    case TF_IN_IO:
        return name == TF_EV_HDF5_READ || name == TF_EV_GPU_BUFFER_WAIT;
    case TF_IN_MAIN:
        return name == TF_EV_WAIT_FOR_IO || name == TF_EV_AWAIT_DISPATCH ||
               name == TF_EV_TRSM_HOST;
    case TF_IN_GPU:
        return name == TF_EV_COMPUTE;
    case TF_IN_OTHER:
        break;
    }
    return false;
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

bool tf_timeline_add_event(const json_t *e, size_t idx, const char *file,
                           struct tf_timeline *t, struct tf_diag *d)
{
    if (!json_is_object(e))
        return tf_diag_error(d, TF_EBADINPUT, "%s: events[%zu]: expected an object, got %s",
                             file, idx, tf_jtype(e));
    const char *lane_s, *name_s;
    if (!get_string(e, "lane", idx, file, &lane_s, d) ||
        !get_string(e, "name", idx, file, &name_s, d))
        return false;
    struct tf_event ev;
    memset(&ev, 0, sizeof ev);
    enum tf_in_lane lane = tf_in_lane_from(lane_s);
    enum tf_ev_name name = tf_ev_name_from(name_s);
    if (!relevant(lane, name))
        return true;
    ev.lane = (unsigned char)lane;
    ev.name = (unsigned char)name;

    char where[64];
    snprintf(where, sizeof where, "events[%zu].start_ms", idx);
    if (!tf_jtime(json_object_get(e, "start_ms"), file, where, &ev.start_ms, d))
        return false;
    snprintf(where, sizeof where, "events[%zu].dur_ms", idx);
    if (!tf_jtime(json_object_get(e, "dur_ms"), file, where, &ev.dur_ms, d))
        return false;

    const json_t *cand = json_object_get(e, "candidate");
    if (!cand || json_is_null(cand)) {
        t->n_null_candidate++;
        return true;
    }
    snprintf(where, sizeof where, "events[%zu].candidate", idx);
    if (!tf_jint(cand, file, where, &ev.candidate, d))
        return false;

    const json_t *buf = json_object_get(e, "buffer");
    if (lane == TF_IN_GPU && buf && !json_is_null(buf)) {
        snprintf(where, sizeof where, "events[%zu].buffer", idx);
        if (!tf_jint(buf, file, where, &ev.buffer, d))
            return false;
        if (ev.buffer < 0 || ev.buffer > TF_MAX_GPU_BUFFER)
            return tf_diag_error(d, TF_EBADINPUT,
                                 "%s: %s: expected a GPU stream from 0 to %d, got %lld", file,
                                 where, TF_MAX_GPU_BUFFER, ev.buffer);
        ev.has_buffer = true;
    }
    if (!tf_timeline_push(t, &ev))
        return tf_diag_error(d, TF_EIO, "%s: out of memory", file);
    return true;
}

bool tf_timeline_from_json(const json_t *root, const char *file, struct tf_timeline *t,
                           struct tf_diag *d)
{
    const char *fmt = json_string_value(json_object_get(root, "format"));
    t->version = strcmp(fmt, "pipelined_timeline_v2") == 0 ? 2 : 1;
    if (!tf_jopt_int(root, "start_candidate", file, &t->start_candidate, d) ||
        !tf_jopt_int(root, "timeline_record_from", file, &t->timeline_record_from, d) ||
        !tf_jopt_int(root, "focus_candidate", file, &t->focus_candidate, d) ||
        !tf_jopt_int(root, "num_candidates", file, &t->num_candidates, d))
        return false;
    const json_t *events = json_object_get(root, "events");
    if (!events)
        return tf_diag_error(d, TF_EBADINPUT, "%s: events: missing", file);
    if (!json_is_array(events))
        return tf_diag_error(d, TF_EBADINPUT, "%s: events: expected an array, got %s", file,
                             tf_jtype(events));
    size_t i;
    const json_t *e;
    json_array_foreach(events, i, e) {
        if (!tf_timeline_add_event(e, i, file, t, d))
            return false;
    }
    return true;
}

/* --- streaming (see load_stream.h) -------------------------------------- */

const char *const tf_tl_field_names[TF_TL_N_FIELDS] = {
    "lane", "name", "candidate", "start_ms", "dur_ms", "buffer",
};

/* A plain unescaped string member, copied NUL-ended (false: absent, not a
 * string, escaped, or too long to be a lane or name the rules know). */
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
 * integer digits and no exponent, so |x| < 1e17. */
static bool plain_time(const unsigned char *data, const struct tf_scan_field *f)
{
    if (f->type != TF_JT_NUMBER)
        return false;
    size_t digits = 0;
    for (size_t i = 0; i < f->len; i++) {
        unsigned char c = data[f->off + i];
        if (c == 'e' || c == 'E')
            return false;
        if (c == '.')
            break;
        digits += c >= '0' && c <= '9';
    }
    return digits <= 17;
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

/* Parses the element and converts it through a scratch timeline, keeping
 * the event when it passes the filter. */
static bool add_parsed(const unsigned char *data, size_t len, size_t idx, const char *file,
                       const struct tf_tl_filter *filter, struct tf_timeline *t,
                       struct tf_timeline *scratch, struct tf_cand_range *seen,
                       struct tf_diag *d)
{
    json_error_t err;
    json_t *e = json_loadb((const char *)data, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY,
                           &err);
    if (!e)
        return tf_diag_error(d, TF_EBADINPUT, "%s: events[%zu]: %s", file, idx, err.text);
    scratch->n_events = 0;
    scratch->n_null_candidate = 0;
    bool ok = tf_timeline_add_event(e, idx, file, scratch, d);
    json_decref(e);
    if (!ok)
        return false;
    t->n_null_candidate += scratch->n_null_candidate;
    for (size_t i = 0; i < scratch->n_events; i++) {
        const struct tf_event *ev = &scratch->events[i];
        if (seen)
            tf_cand_range_add(seen, ev->candidate);
        if (!filter->all && (ev->candidate < filter->lo || ev->candidate > filter->hi))
            continue;
        if (!tf_timeline_push(t, ev))
            return tf_diag_error(d, TF_EIO, "%s: out of memory", file);
    }
    return true;
}

bool tf_timeline_add_scanned(const unsigned char *data, size_t len,
                             const struct tf_scan_field *f, size_t idx, const char *file,
                             const struct tf_tl_filter *filter, struct tf_timeline *t,
                             struct tf_timeline *scratch, struct tf_cand_range *seen,
                             struct tf_diag *d)
{
    char lane_s[16], name_s[24];
    if (data[0] != '{' || filter->all || !plain_string(data, &f[TF_TL_F_LANE], lane_s, sizeof lane_s) ||
        !plain_string(data, &f[TF_TL_F_NAME], name_s, sizeof name_s))
        goto parse;
    enum tf_in_lane lane = tf_in_lane_from(lane_s);
    if (!relevant(lane, tf_ev_name_from(name_s)))
        return true;
    /* From here the whole-document path checks start_ms and dur_ms, then
     * the candidate, then (GPU events) the buffer. */
    if (!plain_time(data, &f[TF_TL_F_START]) || !plain_time(data, &f[TF_TL_F_DUR]))
        goto parse;
    const struct tf_scan_field *cf = &f[TF_TL_F_CANDIDATE];
    if (cf->type == TF_JT_NONE || cf->type == TF_JT_NULL) {
        t->n_null_candidate++;
        return true;
    }
    long long cand;
    if (!plain_int(data, cf, &cand) || (cand >= filter->lo && cand <= filter->hi))
        goto parse;
    if (seen)
        tf_cand_range_add(seen, cand);
    const struct tf_scan_field *bf = &f[TF_TL_F_BUFFER];
    if (lane == TF_IN_GPU && bf->type != TF_JT_NONE && bf->type != TF_JT_NULL) {
        long long b;
        if (!plain_int(data, bf, &b) || b < 0 || b > TF_MAX_GPU_BUFFER)
            goto parse;
    }
    return true; /* valid, and outside the window */
parse:
    return add_parsed(data, len, idx, file, filter, t, scratch, seen, d);
}
