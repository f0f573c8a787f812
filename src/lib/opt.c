/* opt.c - see opt.h. */
#include "lib/opt.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"

/* --help: spellings, then the text from column HELP_COL, wrapped at
 * HELP_WIDTH. */
enum { HELP_COL = 26, HELP_WIDTH = 79 };

/* "--name" of a row, for messages. */
static const char *dashed(const struct tf_optdef *o, char *buf, size_t n)
{
    snprintf(buf, n, "--%s", o->name);
    return buf;
}

/* '?' for anything but printable ASCII, and for '^', which TeX could read
 * as a ^^ escape: the command sits in a comment of any output language. */
void tf_opt_record(struct tf_buf *cmdline, const char *arg, bool is_path)
{
    tf_buf_putc(cmdline, ' ');
    for (const char *p = is_path ? tf_base_name(arg) : arg; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        tf_buf_putc(cmdline, ch >= 0x20 && ch < 0x7F && ch != '^' ? (char)ch : '?');
    }
}

/* --- values --- */

bool tf_opt_parse_int(const char *opt, const char *s, struct tf_opt_int *out,
                      struct tf_diag *d)
{
    char *end;
    errno = 0;
    bool digits = (s[0] >= '0' && s[0] <= '9') || (s[0] == '-' && s[1] >= '0' && s[1] <= '9');
    long long v = digits ? strtoll(s, &end, 10) : 0;
    if (!digits)
        end = (char *)s;
    if (end == s || *end != '\0' || errno == ERANGE || v < -1000000000LL ||
        v > 1000000000LL)
        return tf_diag_error(d, TF_EUSAGE, "%s: expected an integer, got '%.200s'", opt, s);
    out->set = true;
    out->v = v;
    return true;
}

bool tf_opt_parse_double(const char *opt, const char *s, double lo, double hi, double *out,
                         struct tf_diag *d)
{
    char *end;
    errno = 0;
    /* Plain decimal only: no spaces, hex, "inf" or "nan". */
    bool plain = s[0] != '\0' && strspn(s, "0123456789.eE+-") == strlen(s);
    double v = plain ? strtod(s, &end) : 0.0;
    if (!plain)
        end = (char *)s;
    if (end == s || *end != '\0' || errno == ERANGE || !(v >= lo && v <= hi))
        return tf_diag_error(d, TF_EUSAGE, "%s: expected a number, got '%.200s'", opt, s);
    *out = v;
    return true;
}

/* --- the generic setters --- */

bool tf_opt_flag(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    (void)val;
    (void)d;
    *(bool *)tf_field_of(ctx, o->field) = true;
    return true;
}

static bool in_range(const struct tf_optdef *o, const char *opt, long long v, const char *val,
                     struct tf_diag *d)
{
    if (v >= o->lo && v <= o->hi)
        return true;
    return tf_diag_error(d, TF_EUSAGE, "%s: expected %.0f to %.0f, got '%.200s'", opt, o->lo,
                         o->hi, val);
}

bool tf_opt_int(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    char opt[80];
    struct tf_opt_int *v = tf_field_of(ctx, o->field);
    if (!tf_opt_parse_int(dashed(o, opt, sizeof opt), val, v, d))
        return false;
    return !(o->lo < o->hi) || in_range(o, opt, v->v, val, d);
}

bool tf_opt_count(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    char opt[80];
    struct tf_opt_int v;
    if (!tf_opt_parse_int(dashed(o, opt, sizeof opt), val, &v, d) ||
        !in_range(o, opt, v.v, val, d))
        return false;
    *(long long *)tf_field_of(ctx, o->field) = v.v;
    return true;
}

bool tf_opt_double(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    char opt[80];
    if (!tf_opt_parse_double(dashed(o, opt, sizeof opt), val, o->lo, o->hi,
                             tf_field_of(ctx, o->field), d))
        return false;
    if (o->has)
        *(bool *)tf_field_of(ctx, o->has) = true;
    return true;
}

