/* palette.c - writes, reads and applies a figure's name -> colour table
 * (see palette.h for the file).  It knows the figure model only: which
 * colours a mode gives is the mode's (rules/chrome/colors.c). */
#include "model/palette.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GREY 0xDDDDDDu

void tf_palette_init(struct tf_palette *p)
{
    memset(p, 0, sizeof *p);
}

void tf_palette_fini(struct tf_palette *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->v[i].cls);
    free(p->v);
    memset(p, 0, sizeof *p);
}

static const struct tf_palette_entry *find(const struct tf_palette *p, const char *cls)
{
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->v[i].cls, cls) == 0)
            return &p->v[i];
    return NULL;
}

/* --- reading ----------------------------------------------------------------------- */

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static bool bad(struct tf_diag *d, const char *name, size_t line, size_t col, const char *what)
{
    return tf_diag_error(d, TF_EBADINPUT, "%s:%zu:%zu: %s", name, line, col, what);
}

/* One line s[0..len) (no LF), line number ln; an entry or nothing. */
static bool parse_line(const char *name, size_t ln, const char *s, size_t len,
                       struct tf_palette *p, struct tf_diag *d)
{
    if (len && s[len - 1] == '\r')
        len--;
    if (len == 0 || (s[0] == '#' && (len == 1 || s[1] == ' ')))
        return true;
    if (s[0] != '#')
        return bad(d, name, ln, 1, "expected '#RRGGBB<TAB>CLASS' or a comment ('# ...')");
    uint32_t rgb = 0;
    for (size_t i = 1; i <= 6; i++) {
        int h = i < len ? hex_digit(s[i]) : -1;
        if (h < 0)
            return bad(d, name, ln, i + 1, "expected a colour of six hex digits, '#RRGGBB'");
        rgb = rgb << 4 | (uint32_t)h;
    }
    if (len < 8 || s[7] != '\t')
        return bad(d, name, ln, 8, "expected a tab after the colour");
    if (len == 8)
        return bad(d, name, ln, 9, "expected a class name after the tab");
    char *cls = malloc(len - 8 + 1);
    if (!cls)
        return tf_diag_oom(d, NULL);
    size_t k = 0;
    for (size_t i = 8; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7F) {
            free(cls);
            return bad(d, name, ln, i + 1,
                       "control character in the class name (write \\t, \\n, \\r)");
        }
        if (c != '\\') {
            cls[k++] = (char)c;
            continue;
        }
        char e = i + 1 < len ? s[i + 1] : '\0';
        char u = e == '\\' ? '\\' : e == 't' ? '\t' : e == 'n' ? '\n' : e == 'r' ? '\r' : '\0';
        if (!u) {
            free(cls);
            return bad(d, name, ln, i + 1, "unknown escape (\\\\, \\t, \\n or \\r)");
        }
        cls[k++] = u;
        i++;
    }
    cls[k] = '\0';
    if (find(p, cls)) {
        free(cls);
        return bad(d, name, ln, 9, "class given twice");
    }
    if (!TF_GROW(p->v, p->n, p->cap)) {
        free(cls);
        return tf_diag_oom(d, NULL);
    }
    p->v[p->n++] = (struct tf_palette_entry){rgb, cls};
    return true;
}

bool tf_palette_parse(const char *name, const char *text, size_t len, struct tf_palette *p,
                      struct tf_diag *d)
{
    size_t ln = 1;
    for (size_t at = 0; at < len; ln++) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - text) : len;
        const char *z = memchr(text + at, '\0', end - at);
        if (z)
            return bad(d, name, ln, (size_t)(z - text - at) + 1, "NUL byte");
        if (!parse_line(name, ln, text + at, end - at, p, d))
            return false;
        at = end + 1;
    }
    return true;
}

bool tf_palette_read(const char *path, struct tf_palette *p, struct tf_diag *d)
{
    const char *name = tf_diag_name(path);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return tf_diag_error(d, TF_EIO, "%s: %s", name, strerror(errno));
    struct tf_buf b;
    tf_buf_init(&b);
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, fp)) > 0)
        tf_buf_putn(&b, chunk, got);
    bool io = ferror(fp) != 0;
    fclose(fp);
    bool ok;
    if (io)
        ok = tf_diag_error(d, TF_EIO, "%s: read error", name);
    else if (b.oom)
        ok = tf_diag_oom(d, name);
    else
        ok = tf_palette_parse(name, b.data ? b.data : "", b.len, p, d);
    tf_buf_fini(&b);
    return ok;
}

/* --- writing ----------------------------------------------------------------------- */

/* The by-name catch-all ("other", grey) is no name of its own. */
static bool written(const struct tf_category *c)
{
    return strncmp(c->key, "name/other/", 11) != 0;
}

