/* svg.c - the SVG back-end: a scene (layout.c) written with libxml2's
 * xmlTextWriter.
 *
 * The file is standalone and web-ready: width/height in pt plus a viewBox in
 * the same units, role="img", <title> and <desc>, the CSS of
 * templates/svg.css in a <style> element (font stack, hover, dark mode),
 * no scripts, no external references, no ids.  Pasted inline into a web
 * page it stays to itself: the root has the class "tracefig", every rule
 * of its CSS is scoped to it, and every class the scene names is written
 * with a "tf-" prefix ("bar" -> "tf-bar"), so neither the page's CSS nor
 * another figure's changes it, and it changes nothing else on the page;
 * it scales down to a narrower column and keeps its size where there is
 * room.  Every
 * group of the scene becomes a <g> with its class, data-* attributes and a
 * <title> child (the tooltip).  Numbers go through tf_fmt_num (2 decimals,
 * which is 1/36 mm); free text goes through tf_xml_clean.  The background
 * is left transparent so a dark page shows through in dark mode.
 *
 * This file knows nothing of modes, lanes or traces: only the scene.
 */
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <libxml/xmlwriter.h>
#include <stdlib.h>
#include <string.h>

#include "base/dl.h"
#include "base/escape.h"
#include "base/num.h"
#include "render/layout.h"
#include "render/render.h"
#include "render/scene.h"
#include "render/svg_paths.h"
#include "render/templates.h"

#define DEC 2

/* --- Lazy loading -----------------------------------------------------------
 * libxml2 brings ICU and libstdc++, whose relocations cost more than the
 * whole figure: it is dlopen()ed at the first SVG render (base/dl.h), and
 * every function this file calls goes through xml.NAME. */
#define TF_XML_FUNCS(X)                                                                                  \
    X(0, int, xmlTextWriterStartDocument, (xmlTextWriterPtr, const char *, const char *, const char *))  \
    X(0, int, xmlTextWriterEndDocument, (xmlTextWriterPtr))                                              \
    X(0, int, xmlTextWriterStartElement, (xmlTextWriterPtr, const xmlChar *))                            \
    X(0, int, xmlTextWriterEndElement, (xmlTextWriterPtr))                                               \
    X(0, int, xmlTextWriterWriteAttribute, (xmlTextWriterPtr, const xmlChar *, const xmlChar *))         \
    X(0, int, xmlTextWriterWriteString, (xmlTextWriterPtr, const xmlChar *))                             \
    X(0, int, xmlTextWriterStartAttribute, (xmlTextWriterPtr, const xmlChar *))                          \
    X(0, int, xmlTextWriterEndAttribute, (xmlTextWriterPtr))                                             \
    X(0, int, xmlTextWriterWriteRawLen, (xmlTextWriterPtr, const xmlChar *, int))                        \
    X(0, int, xmlTextWriterSetIndent, (xmlTextWriterPtr, int))                                           \
    X(0, int, xmlTextWriterSetIndentString, (xmlTextWriterPtr, const xmlChar *))                         \
    X(0, void, xmlInitParser, (void))                                                                    \
    X(0, xmlTextWriterPtr, xmlNewTextWriterMemory, (xmlBufferPtr, int))                                  \
    X(0, void, xmlFreeTextWriter, (xmlTextWriterPtr))                                                    \
    X(0, xmlBufferPtr, xmlBufferCreate, (void))                                                          \
    X(0, const xmlChar *, xmlBufferContent, (const xmlBuffer *))                                         \
    X(0, int, xmlBufferLength, (const xmlBuffer *))                                                      \
    X(0, void, xmlBufferFree, (xmlBufferPtr))
TF_XML_FUNCS(TF_DL_TYPEDEF)
TF_XML_FUNCS(TF_DL_CHECK)
static struct xml_api {
    TF_XML_FUNCS(TF_DL_MEMBER)
} xml;
/* Loaded once per process, by whichever thread renders SVG first; the
 * outcome (an error, or none) is kept for every later caller. */
static pthread_once_t xml_once = PTHREAD_ONCE_INIT;
static struct tf_diag xml_outcome;