bool tf_opt_parse_length(const char *opt, const char *s, double lo, double hi, double *out,
                         struct tf_diag *d)
{
    /* The canvas counts PostScript points (1/72 in: SVG's and PDF's "pt",
     * TeX's bp); TeX's pt is 1/72.27 in, so --width 229.5pt is exactly a
     * LaTeX \columnwidth of 229.5pt. */
    static const struct {
        const char *unit;
        double pt; /* canvas points per unit */
    } units[] = {
        {"pt", 72.0 / 72.27},
        {"bp", 1.0},
        {"in", 72.0},
        {"cm", 72.0 / 2.54},
        {"mm", 72.0 / 25.4},
        {"px", 72.0 / 96.0},
    };
    size_t n = strspn(s, "0123456789.");
    const char *u = s + n;
    char num[64];
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (n == 0 || n >= sizeof num || strcmp(u, units[i].unit) != 0)
            continue;
        memcpy(num, s, n);
        num[n] = '\0';
        char *end;
        errno = 0;
        double v = strtod(num, &end);
        if (*end != '\0' || errno == ERANGE)
            break;
        v *= units[i].pt;
        if (!(v >= lo && v <= hi))
            return tf_diag_error(d, TF_EUSAGE, "%s: '%.200s' is outside %g..%g pt", opt, s, lo,
                                 hi);
        *out = v;
        return true;
    }
    return tf_diag_error(d, TF_EUSAGE,
                         "%s: expected a length such as 229.5pt, 3.3in, 8cm, 80mm or 320px "
                         "(also bp), got '%.200s'",
                         opt, s);
}

bool tf_opt_length(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    char opt[80];
    if (!tf_opt_parse_length(dashed(o, opt, sizeof opt), val, o->lo, o->hi,
                             tf_field_of(ctx, o->field), d))
        return false;
    if (o->has)
        *(bool *)tf_field_of(ctx, o->has) = true;
    return true;
}

bool tf_opt_string(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    (void)d;
    *(const char **)tf_field_of(ctx, o->field) = val;
    return true;
}

/* --- parsing --- */

/* A long spelling with '_' read as '-', into name (n bytes); false when it
 * cannot be one ("--o" is not a spelling of -o). */
static bool dash_name(const char *spelling, size_t len, char *name, size_t n)
{
    if (len < 2 || len >= n)
        return false;
    for (size_t i = 0; i < len; i++)
        name[i] = spelling[i] == '_' ? '-' : spelling[i];
    name[len] = '\0';
    return true;
}

/* The row of a long spelling ("start_candidate" and "start-candidate" are
 * one); NULL when there is none. */
static const struct tf_optdef *find_long(const struct tf_opt_parser *p, const char *spelling,
                                         size_t len)
{
    char name[64];
    if (!dash_name(spelling, len, name, sizeof name))
        return NULL;
    for (size_t i = 0; i < p->n; i++) {
        const struct tf_optdef *o = &p->table[i];
        if (o->name && (strcmp(o->name, name) == 0 || (o->alias && strcmp(o->alias, name) == 0)))
            return o;
    }
    return NULL;
}

const struct tf_optdef *tf_opt_find(const struct tf_opt_parser *p, const char *name)
{
    return find_long(p, name, strlen(name));
}

/* The optimal string alignment distance of a and b (insertions, deletions,
 * substitutions and swaps of neighbours), for names under 64 bytes. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    if (na >= 64 || nb >= 64)
        return SIZE_MAX;
    size_t d[64][64];
    for (size_t i = 0; i <= na; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= nb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= na; i++)
        for (size_t j = 1; j <= nb; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[na][nb];
}

const char *tf_opt_nearest(const struct tf_opt_parser *p, const char *spelling, size_t len)
{
    char name[64];
    if (!dash_name(spelling, len, name, sizeof name))
        return NULL;
    /* As git: close enough is a third of the name's length, at least 1
     * and at most 3 edits; the first of equals in table order wins. */
    size_t limit = len / 3 < 1 ? 1 : len / 3 > 3 ? 3 : len / 3, best = SIZE_MAX;
    const char *hit = NULL;
    for (size_t i = 0; i < p->n; i++) {
        const struct tf_optdef *o = &p->table[i];
        const char *spell[2] = {o->name, o->alias};
        for (size_t k = 0; k < 2 && spell[k]; k++) {
            size_t dist = edit_distance(name, spell[k]);
            if (dist <= limit && dist < best) {
                best = dist;
                hit = o->name;
            }
        }
    }
    return hit;
}

