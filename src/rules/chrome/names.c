/* names.c - the texts the generic Chrome mode shows: the short name inside
 * a slice's bar (a C++ signature or a Python frame reduced to the
 * function's name: tf_chrome_short_name, rules/chrome.h), process names
 * as people say them (TensorFlow device paths), the args a tooltip lists,
 * and each bar's name, label and tooltip.  It does not build lane labels
 * from the metadata (lanes.c puts them together from these pieces) and
 * chooses no colours.  It also orders names and ids as people count
 * (tf_chrome_natural_cmp, tf_chrome_cmp_id).
 */
#include "rules/chrome/chrome_int.h"

#include <stdio.h>
#include <string.h>

#include "base/num.h"

/* --- short names ------------------------------------------------------------------- */

/* Name shortening (see chrome.h).  Brackets are matched as balanced groups;
 * the "operator" tokens (operator(), operator<, operator->, ...) count as
 * plain identifiers. */

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$';
}

/* Length of an operator token at s ("operator()", "operator<<", ...), or 0. */
static size_t operator_len(const char *s, size_t n)
{
    if (n < 9 || s[0] != 'o' || strncmp(s, "operator", 8) != 0 || (n > 8 && ident_char(s[8])))
        return 0;
    size_t i = 8;
    while (i < n && s[i] == ' ')
        i++;
    if (i + 1 < n && s[i] == '(' && s[i + 1] == ')')
        return i + 2;
    if (i + 1 < n && s[i] == '[' && s[i + 1] == ']')
        return i + 2;
    static const char ops[] = "+-*/%^&|~!=<>,";
    size_t k = i;
    while (k < n && k < i + 3 && strchr(ops, s[k]) && s[k])
        k++;
    return k > i ? k : 0;
}

/* The index of the bracket matching the opening one at s[i], or n. */
static size_t match_close(const char *s, size_t n, size_t i)
{
    int depth = 0;
    for (size_t k = i; k < n; k++) {
        size_t op = s[k] == 'o' ? operator_len(s + k, n - k) : 0;
        if (op) {
            k += op - 1;
            continue;
        }
        char c = s[k];
        if (c == '(' || c == '<' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == '>' || c == ']' || c == '}') {
            if (c == '>' && k > 0 && s[k - 1] == '-')
                continue;
            if (--depth == 0)
                return k;
        }
    }
    return n;
}

/* The index of the bracket opening the closing one at s[i] (backwards), or
 * SIZE_MAX. */
static size_t match_open(const char *s, size_t i)
{
    int depth = 0;
    for (size_t k = i + 1; k-- > 0;) {
        char c = s[k];
        if (c == ')' || c == '>' || c == ']' || c == '}')
            depth++;
        else if (c == '(' || c == '<' || c == '[' || c == '{') {
            if (--depth == 0)
                return k;
        }
        if (k == 0)
            break;
    }
    return SIZE_MAX;
}

static void put_span(char *out, size_t n, const char *s, size_t len)
{
    if (len >= n)
        len = n - 1;
    memcpy(out, s, len);
    out[len] = '\0';
}

/* Python-ish names: "dir/file.py(12): fn", "nn.Module: Linear_0",
 * "<built-in method add of ...>", "<built-in function linear>",
 * "<class 'pkg.Name'>".  True when one matched (out filled). */
static bool python_name(const char *name, char *out, size_t n)
{
    size_t len = strlen(name);
    const char *py = strstr(name, ".py(");
    if (py) {
        const char *colon = strstr(py, "): ");
        if (colon) {
            put_span(out, n, colon + 3, strlen(colon + 3));
            return true;
        }
    }
    if (strncmp(name, "nn.Module: ", 11) == 0) {
        put_span(out, n, name + 11, strlen(name + 11));
        return true;
    }
    static const char *const builtin[] = {"<built-in method ", "<built-in function "};
    for (size_t b = 0; b < 2; b++) {
        size_t bl = strlen(builtin[b]);
        if (strncmp(name, builtin[b], bl) == 0) {
            size_t e = bl;
            while (e < len && name[e] != ' ' && name[e] != '>')
                e++;
            put_span(out, n, name + bl, e - bl);
            return true;
        }
    }
    if (strncmp(name, "<class '", 8) == 0 && len > 10 && name[len - 1] == '>' &&
        name[len - 2] == '\'') {
        size_t e = len - 2, b = e;
        while (b > 8 && name[b - 1] != '.')
            b--;
        put_span(out, n, name + b, e - b);
        return true;
    }
    return false;
}

/* The length of name without its trailing qualifiers (" const",
 * " noexcept", '&', spaces). */
