/* svg_paths.c - SVG path data for many boxes; see svg_paths.h. */
#include "render/svg_paths.h"

#include <string.h>

#include "base/num.h"

int64_t tf_svg_centi(double v)
{
    /* The digits tf_fmt_num prints, read back: the same rounding. */
    char num[TF_NUM_MAX];
    size_t n = tf_fmt_num_len(num, v, 2);
    const char *p = num, *end = num + n;
    bool neg = *p == '-';
    if (neg)
        p++;
    int64_t whole = 0, frac = 0;
    int fd = 0;
    for (; p < end && *p != '.'; p++)
        whole = whole * 10 + (*p - '0');
    if (p < end && *p == '.')
        for (p++; p < end && fd < 2; p++, fd++)
            frac = frac * 10 + (*p - '0');
    for (; fd < 2; fd++)
        frac *= 10;
    int64_t c = whole * 100 + frac;
    return neg ? -c : c;
}

void tf_svg_put_centi(struct tf_buf *b, int64_t v)
{
    char tmp[32], *e = tmp + sizeof tmp, *p = e;
    bool neg = v < 0;
    uint64_t u = neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    uint64_t whole = u / 100, frac = u % 100;
    if (frac) {
        if (frac % 10) {
            *--p = (char)('0' + frac % 10);
            *--p = (char)('0' + frac / 10);
        } else {
            *--p = (char)('0' + frac / 10);
        }
        *--p = '.';
    }
    if (whole || !frac)
        do {
            *--p = (char)('0' + whole % 10);
            whole /= 10;
        } while (whole);
    if (neg)
        *--p = '-';
    tf_buf_putn(b, p, (size_t)(e - p));
}

bool tf_svg_path_box(const struct tf_path *p, struct tf_svg_box *box)
{
    size_t n = p->n;
    if (!p->closed || n < 4 || n > 5)
        return false;
    if (n == 5 && !(p->xs[4] == p->xs[0] && p->ys[4] == p->ys[0]))
        return false;
    int64_t x[4], y[4];
    for (int i = 0; i < 4; i++) {
        x[i] = tf_svg_centi(p->xs[i]);
        y[i] = tf_svg_centi(p->ys[i]);
    }
    /* Corners in either turning order, starting anywhere: two x and two y
     * values, each edge along one axis. */
    for (int i = 0; i < 4; i++) {
        int j = (i + 1) % 4;
        if (!((x[i] == x[j]) ^ (y[i] == y[j])))
            return false;
    }
    int64_t x0 = x[0], x1 = x[0], y0 = y[0], y1 = y[0];
    for (int i = 1; i < 4; i++) {
        x0 = x[i] < x0 ? x[i] : x0;
        x1 = x[i] > x1 ? x[i] : x1;
        y0 = y[i] < y0 ? y[i] : y0;
        y1 = y[i] > y1 ? y[i] : y1;
    }
    if (x0 == x1 || y0 == y1)
        return false;
    *box = (struct tf_svg_box){x0, y0, x1, y1};
    return true;
}

bool tf_svg_path_flat(const struct tf_path *p)
{
    if (!p->n)
        return true;
    int64_t x = tf_svg_centi(p->xs[0]), y = tf_svg_centi(p->ys[0]);
    bool same_x = true, same_y = true;
    for (size_t i = 1; i < p->n && (same_x || same_y); i++) {
        same_x = same_x && tf_svg_centi(p->xs[i]) == x;
        same_y = same_y && tf_svg_centi(p->ys[i]) == y;
    }
    return same_x || same_y;
}

/* A pen writing relative h/v steps, adding up steps along one direction. */
struct pen {
    struct tf_buf *b;
    char axis;   /* 'h', 'v', or 0: nothing pending */
    int64_t len; /* the pending step */
};

static void pen_flush(struct pen *p)
{
    if (p->axis && p->len) {
        tf_buf_putc(p->b, p->axis);
        tf_svg_put_centi(p->b, p->len);
    }
    p->axis = 0;
    p->len = 0;
}

static void pen_step(struct pen *p, char axis, int64_t d)
{
    if (!d)
        return;
    if (p->axis == axis && (p->len < 0) == (d < 0)) {
        p->len += d;
        return;
    }
    pen_flush(p);
    p->axis = axis;
    p->len = d;
}

/* Boxes side by side that one outline can hold: the next starts where
 * this ends and their heights overlap. */
static bool joins(const struct tf_svg_box *a, const struct tf_svg_box *b)
{
    return b->x0 == a->x1 && b->y0 < a->y1 && a->y0 < b->y1;
}

void tf_svg_boxes_data(struct tf_buf *b, const struct tf_svg_box *bx, size_t n)
{
    struct pen pen = {b, 0, 0};
    int64_t sx = 0, sy = 0; /* the last subpath's start (where 'z' leaves the pen) */
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && joins(&bx[j - 1], &bx[j]))
            j++;
        /* Start at the first box's bottom-left corner, as its own path
         * does, and go up its left side ... */
        if (i == 0) {
            tf_buf_putc(b, 'M');
            tf_svg_put_centi(b, bx[i].x0);
            if (bx[i].y1 >= 0)
                tf_buf_putc(b, ' ');
            tf_svg_put_centi(b, bx[i].y1);
        } else {
            tf_buf_putc(b, 'm');
            tf_svg_put_centi(b, bx[i].x0 - sx);
            if (bx[i].y1 - sy >= 0)
                tf_buf_putc(b, ' ');
            tf_svg_put_centi(b, bx[i].y1 - sy);
        }
        sx = bx[i].x0;
        sy = bx[i].y1;
        /* ... along the tops, left to right, down the last's right side,
         * and along the bottoms back; 'z' draws the first's bottom. */
        int64_t y = bx[i].y1;
        for (size_t k = i; k < j; k++) {
            pen_step(&pen, 'v', bx[k].y0 - y);
            pen_step(&pen, 'h', bx[k].x1 - bx[k].x0);
            y = bx[k].y0;
        }
        pen_step(&pen, 'v', bx[j - 1].y1 - y);
        y = bx[j - 1].y1;
        for (size_t k = j - 1; k > i; k--) {
            pen_step(&pen, 'h', bx[k].x0 - bx[k].x1);
            pen_step(&pen, 'v', bx[k - 1].y1 - y);
            y = bx[k - 1].y1;
        }
        pen_flush(&pen);
        tf_buf_putc(b, 'z');
        i = j;
    }
}
