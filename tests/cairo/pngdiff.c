/* pngdiff.c - how many pixels two PNGs disagree on (a test helper).
 *
 *   pngdiff A.png B.png TOLERANCE MAX_PERCENT [DIFF.png]
 *
 * Reads both files with cairo, flattens them on white, compares the area
 * they share (sizes may differ by one pixel: rsvg-convert rounds
 * 634.0000001 up to 635) and counts two things:
 *
 *   exact:  pixels where R, G or B differs by more than TOLERANCE (0..255)
 *           from the pixel at the same place;
 *   shift1: pixels that differ so from EVERY pixel within one pixel of the
 *           same place in the other image, and the other way round.  This
 *           forgives anti-aliasing and sub-pixel glyph placement (pango
 *           rounds glyph positions, cairo here does not) but still counts a
 *           missing, extra or misplaced bar, line or label.
 *
 * Prints one line with both and exits 0 when the shift1 share is at most
 * MAX_PERCENT and the exact one at most twice that (a figure of small text
 * on a small canvas has more anti-aliased edge pixels: a column-wide
 * figure at 8 pt), 1 otherwise, 2 on a usage or read error (or sizes
 * that differ by more than a pixel).  DIFF.png, when given, shows A faded
 * with the exact differences in orange and the shift1 ones in red.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cairo.h>

struct img {
    int w, h, stride;
    const unsigned char *data;
    cairo_surface_t *s;
};

static struct img load(const char *path)
{
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        fprintf(stderr, "pngdiff: %s: %s\n", path, cairo_status_to_string(cairo_surface_status(s)));
        exit(2);
    }
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    cairo_surface_t *flat = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_t *cr = cairo_create(flat);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_set_source_surface(cr, s, 0, 0);
    cairo_paint(cr);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    cairo_surface_flush(flat);
    struct img im = {w, h, cairo_image_surface_get_stride(flat),
                     cairo_image_surface_get_data(flat), flat};
    return im;
}

static uint32_t px(const struct img *im, int x, int y)
{
    return ((const uint32_t *)(const void *)(im->data + (size_t)y * (size_t)im->stride))[x];
}

static bool close_enough(uint32_t a, uint32_t b, int tol)
{
    for (int shift = 0; shift <= 16; shift += 8) {
        int x = (int)((a >> shift) & 0xFF), y = (int)((b >> shift) & 0xFF);
        if ((x > y ? x - y : y - x) > tol)
            return false;
    }
    return true;
}

/* Whether a's pixel (x, y) matches some pixel of b within one pixel. */
static bool near_match(const struct img *a, const struct img *b, int x, int y, int w, int h,
                       int tol)
{
    uint32_t p = px(a, x, y);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int u = x + dx, v = y + dy;
            if (u >= 0 && v >= 0 && u < w && v < h && close_enough(p, px(b, u, v), tol))
                return true;
        }
    return false;
}

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: pngdiff A.png B.png TOLERANCE MAX_PERCENT [DIFF.png]\n");
        return 2;
    }
    struct img a = load(argv[1]), b = load(argv[2]);
    int tol = atoi(argv[3]);
    double max_pct = atof(argv[4]);
    if (abs(a.w - b.w) > 1 || abs(a.h - b.h) > 1) {
        fprintf(stderr, "pngdiff: sizes differ: %dx%d vs %dx%d\n", a.w, a.h, b.w, b.h);
        return 2;
    }
    int w = a.w < b.w ? a.w : b.w, h = a.h < b.h ? a.h : b.h;
    cairo_surface_t *out = argc == 6 ? cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h) : NULL;
    unsigned char *dd = out ? cairo_image_surface_get_data(out) : NULL;
    int sd = out ? cairo_image_surface_get_stride(out) : 0;
    long exact = 0, shifted = 0;
    for (int y = 0; y < h; y++) {
        uint32_t *rd = dd ? (uint32_t *)(void *)(dd + (size_t)y * (size_t)sd) : NULL;
        for (int x = 0; x < w; x++) {
            uint32_t pa = px(&a, x, y);
            bool e = !close_enough(pa, px(&b, x, y), tol);
            bool s = e && (!near_match(&a, &b, x, y, w, h, tol) ||
                           !near_match(&b, &a, x, y, w, h, tol));
            exact += e;
            shifted += s;
            if (rd) {
                uint32_t grey = 0xC0u + (((pa >> 8) & 0xFFu) >> 2);
                rd[x] = s ? 0xFF0000u : e ? 0xFFA000u : (grey << 16) | (grey << 8) | grey;
            }
        }
    }
    if (out) {
        cairo_surface_mark_dirty(out);
        cairo_surface_write_to_png(out, argv[5]);
        cairo_surface_destroy(out);
    }
    long total = (long)w * h;
    double pe = total ? 100.0 * (double)exact / (double)total : 0.0;
    double ps = total ? 100.0 * (double)shifted / (double)total : 0.0;
    printf("pngdiff: %dx%d vs %dx%d, tolerance %d: exact %ld of %ld pixels (%.3f %%), "
           "shift1 %ld (%.3f %%)\n",
           a.w, a.h, b.w, b.h, tol, exact, total, pe, shifted, ps);
    cairo_surface_destroy(a.s);
    cairo_surface_destroy(b.s);
    return ps <= max_pct && pe <= 2 * max_pct ? 0 : 1;
}
