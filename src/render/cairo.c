/* cairo.c - the PDF and PNG back-ends: the layout's scene drawn with cairo.
 *
 * What it does: lays the figure out with tf_layout() (the same scene the
 * SVG back-end draws), walks it with a struct tf_draw of cairo calls, and
 * streams the result into the caller's tf_buf (no temporary files).  What it
 * does not do: decide where anything goes, measure text for layout, or know
 * about lanes or modes.
 *
 * Page and pixels.  The PDF page is scene.width x scene.height points.  The
 * PNG is that canvas at --dpi (points x dpi / 72 pixels, rounded up as
 * rsvg-convert does), on white, with a pHYs chunk carrying the DPI so
 * \includegraphics and image viewers know its physical size.  The PDF is
 * painted white too, as the reference saves with facecolor="white".
 *
 * Text.  Always the exact DejaVu Sans files of Debian's fonts-dejavu-core
 * (DejaVuSans-Bold.ttf, DejaVuSans.ttf), loaded with FreeType, so that no
 * fontconfig substitution can change a glyph.  The directory is
 * TF_FONT_DIR (compile time) unless TRACEFIG_FONT_DIR is set.  A missing or
 * wrong font file is an error (exit 3) naming the file and the package: a
 * silent fallback would put labels where the layout did not measure them.
 * Glyphs are placed one by one at the advances of the built-in metrics
 * table (metrics.h), from the anchor the scene gives, so every label sits
 * exactly where the layout measured it (no kerning, as in the SVG).  The
 * font's own advances are compared with the table while drawing; any
 * difference over TF_ADVANCE_TOLERANCE points gives one warning.  Text is
 * drawn with cairo_show_text_glyphs, so the PDF's text can be searched and
 * copied.
 *
 * Determinism.  The PDF carries no time: CreationDate and ModDate are
 * SOURCE_DATE_EPOCH when it is set (the reproducible-builds convention),
 * else a fixed 2000-01-01T00:00:00Z; Title is the scene's title, Subject
 * its description, Creator "tracefig" without a version.  cairo itself
 * still writes "/Producer (cairo X.Y.Z ...)", which cairo 1.16 cannot
 * change: the bytes are stable for one cairo/FreeType build, not across
 * versions of them.
 *
 * Libraries.  cairo and FreeType are not linked: tracefig would pay for
 * loading them and their ~20 dependencies (pixman, fontconfig, libpng, X11
 * ...) on every run, SVG and JSON included.  They are dlopen()ed by soname
 * (libfreetype.so.6, libcairo.so.2) at the first PDF or PNG render, and
 * every function this file calls is looked up once into the table `dl`
 * (see "Lazy loading" below).  A library or function that is missing fails
 * that render (exit 3) naming the Debian package; nothing is written.  The
 * headers are still used at build time, so TF_HAVE_CAIRO means "PDF/PNG
 * built in", and each pointer's type is checked against the header's
 * prototype at compile time.  zlib (the PNG encoder) is linked as before.
 *
 * State.  The two FreeType faces are loaded once per process and kept
 * (cairo's font caches hold them beyond any one render, so they cannot be
 * freed safely before exit); so are the two libraries (never dlclose()d)
 * and the table of their functions.  This is the back-end's only global
 * state, and it is thread-safe: the libraries load under pthread_once,
 * the faces under fonts_lock, and then only are read; cairo locks its
 * own use of a face.  Two figures on two threads give their own bytes.
 *
 * Without cairo (TF_HAVE_CAIRO unset) both entries exist with
 * .available = false, and main.c says so in --help and --version.
 */
#include "render/render.h"

#ifdef TF_HAVE_CAIRO

#include <pthread.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cairo.h>
#include <cairo-ft.h>
#include <cairo-pdf.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <zlib.h>

#include "base/dl.h"
#include "base/utf8.h"
#include "render/layout.h"
#include "render/metrics.h"
#include "render/scene.h"

#ifndef TF_FONT_DIR
#define TF_FONT_DIR "/usr/share/fonts/truetype/dejavu"
#endif
#define TF_FONT_DIR_ENV "TRACEFIG_FONT_DIR"
#define TF_FIXED_DATE "2000-01-01T00:00:00Z"
/* Largest accepted difference between the font's advance and the table's,
 * in points, accumulated along one string. */
#ifndef TF_ADVANCE_TOLERANCE
#define TF_ADVANCE_TOLERANCE 0.01
#endif
/* cairo's image surfaces are limited to 32767 pixels a side. */
#define TF_MAX_PIXELS 32767.0

