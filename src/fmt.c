/* fmt.c - see fmt.h. */
#include "fmt.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *tf_fmt_num(char out[TF_NUM_MAX], double v, int decimals)
{
    if (!isfinite(v))
        v = 0.0;
    if (decimals < 0)
        decimals = 0;
    if (decimals > 9)
        decimals = 9;
    int n = snprintf(out, TF_NUM_MAX, "%.*f", decimals, v);
    if (n < 0 || n >= TF_NUM_MAX) {
        strcpy(out, "0");
        return out;
    }
    /* Whatever the C library used as a decimal point becomes '.'. */
    char *p = out + (out[0] == '-');
    while (*p >= '0' && *p <= '9')
        p++;
    if (*p != '\0') {
        char *q = p;
        while (*q && !(*q >= '0' && *q <= '9'))
            q++;
        *p = '.';
        memmove(p + 1, q, strlen(q) + 1);
        /* Trim trailing zeros, then a bare point. */
        char *end = out + strlen(out);
        while (end > p + 1 && end[-1] == '0')
            *--end = '\0';
        if (end == p + 1)
            *p = '\0';
    }
    if (strcmp(out, "-0") == 0)
        strcpy(out, "0");
    return out;
}

const char *tf_fmt_color(char out[8], uint32_t rgb)
{
    static const char hex[] = "0123456789ABCDEF";
    out[0] = '#';
    for (int i = 0; i < 6; i++)
        out[1 + i] = hex[(rgb >> (20 - 4 * i)) & 0xF];
    out[7] = '\0';
    return out;
}

void tf_buf_init(struct tf_buf *b)
{
    memset(b, 0, sizeof *b);
}

void tf_buf_fini(struct tf_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

void tf_buf_clear(struct tf_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

static bool buf_reserve(struct tf_buf *b, size_t extra)
{
    if (b->oom)
        return false;
    if (b->len + extra + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) {
        if (cap > SIZE_MAX / 2) {
            b->oom = true;
            return false;
        }
        cap *= 2;
    }
    char *p = realloc(b->data, cap);
    if (!p) {
        b->oom = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void tf_buf_putn(struct tf_buf *b, const char *s, size_t n)
{
    if (!buf_reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void tf_buf_putc(struct tf_buf *b, char c)
{
    tf_buf_putn(b, &c, 1);
}

void tf_buf_puts(struct tf_buf *b, const char *s)
{
    tf_buf_putn(b, s, strlen(s));
}

void tf_buf_printf(struct tf_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !buf_reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void tf_buf_num(struct tf_buf *b, double v, int decimals)
{
    char tmp[TF_NUM_MAX];
    tf_buf_puts(b, tf_fmt_num(tmp, v, decimals));
}

void tf_buf_json_str(struct tf_buf *b, const char *s)
{
    tf_buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': tf_buf_puts(b, "\\\""); break;
        case '\\': tf_buf_puts(b, "\\\\"); break;
        case '\n': tf_buf_puts(b, "\\n"); break;
        case '\r': tf_buf_puts(b, "\\r"); break;
        case '\t': tf_buf_puts(b, "\\t"); break;
        default:
            if (*p < 0x20 || *p == 0x7F)
                tf_buf_printf(b, "\\u%04x", *p);
            else
                tf_buf_putc(b, (char)*p);
        }
    }
    tf_buf_putc(b, '"');
}

void tf_buf_tex_escape(struct tf_buf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '#': case '$': case '%': case '&': case '_': case '{': case '}':
            tf_buf_putc(b, '\\');
            tf_buf_putc(b, (char)*p);
            break;
        case '\\': tf_buf_puts(b, "\\textbackslash{}"); break;
        case '^': tf_buf_puts(b, "\\^{}"); break;
        case '~': tf_buf_puts(b, "\\textasciitilde{}"); break;
        case '<': tf_buf_puts(b, "\\textless{}"); break;
        case '>': tf_buf_puts(b, "\\textgreater{}"); break;
        case '|': tf_buf_puts(b, "\\textbar{}"); break;
        case '"': tf_buf_puts(b, "\\textquotedbl{}"); break;
        case '[': tf_buf_puts(b, "{[}"); break;
        case ']': tf_buf_puts(b, "{]}"); break;
        case '-':
            tf_buf_putc(b, '-');
            if (p[1] == '-')
                tf_buf_puts(b, "{}");
            break;
        default:
            if (*p < 0x20 || *p == 0x7F)
                break; /* control bytes have no meaning in TeX text */
            tf_buf_putc(b, (char)*p);
        }
    }
}

/* Length of the valid UTF-8 sequence at p (1..4), or 0 when invalid. */
static size_t utf8_len(const unsigned char *p)
{
    unsigned c = p[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned min;
    if ((c & 0xE0) == 0xC0) { n = 2; min = 0x80; c &= 0x1F; }
    else if ((c & 0xF0) == 0xE0) { n = 3; min = 0x800; c &= 0x0F; }
    else if ((c & 0xF8) == 0xF0) { n = 4; min = 0x10000; c &= 0x07; }
    else return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (p[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    if (c == 0xFFFE || c == 0xFFFF) /* not XML characters */
        return 0;
    return n;
}

char *tf_xml_clean(const char *s)
{
    struct tf_buf b;
    tf_buf_init(&b);
    tf_buf_puts(&b, ""); /* an empty string still gets a buffer */
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t n = utf8_len(p);
        if (n == 0) {
            tf_buf_puts(&b, "\xEF\xBF\xBD");
            p++;
        } else if (n == 1 && ((*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r') || *p == 0x7F)) {
            tf_buf_puts(&b, "\xEF\xBF\xBD");
            p++;
        } else {
            tf_buf_putn(&b, (const char *)p, n);
            p += n;
        }
    }
    if (b.oom) {
        tf_buf_fini(&b);
        return NULL;
    }
    return b.data;
}
