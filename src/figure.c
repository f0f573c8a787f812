/* figure.c - ownership and shared geometry of the figure model: the bar
 * outline with its zigzag edges (used by the layout and by TikZ alike) and
 * the bar titles used for tooltips. */
#include "figure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"

void tf_figure_init(struct tf_figure *f)
{
    memset(f, 0, sizeof *f);
}

void tf_figure_fini(struct tf_figure *f)
{
    free(f->bars);
    memset(f, 0, sizeof *f);
}

struct tf_bar *tf_figure_add_bar(struct tf_figure *f)
{
    void *items = f->bars;
    if (!tf_grow(&items, &f->cap_bars, f->n_bars, sizeof *f->bars))
        return NULL;
    f->bars = items;
    struct tf_bar *b = &f->bars[f->n_bars++];
    memset(b, 0, sizeof *b);
    return b;
}

double tf_figure_span(const struct tf_figure *f)
{
    return f->window_end_ms - f->window_start_ms;
}

/* One torn edge: 2 * teeth + 1 points from (x, ya) to (x, yb), every odd
 * point pushed `dx` sideways; the first point is left out (the caller has
 * it already). */
static size_t zigzag(double x, double ya, double yb, double dx, double *xs, double *ys)
{
    const int n = 2 * TF_ZIGZAG_TEETH + 1;
    size_t k = 0;
    for (int i = 1; i < n; i++) {
        ys[k] = ya + (yb - ya) * i / (n - 1);
        xs[k] = x + (i % 2 ? dx : 0.0);
        k++;
    }
    return k;
}

void tf_bar_drawn_extent(const struct tf_figure *f, const struct tf_bar *b, double *x0,
                         double *x1)
{
    double left = b->x0, right = b->x1, span = tf_figure_span(f);
    if (span > 0) {
        left = fmin(fmax(left, 0.0), span);
        right = fmax(fmin(right, span), left);
    }
    *x0 = left;
    *x1 = right;
}

size_t tf_bar_outline(const struct tf_figure *f, const struct tf_bar *b, double y_bottom,
                      double y_top, double *xs, double *ys)
{
    double left, right;
    tf_bar_drawn_extent(f, b, &left, &right);
    double width = right - left;
    double amp = fmin(f->zigzag_amp_ms, fmax(width * TF_ZIGZAG_MAX_WIDTH_FRAC, 0.0));
    size_t n = 0;
    xs[n] = left, ys[n] = y_bottom, n++;
    xs[n] = right, ys[n] = y_bottom, n++;
    if (b->clip_right && amp > 0)
        n += zigzag(right, y_bottom, y_top, -amp, xs + n, ys + n);
    else
        xs[n] = right, ys[n] = y_top, n++;
    xs[n] = left, ys[n] = y_top, n++;
    if (b->clip_left && amp > 0)
        n += zigzag(left, y_top, y_bottom, amp, xs + n, ys + n);
    else
        xs[n] = left, ys[n] = y_bottom, n++;
    return n;
}

const char *tf_bar_title(const struct tf_bar *b)
{
    static const struct {
        const char *name, *title;
    } titles[] = {
        {"hdf5_io", "HDF5 read"},
        {"compute", "GPU compute"},
        {"wait_for_io", "Wait for prefetch"},
        {"await_dispatch", "Ready \xE2\x86\x92 launch"},
        {"trsm_host", "TRSM (host)"},
        {"io", "I/O"},
    };
    for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++)
        if (strcmp(b->name, titles[i].name) == 0)
            return titles[i].title;
    return b->name;
}

void tf_bar_tooltip(const struct tf_bar *b, char *out, size_t n)
{
    char dur[TF_NUM_MAX];
    tf_fmt_num(dur, b->dur_ms, 1);
    if (b->has_candidate)
        snprintf(out, n, "%s \xC2\xB7 candidate %lld \xC2\xB7 %s ms", tf_bar_title(b),
                 b->candidate, dur);
    else
        snprintf(out, n, "%s \xC2\xB7 %s ms", tf_bar_title(b), dur);
}