/* --- Lazy loading -----------------------------------------------------------
 * Every cairo and FreeType function this file calls, as
 * X(LIBRARY, return type, name, (parameter types)) (base/dl.h).  Each is
 * called through dl.NAME, a pointer of exactly that type, checked at
 * compile time against the header's own declaration.
 * A function used without an entry here fails the link (cairo is not
 * linked).  cairo_pdf_surface_set_metadata needs cairo 1.16. */
#define TF_DL_FUNCS(X)                                                                          \
    X(DL_FT, FT_Error, FT_Init_FreeType, (FT_Library *))                                        \
    X(DL_FT, FT_Error, FT_New_Face, (FT_Library, const char *, FT_Long, FT_Face *))             \
    X(DL_FT, FT_Error, FT_Done_Face, (FT_Face))                                                 \
    X(DL_CAIRO, cairo_font_face_t *, cairo_ft_font_face_create_for_ft_face, (FT_Face, int))     \
    X(DL_CAIRO, cairo_status_t, cairo_font_face_status, (cairo_font_face_t *))                  \
    X(DL_CAIRO, cairo_status_t, cairo_font_face_set_user_data,                                  \
      (cairo_font_face_t *, const cairo_user_data_key_t *, void *, cairo_destroy_func_t))       \
    X(DL_CAIRO, void, cairo_font_face_destroy, (cairo_font_face_t *))                           \
    X(DL_CAIRO, cairo_font_options_t *, cairo_font_options_create, (void))                      \
    X(DL_CAIRO, void, cairo_font_options_set_hint_style,                                        \
      (cairo_font_options_t *, cairo_hint_style_t))                                             \
    X(DL_CAIRO, void, cairo_font_options_set_hint_metrics,                                      \
      (cairo_font_options_t *, cairo_hint_metrics_t))                                           \
    X(DL_CAIRO, void, cairo_font_options_destroy, (cairo_font_options_t *))                     \
    X(DL_CAIRO, cairo_t *, cairo_create, (cairo_surface_t *))                                   \
    X(DL_CAIRO, void, cairo_destroy, (cairo_t *))                                               \
    X(DL_CAIRO, cairo_status_t, cairo_status, (cairo_t *))                                      \
    X(DL_CAIRO, const char *, cairo_status_to_string, (cairo_status_t))                         \
    X(DL_CAIRO, void, cairo_scale, (cairo_t *, double, double))                                 \
    X(DL_CAIRO, void, cairo_set_miter_limit, (cairo_t *, double))                               \
    X(DL_CAIRO, void, cairo_set_source_rgb, (cairo_t *, double, double, double))                \
    X(DL_CAIRO, void, cairo_set_source_rgba, (cairo_t *, double, double, double, double))       \
    X(DL_CAIRO, void, cairo_rectangle, (cairo_t *, double, double, double, double))             \
    X(DL_CAIRO, void, cairo_new_path, (cairo_t *))                                              \
    X(DL_CAIRO, void, cairo_move_to, (cairo_t *, double, double))                               \
    X(DL_CAIRO, void, cairo_line_to, (cairo_t *, double, double))                               \
    X(DL_CAIRO, void, cairo_close_path, (cairo_t *))                                            \
    X(DL_CAIRO, void, cairo_fill, (cairo_t *))                                                  \
    X(DL_CAIRO, void, cairo_fill_preserve, (cairo_t *))                                         \
    X(DL_CAIRO, void, cairo_stroke, (cairo_t *))                                                \
    X(DL_CAIRO, void, cairo_set_line_width, (cairo_t *, double))                                \
    X(DL_CAIRO, void, cairo_set_line_cap, (cairo_t *, cairo_line_cap_t))                        \
    X(DL_CAIRO, void, cairo_set_line_join, (cairo_t *, cairo_line_join_t))                      \
    X(DL_CAIRO, void, cairo_set_dash, (cairo_t *, const double *, int, double))                 \
    X(DL_CAIRO, void, cairo_set_font_face, (cairo_t *, cairo_font_face_t *))                    \
    X(DL_CAIRO, void, cairo_set_font_size, (cairo_t *, double))                                 \
    X(DL_CAIRO, void, cairo_set_font_options, (cairo_t *, const cairo_font_options_t *))        \
    X(DL_CAIRO, cairo_scaled_font_t *, cairo_get_scaled_font, (cairo_t *))                      \
    X(DL_CAIRO, cairo_status_t, cairo_scaled_font_text_to_glyphs,                               \
      (cairo_scaled_font_t *, double, double, const char *, int, cairo_glyph_t **, int *,       \
       cairo_text_cluster_t **, int *, cairo_text_cluster_flags_t *))                           \
    X(DL_CAIRO, void, cairo_scaled_font_glyph_extents,                                          \
      (cairo_scaled_font_t *, const cairo_glyph_t *, int, cairo_text_extents_t *))              \
    X(DL_CAIRO, void, cairo_show_text_glyphs,                                                   \
      (cairo_t *, const char *, int, const cairo_glyph_t *, int, const cairo_text_cluster_t *,  \
       int, cairo_text_cluster_flags_t))                                                        \
    X(DL_CAIRO, void, cairo_glyph_free, (cairo_glyph_t *))                                      \
    X(DL_CAIRO, void, cairo_text_cluster_free, (cairo_text_cluster_t *))                        \
    X(DL_CAIRO, cairo_surface_t *, cairo_pdf_surface_create_for_stream,                         \
      (cairo_write_func_t, void *, double, double))                                             \
    X(DL_CAIRO, void, cairo_pdf_surface_set_metadata,                                           \
      (cairo_surface_t *, cairo_pdf_metadata_t, const char *))                                  \
    X(DL_CAIRO, cairo_surface_t *, cairo_image_surface_create, (cairo_format_t, int, int))      \
    X(DL_CAIRO, int, cairo_image_surface_get_width, (cairo_surface_t *))                        \
    X(DL_CAIRO, int, cairo_image_surface_get_height, (cairo_surface_t *))                       \
    X(DL_CAIRO, int, cairo_image_surface_get_stride, (cairo_surface_t *))                       \
    X(DL_CAIRO, unsigned char *, cairo_image_surface_get_data, (cairo_surface_t *))             \
    X(DL_CAIRO, cairo_status_t, cairo_surface_status, (cairo_surface_t *))                      \
    X(DL_CAIRO, void, cairo_surface_flush, (cairo_surface_t *))                                 \
    X(DL_CAIRO, void, cairo_surface_finish, (cairo_surface_t *))                                \
    X(DL_CAIRO, void, cairo_surface_destroy, (cairo_surface_t *))

