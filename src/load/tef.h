/* tef.h - Chrome traces (Trace Event Format) for the generic mode: the
 * events of "traceEvents" (and the name records of "systemTraceEvents")
 * turned into records for the mode's sink (model/trace.h), in two passes.
 *
 * Pass 1 (index) sees every element: the loader decodes its phase, time,
 * ids and name, joins B/E pairs per thread, and hands every record to the
 * sink's index(); it also notes, per block of TF_TEF_BLOCK elements, where
 * the block starts (a scanner mark) and the times it covers.  The sink then
 * chooses its window.  Pass 2 (collect) revisits only the blocks that
 * reach into the window, and the blocks whose events must be paired in
 * order (B/E), and hands over the records that reach into the window, now
 * with their category, args and colour, and, within those blocks, every
 * counter (C) and instant before the window too (the sink's contract,
 * model/trace.h, says why).
 *
 * Only the scanner's validation applies to the events: a record is made of
 * the fields a figure draws (ph, name, cat, ts, dur, pid, tid, id, id2, s,
 * cname, bp, args, bind_id, flow_in, flow_out) and nothing else is read,
 * so \u0000, huge integers or deep objects elsewhere never refuse a trace
 * (nor does a thread time, tts or tdur: tracefig does not draw it).  A
 * wrong type in a drawn field is an error ("traceEvents[12].ts: expected a
 * number, got an object"), but a string of a number for ts or dur is read
 * as that number; a missing one makes the event pass quietly (an X event
 * without dur, or an async event without an id, counted in a warning).
 */
#ifndef TF_LOAD_TEF_H
#define TF_LOAD_TEF_H

#include "load/scan.h"
#include "model/trace.h"

/* The members of an element the scanner locates. */
enum {
    TF_TEF_F_PH,
    TF_TEF_F_NAME,
    TF_TEF_F_CAT,
    TF_TEF_F_TS,
    TF_TEF_F_DUR,
    TF_TEF_F_PID,
    TF_TEF_F_TID,
    TF_TEF_F_ARGS,
    TF_TEF_F_ID,
    TF_TEF_F_ID2,
    TF_TEF_F_CNAME,
    TF_TEF_F_BP,
    TF_TEF_F_S,
    TF_TEF_F_BIND_ID,
    TF_TEF_F_FLOW_IN,
    TF_TEF_F_FLOW_OUT,
    TF_TEF_N_FIELDS
};
extern const char *const tf_tef_field_names[TF_TEF_N_FIELDS];

struct tf_tef;
/* A reader for one trace; `array` names the events array in messages
 * ("traceEvents").  NULL when out of memory. */
struct tf_tef *tf_tef_new(const char *file, const struct tf_tef_sink *sink);
void tf_tef_free(struct tf_tef *t);

/* --- pass 1 -------------------------------------------------------------- */

/* Before element idx of the events array, when idx % TF_TEF_BLOCK == 0:
 * where its block starts. */
bool tf_tef_block(struct tf_tef *t, const struct tf_scan_mark *m, size_t idx,
                  struct tf_diag *d);
/* One element (its bytes, with the members located); `system`: from
 * systemTraceEvents, whose records only name processes and threads. */
bool tf_tef_index(struct tf_tef *t, const unsigned char *data, size_t len,
                  const struct tf_scan_field *f, size_t idx, bool system, struct tf_diag *d);
/* "systemTraceEvents" given as a string (its bytes as written): ftrace
 * text (load/ftrace.h), whose records follow this trace's own in both
 * passes, on its clock. */
bool tf_tef_system_text(struct tf_tef *t, const unsigned char *data, size_t len,
                        struct tf_diag *d);
/* After the first pass: the sink's window. */
bool tf_tef_window(struct tf_tef *t, struct tf_diag *d);

/* Before pass 2, the sink's look at its window's X events and its blocks'
 * flows (tf_tef_sink's prepass): *on false when it wants none; else the blocks of
 * tf_tef_next_block then go to tf_tef_collect for it, and
 * tf_tef_prepass_end ends it. */
bool tf_tef_prepass_begin(struct tf_tef *t, bool *on);
bool tf_tef_prepass_end(struct tf_tef *t, struct tf_diag *d);

/* --- pass 2 -------------------------------------------------------------- */

/* The blocks to revisit, in file order: *i from 0 while it returns true. */
bool tf_tef_next_block(struct tf_tef *t, size_t *i, struct tf_scan_mark *m, size_t *first_idx);
bool tf_tef_collect(struct tf_tef *t, const unsigned char *data, size_t len,
                    const struct tf_scan_field *f, size_t idx, struct tf_diag *d);
/* After the second pass: B events left open go to the sink; then its
 * finish(); then warnings about what could not be paired. */
bool tf_tef_finish(struct tf_tef *t, struct tf_diag *d);

#endif