static size_t strip_qualifiers(const char *name, size_t len)
{
    for (;;) {
        while (len > 0 && name[len - 1] == ' ')
            len--;
        if (len >= 6 && strncmp(name + len - 6, " const", 6) == 0)
            len -= 6;
        else if (len >= 9 && strncmp(name + len - 9, " noexcept", 9) == 0)
            len -= 9;
        else if (len > 0 && name[len - 1] == '&')
            len--;
        else
            return len;
    }
}

/* Where the parameter list of a signature name[0, len) opens, SIZE_MAX when
 * it is not one: it ends in ')' whose '(' follows an identifier, '>' or an
 * operator token directly. */
static size_t param_open(const char *name, size_t len)
{
    size_t open = len > 0 && name[len - 1] == ')' ? match_open(name, len - 1) : SIZE_MAX;
    /* match_open does not know "operator<(": look for an operator token
     * ending right before a '(' of the last group. */
    for (size_t k = len >= 12 ? len - 12 : 0; open != SIZE_MAX && k < len; k++)
        if (operator_len(name + k, len - k) && name[k + operator_len(name + k, len - k)] == '(' &&
            k + operator_len(name + k, len - k) < open) {
            open = k + operator_len(name + k, len - k);
            break;
        }
    bool op_before = false;
    for (size_t k = open != SIZE_MAX && open >= 12 ? open - 12 : 0; open != SIZE_MAX && k < open; k++)
        op_before |= operator_len(name + k, open - k) == open - k;
    if (open == SIZE_MAX || open == 0 ||
        !(ident_char(name[open - 1]) || name[open - 1] == '>' || op_before))
        return SIZE_MAX;
    return open;
}

/* Where the last depth-0 word before `end` starts. */
static size_t last_word(const char *name, size_t end)
{
    size_t start = 0;
    for (size_t k = 0; k < end; k++) {
        size_t op = name[k] == 'o' ? operator_len(name + k, end - k) : 0;
        if (op) {
            k += op - 1;
            continue;
        }
        char c = name[k];
        if (c == '(' || c == '<' || c == '[' || c == '{') {
            size_t m = match_close(name, end, k);
            k = m < end ? m : end - 1;
        } else if (c == ' ') {
            start = k + 1;
        }
    }
    return start;
}

/* The depth-0 "::" parts of name[start, end) into part_b/part_e (room for
 * 64); their count. */
static size_t scope_parts(const char *name, size_t start, size_t end, size_t *part_b,
                          size_t *part_e)
{
    size_t np = 0, b = start;
    for (size_t k = start; k < end && np < 63; k++) {
        size_t op = name[k] == 'o' ? operator_len(name + k, end - k) : 0;
        if (op) {
            k += op - 1;
            continue;
        }
        char c = name[k];
        if (c == '(' || c == '<' || c == '[' || c == '{') {
            size_t m = match_close(name, end, k);
            k = m < end ? m : end - 1;
        } else if (c == ':' && k + 1 < end && name[k + 1] == ':') {
            part_b[np] = b, part_e[np] = k, np++;
            b = k + 2;
            k++;
        }
    }
    part_b[np] = b, part_e[np] = end, np++;
    return np;
}

/* Where part [pb, pe) ends without its template arguments ("fn<4, T>" ->
 * "fn") and without a parameter list of its own ("bar()"). */
static size_t base_end(const char *name, size_t pb, size_t pe)
{
    size_t tb = pe;
    for (size_t k = pb; k < pe; k++) {
        if (operator_len(name + k, pe - k)) {
            k += operator_len(name + k, pe - k) - 1;
            continue;
        }
        if (name[k] == '<') {
            tb = k;
            break;
        }
    }
    if (tb == pe && pe > pb && name[pe - 1] == ')') {
        size_t ob = match_open(name, pe - 1);
        if (ob != SIZE_MAX && ob > pb)
            tb = ob;
    }
    return tb;
}

/* A generic "kernel" wrapper [pb, tb) with template arguments from tb is
 * named after its first template argument when that is a long
 * identifier, else after its scope (the part before, `pick` >= 2): true
 * when out holds that name. */