/* FreeType first: libcairo.so.2 needs it, and a missing FreeType should be
 * reported as such rather than as cairo failing to load. */
enum dl_lib { DL_FT, DL_CAIRO, DL_N_LIBS };

static const struct tf_dl_lib dl_libs[DL_N_LIBS] = {
    [DL_FT] = {"libfreetype.so.6", "libfreetype6"},
    [DL_CAIRO] = {"libcairo.so.2", "libcairo2"},
};

TF_DL_FUNCS(TF_DL_TYPEDEF)
TF_DL_FUNCS(TF_DL_CHECK)
static struct dl_api {
    TF_DL_FUNCS(TF_DL_MEMBER)
} dl;
/* Loaded once per process (see svg.c's xml_load). */
static pthread_once_t dl_once = PTHREAD_ONCE_INIT;
static struct tf_diag dl_outcome;

#define TF_DL_API struct dl_api
static const struct tf_dl_sym dl_syms[] = {TF_DL_FUNCS(TF_DL_SYM)};
#undef TF_DL_API

/* Loads both libraries and fills dl, once per process. */
static void dl_load_once(void)
{
    tf_diag_init(&dl_outcome);
    tf_dl_load("PDF/PNG output", dl_libs, DL_N_LIBS, dl_syms, sizeof dl_syms / sizeof dl_syms[0],
               &dl, sizeof dl, &dl_outcome);
}

static bool dl_load(struct tf_diag *d)
{
    pthread_once(&dl_once, dl_load_once);
    return tf_dl_outcome(&dl_outcome, d);
}

enum font_slot { FONT_BOOK = 0, FONT_BOLD = 1 };

static const struct {
    const char *file, *family, *style;
} font_files[2] = {
    [FONT_BOOK] = {"DejaVuSans.ttf", "DejaVu Sans", "Book"},
    [FONT_BOLD] = {"DejaVuSans-Bold.ttf", "DejaVu Sans", "Bold"},
};

/* Process-wide: see "State" above. */
static struct {
    FT_Library lib;
    bool lib_ok;
    cairo_font_face_t *face[2];
} fonts;

static const cairo_user_data_key_t ft_face_key;

static void done_ft_face(void *p)
{
    dl.FT_Done_Face((FT_Face)p);
}

/* Loads one font file (once per process, under fonts_lock).  Errors go to
 * d. */
static pthread_mutex_t fonts_lock = PTHREAD_MUTEX_INITIALIZER;

