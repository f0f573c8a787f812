/* scene.h - a figure as a list of drawing primitives in points.
 *
 * layout.c turns a figure model into a scene; the drawing back-ends (svg.c,
 * cairo.c) walk it with tf_scene_draw() and a table of primitive functions.
 * A back-end never sees candidates, lanes or JSON: only paths, text and
 * groups that carry a CSS class, an optional tooltip and optional data
 * attributes.
 *
 * Units and axes: points (1/72 in), origin at the top-left corner of the
 * canvas, y grows DOWN.  The canvas is scene.width x scene.height points.
 *
 * Text: (x, y) is the BASELINE point; `anchor` says whether x is the start,
 * middle or end of the advance width.  The layout has already placed the
 * baseline from the font's ascent/descent (metrics.h), so a back-end draws
 * the string at (x, y) exactly and needs no "dominant-baseline" or font
 * measurement.  Text is DejaVu Sans (Bold when `bold`); `width` is the
 * advance width the layout measured with the built-in table, for back-ends
 * that want to check their own font against it.
 *
 * Paint: fill and stroke are each optional (has_fill / has_stroke), with an
 * opacity 0..1.  n_dash == 0 is a solid line; otherwise dash[] holds
 * on/off lengths in points (the pattern repeats; offset 0).
 *
 * Ownership: a scene owns every string (classes, titles, attributes, text)
 * and point array it holds: the tf_scene_* builders copy them into an arena
 * freed by tf_scene_fini.  Pointers handed to the draw callbacks are valid
 * during the call only.
 *
 * Order: items are drawn in list order (later paints over earlier).  Groups
 * nest; every TF_ITEM_GROUP_BEGIN has a matching TF_ITEM_GROUP_END.
 *
 * Back-ends are written against this header: zero means "off" for every
 * field.
 */
#ifndef TF_SCENE_H
#define TF_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

enum tf_anchor { TF_ANCHOR_START = 0, TF_ANCHOR_MIDDLE = 1, TF_ANCHOR_END = 2 };
enum tf_cap { TF_CAP_BUTT = 0, TF_CAP_ROUND = 1, TF_CAP_SQUARE = 2 };
enum tf_join { TF_JOIN_MITER = 0, TF_JOIN_ROUND = 1, TF_JOIN_BEVEL = 2 };

enum { TF_SCENE_MAX_DASH = 4 };

/* A polyline (closed == false) or polygon (closed == true). */
struct tf_path {
    const double *xs, *ys; /* n points, in points, y down */
    size_t n;
    bool closed;
    bool has_fill;
    uint32_t fill;         /* 0xRRGGBB */
    double fill_opacity;   /* 0..1 */
    bool has_stroke;
    uint32_t stroke;       /* 0xRRGGBB */
    double stroke_opacity; /* 0..1 */
    double stroke_width;   /* points */
    double dash[TF_SCENE_MAX_DASH];
    size_t n_dash;         /* 0: solid */
    enum tf_cap cap;
    enum tf_join join;
    const char *cls;       /* CSS class ("grid", "axis", ...) or NULL */
};

struct tf_text {
    const char *s;         /* UTF-8, already free of control characters */
    double x, y;           /* anchor point on the baseline */
    double size;           /* font size in points */
    bool bold;             /* DejaVu Sans Bold, else DejaVu Sans (Book) */
    enum tf_anchor anchor;
    uint32_t color;        /* 0xRRGGBB */
    double width;          /* advance width from metrics.h (informative) */
    const char *cls;       /* CSS class ("tick", "label", ...) or NULL */
};

struct tf_attr {
    const char *key;   /* attribute name without a prefix: "lane" (SVG writes data-lane) */
    const char *value; /* UTF-8 */
};

struct tf_group {
    const char *cls;   /* CSS class list ("bar io", "legend") or NULL */
    const char *title; /* tooltip / accessible name, or NULL */
    const struct tf_attr *attrs; /* n_attrs data attributes */
    size_t n_attrs;
    /* Its paths (directly in it) do not overlap one another, as a run of
     * share bars' boxes: a back-end may draw those of one paint as one
     * path, in any order. */
    bool disjoint;
};

enum tf_item_kind { TF_ITEM_PATH, TF_ITEM_TEXT, TF_ITEM_GROUP_BEGIN, TF_ITEM_GROUP_END };

struct tf_item {
    enum tf_item_kind kind;
    union {
        struct tf_path path;
        struct tf_text text;
        struct tf_group group;
    } u;
};

struct tf_scene {
    double width, height; /* canvas, points */
    const char *title;    /* short title (owned), or NULL */
    const char *desc;     /* longer description (owned), or NULL */
    struct tf_item *items;
    size_t n_items;
    size_t cap_items;
    int depth;            /* open groups while building */
    bool oom;             /* an allocation failed; the scene is incomplete */
    struct tf_arena arena; /* every string and point array */
};

/* Caller-owned memory: init before use, fini to free what the scene holds. */
void tf_scene_init(struct tf_scene *s);
void tf_scene_fini(struct tf_scene *s);

/* --- building (layout.c) ------------------------------------------------
 * Each call copies its arguments (strings, points) into the scene.  On
 * allocation failure they set s->oom and do nothing else. */

/* A copy of str in the scene's arena (NULL stays NULL). */
const char *tf_scene_strdup(struct tf_scene *s, const char *str);
void tf_scene_set_title(struct tf_scene *s, const char *title, const char *desc);
void tf_scene_path(struct tf_scene *s, const struct tf_path *p);
void tf_scene_text(struct tf_scene *s, const struct tf_text *t);
/* A label as the layouts put one: t.s is raw text, cleaned for XML
 * (tf_xml_clean) with tabs and line breaks as spaces, and t.width is
 * measured here in t's font; sets s->oom when memory runs out. */
void tf_scene_label(struct tf_scene *s, struct tf_text t);
void tf_scene_group_begin(struct tf_scene *s, const struct tf_group *g);
void tf_scene_group_end(struct tf_scene *s);
/* Every item of src, in order, moved by (dx, dy) points (a zoom panel's
 * scene, laid out on its own, put in its place). */
void tf_scene_append_moved(struct tf_scene *dst, const struct tf_scene *src, double dx, double dy);

/* --- drawing (back-ends) ------------------------------------------------
 * A back-end fills the slots it needs (designated initializers); NULL slots
 * do nothing.  `ctx` is the back-end's own state, passed first to every
 * call; a back-end records its own errors there. */
struct tf_draw {
    void (*begin)(void *ctx, double width, double height, const char *title,
                  const char *desc);
    void (*group_begin)(void *ctx, const struct tf_group *g);
    void (*group_end)(void *ctx);
    void (*path)(void *ctx, const struct tf_path *p);
    void (*text)(void *ctx, const struct tf_text *t);
    void (*end)(void *ctx);
};

/* Calls begin, then one callback per item in order, then end. */
void tf_scene_draw(const struct tf_scene *s, const struct tf_draw *d, void *ctx);

#endif
