/* marks.h - marks as an author names them: spans, measures, callouts,
 * regions and highlights over events of the trace (tracefig(1), MARKS).
 *
 * A mark spec is what --span, --measure, --callout, --region,
 * --highlight and the objects of a --marks file say, before the trace is
 * read: times and event edges by name.  rules/marks.h resolves specs
 * against a figure's events (tf_marks_apply) into the figure model's
 * struct tf_mark (model/figure.h).  Plain structs: the strings a spec
 * points to belong to whoever made it (an option arena).
 */
#ifndef TF_MODEL_MARKS_H
#define TF_MODEL_MARKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum tf_mark_kind {
    TF_MARK_SPAN = 0,  /* a bracket above the plot from A to B */
    TF_MARK_MEASURE,   /* a dimension line inside the plot from A to B */
    TF_MARK_CALLOUT,   /* a label beside one event, with a leader */
    TF_MARK_REGION,    /* a shaded band across every lane from A to B */
    TF_MARK_HIGHLIGHT, /* the events whose name matches keep their colours */
    TF_MARK_KINDS
};

/* Which edge of an event an end names: the default is the start for A
 * and the end for B ("A..B" spans both events). */
enum tf_mark_edge { TF_EDGE_DEFAULT = 0, TF_EDGE_START, TF_EDGE_END };

/* One end of a mark: a time on the figure's axis (ns from the window's
 * start), or an edge of the K-th event (time order, in the window) whose
 * name matches a glob, on a lane and trace whose label and title match
 * theirs (NULL: any), plus an offset. */
struct tf_mark_end {
    bool is_time;
    int64_t time_ns;
    const char *event;   /* glob over event names (is_time false) */
    long long occurrence; /* 1-based; 0 means 1 */
    enum tf_mark_edge edge;
    const char *lane;    /* glob over lane labels, or NULL */
    const char *trace;   /* glob over trace titles, or NULL */
    int64_t offset_ns;   /* added to the time found */
    const char *spelled; /* as written ("end:foo"), for messages */
};

struct tf_mark_spec {
    enum tf_mark_kind kind;
    struct tf_mark_end from, to; /* to: span, measure, region */
    const char *text;            /* NULL: the kind's default; "": none */
    const char *const *globs;    /* highlight: event name globs */
    size_t n_globs;
    bool has_color;
    uint32_t color;              /* 0xRRGGBB */
    /* How messages name it: "--span 'a..b'", or "marks.json: [2]". */
    const char *where;
};

/* --zoom: at most this many zooms, each A..B or REF as a span writes it
 * (model/figure.h, struct tf_zoom). */
#define TF_ZOOMS_MAX 3

/* The option names of the kinds ("span", "measure", ...). */
extern const char *const tf_mark_kind_names[TF_MARK_KINDS];

#endif