static cairo_font_face_t *load_font_locked(enum font_slot slot, struct tf_diag *d)
{
    if (fonts.face[slot])
        return fonts.face[slot];
    const char *dir = getenv(TF_FONT_DIR_ENV);
    if (!dir || !*dir)
        dir = TF_FONT_DIR;
    char path[PATH_MAX];
    int n = snprintf(path, sizeof path, "%s/%s", dir, font_files[slot].file);
    if (n < 0 || (size_t)n >= sizeof path) {
        tf_diag_error(d, TF_EIO, "font path too long: %.200s/%s", dir, font_files[slot].file);
        return NULL;
    }
    FILE *probe = fopen(path, "rb");
    if (!probe) {
        tf_diag_error(d, TF_EIO,
                      "PDF/PNG text needs %s %s: cannot open %.600s: %s (install Debian's "
                      "fonts-dejavu-core, or set " TF_FONT_DIR_ENV " to the folder holding %s)",
                      font_files[slot].family, font_files[slot].style, path, strerror(errno),
                      font_files[slot].file);
        return NULL;
    }
    fclose(probe);
    if (!fonts.lib_ok) {
        if (dl.FT_Init_FreeType(&fonts.lib) != 0) {
            tf_diag_error(d, TF_EIO, "cannot initialise FreeType");
            return NULL;
        }
        fonts.lib_ok = true;
    }
    FT_Face face;
    if (dl.FT_New_Face(fonts.lib, path, 0, &face) != 0) {
        tf_diag_error(d, TF_EIO, "%.600s: not a font file FreeType can read", path);
        return NULL;
    }
    if (!face->family_name || strcmp(face->family_name, font_files[slot].family) != 0 ||
        !face->style_name || strcmp(face->style_name, font_files[slot].style) != 0) {
        tf_diag_error(d, TF_EIO, "%.600s: expected %s %s, found %.100s %.100s", path,
                      font_files[slot].family, font_files[slot].style,
                      face->family_name ? face->family_name : "?",
                      face->style_name ? face->style_name : "?");
        dl.FT_Done_Face(face);
        return NULL;
    }
    cairo_font_face_t *cf = dl.cairo_ft_font_face_create_for_ft_face(face, FT_LOAD_NO_HINTING);
    if (dl.cairo_font_face_status(cf) != CAIRO_STATUS_SUCCESS ||
        dl.cairo_font_face_set_user_data(cf, &ft_face_key, face, done_ft_face) !=
            CAIRO_STATUS_SUCCESS) {
        dl.cairo_font_face_destroy(cf);
        dl.FT_Done_Face(face);
        tf_diag_error(d, TF_ENOMEM, "out of memory loading %.600s", path);
        return NULL;
    }
    fonts.face[slot] = cf;
    return cf;
}

static cairo_font_face_t *load_font(enum font_slot slot, struct tf_diag *d)
{
    pthread_mutex_lock(&fonts_lock);
    cairo_font_face_t *cf = load_font_locked(slot, d);
    pthread_mutex_unlock(&fonts_lock);
    return cf;
}

/* --- drawing ------------------------------------------------------------ */

struct cairo_ctx {
    cairo_t *cr;
    cairo_font_options_t *font_opts;
    struct tf_diag *d;
    bool warned_advance;
    bool failed; /* an error is recorded in d; draw nothing more */
};

static void set_rgb(cairo_t *cr, uint32_t rgb, double alpha)
{
    double r = (double)((rgb >> 16) & 0xFF) / 255.0;
    double g = (double)((rgb >> 8) & 0xFF) / 255.0;
    double b = (double)(rgb & 0xFF) / 255.0;
    if (alpha >= 1.0)
        dl.cairo_set_source_rgb(cr, r, g, b);
    else
        dl.cairo_set_source_rgba(cr, r, g, b, alpha < 0.0 ? 0.0 : alpha);
}

static void draw_begin(void *ctx, double width, double height, const char *title,
                       const char *desc)
{
    struct cairo_ctx *c = ctx;
    (void)title, (void)desc; /* PDF metadata is set by the caller */
    dl.cairo_set_source_rgb(c->cr, 1.0, 1.0, 1.0);
    dl.cairo_rectangle(c->cr, 0.0, 0.0, width, height);
    dl.cairo_fill(c->cr);
}

