/* svg_paths.c: the boxes of a run of share bars as one path (issue 40):
 * boxes side by side become one staircase outline in relative steps, on
 * exactly the corners their own paths had; others are subpaths. */
#include <string.h>

#include "harness.h"
#include "render/svg_paths.h"

static const char *data(struct tf_buf *b, const struct tf_svg_box *bx, size_t n)
{
    tf_buf_clear(b);
    tf_svg_boxes_data(b, bx, n);
    tf_buf_putc(b, '\0');
    return b->data;
}

TF_TEST(svg_centi_rounds_as_printed_and_writes_short)
{
    TF_CHECK(tf_svg_centi(29.154999) == 2915);
    TF_CHECK(tf_svg_centi(0.125) == 12); /* "%.2f": half to even on the exact binary value */
    TF_CHECK(tf_svg_centi(-1.5) == -150);
    TF_CHECK(tf_svg_centi(0.004) == 0);
    struct tf_buf b;
    tf_buf_init(&b);
    tf_svg_put_centi(&b, 40);
    tf_buf_putc(&b, ' ');
    tf_svg_put_centi(&b, -25);
    tf_buf_putc(&b, ' ');
    tf_svg_put_centi(&b, 300);
    tf_buf_putc(&b, ' ');
    tf_svg_put_centi(&b, 1210);
    tf_buf_putc(&b, ' ');
    tf_svg_put_centi(&b, 0);
    tf_buf_putc(&b, '\0');
    TF_CHECK(strcmp(b.data, ".4 -.25 3 12.1 0") == 0);
    tf_buf_fini(&b);
}

TF_TEST(svg_boxes_side_by_side_are_one_outline)
{
    struct tf_buf b;
    tf_buf_init(&b);
    /* Three bins of one class, 1 pt each, the middle one taller: one
     * outline from the first's bottom-left corner. */
    struct tf_svg_box run[] = {
        {824, 2875, 924, 2915}, {924, 2800, 1025, 2915}, {1025, 2875, 1125, 2915}};
    TF_CHECK(strcmp(data(&b, run, 3), "M8.24 29.15v-.4h1v-.75h1.01v.75h1v.4h-2.01z") == 0);
    /* Alike heights: a rectangle. */
    struct tf_svg_box flat[] = {{824, 2875, 924, 2915}, {924, 2875, 1025, 2915}};
    TF_CHECK(strcmp(data(&b, flat, 2), "M8.24 29.15v-.4h2.01v.4h-1.01z") == 0);
    /* Apart, or not overlapping in height: a subpath each, moved from the
     * last one's start. */
    struct tf_svg_box apart[] = {{824, 2875, 924, 2915}, {1224, 2875, 1324, 2915},
                                 {1324, 2000, 1424, 2100}};
    TF_CHECK(strcmp(data(&b, apart, 3),
                    "M8.24 29.15v-.4h1v.4zm4 0v-.4h1v.4zm1-8.15v-1h1v1z") == 0);
    tf_buf_fini(&b);
}

TF_TEST(svg_path_box_reads_rectangles_only)
{
    double xs[4] = {1, 2, 2, 1}, ys[4] = {5, 5, 4, 4};
    struct tf_path p = {.xs = xs, .ys = ys, .n = 4, .closed = true, .has_fill = true};
    struct tf_svg_box box;
    TF_CHECK(tf_svg_path_box(&p, &box));
    TF_CHECK(box.x0 == 100 && box.x1 == 200 && box.y0 == 400 && box.y1 == 500);
    TF_CHECK(!tf_svg_path_flat(&p));
    double zx[4] = {1, 2, 1.5, 1}; /* not axis-aligned */
    p.xs = zx;
    TF_CHECK(!tf_svg_path_box(&p, &box));
    double fy[4] = {5, 5, 5.001, 5.001}; /* no height once printed */
    p.xs = xs;
    p.ys = fy;
    TF_CHECK(!tf_svg_path_box(&p, &box));
    TF_CHECK(tf_svg_path_flat(&p));
    p.ys = ys;
    p.closed = false;
    TF_CHECK(!tf_svg_path_box(&p, &box));
}