#define TF_DL_API struct xml_api
static const struct tf_dl_sym xml_syms[] = {TF_XML_FUNCS(TF_DL_SYM)};
#undef TF_DL_API
static const struct tf_dl_lib xml_lib = {"libxml2.so.2", "libxml2"};

static void xml_load_once(void)
{
    tf_diag_init(&xml_outcome);
    if (tf_dl_load("SVG output", &xml_lib, 1, xml_syms, sizeof xml_syms / sizeof xml_syms[0],
                   &xml, sizeof xml, &xml_outcome))
        xml.xmlInitParser(); /* libxml2's own once, before any thread writes */
}

static bool xml_load(struct tf_diag *d)
{
    pthread_once(&xml_once, xml_load_once);
    return tf_dl_outcome(&xml_outcome, d);
}

/* --- Attribute runs -----------------------------------------------------------
 * Most attributes are numbers, colours, path data and class lists, which
 * libxml2's attribute escaping leaves as they are.  xmlTextWriter spends
 * more on each attribute than on its bytes, so a run of such attributes
 * in a row is written as one: the writer starts the first
 * (xmlTextWriterStartAttribute writes ` NAME="`), the bytes in between
 * (`VALUE" NAME2="VALUE2`) go in as they are (xmlTextWriterWriteRawLen, in
 * the attribute), and the writer ends it (`"`).  Those are exactly the
 * bytes one xmlTextWriterWriteAttribute per attribute writes, because a
 * value joins a run only when every byte of it is one the escaping keeps
 * (printable ASCII other than & < > "); any other value ends the run and
 * is written by libxml2 as before.  The writer's one other use of its
 * state, indentation before end tags, writes the indent string, "". */

/* The length of s when libxml2 writes it unchanged as an attribute value
 * (and tf_xml_clean leaves it unchanged), else SIZE_MAX. */
static size_t attr_verbatim(const char *s)
{
    static const unsigned char esc[128] = {
        [0x00] = 1, [0x01] = 1, [0x02] = 1, [0x03] = 1, [0x04] = 1, [0x05] = 1, [0x06] = 1,
        [0x07] = 1, [0x08] = 1, [0x09] = 1, [0x0A] = 1, [0x0B] = 1, [0x0C] = 1, [0x0D] = 1,
        [0x0E] = 1, [0x0F] = 1, [0x10] = 1, [0x11] = 1, [0x12] = 1, [0x13] = 1, [0x14] = 1,
        [0x15] = 1, [0x16] = 1, [0x17] = 1, [0x18] = 1, [0x19] = 1, [0x1A] = 1, [0x1B] = 1,
        [0x1C] = 1, [0x1D] = 1, [0x1E] = 1, [0x1F] = 1, ['&'] = 1,  ['<'] = 1,  ['>'] = 1,
        ['"'] = 1,  [0x7F] = 1,
    };
    const unsigned char *p = (const unsigned char *)s;
    while (*p < 0x80 && !esc[*p])
        p++;
    /* The end, or a byte libxml2 would escape (or one of a non-ASCII
     * character, which it writes as a reference). */
    return *p ? SIZE_MAX : (size_t)(p - (const unsigned char *)s);
}

struct svg {
    xmlTextWriterPtr w;
    bool failed;
    struct tf_buf d;   /* scratch for path data */
    struct tf_buf cls; /* scratch for class lists */
    struct tf_buf clean; /* scratch for text that needs cleaning */
    /* the attribute run: the first attribute's name, and what follows the
     * `="` that starts it, up to its closing quote */
    bool in_run;
    char run_name[96];
    struct tf_buf run;
};

static const xmlChar *X(const char *s)
{
    return (const xmlChar *)s;
}

static void check(struct svg *s, int rc)
{
    if (rc < 0)
        s->failed = true;
}

