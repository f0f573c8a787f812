/* marks.h - marks resolved against a figure's events (tracefig(1), MARKS).
 *
 * The resolver turns "A..B" (model/marks.h: two ends, each a time or an
 * edge of the K-th event matching a glob) into two times on the figure's
 * axis and the events they name.  It reads only the figure model: the
 * events are its bars (slices and instants, not the dense spans that
 * stand for many), in the window, on the lanes drawn.  --span, --measure,
 * --callout and --region use it here; --zoom and --critical-path can call
 * tf_marks_range the same way.
 *
 * Messages: one line, "WHERE: what is wrong" (WHERE the spec's where),
 * written to err (at least TF_MARKS_ERR bytes).
 */
#ifndef TF_RULES_MARKS_H
#define TF_RULES_MARKS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/diag.h"
#include "model/figure.h"
#include "model/marks.h"

#define TF_MARKS_ERR 512

/* One end resolved: its time (axis units from the window's start, maybe
 * outside [0, x_span]) and the event it names (has_event false: a time). */
struct tf_mark_point {
    double t;
    bool cut; /* the window cut the event there: t is the window's edge */
    bool has_event;
    struct tf_mark_event ev;
};

/* The event e names (its K-th match) and the time of its edge (`is_b`:
 * the default edge is the end), into *out; false with a message. */
bool tf_marks_point(const struct tf_figure *f, const struct tf_mark_end *e, bool is_b,
                    const char *where, struct tf_mark_point *out, char *err);

/* A..B: both ends, B not before A; false with a message ("B ends before A
 * starts"). */
bool tf_marks_range(const struct tf_figure *f, const struct tf_mark_end *a,
                    const struct tf_mark_end *b, const char *where, struct tf_mark_point *pa,
                    struct tf_mark_point *pb, char *err);

/* Resolves every spec into f->marks (after those there: the critical
 * path's span), fades what a highlight does not keep (nor, with
 * f->stats.critical, the critical path: tf_bar.critical), and notes the
 * marks cut by the window's edges.  False
 * with a message in d (TF_EBADINPUT), f's marks then unset. */
bool tf_marks_apply(struct tf_figure *f, const struct tf_mark_spec *specs, size_t n,
                    struct tf_diag *d);

/* A duration or time in the axis unit as a mark's text writes it: three
 * significant digits, at least the axis's decimals ("1.32 ms"). */
void tf_marks_fmt_time(const struct tf_figure *f, double v, struct tf_buf *out);

/* --- the compact syntax (marks_parse.c) ---------------------------------------- */

/* One option's value into *out (its strings in arena a); `kind` its
 * option.  False with a usage message in err ("--span: ..."). */
bool tf_marks_parse(enum tf_mark_kind kind, const char *val, struct tf_arena *a,
                    struct tf_mark_spec *out, char *err);

/* One end as the compact syntax writes it: a time, "start:REF",
 * "end:REF" or "REF" (strings in a); false when it is none. */
bool tf_marks_parse_end(const char *s, size_t len, struct tf_arena *a, struct tf_mark_end *e);

/* A time as --from takes it ("12.5ms", "300us", a number of ms). */
bool tf_marks_parse_time(const char *s, size_t len, int64_t *ns);

/* A REF ("glob" or "glob@K") into e's event and occurrence (strings in
 * a); false when @K is no count. */
bool tf_marks_parse_ref(const char *s, size_t len, struct tf_arena *a, struct tf_mark_end *e);

#endif
