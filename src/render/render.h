/* render.h - the back-end table.
 *
 * Every output format is one entry: a name, the file extensions that select
 * it, and one function that renders a finished figure model into a buffer.
 * Back-ends never see traces, JSON input or modes; drawing back-ends (SVG,
 * cairo) go through layout.h's scene, TikZ and JSON read the figure model
 * itself.
 * Nothing is written to disk here: main.c collects every rendered buffer and
 * only then writes them with outfile.c, so a failure writes nothing.
 */
#ifndef TF_RENDER_H
#define TF_RENDER_H

#include <stdbool.h>

#include "base/buf.h"
#include "base/diag.h"
#include "model/figure.h"
#include "render/plan.h"

struct tf_render_opts {
    const char *cmdline; /* "tracefig --trace trace.json ...": file arguments as basenames */
    bool standalone;     /* --standalone: a whole document (TikZ) */
    double dpi;          /* --dpi for PNG (default 200) */
    struct tf_size size; /* --width, --height, --font-size, --label-width, --labels */
    /* The figure's one plan (tf_plan_make of this figure at `size`), made
     * once by the caller after the rules and read by every back-end that
     * places anything.  NULL: a back-end makes its own (tests calling one
     * back-end alone), counted in *plans_made when that is set. */
    const struct tf_plan *plan;
    unsigned *plans_made;
    /* TikZ: k + 1 while zoom panel k of a figure's row is written (its
     * plot's place is noted for the connectors), else 0. */
    size_t zoom_panel;
};

struct tf_backend {
    const char *name;          /* --format NAME */
    const char *exts[3];       /* lower-case extensions with the dot, NULL-terminated */
    const char *description;   /* one line for --help */
    bool available;            /* false when built without its library */
    /* Its reader fits it to a width it gives (TeX gives a TikZ picture
     * \tracefigwidth, else \linewidth): it always draws the fit plan,
     * also of a figure whose size asked keeps the reference layout
     * (tf_render_size). */
    bool fit_always;
    bool (*render)(const struct tf_figure *f, const struct tf_render_opts *o,
                   struct tf_buf *out, struct tf_diag *d);
};

/* The size back-end b plans at: the size asked, marked given when b
 * always fits (fit_always). */
struct tf_size tf_render_size(const struct tf_backend *b, const struct tf_size *asked);

/* The plan a back-end draws: o->plan, or one made into *own for this
 * call (tf_plan_fini it after in either case; NULL when out of memory). */
const struct tf_plan *tf_render_plan(const struct tf_figure *f, const struct tf_render_opts *o,
                                     struct tf_plan *own);

/* All back-ends, in --help order; NULL-terminated. */
extern const struct tf_backend *const tf_backends[];

const struct tf_backend *tf_backend_by_name(const char *name);
/* By the path's extension (case-insensitive); NULL when none matches. */
const struct tf_backend *tf_backend_by_path(const char *path);

/* The entries (defined in json.c, svg.c, tikz.c, cairo.c). */
extern const struct tf_backend tf_backend_json;
extern const struct tf_backend tf_backend_svg;
extern const struct tf_backend tf_backend_tikz;
extern const struct tf_backend tf_backend_pdf;
extern const struct tf_backend tf_backend_png;
/* The figure's class -> colour table (model/palette.h): --palette-out and
 * tracefig_render(f, "palette"); no --format of its own. */
extern const struct tf_backend tf_backend_palette;

#endif