static void draw_path(void *ctx, const struct tf_path *p)
{
    struct cairo_ctx *c = ctx;
    cairo_t *cr = c->cr;
    if (c->failed || p->n == 0 || (!p->has_fill && !p->has_stroke))
        return;
    dl.cairo_new_path(cr);
    dl.cairo_move_to(cr, p->xs[0], p->ys[0]);
    for (size_t i = 1; i < p->n; i++)
        dl.cairo_line_to(cr, p->xs[i], p->ys[i]);
    if (p->closed)
        dl.cairo_close_path(cr);
    if (p->has_fill && p->fill_opacity > 0.0) {
        set_rgb(cr, p->fill, p->fill_opacity);
        dl.cairo_fill_preserve(cr);
    }
    if (p->has_stroke && p->stroke_width > 0.0 && p->stroke_opacity > 0.0) {
        static const cairo_line_cap_t caps[] = {
            [TF_CAP_BUTT] = CAIRO_LINE_CAP_BUTT,
            [TF_CAP_ROUND] = CAIRO_LINE_CAP_ROUND,
            [TF_CAP_SQUARE] = CAIRO_LINE_CAP_SQUARE,
        };
        static const cairo_line_join_t joins[] = {
            [TF_JOIN_MITER] = CAIRO_LINE_JOIN_MITER,
            [TF_JOIN_ROUND] = CAIRO_LINE_JOIN_ROUND,
            [TF_JOIN_BEVEL] = CAIRO_LINE_JOIN_BEVEL,
        };
        set_rgb(cr, p->stroke, p->stroke_opacity);
        dl.cairo_set_line_width(cr, p->stroke_width);
        dl.cairo_set_line_cap(cr, (unsigned)p->cap <= TF_CAP_SQUARE ? caps[p->cap]
                                                                    : CAIRO_LINE_CAP_BUTT);
        dl.cairo_set_line_join(cr, (unsigned)p->join <= TF_JOIN_BEVEL ? joins[p->join]
                                                                      : CAIRO_LINE_JOIN_MITER);
        /* cairo refuses (and stops drawing) on negative or all-zero dashes:
         * such a pattern is drawn solid, as SVG renderers do. */
        size_t nd = p->n_dash <= TF_SCENE_MAX_DASH ? p->n_dash : TF_SCENE_MAX_DASH;
        double sum = 0.0;
        bool ok = true;
        for (size_t i = 0; i < nd; i++) {
            ok &= p->dash[i] >= 0.0 && isfinite(p->dash[i]);
            sum += p->dash[i];
        }
        if (nd > 0 && ok && sum > 0.0)
            dl.cairo_set_dash(cr, p->dash, (int)nd, 0.0);
        else
            dl.cairo_set_dash(cr, NULL, 0, 0.0);
        dl.cairo_stroke(cr);
    }
    dl.cairo_new_path(cr);
}

static void draw_text(void *ctx, const struct tf_text *t)
{
    struct cairo_ctx *c = ctx;
    cairo_t *cr = c->cr;
    if (c->failed || !t->s || !*t->s || !(t->size > 0.0))
        return;
    cairo_font_face_t *face = load_font(t->bold ? FONT_BOLD : FONT_BOOK, c->d);
    if (!face) {
        c->failed = true;
        return;
    }
    dl.cairo_set_font_face(cr, face);
    dl.cairo_set_font_size(cr, t->size);
    dl.cairo_set_font_options(cr, c->font_opts);
    cairo_scaled_font_t *sf = dl.cairo_get_scaled_font(cr);

    cairo_glyph_t *glyphs = NULL;
    int n_glyphs = 0;
    cairo_text_cluster_t *clusters = NULL;
    int n_clusters = 0;
    cairo_text_cluster_flags_t flags = 0;
    int len = (int)strlen(t->s);
    if (dl.cairo_scaled_font_text_to_glyphs(sf, 0.0, 0.0, t->s, len, &glyphs, &n_glyphs,
                                            &clusters, &n_clusters, &flags) !=
        CAIRO_STATUS_SUCCESS) {
        /* The scene promises valid UTF-8; anything else is a bug upstream. */
        tf_diag_error(c->d, TF_EBADINPUT, "cannot draw text \"%.100s\": not valid UTF-8", t->s);
        c->failed = true;
        return;
    }

    /* The font's own end of the string, before the glyphs move. */
    double font_end = 0.0;
    if (n_glyphs > 0) {
        cairo_text_extents_t last;
        dl.cairo_scaled_font_glyph_extents(sf, &glyphs[n_glyphs - 1], 1, &last);
        font_end = glyphs[n_glyphs - 1].x + last.x_advance;
    }

    /* Place each cluster's glyphs at the table's advances, and note how far
     * the font's own pen positions stray from them. */
    double units_to_pt = t->size / TF_METRICS_UPEM;
    double pen = 0.0, drift = 0.0;
    const unsigned char *s = (const unsigned char *)t->s;
    int g = 0;
    for (int k = 0; k < n_clusters; k++) {
        int nb = clusters[k].num_bytes, ng = clusters[k].num_glyphs;
        for (int j = 0; j < ng && g + j < n_glyphs; j++) {
            if (fabs(glyphs[g + j].x - pen) > fabs(drift))
                drift = glyphs[g + j].x - pen;
            glyphs[g + j].x = pen;
        }
        /* cairo checked the text, so the cluster starts a valid character. */
        uint32_t cp;
        tf_utf8_next(s, &cp);
        pen += tf_metrics_advance(cp, t->bold) * units_to_pt;
        s += nb;
        g += ng;
    }
    if (n_glyphs > 0 && fabs(font_end - pen) > fabs(drift))
        drift = font_end - pen;
    if (fabs(drift) > TF_ADVANCE_TOLERANCE && !c->warned_advance) {
        tf_diag_warn(c->d,
                     "DejaVu Sans %s: the font's advances differ from the built-in metrics "
                     "by %.3f pt in \"%.60s\"; glyphs keep the layout's spacing but may "
                     "crowd or gap",
                     t->bold ? "Bold" : "Book", drift, t->s);
        c->warned_advance = true;
    }

    double x0 = t->x;
    if (t->anchor == TF_ANCHOR_MIDDLE)
        x0 -= pen / 2.0;
    else if (t->anchor == TF_ANCHOR_END)
        x0 -= pen;
    for (int i = 0; i < n_glyphs; i++) {
        glyphs[i].x += x0;
        glyphs[i].y = t->y;
    }
    set_rgb(cr, t->color, 1.0);
    dl.cairo_show_text_glyphs(cr, t->s, len, glyphs, n_glyphs, clusters, n_clusters, flags);
    dl.cairo_glyph_free(glyphs);
    dl.cairo_text_cluster_free(clusters);
}