/* The attribute run so far, written (see above); before anything else. */
static void flush(struct svg *s)
{
    if (!s->in_run)
        return;
    const char *name = s->run_name;
    s->in_run = false;
    if (s->failed)
        return;
    if (s->run.oom || s->run.len > (size_t)INT_MAX) {
        s->failed = true;
        return;
    }
    check(s, xml.xmlTextWriterStartAttribute(s->w, X(name)));
    if (!s->failed && s->run.len)
        check(s, xml.xmlTextWriterWriteRawLen(s->w, X(s->run.data), (int)s->run.len));
    if (!s->failed)
        check(s, xml.xmlTextWriterEndAttribute(s->w));
}

/* An attribute whose value libxml2 keeps as it is, into the run; false
 * (nothing done) when it is not one, or its name is too long to keep. */
static bool attr_run(struct svg *s, const char *name, const char *value)
{
    size_t vn = attr_verbatim(value);
    if (vn == SIZE_MAX)
        return false;
    size_t n = strlen(name);
    if (!s->in_run) {
        if (n >= sizeof s->run_name)
            return false;
        memcpy(s->run_name, name, n + 1);
        s->in_run = true;
        tf_buf_clear(&s->run);
    } else {
        tf_buf_putn(&s->run, "\" ", 2);
        tf_buf_putn(&s->run, name, n);
        tf_buf_putn(&s->run, "=\"", 2);
    }
    tf_buf_putn(&s->run, value, vn);
    return true;
}

/* An attribute whose value needs no cleaning (numbers, colours). */
static void attr_plain(struct svg *s, const char *name, const char *value)
{
    if (s->failed)
        return;
    if (attr_run(s, name, value))
        return;
    flush(s);
    if (!s->failed)
        check(s, xml.xmlTextWriterWriteAttribute(s->w, X(name), X(value)));
}

static void attr(struct svg *s, const char *name, const char *value)
{
    if (s->failed)
        return;
    if (attr_run(s, name, value)) /* cleaning keeps such a value too */
        return;
    flush(s);
    if (s->failed)
        return;
    const char *clean = tf_xml_clean_view(value, &s->clean);
    if (!clean) {
        s->failed = true;
        return;
    }
    check(s, xml.xmlTextWriterWriteAttribute(s->w, X(name), X(clean)));
}

/* A class list with each class prefixed "tf-". */
static void attr_class(struct svg *s, const char *list)
{
    if (s->failed)
        return;
    struct tf_buf *b = &s->cls;
    tf_buf_clear(b);
    for (const char *p = list; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        const char *e = p;
        while (*e && *e != ' ')
            e++;
        if (b->len)
            tf_buf_putc(b, ' ');
        tf_buf_puts(b, "tf-");
        tf_buf_putn(b, p, (size_t)(e - p));
        p = e;
    }
    if (b->oom) {
        s->failed = true;
        return;
    }
    attr(s, "class", b->data ? b->data : "");
}

static void attr_num(struct svg *s, const char *name, double v)
{
    char buf[TF_NUM_MAX];
    attr_plain(s, name, tf_fmt_num(buf, v, DEC));
}

static void attr_color(struct svg *s, const char *name, uint32_t rgb)
{
    char buf[8];
    attr_plain(s, name, tf_fmt_color(buf, rgb));
}

static void start(struct svg *s, const char *name)
{
    flush(s);
    if (!s->failed)
        check(s, xml.xmlTextWriterStartElement(s->w, X(name)));
}

static void end(struct svg *s)
{
    flush(s);
    if (!s->failed)
        check(s, xml.xmlTextWriterEndElement(s->w));
}

static void text_content(struct svg *s, const char *str)
{
    flush(s);
    if (s->failed)
        return;
    const char *clean = tf_xml_clean_view(str, &s->clean);
    if (!clean) {
        s->failed = true;
        return;
    }
    check(s, xml.xmlTextWriterWriteString(s->w, X(clean)));
}

static void element_text(struct svg *s, const char *name, const char *str)
{
    start(s, name);
    text_content(s, str);
    end(s);
}

