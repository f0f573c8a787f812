/* breakdown.c - the GPU runtime breakdown panel: the reference's
 * _breakdown_rows / _breakdown_slices / _display_bar_widths.  Pure.
 *
 * gpu_ms keys are summed into three display groups; every other key is
 * folded into "cast" (Preprocess).  The three groups are always shown, so
 * --min_runtime_pct (which only folds ops outside them) never hides a slice
 * and "Misc. GPU" never appears: that is the reference's behaviour, kept.
 * Sums run in the reference's order so the last digits match.
 */
#include "rules/breakdown.h"

#include <stdio.h>
#include <string.h>

#include "base/utf8.h"
#include "rules/palette.h"
#include "rules/seed.h"

/* Characters of the candidate the panel's legend title shows. */
#define TITLE_CHARS 40

static const char *const cast_src[] = {"h2d_si",  "h2d_ii",        "cast_si",  "cast_ii",
                                       "scale_si", "scale_ii_diag", "scale_ii", "add_identity",
                                       NULL};
static const char *const trsm_src[] = {"trsm", NULL};
static const char *const gemm_src[] = {"schur_gemm", "chol", NULL};

static const struct group {
    const char *key, *label;
    const char *const *sources;
    uint32_t color;
} groups[3] = {
    {"cast", "Preprocess", cast_src, TF_COLOR_CAST},
    {"trsm", "Triangular Solve", trsm_src, TF_COLOR_TRSM},
    {"gemm_chol", "Cholesky + Schur Complement", gemm_src, TF_COLOR_GEMM_CHOL},
};

/* An ordered map of at most a few entries: the reference's dict. */
struct entry {
    const char *key;
    double ms;
};

static bool is_source(const char *key)
{
    for (size_t g = 0; g < 3; g++)
        for (size_t s = 0; groups[g].sources[s]; s++)
            if (strcmp(key, groups[g].sources[s]) == 0)
                return true;
    return false;
}

static int group_of(const char *key)
{
    for (int g = 0; g < 3; g++)
        if (strcmp(key, groups[g].key) == 0)
            return g;
    return -1;
}

bool tf_breakdown_panel(const struct tf_breakdown_in *bd, double min_runtime_pct,
                        struct tf_figure *f)
{
    (void)min_runtime_pct; /* see the header comment */
    f->has_panel = false;
    /* _consolidate_ms: group totals (> 0) first, then the other keys in file
     * order; the display groups are then all that is kept, the others being
     * summed (in that order) into "cast". */
    struct entry ent[3];
    size_t n = 0;
    for (size_t g = 0; g < 3; g++) {
        double total = 0.0;
        for (size_t s = 0; groups[g].sources[s]; s++)
            for (size_t i = 0; i < bd->n_ops; i++)
                if (strcmp(bd->ops[i].key, groups[g].sources[s]) == 0)
                    total += bd->ops[i].ms;
        if (total > 0)
            ent[n++] = (struct entry){groups[g].key, total};
    }
    double other = 0.0;
    for (size_t i = 0; i < bd->n_ops; i++) {
        const char *key = bd->ops[i].key;
        if (is_source(key))
            continue;
        int g = group_of(key);
        if (g < 0) {
            other += bd->ops[i].ms;
            continue;
        }
        size_t k = 0;
        while (k < n && strcmp(ent[k].key, key) != 0)
            k++;
        if (k == n)
            ent[n++] = (struct entry){groups[g].key, 0.0};
        ent[k].ms += bd->ops[i].ms;
    }
    if (other > 0) {
        size_t k = 0;
        while (k < n && strcmp(ent[k].key, "cast") != 0)
            k++;
        if (k == n)
            ent[n++] = (struct entry){"cast", 0.0};
        ent[k].ms += other;
    }
    double total = 0.0;
    for (size_t k = 0; k < n; k++)
        total += ent[k].ms;
    if (!(total > 0))
        return true;

    struct tf_panel *p = &f->panel;
    p->subject = "GPU runtime breakdown";
    p->axis_title = "GPU Runtime Breakdown (%)";
    /* The legend's title: the candidate as given, up to TITLE_CHARS
     * characters (a longer one ends in an ellipsis; the model's
     * "candidate" keeps it whole). */
    struct tf_buf title;
    tf_buf_init(&title);
    tf_buf_puts(&title, "Candidate ");
    const unsigned char *c = (const unsigned char *)(bd->candidate ? bd->candidate : "?");
    size_t chars = 0;
    uint32_t cp;
    for (size_t len; (len = tf_utf8_next(c, &cp)) > 0 && chars < TITLE_CHARS; c += len, chars++)
        tf_buf_putn(&title, (const char *)c, len);
    if (*c)
        tf_buf_puts(&title, "\xE2\x80\xA6");
    p->title = tf_figure_buf(f, &title);
    tf_buf_fini(&title);
    if (!p->title ||
        !tf_panel_add_prop(f, "candidate", bd->candidate, bd->candidate_is_number))
        return false;
    for (size_t g = 0; g < 3; g++)
        for (size_t k = 0; k < n; k++)
            if (strcmp(ent[k].key, groups[g].key) == 0) {
                struct tf_slice *s = tf_panel_add_slice(f);
                if (!s)
                    return false;
                s->key = groups[g].key;
                s->label = groups[g].label;
                s->color = groups[g].color;
                s->pct = 100.0 * ent[k].ms / total;
            }
    /* _display_bar_widths: a minimum visible width, renormalised. */
    double boosted_total = 0.0;
    double boosted[3];
    for (size_t i = 0; i < p->n_slices; i++) {
        double v = p->slices[i].pct;
        boosted[i] = v > 0 ? (v > TF_MIN_BAR_VIS_PCT ? v : TF_MIN_BAR_VIS_PCT) : 0.0;
        boosted_total += boosted[i];
    }
    for (size_t i = 0; i < p->n_slices; i++) {
        struct tf_slice *s = &p->slices[i];
        s->width_pct = boosted_total > 0 ? 100.0 * boosted[i] / boosted_total : s->pct;
        if (s->pct >= TF_IN_BAR_LABEL_MIN_PCT) {
            char text[32]; /* room for any double's %.0f */
            snprintf(text, sizeof text, "%.0f%%", s->pct);
            if (!(s->text = tf_figure_str(f, text)))
                return false;
            s->text_color = s->pct > TF_WHITE_TEXT_MIN_PCT ? TF_COLOR_WHITE : TF_COLOR_BLACK;
        }
    }
    f->has_panel = p->n_slices > 0;
    return true;
}
