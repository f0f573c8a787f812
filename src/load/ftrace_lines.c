/* ftrace_lines.c - the lines of ftrace text: a file or pipe (gzip'd or
 * not, through input.c), bytes in memory (a JSON string's, decoded), or a
 * systrace HTML page's data; see ftrace_int.h.
 *
 * Text.  A line is the bytes up to a newline (a '\r' before it dropped),
 * at most FT_LINE_MAX.  A control byte in a line (other than a tab) is
 * damage, and a file whose last line has no newline was cut: both are
 * errors naming the line, since the text is the kernel's own and has
 * neither.
 *
 * HTML.  Newer systrace pages hold the trace in `<script
 * class="trace-data" type="application/text">` blocks, up to `</script>`:
 * a block whose first non-blank byte is '{' or '[' is JSON (the host's
 * clock-sync records) and is passed over.  Older pages (Android 4.1 to
 * 4.3) hold it in a JavaScript string, `var linuxPerfData = "...";`, one
 * line of text per line of the page, each written as `...\n\`: the
 * string's escapes are decoded and its '\n's end the lines.  A block or
 * string never closed is a cut page.
 */
#include "load/ftrace_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RBUF ((size_t)1 << 16)

bool ft_lines_init(struct ft_lines *l, const char *file, struct tf_input *in,
                   const unsigned char *mem, size_t len, enum ft_form form, struct tf_diag *d)
{
    memset(l, 0, sizeof *l);
    l->file = file;
    l->d = d;
    l->in = in;
    l->mem = mem;
    l->mem_len = len;
    l->form = form;
    l->where = in ? "line" : "systemTraceEvents line";
    tf_buf_init(&l->raw);
    tf_buf_init(&l->js);
    tf_buf_init(&l->out);
    if (in && !(l->rbuf = malloc(RBUF)))
        return tf_diag_oom(d, file);
    return true;
}

void ft_lines_fini(struct ft_lines *l)
{
    free(l->rbuf);
    tf_buf_fini(&l->raw);
    tf_buf_fini(&l->js);
    tf_buf_fini(&l->out);
}

bool ft_lines_rewind(struct ft_lines *l)
{
    if (l->in && !tf_input_seek(l->in, 0))
        return false;
    l->mem_pos = 0;
    l->rpos = l->rlen = 0;
    l->eof = false;
    l->off = 0;
    l->lineno = 0;
    l->block = FT_OUT;
    l->n_blocks = 0;
    tf_buf_clear(&l->js);
    l->js_pos = 0;
    return true;
}

bool ft_lines_bad(const struct ft_lines *l, const char *what)
{
    return tf_diag_error(l->d, TF_EBADINPUT, "%s: %s %llu: %s", l->file, l->where,
                         (unsigned long long)l->lineno, what);
}

/* More raw bytes: false at the end (or on a read error, said). */
static bool fill(struct ft_lines *l)
{
    if (l->eof)
        return false;
    if (!l->in) {
        l->eof = true;
        if (l->mem_pos == l->mem_len)
            return false;
        /* the bytes in memory are read where they are */
        l->rlen = l->mem_len;
        l->rpos = 0;
        l->mem_pos = l->mem_len;
        return true;
    }
    ssize_t n = tf_input_read(l->in, l->rbuf, RBUF);
    if (n <= 0) {
        l->eof = true;
        return false;
    }
    l->rpos = 0;
    l->rlen = (size_t)n;
    return true;
}

static const unsigned char *rbytes(const struct ft_lines *l)
{
    return l->in ? l->rbuf : l->mem;
}

/* The next raw line into l->raw: 1, 0 at the end, -1 on an error.  `keep`:
 * a longer line than FT_LINE_MAX is an error, else its rest is dropped. */