static bool wrapper_name(const char *name, size_t pb, size_t tb, size_t pe, const size_t *part_b,
                         const size_t *part_e, size_t pick, char *out, size_t n)
{
    size_t bl = tb - pb;
    bool wrapper = (bl == 6 && strncmp(name + pb, "kernel", 6) == 0) ||
                   (bl == 6 && strncmp(name + pb, "Kernel", 6) == 0) ||
                   (bl == 13 && strncmp(name + pb, "device_kernel", 13) == 0);
    if (!wrapper || tb >= pe)
        return false;
    size_t ab = tb + 1, ae = ab;
    while (ae < pe && ident_char(name[ae]))
        ae++;
    if (ae - ab >= 8 && ae < pe && (name[ae] == '>' || name[ae] == ',')) {
        put_span(out, n, name + ab, ae - ab);
        return true;
    }
    if (pick < 2)
        return false;
    size_t sb = part_b[pick - 2], se = part_e[pick - 2];
    char scope[128];
    size_t sl = se - sb;
    size_t lt = sl;
    for (size_t k = 0; k < sl; k++)
        if (name[sb + k] == '<') {
            lt = k;
            break;
        }
    put_span(scope, sizeof scope, name + sb, lt);
    snprintf(out, n, "%s::%.*s", scope, (int)bl, name + pb);
    return true;
}

void tf_chrome_short_name(const char *name, char *out, size_t n)
{
    if (n == 0)
        return;
    if (python_name(name, out, n))
        return;
    size_t len = strip_qualifiers(name, strlen(name));
    size_t open = param_open(name, len);
    if (open == SIZE_MAX) {
        put_span(out, n, name, strlen(name));
        return;
    }
    /* Whatever precedes the parameter list: the last depth-0 word; of its
     * "::" parts, the last that names something (not a lambda,
     * "operator()" or an anonymous namespace). */
    size_t end = open, start = last_word(name, end);
    size_t part_b[64], part_e[64];
    size_t np = scope_parts(name, start, end, part_b, part_e);
    size_t pick = np;
    while (pick > 0) {
        const char *p = name + part_b[pick - 1];
        size_t pl = part_e[pick - 1] - part_b[pick - 1];
        bool skip = pl == 0 || p[0] == '{' || p[0] == '(' ||
                    (pl >= 10 && strncmp(p, "operator()", 10) == 0);
        if (!skip)
            break;
        pick--;
    }
    if (pick == 0) {
        put_span(out, n, name, strlen(name));
        return;
    }
    size_t pb = part_b[pick - 1], pe = part_e[pick - 1];
    size_t tb = base_end(name, pb, pe);
    if (!wrapper_name(name, pb, tb, pe, part_b, part_e, pick, out, n))
        put_span(out, n, name + pb, tb - pb);
}

/* --- process names ----------------------------------------------------------------- */

void tf_chrome_trimmed(const char *s, struct tf_buf *out)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    tf_buf_putn(out, s, n);
}

void tf_chrome_cap(struct tf_buf *b, size_t from, size_t max)
{
    if (b->oom || b->len <= from || b->len - from <= max)
        return;
    /* Back to the start of a character: continuation bytes are 10xxxxxx. */
    size_t cut = from + max;
    while (cut > from && ((unsigned char)b->data[cut] & 0xC0) == 0x80)
        cut--;
    b->len = cut;
    b->data[cut] = '\0';
    tf_buf_puts(b, "\xE2\x80\xA6");
}

/* A TensorFlow device path as people say it: "/job:localhost/replica:0/
 * task:0/device:GPU:0 Compute" is "GPU:0 Compute", "/device:GPU:0/stream:15
 * Compute" is "GPU:0/stream:15 Compute".  Other names stay as they are. */
void tf_chrome_process_name(const char *s, struct tf_buf *out)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (strncmp(s, "/job:", 5) != 0 && strncmp(s, "/device:", 8) != 0) {
        tf_chrome_trimmed(s, out);
        return;
    }
    struct tf_buf b;
    tf_buf_init(&b);
    bool first = true;
    while (*s == '/') {
        const char *seg = ++s;
        while (*s && *s != '/')
            s++;
        size_t n = (size_t)(s - seg);
        if ((n >= 4 && memcmp(seg, "job:", 4) == 0) || (n >= 8 && memcmp(seg, "replica:", 8) == 0) ||
            (n >= 5 && memcmp(seg, "task:", 5) == 0))
            continue;
        if (n >= 7 && memcmp(seg, "device:", 7) == 0)
            seg += 7, n -= 7;
        if (!first)
            tf_buf_putc(&b, '/');
        tf_buf_putn(&b, seg, n);
        first = false;
    }
    tf_buf_puts(&b, s);
    tf_chrome_trimmed(b.data ? b.data : "", out);
    if (b.oom)
        out->oom = true;
    tf_buf_fini(&b);
}

/* --- tooltips ---------------------------------------------------------------------- */

/* An arg a tooltip shows: its key at p[k, k + klen), its value p[j, ve). */
struct arg_span {
    size_t k, klen, j, ve;
};