static void svg_begin(void *ctx, double width, double height, const char *title,
                      const char *desc)
{
    struct svg *s = ctx;
    char w[TF_NUM_MAX], h[TF_NUM_MAX], box[2 * TF_NUM_MAX + 8];
    tf_fmt_num(w, width, DEC);
    tf_fmt_num(h, height, DEC);
    check(s, xml.xmlTextWriterStartDocument(s->w, NULL, "UTF-8", NULL));
    start(s, "svg");
    attr(s, "xmlns", "http://www.w3.org/2000/svg");
    attr(s, "class", "tracefig");
    /* Width and height in points: the physical size of the figure. */
    char wpt[TF_NUM_MAX + 2], hpt[TF_NUM_MAX + 2];
    strcpy(wpt, w);
    strcat(wpt, "pt");
    strcpy(hpt, h);
    strcat(hpt, "pt");
    attr(s, "width", wpt);
    attr(s, "height", hpt);
    strcpy(box, "0 0 ");
    strcat(box, w);
    strcat(box, " ");
    strcat(box, h);
    attr(s, "viewBox", box);
    /* Inline in a page: this size, but never wider than the column, and
     * whatever the page's own rules for svg elements say. */
    char style[TF_NUM_MAX + 48];
    strcpy(style, "width:");
    strcat(style, wpt);
    strcat(style, ";max-width:100%;height:auto");
    attr(s, "style", style);
    attr(s, "role", "img");
    /* Presentation fallbacks for viewers that skip <style>. */
    attr(s, "font-family", "DejaVu Sans,sans-serif");
    attr(s, "font-weight", "bold");
    if (title)
        element_text(s, "title", title);
    if (desc)
        element_text(s, "desc", desc);
    const struct tf_template *css = tf_template_get("svg.css");
    if (css) {
        start(s, "style");
        text_content(s, css->data);
        end(s);
    }
}

static void svg_group_begin(void *ctx, const struct tf_group *g)
{
    struct svg *s = ctx;
    start(s, "g");
    if (g->cls)
        attr_class(s, g->cls);
    for (size_t i = 0; i < g->n_attrs; i++) {
        char name[80] = "data-";
        strncat(name, g->attrs[i].key, sizeof name - 6);
        attr(s, name, g->attrs[i].value);
    }
    if (g->title)
        element_text(s, "title", g->title);
}

static void svg_group_end(void *ctx)
{
    end(ctx);
}

/* Path data with absolute commands; H/V when a segment is axis-aligned
 * (as printed: two points that print alike are the same point). */
static void path_data(struct tf_buf *b, const struct tf_path *p)
{
    tf_buf_clear(b);
    size_t n = p->n;
    /* A closed outline that repeats its first point: 'Z' draws that side. */
    if (p->closed && n > 2 && p->xs[n - 1] == p->xs[0] && p->ys[n - 1] == p->ys[0])
        n--;
    char num[4][TF_NUM_MAX];
    size_t len[4];
    int cur = 0; /* num[cur], num[cur + 1]: this point; the other pair: the last */
    for (size_t i = 0; i < n; i++) {
        char *xs = num[cur], *ys = num[cur + 1];
        size_t xn = len[cur] = tf_fmt_num_len(xs, p->xs[i], DEC);
        size_t yn = len[cur + 1] = tf_fmt_num_len(ys, p->ys[i], DEC);
        int last = 2 - cur;
        cur = last;
        if (i > 0) {
            bool same_x = xn == len[last] && memcmp(xs, num[last], xn) == 0;
            bool same_y = yn == len[last + 1] && memcmp(ys, num[last + 1], yn) == 0;
            if (same_x && same_y)
                continue;
            if (same_y) {
                tf_buf_putc(b, 'H');
                tf_buf_putn(b, xs, xn);
                continue;
            }
            if (same_x) {
                tf_buf_putc(b, 'V');
                tf_buf_putn(b, ys, yn);
                continue;
            }
        }
        tf_buf_putc(b, i ? 'L' : 'M');
        tf_buf_putn(b, xs, xn);
        tf_buf_putc(b, ' ');
        tf_buf_putn(b, ys, yn);
    }
    if (p->closed)
        tf_buf_putc(b, 'Z');
}