static int raw_line(struct ft_lines *l, bool keep)
{
    tf_buf_clear(&l->raw);
    l->raw_nl = false;
    bool any = false;
    char tail[16];
    size_t n_tail = 0;
    for (;;) {
        if (l->rpos == l->rlen && !fill(l)) {
            if (l->in && tf_diag_failed(l->d))
                return -1;
            break;
        }
        any = true;
        const unsigned char *b = rbytes(l) + l->rpos;
        size_t avail = l->rlen - l->rpos;
        const unsigned char *nl = memchr(b, '\n', avail);
        size_t take = nl ? (size_t)(nl - b) : avail;
        /* a page's lines outside its text blocks (its scripts, an old
         * page's string) may be long: bounded higher */
        bool page = l->form == FT_HTML && (l->block != FT_DATA || l->block_first);
        size_t max = page ? FT_JS_MAX : FT_LINE_MAX;
        size_t room = max > l->raw.len ? max - l->raw.len : 0;
        if (take > room) {
            if (keep) {
                l->lineno++;
                ft_lines_bad(l, page ? "a line longer than 256 MiB (a damaged file?)"
                                     : "a line longer than 1 MiB (a damaged file?)");
                return -1;
            }
            tf_buf_putn(&l->raw, (const char *)b, room);
            /* the dropped rest's last bytes, where a `</script>` may be */
            for (size_t i = room; i < take; i++) {
                if (n_tail == sizeof tail) {
                    memmove(tail, tail + 1, sizeof tail - 1);
                    n_tail--;
                }
                tail[n_tail++] = (char)b[i];
            }
        } else {
            tf_buf_putn(&l->raw, (const char *)b, take);
        }
        l->rpos += take + (nl != NULL);
        l->off += take + (nl != NULL);
        if (nl) {
            l->raw_nl = true;
            break;
        }
    }
    tf_buf_putn(&l->raw, tail, n_tail);
    if (l->raw.oom) {
        tf_diag_oom(l->d, l->file);
        return -1;
    }
    if (!any)
        return 0;
    l->lineno++;
    if (l->raw.len && l->raw.data[l->raw.len - 1] == '\r')
        l->raw.len--;
    return 1;
}

/* A text line's bytes: a control byte is damage. */
static bool text_ok(struct ft_lines *l, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f) {
            char what[96];
            snprintf(what, sizeof what, "a control byte 0x%02x at column %zu: not ftrace text "
                     "(a damaged file?)", c, i + 1);
            return ft_lines_bad(l, what);
        }
    }
    return true;
}

static const char *find(const char *s, size_t n, const char *what)
{
    size_t k = strlen(what);
    for (size_t i = 0; i + k <= n; i++)
        if (s[i] == what[0] && memcmp(s + i, what, k) == 0)
            return s + i;
    return NULL;
}

/* Decodes JavaScript string bytes c[0 .. n) onto l->js; true at the
 * string's closing quote (*used: the bytes read). */
static bool js_decode(struct ft_lines *l, const char *c, size_t n, size_t *used)
{
    size_t i = 0;
    while (i < n) {
        char ch = c[i++];
        if (ch == '"') {
            *used = i;
            return true;
        }
        if (ch != '\\') {
            tf_buf_putc(&l->js, ch);
            continue;
        }
        if (i == n)
            break; /* a line continuation */
        char e = c[i++];
        switch (e) {
        case 'n': tf_buf_putc(&l->js, '\n'); break;
        case 't': tf_buf_putc(&l->js, '\t'); break;
        case 'r': break;
        case 'x':
        case 'u': {
            size_t k = e == 'x' ? 2 : 4;
            unsigned v = 0;
            size_t j = 0;
            for (; j < k && i + j < n; j++) {
                char h = c[i + j];
                int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                        : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
                if (d < 0)
                    break;
                v = v * 16 + (unsigned)d;
            }
            i += j;
            tf_buf_putc(&l->js, v >= 0x20 && v < 0x7f ? (char)v : '?');
            break;
        }
        default: tf_buf_putc(&l->js, e); break;
        }
    }
    *used = n;
    return false;
}