bool tf_opt_apply(const struct tf_opt_parser *p, const struct tf_optdef *o, const char *a,
                  const char *val, void *ctx, struct tf_diag *d)
{
    if (o->value == TF_VAL_NONE && val)
        return tf_diag_error(d, TF_EUSAGE, "option '%.200s' takes no value", a);
    if (o->value == TF_VAL_REQUIRED) {
        if (!val)
            return tf_diag_error(d, TF_EUSAGE, "option '%.200s' needs a value", a);
        if (val[0] == '\0')
            return tf_diag_error(d, TF_EUSAGE, "option '%.200s' needs a value, got an empty one",
                                 a);
    }
    if (!o->set(ctx, o, val, d))
        return false;
    if (o->record != TF_REC_NONE) {
        tf_buf_printf(p->cmdline, " --%s", o->name);
        if (val)
            tf_opt_record(p->cmdline, val, o->record == TF_REC_PATH);
    }
    return !p->applied || p->applied(ctx, o, val, d);
}

static const struct tf_optdef *find_short(const struct tf_opt_parser *p, char ch)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->table[i].name && p->table[i].shortname == ch)
            return &p->table[i];
    return NULL;
}

static bool unknown(const struct tf_opt_parser *p, const char *a, struct tf_diag *d)
{
    const char *near = NULL;
    if (a[1] == '-') {
        const char *eq = strchr(a, '=');
        near = tf_opt_nearest(p, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
    }
    if (near)
        return tf_diag_error(d, TF_EUSAGE, "unknown option '%.200s' (did you mean '--%s'?)", a,
                             near);
    return tf_diag_error(d, TF_EUSAGE, "unknown option '%.200s'", a);
}

bool tf_opt_parse(const struct tf_opt_parser *p, int argc, char **argv, void *ctx,
                  struct tf_diag *d)
{
    bool only_positional = false;
    for (int i = 1; i < argc && !*p->stop; i++) {
        const char *a = argv[i];
        if (only_positional || a[0] != '-' || strcmp(a, "-") == 0) {
            if (!p->positional(ctx, a, d))
                return false;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_positional = true;
            continue;
        }
        const struct tf_optdef *o;
        const char *val = NULL;
        if (a[1] == '-') {
            const char *eq = strchr(a, '=');
            o = find_long(p, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
            if (eq)
                val = eq + 1;
        } else {
            o = find_short(p, a[1]);
            if (a[2])
                val = a + 2;
        }
        if (!o)
            return unknown(p, a, d);
        if (o->value == TF_VAL_REQUIRED && !val && i + 1 < argc)
            val = argv[++i];
        if (!tf_opt_apply(p, o, a, val, ctx, d))
            return false;
    }
    return true;
}

/* --- help --- */

/* A text from column `indent` (where the cursor is), in lines of words
 * that continue at the same column. */
static void print_wrapped(const char *text, int indent)
{
    int col = indent;
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, " ");
        if (col > indent && col + 1 + (int)len > HELP_WIDTH) {
            printf("\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            putchar(' ');
            col++;
        }
        printf("%.*s", (int)len, p);
        col += (int)len;
        p += len;
        p += strspn(p, " ");
    }
    putchar('\n');
}

void tf_opt_help_item(const char *name, int name_w, const char *text)
{
    printf("%*s%-*s ", HELP_COL + 2, "", name_w, name);
    print_wrapped(text, HELP_COL + 2 + name_w + 1);
}

void tf_opt_help(const struct tf_optdef *table, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct tf_optdef *o = &table[i];
        if (!o->name) {
            printf("\n%s%s", o->help, *o->help ? "\n" : "");
            continue;
        }
        char head[160];
        int len = 0;
        const char *sep = o->value == TF_VAL_REQUIRED ? " " : "";
        const char *meta = o->value != TF_VAL_NONE && o->meta ? o->meta : "";
        if (o->shortname)
            len += snprintf(head + len, sizeof head - (size_t)len, "-%c%s%s, ", o->shortname,
                            sep, o->value == TF_VAL_REQUIRED ? meta : "");
        const char *spell[2] = {o->name, o->alias};
        for (size_t k = 0; k < 2 && spell[k]; k++)
            len += snprintf(head + len, sizeof head - (size_t)len, "%s--%s%s%s%s",
                            k ? ", " : "", spell[k],
                            o->value == TF_VAL_OPTIONAL ? "[=" : sep, meta,
                            o->value == TF_VAL_OPTIONAL ? "]" : "");
        if (len + 2 <= HELP_COL - 2)
            printf("  %-*s", HELP_COL - 2, head);
        else
            printf("  %s\n%*s", head, HELP_COL, "");
        print_wrapped(o->help, HELP_COL);
        if (o->help_list)
            o->help_list();
    }
}