static const struct tf_draw cairo_draw = {
    .begin = draw_begin,
    .path = draw_path,
    .text = draw_text,
};

/* Draws the scene on cr; false with an error in d. */
static bool draw_scene(cairo_t *cr, const struct tf_scene *s, struct tf_diag *d)
{
    struct cairo_ctx c = {.cr = cr, .d = d};
    c.font_opts = dl.cairo_font_options_create();
    /* Unhinted outlines and exact advances: glyphs where the layout put
     * them, at every DPI. */
    dl.cairo_font_options_set_hint_style(c.font_opts, CAIRO_HINT_STYLE_NONE);
    dl.cairo_font_options_set_hint_metrics(c.font_opts, CAIRO_HINT_METRICS_OFF);
    dl.cairo_set_miter_limit(cr, 4.0); /* SVG's default, so both agree */
    tf_scene_draw(s, &cairo_draw, &c);
    dl.cairo_font_options_destroy(c.font_opts);
    if (c.failed)
        return false;
    cairo_status_t st = dl.cairo_status(cr);
    if (st != CAIRO_STATUS_SUCCESS)
        return tf_diag_error(d, st == CAIRO_STATUS_NO_MEMORY ? TF_ENOMEM : TF_EBADINPUT,
                             "cairo: %s", dl.cairo_status_to_string(st));
    return true;
}

/* --- output ---------------------------------------------------------------- */

static cairo_status_t write_buf(void *closure, const unsigned char *data, unsigned int len)
{
    struct tf_buf *b = closure;
    tf_buf_putn(b, (const char *)data, len);
    return b->oom ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

static bool layout(const struct tf_figure *f, const struct tf_render_opts *o, struct tf_scene *s,
                   struct tf_diag *d)
{
    tf_scene_init(s);
    struct tf_plan own;
    const struct tf_plan *plan = tf_render_plan(f, o, &own);
    bool laid = plan && tf_layout_plan(f, plan, s);
    tf_plan_fini(&own);
    if (!laid || s->oom)
        return tf_diag_oom(d, "laying out the figure");
    if (!(s->width > 0.0 && s->height > 0.0 && isfinite(s->width) && isfinite(s->height)))
        return tf_diag_error(d, TF_EBADINPUT, "the figure has no size");
    return true;
}

/* "YYYY-MM-DDThh:mm:ssZ" from SOURCE_DATE_EPOCH, else the fixed date. */
static const char *pdf_date(char out[32])
{
    const char *env = getenv("SOURCE_DATE_EPOCH");
    if (env && *env) {
        char *end;
        errno = 0;
        long long v = strtoll(env, &end, 10);
        struct tm tm;
        time_t t = (time_t)v;
        if (*end == '\0' && errno == 0 && v >= 0 && v <= 253402300799LL &&
            gmtime_r(&t, &tm) &&
            strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm) > 0)
            return out;
    }
    return TF_FIXED_DATE;
}