static void put_class(struct tf_buf *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '\\': tf_buf_puts(out, "\\\\"); break;
        case '\t': tf_buf_puts(out, "\\t"); break;
        case '\n': tf_buf_puts(out, "\\n"); break;
        case '\r': tf_buf_puts(out, "\\r"); break;
        default:
            /* other control bytes: the figure's text has none left */
            tf_buf_putc(out, (unsigned char)*s < 0x20 ? '?' : *s);
        }
    }
}

/* Categories in the legend's order, then the others in theirs. */
static size_t *order(const struct tf_figure *f, size_t *n_out)
{
    size_t *v = malloc((f->n_cats ? f->n_cats : 1) * sizeof *v);
    if (!v)
        return NULL;
    size_t n = 0;
    for (size_t k = 0; k < f->n_legend; k++) {
        size_t ci = f->legend[k].cat;
        bool seen = ci >= f->n_cats;
        for (size_t j = 0; j < n && !seen; j++)
            seen = v[j] == ci;
        if (!seen)
            v[n++] = ci;
    }
    for (size_t ci = 0; ci < f->n_cats; ci++) {
        bool seen = false;
        for (size_t j = 0; j < n && !seen; j++)
            seen = v[j] == ci;
        if (!seen)
            v[n++] = ci;
    }
    *n_out = n;
    return v;
}

void tf_palette_write(const struct tf_figure *f, struct tf_buf *out)
{
    tf_buf_puts(out, "# tracefig palette: #RRGGBB<TAB>CLASS, one a line\n");
    size_t n;
    size_t *v = order(f, &n);
    if (!v) {
        out->oom = true;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const struct tf_category *c = &f->cats[v[i]];
        const char *cls = tf_category_class(c);
        bool dup = !written(c);
        for (size_t j = 0; j < i && !dup; j++)
            dup = written(&f->cats[v[j]]) &&
                  strcmp(tf_category_class(&f->cats[v[j]]), cls) == 0;
        if (dup)
            continue;
        tf_buf_printf(out, "#%06X\t", (unsigned)(c->color & 0xFFFFFFu));
        put_class(out, cls);
        tf_buf_putc(out, '\n');
    }
    free(v);
}

/* --- applying ---------------------------------------------------------------------- */

static bool file_uses(const struct tf_palette *p, uint32_t rgb)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->v[i].rgb == rgb)
            return true;
    return false;
}

static bool figure_uses(const struct tf_figure *f, uint32_t rgb)
{
    for (size_t i = 0; i < f->n_cats; i++)
        if (f->cats[i].color == rgb)
            return true;
    return false;
}

bool tf_palette_apply(struct tf_figure *f, const struct tf_palette *p, const uint32_t *spare,
                      size_t n_spare)
{
    size_t n;
    size_t *v = order(f, &n);
    uint32_t *old = malloc((f->n_cats ? f->n_cats : 1) * sizeof *old);
    bool *named = calloc(f->n_cats ? f->n_cats : 1, sizeof *named);
    if (!v || !old || !named) {
        free(v);
        free(old);
        free(named);
        return false;
    }
    for (size_t ci = 0; ci < f->n_cats; ci++) {
        old[ci] = f->cats[ci].color;
        const struct tf_palette_entry *e =
            written(&f->cats[ci]) ? find(p, tf_category_class(&f->cats[ci])) : NULL;
        if (e) {
            f->cats[ci].color = e->rgb;
            named[ci] = true;
        }
    }
    /* The others, in order: off the file's colours where a spare is left.
     * Categories of one class (one name over several categories) move
     * together. */
    for (size_t i = 0; i < n; i++) {
        size_t ci = v[i];
        struct tf_category *c = &f->cats[ci];
        if (named[ci] || c->color != old[ci] || c->color == GREY || !file_uses(p, c->color))
            continue;
        for (size_t s = 0; s < n_spare; s++) {
            if (file_uses(p, spare[s]) || figure_uses(f, spare[s]))
                continue;
            const char *cls = tf_category_class(c);
            for (size_t cj = 0; cj < f->n_cats; cj++)
                if (!named[cj] && f->cats[cj].color == old[cj] && old[cj] == old[ci] &&
                    strcmp(tf_category_class(&f->cats[cj]), cls) == 0)
                    f->cats[cj].color = spare[s];
            break;
        }
    }
    for (size_t i = 0; i < f->n_bars; i++) {
        struct tf_bar *b = &f->bars[i];
        if (b->cat < f->n_cats && b->color == old[b->cat] && b->color != f->cats[b->cat].color) {
            b->color = f->cats[b->cat].color;
            b->label_color = tf_color_text_on(b->color);
        }
    }
    free(v);
    free(old);
    free(named);
    return true;
}