/* Whether an arg's key is one of those a tooltip names first. */
static bool useful_key(const unsigned char *key, size_t klen)
{
    static const struct {
        const char *s;
        size_t n;
    } useful[] = {{"stream", 6}, {"grid", 4},   {"block", 5},  {"correlation", 11},
                  {"External id", 11}, {"bytes", 5}, {"device", 6}, {"Memcpy Bytes", 12}};
    for (size_t k = 0; k < sizeof useful / sizeof useful[0]; k++)
        if (useful[k].n == klen && memcmp(useful[k].s, key, klen) == 0)
            return true;
    return false;
}

/* The end of the string whose opening quote is at p[i] (its closing quote). */
static size_t string_end(const unsigned char *p, size_t n, size_t i)
{
    size_t e = i + 1;
    while (e < n && p[e] != '"')
        e += p[e] == '\\' ? 2 : 1;
    return e;
}

/* The text of the args worth a tooltip: a few named ones (up to four, in
 * the args' order), else the first three scalars.  One walk over the args
 * collects both. */
uint32_t tf_chrome_args_text(struct chrome *c, const struct tf_tef_rec *r)
{
    if (!r->args)
        return c->empty;
    struct tf_buf *b = &c->tmp;
    tf_buf_clear(b);
    tf_buf_putn(b, "", 0);
    struct arg_span named[4], plain[3];
    size_t n_named = 0, n_plain = 0;
    const unsigned char *p = r->args;
    size_t n = r->args_len;
    for (size_t i = 0; i < n && n_named < 4; i++) {
        if (p[i] != '"')
            continue;
        size_t ke = string_end(p, n, i);
        if (ke >= n)
            break;
        size_t j = ke + 1;
        while (j < n && (p[j] == ' ' || p[j] == '\n' || p[j] == '\t' || p[j] == '\r'))
            j++;
        if (j >= n || p[j] != ':') {
            i = ke;
            continue;
        }
        j++;
        while (j < n && (p[j] == ' ' || p[j] == '\n' || p[j] == '\t' || p[j] == '\r'))
            j++;
        size_t ve = j;
        bool scalar = j < n && p[j] != '{' && p[j] != '[';
        if (j < n && p[j] == '"') {
            ve = string_end(p, n, j) + 1;
        } else {
            while (ve < n && p[ve] != ',' && p[ve] != '}' && p[ve] != ']')
                ve++;
        }
        size_t klen = ke - i - 1;
        if (scalar && ve - j < 80) {
            struct arg_span a = {i + 1, klen, j, ve};
            if (useful_key(p + i + 1, klen))
                named[n_named++] = a;
            else if (n_plain < 3)
                plain[n_plain++] = a;
        }
        /* Skip the value (containers by bracket depth). */
        if (!scalar) {
            int depth = 0;
            for (ve = j; ve < n; ve++) {
                if (p[ve] == '"') {
                    ve = string_end(p, n, ve);
                } else if (p[ve] == '{' || p[ve] == '[') {
                    depth++;
                } else if ((p[ve] == '}' || p[ve] == ']') && --depth == 0) {
                    break;
                }
            }
        }
        i = ve;
    }
    const struct arg_span *show = n_named ? named : plain;
    size_t n_show = n_named ? n_named : n_plain;
    for (size_t k = 0; k < n_show; k++) {
        const struct arg_span *a = &show[k];
        if (k)
            tf_buf_puts(b, ", ");
        tf_buf_putn(b, (const char *)p + a->k, a->klen);
        tf_buf_puts(b, ": ");
        if (p[a->j] == '"')
            tf_buf_putn(b, (const char *)p + a->j + 1, a->ve - a->j >= 2 ? a->ve - a->j - 2 : 0);
        else
            tf_buf_putn(b, (const char *)p + a->j, a->ve - a->j);
    }
    uint32_t id = c->empty;
    if (b->oom || !tf_strtab_id(&c->strs, b->data ? b->data : "", &id))
        c->oom = true;
    return id;
}

/* The tooltip's separator, " · ". */
#define DOT " \xC2\xB7 "

/* "N LABEL" then rest: a merged bar's count (no printf: one per bar). */
static void tip_count(struct tf_buf *tip, size_t n, const char *label, const char *rest)
{
    tf_buf_uint(tip, (unsigned)n);
    tf_buf_putc(tip, ' ');
    tf_buf_puts(tip, label);
    tf_buf_puts(tip, rest);
}

/* "NUM UNIT" */
static void tip_num(struct tf_buf *tip, const char *num, const char *unit)
{
    tf_buf_puts(tip, num);
    tf_buf_putc(tip, ' ');
    tf_buf_puts(tip, unit);
}

