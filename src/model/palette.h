/* palette.h - a figure's name -> colour table (--palette-out, --palette).
 *
 * The file, one class a line, in the figure's legend order and then its
 * other categories' order (so the bytes depend on the figure only):
 *
 *     # tracefig palette: #RRGGBB<TAB>CLASS, one a line
 *     #332288<TAB>kernel
 *
 * CLASS is tf_category_class (the legend's label: the category, or the
 * name class with --color-by name), with "\\", tab, LF and CR written
 * "\\\\", "\\t", "\\n", "\\r".  A line that starts with "#" and then a
 * space (or nothing) is a comment; blank lines are skipped.
 */
#ifndef TF_MODEL_PALETTE_H
#define TF_MODEL_PALETTE_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/diag.h"
#include "model/figure.h"

struct tf_palette_entry {
    uint32_t rgb;
    char *cls; /* heap, unescaped */
};

/* Caller-owned: tf_palette_init, then tf_palette_fini. */
struct tf_palette {
    struct tf_palette_entry *v;
    size_t n, cap;
};

void tf_palette_init(struct tf_palette *p);
void tf_palette_fini(struct tf_palette *p);

/* Reads the file at path (not "-").  False with one located message
 * (FILE:LINE:COL: ...) in d, code TF_EBADINPUT (TF_EIO when unreadable). */
bool tf_palette_read(const char *path, struct tf_palette *p, struct tf_diag *d);

/* Parses text of len bytes, named `name` in messages. */
bool tf_palette_parse(const char *name, const char *text, size_t len, struct tf_palette *p,
                      struct tf_diag *d);

/* The table of f into out. */
void tf_palette_write(const struct tf_figure *f, struct tf_buf *out);

/* Gives each category whose class p names that colour; a category it does
 * not name whose colour the file uses (grey 0xDDDDDD excepted: "other"
 * and background categories share it) takes the first of spare[0..n_spare)
 * that neither the file nor the figure uses, in the legend's order (the
 * time order with --color-by name), or keeps its colour when none is left.
 * Bars drawn in their category's colour follow it (a --color rule or a
 * cname colour stays).  False when out of memory. */
bool tf_palette_apply(struct tf_figure *f, const struct tf_palette *p, const uint32_t *spare,
                      size_t n_spare);

#endif
