/* recolor.c - the generic Chrome mode's colours in a figure of several
 * traces (lib/run_multi.c composes them): the categories take the colours
 * one trace's would, over all the traces' names at once; names coloured by
 * name take the palette in order of their time over all the traces; and,
 * as in one trace's figure (colors.c), a colour means one class: a class
 * whose colour a bigger class holds takes a free one.
 */
#include "rules/chrome/chrome_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/hash.h"

/* --- a figure of several traces ---------------------------------------------------- */

static int by_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

struct class_time {
    const char *label;
    double t;
};

static int by_class_time(const void *x, const void *y)
{
    const struct class_time *a = x, *b = y;
    if (a->t != b->t)
        return a->t > b->t ? -1 : 1;
    return strcmp(a->label, b->label);
}

/* Each category's drawn time in t[f->n_cats] (axis units): slices'
 * widths, dense bars' busy shares. */
static void drawn_time(const struct tf_figure *f, double *t)
{
    size_t n = f->n_cats;
    for (size_t i = 0; i < f->n_bars; i++) {
        const struct tf_bar *b = &f->bars[i];
        double w = b->x1 - b->x0;
        if (b->shape == TF_SHAPE_DENSE && b->n_shares) {
            for (size_t k = 0; k < b->n_shares; k++)
                if (b->shares[k].cat < n)
                    t[b->shares[k].cat] += b->shares[k].share * w;
        } else if (b->cat < n) {
            t[b->cat] += b->shape == TF_SHAPE_DENSE ? b->busy : w;
        }
    }
}

/* Colour by name over several traces: the classes listed (a label, not
 * "other") get the palette in order of their time over all the traces, as
 * one trace's do; past the palette they keep their colour.  False when out
 * of memory. */
static bool recolor_names(struct tf_figure *f)
{
    size_t n_colors;
    const uint32_t *name_colors = tf_chrome_name_palette(&n_colors);
    size_t n = f->n_cats;
    double *t = calloc(n ? n : 1, sizeof *t);
    struct class_time *v = malloc((n ? n : 1) * sizeof *v);
    if (!t || !v) {
        free(t);
        free(v);
        return false;
    }
    drawn_time(f, t);
    size_t nv = 0;
    for (size_t i = 0; i < n; i++) {
        const struct tf_category *c = &f->cats[i];
        if (strncmp(c->key, "name/", 5) != 0 || strncmp(c->key, "name/other/", 11) == 0 ||
            strncmp(c->key, "name/own/", 9) == 0 || !c->label)
            continue; /* "other", and names that keep their hash colour */
        size_t j = 0;
        while (j < nv && strcmp(v[j].label, c->label) != 0)
            j++;
        if (j == nv)
            v[nv++] = (struct class_time){c->label, 0};
        v[j].t += t[i];
    }
    if (nv > 1)
        qsort(v, nv, sizeof *v, by_class_time);
    for (size_t j = 0; j < nv && j < n_colors; j++)
        for (size_t i = 0; i < n; i++) {
            struct tf_category *c = &f->cats[i];
            if (strncmp(c->key, "name/", 5) == 0 && strncmp(c->key, "name/own/", 9) != 0 &&
                c->label && strcmp(c->label, v[j].label) == 0)
                c->color = name_colors[j];
        }
    free(t);
    free(v);
    return true;
}

/* Whether category c is a grey that gathers the rest ("other", "other
 * processes"): it keeps its grey, and claims it first. */
static bool gathers(const struct tf_category *c)
{
    return strcmp(c->key, "cat-other") == 0 || strcmp(c->key, "cpu-other") == 0 ||
           strncmp(c->key, "name/other/", 11) == 0;
}

struct class_of {
    const char *cls;
    double t;
    bool grey;
    uint32_t rgb;
};

static int by_claim(const void *x, const void *y)
{
    const struct class_of *a = x, *b = y;
    if (a->grey != b->grey)
        return a->grey ? -1 : 1;
    if (a->t != b->t)
        return a->t > b->t ? -1 : 1;
    return strcmp(a->cls, b->cls);
}

/* A colour means one class, over the traces' classes at once: in order of
 * drawn time t[] (per category), each class keeps its colour while no
 * bigger class holds it or one like it, else takes the first spare
 * colour, then the by-name palette's, that none holds.  False when out of
 * memory. */