static bool render_pdf(const struct tf_figure *f, const struct tf_render_opts *o,
                       struct tf_buf *out, struct tf_diag *d)
{
    (void)o;
    struct tf_scene s;
    if (!layout(f, o, &s, d) || !dl_load(d)) {
        tf_scene_fini(&s);
        return false;
    }
    cairo_surface_t *surf =
        dl.cairo_pdf_surface_create_for_stream(write_buf, out, s.width, s.height);
    char date[32];
    const char *when = pdf_date(date);
    dl.cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_TITLE,
                                      s.title ? s.title : "tracefig figure");
    if (s.desc)
        dl.cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_SUBJECT, s.desc);
    dl.cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_CREATOR, "tracefig");
    dl.cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_CREATE_DATE, when);
    dl.cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_MOD_DATE, when);
    cairo_t *cr = dl.cairo_create(surf);
    bool ok = draw_scene(cr, &s, d);
    dl.cairo_destroy(cr);
    dl.cairo_surface_finish(surf);
    cairo_status_t st = dl.cairo_surface_status(surf);
    dl.cairo_surface_destroy(surf);
    tf_scene_fini(&s);
    if (ok && out->oom)
        return tf_diag_oom(d, "writing the PDF");
    if (ok && st != CAIRO_STATUS_SUCCESS)
        return tf_diag_error(d, TF_EIO, "cairo PDF: %s", dl.cairo_status_to_string(st));
    return ok;
}

/* --- PNG -------------------------------------------------------------------
 * Written here with zlib rather than cairo_surface_write_to_png_stream:
 * libpng's adaptive filtering at its default level made encoding 95 % of a
 * PNG render (37 ms for a 2000 x 634 figure).  Flat colour fills compress
 * well unfiltered; deflate level 3 gives a file ~12 % larger in a fifth of
 * the time.  The file also gets a pHYs chunk with the DPI, as matplotlib's
 * PNGs have, so \includegraphics and viewers know its physical size. */
#define TF_PNG_LEVEL 3

static void put_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* One chunk: length, type, data, CRC of type and data. */
static void png_chunk(struct tf_buf *out, const char type[4], const unsigned char *data,
                      size_t n)
{
    unsigned char head[8];
    put_be32(head, (uint32_t)n);
    memcpy(head + 4, type, 4);
    uLong crc = crc32(0L, (const Bytef *)type, 4);
    if (n)
        crc = crc32(crc, data, (uInt)n);
    unsigned char tail[4];
    put_be32(tail, (uint32_t)crc);
    tf_buf_putn(out, (const char *)head, sizeof head);
    if (n)
        tf_buf_putn(out, (const char *)data, n);
    tf_buf_putn(out, (const char *)tail, sizeof tail);
}

/* An 8-bit RGB PNG of an RGB24 image surface. */
static bool png_encode(cairo_surface_t *surf, double dpi, struct tf_buf *out,
                       struct tf_diag *d)
{
    int w = dl.cairo_image_surface_get_width(surf);
    int h = dl.cairo_image_surface_get_height(surf);
    int stride = dl.cairo_image_surface_get_stride(surf);
    const unsigned char *pixels = dl.cairo_image_surface_get_data(surf);
    size_t row_len = 1 + 3 * (size_t)w;
    unsigned char *row = malloc(row_len);
    enum { ZCHUNK = 65536 };
    unsigned char *zout = malloc(ZCHUNK);
    z_stream z;
    memset(&z, 0, sizeof z);
    if (!row || !zout || deflateInit(&z, TF_PNG_LEVEL) != Z_OK) {
        free(row);
        free(zout);
        return tf_diag_oom(d, "writing the PNG");
    }

    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    tf_buf_putn(out, (const char *)sig, sizeof sig);
    unsigned char ihdr[13];
    put_be32(ihdr, (uint32_t)w);
    put_be32(ihdr + 4, (uint32_t)h);
    ihdr[8] = 8;  /* bits per sample */
    ihdr[9] = 2;  /* truecolour */
    ihdr[10] = 0; /* deflate */
    ihdr[11] = 0; /* adaptive filtering, each row filter type 0 (none) */
    ihdr[12] = 0; /* not interlaced */
    png_chunk(out, "IHDR", ihdr, sizeof ihdr);
    unsigned char phys[9];
    uint32_t ppm = (uint32_t)lround(dpi / 0.0254);
    put_be32(phys, ppm);
    put_be32(phys + 4, ppm);
    phys[8] = 1; /* pixels per metre */
    png_chunk(out, "pHYs", phys, sizeof phys);