/* The next line of a systrace page's data. */
static int html_next(struct ft_lines *l, const char **s, size_t *n)
{
    for (;;) {
        if (l->js_pos < l->js.len || l->block == FT_JS) {
            char *b = l->js.data ? l->js.data : (char *)"";
            char *nl = memchr(b + l->js_pos, '\n', l->js.len - l->js_pos);
            if (nl) {
                *s = b + l->js_pos;
                *n = (size_t)(nl - *s);
                l->js_pos = (size_t)(nl - b) + 1;
                return 1;
            }
            if (l->block != FT_JS && l->js_pos < l->js.len) {
                /* the string's last line, without a newline */
                *s = b + l->js_pos;
                *n = l->js.len - l->js_pos;
                l->js_pos = l->js.len;
                return 1;
            }
            memmove(b, b + l->js_pos, l->js.len - l->js_pos);
            l->js.len -= l->js_pos;
            l->js_pos = 0;
        }
        int k = raw_line(l, (l->block == FT_DATA && !l->block_first) || l->block == FT_JS);
        if (k < 0)
            return -1;
        if (k == 0) {
            if (l->block == FT_OUT)
                return 0;
            ft_lines_bad(l, l->block == FT_JS ? "the page is cut: its linuxPerfData string "
                                                "never ends"
                                              : "the page is cut: a trace-data block never "
                                                "ends (no </script>)");
            return -1;
        }
        const char *c = l->raw.data ? l->raw.data : "";
        size_t cn = l->raw.len;
        if (l->block == FT_OUT) {
            const char *tag = find(c, cn, "trace-data");
            const char *js = find(c, cn, "linuxPerfData");
            if (tag && find(c, (size_t)(tag - c), "<script")) {
                const char *gt = memchr(tag, '>', cn - (size_t)(tag - c));
                if (!gt)
                    continue;
                l->block = FT_DATA;
                l->block_first = true;
                cn -= (size_t)(gt + 1 - c);
                c = gt + 1;
            } else if (js) {
                /* the string assigned, `linuxPerfData = "`: not the
                 * page's code that uses the name */
                const char *q = js + 13, *end = c + cn;
                while (q < end && (*q == ' ' || *q == '\t'))
                    q++;
                if (q == end || *q++ != '=')
                    continue;
                while (q < end && (*q == ' ' || *q == '\t'))
                    q++;
                if (q == end || *q != '"')
                    continue;
                l->block = FT_JS;
                l->n_blocks++;
                cn -= (size_t)(q + 1 - c);
                c = q + 1;
            } else {
                continue;
            }
        }
        if (l->block == FT_JS) {
            size_t used;
            if (js_decode(l, c, cn, &used))
                l->block = FT_OUT;
            if (l->js.oom) {
                tf_diag_oom(l->d, l->file);
                return -1;
            }
            continue;
        }
        const char *end = find(c, cn, "</script>");
        size_t dn = end ? (size_t)(end - c) : cn;
        if (l->block == FT_DATA && l->block_first) {
            size_t i = 0;
            while (i < dn && (c[i] == ' ' || c[i] == '\t'))
                i++;
            if (i < dn) {
                l->block_first = false;
                if (c[i] == '{' || c[i] == '[')
                    l->block = FT_SKIP;
                else
                    l->n_blocks++;
            }
        }
        bool data = l->block == FT_DATA;
        if (end)
            l->block = FT_OUT;
        if (!data)
            continue;
        if (!text_ok(l, c, dn))
            return -1;
        *s = c;
        *n = dn;
        return 1;
    }
}

int ft_lines_next(struct ft_lines *l, const char **s, size_t *n)
{
    if (l->form == FT_HTML)
        return html_next(l, s, n);
    int k = raw_line(l, true);
    if (k <= 0)
        return k;
    if (l->in && !l->raw_nl)
    {
        ft_lines_bad(l, "the file is cut: its last line has no end (no newline)");
        return -1;
    }
    *s = l->raw.data ? l->raw.data : "";
    *n = l->raw.len;
    if (l->lineno == 1 && *n >= 3 && memcmp(*s, "\xef\xbb\xbf", 3) == 0) {
        *s += 3; /* a UTF-8 byte order mark */
        *n -= 3;
    }
    return text_ok(l, *s, *n) ? 1 : -1;
}