/* A <path> of p's paint and class with the data in s->d. */
static void path_element(struct svg *s, const struct tf_path *p)
{
    if (s->d.oom) {
        s->failed = true;
        return;
    }
    start(s, "path");
    if (p->cls)
        attr_class(s, p->cls);
    attr_plain(s, "d", s->d.data ? s->d.data : "");
    if (p->has_fill) {
        attr_color(s, "fill", p->fill);
        if (p->fill_opacity < 1)
            attr_num(s, "fill-opacity", p->fill_opacity);
    } else {
        attr(s, "fill", "none");
    }
    if (p->has_stroke) {
        attr_color(s, "stroke", p->stroke);
        if (p->stroke_opacity < 1)
            attr_num(s, "stroke-opacity", p->stroke_opacity);
        attr_num(s, "stroke-width", p->stroke_width);
        if (p->n_dash) {
            struct tf_buf *b = &s->d;
            tf_buf_clear(b);
            for (size_t i = 0; i < p->n_dash; i++) {
                if (i)
                    tf_buf_putc(b, ' ');
                tf_buf_num(b, p->dash[i], DEC);
            }
            attr(s, "stroke-dasharray", b->data);
        }
        static const char *const caps[] = {"butt", "round", "square"};
        static const char *const joins[] = {"miter", "round", "bevel"};
        if (p->cap != TF_CAP_BUTT)
            attr(s, "stroke-linecap", caps[p->cap]);
        if (p->join != TF_JOIN_MITER)
            attr(s, "stroke-linejoin", joins[p->join]);
    }
    end(s);
}

static void svg_path(void *ctx, const struct tf_path *p)
{
    struct svg *s = ctx;
    path_data(&s->d, p);
    path_element(s, p);
}

/* Two paths drawn alike (paint and class), whatever their points. */
static bool same_paint(const struct tf_path *a, const struct tf_path *b)
{
    return a->has_fill == b->has_fill && a->fill == b->fill &&
           a->fill_opacity == b->fill_opacity && !a->has_stroke && !b->has_stroke &&
           (a->cls == b->cls || (a->cls && b->cls && strcmp(a->cls, b->cls) == 0));
}

/* The paths items[0..n) of a disjoint group (scene.h): the boxes of one
 * paint as one <path> (svg_paths.h), in the order each paint first comes;
 * any other path as it is.  Their order does not matter: none overlaps
 * another. */
static void disjoint_paths(struct svg *s, const struct tf_item *items, size_t n)
{
    struct tf_svg_box *boxes = malloc(n * sizeof *boxes);
    bool *is_box = malloc(n * sizeof *is_box), *done = calloc(n, sizeof *done);
    if (!boxes || !is_box || !done) {
        free(boxes);
        free(is_box);
        free(done);
        s->failed = true;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const struct tf_path *p = &items[i].u.path;
        is_box[i] = !p->has_stroke && tf_svg_path_box(p, &boxes[i]);
        /* A fill of no area (a share that rounds to no height) paints
         * nothing: left out. */
        done[i] = !p->has_stroke && tf_svg_path_flat(p);
    }
    struct tf_svg_box *run = malloc(n * sizeof *run);
    if (!run)
        s->failed = true;
    for (size_t i = 0; i < n && run && !s->failed; i++) {
        if (done[i])
            continue;
        const struct tf_path *p = &items[i].u.path;
        if (!is_box[i]) {
            svg_path(s, p);
            continue;
        }
        size_t m = 0;
        for (size_t j = i; j < n; j++)
            if (!done[j] && is_box[j] && same_paint(p, &items[j].u.path)) {
                run[m++] = boxes[j];
                done[j] = true;
            }
        tf_buf_clear(&s->d);
        tf_svg_boxes_data(&s->d, run, m);
        path_element(s, p);
    }
    free(run);
    free(boxes);
    free(is_box);
    free(done);
}

