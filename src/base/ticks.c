/* ticks.c - "nice" axis ticks, as matplotlib's MaxNLocator picks them
 * (steps 1, 2, 2.5, 5, 10; at least two ticks in view), so the figure's
 * ticks match the reference's. */
#include "base/ticks.h"

#include <stdbool.h>

#include <math.h>

/* Python's float divmod(x, y): floor quotient and a remainder with y's sign. */
static void py_divmod(double x, double y, double *q, double *r)
{
    double mod = fmod(x, y);
    double div = (x - mod) / y;
    if (mod != 0.0) {
        if ((y < 0) != (mod < 0)) {
            mod += y;
            div -= 1.0;
        }
    } else {
        mod = copysign(0.0, y);
    }
    double fq;
    if (div != 0.0) {
        fq = floor(div);
        if (div - fq > 0.5)
            fq += 1.0;
    } else {
        fq = copysign(0.0, x / y);
    }
    *q = fq;
    *r = mod;
}

static bool close_to(double ms, double edge, double step, double offset)
{
    double tol = 1e-10;
    if (offset > 0) {
        double digits = log10(offset / step);
        tol = fmax(1e-10, pow(10.0, digits - 12));
        tol = fmin(0.4999, tol);
    }
    return fabs(ms - edge) < tol;
}

size_t tf_nice_ticks(double vmin, double vmax, int nbins, double *out, size_t max_out)
{
    if (!(vmax > vmin) || !isfinite(vmin) || !isfinite(vmax) || nbins < 1)
        return 0;
    /* scale_range */
    double dv = vmax - vmin;
    double meanv = (vmax + vmin) / 2;
    double offset = 0.0;
    if (fabs(meanv) / dv >= 100.0)
        offset = copysign(pow(10.0, floor(log10(fabs(meanv)))), meanv);
    double scale = pow(10.0, floor(log10(dv / nbins)));
    double lo = vmin - offset, hi = vmax - offset;
    static const double base[] = {0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10, 20};
    const size_t nsteps = sizeof base / sizeof base[0];
    double raw_step = (hi - lo) / nbins;
    size_t istep = nsteps - 1;
    for (size_t i = 0; i < nsteps; i++)
        if (base[i] * scale >= raw_step) {
            istep = i;
            break;
        }
    double best_vmin = 0, step = 0, low = 0, high = 0;
    for (size_t k = istep + 1; k-- > 0;) {
        step = base[k] * scale;
        double q, r;
        py_divmod(lo, step, &q, &r);
        best_vmin = q * step;
        double aoff = fabs(offset);
        py_divmod(lo - best_vmin, step, &q, &r);
        low = close_to(r / step, 1, step, aoff) ? q + 1 : q;
        py_divmod(hi - best_vmin, step, &q, &r);
        high = close_to(r / step, 0, step, aoff) ? q : q + 1;
        int inview = 0;
        for (double j = low; j < high + 1; j += 1) {
            double t = j * step + best_vmin;
            if (t <= hi && t >= lo)
                inview++;
        }
        if (inview >= 2)
            break;
    }
    /* The ticks matplotlib draws: those inside the view, within rounding. */
    double eps = 1e-10 * dv;
    size_t n = 0;
    for (double j = low; j < high + 1 && n < max_out; j += 1) {
        double t = j * step + best_vmin + offset;
        if (t >= vmin - eps && t <= vmax + eps)
            out[n++] = t;
    }
    return n;
}