static bool one_class_per_color(struct tf_figure *f, const double *t)
{
    size_t n = f->n_cats, nv = 0, n_held = 0;
    struct class_of *v = malloc((n ? n : 1) * sizeof *v);
    uint32_t *held = malloc((n ? n : 1) * sizeof *held);
    if (!v || !held) {
        free(v);
        free(held);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        const char *cls = tf_category_class(&f->cats[i]);
        size_t j = 0;
        while (j < nv && strcmp(v[j].cls, cls) != 0)
            j++;
        if (j == nv)
            v[nv++] = (struct class_of){cls, 0, gathers(&f->cats[i]), f->cats[i].color};
        v[j].t += t[i];
    }
    if (nv > 1)
        qsort(v, nv, sizeof *v, by_claim);
    size_t n_names;
    const uint32_t *names = tf_chrome_name_palette(&n_names);
    for (size_t j = 0; j < nv; j++) {
        bool free_ = true;
        for (size_t k = 0; k < n_held && free_; k++)
            free_ = !tf_chrome_alike(held[k], v[j].rgb);
        for (size_t q = 0; !free_ && q < 8 + n_names; q++) {
            uint32_t c = q < 8 ? tf_chrome_spare_colors[q] : names[q - 8];
            bool ok = true;
            for (size_t k = 0; k < n_held && ok; k++)
                ok = !tf_chrome_alike(held[k], c);
            if (ok) {
                v[j].rgb = c;
                free_ = true;
            }
        }
        held[n_held++] = v[j].rgb;
        for (size_t i = 0; i < n; i++)
            if (strcmp(tf_category_class(&f->cats[i]), v[j].cls) == 0)
                f->cats[i].color = v[j].rgb;
    }
    free(v);
    free(held);
    return true;
}

bool tf_chrome_recolor(struct tf_figure *f)
{
    size_t n = f->n_cats;
    uint32_t *old = malloc((n ? n : 1) * sizeof *old);
    const char **spare = malloc((n ? n : 1) * sizeof *spare);
    if (!old || !spare) {
        free(old);
        free(spare);
        return false;
    }
    size_t n_spare = 0;
    for (size_t i = 0; i < n; i++)
        old[i] = f->cats[i].color;
    if (!recolor_names(f)) {
        free(old);
        free(spare);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        struct tf_category *c = &f->cats[i];
        if (strncmp(c->key, "cat/", 4) != 0)
            continue; /* another mode's */
        const char *name = c->name ? c->name : "";
        if (strcmp(c->key, "cat/kernel/nccl") == 0)
            c->color = TF_CHROME_NCCL_COLOR;
        else if (!tf_chrome_known_color(name, &c->color))
            spare[n_spare++] = name;
    }
    /* The others as tf_chrome_color_categories gives them, over all the
     * traces' names at once. */
    if (n_spare > 1)
        qsort(spare, n_spare, sizeof *spare, by_str);
    bool used[8] = {false};
    size_t n_used = 0;
    for (size_t s = 0; s < n_spare; s++) {
        size_t slot = tf_fnv1a(spare[s], strlen(spare[s])) % 8;
        for (size_t k = 0; k < 8 && n_used < 8 && used[slot]; k++)
            slot = (slot + 1) % 8;
        if (!used[slot])
            n_used++;
        used[slot] = true;
        for (size_t i = 0; i < n; i++) {
            struct tf_category *c = &f->cats[i];
            if (strncmp(c->key, "cat/", 4) == 0 && strcmp(c->key, "cat/kernel/nccl") != 0 &&
                c->name && strcmp(c->name, spare[s]) == 0)
                c->color = tf_chrome_spare_colors[slot];
        }
    }
    double *t = calloc(n ? n : 1, sizeof *t);
    if (!t) {
        free(old);
        free(spare);
        return false;
    }
    drawn_time(f, t);
    bool ok = one_class_per_color(f, t);
    free(t);
    for (size_t i = 0; ok && i < f->n_bars; i++) {
        struct tf_bar *b = &f->bars[i];
        uint32_t c = f->cats[b->cat].color;
        if (b->color == old[b->cat] && c != old[b->cat]) {
            b->color = c;
            b->label_color = tf_color_text_on(c);
        }
    }
    free(old);
    free(spare);
    return ok;
}
