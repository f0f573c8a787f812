/* kind.h - what kind of trace a document holds, from its top-level
 * members; one decision shared by the whole-document and streaming paths,
 * so both accept and refuse the same documents with the same messages.
 */
#ifndef TF_LOAD_KIND_H
#define TF_LOAD_KIND_H

#include "load/jsonutil.h"

/* The top level of a document, as far as the kind depends on it. */
struct tf_doc {
    bool top_array;        /* a bare array of events (Chrome) */
    const json_t *meta;    /* an object holding the top-level "format" and
                              other metadata values read (NULL: none) */
    bool has_events;       /* "events" (pipelined timeline) */
    bool has_trace_events; /* "traceEvents" (Chrome) */
    const char *type;      /* what the document is, for messages ("an object") */
};

/* The kind, or false with the message a document of no kind gets
 * ("format: expected ...", "not a trace: ..."). */
bool tf_load_kind(const struct tf_doc *doc, const char *file, enum tf_trace_kind *kind,
                  struct tf_diag *d);

/* Whether the first n bytes of a file are CTF metadata: TSDL text (its
 * comment naming CTF, or a declaration), its packetized form (magic 0x75D11D57, either byte
 * order), or CTF 2's JSON text sequence (a record separator first). */
bool tf_kind_is_ctf_metadata(const unsigned char *head, size_t n);

#endif