bool tf_chrome_bar_text(const struct chrome *c, struct tf_figure *f, struct tf_bar *b,
                        const struct obar *ob, const char *cat_label, double per,
                        const char *unit)
{
    const char *name = tf_strtab_str(&c->strs, ob->name);
    const char *cat = tf_strtab_str(&c->strs, ob->cat);
    struct tf_buf tip;
    tf_buf_init(&tip);
    char num[TF_NUM_MAX], num2[TF_NUM_MAX];
    double len = (double)(ob->t1 - ob->t0);
    if (ob->merged && ob->instant) {
        /* "N CAT instants · at X UNIT over LEN UNIT" */
        b->name = cat_label;
        tip_count(&tip, ob->merged, cat_label, " instants" DOT "at ");
        tip_num(&tip, tf_fmt_num(num, (double)(ob->t0 - c->x_origin) / per, 3), unit);
        tf_buf_puts(&tip, " over ");
        tip_num(&tip, tf_fmt_num(num2, len / per, 3), unit);
    } else if (ob->n_parts) {
        /* "N CAT slices · busy P% of LEN UNIT" */
        b->name = cat_label;
        tip_count(&tip, ob->merged, cat_label, " slices" DOT "busy ");
        tf_buf_puts(&tip, tf_fmt_num(num, 100.0 * (double)ob->busy / (len > 0 ? len : 1), 0));
        tf_buf_puts(&tip, "% of ");
        tip_num(&tip, tf_fmt_num(num2, len / per, 3), unit);
    } else {
        /* "NAME[ · CAT] · at X UNIT[ · LEN UNIT][ · ARGS]" */
        b->name = tf_figure_str(f, name);
        char shortn[128];
        tf_chrome_short_name(name, shortn, sizeof shortn);
        if (!ob->instant && *shortn && !(b->label = tf_figure_str(f, shortn)))
            return false;
        size_t nlen = strlen(name);
        if (nlen > TF_CHROME_TIP_NAME_MAX) {
            tf_buf_putn(&tip, name, TF_CHROME_TIP_NAME_MAX);
            tf_buf_puts(&tip, "\xE2\x80\xA6");
        } else {
            tf_buf_putn(&tip, name, nlen);
        }
        if (*cat) {
            tf_buf_puts(&tip, DOT);
            tf_buf_puts(&tip, cat);
        }
        tf_buf_puts(&tip, DOT "at ");
        tip_num(&tip, tf_fmt_num(num, (double)(ob->t0 - c->x_origin) / per, 3), unit);
        if (!ob->instant) {
            tf_buf_puts(&tip, DOT);
            tip_num(&tip, tf_fmt_num(num2, len / per, 3), unit);
        }
        const char *args = tf_strtab_str(&c->strs, ob->args);
        if (*args) {
            tf_buf_puts(&tip, DOT);
            tf_buf_puts(&tip, args);
        }
    }
    b->title = tf_figure_buf(f, &tip);
    tf_buf_fini(&tip);
    return b->name && b->title;
}

/* --- the order of names and ids ------------------------------------------------------ */

/* Text with numbers in it, in the order people count: "stream 7" before
 * "stream 20" before "stream 100" (runs of digits compare by value); ties
 * (as "07" and "7") fall back to the bytes, so the order stays total. */
int tf_chrome_natural_cmp(const char *a, const char *b)
{
    const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
    while (*p && *q) {
        if (*p >= '0' && *p <= '9' && *q >= '0' && *q <= '9') {
            while (*p == '0')
                p++;
            while (*q == '0')
                q++;
            size_t m = 0, n = 0;
            while (p[m] >= '0' && p[m] <= '9')
                m++;
            while (q[n] >= '0' && q[n] <= '9')
                n++;
            if (m != n)
                return m < n ? -1 : 1;
            int k = memcmp(p, q, m);
            if (k)
                return k < 0 ? -1 : 1;
            p += m;
            q += n;
            continue;
        }
        if (*p != *q)
            return *p < *q ? -1 : 1;
        p++;
        q++;
    }
    if (*p || *q)
        return *p ? 1 : -1;
    return strcmp(a, b);
}

int tf_chrome_cmp_id(const struct tf_id *a, const struct tf_id *b)
{
    if (a->kind != b->kind)
        return a->kind == TF_ID_NUM ? -1 : b->kind == TF_ID_NUM ? 1 : (int)a->kind - (int)b->kind;
    if (a->kind == TF_ID_NUM)
        return (a->num > b->num) - (a->num < b->num);
    if (a->kind == TF_ID_STR)
        return tf_chrome_natural_cmp(a->str, b->str);
    return 0;
}