static void svg_text(void *ctx, const struct tf_text *t)
{
    struct svg *s = ctx;
    start(s, "text");
    if (t->cls)
        attr_class(s, t->cls);
    attr_num(s, "x", t->x);
    attr_num(s, "y", t->y);
    attr_num(s, "font-size", t->size);
    if (!t->bold)
        attr(s, "font-weight", "normal");
    if (t->anchor == TF_ANCHOR_MIDDLE)
        attr(s, "text-anchor", "middle");
    else if (t->anchor == TF_ANCHOR_END)
        attr(s, "text-anchor", "end");
    if (t->color != TF_COLOR_BLACK)
        attr_color(s, "fill", t->color);
    text_content(s, t->s);
    end(s);
}

static void svg_end(void *ctx)
{
    struct svg *s = ctx;
    end(s); /* svg */
    if (!s->failed)
        check(s, xml.xmlTextWriterEndDocument(s->w));
}

/* tf_scene_draw with the svg_draw table, but the paths of a disjoint
 * group with nothing else in it go to disjoint_paths together. */
static void draw_scene(const struct tf_scene *scene, struct svg *s)
{
    svg_begin(s, scene->width, scene->height, scene->title, scene->desc);
    for (size_t i = 0; i < scene->n_items; i++) {
        const struct tf_item *it = &scene->items[i];
        switch (it->kind) {
        case TF_ITEM_PATH:
            svg_path(s, &it->u.path);
            break;
        case TF_ITEM_TEXT:
            svg_text(s, &it->u.text);
            break;
        case TF_ITEM_GROUP_BEGIN: {
            svg_group_begin(s, &it->u.group);
            size_t j = i + 1;
            while (j < scene->n_items && scene->items[j].kind == TF_ITEM_PATH)
                j++;
            if (it->u.group.disjoint && j < scene->n_items &&
                scene->items[j].kind == TF_ITEM_GROUP_END && j > i + 1) {
                disjoint_paths(s, &scene->items[i + 1], j - i - 1);
                i = j - 1;
            }
            break;
        }
        case TF_ITEM_GROUP_END:
            svg_group_end(s);
            break;
        }
    }
    svg_end(s);
}

static bool render_svg(const struct tf_figure *f, const struct tf_render_opts *o,
                       struct tf_buf *out, struct tf_diag *d)
{
    (void)o;
    if (!xml_load(d))
        return false;
    struct tf_scene scene;
    tf_scene_init(&scene);
    struct tf_plan own;
    const struct tf_plan *plan = tf_render_plan(f, o, &own);
    bool laid = plan && tf_layout_plan(f, plan, &scene);
    tf_plan_fini(&own);
    if (!laid) {
        tf_scene_fini(&scene);
        return tf_diag_oom(d, "svg");
    }
    xmlBufferPtr xb = xml.xmlBufferCreate();
    xmlTextWriterPtr w = xb ? xml.xmlNewTextWriterMemory(xb, 0) : NULL;
    if (!w) {
        if (xb)
            xml.xmlBufferFree(xb);
        tf_scene_fini(&scene);
        return tf_diag_oom(d, "svg");
    }
    xml.xmlTextWriterSetIndent(w, 1);
    xml.xmlTextWriterSetIndentString(w, X(""));
    struct svg s = {.w = w};
    tf_buf_init(&s.d);
    tf_buf_init(&s.cls);
    tf_buf_init(&s.clean);
    tf_buf_init(&s.run);
    draw_scene(&scene, &s);
    xml.xmlFreeTextWriter(w); /* flushes into xb */
    bool ok = !s.failed && !s.d.oom;
    if (ok) {
        tf_buf_putn(out, (const char *)xml.xmlBufferContent(xb), (size_t)xml.xmlBufferLength(xb));
        ok = !out->oom;
    }
    xml.xmlBufferFree(xb);
    tf_buf_fini(&s.d);
    tf_buf_fini(&s.cls);
    tf_buf_fini(&s.clean);
    tf_buf_fini(&s.run);
    tf_scene_fini(&scene);
    if (!ok)
        return tf_diag_oom(d, "svg: writing the document");
    return true;
}

const struct tf_backend tf_backend_svg = {
    .name = "svg",
    .exts = {".svg", NULL},
    .description = "standalone SVG for the web",
    .available = true,
    .render = render_svg,
};