    int zst = Z_OK;
    for (int y = 0; y <= h && zst == Z_OK; y++) {
        int flush = Z_FINISH;
        if (y < h) {
            const uint32_t *src = (const uint32_t *)(const void *)(pixels + (size_t)y * (size_t)stride);
            row[0] = 0; /* filter: none */
            for (int x = 0; x < w; x++) {
                row[1 + 3 * (size_t)x] = (unsigned char)(src[x] >> 16);
                row[2 + 3 * (size_t)x] = (unsigned char)(src[x] >> 8);
                row[3 + 3 * (size_t)x] = (unsigned char)src[x];
            }
            z.next_in = row;
            z.avail_in = (uInt)row_len;
            flush = Z_NO_FLUSH;
        }
        do {
            z.next_out = zout;
            z.avail_out = ZCHUNK;
            zst = deflate(&z, flush);
            size_t n = ZCHUNK - z.avail_out;
            if (n)
                png_chunk(out, "IDAT", zout, n);
        } while (zst == Z_OK && z.avail_out == 0);
        if (zst == Z_BUF_ERROR) /* no progress possible: all input taken */
            zst = Z_OK;
    }
    deflateEnd(&z);
    free(row);
    free(zout);
    if (zst != Z_STREAM_END)
        return tf_diag_error(d, TF_EIO, "zlib failed writing the PNG");
    png_chunk(out, "IEND", NULL, 0);
    if (out->oom)
        return tf_diag_oom(d, "writing the PNG");
    return true;
}

static bool render_png(const struct tf_figure *f, const struct tf_render_opts *o,
                       struct tf_buf *out, struct tf_diag *d)
{
    double dpi = o && o->dpi > 0.0 ? o->dpi : 200.0;
    struct tf_scene s;
    if (!layout(f, o, &s, d)) {
        tf_scene_fini(&s);
        return false;
    }
    double scale = dpi / 72.0;
    /* Rounded up, as rsvg-convert does, so no edge is cut. */
    double wpx = ceil(s.width * scale - 1e-6), hpx = ceil(s.height * scale - 1e-6);
    if (wpx > TF_MAX_PIXELS || hpx > TF_MAX_PIXELS) {
        tf_scene_fini(&s);
        return tf_diag_error(d, TF_EUSAGE,
                             "--dpi %.0f makes a %.0f x %.0f pixel PNG; the most is 32767 a side",
                             dpi, wpx, hpx);
    }
    if (!dl_load(d)) {
        tf_scene_fini(&s);
        return false;
    }
    cairo_surface_t *surf = dl.cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)wpx, (int)hpx);
    if (dl.cairo_surface_status(surf) != CAIRO_STATUS_SUCCESS) {
        dl.cairo_surface_destroy(surf);
        tf_scene_fini(&s);
        return tf_diag_error(d, TF_ENOMEM, "out of memory for a %.0f x %.0f pixel PNG", wpx, hpx);
    }
    cairo_t *cr = dl.cairo_create(surf);
    /* White to the last pixel: a canvas that is not a whole number of
     * pixels (the --annotate row, lanes grown to their minimum) leaves a
     * part-covered last row, which would show the surface's black. */
    dl.cairo_set_source_rgb(cr, 1.0, 1.0, 1.0);
    dl.cairo_rectangle(cr, 0.0, 0.0, wpx, hpx);
    dl.cairo_fill(cr);
    dl.cairo_scale(cr, scale, scale);
    bool ok = draw_scene(cr, &s, d);
    dl.cairo_destroy(cr);
    tf_scene_fini(&s);
    if (ok) {
        dl.cairo_surface_flush(surf);
        ok = png_encode(surf, dpi, out, d);
    }
    dl.cairo_surface_destroy(surf);
    return ok;
}

#define TF_CAIRO_AVAILABLE true

#else /* !TF_HAVE_CAIRO */

static bool render_missing(const struct tf_figure *f, const struct tf_render_opts *o,
                           struct tf_buf *b, struct tf_diag *d)
{
    (void)f, (void)o, (void)b;
    return tf_diag_error(d, TF_EUSAGE,
                         "PDF/PNG output is not available: tracefig was built without cairo "
                         "(install libcairo2-dev and rebuild)");
}
#define render_pdf render_missing
#define render_png render_missing
#define TF_CAIRO_AVAILABLE false

#endif

const struct tf_backend tf_backend_pdf = {
    .name = "pdf", .exts = {".pdf", NULL}, .description = "PDF (cairo), page = figure size",
    .available = TF_CAIRO_AVAILABLE, .render = render_pdf,
};
const struct tf_backend tf_backend_png = {
    .name = "png", .exts = {".png", NULL}, .description = "PNG (cairo) at --dpi, white",
    .available = TF_CAIRO_AVAILABLE, .render = render_png,
};
