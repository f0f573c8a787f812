/* xplane_int.h - what the parts of the XPlane loader share: the state of
 * a read (xplane_state.c: the damage message, strings, metadata by id;
 * xplane.c: the byte stream, the walk of planes and lines and the
 * passes; xplane_emit.c: names, lanes, events and their args).  Private to
 * src/load/xplane*.c; see xplane.h for what becomes what.
 */
#ifndef TF_LOAD_XPLANE_INT_H
#define TF_LOAD_XPLANE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/strtab.h"
#include "load/input.h"
#include "load/pb.h"
#include "load/pb_stream.h"
#include "model/trace.h"

/* An event's or a stat's metadata, by id within its plane. */
struct xp_meta {
    int64_t id;
    uint32_t name, dname, label; /* strtab ids (0: "") */
};

enum xp_kind { XP_GPU, XP_TPU, XP_DEVICE, XP_HOST, XP_OTHER };
enum xp_role { XP_STREAM, XP_DERIVED, XP_THREAD };

struct xp_line {
    int64_t id;
    uint32_t name, dname;   /* strtab ids */
    int64_t ts_ns;          /* timestamp_ns */
    size_t n_events;        /* pass 0: its XEvent messages */
    size_t n_agg;           /* pass 1: of them, aggregates (num_occurrences) */
    int64_t busy;           /* its busy time (ns), pass 1: busy_ps rounded */
    /* Per pass (xp_event): the union of its events so far in ps from its
     * timestamp_ns (exact when they come in start order, as writers put
     * them: sorted), its end, the last start. */
    int64_t busy_ps, end_ps, last_ps;
    bool any, sorted;
    enum xp_role role;
};

struct xp_plane {
    uint32_t name, label;   /* "/device:GPU:0", "GPU 0" */
    enum xp_kind kind;
    long long dev;          /* the device's number (-1: none) */
    size_t meta0, n_meta;   /* its event metadata in xp.metas, sorted by id */
    size_t smeta0, n_smeta; /* its stat metadata in xp.smetas */
    size_t line0, n_lines;  /* its lines in xp.lines, in file order */
    uint32_t dev_type, vendor; /* plane stats device_type_string, device_vendor */
};

struct xp {
    const char *file;
    const struct tf_tef_sink *sink;
    struct tf_diag *d;
    struct tf_input *in;
    int pass;               /* 0 the planes' names, lines and metadata; 1 index; 2 collect */
    size_t idx;
    int64_t lo, hi;         /* the window, pass 2 */
    struct tf_pb_stream rd; /* the byte stream */
    uint8_t *mbuf;          /* a message read whole */
    size_t cap_mbuf;
    bool mangled;           /* the bytes ef bf bd seen: a UTF-8 text round trip */
    /* what pass 0 learnt */
    struct tf_strtab strs;  /* id 0 is "" */
    struct xp_plane *planes;
    size_t n_planes, cap_planes;
    struct xp_line *lines;
    size_t n_lines, cap_lines;
    struct xp_meta *metas, *smetas;
    size_t n_metas, cap_metas, n_smetas, cap_smetas;
    uint32_t host;          /* the first hostname (strtab id) */
    struct tf_buf pstats;   /* the current plane's stats, pass 0 */
    /* the walk */
    size_t plane, line;     /* current (indices in planes, lines) */
    struct tf_buf args, tmp, tmp2;
    size_t n_events;        /* drawn records of pass 1 */
    size_t n_skipped;       /* events of no time (num_occurrences), pass 1 */
};

/* xplane_state.c */
bool xp_bad(struct xp *x, uint64_t at, const char *what);
uint32_t xp_str(struct xp *x, const uint8_t *s, size_t n);
const char *xp_s(const struct xp *x, uint32_t id);
const struct xp_meta *xp_meta_of(const struct xp *x, const struct xp_meta *v, size_t n,
                                 int64_t id);

/* xplane_emit.c */
/* The plane's kind, device number and label, from its name. */
bool xp_plane_kind(struct xp *x, struct xp_plane *p);
/* The role of each line of a plane read in pass 0. */
void xp_line_roles(struct xp *x, const struct xp_plane *p);
/* One XEvent's bytes (at file offset base) of the current line. */
bool xp_event(struct xp *x, const uint8_t *data, size_t len, uint64_t base);
/* Pass 2, at the end of the current line: its aggregates, counted on its
 * lane (TF_TEF_UNTIMED). */
bool xp_line_untimed(struct xp *x);
/* The name and order records of the lanes, after pass 1. */
bool xp_lane_names(struct xp *x);

#endif
