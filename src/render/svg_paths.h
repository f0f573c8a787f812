/* svg_paths.h - SVG path data for svg.c: one path for many boxes.
 *
 * A run of share bars (scene.h: a `disjoint` group) holds one box per
 * class and bin.  svg.c writes the boxes of one paint as one <path>; this
 * file writes its data: boxes that touch side by side become one outline
 * (a staircase along their tops and bottoms), others a subpath each, in
 * relative commands.  Coordinates are those tf_fmt_num writes at 2
 * decimals (1/36 mm), held as integers of 1/100 pt, so every corner lands
 * where the box's own path put it and relative steps add up exactly.
 */
#ifndef TF_SVG_PATHS_H
#define TF_SVG_PATHS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "render/scene.h"

/* A box in 1/100 pt: x0 < x1, y0 < y1 (y down). */
struct tf_svg_box {
    int64_t x0, y0, x1, y1;
};

/* A value in 1/100 pt, rounded as tf_fmt_num(v, 2) prints it. */
int64_t tf_svg_centi(double v);

/* True when p is a plain axis-aligned rectangle (four corners, closed;
 * layout.c's boxes), into *box; false for any other path. */
bool tf_svg_path_box(const struct tf_path *p, struct tf_svg_box *box);

/* True when p's points, as printed, all have one x or all one y: its
 * fill covers nothing. */
bool tf_svg_path_flat(const struct tf_path *p);

/* Path data for boxes[0..n) (in drawing order), appended to b. */
void tf_svg_boxes_data(struct tf_buf *b, const struct tf_svg_box *boxes, size_t n);

/* A number in 1/100 pt, shortest: "12.5", "-.25", "3". */
void tf_svg_put_centi(struct tf_buf *b, int64_t v);

#endif
