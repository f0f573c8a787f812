/* kind.c - see kind.h. */
#include "load/kind.h"

#include <string.h>

static bool is_timeline_format(const json_t *fmt)
{
    return json_is_string(fmt) &&
           (strcmp(json_string_value(fmt), "pipelined_timeline_v1") == 0 ||
            strcmp(json_string_value(fmt), "pipelined_timeline_v2") == 0);
}

bool tf_load_kind(const struct tf_doc *doc, const char *file, enum tf_trace_kind *kind,
                  struct tf_diag *d)
{
    const json_t *fmt = doc->meta ? json_object_get(doc->meta, "format") : NULL;
    *kind = TF_TRACE_NONE;
    if (!doc->top_array && is_timeline_format(fmt)) {
        *kind = TF_TRACE_TIMELINE;
        return true;
    }
    if (!doc->top_array && fmt && !doc->has_trace_events) {
        if (json_is_string(fmt))
            return tf_diag_error(d, TF_EBADINPUT,
                                 "%s: format: expected pipelined_timeline_v1 or "
                                 "pipelined_timeline_v2, got \"%.100s\"",
                                 file, json_string_value(fmt));
        return tf_diag_error(d, TF_EBADINPUT, "%s: format: expected a string, got %s", file,
                             tf_jtype(fmt));
    }
    if (doc->top_array || doc->has_trace_events) {
        *kind = TF_TRACE_CHROME;
        return true;
    }
    return tf_diag_error(d, TF_EBADINPUT,
                         "%s: not a trace: expected an object with \"format\": "
                         "\"pipelined_timeline_v1\"/\"_v2\" or a Chrome trace "
                         "(\"traceEvents\"), got %s",
                         file, doc->type);
}

bool tf_kind_is_ctf_metadata(const unsigned char *h, size_t n)
{
    static const unsigned char le[4] = {0x57, 0x1D, 0xD1, 0x75}, be[4] = {0x75, 0xD1, 0x1D, 0x57};
    if (n >= 4 && (memcmp(h, le, 4) == 0 || memcmp(h, be, 4) == 0))
        return true;
    if (n >= 1 && h[0] == 0x1E)
        return true;
    static const char *const starts[] = {"/* CTF", "typealias", "trace {", "trace{", "env {"};
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++)
        if (n >= strlen(starts[i]) && memcmp(h, starts[i], strlen(starts[i])) == 0)
            return true;
    return false;
}
