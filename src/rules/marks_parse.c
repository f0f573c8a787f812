/* marks_parse.c - the compact syntax of --span, --measure, --callout,
 * --region and --highlight (rules/marks.h): "A..B[=TEXT]", "REF[=TEXT]",
 * "GLOB[,GLOB...]", into the specs a --marks file's objects make too.
 */
#include "rules/marks.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rules/chrome.h"

/* An error into err (TF_MARKS_ERR bytes): its names are cut by their
 * formats, and what is longer still is cut at the end. */
static void say(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, TF_MARKS_ERR, fmt, ap);
    va_end(ap);
}

const char *const tf_mark_kind_names[TF_MARK_KINDS] = {"span", "measure", "callout", "region",
                                                       "highlight"};

bool tf_marks_parse_time(const char *s, size_t len, int64_t *ns)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    return tf_chrome_parse_time(buf, ns);
}

bool tf_marks_parse_ref(const char *s, size_t len, struct tf_arena *a, struct tf_mark_end *e)
{
    e->occurrence = 1;
    const char *at = NULL;
    for (size_t i = len; i-- > 0;)
        if (s[i] == '@') {
            at = s + i;
            break;
        }
    size_t digits = 0;
    if (at) {
        const char *p = at + 1;
        while (p + digits < s + len && p[digits] >= '0' && p[digits] <= '9')
            digits++;
        if (digits == 0 || p + digits != s + len)
            at = NULL; /* an '@' in the name itself */
    }
    if (at) {
        long long k = 0;
        for (size_t i = 0; i < digits; i++)
            k = k < 100000000 ? k * 10 + (at[1 + i] - '0') : k;
        if (k < 1)
            return false;
        e->occurrence = k;
        len = (size_t)(at - s);
    }
    if (len == 0)
        return false;
    return (e->event = tf_arena_strndup(a, s, len)) != NULL;
}

/* One end: a time, "start:REF", "end:REF" or a bare REF. */
bool tf_marks_parse_end(const char *s, size_t len, struct tf_arena *a, struct tf_mark_end *e)
{
    memset(e, 0, sizeof *e);
    if (!(e->spelled = tf_arena_strndup(a, s, len)))
        return false;
    if (tf_marks_parse_time(s, len, &e->time_ns)) {
        e->is_time = true;
        return true;
    }
    if (len > 6 && strncmp(s, "start:", 6) == 0) {
        e->edge = TF_EDGE_START;
        s += 6;
        len -= 6;
    } else if (len > 4 && strncmp(s, "end:", 4) == 0) {
        e->edge = TF_EDGE_END;
        s += 4;
        len -= 4;
    }
    return tf_marks_parse_ref(s, len, a, e);
}

/* "--KIND 'VALUE'" for messages. */
static const char *where_of(enum tf_mark_kind kind, const char *val, struct tf_arena *a)
{
    char buf[300];
    snprintf(buf, sizeof buf, "--%s '%.240s'", tf_mark_kind_names[kind], val);
    return tf_arena_strdup(a, buf);
}

bool tf_marks_parse(enum tf_mark_kind kind, const char *val, struct tf_arena *a,
                    struct tf_mark_spec *out, char *err)
{
    memset(out, 0, sizeof *out);
    out->kind = kind;
    const char *name = tf_mark_kind_names[kind];
    if (!(out->where = where_of(kind, val, a)))
        goto oom;
    if (kind == TF_MARK_HIGHLIGHT) {
        size_t n = 1;
        for (const char *p = val; *p; p++)
            n += *p == ',';
        const char **g = tf_arena_alloc(a, n * sizeof *g);
        if (!g)
            goto oom;
        size_t k = 0;
        for (const char *p = val;;) {
            const char *comma = strchr(p, ',');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            if (len && !(g[k++] = tf_arena_strndup(a, p, len)))
                goto oom;
            if (!comma)
                break;
            p = comma + 1;
        }
        if (k == 0) {
            say(err, "--%s: expected GLOB[,GLOB...], got '%.200s'", name,
                     val);
            return false;
        }
        out->globs = g;
        out->n_globs = k;
        return true;
    }
    const char *eq = strchr(val, '=');
    size_t body = eq ? (size_t)(eq - val) : strlen(val);
    if (eq && !(out->text = tf_arena_strdup(a, eq + 1)))
        goto oom;
    const char *dots = NULL;
    for (size_t i = 0; i + 1 < body && !dots; i++)
        if (val[i] == '.' && val[i + 1] == '.')
            dots = val + i;
    bool ok;
    if (kind == TF_MARK_CALLOUT) {
        ok = !dots && body > 0 && tf_marks_parse_end(val, body, a, &out->from);
        ok = ok && !out->from.is_time;
        if (!ok) {
            say(err, "--%s: expected REF[=TEXT] (an event name or glob, "
                                        "@K for its K-th), got '%.200s'",
                     name, val);
            return false;
        }
        out->to = out->from;
        return true;
    }
    if (dots) {
        size_t la = (size_t)(dots - val), lb = body - la - 2;
        ok = la > 0 && lb > 0 && tf_marks_parse_end(val, la, a, &out->from) &&
             tf_marks_parse_end(dots + 2, lb, a, &out->to);
    } else {
        /* one REF: from its event's start to its end */
        ok = body > 0 && tf_marks_parse_end(val, body, a, &out->from) && !out->from.is_time &&
             out->from.edge == TF_EDGE_DEFAULT;
        out->to = out->from;
    }
    if (!ok) {
        say(err, "--%s: expected A..B[=TEXT] (each a time such as 12.5ms, "
                                    "start:REF, end:REF or REF), got '%.200s'",
                 name, val);
        return false;
    }
    return true;
oom:
    say(err, "out of memory");
    return false;
}
